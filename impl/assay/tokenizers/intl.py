"""``intl``: sacrebleu's ``intl`` tokenizer (mteval-v14's ``--international-tokenization`` rules).

Rules, on one segment, with the ``regex`` module's Unicode classes (sacrebleu 2.6.0, checked by
running it; see ``fixtures/tokenizers/sacrebleu.json``):

1. ``(\\P{N})(\\p{P})`` -> ``\\1 \\2 ``: punctuation preceded by a non-number;
2. ``(\\p{P})(\\P{N})`` -> `` \\1 \\2``: punctuation followed by a non-number;
3. ``(\\p{S})`` -> `` \\1 ``: every symbol isolated;
4. whitespace normalised (Python ``str.split()``/``' '.join``, so U+001C-U+001F split).

Nothing else: no entity unescaping (``&quot;`` -> ``& quot ;``), no ``<skipped>`` removal
(``< skipped >``), no lowercasing. The string ends count as numbers: sentence-final ``2019.``
stays one token, and so does ``.5`` at the start, but ``2019. `` (trailing space) splits, so the
``rstrip()`` sacrebleu's BLEU applies before tokenising matters; ``tokenize_segment`` and
``tokenize_lines`` apply it (after lowercasing), ``tokenize`` does not.

Fast form (same tokens). Rules 1 and 2 consume the character before/after a punctuation mark, so
their effect on a maximal run of ``k`` punctuation marks with neighbours L and R (a string end
counts as a number) is: every mark of the run becomes its own token, except (k == 1, L and R
numbers) the run stays glued to both (``3.5``, ``2019.``) and (k >= 2, R a number) the last mark
stays glued to R when rule 1 did not match it: ``k`` even and L not a number, or ``k`` odd and L
a number (``a..5`` -> ``a . .5``). Symbols are neither P nor N, so rule 3 commutes with 1-2.
So the engine (1) finds the only places where that default can be wrong, a mark followed by a
number, with one ``re`` scan and a small callback that looks at the run, and parks the marks that
stay glued behind private-use placeholders; (2) isolates every mark and symbol with one
``re.split``; (3) puts the parked marks back. The classes are the installed ``regex`` module's
``\\p{P}``/``\\p{S}``/``\\p{N}`` (read off every code point once, on first use), compiled for
``re`` on the Basic Multilingual Plane; text with astral characters uses ``regex`` patterns.
``reference_tokenize`` is the literal three-regex version, used as the oracle in tests.

Compiled twin (``assay.tokenizers._intl_c``, :mod:`assay.core.accel`): one scan over the code points
applies the same run rule with the classes read from a byte table of every code point
(:meth:`_Classes.table`, built from the same ``regex`` scan), so both paths agree on every code
point; ``tokenize_lines`` and :meth:`TokenizerIntl.id_encoder` (text straight to ids) use it.

``tokenize_lines`` joins the corpus with a separator that is a number character (``²``, ``³``,
``¹``, ``¼``, ``½``, ``¾``, …; the first one absent from the corpus), so every segment start
behaves exactly like a string start; a lone mark after a number at a segment end (``2019.``) is
parked before joining. The result is cut at the separator.
"""
from __future__ import annotations

import re
from functools import cached_property
from typing import Callable, Hashable, Optional, Sequence

import numpy as np
import regex

from assay.core import accel
from assay.tokenizers.base import (IdEncoder, Lowercase, Tokenizer, choose_separator, distinct_batch, id_encoder_from,
                                   lowercase_text, lowercaser)

try:
    from assay.tokenizers import _intl_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

_R1 = regex.compile(r"(\P{N})(\p{P})")
_R2 = regex.compile(r"(\p{P})(\P{N})")
_R3 = regex.compile(r"(\p{S})")


def reference_intl_regexes(text: str) -> str:
    """Rules 1-3 exactly as stated (the oracle for :func:`apply_intl_regexes`)."""
    text = _R1.sub(r"\1 \2 ", text)
    text = _R2.sub(r" \1 \2", text)
    return _R3.sub(r" \1 ", text)


def reference_tokenize(line: str) -> str:
    return " ".join(reference_intl_regexes(line).split())


class _Classes:
    """The installed ``regex`` module's ``\\p{P}``, ``\\p{S}`` and ``\\p{N}`` as sets and as ``re``
    character classes (built once, on first use, by scanning every code point with ``regex``
    itself, so they follow the Unicode version of that ``regex`` release, exactly like sacrebleu).

    ``re`` only gets the Basic Multilingual Plane (a class with astral characters cannot use
    ``re``'s fast big-charset matcher); text holding astral characters uses ``regex`` patterns.
    """

    _built: "_Classes | None" = None

    def __init__(self) -> None:
        every = np.arange(0x110000, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")

        def spans(prop: str) -> list[tuple[int, int]]:
            return [m.span() for m in regex.finditer(prop, every)]

        p, s, n = spans(r"\p{P}+"), spans(r"\p{S}+"), spans(r"\p{N}+")
        self._spans = {1: p, 2: s, 4: n}
        self._table: bytes | None = None
        self._bn = n
        self._mark_before_number: dict[str, tuple[re.Pattern[str], regex.Pattern[str]]] = {}

    # The pure path's views, built on first use (the compiled twin needs only :meth:`table`).
    @cached_property
    def punct(self) -> frozenset[str]:
        return frozenset(chr(c) for lo, hi in self._spans[1] for c in range(lo, hi))

    @cached_property
    def number(self) -> frozenset[str]:
        return frozenset(chr(c) for lo, hi in self._spans[4] for c in range(lo, hi))

    @cached_property
    def _bp(self) -> str:
        return self._bmp_class(self._spans[1])

    @cached_property
    def _bs(self) -> str:
        return self._bmp_class(self._spans[2])

    @staticmethod
    def _bmp_class(ranges: list[tuple[int, int]]) -> str:
        """The BMP part of ``ranges`` as the inside of an ``re`` character class."""
        parts = []
        for lo, hi in ranges:
            hi = min(hi, 0x10000)
            if lo >= hi:
                continue
            parts.append(re.escape(chr(lo)) if hi - lo == 1
                         else f"{re.escape(chr(lo))}-{re.escape(chr(hi - 1))}")
        return "".join(parts)

    @cached_property
    def isolate(self) -> tuple["re.Pattern[str]", "regex.Pattern[str]"]:
        """Every mark and symbol (``re`` BMP version, ``regex`` version); compiled on first use
        (a tenth of a second: the compiled twin never needs it)."""
        return re.compile(f"([{self._bp}{self._bs}])"), regex.compile(r"([\p{P}\p{S}])")

    def mark_before_number(self, sep: str) -> tuple["re.Pattern[str]", "regex.Pattern[str]"]:
        """A mark followed by a number other than ``sep``: the only place where "isolate every
        mark" can be wrong inside a line (``re`` BMP version, ``regex`` version)."""
        pats = self._mark_before_number.get(sep)
        if pats is None:
            code = ord(sep)
            numbers = []
            for lo, hi in self._bn:
                if lo <= code < hi:
                    numbers += [r for r in ((lo, code), (code + 1, hi)) if r[0] < r[1]]
                else:
                    numbers.append((lo, hi))
            pats = (re.compile(f"[{self._bp}](?=[{self._bmp_class(numbers)}])"),
                    regex.compile(rf"\p{{P}}(?=[\p{{N}}--{regex.escape(sep)}])", regex.V1))
            self._mark_before_number[sep] = pats
        return pats

    def table(self) -> bytes:
        """One byte per code point U+0000-U+10FFFF: bit 1 = ``\\p{P}``, 2 = ``\\p{S}``, 4 = ``\\p{N}``
        (the compiled twin's view of the same classes)."""
        if self._table is None:
            out = np.zeros(0x110000, dtype=np.uint8)
            for bit, ranges in self._spans.items():
                for lo, hi in ranges:
                    out[lo:hi] |= bit
            self._table = out.tobytes()
        return self._table

    @classmethod
    def get(cls) -> "_Classes":
        if cls._built is None:
            cls._built = cls()
        return cls._built


# Private-use placeholders (category Co: not P, S or N) and separators: \p{N} characters that are
# not whitespace, punctuation or symbols, and are caseless and not case-ignorable.
_PLACEHOLDERS = "".join(chr(c) for c in range(0xE000, 0xE100))
SEPARATOR_CANDIDATES = "\u00b2\u00b3\u00b9\u00bc\u00bd\u00be\u2189\u2150\u2151\u2152\u2153\u2154\u2155"


def _free_chars(text: str, count: int) -> list[str] | None:
    """``count`` placeholder characters that do not occur in ``text`` (None if there are none)."""
    free = []
    for c in _PLACEHOLDERS:
        if c not in text:
            free.append(c)
            if len(free) == count:
                return free
    return None


def _fill(text: str, marker: str, held: list[str], prefix: str = "") -> str:
    """Replace the placeholders ``marker`` in ``text`` by ``prefix + c`` for the held characters
    ``c``, in order (``str.split`` finds them much faster than a regex scan)."""
    pieces = text.split(marker)
    out = [pieces[0]]
    for char, piece in zip(held, pieces[1:]):
        out.append(prefix + char)
        out.append(piece)
    return "".join(out)


def _rewrite(lines: Sequence[str]) -> list[str] | None:
    """Rules 1-3 on every line; the lines are rewritten (spacing not normalised)."""
    classes = _Classes.get()
    punct, number = classes.punct, classes.number
    found = choose_separator(lines, SEPARATOR_CANDIDATES)
    if found is None:
        return None
    sep, text = found
    free = _free_chars(text, 3)
    if free is None:
        return None
    keep, right, keep_end = free
    # 1. line ends: a string end counts as a number, but the separator after it is one too, so
    #    only a lone mark after a number needs care ("2019." stays whole).
    ends = [i for i, line in enumerate(lines) if line[-1:] in punct]
    ends = [i for i in ends if len(lines[i]) == 1 or lines[i][-2] in number]
    held_end: list[str] = []
    if ends:
        lines = list(lines)
        for i in ends:
            held_end.append(lines[i][-1])
            lines[i] = lines[i][:-1] + keep_end
        text = sep.join(lines)
    text = sep + text + sep
    astral = len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text)
    held_keep: list[str] = []
    held_right: list[str] = []

    # 2. marks followed by a number inside a line
    def protect(m: "re.Match[str]") -> str:
        end = m.start()
        start = end
        while text[start - 1] in punct:
            start -= 1
        k = end - start + 1
        left_num = text[start - 1] in number
        if k == 1:
            if left_num:
                held_keep.append(m.group())
                return keep
        elif (k % 2 == 1) == left_num:
            held_right.append(m.group())
            return right
        return m.group()

    text = classes.mark_before_number(sep)[1 if astral else 0].sub(protect, text)
    # 3. isolate every mark and symbol
    text = " ".join(classes.isolate[1 if astral else 0].split(text))
    # 4. restore the protected marks
    if held_keep:
        text = _fill(text, keep, held_keep)
    if held_right:
        text = _fill(text, right, held_right, " ")
    if held_end:
        text = _fill(text, keep_end, held_end)
    return text[1:-1].split(sep)


def apply_intl_regexes(text: str) -> str:
    """Rules 1-3 (fast form) on one string; same tokens as :func:`reference_intl_regexes`."""
    out = _rewrite([text])
    return reference_intl_regexes(text) if out is None else out[0]


def intl_batch(lines: Sequence[str]) -> list[str]:
    """Rules 1-3 on every line at once; returns the rewritten lines (spacing not normalised)."""
    if not lines:
        return []
    out = _rewrite(lines)
    return [reference_intl_regexes(line) for line in lines] if out is None else out


def intl_id_encoder(lower: Optional[Callable[[str], str]], perl_space: bool, rstrip: bool, key: Hashable
                    ) -> Optional[IdEncoder]:
    """The compiled id encoder of the international rules (None on the pure path): ``lower``, an
    optional ``rstrip``, the rules, a Python (sacrebleu) or Perl (mteval) whitespace split (``key``:
    see :func:`assay.tokenizers.base.id_encoder_from`)."""
    if _compiled is None:
        return None
    from assay.tokenizers._tok_13a_c import CodeTable   # local: compiled path only

    classes = _Classes.get().table()
    return id_encoder_from(CodeTable, lambda table, lines: _compiled.encode_lines(table, lines, lower, classes, perl_space,
                                                                                 rstrip), key)


def intl_tokenize_lines(lines: list[str], lower: Optional[Callable[[str], str]], perl_space: bool,
                        rstrip: bool) -> Optional[list[list[str]]]:
    """The compiled ``tokenize_lines`` of the international rules (None on the pure path)."""
    if _compiled is None:
        return None
    return _compiled.tokenize_lines(lines, lower, _Classes.get().table(), perl_space, rstrip)


class TokenizerIntl(Tokenizer):
    name = "intl"
    signature_name = "intl"

    def tokenize(self, line: str) -> str:
        return " ".join(apply_intl_regexes(line).split())

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return apply_intl_regexes(lowercase_text(line, lowercase).rstrip()).split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        if _compiled is not None:
            lower, table = lowercaser(lowercase), _Classes.get().table()
            return distinct_batch(lines, lambda distinct: _compiled.tokenize_lines(distinct, lower, table))
        return distinct_batch(lines, lambda distinct: self._batch(distinct, lowercase))

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """Compiled path only: ``tokenize_lines`` straight to ids (see the base class)."""
        return intl_id_encoder(lowercaser(lowercase), perl_space=False, rstrip=True, key=(self.name, lowercase))

    def _batch(self, lines: list[str], lowercase: Lowercase) -> list[list[str]]:
        if not lines:
            return []
        if lowercase is not None:
            lines = [lowercase_text(line, lowercase) for line in lines]
        return [piece.split() for piece in intl_batch([line.rstrip() for line in lines])]
