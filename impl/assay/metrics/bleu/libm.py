"""Element-wise ``math.log`` / ``math.exp`` / ``math.pow`` over float64 arrays: the libm results the
scalar tools (sacrebleu, NLTK, mteval's Perl, d2l, pycocoevalcap) compute one number at a time; and
``math.fsum`` of every row of a matrix (NLTK sums its weighted log precisions with ``math.fsum``).

numpy's own ``np.log``/``np.exp`` may use SIMD implementations that differ from libm in the last
bit, so BLEU's scorer calls these. For a finite positive ``x`` CPython's ``math.log(x)`` is libm's
``log(x)`` and ``math.exp(x)`` is libm's ``exp(x)`` for every finite ``x``; the compiled twin
(``assay.metrics.bleu._libm_c``) calls the same libm functions in a C loop, so both paths give the
same bits (conformance/tests/accel/test_bleu_score_twins.py). :func:`log_py`/:func:`exp_py` are
the pure specification. Inputs are what BLEU feeds them: ``log`` of positive finite numbers (and
the 1.0 put where a precision is 0), ``exp`` of finite numbers or -inf, ``pow`` of a non-negative
finite base and a finite positive exponent (CPython's ``math.pow``/``float.__pow__`` call libm's
``pow`` for those).
"""
from __future__ import annotations

import math

import numpy as np

from assay.core import accel

try:
    from assay.metrics.bleu import _libm_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)


def log(x: np.ndarray) -> np.ndarray:
    """``math.log`` of every element (a new float64 array of ``x``'s shape)."""
    if _compiled is None:
        return log_py(x)
    out = np.array(x, dtype=np.float64, order="C")       # a copy, overwritten in place
    _compiled.log_inplace(out.reshape(-1))
    return out


def exp(x: np.ndarray) -> np.ndarray:
    """``math.exp`` of every element (a new float64 array of ``x``'s shape)."""
    if _compiled is None:
        return exp_py(x)
    out = np.array(x, dtype=np.float64, order="C")
    _compiled.exp_inplace(out.reshape(-1))
    return out


def pow(x: np.ndarray, y: np.ndarray | float) -> np.ndarray:   # noqa: A001 (libm's name)
    """``math.pow(x, y)`` of every element (``y`` broadcast to ``x``'s shape; a new float64 array)."""
    if _compiled is None:
        return pow_py(x, y)
    out = np.array(x, dtype=np.float64, order="C")
    exponents = np.ascontiguousarray(np.broadcast_to(np.asarray(y, dtype=np.float64), out.shape))
    _compiled.pow_inplace(out.reshape(-1), exponents.reshape(-1))
    return out


def fsum_rows(x: np.ndarray) -> np.ndarray:
    """``math.fsum`` of every row of a 2-D float64 array: the exactly rounded sum (round-half-even of
    the exact real sum). The twin computes it with Shewchuk's exact partials in C for rows whose
    values are all finite; rows with an inf or nan, or whose partial sums overflow, go to
    ``math.fsum`` itself (its special-value rules and its OverflowError)."""
    if _compiled is None:
        return fsum_rows_py(x)
    x = np.ascontiguousarray(x, dtype=np.float64)
    out = np.empty(x.shape[0])
    _compiled.fsum_rows(x, out)
    odd = ~(np.isfinite(x).all(axis=1) & np.isfinite(out))   # a special value, or an intermediate overflow
    if odd.any():
        out[odd] = fsum_rows_py(x[odd])
    return out


def fsum_rows_py(x: np.ndarray) -> np.ndarray:
    """:func:`fsum_rows`, pure: ``math.fsum`` mapped over the rows."""
    x = np.asarray(x, dtype=np.float64)
    return np.fromiter(map(math.fsum, x.tolist()), dtype=np.float64, count=x.shape[0])


def log_py(x: np.ndarray) -> np.ndarray:
    """:func:`log`, pure: ``math.log`` mapped over the elements."""
    x = np.asarray(x, dtype=np.float64)
    return np.fromiter(map(math.log, x.ravel().tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def exp_py(x: np.ndarray) -> np.ndarray:
    """:func:`exp`, pure: ``math.exp`` mapped over the elements."""
    x = np.asarray(x, dtype=np.float64)
    return np.fromiter(map(math.exp, x.ravel().tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def pow_py(x: np.ndarray, y: np.ndarray | float) -> np.ndarray:
    """:func:`pow`, pure: ``math.pow`` mapped over the elements."""
    x = np.asarray(x, dtype=np.float64)
    y = np.broadcast_to(np.asarray(y, dtype=np.float64), x.shape)
    return np.fromiter(map(math.pow, x.ravel().tolist(), y.ravel().tolist()), dtype=np.float64,
                       count=x.size).reshape(x.shape)
