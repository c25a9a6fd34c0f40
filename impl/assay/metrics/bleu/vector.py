"""BLEU of many rows at once (sentence-level scoring of a whole corpus in numpy).

The same rules as :func:`assay.metrics.bleu.bleu_from_counts`, for the configurations that
need no per-corpus context: smoothing none/floor/add-k/exp/float-min, ``missing_order``
stop/one, uniform (effective-order aware), halving or one explicit weight tuple, no
auto_reweigh. ``vectorizable`` says whether a config qualifies; the property tests check
that both paths agree.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.knobs import Config
from assay.metrics.bleu.family import DEFAULT_SMOOTH_VALUE, FLOAT_MIN, MY_LOG_ZERO, weight_tuples


def vectorizable(config: Config) -> bool:
    tuples = weight_tuples(config.weights)
    return (config.smooth_method in ("none", "floor", "add-k", "exp", "float-min")
            and config.missing_order in ("stop", "one") and not config.auto_reweigh
            and (tuples is None or len(tuples) == 1))


def bleu_rows(sys_len: np.ndarray, ref_len: np.ndarray, correct: np.ndarray, total: np.ndarray,
              config: Config) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Scores (tool scale) and component arrays for each row of (m,) lengths and (m, N) counts."""
    m, n_max = correct.shape
    method = config.smooth_method
    k_value = config.smooth_value if config.smooth_value is not None else DEFAULT_SMOOTH_VALUE.get(method, 0.0)
    raw_unigram_zero = correct[:, 0] == 0
    correct = correct.astype(np.float64).copy()
    total = total.astype(np.float64).copy()
    if method == "add-k":
        first = 0 if config.add_k_unigrams else 1
        correct[:, first:] += k_value
        total[:, first:] += k_value
    prec = np.zeros((m, n_max))
    eff = np.full(m, n_max)
    alive = np.ones(m, dtype=bool)
    exp_factor = np.ones(m)
    for i in range(n_max):
        t, c = total[:, i], correct[:, i]
        missing = t == 0
        if config.missing_order == "stop":
            alive &= ~missing
        else:
            prec[missing & alive, i] = 1.0
        active = alive & ~missing
        if config.effective_order:
            eff[active] = i + 1
        zero = active & (c == 0)
        if method == "exp":
            exp_factor[zero] *= 2
            prec[zero, i] = 1.0 / (exp_factor[zero] * t[zero])
        elif method == "floor":
            prec[zero, i] = k_value / t[zero]
        elif method == "float-min":
            prec[zero, i] = FLOAT_MIN
        hit = active & (c > 0)
        prec[hit, i] = c[hit] / t[hit]
    with np.errstate(divide="ignore"):
        logs = np.where(prec > 0, np.log(np.where(prec > 0, prec, 1.0)),
                        MY_LOG_ZERO if config.zero_precision == "zero" else 0.0)
    tuples = weight_tuples(config.weights)
    if tuples is not None:
        weights = np.zeros(n_max)
        weights[:len(tuples[0])] = tuples[0]
        log_sum = (logs * weights[None, :]).sum(axis=1)
    elif config.weights == "halving":
        log_sum = (logs * 0.5 ** np.arange(1, n_max + 1)[None, :]).sum(axis=1)
    else:
        mask = np.arange(n_max)[None, :] < eff[:, None]
        log_sum = (logs * mask).sum(axis=1) / eff
    with np.errstate(divide="ignore", invalid="ignore"):
        bp = np.where(sys_len >= ref_len, 1.0, np.where(sys_len == 0, 0.0, np.exp(1.0 - ref_len / np.where(
            sys_len == 0, 1.0, sys_len))))
        ratio = np.where(ref_len > 0, sys_len / np.where(ref_len > 0, ref_len, 1.0), 0.0)
    scores = float(config.scale) * bp * np.exp(log_sum)
    early = (sys_len == 0) | (raw_unigram_zero & (config.no_match == "zero"))
    scores = np.where(early, 0.0, scores)
    prec[early] = 0.0
    eff = np.where(early, n_max, eff)
    components: dict[str, Any] = {"early": early, "bp": bp, "ratio": ratio, "counts": correct, "totals": total,
                                  "precisions": prec * config.scale, "eff_order": eff}
    return scores, components
