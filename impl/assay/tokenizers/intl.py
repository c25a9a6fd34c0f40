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
One ``regex`` pass with a small callback per punctuation run does all three rules;
``reference_tokenize`` is the literal three-regex version, used as the oracle in tests.

``tokenize_lines`` joins the corpus with a separator that is a number character (``²``, ``³``,
``¹``, ``¼``, ``½``, ``¾``, …; the first one absent from the corpus), so every segment boundary
behaves exactly like a string end, runs the pass once and cuts at the separator.
"""
from __future__ import annotations

import re
from typing import Sequence

import regex

from .base import Lowercase, Tokenizer, choose_separator, lowercase_text

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
    """``re`` character classes equal to the installed ``regex`` module's ``\\p{P}``, ``\\p{S}``,
    ``\\p{N}`` (built once, on first use, by scanning every code point with ``regex`` itself, so
    they follow whatever Unicode version that ``regex`` release has, exactly like sacrebleu)."""

    _built: "_Classes | None" = None

    def __init__(self) -> None:
        import numpy as np

        every = np.arange(0x110000, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")

        def inner(prop: str) -> str:
            parts = []
            for m in regex.finditer(prop, every):
                lo, hi = m.span()
                parts.append(re.escape(chr(lo)) if hi - lo == 1
                             else f"{re.escape(chr(lo))}-{re.escape(chr(hi - 1))}")
            return "".join(parts)

        p, s, n = inner(r"\p{P}+"), inner(r"\p{S}+"), inner(r"\p{N}+")
        # exceptions to "isolate every P and S": a lone mark between numbers, or a run of >= 2
        # marks followed by a number (see the module docstring)
        self.exceptions = re.compile(f"([{n}])[{p}](?=[{n}])|[{p}]{{2,}}(?=[{n}])")
        self.isolate = re.compile(f"([{p}{s}])")
        self.is_number = re.compile(f"[{n}]").match

    @classmethod
    def get(cls) -> "_Classes":
        if cls._built is None:
            cls._built = cls()
        return cls._built


# Private-use placeholders (category Co: not P, S or N) and number separators (\p{N}, not
# whitespace, punctuation or symbols, caseless and not case-ignorable).
_PLACEHOLDERS = "".join(chr(c) for c in range(0xE000, 0xE040))
SEPARATOR_CANDIDATES = "\u00b2\u00b3\u00b9\u00bc\u00bd\u00be\u2189\u2150\u2151\u2152\u2153\u2154\u2155"


def _rewrite_wrapped(text: str) -> str | None:
    """Rules 1-3 on ``text`` whose first and last characters are numbers (separators)."""
    classes = _Classes.get()
    free = [c for c in _PLACEHOLDERS[:8] if c not in text][:2]
    if len(free) < 2:
        free = [c for c in _PLACEHOLDERS if c not in text][:2]
        if len(free) < 2:
            return None
    keep, right = free
    held: list[str] = []
    is_number = classes.is_number

    def protect(m: "re.Match[str]") -> str:
        left = m.group(1)
        if left is not None:  # a lone mark between numbers: glued on both sides
            held.append(m.group()[-1])
            return left + keep
        run = m.group()
        start = m.start()
        if (len(run) % 2 == 1) == (is_number(text, start - 1) is not None):
            held.append(run[-1])
            return run[:-1] + right
        return run

    text = classes.exceptions.sub(protect, text)
    text = " ".join(classes.isolate.split(text))
    if held:
        it = iter(held)
        text = re.sub(f"[{keep}{right}]", lambda m: next(it) if m.group() == keep else " " + next(it), text)
    return text


def apply_intl_regexes(text: str) -> str:
    """Rules 1-3 (fast form); same tokens as :func:`reference_intl_regexes`."""
    for sep in SEPARATOR_CANDIDATES:
        if sep not in text:
            out = _rewrite_wrapped(sep + text + sep)
            if out is not None:
                return out[1:-1]
            break
    return reference_intl_regexes(text)


def intl_batch(lines: Sequence[str]) -> list[str]:
    """Rules 1-3 on every line at once; returns the rewritten lines (spacing not normalised)."""
    found = choose_separator(lines, SEPARATOR_CANDIDATES)
    if found is not None:
        sep, text = found
        out = _rewrite_wrapped(sep + text + sep)
        if out is not None:
            return out[1:-1].split(sep)
    return [reference_intl_regexes(line) for line in lines]


class TokenizerIntl(Tokenizer):
    name = "intl"
    signature_name = "intl"

    def tokenize(self, line: str) -> str:
        return " ".join(apply_intl_regexes(line).split())

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return apply_intl_regexes(lowercase_text(line, lowercase).rstrip()).split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        if not lines:
            return []
        if lowercase is not None:
            lines = [lowercase_text(line, lowercase) for line in lines]
        return [piece.split() for piece in intl_batch([line.rstrip() for line in lines])]
