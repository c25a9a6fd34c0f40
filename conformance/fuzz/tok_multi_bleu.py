"""Fuzz ``multi-bleu`` (:mod:`assay.tokenizers.multi_bleu`): no rewriting; tokens are the fields
between runs of ASCII whitespace, so every other character (NBSP, U+3000, U+001C) stays inside."""
from __future__ import annotations

from assay.tokenizers.base import ASCII_SPACE_CHARS
from assay.tokenizers.multi_bleu import TokenizerMultiBleu
from conformance.fuzz.common import Draw, char_in, fuzz_tokenizer

TOKENIZER = TokenizerMultiBleu()
SEEDS = [b"", b"\x02\x20 a\x0bb\xa0c\x1cd \x81", b"\x02\x02\x20" + bytes(range(0x80, 0xa0))]
_ASCII_SPACE = char_in(ASCII_SPACE_CHARS)


def _rejoined(tokens: list[str], line: str) -> None:
    # no rewriting: without lowercasing the tokens are exactly the ASCII-whitespace fields
    fields = "".join(" " if c in ASCII_SPACE_CHARS else c for c in line).split(" ")
    assert TOKENIZER.tokenize_segment(line) == [f for f in fields if f], repr(line)


def one_input(data: bytes) -> None:
    fuzz_tokenizer(TOKENIZER, Draw(data), separators=_ASCII_SPACE, check=_rejoined)
