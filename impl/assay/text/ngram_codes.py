"""Every n-gram of a set of segments as an integer code (NIST's information weights, CIDEr's
document frequencies).

Order 1 codes are the token ids; an n-gram of order n >= 2 is the pair (code of its (n-1)-gram
prefix, id of its last token), numbered densely. ``Coded.prefix``/``Coded.last`` give each code's
pair, so an n-gram table (:mod:`assay.text.ngram_table`) can be keyed on it. The compiled twin
(``_ngram_codes_c``) numbers codes in order of first occurrence; the pure path ranks the pairs; the
codes differ in numbering only, which nothing reads (conformance/tests/accel/test_nist_twins.py and
test_cider_twins.py compare the n-grams behind the codes).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from assay.core import accel
from assay.text.ngrams import Encoded, NgramIndex

try:
    from assay.text import _ngram_codes_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


@dataclass(frozen=True)
class Coded:
    """Every n-gram of a set of segments (or captions) as integer codes."""

    codes: np.ndarray           # (max_order, n_positions) int32; -1: the n-gram runs past its segment
    prefix: list[np.ndarray]    # prefix[n-1][c]: the order n-1 code of code c's prefix (order 1: empty)
    last: list[np.ndarray]      # last[n-1][c]: the token id ending code c (order 1: empty)
    n_codes: list[int]          # codes of each order (order 1: the vocabulary size)



def code_ngrams(ids: np.ndarray, offsets: np.ndarray, max_order: int, vocab_size: int) -> Coded:
    """The n-gram codes of segments ``ids[offsets[k]:offsets[k+1]]`` (token ids < ``vocab_size``)."""
    if _compiled is None:
        return code_ngrams_py(ids, offsets, max_order, vocab_size)
    codes = np.empty((max_order, len(ids)), dtype=np.int32)
    prefix, last, n_codes = _compiled.code_ngrams_into(np.ascontiguousarray(ids, dtype=np.int64),
                                                       np.ascontiguousarray(offsets, dtype=np.int64),
                                                       max_order, vocab_size, codes)
    return Coded(codes, prefix, last, n_codes)


def code_ngrams_py(ids: np.ndarray, offsets: np.ndarray, max_order: int, vocab_size: int) -> Coded:
    """:func:`code_ngrams`, pure numpy (the specification of the twin)."""
    ids = np.asarray(ids, dtype=np.int64)
    index = NgramIndex([Encoded(ids, np.asarray(offsets, dtype=np.int64))], max_order)
    codes = np.full((max_order, len(ids)), -1, dtype=np.int32)
    empty = np.zeros(0, dtype=np.int32)
    prefix, last, n_codes = [empty], [empty], [int(vocab_size)]
    for n in range(1, max_order + 1):
        valid = index.valid[n - 1]
        codes[n - 1][valid] = index.codes[n - 1][valid]
        if n == 1:
            continue
        where = np.flatnonzero(valid)
        nc = int(codes[n - 1][where].max()) + 1 if len(where) else 0
        pre = np.zeros(nc, dtype=np.int32)
        end = np.zeros(nc, dtype=np.int32)
        pre[codes[n - 1][where]] = codes[n - 2][where]
        end[codes[n - 1][where]] = ids[where + n - 1]
        prefix.append(pre)
        last.append(end)
        n_codes.append(nc)
    return Coded(codes, prefix, last, n_codes)
