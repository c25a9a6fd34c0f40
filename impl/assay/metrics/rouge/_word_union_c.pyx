"""Compiled twin of :func:`assay.metrics.rouge.word_union.store_counts_py` (``lcs_union=words``).

The same steps as the pure module, in C: per pair, the LCS length table of every (reference
sentence, hypothesis sentence) in a reused int32 buffer, the words read back from the ends (equal
last words taken; else the reference's word dropped only when that keeps a strictly longer LCS),
and either the distinct words gathered over the pair (a stamp per token id: ``sets``) or the sum
of the LCS lengths. Counts are integers, so the arrays equal the pure ones exactly.
"""
from libc.stdint cimport int32_t, int64_t
from cpython.mem cimport PyMem_Free

from assay.text._buffers cimport grow

import numpy as np


cdef Py_ssize_t _lcs_words(const int64_t* x, Py_ssize_t n, const int64_t* y, Py_ssize_t m, int32_t* table,
                           int64_t* out) noexcept nogil:
    """The LCS of ``x`` (reference) and ``y`` (hypothesis) read back into ``out``; returns its length."""
    cdef Py_ssize_t i, j, k = 0, w = m + 1
    cdef int32_t a, b
    for j in range(w):
        table[j] = 0
    for i in range(1, n + 1):
        table[i * w] = 0
        for j in range(1, m + 1):
            if x[i - 1] == y[j - 1]:
                table[i * w + j] = table[(i - 1) * w + j - 1] + 1
            else:
                a = table[(i - 1) * w + j]
                b = table[i * w + j - 1]
                table[i * w + j] = a if a > b else b
    i = n
    j = m
    while i > 0 and j > 0:
        if x[i - 1] == y[j - 1]:
            out[k] = x[i - 1]
            k += 1
            i -= 1
            j -= 1
        elif table[(i - 1) * w + j] > table[i * w + j - 1]:
            i -= 1
        else:
            j -= 1
    return k


def store_counts(const int64_t[::1] tokens, const int64_t[::1] start, const int64_t[::1] length,
                 const int64_t[::1] first, const int64_t[::1] count, const int64_t[::1] pair_h,
                 const int64_t[::1] pair_r, bint sets):
    """(hits, ref_count, peer_count) float64 arrays of every pair (see the module docstring)."""
    cdef Py_ssize_t n_pairs = pair_h.shape[0], n_docs = first.shape[0], n_tok = tokens.shape[0]
    cdef Py_ssize_t p, d, s, t, rs, hs, k, nx, ny, vocab = 1
    cdef int64_t h, r, mark, total, distinct
    hits_arr = np.zeros(n_pairs, dtype=np.float64)
    ref_arr = np.zeros(n_pairs, dtype=np.float64)
    peer_arr = np.zeros(n_pairs, dtype=np.float64)
    if n_pairs == 0:
        return hits_arr, ref_arr, peer_arr
    cdef double[::1] hits = hits_arr, ref = ref_arr, peer = peer_arr
    for t in range(n_tok):
        if tokens[t] + 1 > vocab:
            vocab = tokens[t] + 1
    stamp_arr = np.full(vocab, -1, dtype=np.int64)
    size_arr = np.zeros(n_docs, dtype=np.int64)       # per document: token count, or distinct tokens
    cdef int64_t[::1] stamp = stamp_arr, size = size_arr
    for d in range(n_docs):
        total = 0
        distinct = 0
        for s in range(first[d], first[d] + count[d]):
            total += length[s]
            for t in range(start[s], start[s] + length[s]):
                if stamp[tokens[t]] != d:
                    stamp[tokens[t]] = d
                    distinct += 1
        size[d] = distinct if sets else total
    stamp_arr.fill(-1)
    cdef size_t table_cap = 0, out_cap = 0
    cdef int32_t* table = NULL
    cdef int64_t* out = NULL
    cdef const int64_t* base = &tokens[0] if n_tok else NULL
    try:
        for p in range(n_pairs):
            h = pair_h[p]
            r = pair_r[p]
            mark = p
            total = 0
            for rs in range(first[r], first[r] + count[r]):
                nx = length[rs]
                for hs in range(first[h], first[h] + count[h]):
                    ny = length[hs]
                    if nx == 0 or ny == 0:
                        continue
                    table = <int32_t*>grow(table, <size_t>((nx + 1) * (ny + 1)) * sizeof(int32_t), &table_cap)
                    out = <int64_t*>grow(out, <size_t>(nx if nx < ny else ny) * sizeof(int64_t), &out_cap)
                    k = _lcs_words(base + start[rs], nx, base + start[hs], ny, table, out)
                    if sets:
                        for t in range(k):
                            if stamp[out[t]] != mark:
                                stamp[out[t]] = mark
                                total += 1
                    else:
                        total += k
            hits[p] = <double>total
            ref[p] = <double>size[r]
            peer[p] = <double>size[h]
    finally:
        PyMem_Free(table)
        PyMem_Free(out)
    return hits_arr, ref_arr, peer_arr
