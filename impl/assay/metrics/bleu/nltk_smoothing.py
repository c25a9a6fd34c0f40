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

These functions transform one corpus's precision list; :mod:`assay.metrics.bleu.score` calls them
row by row (methods 5-7 need the last segment's row, so they are not vectorised).
"""
from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError

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
                    raise ToolBehaviourError("NLTK 3.5 SmoothingFunction.method4 divides by ln(hyp_len) = 0",
                                             "ZeroDivisionError")
                p[i] = (i + k_const / math.log(sys_len)) / t
        return p
    if sys_len <= 1:
        return p
    log_len = math.log(sys_len)
    if k_const == 0 and any(c == 0 and t > 0 for c, t in zip(correct, total)):
        raise ToolBehaviourError("NLTK SmoothingFunction.method4 divides by 2^k * K / ln(hyp_len) = 0 (K = 0)",
                                 "ZeroDivisionError")
    k = 1
    for i, (c, t) in enumerate(zip(correct, total)):
        if c == 0 and t > 0:
            p[i] = 1.0 / (2 ** k * k_const / log_len) / t
            k += 1
    return p


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
        raise KnobError(f"NLTK smoothing needs the last segment's {name!r} statistics column")
    return float(last[list(columns).index(name)])


def _last_next_precision(columns: Sequence[str], last: np.ndarray | None) -> float:
    """The last segment's 5-gram modified precision ``correct / max(1, #5-grams)``."""
    correct = _last_value(columns, last, "correct_next")
    total = _last_value(columns, last, "total_next")
    return correct / total if total > 0 else 0.0
