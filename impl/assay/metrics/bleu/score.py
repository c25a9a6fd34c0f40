"""BLEU's score stage: the one scorer, from summed rows to numbers.

:func:`score_rows` takes an (m, columns) array of summed statistics rows
(``hyp_len, ref_len, correct_1..N, total_1..N[, correct_next, total_next]``) and scores each row
as a corpus: m = 1 for the corpus score, every segment's own row for sentence scores, every
resample's sums for significance. Per row, with c = hyp_len, r = ref_len, p_n the precisions::

    BP    = 1 if c >= r (also c = r = 0), 0 if c = 0 < r, else exp(1 - r/c)
    value = scale * BP * exp(sum_n w_n log p_n)

computed in this order (``(scale * BP) * exp(...)``, the log terms added order by order from 0.0,
``math.log``/``math.exp`` per element), so that every path gives the same bits.

The tools differ only in knobs (shared/research/bleu_nist.md):

- precisions: ``c_n/t_n``; a zero count gets ``smooth_method``: ``exp`` 1/(2^k t_n) for the k-th
  such order, ``floor`` eps/t_n, ``float-min`` NLTK method0's 2.2e-308, ``add-k`` adds k to c_n and
  t_n for n >= 2 (also n = 1 with ``add_k_unigrams``, NLTK 3.5); NLTK methods 4-7
  (:mod:`assay.metrics.bleu.nltk_smoothing`) change the precision list row by row, methods 5-7
  reading the last segment's row (``last``).
- an order without hypothesis n-grams (``missing_order``): ``stop`` (sacrebleu: precision 0 from
  there), ``one`` (mteval: precision 1), ``error`` (d2l: ZeroDivisionError).
- nothing matches (``no_match``): ``zero`` = 0 before any smoothing (sacrebleu 2 #141, NLTK);
  ``smooth`` = smoothing applies (sacrebleu 1.x, mteval). An empty hypothesis is 0 in every tool.
- ``zero_precision``: a precision still 0 adds ``w * -9999999999`` (sacrebleu's and multi-bleu's
  log 0), or is left out (``skip``, NLTK).
- weights: ``uniform`` 1/N (1/N_eff with ``effective_order``: the leading orders with n-grams),
  ``halving`` 1/2^n (d2l), one or several explicit tuples (NLTK: one score each;
  ``weight_lists=error`` is NLTK 3.5's TypeError), NLTK's ``auto_reweigh`` (1/c over c orders
  when c < 4 and the weights are (0.25,)*4; ``auto_reweigh_orders=drop``: only c orders exist,
  NLTK 3.5).
- ``epsilon=coco``: pycocoevalcap 1.2's BleuScorer instead of all of the above:
  ``p_n = (c_n + 1e-15)/(t_n + 1e-9)`` for every n, ``ratio = (c + 1e-15)/(r + 1e-9)``,
  ``BP = exp(1 - 1/ratio)`` if ratio < 1, value ``Bleu_N = BP (p_1 ... p_N)^(1/N)`` with the
  cumulative Bleu_1..N as components (a 3-word perfect match has Bleu_4 = 0.0316).
- ``resample_arithmetic=float32`` with float32 sums: sacrebleu 2.x's bootstrap sums every
  resample in float32 and hands the sums to its corpus_score, which under numpy's NEP 50
  promotion computes the precisions ``(100 c_n)/t_n`` in float32 (add-k adds k in float32,
  exp ``100/(2^k t_n)``, floor ``(100 eps)/t_n``); lengths are truncated to integers, BP and the
  logs are float64, the logs are summed order by order and ``value = BP exp(sum / N_eff)``
  (numpy's exp/log, as black-box verified against sacrebleu 2.6.0's resampled scores).
  Float64 sums (corpus scores, leave-one-out, approximate randomisation, which sacrebleu
  computes from exact statistics) are always scored in float64.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError
from assay.core.knobs import Config
from assay.metrics.bleu.knobs import DEFAULT_SMOOTH_VALUE, weight_tuples
from assay.metrics.bleu.nltk_smoothing import nltk_methods

MY_LOG_ZERO = -9999999999.0     # sacrebleu's and multi-bleu.perl's log(0)
FLOAT_MIN = sys.float_info.min  # NLTK method0's stand-in for a zero count
COCO_TINY = 1e-15               # pycocoevalcap BleuScorer's numerator epsilon
COCO_SMALL = 1e-9               # ... and denominator epsilon
QUARTERS = (0.25, 0.25, 0.25, 0.25)
FLOAT32_METHODS = ("none", "floor", "add-k", "exp")


@dataclass(frozen=True)
class Scored:
    """The values of m rows (tool scale) and their components, built on demand per row."""

    values: np.ndarray
    components: Callable[[int], dict[str, Any]]


def score_rows(sums: np.ndarray, config: Config, last: np.ndarray | None = None,
               columns: Sequence[str] = ()) -> Scored:
    """Score every row of ``sums`` (m, columns) as a corpus.

    ``last`` holds, for each row, the row of the last segment of that corpus (NLTK methods 5-7
    read it; ``columns`` names its columns); None when there is no segment to read (resampled
    sums), which those methods reject. Tool failures that the configuration reproduces raise
    :class:`ToolBehaviourError`, the first failing row's (as scoring the rows one by one would).
    """
    sums = np.asarray(sums)
    if config.epsilon == "coco":
        return _coco(sums.astype(np.float64), config)
    if sums.dtype == np.float32 and config.resample_arithmetic == "float32":
        return _float32(sums, config)
    return _float64(sums.astype(np.float64), config, last, columns)


def smooth_value(config: Config) -> float:
    """``smooth_value``, or the method's default (floor 0.1, add-k 1, else 0)."""
    if config.smooth_value is not None:
        return config.smooth_value
    return DEFAULT_SMOOTH_VALUE.get(config.smooth_method, 0.0)


def reads_last_segment(config: Config) -> bool:
    """NLTK methods 5-7 read the last segment's row: such a score is not a function of sums."""
    return config.epsilon != "coco" and config.smooth_method in ("nltk-method5", "nltk-method6", "nltk-method7")


# ----------------------------------------------------------------------------- float64 (every tool)
def _float64(sums: np.ndarray, config: Config, last: np.ndarray | None, columns: Sequence[str]) -> Scored:
    n = config.max_ngram_order
    m = sums.shape[0]
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    raw_correct, raw_total = sums[:, 2:2 + n], sums[:, 2 + n:2 + 2 * n]
    method = config.smooth_method
    k_value = smooth_value(config)
    scale = float(config.scale)
    tuples = weight_tuples(config.weights)
    several = tuples is not None and len(tuples) > 1

    # NLTK 3.5's auto_reweigh computes (and smooths) only hyp_len orders of a corpus shorter than 4
    drop = bool(config.auto_reweigh and config.auto_reweigh_orders == "drop" and tuples is not None
                and len(tuples) == 1 and tuples[0] == QUARTERS)
    short = (sys_len < 4) if drop else np.zeros(m, dtype=bool)
    orders = np.where(short, sys_len, n).astype(np.int64)

    errors: list[tuple[np.ndarray, Callable[[int], ToolBehaviourError]]] = []
    if drop:
        errors.append((short & (sys_len == 0), lambda i: ToolBehaviourError(
            "NLTK 3.5 auto_reweigh divides 1 by hyp_len = 0", "ZeroDivisionError")))
    if config.missing_order == "error":
        errors.append((sys_len < orders, lambda i: _d2l_short(float(sys_len[i]))))
    # nothing matches: sacrebleu 2 (#141) and NLTK return 0 before any smoothing (raw counts shown);
    # an empty hypothesis returns early in every tool (sacrebleu 1.x too, before add-k)
    early = (sys_len == 0) | ((raw_correct[:, 0] == 0) & (config.no_match == "zero"))
    if several and config.weight_lists == "error":
        errors.append((~early, lambda i: ToolBehaviourError(
            "NLTK 3.5 takes one weight tuple; several raise TypeError", "TypeError")))

    correct, total = raw_correct.copy(), raw_total.copy()
    if method == "add-k":   # changes the reported counts too (sacrebleu shows counts/totals with +k)
        first = 0 if config.add_k_unigrams else 1
        correct[:, first:] += k_value
        total[:, first:] += k_value

    prec, eff, no_ngrams = _precisions(correct, total, orders, config, k_value)
    if config.missing_order == "error":
        errors.append(((no_ngrams > 0) & ~early, lambda i: ToolBehaviourError(
            f"the hypothesis has no {int(no_ngrams[i])}-grams: d2l's bleu divides by len(pred) - n + 1 = 0",
            "ZeroDivisionError")))

    failing = _first_failure(errors, m)
    if method.startswith("nltk-method"):
        for i in np.flatnonzero(~early).tolist():
            if failing is not None and i >= failing[0]:
                break
            k = int(orders[i])
            prec[i, :k] = nltk_methods(method, prec[i, :k].tolist(), correct[i, :k].tolist(), total[i, :k].tolist(),
                                       float(sys_len[i]), config, columns, None if last is None else last[i])
    if failing is not None:
        raise failing[1]

    positive = prec > 0
    logs = np.zeros((m, n))
    logs[positive] = _log(prec[positive])
    bp = np.array([_brevity_penalty(s, r) for s, r in zip(sys_len.tolist(), ref_len.tolist())])
    zero_mode = config.zero_precision == "zero"
    per_tuple = [np.where(early, 0.0, scale * bp * _exp(_log_sum(w, positive, logs, zero_mode)))
                 for w in _weight_matrices(config, tuples, eff, sys_len, n)]
    values = per_tuple[0]

    def components(i: int) -> dict[str, Any]:
        s, r = float(sys_len[i]), float(ref_len[i])
        k = int(orders[i])
        out: dict[str, Any] = {"sys_len": int(s), "ref_len": r if r % 1 else int(r), "bp": float(bp[i]),
                               "ratio": float(s / r) if r > 0 else 0.0}
        if early[i]:
            out.update(counts=[_int_if_whole(x) for x in raw_correct[i, :k].tolist()],
                       totals=[_int_if_whole(x) for x in raw_total[i, :k].tolist()],
                       precisions=[0.0] * k, eff_order=k)
            if several and config.weight_lists == "scores":
                out["scores"] = [0.0] * len(per_tuple)   # NLTK: a list of 0s, one per weight tuple
            return out
        out.update(counts=[_int_if_whole(x) for x in correct[i, :k].tolist()],
                   totals=[_int_if_whole(x) for x in total[i, :k].tolist()],
                   precisions=[p * scale for p in prec[i, :k].tolist()], eff_order=int(eff[i]))
        if several:
            out["scores"] = [float(v[i]) for v in per_tuple]
        return out

    return Scored(values, components)


def _precisions(correct: np.ndarray, total: np.ndarray, orders: np.ndarray, config: Config, k_value: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row and order: the precision after the generic smoothing rules, the effective order, and
    (``missing_order=error``) the first order without hypothesis n-grams (1-based; 0 = none)."""
    m, n = correct.shape
    method = config.smooth_method
    prec = np.zeros((m, n))
    eff = orders.copy()
    alive = np.ones(m, dtype=bool)
    factor = np.ones(m)
    no_ngrams = np.zeros(m, dtype=np.int64)
    for i in range(n):
        live = alive & (i < orders)
        t, c = total[:, i], correct[:, i]
        missing = live & (t == 0)
        if config.missing_order == "one":
            prec[missing, i] = 1.0                # mteval: log 1 = 0 for an order without test n-grams
        else:                                     # stop (sacrebleu: 0 from here on) or error (d2l)
            if config.missing_order == "error":
                no_ngrams[missing & (no_ngrams == 0)] = i + 1
            alive &= ~missing
        active = live & (t != 0)
        if config.effective_order:
            eff[active] = i + 1
        zero = active & (c == 0)
        if method == "exp":
            factor[zero] *= 2
            prec[zero, i] = 1.0 / (factor[zero] * t[zero])
        elif method == "floor":
            prec[zero, i] = k_value / t[zero]
        elif method == "float-min":
            prec[zero, i] = FLOAT_MIN
        hit = active & (c != 0)
        prec[hit, i] = c[hit] / t[hit]
    return prec, eff, no_ngrams


def _weight_matrices(config: Config, tuples: list[tuple[float, ...]] | None, eff: np.ndarray,
                     sys_len: np.ndarray, n: int) -> list[np.ndarray]:
    """One (m, N) weight matrix per weight tuple; zero where a tool's weights stop short.

    NLTK's ``auto_reweigh`` replaces a row's weights (0.25, 0.25, 0.25, 0.25) by 1/c over c orders
    when 0 < c < 4 (c = hyp_len): an explicit tuple, or uniform weights over an effective order of 4.
    """
    m = len(eff)
    order = np.arange(n)[None, :]
    if tuples is None and config.weights == "halving":
        return [np.broadcast_to(0.5 ** (np.arange(n) + 1.0), (m, n))]
    if tuples is None:
        matrices = [np.where(order < eff[:, None], 1.0 / np.maximum(eff, 1)[:, None], 0.0)]
        quarters = [eff == 4]
    else:
        matrices, quarters = [], []
        for weights in tuples:
            matrix = np.zeros((m, n))
            matrix[:, :len(weights)] = weights
            matrices.append(matrix)
            quarters.append(np.full(m, weights == QUARTERS))
    if config.auto_reweigh:
        for matrix, quarter in zip(matrices, quarters):
            rows = np.flatnonzero(quarter & (sys_len < 4) & (sys_len > 0))
            matrix[rows] = np.where(order < sys_len[rows, None].astype(np.int64), 1.0 / sys_len[rows, None], 0.0)
    return matrices


def _log_sum(weights: np.ndarray, positive: np.ndarray, logs: np.ndarray, zero_mode: bool) -> np.ndarray:
    """``sum_n w_n log p_n`` added order by order; p_n = 0 adds ``w_n * -9999999999`` (zero mode)."""
    acc = np.zeros(logs.shape[0])
    for i in range(logs.shape[1]):
        w = weights[:, i]
        zero_term = np.where(w > 0, w * MY_LOG_ZERO, 0.0) if zero_mode else 0.0
        acc = acc + np.where(positive[:, i], w * logs[:, i], zero_term)
    return acc


def _first_failure(errors: list[tuple[np.ndarray, Callable[[int], ToolBehaviourError]]], m: int
                   ) -> tuple[int, ToolBehaviourError] | None:
    """The first row with a failure, and its first failure in check order."""
    first = m
    for mask, _ in errors:
        hits = np.flatnonzero(mask)
        if len(hits):
            first = min(first, int(hits[0]))
    if first == m:
        return None
    for mask, make in errors:
        if mask[first]:
            return first, make(first)
    return None


def _d2l_short(sys_len: float) -> ToolBehaviourError:
    return ToolBehaviourError(
        f"the hypothesis has {int(sys_len)} tokens: d2l's bleu divides by len(pred) - n + 1 = 0 for "
        f"n = {int(sys_len) + 1}" if sys_len else "the hypothesis is empty: d2l's bleu divides by len(pred) = 0",
        "ZeroDivisionError")


def _brevity_penalty(sys_len: float, ref_len: float) -> float:
    """BP = 1 if c >= r (so also when both are 0, as sacrebleu), 0 if c = 0 < r, else exp(1 - r/c)."""
    if sys_len >= ref_len:
        return 1.0
    if sys_len == 0:
        return 0.0
    return math.exp(1.0 - ref_len / sys_len)


def _log(x: np.ndarray) -> np.ndarray:
    """``math.log`` per element: the libm result the scalar tools use (numpy's SIMD log can differ
    in the last bit)."""
    return np.fromiter(map(math.log, x.ravel().tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def _exp(x: np.ndarray) -> np.ndarray:
    """``math.exp`` per element (see :func:`_log`)."""
    return np.fromiter(map(math.exp, x.ravel().tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def _int_if_whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


# ----------------------------------------------------------------------------- pycocoevalcap's epsilon
def _coco(sums: np.ndarray, config: Config) -> Scored:
    n = config.max_ngram_order
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    correct, total = sums[:, 2:2 + n], sums[:, 2 + n:2 + 2 * n]
    precisions = (correct + COCO_TINY) / (total + COCO_SMALL)
    cumulative = np.cumprod(precisions, axis=1) ** (1.0 / np.arange(1, n + 1, dtype=np.float64))[None, :]
    ratio = (sys_len + COCO_TINY) / (ref_len + COCO_SMALL)
    with np.errstate(over="ignore", under="ignore"):
        bp = np.where(ratio < 1.0, np.exp(1.0 - 1.0 / np.where(ratio < 1.0, ratio, 1.0)), 1.0)
    bleus = cumulative * bp[:, None]
    values = bleus[:, -1] * config.scale   # pycocoevalcap reports 0-1; scale=100 multiplies the value only

    def components(i: int) -> dict[str, Any]:
        r = float(ref_len[i])
        out: dict[str, Any] = {f"Bleu_{k + 1}": float(b) for k, b in enumerate(bleus[i])}
        out.update(sys_len=int(sys_len[i]), ref_len=r if r % 1 else int(r), bp=float(bp[i]),
                   ratio=float(ratio[i]), counts=[int(c) for c in correct[i]], totals=[int(t) for t in total[i]],
                   precisions=[float(p) for p in precisions[i]], eff_order=n)
        return out

    return Scored(values, components)


# ----------------------------------------------------------------------------- sacrebleu 2.x float32
def _float32(sums: np.ndarray, config: Config) -> Scored:
    """sacrebleu 2.x BLEU of float32 resampled sums, operation for operation (module docstring)."""
    if (config.smooth_method not in FLOAT32_METHODS or config.missing_order != "stop"
            or config.no_match != "zero" or config.zero_precision != "zero" or config.weights != "uniform"
            or config.scale != 100 or config.auto_reweigh):
        raise KnobError("bleu: float32 resampling reproduces sacrebleu 2.x and needs a sacrebleu-style "
                        "configuration (smoothing none/floor/add-k/exp, uniform weights, 0-100 scale)")
    n = config.max_ngram_order
    f32 = np.float32
    k_value = smooth_value(config)
    sys_len = np.trunc(sums[:, 0].astype(np.float64))
    ref_len = np.trunc(sums[:, 1].astype(np.float64))
    correct = sums[:, 2:2 + n].astype(f32)
    total = sums[:, 2 + n:2 + 2 * n].astype(f32)
    if config.smooth_method == "add-k" and n > 1:
        correct[:, 1:] += f32(k_value)
        total[:, 1:] += f32(k_value)
    m = sums.shape[0]
    prec = np.zeros((m, n), dtype=f32)
    alive = np.ones(m, dtype=bool)
    eff = np.full(m, n)
    factor = np.ones(m)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            c, t = correct[:, i], total[:, i]
            alive &= t != 0
            if config.effective_order:
                eff[alive] = i + 1
            hit = alive & (c != 0)
            prec[hit, i] = (f32(100.0) * c[hit]) / t[hit]
            zero = alive & (c == 0)
            if config.smooth_method == "exp":
                factor[zero] *= 2
                prec[zero, i] = f32(100.0) / (factor[zero].astype(f32) * t[zero])
            elif config.smooth_method == "floor":
                prec[zero, i] = f32(100.0 * k_value) / t[zero]
        logs = prec.astype(np.float64)
        logs = np.where(logs > 0, np.log(np.where(logs > 0, logs, 1.0)), MY_LOG_ZERO)
        log_sum = np.zeros(m)
        for i in range(n):                       # sacrebleu sums the logs order by order
            log_sum = np.where(i < eff, log_sum + logs[:, i], log_sum)
        bp = np.where(sys_len < ref_len,
                      np.where(sys_len > 0, np.exp(1.0 - ref_len / np.where(sys_len > 0, sys_len, 1.0)), 0.0), 1.0)
        scores = bp * np.exp(log_sum / eff)
    values = np.where(correct[:, 0] == 0, 0.0, scores)

    def components(i: int) -> dict[str, Any]:
        raise KnobError("bleu: float32 resampling gives values only (no components)")

    return Scored(values, components)
