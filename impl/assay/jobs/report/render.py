"""Write a report as a self-contained HTML page, a Markdown page (SVG files) and JSON.

The HTML page comes from the Jinja2 templates shipped in ``templates/`` (autoescaped; this module
only prepares plain values for them): the summary first (one row per metric measure: spread, the
pair furthest apart, the knob that explains most of their gap, one sentence), then the segment
explorer (per-segment data of :mod:`.segments` embedded as JSON, driven by inline vanilla
JavaScript), then one section per measure. The page is one file: styles and script inline, every
chart (scores, waterfalls, distributions, scatter: SVG from :mod:`.plots`, already escaped by its
template) inline, no request leaves it; every table is plain HTML (no script needed).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

from markupsafe import Markup

from assay._version import __version__
from assay.jobs.attribution import SCALE_KNOB
from assay.jobs.compare import HEADERS, PART_HEADERS, PairAttribution, _part_rows, _table_rows, fmt, markdown_table, view_of
from assay.jobs.report import plots, segments
from assay.jobs.report.model import Figure, MeasureSection, Report, summary_dict, write_json
from assay.jobs.report.summary import markdown_summary
from assay.jobs.report.templating import template

# ----------------------------------------------------------------------------- shared rows
def anchor(sec: MeasureSection) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", f"{sec.table.metric}-{sec.table.measure.label}")


def part_rows(pa: PairAttribution) -> list[list[str]]:
    """The attribution rows of :func:`assay.jobs.compare._part_rows`, the ``scale`` row said for
    what it is: on the normalised column a rescaling moves nothing (its part is 0 there by
    definition), on the tool scale it is the jump between the two tools' scales."""
    rows = _part_rows(pa)
    for row in rows:
        if row[0] == SCALE_KNOB:
            row[2] += " (rescaling)"
            if pa.normalised_parts is not None:
                row[3] = "0 (one scale)"
    return rows


def _reference_cells(report: Report, pa: PairAttribution, seg_index: int) -> str:
    """Every reference of one segment, in profile ``pa.b``'s tokens when the explorer has them,
    else as text (``1: ... ‖ 2: ...``)."""
    toks = _explorer_tokens(report, pa.metric, pa.measure, pa.b, seg_index)
    refs = [s[seg_index] for s in report.comparison.refs]
    shown = []
    for k, ref in enumerate(refs):
        if ref is None:
            continue
        text = " ".join(toks[k]) if toks is not None and toks[k] is not None else ref
        shown.append(f"{k + 1}: {text}")
    return " ‖ ".join(shown) or "—"


def _explorer_tokens(report: Report, metric: str, measure: str, profile: str, seg_index: int
                     ) -> list[list[str] | None] | None:
    for sec in report.sections:
        data = getattr(sec, "segments", None)
        if data is None or sec.table.metric != metric or sec.table.measure.label != measure:
            continue
        t = data.tokenization_of(profile)
        if t < 0 or seg_index not in data.index:
            return None
        return data.tokenizations[t].refs[data.index.index(seg_index)]
    return None


def segment_rows(report: Report, pa: PairAttribution) -> tuple[list[str], list[list[str]]]:
    """The top divergent segments of one pair; with text: both hypothesis tokenisations and every
    reference."""
    text = report.include_text
    headers = ["segment", "contribution", f"{pa.a}", f"{pa.b}", "diff"]
    if text:
        headers += [f"hypothesis tokens ({pa.a})", f"hypothesis tokens ({pa.b})", f"references ({pa.b})"]
    rows = []
    for s in pa.segments:
        row = [str(s.index + 1), "—" if s.contribution is None else f"{s.contribution:+.4f}", fmt(s.a, 2),
               fmt(s.b, 2), f"{s.diff:+.2f}"]
        if text:
            row += [" ".join(t) if t is not None else "—" for t in (s.tokens_a, s.tokens_b)]
            row.append(_reference_cells(report, pa, s.index))
        rows.append(row)
    return headers, rows


def versions_rows(report: Report) -> list[list[str]]:
    rows = []
    seen: set[str] = set()
    for t in report.comparison.tables:
        if t.metric in seen:
            continue
        seen.add(t.metric)
        for r in t.rows:
            rows.append([t.metric, r.profile, r.tool, ", ".join(r.tool_versions)])
    return rows


def measure_label(metric: str, measure: str) -> str:
    """``BLEU`` for a metric's only measure, ``rouge rouge1`` when the metric has several."""
    return measure if measure.lower() == metric.lower() else f"{metric} {measure}"


def summary_view(report: Report) -> list[dict[str, Any]]:
    """One plain row per summary line (``report.summary``; without one: spreads and pairs from the
    tables)."""
    anchors = {(s.table.metric, s.table.measure.label): anchor(s) for s in report.sections}
    rows = []
    for r in getattr(report, "summary", None) or []:
        low, high = r.low, r.high
        rows.append({"metric": r.metric, "measure": r.measure, "scale": r.scale, "spread": fmt(r.spread, 2),
                     "low": low[0], "low_score": fmt(low[1], 2), "high": high[0], "high_score": fmt(high[1], 2),
                     "knob": r.knob, "share": None if r.knob_share is None else f"{r.knob_share:+.2f}",
                     "fraction": None if r.knob_fraction is None else f"{100 * r.knob_fraction:.0f}%",
                     "sentence": r.sentence, "anchor": anchors.get((r.metric, r.measure), ""),
                     "label": measure_label(r.metric, r.measure)})
    if rows:
        return rows
    for sec in report.sections:
        t = sec.table
        pair = t.most_divergent()
        if pair is None or t.spread is None:
            continue
        score = {r.profile: r.normalised if r.normalised is not None else r.value for r in t.scored}
        rows.append({"metric": t.metric, "measure": t.measure.label, "scale": plots.scale_name(t.metric),
                     "spread": fmt(t.spread, 2), "low": pair[0], "low_score": fmt(score[pair[0]], 2),
                     "high": pair[1], "high_score": fmt(score[pair[1]], 2), "knob": None, "share": None,
                     "fraction": None, "sentence": "", "anchor": anchor(sec),
                     "label": measure_label(t.metric, t.measure.label)})
    return rows


# ----------------------------------------------------------------------------- HTML
SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'


def _figure(fig: Figure | None) -> dict[str, Any] | None:
    """A figure for the page: its SVG chart inline (the namespace declaration dropped: the HTML
    parser puts ``<svg>`` in it, and the page holds no URL)."""
    if fig is None:
        return None
    return {"key": fig.key, "title": fig.title, "svg": Markup(fig.svg.replace(SVG_NAMESPACE, "", 1).strip())}


def _attribution_view(report: Report, sec: MeasureSection, pa: PairAttribution) -> dict[str, Any]:
    att = pa.attribution
    effective = att.effective if hasattr(att, "effective") else att.parts
    norm = pa.normalised_parts
    main = sorted(((k, (norm or effective)[k]) for k in effective if k != SCALE_KNOB), key=lambda kv: -abs(kv[1]))
    total = (sum(norm.values()) if norm is not None else att.total)
    lead = ", ".join(f"{k} {v:+.2f}" for k, v in main[:3] if abs(v) >= 0.005) or "no knob changes the score visibly"
    return {"a": pa.a, "b": pa.b, "total": f"{total:+.2f}", "lead": lead,
            "open": sec.divergent is pa, "headers": PART_HEADERS, "rows": part_rows(pa), "notes": list(att.notes),
            "figure": _figure(sec.waterfalls.get((pa.a, pa.b)))}


def _section_view(report: Report, sec: MeasureSection) -> dict[str, Any]:
    t = sec.table
    view = view_of(t.metric)
    out: dict[str, Any] = {
        "anchor": anchor(sec), "metric": t.metric, "measure": t.measure.label,
        "better": "lower is better" if view.lower_is_better else "higher is better",
        "spread": fmt(t.spread, 2), "scale": plots.scale_name(t.metric), "scale_note": view.scale_note,
        "headers": HEADERS, "rows": _table_rows(t), "scores_plot": _figure(sec.scores_plot),
        "same_as_default": sec.same_as_default, "unavailable": sec.unavailable,
        "attributions": [_attribution_view(report, sec, pa) for pa in sec.attributions],
        "distribution": _figure(sec.distribution), "distribution_note": sec.distribution_note,
        "scatter": _figure(getattr(sec, "scatter", None)), "divergent": None,
    }
    pa = sec.divergent
    if pa is not None and pa.segments:
        headers, rows = segment_rows(report, pa)
        out["divergent"] = {"a": pa.a, "b": pa.b, "note": pa.segment_note, "headers": headers, "rows": rows}
    return out


def explorer_data(report: Report) -> dict[str, Any] | None:
    """The explorer's JSON document (None when no section has per-segment data)."""
    parts = [s.segments for s in report.sections if getattr(s, "segments", None) is not None]
    if not parts:
        return None
    metrics = {p.metric for p in parts}
    return segments.explorer_json(parts, report.comparison.hyps, report.comparison.refs,
                                  {m: plots.scale_name(m) for m in metrics},
                                  {m: view_of(m).lower_is_better for m in metrics}, report.include_text)


def html_page(report: Report) -> str:
    """The page's HTML text."""
    cmp = report.comparison
    data = explorer_data(report)
    shown = len({i for m in (data or {}).get("measures", []) for i in m["seg"]})
    return template("page.html.j2").render(
        title=report.title, source=report.source, version=__version__, n_segments=cmp.n_segments,
        n_refs=cmp.n_refs, include_text=report.include_text, summary=summary_view(report),
        explorer=data, explorer_shown=shown, cap=segments.CAP,
        sections=[_section_view(report, s) for s in report.sections], skipped=dict(cmp.skipped),
        versions=versions_rows(report))


def write_html(report: Report, path: Path) -> Path:
    path.write_text(html_page(report), encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- Markdown
def write_markdown(report: Report, path: Path) -> Path:
    cmp = report.comparison
    lines = [f"# {report.title}", ""]
    if report.source:
        lines += [report.source, ""]
    lines += markdown_summary(report)
    lines += [f"{cmp.n_segments} segments, {cmp.n_refs} reference(s). Generated by assay {__version__}. "
              "Scores are on each tool's own scale; the normalised column puts them on one scale. Attributions "
              "are Shapley values over the knobs on which two profiles differ (parts add up to the "
              "difference). The same report with inline plots and a segment explorer: [index.html](index.html).",
              ""]
    for sec in report.sections:
        lines += _section_markdown(report, sec)
    if cmp.skipped:
        lines += ["## Not reported", ""] + [f"- {m}: {w}" for m, w in cmp.skipped.items()] + [""]
    lines += ["## Tool versions the profiles' fixtures were verified against", "",
              markdown_table(["metric", "profile", "tool", "versions"], versions_rows(report)), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _section_markdown(report: Report, sec: MeasureSection) -> list[str]:
    t = sec.table
    view = view_of(t.metric)
    better = "lower is better" if view.lower_is_better else "higher is better"
    lines = [f"## {t.metric} — {t.measure.label}", "",
             f"_{better}; spread {fmt(t.spread, 2)} ({plots.scale_name(t.metric)})"
             f"{'; ' + view.scale_note if view.scale_note else ''}_", "",
             markdown_table(HEADERS, _table_rows(t)), ""]
    lines += _image(sec.scores_plot)
    if sec.same_as_default:
        lines += [f"Same knobs as the default profile: {', '.join(sec.same_as_default)}.", ""]
    for pa in sec.attributions:
        lines += [f"### {pa.a} → {pa.b}", "", markdown_table(PART_HEADERS, part_rows(pa)), ""]
        lines += [f"- {n}" for n in pa.attribution.notes] + [""]
        lines += _image(sec.waterfalls.get((pa.a, pa.b)))
    for line in sec.unavailable:
        lines += [f"No attribution: {line}", ""]
    if sec.distribution or getattr(sec, "scatter", None):
        lines += ["### Sentence-level scores", ""] + _image(sec.distribution) + _image(getattr(sec, "scatter", None))
    if sec.distribution_note:
        lines += [sec.distribution_note, ""]
    if sec.divergent is not None and sec.divergent.segments:
        pa = sec.divergent
        headers, rows = segment_rows(report, pa)
        lines += [f"### Top divergent segments: {pa.a} → {pa.b}", "", f"_{pa.segment_note}_", "",
                  markdown_table(headers, rows), ""]
    return lines


def _image(fig: Figure | None) -> list[str]:
    return [f"![{fig.title}]({fig.path})", ""] if fig is not None else []


def write_summary(report: Report, path: Path) -> Path:
    return write_json(summary_dict(report), path)


__all__: Sequence[str] = ["write_html", "write_markdown", "write_summary", "html_page", "explorer_data"]
