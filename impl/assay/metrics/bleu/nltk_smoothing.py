"""NLTK ``SmoothingFunction`` methods 4-7, as NLTK 3.10.4 computes them (not as Chen & Cherry 2014 define them).

Written from the behaviour described in shared/research/bleu_nist.md §2.2 and from black-box
probing of NLTK (calling ``corpus_bleu`` and the smoothing methods on chosen inputs). Notation:
``n_i``/``d_i`` are the corpus numerator/denominator of order i (``d_i`` already includes NLTK's
``max(1, #n-grams)`` per segment), ``p_i = n_i / d_i``, ``L`` the total hypothesis length of the
corpus. NLTK calls the smoothing function once per corpus with the *last* segment's hypothesis and
references (its loop variables), so methods 5 and 6 read the last segment's row: that is NLTK's
(documented) dependence on segment order, reproduced on purpose.

- ``nltk-method4``: for the orders with ``n_i = 0``, in order, counting them k = 1, 2, ...:
  ``p_i = 1 / (2^k * K / ln L) / d_i`` (``K = smooth_k``, default 5), only when ``L > 1``;
  with ``L <= 1`` the zeros stay and are skipped later (so a 1-token corpus can score 1.0).
- ``nltk-method5``: ``m_0 = p_1 + 1``; for i = 1..N: ``p_i <- (m_{i-1} + p_i + p_{i+1}) / 3`` with
  ``m_i`` the new ``p_i`` and ``p_{N+1}`` = the **5-gram** precision of the last segment
  (``correct/max(1, #5-grams)``), whatever N is. A perfect match gives > 1 (1.1167 at N = 4).
- ``nltk-method6``: needs ``n_3 > 0`` (NLTK asserts it: ``AssertionError``; with N < 3 NLTK fails
  with ``IndexError`` looking the trigram up); for i = 3..N in order:
  ``pi0 = p_{i-1}^2 / p_{i-2}`` (0 if ``p_{i-2} = 0``, using the already-updated values) and
  ``p_i = (n_i + alpha * pi0) / (l_i + alpha)`` with ``l_i = max(0, len(last hyp) - i + 1)``, the
  number of i-grams of the **last** hypothesis, and the raw (unreduced) corpus numerator ``n_i``
  (``alpha = smooth_alpha``, default 5). Can exceed 1.
- ``nltk-method7``: method4, then method5 on its result.

NLTK 3.5 computed method4 differently (changed in 3.6): for each order with ``n_i = 0``, at 0-based
position i, ``p_i = (i + K / ln L) / d_i`` (no ``L > 1`` guard: ``L = 1`` raises ZeroDivisionError).
It is selected by the knob ``nltk_method4 = "index"`` (default ``"halving"`` = 3.6+). ``K = 0`` makes
NLTK >= 3.6 divide by ``2^k * K / ln L = 0`` (ZeroDivisionError), reproduced as a tool failure.

These functions transform one corpus's precision list (the specification); :func:`nltk_rows`
computes methods 4, 5 and 7 for many rows at once (sentence scores: every segment is a row that is
its own last segment), with the same elementwise operations; method 6 stays row by row.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError
from assay.metrics.bleu import libm

NEXT_ORDER = 5  # method5 always appends the last segment's 5-gram precision


def nltk_methods(method: str, p: list[float], correct: list[float], total: list[float], sys_len: float,
                 config: Any, columns: Sequence[str], last: np.ndarray | None) -> list[float]:
    """Apply NLTK smoothing method 4, 5, 6 or 7 to the precisions ``p`` (already ``n_i/d_i``, 0 where
    ``n_i = 0``) and return the new list; ``last`` is the last segment's statistics row."""
    p = list(p)
    if method == "nltk-method4":
        return _method4(p, correct, total, sys_len, config)
    if method == "nltk-method5":
        return _method5(p, _last_next_precision(columns, last))
    if method == "nltk-method6":
        return _method6(p, correct, _last_value(columns, last, "hyp_len"), config.smooth_alpha)
    if method == "nltk-method7":
        p = _method4(p, correct, total, sys_len, config)
        return _method5(p, _last_next_precision(columns, last))
    raise KnobError(f"unknown NLTK smoothing method {method!r}")


def _method4(p: list[float], correct: list[float], total: list[float], sys_len: float, config: Any
             ) -> list[float]:
    k_const = float(config.smooth_k)
    if config.nltk_method4 == "index":   # NLTK 3.5
        for i, (c, t) in enumerate(zip(correct, total)):
            if c == 0 and t > 0:
                if sys_len == 1:
                    raise _index_log_zero()
                p[i] = (i + k_const / math.log(sys_len)) / t
        return p
    if sys_len <= 1:
        return p
    log_len = math.log(sys_len)
    if k_const == 0 and any(c == 0 and t > 0 for c, t in zip(correct, total)):
        raise _halving_k_zero()
    k = 1
    for i, (c, t) in enumerate(zip(correct, total)):
        if c == 0 and t > 0:
            p[i] = 1.0 / (2 ** k * k_const / log_len) / t
            k += 1
    return p


def _index_log_zero(i: int = 0) -> ToolBehaviourError:
    return ToolBehaviourError("NLTK 3.5 SmoothingFunction.method4 divides by ln(hyp_len) = 0", "ZeroDivisionError")


def _halving_k_zero(i: int = 0) -> ToolBehaviourError:
    return ToolBehaviourError("NLTK SmoothingFunction.method4 divides by 2^k * K / ln(hyp_len) = 0 (K = 0)",
                              "ZeroDivisionError")


def _method5(p: list[float], next_precision: float) -> list[float]:
    extended = p + [next_precision]
    previous = p[0] + 1.0
    out = []
    for i in range(len(p)):
        previous = (previous + extended[i] + extended[i + 1]) / 3.0
        out.append(previous)
    return out


def _method6(p: list[float], correct: list[float], last_hyp_len: float, alpha: float) -> list[float]:
    if len(p) < 3:
        raise ToolBehaviourError(
            "NLTK SmoothingFunction.method6 looks up the trigram precision, but max_ngram_order < 3 "
            "(NLTK raises IndexError)", "IndexError")
    if correct[2] == 0:
        raise ToolBehaviourError(
            "NLTK SmoothingFunction.method6 requires a non-zero trigram precision (NLTK raises "
            "AssertionError: 'This smoothing method requires non-zero precision for bigrams.')",
            "AssertionError")
    for i in range(2, len(p)):
        order = i + 1
        pi0 = 0.0 if p[i - 2] == 0 else p[i - 1] ** 2 / p[i - 2]
        n_grams = max(0.0, last_hyp_len - order + 1)
        denominator = n_grams + alpha
        if denominator == 0:
            raise ToolBehaviourError("NLTK SmoothingFunction.method6 divides by l + alpha = 0",
                                     "ZeroDivisionError")
        p[i] = (correct[i] + alpha * pi0) / denominator
    return p


def _last_value(columns: Sequence[str], last: np.ndarray | None, name: str) -> float:
    if last is None or name not in columns:
        raise _needs_column(name)
    return float(last[list(columns).index(name)])


def _needs_column(name: str) -> KnobError:
    return KnobError(f"NLTK smoothing needs the last segment's {name!r} statistics column")


def _last_next_precision(columns: Sequence[str], last: np.ndarray | None) -> float:
    """The last segment's 5-gram modified precision ``correct / max(1, #5-grams)``."""
    correct = _last_value(columns, last, "correct_next")
    total = _last_value(columns, last, "total_next")
    return correct / total if total > 0 else 0.0


# ----------------------------------------------------------------------------- every row at once
VECTORISED = ("nltk-method4", "nltk-method5", "nltk-method7")
"""The methods :func:`nltk_rows` computes for many rows at once (method 6 stays row by row)."""

Failure = tuple[np.ndarray, Callable[[int], Exception]]


def nltk_rows(method: str, prec: np.ndarray, correct: np.ndarray, total: np.ndarray, sys_len: np.ndarray,
              orders: np.ndarray, rows: np.ndarray, config: Any, columns: Sequence[str],
              last: np.ndarray | None) -> tuple[np.ndarray, list[Failure]]:
    """:func:`nltk_methods` of every row in ``rows`` (bool mask) at once, for the methods in
    :data:`VECTORISED`: row i's first ``orders[i]`` precisions become ``nltk_methods(method,
    prec[i, :k], correct[i, :k], total[i, :k], sys_len[i], config, columns, last[i])`` (k = orders[i];
    the same operations in the same order, elementwise, so the same bits), other entries unchanged.
    Rows in ``rows`` have ``sys_len >= 1`` (an empty hypothesis scores 0 before any smoothing).

    Returns the new precisions and the failures: (row mask, error of row i) pairs, for the caller
    to raise the first failing row's (tests/accel/test_bleu_score_twins.py compares both).
    """
    prec = prec.copy()
    within = np.arange(prec.shape[1])[None, :] < orders[:, None]
    failures: list[Failure] = []
    if method in ("nltk-method4", "nltk-method7"):
        prec, failure = _method4_rows(prec, correct, total, sys_len, rows, within, config)
        if failure is not None:
            failures.append(failure)
    if method in ("nltk-method5", "nltk-method7"):
        nxt, failure = _next_precisions(columns, last, len(prec), rows)
        if failure is not None:
            failures.append(failure)
        else:
            prec = _method5_rows(prec, nxt, rows, orders, within)
    return prec, failures


def _method4_rows(prec: np.ndarray, correct: np.ndarray, total: np.ndarray, sys_len: np.ndarray, rows: np.ndarray,
                  within: np.ndarray, config: Any) -> tuple[np.ndarray, Failure | None]:
    k_const = float(config.smooth_k)
    zero = (correct == 0) & (total > 0) & within & rows[:, None]
    any_zero = zero.any(axis=1)
    log_len = libm.log(np.where(sys_len > 1, sys_len, 2.0))     # only rows with sys_len > 1 read it
    with np.errstate(all="ignore"):
        if config.nltk_method4 == "index":   # NLTK 3.5: (i + K / ln L) / d_i at 0-based position i
            value = (np.arange(prec.shape[1])[None, :] + (k_const / log_len)[:, None]) / total
            return np.where(zero & (sys_len != 1)[:, None], value, prec), (
                (any_zero & (sys_len == 1), _index_log_zero) if (any_zero & (sys_len == 1)).any() else None)
        # NLTK >= 3.6: 1 / (2^k K / ln L) / d_i for the k-th zero order, only when L > 1
        longer = sys_len > 1
        value = 1.0 / (np.ldexp(1.0, np.cumsum(zero, axis=1)) * k_const / log_len[:, None]) / total
        failing = any_zero & longer if k_const == 0 else None
        return np.where(zero & longer[:, None], value, prec), (
            (failing, _halving_k_zero) if failing is not None and failing.any() else None)


def _next_precisions(columns: Sequence[str], last: np.ndarray | None, m: int, rows: np.ndarray
                     ) -> tuple[np.ndarray, Failure | None]:
    """Per row: the last segment's 5-gram precision (:func:`_last_next_precision`), or the failure
    of every row in ``rows`` when the statistics lack it."""
    for name in ("correct_next", "total_next"):
        if last is None or name not in columns:
            return np.zeros(m), (rows, lambda i, name=name: _needs_column(name))
    names = list(columns)
    correct = last[:, names.index("correct_next")].astype(np.float64)
    total = last[:, names.index("total_next")].astype(np.float64)
    out = np.zeros(len(last))
    np.divide(correct, total, out=out, where=total > 0)
    return np.broadcast_to(out, (m,)) if len(out) == 1 else out, None


def _method5_rows(prec: np.ndarray, nxt: np.ndarray, rows: np.ndarray, orders: np.ndarray,
                  within: np.ndarray) -> np.ndarray:
    """m_0 = p_1 + 1, then p_i <- (m_{i-1} + p_i + p_{i+1}) / 3 order by order, p_{k+1} = ``nxt``."""
    n = prec.shape[1]
    out = prec.copy()
    previous = prec[:, 0] + 1.0
    for i in range(n):
        following = nxt if i + 1 >= n else np.where(i + 1 < orders, prec[:, i + 1], nxt)
        previous = (previous + prec[:, i] + following) / 3.0
        out[:, i] = np.where(within[:, i] & rows, previous, prec[:, i])
    return out
