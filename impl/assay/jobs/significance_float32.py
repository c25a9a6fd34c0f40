"""sacrebleu 2.x's float32 resampling arithmetic (the scores its bootstrap computes).

sacrebleu's bootstrap sums the statistics of each resample as float32 and hands them to the
metric's corpus-score function; under numpy's NEP 50 promotion rules (numpy 2) every operation
mixing a float32 with a Python number stays float32, so the resampled scores (and through them
the printed means, CIs and p-values) carry float32 rounding. Found black-box (sacrebleu 2.6.0,
numpy 2.4) by feeding float32 sums to each metric and matching every candidate operation order
bit for bit; Python-number branches (0, 100, eps) stay float64, which turns the whole score array
into float64 (``np.array`` of mixed float32 and Python floats), as in sacrebleu.

- BLEU: :func:`assay.metrics.bleu.sacrebleu_float32_scores` (float32 precisions ``(100 c)/t``).
- chrF (``eps_smoothing`` off): over orders with ``h > 0`` and ``r > 0``: ``P += m/h``, ``R += m/r``
  (float32), then ``P /= eff``, ``R /= eff`` and ``100 * ((1 + b²) P R / (b² P + R))``; no effective
  order or ``P + R = 0`` gives the Python float 0.0.
- chrF (``eps_smoothing`` on): per order ``P = m/h`` (or the Python float eps = 1e-16 when ``h = 0``),
  ``R`` likewise, ``F = (1 + b²) P R / (b² P + R)`` (eps when the denominator is 0), summed order by
  order from 0.0, then ``100 * sum / n_orders``; float32 as soon as one term is float32.
- TER: ``100 * (edits / ref_len)`` in float32; ``ref_len = 0`` gives 100.0 (edits > 0) or 0.0.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.errors import KnobError

F32 = np.float32
EPS = 1e-16


def uses_float32(profile: Any) -> bool:
    """sacrebleu 2.x resamples in float32; every other profile uses exact float64 sums."""
    return profile.tool == "sacrebleu" and str(profile.tool_version).split(".")[0] == "2"


def tool_resample_scores(family: Any, sums32: np.ndarray, config: Any, columns: tuple[str, ...]) -> np.ndarray:
    """The scores sacrebleu 2.x computes from float32 resample sums, for BLEU, chrF and TER
    (``columns`` names the statistics columns of the family's rows)."""
    return tool_resample_scores_and_kinds(family, sums32, config, columns)[0]


def tool_resample_scores_and_kinds(family: Any, sums32: np.ndarray, config: Any, columns: tuple[str, ...]
                                   ) -> tuple[np.ndarray, np.ndarray]:
    """Scores plus a mask of those that are Python floats in sacrebleu (all of BLEU's; chrF's and
    TER's special cases). ``statistics.mean`` (sacrebleu's ``--confidence`` mean) cannot mix them."""
    name = family.name
    if name == "bleu":
        scores = family.scores_from_sums(sums32, config)
        return scores, np.ones(len(scores), dtype=bool)
    if name == "chrf":
        return chrf_float32_scores(sums32, _chrf_columns(name, columns), config, kinds=True)
    if name == "ter":
        return ter_float32_scores(sums32, _column_index(name, columns, ("num_edits", "edits")),
                                  _column_index(name, columns, ("ref_length", "ref_len", "avg_ref_len")),
                                  kinds=True)
    raise KnobError(f"{name}: no sacrebleu float32 resampling arithmetic is known for this metric")


def _column_index(name: str, cols: tuple[str, ...], names: tuple[str, ...]) -> int:
    for col in names:
        if col in cols:
            return cols.index(col)
    raise KnobError(f"{name}: none of the columns {names} in {cols}")


def _chrf_columns(name: str, cols: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """(hyp, ref, match) column indices per order, in the tool's order (characters, then words)."""
    out = []
    for i, col in enumerate(cols):
        if col.endswith("_hyp"):
            stem = col[:-4]
            out.append((i, cols.index(f"{stem}_ref"), cols.index(f"{stem}_match")))
    if not out:
        raise KnobError(f"{name}: no per-order columns in {cols}")
    return out


def _chrf_check(config: Any) -> None:
    if config.get("averaging", "corpus") != "corpus" or config.get("scale", 100) != 100 or \
            config.get("zero_division", "sacrebleu") != "sacrebleu":
        raise KnobError("chrf: float32 resampling reproduces sacrebleu 2.x (corpus averaging, 0-100 scale)")


def chrf_float32_scores(sums: np.ndarray, orders: list[tuple[int, int, int]], config: Any,
                        kinds: bool = False) -> Any:
    """sacrebleu 2.x chrF of float32 sums (see the module docstring for the operation order)."""
    _chrf_check(config)
    sums = np.asarray(sums, dtype=F32)
    b2 = config.beta ** 2
    m_rows = sums.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        if not config.eps_smoothing:
            p = np.zeros(m_rows, dtype=F32)
            r = np.zeros(m_rows, dtype=F32)
            eff = np.zeros(m_rows, dtype=np.int64)
            for hi, ri, mi in orders:
                h, rr, m = sums[:, hi], sums[:, ri], sums[:, mi]
                ok = (h > 0) & (rr > 0)
                p = np.where(ok, p + m / h, p).astype(F32)
                r = np.where(ok, r + m / rr, r).astype(F32)
                eff += ok
            safe = np.where(eff > 0, eff, 1).astype(F32)
            p = (p / safe).astype(F32)
            r = (r / safe).astype(F32)
            score = (F32(1 + b2) * p * r / (F32(b2) * p + r)).astype(F32) * F32(100)
            python_zero = (eff == 0) | ((p + r) == 0)
            out = np.where(python_zero, 0.0, score.astype(np.float64))
            out = out if python_zero.any() else out.astype(F32)
            return (out, python_zero) if kinds else out
        total32 = np.zeros(m_rows, dtype=F32)
        total64 = np.zeros(m_rows)
        is32 = np.zeros(m_rows, dtype=bool)
        for hi, ri, mi in orders:
            h, rr, m = sums[:, hi], sums[:, ri], sums[:, mi]
            p_py, r_py = h <= 0, rr <= 0                     # these parts are the Python float eps
            p32 = np.where(p_py, F32(0), m / h).astype(F32)
            r32 = np.where(r_py, F32(0), m / rr).astype(F32)
            both_py = p_py & r_py
            # denominator b2*P + R: float32 unless both parts are Python floats
            den32 = np.where(p_py, F32(b2 * EPS), F32(b2) * p32) + np.where(r_py, F32(EPS), r32)
            num32 = np.where(p_py, F32((1 + b2) * EPS) * r32,
                             np.where(r_py, F32(1 + b2) * p32 * F32(EPS), F32(1 + b2) * p32 * r32))
            f32 = (num32 / den32).astype(F32)
            den64 = b2 * EPS + EPS
            f64 = (1 + b2) * EPS * EPS / den64                # both parts eps: a Python float
            f_is_py = both_py | (~both_py & (den32 == 0))
            f_py = np.where(both_py, f64, EPS)
            # running sum: float32 once any term was float32
            new32 = ~is32 & ~f_is_py
            total32 = np.where(is32, total32 + np.where(f_is_py, F32(f_py), f32),
                               np.where(new32, F32(total64) + f32, total32)).astype(F32)
            total64 = np.where(~is32 & f_is_py, total64 + f_py, total64)
            is32 = is32 | new32
        n = len(orders)
        score32 = (F32(100) * total32 / F32(n)).astype(F32)
        score64 = 100 * total64 / n
        out = np.where(is32, score32.astype(np.float64), score64)
        out = out if (~is32).any() else out.astype(F32)
        return (out, ~is32) if kinds else out


def ter_float32_scores(sums: np.ndarray, edits_col: int, ref_col: int, kinds: bool = False) -> Any:
    """sacrebleu 2.x TER of float32 sums: ``100 * (edits / ref_len)``; 100.0 / 0.0 without reference."""
    sums = np.asarray(sums, dtype=F32)
    edits, ref = sums[:, edits_col], sums[:, ref_col]
    with np.errstate(divide="ignore", invalid="ignore"):
        score = (F32(100) * (edits / np.where(ref > 0, ref, F32(1)))).astype(F32)
    no_ref = ref <= 0
    out = score if not no_ref.any() else np.where(no_ref, np.where(edits > 0, 100.0, 0.0), score.astype(np.float64))
    return (out, no_ref) if kinds else out
