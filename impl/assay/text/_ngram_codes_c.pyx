"""Compiled twin of :mod:`assay.text.ngram_codes` (the pure module is the specification).

:func:`code_ngrams_into`: order 1 codes are the token ids; for each order n >= 2 a pair index
(:class:`assay.text._gram_index_c.PairIndex`, the one CIDEr's first pass keeps its n-grams in) maps
the pair (code of the (n-1)-gram prefix, id of the last token) to a dense code, in order of first
occurrence. Used by NIST (information weights) and CIDEr (document frequencies).
"""
from libc.stdint cimport int32_t, int64_t

import numpy as np

from assay.text._gram_index_c cimport PairIndex


def code_ngrams_into(const int64_t[::1] ids, const int64_t[::1] offsets, int max_order, int64_t vocab_size,
                     int32_t[:, ::1] codes):
    """Fill ``codes[n-1, p]`` (-1 past a caption's end); return ``(prefix, last, n_codes)`` per order."""
    cdef Py_ssize_t n_pos = ids.shape[0], n_caps = offsets.shape[0] - 1
    cdef Py_ssize_t c, p, start, end
    cdef int n
    cdef PairIndex table
    empty = np.zeros(0, dtype=np.int32)
    prefix, last, n_codes = [empty], [empty], [int(vocab_size)]
    if max_order < 1:
        return prefix, last, n_codes
    for p in range(n_pos):
        codes[0, p] = <int32_t>ids[p]
    cdef Py_ssize_t expected = vocab_size
    for n in range(2, max_order + 1):
        table = PairIndex(min(n_pos, max(2 * expected, 1 << 16)))   # orders grow: sized from the last one
        for c in range(n_caps):
            start = offsets[c]
            end = offsets[c + 1]
            for p in range(start, end - n + 1):
                codes[n - 1, p] = table._insert(codes[n - 2, p], <int32_t>ids[p + n - 1])
            for p in range(max(start, end - n + 1), end):
                codes[n - 1, p] = -1
        expected = table.count
        pairs = table.pairs()
        prefix.append(pairs[0])
        last.append(pairs[1])
        n_codes.append(int(table.count))
    return prefix, last, n_codes
