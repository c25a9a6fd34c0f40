"""The report's summary: per metric measure, how far the tools disagree and the knob behind it.

One :class:`~assay.jobs.report.model.SummaryRow` per measure with scores: the spread (max - min over
the profiles that ran, on the metric's printed scale), the profile pair furthest apart (low, high),
and the knob with the largest Shapley part of ``high - low``: exactly the part ``assay compare
--attribute LOW HIGH`` prints for that pair (the same :func:`~assay.jobs.compare.attribute_pair`;
when the report attributed the pair the other way round, the parts are negated: an exact Shapley
decomposition of ``a - b`` is minus that of ``b - a``). The sentence says it in plain words, with the
knob value explained by the knob's own help text (:func:`value_words`; declared once with the knob).

:func:`markdown_summary` writes the summary that heads ``report.md``.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Sequence

from assay.jobs.attribution import SCALE_KNOB
from assay.jobs.compare import PairAttribution, fmt, markdown_table, view_of
from assay.jobs.report.model import MeasureSection, Report, SummaryRow

#: the summary table's columns (markdown; the HTML uses the same rows)
HEADERS = ["metric", "measure", "scale", "spread", "low", "high", "main knob", "its share", "of the gap"]


def summary_rows(sections: Sequence[MeasureSection]) -> list[SummaryRow]:
    """One row per section with at least one score (module doc)."""
    return [row for row in (summary_row(sec) for sec in sections) if row is not None]


def summary_row(sec: MeasureSection) -> SummaryRow | None:
    table = sec.table
    view = view_of(table.metric)
    scored = table.scored
    if not scored:
        return None
    key = lambda r: r.normalised if r.normalised is not None else r.value  # noqa: E731
    lo, hi = min(scored, key=key), max(scored, key=key)
    low, high = (lo.profile, float(key(lo))), (hi.profile, float(key(hi)))
    gap = high[1] - low[1]
    scale = view.scale_label
    label = f"{table.metric} {table.measure.label}" if len(view.measures) > 1 else table.measure.label
    if lo is hi or gap == 0:
        sentence = f"{label}: all {len(scored)} profiles agree on this corpus ({fmt(low[1], 2)}, {scale})."
        return SummaryRow(table.metric, table.measure.label, scale, 0.0, low, high, None, None, None, sentence)
    pa, sign = _pair(sec, lo.profile, hi.profile)
    knob = share = fraction = None
    head = (f"{label}: {gap:.2f} points ({scale}) between {lo.profile} ({low[1]:.2f}) and "
            f"{hi.profile} ({high[1]:.2f})")
    if pa is None:
        why = next((u for u in sec.unavailable if u.startswith((f"{lo.profile} → {hi.profile}:",
                                                                f"{hi.profile} → {lo.profile}:"))), "")
        sentence = f"{head}; no attribution{' (' + why + ')' if why else ''}."
    else:
        parts = {k: sign * pa.part(k) for k in pa.attribution.effective if k != SCALE_KNOB}
        if not parts:
            sentence = f"{head}; only the scale differs."
        else:
            knob = max(parts, key=lambda k: abs(parts[k]))
            share = parts[knob]
            fraction = share / gap
            half = pa.ci95(knob)
            estimate = f" (estimate ± {half:.2f})" if half is not None else ""
            sentence = (f"{head}; {share:.2f} of them{estimate} are {knob}: "
                        f"{change_words(table.metric, pa, knob, sign)}.")
    return SummaryRow(table.metric, table.measure.label, scale, gap, low, high, knob, share, fraction, sentence)


def _pair(sec: MeasureSection, low: str, high: str) -> tuple[PairAttribution | None, float]:
    for pa in sec.attributions:
        if (pa.a, pa.b) == (low, high):
            return pa, 1.0
    for pa in sec.attributions:
        if (pa.a, pa.b) == (high, low):
            return pa, -1.0
    return None, 1.0


def change_words(metric: str, pa: PairAttribution, player: str, sign: float) -> str:
    """``knob a → b`` for each knob of the player, seen from the low profile to the high one, with the
    high profile's value in plain words for a single knob."""
    att = pa.attribution
    knobs = [k for k in att.groups.get(player, (player,)) if k in att.changes]
    high = pa.b if sign > 0 else pa.a
    out = []
    for k in knobs:
        a, b = att.changes[k]
        if sign < 0:
            a, b = b, a
        out.append(f"{k} {_show(a)} → {_show(b)}")
    text = "; ".join(out)
    if len(knobs) == 1:
        a, b = att.changes[knobs[0]]
        words = value_words(metric, knobs[0], b if sign > 0 else a)
        if words:
            text += f" ({high}: {words})"
    return text


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ",".join(_show(v) for v in value) + ")"
    return str(value)


def value_words(metric: str, knob: str, value: Any) -> str:
    """A short plain-words explanation of ``knob = value``, from what is declared once:

    - a tokenizer name (``tokenize``): the first sentence of its module's docstring in
      :mod:`assay.tokenizers` (e.g. ``none``: "no rewriting; tokens are ... str.split() ...");
    - a knob whose help names its values (``best = ...;`` or ``pool (ROUGE-1.5.5 -f A)``): that part;
    - else the knob's help text itself."""
    from assay.engine.registry import get_family
    knobset = get_family(metric).knobset
    if knob not in knobset:
        return ""
    help_text = knobset[knob].help
    shown = _show(value)
    if knob == "tokenize":
        words = _tokenizer_words(str(value))
        if words:
            return words
    v = re.escape(shown)
    m = re.search(rf"(?:^|[\s;,(]){v}\s*(?:=|:)\s*([^;]+)", help_text, re.IGNORECASE)
    if m:
        return _clean(m.group(1))
    m = re.search(rf"(?:^|[\s;,])(?<![\w-]){v}\s*\(", help_text, re.IGNORECASE)
    if m:
        return _clean(_parenthesised(help_text, m.end()))
    return _clean(help_text)


def _parenthesised(text: str, start: int) -> str:
    """The text from ``start`` (just after an opening parenthesis) to its matching closing one."""
    depth = 1
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i]
    return text[start:]


def _tokenizer_words(name: str) -> str:
    from assay.tokenizers import TOKENIZER_NAMES, get_tokenizer
    if name not in TOKENIZER_NAMES:
        return ""
    try:
        doc = sys.modules[type(get_tokenizer(name)).__module__].__doc__ or ""
    except Exception:   # a tokenizer whose dependency is missing: its name stands
        return ""
    first = doc.strip().split("\n\n")[0].replace("\n", " ")
    first = re.sub(r"^``[^`]+``(?:\s*/\s*``[^`]+``)*\s*:\s*", "", first)
    return _clean(first.split(". ")[0])


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("``", "").replace("`", "")).strip().rstrip(".,;")


def markdown_summary(report: Report) -> list[str]:
    """The summary that heads ``report.md``: the table, then one sentence per measure."""
    rows = report.summary
    if not rows:
        return []
    table = []
    for r in rows:
        table.append([r.metric, r.measure, r.scale, f"{r.spread:.2f}", f"{r.low[0]} {r.low[1]:.2f}",
                      f"{r.high[0]} {r.high[1]:.2f}", r.knob or "—",
                      "—" if r.knob_share is None else f"{r.knob_share:+.2f}",
                      "—" if r.knob_fraction is None else f"{100 * r.knob_fraction:.0f}%"])
    return ["## Summary", "",
            "Per metric: the spread of the scores across tools on this corpus, the two profiles furthest "
            "apart and the knob that explains most of their gap (its Shapley part, in the metric's scale; "
            "the same as `assay compare --attribute LOW HIGH`).", "",
            markdown_table(HEADERS, table), "", *[f"- {r.sentence}" for r in rows], ""]
