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
    key: str
    title: str
    png: str          # path relative to the output directory
    data: bytes       # the PNG bytes (inlined in the HTML page)


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


@dataclass
class Report:
    title: str
    source: str
    include_text: bool
    comparison: Comparison
    sections: list[MeasureSection]
    files: dict[str, Path] = field(default_factory=dict)


def summary_dict(report: Report) -> dict[str, Any]:
    cmp = report.comparison
    doc: dict[str, Any] = {"assay_version": __version__, "title": report.title, "source": report.source,
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
