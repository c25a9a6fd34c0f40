"""``13a``: sacrebleu's default tokenizer (mteval-v13a's tokenizer without its lowercasing).

Rules, in order, on one segment (sacrebleu 2.6.0, checked by running it; see
``fixtures/tokenizers/sacrebleu.json``):

1. remove every literal ``<skipped>`` (one left-to-right pass: ``<skip<skipped>ped>`` leaves
   ``<skipped>``, which is then split as punctuation);
2. ``-\\n`` -> ``''`` (line-break hyphen join), then ``\\n`` -> ``' '``;
3. if the segment contains ``&``: ``&quot;`` -> ``"``, ``&amp;`` -> ``&``, ``&lt;`` -> ``<``,
   ``&gt;`` -> ``>``, in that order (so ``&amp;lt;`` becomes ``<`` but ``&amp;quot;`` stays
   ``&quot;``); no other entity (``&apos;``, ``&#39;``, ``&nbsp;``) is touched;
4. pad with one space on each side, then four regex passes (non-overlapping, left to right):
   a. every ASCII punctuation/symbol character except ``' - . ,`` gets spaces around it;
   b. ``([^0-9])([.,])`` -> ``\\1 \\2 `` (a period/comma not preceded by a digit);
   c. ``([.,])([^0-9])`` -> `` \\1 \\2`` (not followed by a digit);
   d. ``([0-9])(-)`` -> ``\\1 \\2 `` (a hyphen after a digit);
   so ``1,000.50`` stays whole, sentence-final ``2019.`` is split, ``state-of-the-art`` is not;
5. collapse whitespace (Python ``\\s``, i.e. ``str.isspace``) to single spaces and strip.

Tokens are Python ``str.split()`` of the result. Quirk reproduced: Python's whitespace includes
U+001C-U+001F, so ``a\\x1cb`` is two tokens here but one token in mteval-v13a.pl (Perl ``\\s``
excludes them; see :mod:`assay.tokenizers.mteval`). sacrebleu's BLEU calls ``rstrip()`` on each
segment before tokenising (after lowercasing); ``tokenize_segment``/``tokenize_lines`` do the same,
``tokenize`` does not (it is the bare tokenizer call). The rstrip matters: ``'a-\\n'`` gives
``['a-']`` through the metric but ``['a']`` through the bare tokenizer.

How it is computed fast. Because passes b and c consume the character before/after a period or
comma, their effect on a maximal run of ``k`` periods/commas with neighbours L and R is:
every one becomes its own token, except (E1) ``k == 1`` with digits on both sides (``3.5``:
untouched) and (E2) ``k >= 2`` with a digit R, where the last one stays attached to R when
pass b did not match it, i.e. when ``k`` is even and L is not a digit, or ``k`` is odd and L is
a digit (``a..5`` -> ``a . .5``; ``1...5`` -> ``1 . . .5``; ``1..5`` -> ``1 . . 5``). Spaces
added by pass a are neither digits nor periods, so passes a, b, c and d commute. The engine
works on the UTF-8 bytes (every rule involves ASCII only, and UTF-8 never uses ASCII bytes inside
a multi-byte character): it finds the rare exceptions with ``bytes.find`` on a class mask,
protects them with placeholder bytes, isolates everything else with ``bytes.replace``, and
restores the placeholders. ``reference_tokenize`` is the literal regex version; hypothesis
tests check that both agree, and the fixture checks both against sacrebleu.

``tokenize_lines`` processes a whole corpus in one pass: lines are joined with `` <SEP> `` where
SEP is a control character absent from the corpus (U+0000-U+0008, U+000E-U+001B, U+007F: not
whitespace, not matched by any rule, unchanged by lowercasing); the padding spaces around SEP
keep every rule inside its own segment, so the result equals per-line processing (tested with
hypothesis, including U+001C-U+001F, U+0085, U+2028/9 and lone surrogates in the lines). When at
most half of the lines are distinct (a reference stream repeated for several systems), only the
distinct ones are tokenised (:func:`assay.tokenizers.base.distinct_batch`; nothing is cached
between calls).

Compiled twin (``assay.tokenizers._tok_13a_c``, :mod:`assay.core.accel`): one scan over the code
points applies rules 4-5 and cuts the tokens as slices (13a only inserts spaces, so every token is
a slice of the text after rules 1-3); rules 1-3 and lowercasing stay the Python functions of this
module. ``tokenize_lines`` uses it; :meth:`Tokenizer13a.id_encoder` goes one step further and
interns the slices straight into integer ids (no ``str`` per token), for the n-gram metrics.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from assay.core import accel
from assay.tokenizers.base import (IdEncoder, Lowercase, Tokenizer, choose_separator, distinct_batch, id_encoder_from,
                                   lowercase_text, lowercaser)

try:
    from assay.tokenizers import _tok_13a_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

# ---------------------------------------------------------------------------------------------
# The literal rules (reference implementation, used by the tests and by nothing hot).
_RE_PUNCT = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_RE_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_RE_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_RE_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def reference_13a_regexes(padded: str) -> str:
    """Rule 4 (a-d) exactly as stated, with ``re`` (slow; the oracle for :func:`apply_13a_regexes`)."""
    text = _RE_PUNCT.sub(r" \1 ", padded)
    text = _RE_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _RE_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _RE_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def reference_tokenize(line: str) -> str:
    """Rules 1-5 with the literal regexes, one segment (the oracle for ``Tokenizer13a.tokenize``)."""
    return " ".join(reference_13a_regexes(f" {rules_1_to_3(line)} ").split())


# ---------------------------------------------------------------------------------------------
# Rules 1-3.
def strip_skipped_and_join(text: str) -> str:
    """Rules 1-2: drop ``<skipped>``, join ``-\\n``, turn ``\\n`` into a space."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    return text


def rules_1_to_3(text: str) -> str:
    """Rules 1-3 on one segment (``<skipped>``, line breaks, the four entities)."""
    return unescape_13a(strip_skipped_and_join(text))


def unescape_13a(text: str) -> str:
    """Rule 3: the four entities, in sacrebleu/mteval order, only when ``&`` occurs."""
    if "&" in text:
        text = (text.replace("&quot;", '"').replace("&amp;", "&")
                .replace("&lt;", "<").replace("&gt;", ">"))
    return text


# ---------------------------------------------------------------------------------------------
# Rule 4, fast (see the module docstring).
_PUNCT_A = b"!\"#$%&()*+/:;<=>?@[\\]^_`{|}~"  # rule 4a without the space (isolating a space is a no-op)
_NOT_PUNCT_A = bytes(b for b in range(256) if b not in _PUNCT_A)
_PUNCT_A_BYTES = {c: (bytes([c]), b" " + bytes([c]) + b" ") for c in _PUNCT_A}
_DIGIT, _PC, _DASH = ord("0"), ord("."), ord("-")
_MASK = bytes(_DIGIT if 0x30 <= b <= 0x39 else _PC if b in b".," else _DASH if b == _DASH else ord("x")
              for b in range(256))
# Control bytes usable as placeholders or separators: not whitespace for str.split/bytes.split,
# not matched by any 13a/zh rule, unchanged by lowercasing, ASCII (so never inside UTF-8 sequences).
SEPARATOR_CANDIDATES = "".join(chr(c) for c in [*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F])


def _find_exceptions(mask: bytes, data: bytes, boundary: int | None
                     ) -> tuple[list[int], list[int], list[int]]:
    """Positions of E1 periods/commas, E2 (attach-right) periods/commas, and hyphens after digits."""
    keep: list[int] = []
    i = mask.find(b"0.0")
    while i != -1:
        keep.append(i + 1)
        i = mask.find(b"0.0", i + 2)
    right: list[int] = []
    i = mask.find(b"..")
    while i != -1:
        end = i + 2
        while mask[end] == _PC:  # the text is padded, so the run always ends before the last byte
            end += 1
        if mask[end] == _DIGIT:
            k = end - i
            left_digit = mask[i - 1] == _DIGIT
            if (k % 2 == 1) == left_digit:
                right.append(end - 1)
        i = mask.find(b"..", end)
    dash: list[int] = []
    i = mask.find(b"0-")
    while i != -1:
        if data[i] != boundary:  # a segment boundary is digit-like for rules b/c only
            dash.append(i + 1)
        i = mask.find(b"0-", i + 2)
    return keep, right, dash


def _free_bytes(data: bytes, count: int) -> list[bytes]:
    free = []
    for ch in SEPARATOR_CANDIDATES:
        b = ch.encode()
        if b not in data:
            free.append(b)
            if len(free) == count:
                return free
    raise _NoPlaceholder


class _NoPlaceholder(Exception):
    pass


def apply_13a_regexes(padded: str) -> str:
    """Rule 4 (a-d) on a string padded with spaces (every segment in it padded); same tokens as
    :func:`reference_13a_regexes`, only the number of spaces differs."""
    data = padded.encode("utf-8", "surrogatepass")
    try:
        data = _apply_bytes(data)
    except _NoPlaceholder:  # pathological input holding every control byte: use the literal rules
        return reference_13a_regexes(padded)
    return data.decode("utf-8", "surrogatepass")


_ANY_ENTITY = re.compile(rb"&(?:quot|amp|lt|gt);")


def _rules_1_to_3_bytes(data: bytes) -> bytes:
    """Rules 1-3 on UTF-8 bytes (all patterns are ASCII, so this equals the ``str`` version)."""
    if b"<skipped>" in data:
        data = data.replace(b"<skipped>", b"")
    if b"\n" in data:
        data = data.replace(b"-\n", b"").replace(b"\n", b" ")
    if _ANY_ENTITY.search(data):
        for entity, char in ((b"&quot;", b'"'), (b"&amp;", b"&"), (b"&lt;", b"<"), (b"&gt;", b">")):
            if entity in data:
                data = data.replace(entity, char)
    return data


def _apply_bytes(data: bytes, boundary: int | None = None) -> bytes:
    """Rule 4 on UTF-8 bytes. Segments are either padded with spaces (13a) or, for ``zh`` whose
    regex part runs on the unpadded text, delimited by a ``boundary`` byte (also first and last):
    a string end stops passes b and c from matching, exactly like a digit would."""
    if boundary is None:
        mask = data.translate(_MASK)
    else:
        table = bytearray(_MASK)
        table[boundary] = _DIGIT
        mask = data.translate(table)
    keep, right, dash = _find_exceptions(mask, data, boundary)
    restore: list[tuple[bytes, bytes]] = []
    if keep or right or dash:
        ph_keep_dot, ph_keep_comma, ph_right_dot, ph_right_comma, ph_dash = _free_bytes(data, 5)
        buf = bytearray(data)
        for i in keep:
            buf[i] = ph_keep_dot[0] if buf[i] == _PC else ph_keep_comma[0]
        for i in right:
            buf[i] = ph_right_dot[0] if buf[i] == _PC else ph_right_comma[0]
        for i in dash:
            buf[i] = ph_dash[0]
        data = bytes(buf)
        restore = [(ph_keep_dot, b"."), (ph_keep_comma, b","), (ph_right_dot, b" ."),
                   (ph_right_comma, b" ,"), (ph_dash, b" - ")]
    for c in set(data.translate(None, _NOT_PUNCT_A)):
        data = data.replace(*_PUNCT_A_BYTES[c])
    if b"." in data:
        data = data.replace(b".", b" . ")
    if b"," in data:
        data = data.replace(b",", b" , ")
    for ph, value in restore:
        if ph in data:
            data = data.replace(ph, value)
    return data


class Tokenizer13a(Tokenizer):
    name = "13a"
    signature_name = "13a"

    def tokenize(self, line: str) -> str:
        return " ".join(apply_13a_regexes(f" {rules_1_to_3(line)} ").split())

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return self.tokenize(lowercase_text(line, lowercase).rstrip()).split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        if _compiled is not None:
            lower = lowercaser(lowercase)
            return distinct_batch(lines, lambda distinct: _compiled.tokenize_lines(distinct, lower, rules_1_to_3))
        return distinct_batch(lines, lambda distinct: self._batch(distinct, lowercase))

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """Compiled path only (None on the pure path): a function ``lines -> (ids, lengths)`` that
        tokenises like :meth:`tokenize_lines` and interns the tokens into one table kept across its
        calls (ids 0, 1, ... in first-seen order): the same arrays as ``tokenize_lines`` followed by
        :func:`assay.text.ngrams.encode` with one fresh vocabulary, without a ``str`` per token.
        A line repeated in a call is scanned once (a reference stream repeated for several systems).
        """
        if _compiled is None:
            return None
        lower = lowercaser(lowercase)
        return id_encoder_from(_compiled.CodeTable, lambda table, lines: table.encode_lines(lines, lower, rules_1_to_3),
                               (self.name, lowercase))

    def _batch(self, lines: list[str], lowercase: Lowercase) -> list[list[str]]:
        if not lines:
            return []
        found = choose_separator([line.rstrip() for line in lines], SEPARATOR_CANDIDATES, " {} ")
        if found is None:  # every candidate occurs in the corpus: one line at a time
            return [self.tokenize_segment(line, lowercase) for line in lines]
        sep, text = found
        # Lowercasing the joined text is safe: ' SEP ' ends every case context (Final_Sigma).
        data = f" {lowercase_text(text, lowercase)} ".encode("utf-8", "surrogatepass")
        try:
            text = _apply_bytes(_rules_1_to_3_bytes(data)).decode("utf-8", "surrogatepass")
        except _NoPlaceholder:
            return [self.tokenize_segment(line, lowercase) for line in lines]
        return [piece.split() for piece in text.split(sep)]
