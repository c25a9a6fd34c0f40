"""Fuzz ``tercom`` (:mod:`assay.tokenizers.ter`) under every combination of its four switches;
tokens are ``str.split()`` fields. (Lowercasing is the ``case_sensitive`` switch, not the argument.)"""
from __future__ import annotations

from itertools import product

from assay.tokenizers.ter import TokenizerTercom
from conformance.fuzz.common import Draw, fuzz_tokenizer

TOKENIZERS = tuple(TokenizerTercom(*switches) for switches in product((False, True), repeat=4))
SEEDS = [b"", b"\x0f\x02\x20It's 3.5, &quot;x&quot; 10-20 \xa1\xa2", b"\x05\x02\x02\x30" + bytes(range(0x90, 0xc0))]


def one_input(data: bytes) -> None:
    draw = Draw(data)
    fuzz_tokenizer(draw.pick(TOKENIZERS), draw, lowercases=(None,))
