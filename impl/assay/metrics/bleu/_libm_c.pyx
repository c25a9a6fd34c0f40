"""Compiled twin of :mod:`assay.metrics.bleu.libm`: libm ``log``/``exp``/``pow`` over a float64 buffer,
and ``math.fsum`` of each row of a float64 matrix of finite values.

CPython's ``math.log(x)`` (finite x > 0) and ``math.exp(x)`` call these same libm functions, so
each element gets the bits ``math.log``/``math.exp`` would give it. ``math.log`` raises on x <= 0
and ``math.exp`` on overflow; BLEU never passes such values (the pure path would raise, this one
would return -inf/nan/inf: the equality tests keep to BLEU's domain).
"""
from libc.math cimport exp, fabs, log, pow
from libc.stdlib cimport free, malloc


def log_inplace(double[::1] x):
    """``x[i] = log(x[i])`` for every i."""
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        x[i] = log(x[i])


def exp_inplace(double[::1] x):
    """``x[i] = exp(x[i])`` for every i."""
    cdef Py_ssize_t i
    for i in range(x.shape[0]):
        x[i] = exp(x[i])


def pow_inplace(double[::1] x, const double[::1] y):
    """``x[i] = pow(x[i], y[i])`` for every i (``y`` as long as ``x``)."""
    cdef Py_ssize_t i
    if y.shape[0] != x.shape[0]:
        raise ValueError("pow_inplace: x and y differ in length")
    for i in range(x.shape[0]):
        x[i] = pow(x[i], y[i])


cdef double _fsum_row(const double[:, ::1] x, Py_ssize_t r, double* partials) noexcept nogil:
    """The correctly rounded sum of row ``r`` (every value finite): Shewchuk's exact expansion of
    non-overlapping partials (each new term added with error-free two-sums, ``hi = a + b``,
    ``lo = b - (hi - a)`` for ``|a| >= |b|``), then the partials added from the largest down until a
    rounding error appears, and that last rounding moved by one half-way step when the remaining
    partials lie on the same side (round-half-even of the exact sum)."""
    cdef Py_ssize_t n = 0, i, j, k
    cdef double v, y, t, hi, lo, yr
    for j in range(x.shape[1]):
        v = x[r, j]
        i = 0
        for k in range(n):
            y = partials[k]
            if fabs(v) < fabs(y):
                t = v
                v = y
                y = t
            hi = v + y
            lo = y - (hi - v)
            if lo != 0.0:
                partials[i] = lo
                i += 1
            v = hi
        n = i
        if v != 0.0:             # a zero is never kept: an exactly zero sum is +0.0, as math.fsum's
            partials[n] = v
            n += 1
    if n == 0:
        return 0.0
    n -= 1
    hi = partials[n]
    lo = 0.0
    while n > 0:
        v = hi
        n -= 1
        y = partials[n]
        hi = v + y
        yr = hi - v
        lo = y - yr
        if lo != 0.0:
            break
    if n > 0 and ((lo < 0.0 and partials[n - 1] < 0.0) or (lo > 0.0 and partials[n - 1] > 0.0)):
        y = lo * 2.0
        v = hi + y
        yr = v - hi
        if y == yr:
            hi = v
    return hi


def fsum_rows(const double[:, ::1] x, double[::1] out):
    """``out[r] = math.fsum(x[r])`` for every row of finite values (the caller sends rows with a
    non-finite value to ``math.fsum`` itself)."""
    cdef Py_ssize_t r
    cdef double* partials
    if out.shape[0] != x.shape[0]:
        raise ValueError("fsum_rows: out and x differ in rows")
    partials = <double*> malloc(max(x.shape[1], 1) * sizeof(double))
    if partials == NULL:
        raise MemoryError()
    try:
        for r in range(x.shape[0]):
            out[r] = _fsum_row(x, r, partials)
    finally:
        free(partials)
