"""Compiled twin of the resampling sums of :mod:`assay.metrics.rouge.bootstrap`.

:func:`sample_sums` draws every bootstrap sample with Perl's ``drand48`` as the pure module does
(``srand(i)``: ``x = (i << 16) + 0x330E``; ``x <- (0x5DEECE66D * x + 0xB) mod 2**48``; document
``floor(x / 2**48 * n)``) and adds the drawn rows in draw order, so the float sums are the pure
ones bit for bit; the draws are generated on the fly, not kept (no samples x documents matrix).
"""
from libc.stdint cimport int64_t, uint64_t
from libc.math cimport floor

import numpy as np


cdef enum:
    LOCAL = 64              # columns accumulated in a local buffer (no aliasing: the adds vectorise)


cdef inline void _add_rows(double* acc, const double* base, Py_ssize_t width, Py_ssize_t n_docs,
                           uint64_t state) noexcept nogil:
    """Sample sums of one seed: the drawn rows added to ``acc`` in draw order."""
    cdef uint64_t a = 0x5DEECE66D, inc = 0xB, mask = (<uint64_t>1 << 48) - 1
    cdef double two48 = <double>(<uint64_t>1 << 48), n = <double>n_docs
    cdef Py_ssize_t k, c, d
    cdef const double* row
    for k in range(n_docs):
        state = (state * a + inc) & mask
        d = <Py_ssize_t>floor((<double>state / two48) * n)
        row = base + d * width
        for c in range(width):
            acc[c] += row[c]


def sample_sums(const double[:, ::1] values, Py_ssize_t n_samples):
    """``acc[i] = sum_k values[draw_i(k)]`` in draw order, for samples i = 0 .. n_samples - 1."""
    cdef Py_ssize_t n_docs = values.shape[0], width = values.shape[1], i, c
    cdef uint64_t seed
    cdef double local[LOCAL]
    out = np.zeros((n_samples, width), dtype=np.float64)
    if n_samples == 0 or n_docs == 0 or width == 0:
        return out
    cdef double[:, ::1] acc = out
    cdef const double* base = &values[0, 0]
    for i in range(n_samples):
        seed = (((<uint64_t>i) & 0xFFFFFFFF) << 16) + 0x330E
        if width <= LOCAL:
            for c in range(width):
                local[c] = 0.0
            _add_rows(local, base, width, n_docs, seed)
            for c in range(width):
                acc[i, c] = local[c]
        else:
            _add_rows(&acc[i, 0], base, width, n_docs, seed)
    return out
