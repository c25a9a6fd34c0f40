"""Compiled twin of :mod:`assay.metrics.bleu.libm`: libm ``log``/``exp``/``pow`` over a float64 buffer.

CPython's ``math.log(x)`` (finite x > 0) and ``math.exp(x)`` call these same libm functions, so
each element gets the bits ``math.log``/``math.exp`` would give it. ``math.log`` raises on x <= 0
and ``math.exp`` on overflow; BLEU never passes such values (the pure path would raise, this one
would return -inf/nan/inf: the equality tests keep to BLEU's domain).
"""
from libc.math cimport exp, log, pow


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
