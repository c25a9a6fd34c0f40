"""What a discrepancy report holds (figures, per-measure sections, the comparison) and its JSON
summary; :mod:`.build` fills it, :mod:`.render` writes it as HTML and Markdown."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from assay._version import __version__
from assay.jobs.compare import Comparison, PairAttribution, Table


@dataclass
class Figure:
    """One plot: an SVG chart drawn from a template (``svg``: its text, inlined in the HTML page);
    ``path`` is its file, relative to the output directory (the Markdown page links it)."""

    key: str
    title: str
    path: str
    svg: str


@dataclass
class MeasureSection:
    table: Table
    scores_plot: Figure | None = None
    attributions: list[PairAttribution] = field(default_factory=list)
    waterfalls: dict[tuple[str, str], Figure] = field(default_factory=dict)
    same_as_default: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)
    distribution: Figure | None = None
    distribution_stats: dict[str, dict[str, float]] = field(default_factory=dict)
    distribution_note: str = ""
    divergent: PairAttribution | None = None
    scatter: Figure | None = None          # sentence scores of the most divergent pair, one dot per segment
    segments: Any = None                   # the segment explorer's data (segments.MeasureSegments)


@dataclass
class SummaryRow:
    """One line of the report's summary: how far the tools disagree on one metric measure on this
    corpus, the profile pair furthest apart, and the knob that explains most of their gap.

    ``spread``, ``low``/``high`` scores and ``knob_share`` are in the metric's printed scale
    (``scale``: ``0-100``, ``0-1``, ``CIDEr x10`` ...); ``knob_share`` is that knob's Shapley value
    (the same number ``assay compare --attribute`` gives for the pair) and ``knob_fraction`` is
    ``knob_share / (high - low)``. ``knob`` is None when the pair has no attribution (identical
    configurations or attribution unavailable)."""

    metric: str
    measure: str
    scale: str
    spread: float
    low: tuple[str, float]
    high: tuple[str, float]
    knob: str | None
    knob_share: float | None
    knob_fraction: float | None
    sentence: str

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "measure": self.measure, "scale": self.scale, "spread": self.spread,
                "low": {"profile": self.low[0], "score": self.low[1]},
                "high": {"profile": self.high[0], "score": self.high[1]},
                "knob": self.knob, "knob_share": self.knob_share, "knob_fraction": self.knob_fraction,
                "sentence": self.sentence}


@dataclass(frozen=True)
class ReportJob:
    """One report to write: a corpus, its output directory and :func:`~assay.jobs.report.build_report`'s
    options (plain data: ``--engine dask`` sends it to the workers)."""

    hyps: Sequence[str]
    refs: Sequence[Sequence[str | None]]
    out: str
    title: str
    source: str
    include_text: bool = True
    metrics: Sequence[str] | None = None
    top: int = 10
    max_players: int = 12    # exact Shapley values up to this many players (assay.jobs.attribution.EXACT_PLAYERS)


@dataclass
class Report:
    title: str
    source: str
    include_text: bool
    comparison: Comparison
    sections: list[MeasureSection]
    files: dict[str, Path] = field(default_factory=dict)
    summary: list[SummaryRow] = field(default_factory=list)


def summary_dict(report: Report) -> dict[str, Any]:
    cmp = report.comparison
    doc: dict[str, Any] = {"summary": [row.as_dict() for row in report.summary], "assay_version": __version__, "title": report.title, "source": report.source,
                           "segment_text_included": report.include_text, **cmp.as_dict(), "sections": []}
    for sec in report.sections:
        doc["sections"].append({
            "metric": sec.table.metric, "measure": sec.table.measure.label,
            "same_knobs_as_default": sec.same_as_default, "attribution_unavailable": sec.unavailable,
            "attributions": [p.as_dict(text=report.include_text) for p in sec.attributions],
            "sentence_score_distribution": sec.distribution_stats,
            "most_divergent_pair": [sec.divergent.a, sec.divergent.b] if sec.divergent else None,
        })
    return doc


def write_json(doc: dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1, default=_default) + "\n", encoding="utf-8")
    return path


def _default(value: Any) -> Any:
    if isinstance(value, (np.floating, np.integer)):
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
