"""BLEU's score stage: the one scorer, from summed rows to numbers.

:func:`score_rows` takes an (m, columns) array of summed statistics rows
(``hyp_len, ref_len, correct_1..N, total_1..N[, correct_next, total_next]``) and scores each row
as a corpus: m = 1 for the corpus score, every segment's own row for sentence scores, every
resample's sums for significance. Per row, with c = hyp_len, r = ref_len, p_n the precisions::

    BP    = 1 if c >= r (also c = r = 0), 0 if c = 0 < r, else exp(1 - r/c)
    value = scale * BP * exp(sum_n w_n log p_n)

with ``math.log``/``math.exp``/``math.pow`` per element (:mod:`assay.metrics.bleu.libm`), in the
floating-point order of operations the knob ``score_arithmetic`` names (:func:`_combine`), so that
every path gives the tool's bits: ``weighted-logs`` ``(scale * BP) * exp(...)``, the log terms added
order by order from 0.0; ``sacrebleu`` ``BP * exp(sum_n log(scale c_n / t_n) / N_eff)``, the
precisions computed as percentages ``(100 c_n)/t_n``; ``nltk`` ``scale * (BP * exp(math.fsum(...)))``;
``d2l`` ``scale * (BP * p_1^w_1 * p_2^w_2 ...)`` multiplied order by order.

The tools differ only in knobs (shared/research/bleu_nist.md):

- precisions: ``c_n/t_n``; a zero count gets ``smooth_method``: ``exp`` 1/(2^k t_n) for the k-th
  such order, ``floor`` eps/t_n, ``float-min`` NLTK method0's 2.2e-308, ``add-k`` adds k to c_n and
  t_n for n >= 2 (also n = 1 with ``add_k_unigrams``, NLTK 3.5); NLTK methods 4-7
  (:mod:`assay.metrics.bleu.nltk_smoothing`) change the precision list of each row (4, 5 and 7
  for every row at once, 6 row by row), methods 5-7 reading the last segment's row (``last``).
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

import functools
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError
from assay.core.knobs import Config
from assay.metrics.bleu import libm
from assay.metrics.bleu.knobs import DEFAULT_SMOOTH_VALUE, weight_tuples
from assay.metrics.bleu.nltk_smoothing import VECTORISED, nltk_methods, nltk_rows

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
    plan = _plan(config)
    if plan.coco:
        return _coco(sums.astype(np.float64), config)
    if plan.float32 and sums.dtype == np.float32:
        return _float32(sums, config)
    return _float64(sums.astype(np.float64), plan, config, last, columns)


def smooth_value(config: Config) -> float:
    """``smooth_value``, or the method's default (floor 0.1, add-k 1, else 0)."""
    if config.smooth_value is not None:
        return config.smooth_value
    return DEFAULT_SMOOTH_VALUE.get(config.smooth_method, 0.0)


def reads_last_segment(config: Config) -> bool:
    """NLTK methods 5-7 read the last segment's row: such a score is not a function of sums."""
    return config.epsilon != "coco" and config.smooth_method in ("nltk-method5", "nltk-method6", "nltk-method7")


# ----------------------------------------------------------------------------- per-configuration constants
@dataclass(frozen=True)
class _Plan:
    """The score-stage knobs of one configuration, read once, and the arrays they fix."""

    coco: bool                      # epsilon=coco
    float32: bool                   # resample_arithmetic=float32
    n: int
    method: str
    k_value: float
    scale: float
    tuples: list[tuple[float, ...]] | None
    several: bool
    drop: bool                      # NLTK 3.5 auto_reweigh_orders=drop with weights (0.25,)*4
    missing_order: str
    effective_order: bool
    no_match_zero: bool
    zero_mode: bool
    weight_lists: str
    auto_reweigh: bool
    use_bp: bool                    # use_brevity_penalty (off: BP = 1 whatever the lengths)
    arithmetic: str                 # score_arithmetic: weighted-logs, sacrebleu, nltk or d2l
    add_k_first: int | None         # add-k: the first order k is added to (None: no add-k)
    order: np.ndarray               # (1, N): 0 .. N-1
    fixed: tuple[tuple[np.ndarray, Any, bool], ...] | None
    """Weights that no row changes: per weight tuple, the (1, N) weights, the terms a zero precision
    adds (:func:`_zero_terms`) and whether they are (0.25,)*4 (auto_reweigh); None when they depend
    on the row's effective order."""


_PLAN_KNOBS = ("epsilon", "resample_arithmetic", "max_ngram_order", "smooth_method", "smooth_value", "scale",
               "weights", "auto_reweigh", "auto_reweigh_orders", "missing_order", "no_match", "weight_lists",
               "add_k_unigrams", "effective_order", "zero_precision", "use_brevity_penalty",
               "score_arithmetic")
_PLANS_BY_ID: dict[int, tuple[Config, _Plan]] = {}
_PLANS_BY_ID_MAX = 256


def _plan(config: Config) -> _Plan:
    """The cached :class:`_Plan` of ``config`` (by identity, then by its score-stage knob values)."""
    hit = _PLANS_BY_ID.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    values = tuple(map(config.__getitem__, _PLAN_KNOBS))
    try:
        plan = _plan_of(values, tuple(map(type, values)))   # types too: 1 == 1.0 == True
    except TypeError:              # an unhashable knob value: build it uncached
        plan = _build_plan(values)
    if len(_PLANS_BY_ID) >= _PLANS_BY_ID_MAX:
        _PLANS_BY_ID.clear()
    _PLANS_BY_ID[id(config)] = (config, plan)   # holding config keeps its id unique
    return plan


@functools.lru_cache(maxsize=4096)
def _plan_of(values: tuple[Any, ...], types: tuple[type, ...]) -> _Plan:
    return _build_plan(values)


def _arithmetic(knobs: dict[str, Any]) -> str:
    """``score_arithmetic``, except that ``sacrebleu`` (a mean of logs: sacrebleu has only uniform
    weights) falls back to ``weighted-logs`` under other weights, so that every combination is valid."""
    if knobs["score_arithmetic"] == "sacrebleu" and knobs["weights"] != "uniform":
        return "weighted-logs"
    return str(knobs["score_arithmetic"])


def _build_plan(values: tuple[Any, ...]) -> _Plan:
    knobs = dict(zip(_PLAN_KNOBS, values))
    n = knobs["max_ngram_order"]
    method = knobs["smooth_method"]
    k_value = knobs["smooth_value"] if knobs["smooth_value"] is not None else DEFAULT_SMOOTH_VALUE.get(method, 0.0)
    tuples = weight_tuples(knobs["weights"])
    drop = bool(knobs["auto_reweigh"] and knobs["auto_reweigh_orders"] == "drop" and tuples is not None
                and len(tuples) == 1 and tuples[0] == QUARTERS)
    zero_mode = knobs["zero_precision"] == "zero"
    order = np.arange(n)[None, :]
    fixed: list[tuple[np.ndarray, bool]] | None = None
    if tuples is None and knobs["weights"] == "halving":
        fixed = [(np.broadcast_to(0.5 ** (np.arange(n) + 1.0), (1, n)), False)]
    elif tuples is None and not knobs["effective_order"] and not drop:
        eff = np.full(1, n, dtype=np.int64)           # every row's effective order is N
        fixed = [(np.where(order < eff[:, None], 1.0 / np.maximum(eff, 1)[:, None], 0.0), n == 4)]
    elif tuples is not None:
        fixed = []
        for weights in tuples:
            row = np.zeros((1, n))
            row[:, :len(weights)] = weights
            fixed.append((row, weights == QUARTERS))
    return _Plan(coco=knobs["epsilon"] == "coco", float32=knobs["resample_arithmetic"] == "float32",
                 n=n, method=method, k_value=k_value, scale=float(knobs["scale"]), tuples=tuples,
                 several=tuples is not None and len(tuples) > 1, drop=drop,
                 missing_order=knobs["missing_order"], effective_order=bool(knobs["effective_order"]),
                 no_match_zero=knobs["no_match"] == "zero", zero_mode=zero_mode,
                 weight_lists=knobs["weight_lists"], auto_reweigh=bool(knobs["auto_reweigh"]),
                 use_bp=bool(knobs["use_brevity_penalty"]), arithmetic=_arithmetic(knobs),
                 add_k_first=(0 if knobs["add_k_unigrams"] else 1) if method == "add-k" else None,
                 order=_frozen(order),
                 fixed=None if fixed is None else tuple((_frozen(w), _frozen(_zero_terms(w, zero_mode)), q)
                                                         for w, q in fixed))


# ----------------------------------------------------------------------------- float64 (every tool)
def _float64(sums: np.ndarray, plan: _Plan, config: Config, last: np.ndarray | None,
             columns: Sequence[str]) -> Scored:
    n = plan.n
    m = sums.shape[0]
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    raw_correct, raw_total = sums[:, 2:2 + n], sums[:, 2 + n:2 + 2 * n]
    method = plan.method
    several = plan.several

    # NLTK 3.5's auto_reweigh computes (and smooths) only hyp_len orders of a corpus shorter than 4
    if plan.drop:
        short = sys_len < 4
        orders = np.where(short, sys_len, n).astype(np.int64)
    else:
        orders = np.full(m, n, dtype=np.int64)

    errors: list[tuple[np.ndarray, Callable[[int], Exception]]] = []
    if plan.drop:
        errors.append((short & (sys_len == 0), lambda i: ToolBehaviourError(
            "NLTK 3.5 auto_reweigh divides 1 by hyp_len = 0", "ZeroDivisionError")))
    if plan.missing_order == "error":
        errors.append((sys_len < orders, lambda i: _d2l_short(float(sys_len[i]))))
    if config.zero_length == "error":     # TF NMT compute_bleu: ratio = c / r, then exp(1 - 1 / ratio)
        errors.append(((sys_len == 0) | (ref_len == 0), lambda i: ToolBehaviourError(
            "compute_bleu divides by a hypothesis or reference length of 0", "ZeroDivisionError")))
    # nothing matches: sacrebleu 2 (#141) and NLTK return 0 before any smoothing (raw counts shown);
    # an empty hypothesis returns early in every tool (sacrebleu 1.x too, before add-k)
    early = (sys_len == 0) | (raw_correct[:, 0] == 0) if plan.no_match_zero else sys_len == 0
    if several and plan.weight_lists == "error":
        errors.append((~early, lambda i: ToolBehaviourError(
            "NLTK 3.5 takes one weight tuple; several raise TypeError", "TypeError")))

    correct, total = raw_correct, raw_total
    if plan.add_k_first is not None:   # changes the reported counts too (sacrebleu shows counts/totals with +k)
        correct, total = raw_correct.copy(), raw_total.copy()
        correct[:, plan.add_k_first:] += plan.k_value
        total[:, plan.add_k_first:] += plan.k_value

    # sacrebleu's arithmetic divides scale*c_n by t_n (its precisions are percentages); NLTK's methods
    # 4-7 smooth fractions, which are scaled afterwards
    scaled = plan.arithmetic == "sacrebleu" and not method.startswith("nltk-method")
    prec, eff, no_ngrams = _precisions(correct, total, orders if plan.drop else None, orders, plan,
                                       plan.scale if scaled else 1.0)
    if plan.missing_order == "error":
        errors.append(((no_ngrams > 0) & ~early, lambda i: ToolBehaviourError(
            f"the hypothesis has no {int(no_ngrams[i])}-grams: d2l's bleu divides by len(pred) - n + 1 = 0",
            "ZeroDivisionError")))

    if method in VECTORISED:
        prec, failures = nltk_rows(method, prec, correct, total, sys_len, orders, ~early, config, columns, last)
        errors.extend(failures)
    failing = _first_failure(errors, m) if errors else None
    if method.startswith("nltk-method") and method not in VECTORISED:
        for i in np.flatnonzero(~early).tolist():
            if failing is not None and i >= failing[0]:
                break
            k = int(orders[i])
            prec[i, :k] = nltk_methods(method, prec[i, :k].tolist(), correct[i, :k].tolist(), total[i, :k].tolist(),
                                       float(sys_len[i]), config, columns, None if last is None else last[i])
    if failing is not None:
        raise failing[1]

    if plan.arithmetic == "sacrebleu" and not scaled:
        prec = prec * plan.scale
    positive = prec > 0
    logs = libm.log(np.where(positive, prec, 1.0))     # log 1 = 0 where p_n <= 0
    bp = _brevity_penalties(sys_len, ref_len) if plan.use_bp else np.ones(m)
    scale = plan.scale
    per_tuple = [np.where(early, 0.0, _combine(plan, w, zero_terms, prec, logs, bp))
                 for w, zero_terms in _weight_matrices(plan, eff, sys_len)]
    shown = 1.0 if plan.arithmetic == "sacrebleu" else scale   # prec already holds the tool's percentages
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
            if several and plan.weight_lists == "scores":
                out["scores"] = [0.0] * len(per_tuple)   # NLTK: a list of 0s, one per weight tuple
            return out
        out.update(counts=[_int_if_whole(x) for x in correct[i, :k].tolist()],
                   totals=[_int_if_whole(x) for x in total[i, :k].tolist()],
                   precisions=[p * shown for p in prec[i, :k].tolist()], eff_order=int(eff[i]))
        if several:
            out["scores"] = [float(v[i]) for v in per_tuple]
        return out

    return Scored(values, components)


def _precisions(correct: np.ndarray, total: np.ndarray, cut: np.ndarray | None, orders: np.ndarray, plan: _Plan,
                unit: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row and order: the precision after the generic smoothing rules, the effective order, and
    (``missing_order=error``) the first order without hypothesis n-grams (1-based; 0 = none).

    Order n of a row is *active* if n < the row's order count (``cut``; None = every order), it has
    hypothesis n-grams and (``missing_order`` stop/error) so do all orders before it. An active order
    has ``c_n/t_n``, or the smoothed value if c_n = 0 (``exp``: 1/(2^k t_n), k counting the row's
    active zero orders up to n); an inactive order has 0, or 1 (``missing_order=one``, mteval) if it
    is within the row's orders but has no n-grams.

    ``unit`` is what a precision of 1 is (``score_arithmetic=sacrebleu``: the scale): the precisions are
    ``(unit c_n)/t_n``, ``unit/(2^k t_n)``, ``(unit eps)/t_n``, ``unit * 2.2e-308`` and ``unit``, as
    sacrebleu computes its percentages (unit 1.0 changes no bit).
    """
    m, n = correct.shape
    method = plan.method
    has = total != 0
    in_order = None if cut is None else plan.order < cut[:, None]
    if plan.missing_order == "one":
        active = has if in_order is None else has & in_order
    else:                                           # stop (sacrebleu: 0 from here on) or error (d2l)
        active = np.logical_and.accumulate(has, axis=1)
        if in_order is not None:
            active &= in_order
    no_ngrams = np.zeros(m, dtype=np.int64)
    if plan.missing_order == "one":
        last = (active * (plan.order + 1)).max(axis=1) if plan.effective_order else None
    else:
        last = active.sum(axis=1)                   # active orders are a prefix: the last active order
        if plan.missing_order == "error":           # the next order, if within the row's orders, has none
            no_ngrams = np.where(last < orders, last + 1, 0)
    eff = np.where(last > 0, last, orders) if plan.effective_order else orders
    prec = np.zeros((m, n))
    hit = active & (correct != 0)
    np.divide(correct * unit, total, out=prec, where=hit)
    if method == "exp" or method == "floor" or method == "float-min":
        zero = active ^ hit                         # active & (c_n == 0)
        if method == "exp":
            np.divide(unit, np.ldexp(1.0, zero.cumsum(axis=1)) * total, out=prec, where=zero)
        elif method == "floor":
            np.divide(unit * plan.k_value, total, out=prec, where=zero)
        else:
            np.copyto(prec, unit * FLOAT_MIN, where=zero)
    if plan.missing_order == "one":                 # mteval: log 1 = 0 for an order without test n-grams
        np.copyto(prec, unit, where=~has if in_order is None else in_order & ~has)
    return prec, eff, no_ngrams


def _weight_matrices(plan: _Plan, eff: np.ndarray, sys_len: np.ndarray) -> list[tuple[np.ndarray, Any]]:
    """Per weight tuple: the weights ((m, N), or (1, N) when no row differs; zero where a tool's
    weights stop short) and the terms a zero precision adds (:func:`_zero_terms`).

    NLTK's ``auto_reweigh`` replaces a row's weights (0.25, 0.25, 0.25, 0.25) by 1/c over c orders
    when 0 < c < 4 (c = hyp_len): an explicit tuple, or uniform weights over an effective order of 4.
    """
    order = plan.order
    if plan.fixed is not None:
        if not plan.auto_reweigh:
            return [(w, zero_terms) for w, zero_terms, _ in plan.fixed]
        matrices, quarters = [w for w, _, _ in plan.fixed], [q for _, _, q in plan.fixed]
    else:
        matrices = [np.where(order < eff[:, None], 1.0 / np.maximum(eff, 1)[:, None], 0.0)]
        quarters = [eff == 4]
    if plan.auto_reweigh:
        short = (sys_len < 4) & (sys_len > 0)
        reweighed = np.where(order < sys_len[:, None].astype(np.int64),
                             1.0 / np.where(short, sys_len, 1.0)[:, None], 0.0)
        matrices = [np.where((quarter & short)[:, None], reweighed, matrix)
                    for matrix, quarter in zip(matrices, quarters)]
    return [(w, _zero_terms(w, plan.zero_mode)) for w in matrices]


def _frozen(array: Any) -> Any:
    """``array`` made read-only (a plan's arrays are shared by every call)."""
    if isinstance(array, np.ndarray):
        array.flags.writeable = False
    return array


def _zero_terms(weights: np.ndarray, zero_mode: bool) -> Any:
    """What a zero precision adds: ``w * -9999999999`` where w > 0 (sacrebleu's log 0), else 0."""
    return np.where(weights > 0, weights * MY_LOG_ZERO, 0.0) if zero_mode else 0.0


def _log_sum(weights: np.ndarray, zero_terms: Any, positive: np.ndarray, logs: np.ndarray) -> np.ndarray:
    """``sum_n w_n log p_n`` added order by order from 0.0, p_n = 0 adding ``zero_terms``.

    A sequential running sum from the first term, then + 0.0: the same number as adding the terms
    to 0.0 one by one (they differ only in the sign of a zero partial sum, which + 0.0 removes).
    """
    terms = np.where(positive, weights * logs, zero_terms)
    return np.add.accumulate(terms, axis=1)[:, -1] + 0.0


def _combine(plan: _Plan, weights: np.ndarray, zero_terms: Any, prec: np.ndarray, logs: np.ndarray,
             bp: np.ndarray) -> np.ndarray:
    """The value of every row from its precisions ``prec`` (and their ``logs``), in the operation
    order ``score_arithmetic`` names.

    - ``weighted-logs``: ``(scale * BP) * exp(sum_n w_n log p_n)``, added order by order;
    - ``sacrebleu`` (``logs`` of the scaled precisions P_n = scale p_n): ``BP * exp(S / K)`` with S the
      logs of the K orders of positive weight added order by order (a zero P_n adds -9999999999,
      or nothing with ``zero_precision=skip``), as sacrebleu 2.6.0 (black-box verified bit for bit);
    - ``nltk``: ``scale * (BP * exp(fsum_n w_n log p_n))``, the terms' exactly rounded sum
      (``math.fsum`` per row), as NLTK 3.10.4 (black-box verified bit for bit);
    - ``d2l``: ``scale * (((BP * p_1^w_1) * p_2^w_2) ...)`` with libm ``pow``, multiplied order by order
      (a zero p_n gives 0, or 1 with ``zero_precision=skip``), as d2l's ``bleu`` (verified bit for bit
      on its frozen outputs, fixtures/bleu/d2l_generated.json).
    """
    positive = prec > 0
    if plan.arithmetic == "sacrebleu":
        used = weights > 0       # (1, N) or (m, N): np.where and the division broadcast it to every row
        terms = np.where(used, np.where(positive, logs, MY_LOG_ZERO if plan.zero_mode else 0.0), 0.0)
        count = np.maximum(used.sum(axis=1), 1)
        return bp * libm.exp((np.add.accumulate(terms, axis=1)[:, -1] + 0.0) / count)
    if plan.arithmetic == "d2l":
        weights = np.broadcast_to(weights, prec.shape)
        zero = np.where(weights > 0, 0.0, 1.0) if plan.zero_mode else 1.0
        factors = np.where(positive, libm.pow(np.where(positive, prec, 1.0), weights), zero)
        product = np.multiply.accumulate(np.concatenate([bp[:, None], factors], axis=1), axis=1)[:, -1]
        return plan.scale * product
    if plan.arithmetic == "nltk":
        terms = np.where(positive, weights * logs, zero_terms)
        sums = libm.fsum_rows(terms)
        return plan.scale * (bp * libm.exp(sums))
    return plan.scale * bp * libm.exp(_log_sum(weights, zero_terms, positive, logs))


def _brevity_penalties(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    """Per row: BP = 1 if c >= r (so also when both are 0, as sacrebleu), 0 if c = 0 < r, else
    exp(1 - r/c) (IEEE ``1 - r/c`` as the scalar tools compute it, then ``math.exp``:
    :func:`assay.metrics.bleu.libm.exp`)."""
    bp = np.ones(len(sys_len))
    short = sys_len < ref_len
    if not short.any():
        return bp
    bp[short & (sys_len == 0)] = 0.0
    shrink = short & (sys_len != 0)
    if shrink.any():
        bp[shrink] = libm.exp(1.0 - ref_len[shrink] / sys_len[shrink])
    return bp


def _first_failure(errors: list[tuple[np.ndarray, Callable[[int], Exception]]], m: int
                   ) -> tuple[int, Exception] | None:
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


def _int_if_whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


# ----------------------------------------------------------------------------- pycocoevalcap's epsilon
def _coco(sums: np.ndarray, config: Config) -> Scored:
    n = config.max_ngram_order
    sys_len, ref_len = sums[:, 0], sums[:, 1]
    correct, total = sums[:, 2:2 + n], sums[:, 2 + n:2 + 2 * n]
    precisions = (correct + COCO_TINY) / (total + COCO_SMALL)
    # libm pow/exp as pycocoevalcap's scalar ``**``/``math.exp`` (numpy's may differ in the last bit)
    cumulative = libm.pow(np.cumprod(precisions, axis=1), (1.0 / np.arange(1, n + 1, dtype=np.float64))[None, :])
    ratio = (sys_len + COCO_TINY) / (ref_len + COCO_SMALL)
    with np.errstate(over="ignore", under="ignore"):
        bp = np.where(ratio < 1.0, libm.exp(1.0 - 1.0 / np.where(ratio < 1.0, ratio, 1.0)), 1.0)
    if not config.use_brevity_penalty:
        bp = np.ones_like(bp)
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
        if not config.use_brevity_penalty:
            bp = np.ones(m)
        scores = bp * np.exp(log_sum / eff)
    values = np.where(correct[:, 0] == 0, 0.0, scores)

    def components(i: int) -> dict[str, Any]:
        raise KnobError("bleu: float32 resampling gives values only (no components)")

    return Scored(values, components)
