"""Fuzz ``intl`` (:mod:`assay.tokenizers.intl`): the tokenizer contract, and the fast form against
``reference_tokenize`` (the literal three regexes, the documented oracle)."""
from __future__ import annotations

from assay.tokenizers.intl import TokenizerIntl, reference_tokenize
from conformance.fuzz.common import Draw, agrees_with_oracle, fuzz_tokenizer

TOKENIZER = TokenizerIntl()
SEEDS = [b"", b"\x02\x20a..5 2019. .5 \xb2\xb3 \xa4 x", b"\x03\x30" + bytes(range(0, 48)),
         b"\x02\x02\x30" + bytes(range(0xb0, 0xe0))]


def one_input(data: bytes) -> None:
    draw = Draw(data)
    agrees_with_oracle(TOKENIZER, reference_tokenize, draw.text())
    fuzz_tokenizer(TOKENIZER, draw)
