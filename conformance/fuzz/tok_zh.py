"""Fuzz ``zh`` (:mod:`assay.tokenizers.zh`): the tokenizer contract, and the batched byte engine
against ``reference_tokenize`` (the documented oracle, range bug included)."""
from __future__ import annotations

from assay.tokenizers.zh import TokenizerZh, reference_tokenize
from conformance.fuzz.common import Draw, agrees_with_oracle, fuzz_tokenizer

TOKENIZER = TokenizerZh()
SEEDS = [b"", b"\x02\x20\xa0\xa1 a.5 5. .5 \xa3\xa4\xa5", b"\x03\x30" + bytes(range(0x20, 0x50)),
         b"\x02\x02\x30" + bytes(range(0x90, 0xc0))]


def one_input(data: bytes) -> None:
    draw = Draw(data)
    agrees_with_oracle(TOKENIZER, reference_tokenize, draw.text())
    fuzz_tokenizer(TOKENIZER, draw)
