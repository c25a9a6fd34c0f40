"""Compiled twin of :func:`assay.metrics.rouge.combine.round5_array`.

``round5(x) = float(f"{x:.5f}")``: Python prints the exact binary value of x correctly rounded to
5 decimals, ties to even, and reads the decimal back as the nearest double. For a finite
``|x| < 2**32`` this twin does the same in integers: with ``|x| = m * 2**e`` exactly (frexp),
``k = m * 10**5 / 2**-e`` rounded half to even (128-bit arithmetic), and the result is
``k / 10**5`` (IEEE division of two exact doubles is the nearest double to the decimal, as
parsing is), negated for a negative x (``-0.00000`` reads as -0.0). Anything else (inf, nan,
larger values) goes through the very functions Python uses, ``PyOS_double_to_string`` and
``PyOS_string_to_double``.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.math cimport frexp, ldexp, fabs, isfinite
from cpython.mem cimport PyMem_Free

import numpy as np

cdef extern from "Python.h":
    char* PyOS_double_to_string(double val, char format_code, int precision, int flags, int* ptype) except NULL
    double PyOS_string_to_double(const char* s, char** endptr, object overflow_exception) except? -1.0

cdef extern from *:
    """
    typedef unsigned __int128 assay_u128;
    /* round_half_even(m * 100000 / 2**s) for m < 2**53, s >= 1 */
    static inline unsigned long long assay_round5_units(unsigned long long m, int s) {
        assay_u128 p = (assay_u128)m * 100000u;
        if (s >= 100) return 0;   /* p < 2**70 < half */
        assay_u128 q = p >> s;
        assay_u128 r = p - (q << s);
        assay_u128 half = (assay_u128)1 << (s - 1);
        if (r > half || (r == half && (q & 1))) q += 1;
        return (unsigned long long)q;
    }
    """
    unsigned long long assay_round5_units(unsigned long long m, int s) nogil


cdef double _round5_slow(double x) except? -1.0:
    cdef char* text = PyOS_double_to_string(x, b'f', 5, 0, NULL)
    try:
        return PyOS_string_to_double(text, NULL, None)
    finally:
        PyMem_Free(text)


cdef inline double _round5(double x) except? -1.0:
    cdef int e
    cdef double a = fabs(x), frac, value
    cdef uint64_t m, k
    if not isfinite(x) or a >= 4294967296.0:
        return _round5_slow(x)
    frac = frexp(a, &e)                   # a = frac * 2**e, 0.5 <= frac < 1 (or a == 0)
    m = <uint64_t>ldexp(frac, 53)         # exact: a = m * 2**(e - 53)
    k = assay_round5_units(m, 53 - e)     # e <= 32, so the shift 53 - e >= 21
    value = <double>k / 100000.0
    return -value if x < 0 or (x == 0 and 1.0 / x < 0) else value


def round5_array(const double[::1] x):
    """``float(f"{v:.5f}")`` of every element of a contiguous float64 array (a new array)."""
    cdef Py_ssize_t n = x.shape[0], i
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] res = out
    for i in range(n):
        res[i] = _round5(x[i])
    return out
