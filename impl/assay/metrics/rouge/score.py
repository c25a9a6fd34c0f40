"""ROUGE's corpus value from the rows: one scorer for corpus scores, document scores and resampled sums.

:func:`prf_of_sums` is the scorer: the P, R, F of one measure for corpora given by their summed
rows (one corpus per row of ``sums``; column 0 counts the documents):

- ``averaging=document`` (ROUGE-1.5.5 ``-t 0``, rouge-score): the mean of the per-document P, R, F
  (sum / documents);
- ``token`` (``-t 1``): P, R, F of the pooled counts (:func:`assay.metrics.rouge.combine.pooled_prf`;
  ROUGE-W too: ROUGE-1.5.5 ``-t 1`` divides its weighted counts without f^-1);
- ``pr-mean`` (rouge-metric PyRouge ``mode='average'``): mean P, mean R and the F of those two.

The corpus score (:func:`score_rows`) applies it to the corpus sums (:func:`corpus_sums`);
``scores_from_sums`` to resampled sums; a document's own score is the scorer on its row alone
under ``document`` averaging, i.e. its own P, R, F: what ROUGE-1.5.5 prints per evaluation
(``-d``) and rouge-score per pair, whatever the corpus averaging.

``aggregate=perl-bootstrap`` replaces the mean by ROUGE-1.5.5's printed Average (the mean of its
seeded bootstrap means, :mod:`assay.metrics.rouge.bootstrap`) with its interval; the components
are then the printed 5-decimal numbers. It resamples rows, so it is not a function of sums.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.errors import InputError, KnobError
from assay.core.knobs import Config
from assay.metrics.rouge.bootstrap import perl_bootstrap, perl_bootstrap_pooled, perl_eval_order
from assay.metrics.rouge.combine import Arrays, f_array, pooled_prf, round5
from assay.metrics.rouge.rows import WIDTH, base_column


def corpus_sums(rows: np.ndarray) -> np.ndarray:
    """The column sums of the rows, shape (1, n_columns), as assay has always formed them: counts
    added row after row (numpy's sum over axis 0), each P, R, F column by numpy's pairwise sum of
    that column (the last bits of a mean of per-document values depend on the order)."""
    sums = rows.sum(axis=0)
    for c in range(1, rows.shape[1]):
        if (c - 1) % WIDTH >= 3:
            sums[c] = np.sum(rows[:, c])
    return sums[None, :]


def prf_of_sums(sums: np.ndarray, t_index: int, averaging: str, alpha: float, beta: float | None,
                epsilon: float = 0.0) -> Arrays:
    """The P, R, F of measure ``t_index`` of each corpus whose summed row is a row of ``sums`` (module
    docstring); ``epsilon``: the F-measure's ``f_epsilon``."""
    base = base_column(t_index)
    if averaging == "token":
        return pooled_prf(sums[:, base], sums[:, base + 1], sums[:, base + 2], alpha, beta, epsilon=epsilon)
    docs = sums[:, 0]
    p = sums[:, base + 3] / docs
    r = sums[:, base + 4] / docs
    if averaging == "pr-mean":
        return p, r, f_array(p, r, alpha, beta, epsilon=epsilon)
    return p, r, sums[:, base + 5] / docs


def score_rows(rows: np.ndarray, config: Config) -> tuple[float, dict[str, Any]]:
    """The corpus value (F of the first measure) and every measure's components."""
    if len(rows) == 0:
        raise InputError("no documents to score")
    if config.aggregate == "perl-bootstrap":
        components = _perl_bootstrap(rows, config)
    else:
        sums = corpus_sums(rows)
        components = {}
        for t_index, t in enumerate(config.types):
            p, r, f = (float(x[0]) for x in prf_of_sums(sums, t_index, config.averaging, config.alpha,
                                                         config.beta, config.f_epsilon))
            components[t] = {"p": p, "r": r, "f": f}
            if config.averaging == "token":
                base = base_column(t_index)
                components[t].update(hits=_num(sums[0, base]), ref_count=_num(sums[0, base + 1]),
                                     peer_count=_num(sums[0, base + 2]))
    return float(components[config.types[0]]["f"]), components


def document_scores(rows: np.ndarray, config: Config) -> tuple[np.ndarray, list[Arrays]]:
    """Every document's own score: the F of the first measure, and each measure's (P, R, F) arrays
    (:func:`prf_of_sums` of each row alone, ``document`` averaging)."""
    prf = [prf_of_sums(rows, t_index, "document", config.alpha, config.beta, config.f_epsilon)
           for t_index in range(len(config.types))]
    return prf[0][2], prf


def scores_from_sums(sums: np.ndarray, config: Config) -> np.ndarray:
    """The corpus F of the first measure of every row of ``sums`` (resampled corpora)."""
    if config.aggregate != "mean":
        raise KnobError("rouge: aggregate=perl-bootstrap resamples the documents itself; its corpus value is "
                        "not a function of summed statistics (use aggregate=mean)")
    return prf_of_sums(np.asarray(sums, dtype=np.float64), 0, config.averaging, config.alpha, config.beta,
                       config.f_epsilon)[2]


def _perl_bootstrap(rows: np.ndarray, config: Config) -> dict[str, Any]:
    """ROUGE-1.5.5's printed Average and interval of every measure, documents in its order."""
    order = perl_eval_order(len(rows))
    ordered = rows[order]
    samples, confidence = config.bootstrap_samples, config.confidence
    if config.averaging == "token":
        out = {}
        for t_index, t in enumerate(config.types):
            base = base_column(t_index)
            out[t] = _perl_components(*perl_bootstrap_pooled(ordered[:, base], ordered[:, base + 1],
                                                             ordered[:, base + 2], samples, confidence, config.alpha))
        return out
    # one bootstrap over every measure's R, P, F columns (the columns are independent, so this
    # equals one call per measure; the resampling loop runs once)
    cols = [base_column(t_index) + k for t_index in range(len(config.types)) for k in (4, 3, 5)]
    boot = perl_bootstrap(ordered[:, cols], samples, confidence)
    return {t: _perl_components(*(x[3 * t_index:3 * t_index + 3] for x in boot))
            for t_index, t in enumerate(config.types)}


def _perl_components(avg: np.ndarray, low: np.ndarray, high: np.ndarray) -> dict[str, Any]:
    """ROUGE-1.5.5's printed Average and bounds (each ``[R, P, F]``) as components (``%7.5f`` numbers)."""
    r, p, f = (round5(x) for x in avg.tolist())
    return {"p": p, "r": r, "f": f, "p_low": round5(low[1]), "p_high": round5(high[1]),
            "r_low": round5(low[0]), "r_high": round5(high[0]), "f_low": round5(low[2]), "f_high": round5(high[2])}


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)
