"""The figures of a report, every one SVG drawn from a Jinja2 template (autoescaped: every label is
text, never markup; no matplotlib): the profile scores and attribution waterfalls
(``templates/bars.svg.j2``: :func:`scores_svg`, :func:`waterfall_svg`), the sentence-score
distributions as box plots (``templates/boxes.svg.j2``: :func:`distribution_svg`) and the
per-segment scatter of two profiles (``templates/scatter.svg.j2``: :func:`scatter_svg`).

A chart is written to ``plots/*.svg`` for the Markdown page and inlined in the HTML page. Output is
deterministic (positions printed to 0.1 px, no software or date metadata) so that a regenerated
report only differs where the numbers do.

Pictures that do not mislead:

- every axis names the measure and its scale as the report's score column has it
  (:func:`axis_label`, from the metric view's ``scale_label``: ``0-100``, ``CIDEr x100``, NIST's
  tool scale);
- a bar starts at zero; when the values are too close for bars from zero to show the differences,
  the axis is zoomed, the score bars become dots (a dot's position, not a bar's length, carries the
  value), the waterfall's total bars start at the axis start, and the axis label and the title both
  say "axis zoomed" with the value the axis starts at;
- labels are wrapped (never truncated): a chart is laid out with an upper bound of each text's
  width (:func:`text_width`) and a long label carries its whole text as a ``<title>`` tooltip (a box
  plot row its statistics, a numbered scatter dot its segment's two scores);
- the box plots and the scatter (both axes alike) start at zero too unless the values need a zoom
  (:func:`_value_axis`), which their title and axis name then say; the scatter's diagonal y = x is
  where the two profiles agree;
- waterfall parts with no effect are not drawn as bars: one "no effect" line under the axis lists them.
"""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from assay.jobs.compare import view_of
from assay.jobs.report.templating import template


DEFAULT_COLOUR = "#1f5fa8"
OTHER_COLOUR = "#8fb3d9"
UP, DOWN, TOTAL = "#2e8b57", "#c0392b", "#555555"
ZOOM_RATIO = 0.25    #: zoom when the values span less than this fraction of the largest value
NO_EFFECT = 1e-12    #: a waterfall part smaller than this (in absolute value) has no effect


def scale_name(metric: str) -> str:
    """The printed scale of a metric's normalised column (its view's ``scale_label``: ``0-100``,
    ``CIDEr x100``, ``NIST (tool scale)``): one source for axes, tables and the summary."""
    return view_of(metric).scale_label


def axis_label(metric: str, measure: str, prefix: str = "") -> str:
    """``"[prefix ]MEASURE (scale)"``, or ``"[prefix ]SCALE"`` when the scale names the measure
    already (``CIDEr x100``), or ``MEASURE (the tool's own scale)`` when the scale is the measure's
    name (NIST): the axis name of a plot of ``metric``'s values."""
    scale = scale_name(metric)
    if scale.lower() == measure.lower():          # no common scale: the tool's own (NIST)
        body = f"{measure} (the tool's own scale)"
    elif scale.split(" ")[0].lower() == measure.lower():
        body = scale
    else:
        body = f"{measure} ({scale})"
    return f"{prefix} {body}" if prefix else body


def zoom_start(values: Sequence[float]) -> float | None:
    """Where a zoomed axis starts, or None when bars from zero show the differences (values of one
    sign that span at least ``ZOOM_RATIO`` of the largest magnitude, or all equal)."""
    lo, hi = min(values), max(values)
    if lo <= 0 or hi == lo or (hi - lo) >= ZOOM_RATIO * hi:
        return None
    pad = (hi - lo) * 0.35
    return _nice_floor(lo - pad)


def _nice_floor(x: float) -> float:
    """``x`` rounded down to a readable tick (1, 2 or 5 times a power of ten below its magnitude)."""
    if x <= 0:
        return 0.0
    step = 10 ** np.floor(np.log10(x)) / 10
    return float(np.floor(x / step) * step)


def zoom_note(start: float) -> str:
    return f"axis zoomed: starts at {start:g}, not 0"


# ----------------------------------------------------------------------------- SVG charts
# The simple charts (profile scores, attribution waterfalls) are SVG drawn from the Jinja2 template
# ``templates/bars.svg.j2`` (autoescaped: every label is text, never markup): no matplotlib, a few
# milliseconds each. Both are horizontal bar charts, one row per bar, the labels left of the axis.
FONT, SMALL, TITLE_FONT = 12, 10, 13     #: font sizes (px) of labels, value/tick texts and the title
PLOT_WIDTH = 380                         #: width of the plotting area (px)
ROW, BAR = 26, 16                        #: height of a one-line row and of its bar (px)
LINE = 14                                #: height of one line of a wrapped label (px)
PAD = 8
NARROW, WIDE = set("iljtfrI.,:;|!'()[] "), set("mwMWOQGDHNUCKAVXY@%&")


def text_width(text: str, size: float) -> float:
    """A conservative width of ``text`` at ``size`` px in a sans-serif font (an upper bound of DejaVu
    Sans, Arial and Helvetica advances: 0.36 em for narrow characters, 0.9 em for wide ones and
    capitals' widest, 0.64 em for the rest), so that a label laid out with it is never cut."""
    return size * sum(0.36 if c in NARROW else 0.9 if c in WIDE else 0.64 for c in text)


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Ticks at 1, 2 or 5 times a power of ten inside ``[lo, hi]`` (about ``target`` of them)."""
    span = hi - lo
    if span <= 0:
        return [lo]
    raw = span / target
    mag = 10 ** np.floor(np.log10(raw))
    step = float(next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw))
    first = np.ceil(lo / step - 1e-9) * step
    return [float(round(t, 10)) for t in np.arange(first, hi + step * 1e-9, step)]


def _num(x: float) -> str:
    return f"{x:.1f}"


def _tick_text(t: float) -> str:
    return f"{t:g}" if abs(t) >= 1e-9 else "0"


def _value_axis_below(x: Any, lo: float, hi: float, zoom: float | None, y: float, axis_lines: Sequence[str],
                      note_lines: Sequence[str]) -> tuple[list[dict[str, str]], list[tuple[str, str]],
                                                          list[tuple[str, str]], float]:
    """The horizontal value axis under a chart whose rows end at ``y`` (bars and box plots): the
    ticks (a zoomed axis says where it starts, at its start; nearby ticks make way), then the axis
    name's lines, then the note lines, each at its baseline; and the ``y`` below them all."""
    values = nice_ticks(lo, hi)
    if zoom is not None:
        values = [zoom] + [t for t in values if x(t) - x(zoom) > 30]
    ticks = [{"x": _num(x(t)), "text": _tick_text(t)} for t in values]
    y += 4 + SMALL + 6
    axis = []
    for line in axis_lines:
        y += FONT * 1.3
        axis.append((_num(y), line))
    notes = []
    for line in note_lines:
        y += SMALL * 1.4
        notes.append((_num(y), line))
    return ticks, axis, notes, y


def bars_svg(title: str, rows: Sequence[dict[str, Any]], lo: float, hi: float, xlabel: str,
             zoom: float | None = None, notes: Sequence[str] = (), connectors: bool = False) -> str:
    """A horizontal bar chart as standalone SVG text. ``rows``: one dict per row with ``label``,
    ``a`` and ``b`` (the bar spans ``a``..``b`` in data units), ``colour``, ``text`` (printed right
    of the bar) and ``dot`` (draw a dot at ``b`` on a thin line from ``a`` instead of a bar). The
    axis spans ``lo``..``hi``; ``zoom`` (its start when it does not include 0) is said in the title
    and under the axis name; ``notes`` are lines under the axis; ``connectors`` joins each bar's
    end to the next row (a waterfall). Long labels are wrapped (never truncated) and carry their
    whole text as a ``<title>`` tooltip; every width is :func:`text_width`'s upper bound."""
    labels = [_wrap(str(r["label"]), 24).split("\n") for r in rows]
    label_w = max((text_width(line, FONT) for lines in labels for line in lines), default=0) + 2 * PAD
    value_w = max((text_width(str(r["text"]), SMALL) for r in rows), default=0) + 2 * PAD
    heights = [max(ROW, LINE * len(lines) + 10) for lines in labels]
    if zoom is not None:
        title = f"{title} (axis zoomed)"
    title_lines = textwrap.wrap(title, 70) or [""]
    axis_lines = [line for part in xlabel.split("\n") for line in textwrap.wrap(part, 70)]
    if zoom is not None:
        axis_lines.append(zoom_note(zoom))
    note_lines = [line for n in notes for line in textwrap.wrap(n, 90)]
    left = PAD + label_w
    axis_w = max((text_width(t, FONT) for t in axis_lines), default=0)
    centre = max(left + PLOT_WIDTH / 2, PAD + axis_w / 2)      # the axis name, centred under the axis
    width = max(left + PLOT_WIDTH + value_w, centre + axis_w / 2 + PAD,
                PAD * 2 + max(text_width(t, TITLE_FONT) for t in title_lines),
                left + max((text_width(t, SMALL) for t in note_lines), default=0) + PAD)

    def x(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * PLOT_WIDTH

    y = PAD + TITLE_FONT * 1.3 * len(title_lines) + 6
    top = y
    drawn = []
    for i, (r, lines, h) in enumerate(zip(rows, labels, heights)):
        mid = y + h / 2
        lo_x, hi_x = x(min(r["a"], r["b"])), x(max(r["a"], r["b"]))
        first = mid - (len(lines) - 1) / 2 * LINE + FONT * 0.35      # the label's lines, centred on the bar
        row = {"label": r["label"], "colour": r["colour"], "dot": bool(r.get("dot")), "text": r["text"],
               "lines": [(_num(first + k * LINE), line) for k, line in enumerate(lines)],
               "label_x": _num(left - PAD), "mid": _num(mid), "x0": _num(x(r["a"])), "x1": _num(x(r["b"])),
               "x": _num(lo_x), "w": _num(max(hi_x - lo_x, 0.8)), "y": _num(mid - BAR / 2), "h": _num(BAR),
               "text_x": _num(hi_x + (9 if r.get("dot") else 5)), "text_y": _num(mid + SMALL * 0.35), "link": None}
        if connectors and i + 1 < len(rows):
            row["link"] = {"x": _num(x(r["b"])), "y0": _num(mid + BAR / 2),
                           "y1": _num(y + h + heights[i + 1] / 2 - BAR / 2)}
        drawn.append(row)
        y += h
    bottom = y
    ticks, axis, notes_at, y = _value_axis_below(x, lo, hi, zoom, y, axis_lines, note_lines)
    height = y + PAD
    return template("bars.svg.j2").render(
        width=_num(width), height=_num(height), title=title,
        title_lines=[(_num(PAD + TITLE_FONT * 1.3 * (k + 1) - 3), t) for k, t in enumerate(title_lines)],
        rows=drawn, left=_num(left), right=_num(left + PLOT_WIDTH), top=_num(top), bottom=_num(bottom),
        ticks=ticks, tick_end=_num(bottom + 4), tick_y=_num(bottom + 6 + SMALL), axis=axis, notes=notes_at,
        centre=_num(centre), middle=_num(width / 2),
        zero=_num(x(0.0)) if lo < 0 < hi else None, zoomed=zoom is not None, font=FONT, small=SMALL,
        title_font=TITLE_FONT)


def scores_svg(title: str, labels: Sequence[str], values: Sequence[float], defaults: Sequence[bool],
               xlabel: str) -> str:
    """One row per profile that ran (the default profile darker): bars from zero, or dots on a
    zoomed axis (said in the axis label and the title) when bars would hide the differences."""
    start = zoom_start(values)
    lo, hi = min(values), max(values)
    if start is None:
        lo, hi, base = min(0.0, lo * 1.1), max(0.0, hi) * 1.15 or 1.0, 0.0
    else:
        lo, hi, base = start, hi + (hi - start) * 0.12, start
    rows = [{"label": label, "a": base, "b": v, "colour": DEFAULT_COLOUR if d else OTHER_COLOUR,
             "text": f"{v:.2f}", "dot": start is not None} for label, v, d in zip(labels, values, defaults)]
    return bars_svg(title, rows, lo, hi, xlabel, zoom=start)


def waterfall_svg(title: str, start_label: str, start: float, parts: Sequence[tuple[str, float]],
                  end_label: str, end: float, xlabel: str) -> str:
    """Start bar, one floating bar per part with an effect (green up, red down) from the running
    total, end bar; parts with no effect are named under the axis instead of drawn. A zoomed axis
    (the totals' bars then start where it starts) is said in the axis label and the title."""
    idle = [p for p, v in parts if abs(v) <= NO_EFFECT]
    parts = [(p, v) for p, v in parts if abs(v) > NO_EFFECT]
    levels = [start]
    for _, v in parts:
        levels.append(levels[-1] + v)
    moving = levels + [end]
    zoom = zoom_start(moving)
    if zoom is not None:
        lo, hi = zoom, max(moving) + (max(moving) - zoom) * 0.12
    else:
        lo, hi = min(moving + [0.0]), max(moving + [0.0])
        span = hi - lo or 1.0
        lo, hi = lo - (0.05 * span if lo < 0 else 0.0), hi + 0.12 * span
    base = zoom if zoom is not None else 0.0
    rows = [{"label": start_label, "a": base, "b": start, "colour": TOTAL, "text": f"{start:.2f}"}]
    for (label, v), level in zip(parts, levels):
        rows.append({"label": label, "a": level, "b": level + v, "colour": UP if v >= 0 else DOWN, "text": f"{v:+.3g}"})
    rows.append({"label": end_label, "a": base, "b": end, "colour": TOTAL, "text": f"{end:.2f}"})
    notes = [f"no effect (not drawn): {', '.join(idle)}"] if idle else []
    return bars_svg(title, rows, lo, hi, xlabel, zoom=zoom, notes=notes, connectors=True)


def save_svg(svg: str, path: Path) -> str:
    """Write ``svg`` to ``path`` (UTF-8) and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(svg, encoding="utf-8")
    return svg

def _lines(text: str, width: int) -> list[str]:
    """``text`` wrapped at ``width`` characters (its own line breaks kept), never truncated."""
    return [line for part in text.split("\n") for line in textwrap.wrap(part, width)] or [""]


def _title_block(title: str, width: int = 70) -> tuple[list[tuple[str, str]], float]:
    """The title's lines with their baselines, and where the drawing below them starts."""
    lines = _lines(title, width)
    return ([(_num(PAD + TITLE_FONT * 1.3 * (k + 1) - 3), t) for k, t in enumerate(lines)],
            PAD + TITLE_FONT * 1.3 * len(lines) + 6)


def _value_axis(values: np.ndarray) -> tuple[float, float, float | None]:
    """(lo, hi, zoom) of an axis showing ``values``: from zero when they are not negative and do not
    need a zoom (:func:`zoom_start`), from the zoom start (said on the chart) when they do, from
    just below the least value when it is negative (zero is then on the axis)."""
    if not len(values):
        return 0.0, 1.0, None
    lo, hi = float(np.min(values)), float(np.max(values))
    zoom = zoom_start([lo, hi])
    span = (hi - lo) or abs(hi) or 1.0
    if zoom is not None:
        return zoom, hi + 0.05 * (hi - zoom), zoom
    if lo >= 0:
        return 0.0, hi + 0.05 * span if hi > 0 else 1.0, None
    return lo - 0.05 * span, max(hi, 0.0) + 0.05 * span, None


def _box_stats(v: np.ndarray) -> dict[str, Any]:
    """Quartiles (linear interpolation), mean, whiskers at the furthest values within 1.5 IQR of the
    box, and the values beyond them (outliers, each distinct value once)."""
    q1, med, q3 = (float(q) for q in np.percentile(v, [25, 50, 75]))
    iqr = q3 - q1
    inside = v[(v >= q1 - 1.5 * iqr) & (v <= q3 + 1.5 * iqr)]
    w_lo, w_hi = (float(inside.min()), float(inside.max())) if len(inside) else (q1, q3)
    outliers = sorted({float(x) for x in v if x < w_lo or x > w_hi})
    return {"q1": q1, "median": med, "q3": q3, "mean": float(np.mean(v)), "lo": w_lo, "hi": w_hi, "out": outliers}


BOX_LEGEND = ("box: the middle half (quartiles); bar: median; diamond: mean; whiskers: the furthest values "
              "within 1.5 IQR of the box; dots: values beyond")


def distribution_svg(title: str, labels: Sequence[str], samples: Sequence[np.ndarray], xlabel: str) -> str:
    """Box plots of the sentence-level scores of each profile (one row each, the labels left of the
    axis, wrapped never truncated), means marked and printed right of the plot. The axis starts at
    zero unless the values need a zoom, which the title and the axis name then say (box plots
    compare positions, not lengths). Every width is :func:`text_width`'s upper bound."""
    arrays = [np.asarray(s, dtype=float) for s in samples]
    lo, hi, zoom = _value_axis(np.concatenate(arrays) if arrays else np.zeros(0))
    if zoom is not None:
        title = f"{title} (axis zoomed)"
    stats = [_box_stats(v) if len(v) else None for v in arrays]
    wrapped = [_wrap(str(label), 24).split("\n") for label in labels]
    texts = [f"mean {s['mean']:.2f}" if s else "no scores" for s in stats]
    label_w = max((text_width(line, FONT) for lines in wrapped for line in lines), default=0) + 2 * PAD
    value_w = max((text_width(t, SMALL) for t in texts), default=0) + 2 * PAD
    title_lines, top = _title_block(title)
    axis_lines = _lines(xlabel, 70) + ([zoom_note(zoom)] if zoom is not None else [])
    note_lines = _lines(BOX_LEGEND, 90)
    left = PAD + label_w
    axis_w = max(text_width(t, FONT) for t in axis_lines)
    centre = max(left + PLOT_WIDTH / 2, PAD + axis_w / 2)
    width = max(left + PLOT_WIDTH + value_w, centre + axis_w / 2 + PAD,
                PAD * 2 + max(text_width(t, TITLE_FONT) for _, t in title_lines),
                left + max(text_width(t, SMALL) for t in note_lines) + PAD)

    def x(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * PLOT_WIDTH

    y = top
    rows = []
    for label, lines, s, text in zip(labels, wrapped, stats, texts):
        h = max(ROW, LINE * len(lines) + 10)
        mid = y + h / 2
        first = mid - (len(lines) - 1) / 2 * LINE + FONT * 0.35
        row: dict[str, Any] = {"label": label, "text": text, "mid": _num(mid), "label_x": _num(left - PAD),
                               "lines": [(_num(first + k * LINE), line) for k, line in enumerate(lines)],
                               "text_x": _num(left + PLOT_WIDTH + PAD), "text_y": _num(mid + SMALL * 0.35), "box": None}
        if s is not None:
            row["tip"] = (f"{label}: mean {s['mean']:.2f}, median {s['median']:.2f}, quartiles {s['q1']:.2f}"
                          f"–{s['q3']:.2f}, whiskers {s['lo']:.2f}–{s['hi']:.2f}, {len(s['out'])} values beyond")
            row["box"] = {"x": _num(x(s["q1"])), "w": _num(max(x(s["q3"]) - x(s["q1"]), 0.8)),
                          "y": _num(mid - BAR / 2), "h": _num(BAR), "y0": _num(mid - BAR / 2), "y1": _num(mid + BAR / 2),
                          "cap0": _num(mid - BAR / 4), "cap1": _num(mid + BAR / 4),
                          "median": _num(x(s["median"])), "mean": _num(x(s["mean"])),
                          "lo": _num(x(s["lo"])), "hi": _num(x(s["hi"])),
                          "out": [_num(x(v)) for v in s["out"]]}
        else:
            row["tip"] = f"{label}: no scores"
        rows.append(row)
        y += h
    bottom = y
    ticks, axis, notes, y = _value_axis_below(x, lo, hi, zoom, y, axis_lines, note_lines)
    return template("boxes.svg.j2").render(
        width=_num(width), height=_num(y + PAD), title=title, title_lines=title_lines, rows=rows,
        left=_num(left), right=_num(left + PLOT_WIDTH), top=_num(top), bottom=_num(bottom), ticks=ticks,
        tick_end=_num(bottom + 4), tick_y=_num(bottom + 6 + SMALL), axis=axis, notes=notes, centre=_num(centre),
        middle=_num(width / 2), zero=_num(x(0.0)) if lo < 0 < hi else None, zoomed=zoom is not None,
        font=FONT, small=SMALL, title_font=TITLE_FONT, colour=OTHER_COLOUR, mark=DOWN)


SIDE = 320    #: side of the scatter's square plotting area (px)


def scatter_svg(title: str, a: str, b: str, va: Sequence[float], vb: Sequence[float], segments: Sequence[int],
                metric: str, measure: str, label_top: int = 8) -> str:
    """One dot per segment: its sentence score under profile ``a`` (x) and ``b`` (y), the dashed
    diagonal y = x where they agree, and the ``label_top`` segments furthest from it in red, numbered
    (``segments``: the 1-based segment number of each dot; nearby ones share one label), each with
    a ``<title>`` tooltip. Both axes are the same, in the metric's own scale: from zero unless the
    values need a zoom, which the title and both axis names then say. Standalone SVG text; every
    width is :func:`text_width`'s upper bound, so no label is cut."""
    xs, ys = np.asarray(va, dtype=float), np.asarray(vb, dtype=float)
    lo, hi, zoom = _value_axis(np.concatenate([xs, ys]))
    diff = np.abs(ys - xs)
    order = [int(k) for k in np.argsort(-diff, kind="stable")[:label_top] if diff[k] > 0]
    title = f"{title} (red: the {len(order)} segments furthest from the diagonal, numbered)"
    if zoom is not None:
        title += " (axis zoomed)"
    title_lines, top = _title_block(title, 60)
    x_lines = _lines(axis_label(metric, measure, f"{a}: sentence"), 52)
    y_lines = ["↑ " + line for line in _lines(axis_label(metric, measure, f"{b}: sentence"), 52)]
    if zoom is not None:
        x_lines.append(zoom_note(zoom) + " (both axes)")
    values = nice_ticks(lo, hi, 6)
    if zoom is not None:
        values = [zoom] + [t for t in values if (t - zoom) / (hi - lo) * SIDE > 20]
    tick_w = max(text_width(_tick_text(t), SMALL) for t in values)
    left = PAD + tick_w + 8
    y_label_at = []
    for line in y_lines:
        top += FONT * 1.3
        y_label_at.append((_num(top), line))
    top += SMALL + 4           # room for a label above a dot at the top

    def px(v: float) -> float:
        return left + (min(max(v, lo), hi) - lo) / (hi - lo) * SIDE

    def py(v: float) -> float:
        return top + SIDE - (min(max(v, lo), hi) - lo) / (hi - lo) * SIDE

    near = (hi - lo) * 0.06
    chosen = set(order)
    dots = [(_num(px(float(xs[i]))), _num(py(float(ys[i])))) for i in range(len(xs)) if i not in chosen]
    marked = [{"x": _num(px(float(xs[i]))), "y": _num(py(float(ys[i]))),
               "tip": f"segment {segments[i]}: {a} {xs[i]:.2f}, {b} {ys[i]:.2f} (diff {ys[i] - xs[i]:+.2f})"}
              for i in order]
    clusters: list[tuple[float, float, list[str]]] = []   # nearby segments share one label
    for i in order:
        home = next((c for c in clusters if abs(c[0] - xs[i]) < 3 * near and abs(c[1] - ys[i]) < near), None)
        if home is None:
            clusters.append((float(xs[i]), float(ys[i]), [str(segments[i])]))
        else:
            home[2].append(str(segments[i]))
    notes = [{"x": _num(px(cx) + 4), "y": _num(py(cy) - 3), "text": ", ".join(names),
              "right": px(cx) + 4 + text_width(", ".join(names), SMALL)} for cx, cy, names in clusters]
    bottom = top + SIDE
    y = bottom + 4 + SMALL + 6
    axis = []
    for line in x_lines:
        y += FONT * 1.3
        axis.append((_num(y), line))
    centre = max(left + SIDE / 2, PAD + max(text_width(t, FONT) for t in x_lines) / 2)
    width = max(left + SIDE + PAD, centre + max(text_width(t, FONT) for t in x_lines) / 2 + PAD,
                PAD + max(text_width(t, FONT) for t in y_lines) + PAD,
                PAD * 2 + max(text_width(t, TITLE_FONT) for _, t in title_lines),
                max((n["right"] for n in notes), default=0) + PAD)
    ticks = [{"x": _num(px(t)), "y": _num(py(t)), "text": _tick_text(t)} for t in values]
    return template("scatter.svg.j2").render(
        width=_num(width), height=_num(y + PAD), title=title, title_lines=title_lines, y_label=y_label_at,
        axis=axis, left=_num(left), right=_num(left + SIDE), top=_num(top), bottom=_num(bottom), pad=PAD,
        ticks=ticks, tick_end=_num(bottom + 4), tick_y=_num(bottom + 6 + SMALL), tick_x=_num(left - 6),
        tick_left=_num(left - 4), centre=_num(centre), middle=_num(width / 2), dots=dots, marked=marked,
        notes=notes, zoomed=zoom is not None, font=FONT, small=SMALL, title_font=TITLE_FONT,
        colour=DEFAULT_COLOUR, mark=DOWN)


def _wrap(label: str, width: int = 22) -> str:
    """A label on several lines (at ``+``, ``_``, ``-`` or spaces when it is longer than ``width``)."""
    if len(label) <= width:
        return label
    spaced = label.replace("+", "+ ").replace("_", "_ ")
    lines = textwrap.wrap(spaced, width, break_long_words=True, break_on_hyphens=True)
    return "\n".join(line.replace("+ ", "+").replace("_ ", "_").rstrip() for line in lines)
