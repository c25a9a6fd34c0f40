"""Fuzz ``char`` (:mod:`assay.tokenizers.char`): every token is one non-whitespace character, in order."""
from __future__ import annotations

from assay.tokenizers.char import TokenizerChar
from conformance.fuzz.common import Draw, agrees_with_oracle, fuzz_tokenizer

TOKENIZER = TokenizerChar()
SEEDS = [b"", b"\x02\x10ab cd\xa0\xa1", b"\x02\x02\x20" + bytes(range(0x80, 0xa0))]


def _one_char_each(tokens: list[str], line: str) -> None:
    assert all(len(t) == 1 for t in tokens), tokens
    assert TOKENIZER.tokenize_segment(line) == [c for c in line if not c.isspace()], repr(line)


def one_input(data: bytes) -> None:
    draw = Draw(data)
    agrees_with_oracle(TOKENIZER, " ".join, draw.text())
    fuzz_tokenizer(TOKENIZER, draw, check=_one_char_each)
