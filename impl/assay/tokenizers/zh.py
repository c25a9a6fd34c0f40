"""``zh``: sacrebleu's Chinese tokenizer, range bug included.

Rules, on one segment (sacrebleu 2.6.0, checked by running it; see
``fixtures/tokenizers/sacrebleu.json``):

1. ``strip()`` (Python whitespace, so U+001C-U+001F too);
2. every "Chinese" character gets a space on each side;
3. the 13a *regex* rules 4a-4d (see :mod:`assay.tokenizers.tok_13a`) on the **unpadded** text, so
   a string end blocks them like a digit would (``.5`` and ``5.`` stay whole, ``a.5`` splits);
   no ``<skipped>`` removal, no ``-\\n`` join, no entity unescaping (``&quot;x`` ->
   ``& quot ; x``);
4. whitespace collapsed; tokens are ``str.split()``.

Quirk reproduced (sacrebleu issue #298): its range table spells the CJK Extension B and
Compatibility Supplement ranges as two-character strings, so comparisons make **U+2001-U+2A6D**
(general punctuation, currency signs such as ``€``, arrows, maths, dingbats, …) "Chinese" and
split, while real Extension-B ideographs (U+20000-U+2A6D6) and U+2F800-U+2FA1D are not
(``𠀀𠀁`` stays one token). The table below is what black-box probing of sacrebleu 2.6.0
found, isolating ``a<c>b`` and ``1<c>1`` for every code point (``conformance/regen_tokenizers.py
--probe-zh``); whitespace characters inside a range (U+2000-U+200A, U+2028/9, U+202F, U+205F,
U+3000) cannot be observed and make no difference, and ASCII punctuation is split by rule 3 anyway.
Hiragana/Katakana (U+3040-U+30FF) and Hangul are not "Chinese". ``fixtures/tokenizers`` stores
the probed table and a test compares it to :data:`CHINESE_RANGES`.

Compiled twin: the 13a engine of ``assay.tokenizers._tok_13a_c`` with zh's options: ``strip()``,
no rules 1-3, a string end counting as a digit, and the Chinese characters isolated like rule 4a
punctuation (a table of the BMP built from :data:`CHINESE_RANGES`: every range lies in the BMP).
``tokenize_lines`` and :meth:`TokenizerZh.id_encoder` use it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional, Sequence

from assay.tokenizers.base import (IdEncoder, Lowercase, Tokenizer, choose_separator, distinct_batch, id_encoder_from,
                                   lowercase_text, lowercaser)
from assay.tokenizers.tok_13a import (SEPARATOR_CANDIDATES, _apply_bytes, _compiled, _NoPlaceholder,
                                      reference_13a_regexes)

# Inclusive ranges of code points sacrebleu 2.6.0 isolates as "Chinese" (probed; see docstring).
CHINESE_RANGES: tuple[tuple[int, int], ...] = (
    (0x2001, 0x2A6D),  # range bug: General Punctuation ... Supplemental Arrows-B / Math Operators
    (0x2E80, 0x2FDF),  # CJK Radicals Supplement, Kangxi Radicals
    (0x2FF0, 0x2FFF),  # Ideographic Description Characters
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31EF),  # Bopomofo Extended, CJK Strokes
    (0x3200, 0x4DB5),  # Enclosed CJK, CJK Compatibility, Extension A (to 4DB5 only)
    (0x4E00, 0x9FBB),  # CJK Unified Ideographs (to 9FBB only)
    (0xF900, 0xFA2D),  # CJK Compatibility Ideographs
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0xFE10, 0xFE1F),  # Vertical Forms
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
)

_CHINESE = re.compile("([" + "".join(f"{re.escape(chr(lo))}-{re.escape(chr(hi))}"
                                     for lo, hi in CHINESE_RANGES) + "])")


@lru_cache(maxsize=1)
def isolate_table() -> bytes:
    """One flag per BMP code point: 1 where :data:`CHINESE_RANGES` isolates it (the compiled path)."""
    table = bytearray(0x10000)
    for lo, hi in CHINESE_RANGES:
        table[lo:hi + 1] = b"\x01" * (hi + 1 - lo)
    return bytes(table)


def is_chinese_char(ch: str) -> bool:
    """True if sacrebleu 2.6.0's ``zh`` tokenizer isolates ``ch`` as Chinese."""
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in CHINESE_RANGES)


def isolate_chinese(text: str) -> str:
    """Rule 2: a space on each side of every Chinese character."""
    return " ".join(_CHINESE.split(text))


def reference_tokenize(line: str) -> str:
    """Rules 1-4 with the literal 13a regexes (the oracle for ``TokenizerZh.tokenize``)."""
    text = "".join(f" {c} " if is_chinese_char(c) else c for c in line.strip())
    return " ".join(reference_13a_regexes(text).split())


def _zh_batch(lines: Sequence[str]) -> list[str] | None:
    """Rules 2-3 on stripped lines, all at once; None if no separator byte is free."""
    found = choose_separator(lines, SEPARATOR_CANDIDATES)
    if found is None:
        return None
    sep, text = found
    text = isolate_chinese(sep + text + sep)
    try:
        data = _apply_bytes(text.encode("utf-8", "surrogatepass"), boundary=ord(sep))
    except _NoPlaceholder:
        return None
    return data.decode("utf-8", "surrogatepass").split(sep)[1:-1]


_STRIP = 2   # the compiled engine's trim: str.strip()


class TokenizerZh(Tokenizer):
    name = "zh"
    signature_name = "zh"

    def tokenize(self, line: str) -> str:
        out = _zh_batch([line.strip()])
        return reference_tokenize(line) if out is None else " ".join(out[0].split())

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        # sacrebleu's BLEU rstrips before calling the tokenizer; zh strips anyway
        return self.tokenize(lowercase_text(line, lowercase)).split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        if _compiled is not None:
            lower, table = lowercaser(lowercase), isolate_table()
            return distinct_batch(lines, lambda distinct: _compiled.tokenize_lines(
                distinct, lower, None, _STRIP, ends_digit=True, isolate=table))
        return distinct_batch(lines, lambda distinct: self._batch(distinct, lowercase))

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """Compiled path only: ``tokenize_lines`` straight to ids (see the base class)."""
        if _compiled is None:
            return None
        lower, table = lowercaser(lowercase), isolate_table()
        return id_encoder_from(_compiled.CodeTable, lambda code_table, lines: code_table.encode_lines(
            lines, lower, None, _STRIP, ends_digit=True, isolate=table), (self.name, lowercase))

    def _batch(self, lines: list[str], lowercase: Lowercase) -> list[list[str]]:
        if not lines:
            return []
        if lowercase is not None:
            lines = [lowercase_text(line, lowercase) for line in lines]
        out = _zh_batch([line.strip() for line in lines])
        if out is None:
            return [reference_tokenize(line).split() for line in lines]
        return [piece.split() for piece in out]
