"""Why a claim needs a non-standard configuration: the score gap split into named steps.

From the stated (or standard) configuration to the matching one: first the change of reference
subset / input preprocessing as one named step (it changes the Evaluator, not a knob), then the
knob attribution of :func:`assay.jobs.attribution.attribute` on the matching configuration's corpus,
then the reported measure (ROUGE P/R/F) and the presentation factor (×100). When the
attribution fails, the knobs are changed one at a time in knob order (a sequential path, named
as such in the notes).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from assay.core.errors import AssayError
from assay.core.knobs import Config
from assay.jobs.attribution import attribute
from assay.jobs.audit.space import PREP_WORDS, Candidate


@dataclass
class Explanation:
    start: float
    end: float
    steps: list[tuple[str, float]]
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> float:
        return self.end - self.start

    def lines(self, digits: int = 4) -> list[str]:
        out = [f"{self.start:.{digits}f} -> {self.end:.{digits}f} ({self.total:+.{digits}f})"]
        out += [f"  {name}: {delta:+.{digits}f}" for name, delta in self.steps]
        out += [f"  note: {n}" for n in self.notes]
        return out

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "total": self.total,
                "steps": [{"step": n, "delta": d} for n, d in self.steps], "notes": self.notes}


def explain(auditor: Any, source: Candidate, target: Candidate) -> Explanation | None:
    """Attribute target - source (both on the claim's scale); None when either cannot be scored."""
    start_e, end_e = auditor.evaluate(source), auditor.evaluate(target)
    if not (start_e.ok and end_e.ok):
        return None
    steps: list[tuple[str, float]] = []
    notes: list[str] = []
    scale = source.display
    # 1. reference subset / input preprocessing (a different Evaluator)
    here = source
    if (source.refs.name, source.prep) != (target.refs.name, target.prep):
        moved = replace(source, refs=target.refs, prep=target.prep, standard=False)
        a, b = auditor.evaluate(source), auditor.evaluate(moved)
        if b.ok:
            names = []
            if source.refs.name != target.refs.name:
                names.append(f"references {source.refs.shown or source.refs.name} -> "
                             f"{target.refs.shown or target.refs.name}")
            if source.prep != target.prep:
                names.append(f"input {PREP_WORDS.get(source.prep, source.prep)} -> "
                             f"{PREP_WORDS.get(target.prep, target.prep)}")
            steps.append(("; ".join(names), b.value - a.value))
            here = moved
    # 2. knobs on the target's corpus (values of the F / first measure, at the source's scale)
    ev = auditor.evaluator(target.refs, target.prep)
    try:
        c_from, p_from = ev.config(here.profile, **here.knob_dict)
        c_to, p_to = ev.config(target.profile, **target.knob_dict)
    except AssayError as exc:
        notes.append(f"knob attribution skipped: {exc}")
        c_from = c_to = None
    if c_from is not None and c_from != c_to:
        parts, more = _knob_parts(ev, c_from, c_to, p_from, p_to)
        notes += more
        for name, delta in parts.items():
            steps.append((name, delta * scale))
    # 3. measure and presentation: whatever is left is named by what differs
    so_far = start_e.value + sum(d for _, d in steps)
    rest = end_e.value - so_far
    labels = []
    if (source.measure or "f") != (target.measure or "f"):
        labels.append(f"measure {source.measure or 'f'} -> {target.measure or 'f'}")
    if source.display != target.display:
        labels.append("presentation " + ("×100" if target.display > source.display else "÷100"))
    if labels or abs(rest) > 1e-9 * max(1.0, abs(end_e.value)):
        steps.append((" and ".join(labels) if labels else "interaction (not attributed)", rest))
    return Explanation(start_e.value, end_e.value, steps, notes)


def _knob_parts(ev: Any, c_from: Config, c_to: Config, p_from: Any, p_to: Any) -> tuple[dict[str, float], list[str]]:
    try:
        att = attribute(ev, c_from, c_to, profile_from=p_from.name, profile_to=p_to.name)
    except AssayError as exc:
        return _sequential(ev, c_from, c_to), [f"attribution failed ({exc}); sequential path instead"]
    return dict(att.parts), list(getattr(att, "notes", []))


def _sequential(ev: Any, c_from: Config, c_to: Config) -> dict[str, float]:
    """Change the differing knobs one at a time; a combination the family rejects is merged with the next."""
    values = c_from.as_dict()
    prev = ev.value(c_from)
    parts: dict[str, float] = {}
    pending: list[str] = []
    for name in c_from.differs_from(c_to):
        values[name] = c_to[name]
        pending.append(name)
        try:
            now = ev.value(Config(c_from.metric, ev.family.knobset, values))
        except AssayError:
            continue
        parts["+".join(pending)] = now - prev
        prev, pending = now, []
    if pending:
        parts["+".join(pending)] = ev.value(c_to) - prev
    return parts
