"""matplotlib figures of a report (Agg backend): profile scores, waterfalls, distributions.

Every figure is rendered once, to PNG: a file for the Markdown page, and the same bytes inlined
(base64 data URI) in the self-contained HTML page. Output is deterministic (no software or date
metadata) so that a regenerated report only differs where the numbers do.
"""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Sequence

import numpy as np

@lru_cache(maxsize=None)
def _pyplot() -> ModuleType:
    """matplotlib's pyplot on the Agg backend, with the report's settings, imported on first use."""
    # local: matplotlib takes ~0.3 s to import; only commands that draw a figure pay for it
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    matplotlib.rcParams.update({"svg.hashsalt": "assay", "svg.fonttype": "none", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False})
    return pyplot


DEFAULT_COLOUR = "#1f5fa8"
OTHER_COLOUR = "#8fb3d9"
UP, DOWN, TOTAL = "#2e8b57", "#c0392b", "#555555"


def save(fig, png_path: Path) -> bytes:
    """Write ``png_path`` (deterministic: no software/date metadata) and return its bytes."""
    png_path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, metadata={"Software": None})
    _pyplot().close(fig)
    data = buf.getvalue()
    png_path.write_bytes(data)
    return data


def scores_figure(title: str, labels: Sequence[str], values: Sequence[float], defaults: Sequence[bool],
                  xlabel: str):
    """Horizontal bars: one per profile that ran (the default profile darker)."""
    n = len(labels)
    fig, ax = _pyplot().subplots(figsize=(6.4, 0.45 * n + 0.9))
    y = np.arange(n)[::-1]
    colours = [DEFAULT_COLOUR if d else OTHER_COLOUR for d in defaults]
    ax.barh(y, values, color=colours, height=0.6)
    ax.set_yticks(y, labels)
    lo, hi = min(values), max(values)
    pad = (hi - lo) * 0.3 or abs(hi) * 0.05 or 1.0
    ax.set_xlim(max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad)
    for yi, v in zip(y, values):
        ax.text(v, yi, f" {v:.2f}", va="center", fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def waterfall_figure(title: str, start_label: str, start: float, parts: Sequence[tuple[str, float]],
                     end_label: str, end: float, ylabel: str):
    """Start bar, one floating bar per part (green up, red down), end bar."""
    labels = [start_label] + [p for p, _ in parts] + [end_label]
    fig, ax = _pyplot().subplots(figsize=(max(5.0, 0.9 * len(labels) + 1.5), 3.6))
    level = start
    ax.bar(0, start, color=TOTAL, width=0.6)
    lows, highs = [min(0.0, start)], [max(0.0, start)]
    for i, (_, part) in enumerate(parts, start=1):
        bottom = level if part >= 0 else level + part
        ax.bar(i, abs(part) if part != 0 else 0.0, bottom=bottom, color=UP if part >= 0 else DOWN, width=0.6)
        ax.plot([i - 1.3, i + 0.3], [level, level], color="#999999", lw=0.6)
        ax.text(i, max(level, level + part), f"{part:+.3g}", ha="center", va="bottom", fontsize=7)
        level += part
        lows.append(level)
        highs.append(level)
    ax.bar(len(labels) - 1, end, color=TOTAL, width=0.6)
    ax.text(0, start, f"{start:.2f}", ha="center", va="bottom", fontsize=7)
    ax.text(len(labels) - 1, end, f"{end:.2f}", ha="center", va="bottom", fontsize=7)
    lo, hi = min(lows + [min(0.0, end)]), max(highs + [end])
    span = hi - lo or 1.0
    # zoom on the moving part when the bars are tall and the parts small
    moving = [v for v in lows[1:] + [start, end]]
    mlo, mhi = min(moving), max(moving)
    if lo >= 0 and mhi - mlo < 0.25 * span and mlo > 0:
        margin = max((mhi - mlo) * 0.6, abs(mhi) * 0.01, 1e-9)
        ax.set_ylim(mlo - margin, mhi + margin)
        ax.set_title(title + " (axis zoomed)", fontsize=10)
    else:
        ax.set_ylim(lo - 0.05 * span, hi + 0.12 * span)
        ax.set_title(title, fontsize=10)
    ax.set_xticks(range(len(labels)), [_wrap(l) for l in labels], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    return fig


def distribution_figure(title: str, labels: Sequence[str], samples: Sequence[np.ndarray], ylabel: str):
    """Box plots of the sentence-level scores of each profile, means marked."""
    fig, ax = _pyplot().subplots(figsize=(max(4.5, 0.85 * len(labels) + 1.5), 3.4))
    ax.boxplot([np.asarray(s, dtype=float) for s in samples], showmeans=True, widths=0.55,
               flierprops={"markersize": 2, "alpha": 0.5})
    ax.set_xticks(range(1, len(labels) + 1), [_wrap(l) for l in labels], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def _wrap(label: str, width: int = 22) -> str:
    return label if len(label) <= width else label[: width - 1] + "…"
