"""GLEU's one scorer: statistics rows (or their sums) -> scores.

- ``averaging=corpus`` (NLTK ``corpus_gleu``, Wu et al.): ``sum(matches) / sum(total)``, 0 when
  the summed total is 0 (NLTK returns 0.0 there);
- ``averaging=segments``: ``sum(sentence) / segments``, the mean of the sentence scores;
- a single row is a sentence score (NLTK ``sentence_gleu`` is ``corpus_gleu`` on one segment).

Times ``scale`` (1 or 100).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.knobs import Config
from assay.metrics.gleu.rows import COLUMNS

_M, _T, _S, _K = (COLUMNS.index(c) for c in ("matches", "total", "sentence", "segments"))


def scores_from_sums(sums: np.ndarray, config: Config) -> np.ndarray:
    """One score per row of ``sums`` (shape ``(k, 4)``: summed or single rows), float64."""
    sums = np.asarray(sums, dtype=np.float64)
    if config.averaging == "segments":
        num, den = sums[:, _S], sums[:, _K]
    else:
        num, den = sums[:, _M], sums[:, _T]
    values = np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)
    return values * config.scale if config.scale != 1 else values


def components(row: np.ndarray, config: Config) -> dict[str, Any]:
    """``matches`` and ``total`` (integers), and with ``averaging=segments`` the segment count."""
    out: dict[str, Any] = {"matches": int(row[_M]), "total": int(row[_T])}
    if config.averaging == "segments":
        out["segments"] = int(row[_K])
    return out
