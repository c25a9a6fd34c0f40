"""Compiled twin of :mod:`assay.metrics.nist.matches` (same results, bit for bit).

- n-gram codes come from :mod:`assay.text.ngram_codes` (its twin ``assay.text._ngram_codes_c``, shared
  with the other corpus-pass family).
- :func:`log2_ratios_into`: ``log(num / den) / log(2)`` with the C library's ``log``, which is what
  ``math.log(num / den, 2)`` computes.
- :func:`nist_sums_into`: segment by segment and order by order, counters indexed by code (reset
  after each segment): the hypothesis's distinct n-grams in order of first occurrence, each
  reference's counts of them, the counts over the segment's references (this order's and the
  previous order's, for the prefixes); the floating-point operations are those of
  ``nist_sums_py``, in the same order.
"""
import numpy as np

from libc.math cimport log
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from assay.text._code_counts cimport count_codes


def log2_ratios_into(const int64_t[::1] num, const int64_t[::1] den, double ln2, double[::1] out):
    """``out[i] = log(num[i] / den[i]) / ln2`` where ``den[i] > 0`` (else left as it is)."""
    cdef Py_ssize_t i
    for i in range(num.shape[0]):
        if den[i] > 0:
            out[i] = log(<double>num[i] / <double>den[i]) / ln2


def nist_sums_into(const int32_t[:, ::1] codes, const int64_t[::1] offsets, Py_ssize_t n_seg, Py_ssize_t n_refs,
                   const double[::1] info, const int64_t[::1] bases, const int32_t[::1] prefix,
                   const int64_t[::1] prefix_bases, const double[::1] seg_words, double ln2, bint union,
                   Py_ssize_t max_codes, Py_ssize_t longest, double[:, ::1] total, object info_out, object seg_out):
    """Fill ``total`` and the matched information (see ``nist_sums_py``)."""
    cdef int max_order = codes.shape[0], n, cur, prv
    cdef Py_ssize_t s, r, k, p, cap, n_h, n_r, n_s, slots = max(max_codes, 1), width = max(longest, 1)
    cdef int32_t c, hc, clipped, best
    cdef Py_ssize_t count
    cdef double w_corpus, w_seg, numer, sum_i, sum_s
    cdef double[:, ::1] u_info, u_seg
    cdef double[:, :, ::1] r_info, r_seg
    if union:
        u_info = info_out
        u_seg = seg_out
    else:
        r_info = info_out
        r_seg = seg_out
    cdef int32_t* h_cnt = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* r_cnt = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* seg_a = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* seg_b = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* h_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* r_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* s_list_a = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef int32_t* s_list_b = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef int32_t* in_ref = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef double* ref_i = <double*>malloc(max(n_refs, 1) * sizeof(double))
    cdef double* ref_s = <double*>malloc(max(n_refs, 1) * sizeof(double))
    cdef int32_t* seg_cnt[2]
    cdef int32_t* seg_list[2]
    cdef Py_ssize_t seg_n[2]
    seg_cnt[0] = seg_a
    seg_cnt[1] = seg_b
    seg_list[0] = s_list_a
    seg_list[1] = s_list_b
    try:
        if (h_cnt == NULL or r_cnt == NULL or seg_a == NULL or seg_b == NULL or h_list == NULL or r_list == NULL
                or s_list_a == NULL or s_list_b == NULL or in_ref == NULL or ref_i == NULL or ref_s == NULL):
            raise MemoryError()
        for s in range(n_seg):
            seg_n[0] = 0
            seg_n[1] = 0
            for n in range(max_order):
                cur = n & 1
                prv = 1 - cur
                # the hypothesis's distinct n-grams, in order of first occurrence
                n_h = count_codes(&codes[n, 0], offsets[s], offsets[s + 1], h_cnt, h_list, &count)
                total[s, n] = <double>count
                # each reference's counts of them, and the counts over the segment's references
                n_s = 0
                for r in range(n_refs):
                    cap = (r + 1) * n_seg + s
                    n_r = count_codes(&codes[n, 0], offsets[cap], offsets[cap + 1], r_cnt, r_list, NULL)
                    for k in range(n_h):
                        in_ref[r * n_h + k] = r_cnt[h_list[k]]
                    for k in range(n_r):
                        c = r_list[k]
                        if seg_cnt[cur][c] == 0:
                            seg_list[cur][n_s] = c
                            n_s += 1
                        seg_cnt[cur][c] += r_cnt[c]
                        r_cnt[c] = 0
                seg_n[cur] = n_s
                # the weighted sums, in the hypothesis's order
                sum_i = 0.0
                sum_s = 0.0
                for r in range(n_refs):
                    ref_i[r] = 0.0
                    ref_s[r] = 0.0
                for k in range(n_h):
                    c = h_list[k]
                    hc = h_cnt[c]
                    w_corpus = info[bases[n] + c]
                    w_seg = 0.0
                    if seg_cnt[cur][c] > 0:
                        if n == 0:
                            numer = <double>(<int64_t>seg_words[s])
                        else:
                            numer = <double>seg_cnt[prv][prefix[prefix_bases[n] + c]]
                        w_seg = log(numer / <double>seg_cnt[cur][c]) / ln2
                    if union:
                        best = 0
                        for r in range(n_refs):
                            if in_ref[r * n_h + k] > best:
                                best = in_ref[r * n_h + k]
                        clipped = hc if hc < best else best
                        if clipped > 0:
                            sum_i += w_corpus * <double>clipped
                            sum_s += w_seg * <double>clipped
                    else:
                        for r in range(n_refs):
                            clipped = in_ref[r * n_h + k]
                            if hc < clipped:
                                clipped = hc
                            if clipped > 0:
                                ref_i[r] += w_corpus * <double>clipped
                                ref_s[r] += w_seg * <double>clipped
                if union:
                    u_info[s, n] = sum_i
                    u_seg[s, n] = sum_s
                else:
                    for r in range(n_refs):
                        r_info[n, r, s] = ref_i[r]
                        r_seg[n, r, s] = ref_s[r]
                for k in range(n_h):
                    h_cnt[h_list[k]] = 0
                if n > 0:          # the previous order's segment counts are no longer needed
                    for k in range(seg_n[prv]):
                        seg_cnt[prv][seg_list[prv][k]] = 0
                    seg_n[prv] = 0
            for k in range(seg_n[(max_order - 1) & 1]):
                seg_cnt[(max_order - 1) & 1][seg_list[(max_order - 1) & 1][k]] = 0
    finally:
        free(h_cnt); free(r_cnt); free(seg_a); free(seg_b); free(h_list); free(r_list)
        free(s_list_a); free(s_list_b); free(in_ref); free(ref_i); free(ref_s)
