"""chrF's one scorer: statistics -> score, for corpus sums, sentence rows and resampled sums alike.

Per order (character orders ``min_char_order..char_order``, then word orders ``1..word_order``)
a row holds ``h`` hypothesis n-grams, ``r`` reference n-grams and ``m`` matches. With
``P_n = m/h``, ``R_n = m/r`` and ``F_beta(P, R) = (1 + beta²) P R / (beta² P + R)``:

- ``eps_smoothing=False`` (eff:yes): ``P`` and ``R`` averaged over the *effective* orders
  (``h > 0`` and ``r > 0``), then one ``F_beta``; 0 when no order is effective or ``P + R = 0``.
- ``eps_smoothing=True`` (eff:no): ``F_beta`` per order, arithmetic mean over all orders, with
  ``eps = 1e-16`` for undefined parts. ``zero_division=sacrebleu``: ``P = eps`` when ``h = 0``,
  ``R = eps`` when ``r = 0``, ``F = eps`` only when ``beta² P + R = 0`` (so ``h = 0 < r`` gives
  ``F = 0``); ``nltk``: ``P = R = F = eps`` whenever ``h``, ``r`` or ``m`` is 0; ``zero``
  (torchmetrics): ``P = 0`` when ``h = 0``, ``R = 0`` when ``r = 0`` and
  ``F = (1 + beta²) P R / max(beta² P + R, eps)``, so an undefined order adds 0 to the mean.
- ``averaging=segments``: the row holds the sentence score and a segment count; the corpus
  score is their ratio (NLTK ``corpus_chrf``: the mean of the sentence scores).

Arithmetic follows the sums: float64 sums are scored in float64. float32 sums under
``resample_arithmetic=float32`` are scored as sacrebleu 2.x's bootstrap scores them (its scoring
code on float32 sums under NumPy's NEP 50 rules, :mod:`.nep50`): the constants (eps, 0.0, beta²)
are Python floats and stay float64 until they meet a float32, so a score is a float32 unless all
of its parts are constants (no effective order or ``P + R = 0`` with eps_smoothing off; every
order without n-grams with it on), and one such Python-float score widens the whole array to
float64. Black-box verified against sacrebleu 2.6.0 with NumPy 2 (fixtures/significance).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.errors import KnobError
from assay.core.knobs import Config
from assay.metrics.chrf.nep50 import Mixed, where

EPS = 1e-16


def orders(config: Config) -> list[tuple[str, int]]:
    """The orders of a row, in column order: ``("c", n)`` character orders, then ``("w", n)`` word orders."""
    chars = [("c", n) for n in range(config.min_char_order, config.char_order + 1)] if config.char_order else []
    return chars + [("w", n) for n in range(1, config.word_order + 1)]


def split_counts(rows: np.ndarray, config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hyp, ref, match) count arrays of shape (rows, orders)."""
    k = len(orders(config))
    counts = rows[:, :3 * k].reshape(len(rows), k, 3)
    return counts[:, :, 0], counts[:, :, 1], counts[:, :, 2]


def chrf_values(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, config: Config,
                scale: float | None = None, float32: bool = False) -> Any:
    """chrF of every row of (rows, orders) count arrays: the 0-1 fraction (``scale=None``) or
    the score on ``scale``; float64 arithmetic, or sacrebleu's float32 arithmetic (a
    :class:`~.nep50.Mixed`) when ``float32``."""
    count = Mixed.float32 if float32 else (lambda a: a)
    factor = config.beta ** 2
    n_rows, n_orders = hyp.shape
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if config.eps_smoothing:
            total: Any = 0.0
            for k in range(n_orders):
                h, r, m = count(hyp[:, k]), count(ref[:, k]), count(match[:, k])
                if config.zero_division == "zero":
                    p = np.where(hyp[:, k] > 0, m / np.where(hyp[:, k] > 0, h, 1), 0.0)
                    rc = np.where(ref[:, k] > 0, m / np.where(ref[:, k] > 0, r, 1), 0.0)
                    f = (1 + factor) * p * rc / np.maximum(factor * p + rc, EPS)
                elif config.zero_division == "nltk":
                    bad = (hyp[:, k] == 0) | (ref[:, k] == 0) | (match[:, k] == 0)
                    p = where(bad, EPS, m / h)
                    rc = where(bad, EPS, m / r)
                    f = where(bad, EPS, (1 + factor) * (p * rc) / (factor * p + rc))
                else:
                    p = where(hyp[:, k] > 0, m / h, EPS)
                    rc = where(ref[:, k] > 0, m / r, EPS)
                    denom = factor * p + rc
                    f = where(denom > 0, (1 + factor) * p * rc / denom, EPS)
                total = total + f
            if scale is None:
                return total / n_orders
            return (scale * total) / n_orders           # sacrebleu's order of operations (float32 and float64)
        avg_p: Any = 0.0
        avg_r: Any = 0.0
        eff = np.zeros(n_rows)
        for k in range(n_orders):
            h, r, m = count(hyp[:, k]), count(ref[:, k]), count(match[:, k])
            ok = (hyp[:, k] > 0) & (ref[:, k] > 0)
            avg_p = avg_p + where(ok, m / h, 0.0)
            avg_r = avg_r + where(ok, m / r, 0.0)
            eff = eff + ok
        avg_p = where(eff > 0, avg_p / eff, 0.0)
        avg_r = where(eff > 0, avg_r / eff, 0.0)
        both = avg_p + avg_r
        value = where(both > 0, (1 + factor) * avg_p * avg_r / (factor * avg_p + avg_r), 0.0)
        return value if scale is None else scale * value


def _float32_check(config: Config) -> None:
    if config.averaging != "corpus" or config.scale != 100 or config.zero_division != "sacrebleu":
        raise KnobError("chrf: resample_arithmetic=float32 reproduces sacrebleu 2.x and needs averaging=corpus, "
                        "scale=100 and zero_division=sacrebleu")


def _scored(sums: np.ndarray, config: Config) -> tuple[np.ndarray, np.ndarray]:
    """(scores, Python-float mask) of summed rows: the one scoring path (see the module doc)."""
    sums = np.atleast_2d(np.asarray(sums))
    if sums.dtype == np.float32 and config.resample_arithmetic == "float32":
        _float32_check(config)
        value = chrf_values(*split_counts(sums, config), config, config.scale, float32=True)
        return value.as_tool_array(), np.array(value.py)
    sums = sums.astype(np.float64)
    python = np.ones(len(sums), dtype=bool)
    if config.averaging == "segments":
        n = sums[:, -1]
        return config.scale * np.where(n > 0, sums[:, -2] / np.where(n > 0, n, 1), 0.0), python
    return chrf_values(*split_counts(sums, config), config, config.scale), python


def scores_from_sums(sums: np.ndarray, config: Config) -> np.ndarray:
    """chrF of every summed row (a corpus, one segment, or one resample) on the configured scale."""
    return _scored(sums, config)[0]


def float32_python_float_mask(sums: np.ndarray, config: Config) -> np.ndarray:
    """Which scores of :func:`scores_from_sums` are Python floats in the tool (all of them in
    float64 arithmetic; under float32 arithmetic the scores made only of constants).
    ``statistics.mean`` (sacrebleu's ``--confidence`` mean) cannot mix the two kinds."""
    return _scored(sums, config)[1]


def metric_name(config: Config) -> str:
    """sacrebleu's name: ``chrF{beta}`` plus one ``+`` per word order (``chrF2++``)."""
    return f"chrF{config.beta}" + "+" * config.word_order
