"""Assemble a discrepancy report: compare every profile, attribute the differences, plot, write.

Per metric measure: the profile scores (SVG bar chart), the Shapley attribution of every other
profile's score minus the default profile's (SVG waterfall charts; plus the most divergent pair when
it does not involve the default), the distribution of sentence-level scores per profile (SVG box
plots) with the per-segment scatter of the most divergent pair (SVG), and the segments that
contribute most to the most divergent pair's difference.

``include_text=False`` keeps every segment's text out of the outputs (only segment numbers and
numbers): used for corpora that are not ours to publish.
"""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from assay.core.errors import AssayError
from assay.jobs.attribution import EXACT_PLAYERS
from assay.jobs.compare import (Comparison, PairAttribution, Table, attribute_pair, compare, measure_config,
                                select_metrics, sentence_values, view_of)
from assay.jobs.report import plots
from assay.jobs.report.model import Figure, MeasureSection, Report
from assay.jobs.report.progress import ProgressBar
from assay.jobs.report.render import write_html, write_markdown, write_summary
from assay.jobs.report.segments import measure_segments
from assay.jobs.report.summary import summary_rows
from assay.profiles.registry import profiles_of


def _slug(*parts: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9]+", "_", p).strip("_") for p in parts)


def build_report(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], out_dir: str | Path, *,
                 title: str = "assay discrepancy report", source: str = "", include_text: bool = True,
                 metrics: Sequence[str] | None = None, progress: bool | None = None, top: int = 10,
                 max_players: int = EXACT_PLAYERS, bar: ProgressBar | None = None) -> Report:
    """Compute and write ``index.html``, ``report.md``, ``plots/*.svg`` (scores, waterfalls,
    distributions, scatter) and ``summary.json``.

    ``max_players``: exact Shapley values up to this many players, a sampled estimate beyond
    (:func:`assay.jobs.attribution.attribute`). ``bar``: a caller's progress bar over a larger job
    (``report --corpora``; left open), else one of its own (``progress``)."""
    out = Path(out_dir)
    own = bar is None
    bar = ProgressBar(enabled=progress) if bar is None else bar
    with _few_collections():
        cmp, sections = report_sections(hyps, refs, out, metrics=metrics, include_text=include_text, top=top,
                                        bar=bar, max_players=max_players)
        report = write_report(Report(title, source, include_text, cmp, sections), out)
    if own:
        bar.close(f"report written to {out}")
    return report


#: generation-0 threshold of the cyclic garbage collector while a report is built (Python's default:
#: 700). The count is of container objects allocated and not yet freed, so the bundled sample's
#: report (about 420,000 survivors: caches, METEOR's and WordNet's tables) is built without a pass;
#: a large corpus still gets one every million new objects, which bounds any cyclic garbage
GC_THRESHOLD = 1_000_000


@contextmanager
def _few_collections() -> Iterator[None]:
    """A report allocates many long-lived objects (statistics and token caches, resources such as
    METEOR's and WordNet's tables) and little cyclic garbage; the collector's repeated passes over
    them took a fifth of the bundled sample's CPU time. While the report is built, the objects alive
    before it are left out of the collector's passes (``gc.freeze``) and generation 0 is collected
    every :data:`GC_THRESHOLD` allocations. Afterwards the threshold is restored and every object,
    the report's survivors included, is put in the oldest generation (``freeze`` then
    ``unfreeze``): restoring the threshold alone would make the next allocation start a
    generation-0 pass over all of them (0.1 s on the sample); they are examined at the next full
    collection instead, as long-lived objects are (reference counting frees everything else as usual)."""
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(old[0], GC_THRESHOLD), *old[1:])
    try:
        yield
    finally:
        gc.freeze()
        gc.set_threshold(*old)
        gc.unfreeze()


def report_sections(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], out: Path, *,
                    metrics: Sequence[str] | None = None, include_text: bool = True, top: int = 10,
                    bar: ProgressBar | None = None, max_players: int = EXACT_PLAYERS
                    ) -> tuple[Comparison, list[MeasureSection]]:
    """The comparison of every profile of ``metrics`` and one section per measure, its plots written to
    ``out/plots`` (``--engine dask`` makes the sections of each metric on a worker and writes the
    pages once: :mod:`assay.jobs.grid.compare`)."""
    bar = bar if bar is not None else ProgressBar(enabled=False)
    (out / "plots").mkdir(parents=True, exist_ok=True)
    for m in select_metrics(metrics):
        bar.add(len(view_of(m).measures) * len(profiles_of(m)) if view_of(m).text_input else 0)
    cmp = compare(hyps, refs, metrics, progress=bar.step)
    sections = []
    for table in cmp.tables:
        scored = table.scored
        bar.add(len(scored) + 2)
        sections.append(_section(cmp, table, out, include_text, top, bar, max_players))
    return cmp, sections


def write_report(report: Report, out: Path) -> Report:
    """``summary.json``, ``report.md`` and ``index.html`` of ``report`` in ``out`` (its plots are there);
    the summary is made here from the sections (so a report assembled from Dask workers' sections has it)."""
    if not report.summary:
        report.summary = summary_rows(report.sections)
    report.files["summary"] = write_summary(report, out / "summary.json")
    report.files["markdown"] = write_markdown(report, out / "report.md")
    report.files["html"] = write_html(report, out / "index.html")
    return report


def _section(cmp: Comparison, table: Table, out: Path, include_text: bool, top: int, bar: ProgressBar,
             max_players: int = EXACT_PLAYERS) -> MeasureSection:
    sec = MeasureSection(table)
    scored = table.scored
    axis = plots.axis_label(table.metric, table.measure.label)
    name = f"{table.metric} {table.measure.label}"
    if scored:
        vals = [r.normalised if r.normalised is not None else r.value for r in scored]
        svg = plots.scores_svg(f"{name}: score per profile", [r.profile for r in scored], vals,
                               [r.default for r in scored], axis)
        key = _slug("scores", table.metric, table.measure.label)
        sec.scores_plot = Figure(key, f"{name} per profile", f"plots/{key}.svg",
                                 svg=plots.save_svg(svg, out / "plots" / f"{key}.svg"))
    # ------------------------------------------------------------ attributions
    default = next((r for r in scored if r.default), scored[0] if scored else None)
    pairs: list[tuple[str, str]] = []
    if default is not None:
        ev = cmp.evaluators[table.metric]
        base = measure_config(ev, default.profile, table.measure)
        for r in scored:
            if r is default:
                continue
            if measure_config(ev, r.profile, table.measure) == base:
                sec.same_as_default.append(r.profile)
            else:
                pairs.append((default.profile, r.profile))
        div = table.most_divergent()   # (low, high): the summary's pair
        if div and div not in pairs and (div[1], div[0]) not in pairs and div[0] != div[1]:
            if measure_config(ev, div[0], table.measure) != measure_config(ev, div[1], table.measure):
                pairs.append(div)
    queue = list(pairs)
    while queue:
        a, b = queue.pop(0)
        bar.step(f"attribute {table.metric} {a}->{b}")
        try:
            pa = attribute_pair(cmp, table.metric, table.measure.label, a, b, top=top, with_tokens=include_text,
                                max_players=max_players)
        except AssayError as exc:
            sec.unavailable.append(f"{a} → {b}: {exc}")
            continue
        sec.attributions.append(pa)
        sec.waterfalls[(a, b)] = waterfall(pa, out)
        div = table.most_divergent()
        if pa.attribution.method == "sampled" and div == (b, a):
            # a sampled estimate is not exactly minus the reverse one: the summary's pair (low, high)
            # gets its own attribution, the one `compare --attribute LOW HIGH` makes
            bar.add(1)
            queue.append(div)
    if sec.attributions:
        div = table.most_divergent()
        chosen = [p for p in sec.attributions if div and {p.a, p.b} == set(div)]
        sec.divergent = chosen[0] if chosen else max(sec.attributions, key=lambda p: abs(_norm_total(p)))
    # ------------------------------------------------------------ distributions
    bar.step(f"distributions {name}")
    labels, samples = [], []
    for r in scored:
        try:
            vals = sentence_values(cmp, table.metric, table.measure, r.profile)
        except AssayError as exc:
            sec.distribution_note += f"{r.profile}: {exc}. "
            continue
        labels.append(r.profile)
        samples.append(vals)
        sec.distribution_stats[r.profile] = _stats(vals)
    if samples:
        svg = plots.distribution_svg(f"{name}: sentence-level scores", labels, samples,
                                     plots.axis_label(table.metric, table.measure.label, "sentence"))
        key = _slug("dist", table.metric, table.measure.label)
        sec.distribution = Figure(key, f"{name} sentence-level distribution", f"plots/{key}.svg",
                                  svg=plots.save_svg(svg, out / "plots" / f"{key}.svg"))
    sec.segments = measure_segments(cmp, table, include_text=include_text)
    sec.scatter = scatter(sec, out)
    return sec


def _norm_total(pa: PairAttribution) -> float:
    if pa.normalised_parts is not None:
        return sum(pa.normalised_parts.values())
    return pa.attribution.total


def waterfall_data(pa: PairAttribution) -> tuple[float, list[tuple[str, float]], float, str]:
    """(start, parts, end, unit) for the plot: on the metric's normalised scale when the parts could be
    normalised (the part 'scale' is then 0 and left out), else on the tool scale. Players without
    effect (:attr:`~assay.jobs.attribution.Attribution.no_effect`) are left out: their parts are 0."""
    att = pa.attribution
    gone = set(att.no_effect)
    if pa.normalised_parts is not None and pa.start_normalised is not None and pa.end_normalised is not None:
        parts = [(k, v) for k, v in pa.normalised_parts.items() if k != "scale" and k not in gone]
        return pa.start_normalised, parts, pa.end_normalised, view_of(pa.metric).scale_label
    return att.start, [(k, v) for k, v in att.parts.items() if k not in gone], att.end, "tool scale"


def waterfall(pa: PairAttribution, out: Path) -> Figure:
    """The waterfall chart (SVG) of one attribution, written to ``out/plots``."""
    start, parts, end, unit = waterfall_data(pa)
    svg = plots.waterfall_svg(f"{pa.metric} {pa.measure}: {pa.a} → {pa.b}", pa.a, start, parts, pa.b, end,
                              plots.axis_label(pa.metric, pa.measure) if unit != "tool scale"
                              else f"{pa.measure} (tool scale)")
    key = _slug("waterfall", pa.metric, pa.measure, pa.a, pa.b)
    return Figure(key, f"{pa.metric} {pa.measure}: {pa.a} → {pa.b}", f"plots/{key}.svg",
                  svg=plots.save_svg(svg, out / "plots" / f"{key}.svg"))


def scatter(sec: MeasureSection, out: Path) -> Figure | None:
    """The per-segment scatter of the most divergent pair's sentence scores (its most divergent
    segments numbered), written to ``out/plots``; None without two profiles' sentence scores."""
    data, pair = sec.segments, sec.table.most_divergent()
    if data is None or pair is None or not all(p in data.scores for p in pair):
        return None
    a, b = pair
    t = sec.table
    svg = plots.scatter_svg(f"{t.metric} {t.measure.label}: {a} vs {b}, per segment", a, b, data.scores[a],
                            data.scores[b], [i + 1 for i in data.index], t.metric, t.measure.label)
    key = _slug("scatter", t.metric, t.measure.label, a, b)
    return Figure(key, f"{t.metric} {t.measure.label}: sentence scores, {a} vs {b}", f"plots/{key}.svg",
                  svg=plots.save_svg(svg, out / "plots" / f"{key}.svg"))


def _stats(vals: np.ndarray) -> dict[str, float]:
    q = np.percentile(vals, [25, 50, 75]) if len(vals) else [float("nan")] * 3
    return {"mean": float(np.mean(vals)), "q1": float(q[0]), "median": float(q[1]), "q3": float(q[2]),
            "min": float(np.min(vals)), "max": float(np.max(vals))}
