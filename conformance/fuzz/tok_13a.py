"""Fuzz ``13a`` (:mod:`assay.tokenizers.tok_13a`): the tokenizer contract, the fast engine against
``reference_tokenize`` (the literal regexes its docstring names as the oracle) and, when the
compiled twin is built, ``id_encoder`` against its documented equivalent (``tokenize_lines``, then
:func:`assay.text.ngrams.encode_py` with one fresh vocabulary)."""
from __future__ import annotations

import numpy as np

from assay.text.ngrams import encode_py
from assay.tokenizers.tok_13a import Tokenizer13a, reference_tokenize
from conformance.fuzz.common import LOWERCASES, Draw, agrees_with_oracle, assay_errors_only, fuzz_tokenizer

TOKENIZER = Tokenizer13a()
SEEDS = [b"", b"\x02\x20Hello, world. 3.5 10-20 &quot;x&quot; <skipped>", b"\x00\x02\x10a\x00b\x01c\x02d\x03e\x04f",
         b"\x02\x02\x30" + bytes(range(0x80, 0xb0)), b"\x00\x00\x01\x03\x02\x02\x08ab\x81cd.e\x03\x02\x04ABC,\x02\x01\x80"]


def _ids_match_tokens(draw: Draw) -> None:
    make = getattr(TOKENIZER, "id_encoder", None)
    lowercase, lines = draw.pick(LOWERCASES), draw.lines()
    lines = lines + lines[:draw.below(3)]             # repeated lines take the distinct-lines path
    with assay_errors_only():
        encode = make(lowercase) if make is not None else None
        if encode is None:                           # the pure path has no id encoder
            return
        ids, lengths = encode(lines)
        want = encode_py(TOKENIZER.tokenize_lines(lines, lowercase), {})
        assert np.array_equal(np.asarray(lengths), np.diff(want.offsets)), (lines, lowercase, lengths)
        assert np.array_equal(np.asarray(ids), want.ids), (lines, lowercase, ids, want.ids)


def one_input(data: bytes) -> None:
    draw = Draw(data)
    agrees_with_oracle(TOKENIZER, reference_tokenize, draw.text())
    fuzz_tokenizer(TOKENIZER, draw)
    _ids_match_tokens(draw)
