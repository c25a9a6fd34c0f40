"""The report's plots do not mislead: axes named in each metric's own scale, bars from zero or the
zoom said in the axis label and the title, labels wrapped and never cut (every chart is SVG from a
template: every text inside the picture at an upper bound of its width, escaped), box plots whose
boxes are the quartiles, the per-segment scatter with its diagonal and its most divergent segments
numbered, each with a tooltip."""
from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np

from assay.jobs.report import plots


def test_axes_name_the_metric_and_its_own_scale() -> None:
    assert plots.axis_label("bleu", "BLEU") == "BLEU (0-100)"
    cider = plots.axis_label("cider", "CIDEr")
    assert "0-100" not in cider and "x100" in cider and cider.startswith("CIDEr")
    assert "0-100" not in plots.axis_label("nist", "NIST")
    assert plots.axis_label("ter", "TER", "sentence") == "sentence TER (0-100)"


NS = "{http://www.w3.org/2000/svg}"


def _svg(text: str) -> ET.Element:
    """The parsed chart (well-formed standalone SVG, no external reference)."""
    assert text.startswith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
    assert "href" not in text and "url(" not in text and text.count("http://") == 1
    return ET.fromstring(text)


def _texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def _title(root: ET.Element) -> str:
    return root.find(f"{NS}title").text


def _bars(root: ET.Element) -> list[dict[str, float]]:
    return [{k: float(r.get(k)) for k in ("x", "y", "width", "height")} for g in root.iter(f"{NS}g")
            for r in g.iter(f"{NS}rect")]


def _axis_start(root: ET.Element) -> float:
    """The data value at the axis' left end, read from the ticks (linear axis)."""
    ticks = [t for t in root.findall(f"{NS}text")
             if t.get("font-size") == str(plots.SMALL) and t.get("text-anchor") == "middle"]
    (x0, v0), (x1, v1) = [(float(t.get("x")), float(t.text)) for t in ticks[:2]]
    axis = next(ln for ln in root.findall(f"{NS}line")
                if ln.get("y1") == ln.get("y2") and ln.get("stroke") == "#333333")
    left = float(axis.get("x1"))
    return v0 - (x0 - left) * (v1 - v0) / (x1 - x0)


def test_bars_start_at_zero_when_they_show_the_differences() -> None:
    root = _svg(plots.scores_svg("chrF", ["a", "b"], [30.0, 80.0], [True, False], "chrF (0-100)"))
    bars = _bars(root)
    assert len(bars) == 2 and abs(_axis_start(root)) < 1e-6
    assert bars[0]["x"] == bars[1]["x"]                                  # both from zero
    assert abs(bars[1]["width"] / bars[0]["width"] - 80 / 30) < 0.01       # length proportional to the value
    assert not any("zoomed" in t for t in _texts(root)) and "zoomed" not in _title(root)
    assert "chrF (0-100)" in _texts(root)


def test_a_zoomed_axis_says_so_in_its_label_and_title_and_draws_dots() -> None:
    root = _svg(plots.scores_svg("BLEU", ["sacrebleu", "nltk"], [73.6, 70.07], [True, False], "BLEU (0-100)"))
    start = plots.zoom_start([73.6, 70.07])
    assert start is not None and 0 < start < 70.07 and abs(_axis_start(root) - start) < 1e-6
    assert "axis zoomed" in _title(root) and any("axis zoomed" in t for t in _texts(root))
    assert f"axis zoomed: starts at {start:g}, not 0" in _texts(root)
    assert f"{start:g}" in _texts(root)                                    # and the axis' first tick says it
    assert not _bars(root) and len(list(root.iter(f"{NS}circle"))) == 2    # no bar whose length would lie
    cider = _svg(plots.scores_svg("CIDEr", ["coco", "v"], [400.74, 415.38], [True, False],
                                  plots.axis_label("cider", "CIDEr")))
    assert not any("0-100" in t for t in _texts(cider)) and any("axis zoomed" in t for t in _texts(cider))


def _inside(root: ET.Element) -> None:
    """Every text lies inside the picture, its width taken as :func:`plots.text_width` (an upper bound)."""
    width = float(root.get("width"))
    height = float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    for t in root.iter(f"{NS}text"):
        size = float(t.get("font-size") or root.get("font-size"))
        w = plots.text_width("".join(t.itertext()), size)
        x, y = float(t.get("x")), float(t.get("y"))
        lo = {"end": x - w, "middle": x - w / 2}.get(t.get("text-anchor"), x)
        assert 0 <= lo and lo + w <= width + 1e-6 and size * 0.8 <= y <= height, (t.text, lo, w, width)


def test_waterfall_labels_are_whole_and_inside_the_picture() -> None:
    parts = [("weights+smooth_method", 0.0), ("per_segment_min_total", -0.307), ("tokenize", -3.23),
             ("a_very_long_knob_name_that_needs_wrapping", 1.2)]
    root = _svg(plots.waterfall_svg("bleu BLEU: sacrebleu → nltk@3.5", "sacrebleu", 73.6, parts, "nltk@3.5", 71.26,
                                    "BLEU (0-100)"))
    rows = [g for g in root.iter(f"{NS}g")]
    labels = ["".join(t.text for t in g.findall(f"{NS}text")[:-1]) for g in rows]
    assert labels == ["sacrebleu", "per_segment_min_total", "tokenize", "a_very_long_knob_name_that_needs_wrapping",
                      "nltk@3.5"]                                   # wrapped, never truncated; no-effect part not drawn
    assert rows[3].find(f"{NS}title").text.startswith("a_very_long_knob_name_that_needs_wrapping")   # tooltip
    assert len(rows[3].findall(f"{NS}text")) > 2                  # on two lines
    notes = [t for t in _texts(root) if "no effect" in t]
    assert notes and "weights+smooth_method" in notes[0]
    assert "axis zoomed" in _title(root) and any(t.startswith("axis zoomed: starts at") for t in _texts(root))
    _inside(root)
    # the floating bars: each starts where the running total stands
    bars = _bars(root)
    assert [g.find(f"{NS}rect").get("fill") for g in rows] == [plots.TOTAL, plots.DOWN, plots.DOWN, plots.UP, plots.TOTAL]
    assert abs(bars[1]["x"] + bars[1]["width"] - (bars[0]["x"] + bars[0]["width"])) < 0.11


def test_charts_escape_every_label() -> None:
    text = plots.scores_svg("<script>alert(1)</script> & co", ["a<b>", "c&d"], [1.0, 2.0], [True, False], "x \"y\"")
    root = _svg(text)
    assert "<script>" not in text and "<b>" not in text
    assert "a<b>" in _texts(root) and "c&d" in _texts(root)
    assert not list(root.iter(f"{NS}script"))
    _inside(root)


def test_bars_with_negative_values_share_one_zero() -> None:
    root = _svg(plots.scores_svg("TER delta", ["a", "b"], [-5.0, 10.0], [True, False], "x"))
    bars = _bars(root)
    assert abs(bars[0]["x"] + bars[0]["width"] - bars[1]["x"]) < 0.11     # a ends where b starts: at zero
    _inside(root)


def test_scatter_numbers_the_most_divergent_segments() -> None:
    rng = np.random.default_rng(3)
    a = rng.uniform(20, 80, 50)
    b = a + rng.normal(0, 1, 50)
    b[[4, 17]] = a[[4, 17]] + [40, -35]
    root = _svg(plots.scatter_svg("bleu BLEU", "nltk", "sacrebleu", a, b, list(range(101, 151)), "bleu", "BLEU",
                                  label_top=2))
    red = [t for t in root.iter(f"{NS}text") if t.get("fill") == plots.DOWN]
    assert sorted("".join(t.itertext()) for t in red) == ["105", "118"]
    tips = [g.find(f"{NS}title").text for g in root.iter(f"{NS}g") if g.get("class") == "divergent"]
    assert sorted(tips) == sorted([f"segment 105: nltk {a[4]:.2f}, sacrebleu {b[4]:.2f} (diff {b[4] - a[4]:+.2f})",
                                   f"segment 118: nltk {a[17]:.2f}, sacrebleu {b[17]:.2f} (diff {b[17] - a[17]:+.2f})"])
    assert len(list(root.iter(f"{NS}circle"))) == 50                       # one dot per segment
    texts = _texts(root)
    assert "nltk: sentence BLEU (0-100)" in texts and "↑ sacrebleu: sentence BLEU (0-100)" in texts
    assert not any("zoomed" in t for t in texts)
    _inside(root)
    # the diagonal y = x: from the axes' common start to their common end, and a dot on it sits on it
    diag = next(ln for ln in root.iter(f"{NS}line") if ln.get("class") == "diagonal")
    x1, y1, x2, y2 = (float(diag.get(k)) for k in ("x1", "y1", "x2", "y2"))
    assert abs((x2 - x1) - (y1 - y2)) < 0.11 and x2 > x1
    assert abs(_axis_start(root)) < 1e-6                                    # from zero: nothing to zoom


def test_a_zoomed_scatter_says_so() -> None:
    a = np.array([70.0, 72.0, 75.0, 71.0])
    b = np.array([71.0, 73.0, 74.0, 70.5])
    root = _svg(plots.scatter_svg("bleu BLEU", "x<y", "z&w", a, b, [1, 2, 3, 4], "bleu", "BLEU"))
    start = plots.zoom_start([70.0, 75.0])
    assert start is not None and "axis zoomed" in _title(root)
    assert any(t.startswith(f"axis zoomed: starts at {start:g}, not 0") for t in _texts(root))
    assert abs(_axis_start(root) - start) < 1e-6 and "x<y: sentence BLEU (0-100)" in _texts(root)
    _inside(root)


def test_box_plots_show_the_quartiles_and_the_mean() -> None:
    rng = np.random.default_rng(5)
    v = np.concatenate([rng.uniform(20, 60, 99), [99.0]])
    root = _svg(plots.distribution_svg("bleu BLEU: sentence-level scores",
                                       ["sacrebleu", "a_very_long_profile_name_that_needs_wrapping", "<b>"],
                                       [v, v / 2, v], "sentence BLEU (0-100)"))
    rows = [g for g in root.iter(f"{NS}g")]
    assert len(rows) == 3
    start = _axis_start(root)
    assert abs(start) < 1e-6                                                 # from zero: no zoom to say
    box = rows[0].find(f"{NS}rect")
    line = next(ln for ln in root.findall(f"{NS}line") if ln.get("y1") == ln.get("y2") and ln.get("stroke") == "#333333")
    left = float(line.get("x1"))
    right = float(line.get("x2"))
    ticks = [t for t in root.findall(f"{NS}text") if t.get("font-size") == str(plots.SMALL) and t.get("text-anchor") == "middle"]
    (x0, v0), (x1, v1) = [(float(t.get("x")), float(t.text)) for t in ticks[:2]]

    def value(px: float) -> float:
        return v0 + (px - x0) * (v1 - v0) / (x1 - x0)
    q1, q3 = np.percentile(v, [25, 75])
    assert abs(value(float(box.get("x"))) - q1) < 0.2 and abs(value(float(box.get("x")) + float(box.get("width"))) - q3) < 0.2
    assert len(rows[0].findall(f"{NS}circle")) == 1                          # 99 lies beyond the whiskers
    assert f"mean {np.mean(v):.2f}" in _texts(root)
    assert rows[0].find(f"{NS}title").text.startswith(f"sacrebleu: mean {np.mean(v):.2f}, median {np.median(v):.2f}")
    assert "<b>" in _texts(root) and right > left
    labels = ["".join(t.text for t in g.findall(f"{NS}text")[:-1]) for g in rows]
    assert labels[1] == "a_very_long_profile_name_that_needs_wrapping"      # wrapped, never truncated
    _inside(root)


def test_close_box_plots_zoom_and_say_so() -> None:
    root = _svg(plots.distribution_svg("chrF", ["a", "b"], [np.array([80.0, 82.0, 85.0]), np.array([81.0, 84.0])],
                                       plots.axis_label("chrf", "chrF", "sentence")))
    start = plots.zoom_start([80.0, 85.0])
    assert "axis zoomed" in _title(root) and f"axis zoomed: starts at {start:g}, not 0" in _texts(root)
    assert abs(_axis_start(root) - start) < 1e-6
    _inside(root)


def test_report_plots_import_no_matplotlib() -> None:
    code = ("import sys, numpy as np; from assay.jobs.report import build, plots; "
            "plots.scatter_svg('t', 'a', 'b', [1.0, 2.0], [2.0, 1.0], [1, 2], 'bleu', 'BLEU'); "
            "plots.distribution_svg('t', ['a'], [np.arange(5.0)], 'x'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'PIL')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_wrap_keeps_every_character() -> None:
    for label in ("short", "weights+smooth_method+zero_precision", "x" * 60, "multi-bleu-detok@1.2.3"):
        assert plots._wrap(label, 16).replace("\n", "") == label
