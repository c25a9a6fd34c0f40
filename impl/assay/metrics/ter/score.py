"""TER's one scorer: summed ``(num_edits, ref_length)`` rows -> score, for corpora, sentences and resamples.

``TER = num_edits / ref_length`` on the configured scale (x100 for sacrebleu 2.x). A zero
reference length: ``zero_ref_length=edits`` gives the full scale when there are edits and 0
otherwise (sacrebleu 2.x), ``one`` the full scale even without edits (sacrebleu 1.5.1), ``error``
raises :class:`~assay.core.errors.ToolBehaviourError` (ZeroDivisionError: pyter3 divides by the
reference length; any row of length 0 fails, as the tool fails on that segment).

Arithmetic follows the sums: float64 sums are scored in float64. float32 sums under
``resample_arithmetic=float32`` are scored as sacrebleu 2.x's bootstrap scores them (NEP 50):
``100 * (edits / ref_length)`` in float32; the zero-length scores are Python floats, and one of
them widens the whole array to float64 (their values, 100.0 and 0.0, are exact either way).
"""
from __future__ import annotations

import numpy as np

from assay.core.errors import ToolBehaviourError
from assay.core.knobs import Config

COLUMNS = ("num_edits", "ref_length")


def _scored(sums: np.ndarray, config: Config) -> tuple[np.ndarray, np.ndarray]:
    """(scores, Python-float mask) of summed rows."""
    sums = np.asarray(sums)
    if not (sums.dtype == np.float32 and config.resample_arithmetic == "float32"):
        sums = sums.astype(np.float64)
    edits, length = sums[:, 0], sums[:, 1]
    one, zero = sums.dtype.type(1), sums.dtype.type(0)
    empty = ~(length > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / np.where(empty, one, length)
    if config.zero_ref_length == "error" and empty.any():     # pyter3: edits / len(ref)
        raise ToolBehaviourError("the reference length is 0: pyter3 divides the edits by it", "ZeroDivisionError")
    if config.zero_ref_length == "one":
        ratio = np.where(empty, one, ratio)
    else:
        ratio = np.where(empty, np.where(edits > 0, one, zero), ratio)
    value = ratio * config.scale if config.scale != 1 else ratio
    if value.dtype == np.float32:
        return (value.astype(np.float64) if empty.any() else value), empty
    return value, np.ones(len(value), dtype=bool)


def scores_from_sums(sums: np.ndarray, config: Config) -> np.ndarray:
    """TER of every summed row on the configured scale (zero-length rule applied)."""
    return _scored(sums, config)[0]


def float32_python_float_mask(sums: np.ndarray, config: Config) -> np.ndarray:
    """Which scores of :func:`scores_from_sums` are Python floats in the tool: all of them in
    float64 arithmetic, the zero-length ones under float32 arithmetic."""
    return _scored(sums, config)[1]
