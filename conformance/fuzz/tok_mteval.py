"""Fuzz ``mteval-13a`` and ``mteval-intl`` (:mod:`assay.tokenizers.mteval`): tokens are Perl
``split`` fields, so they never hold Perl whitespace (but may hold U+001C-U+001F)."""
from __future__ import annotations

from assay.tokenizers.base import PERL_SPACE_CHARS
from assay.tokenizers.mteval import TokenizerMteval13a, TokenizerMtevalIntl
from conformance.fuzz.common import Draw, char_in, fuzz_tokenizer

TOKENIZERS = (TokenizerMteval13a(), TokenizerMtevalIntl())
SEEDS = [b"", b"\x00\x02\x20&amp;lt; <skipped> \x1c x 2019. \xb0", b"\x01\x03\x30" + bytes(range(0, 48)),
         b"\x00\x02\x02\x30" + bytes(range(0x80, 0xb0))]
_PERL_SPACE = char_in(PERL_SPACE_CHARS)


def one_input(data: bytes) -> None:
    draw = Draw(data)
    fuzz_tokenizer(draw.pick(TOKENIZERS), draw, separators=_PERL_SPACE)
