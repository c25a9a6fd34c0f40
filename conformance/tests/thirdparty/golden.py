"""Compare an assay profile with a third-party package's recorded answers (fixtures/thirdparty).

:func:`compare` scores every recorded input (the fixture cases of the metric, one per
:func:`~assay.jobs.conform.recorded.case_key`) with ``profile`` (+ ``changes``) at the case's level,
exactly as ``assay conform``'s identification predicts a profile's answer
(:func:`assay.jobs.conform.values.value_of`), and judges the recorded answer with
:func:`~assay.jobs.conform.values.agrees` (after ``factor``, within ``tolerance``). A recorded
exception agrees with a profile that predicts the tool fails (or cannot score the input); a
skipped case (the package's call cannot express it) is left out.

    PYTHONPATH=. python -m conformance.tests.thirdparty.golden hf-bleu hf-evaluate [knob=value ...]
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from assay.core.knobs import Config
from assay.engine.evaluate import Evaluator
from assay.engine.registry import get_family
from assay.jobs.conform.judge import Answer
from assay.jobs.conform.recorded import recorded_inputs
from assay.jobs.conform.suite import report_knobs
from assay.jobs.conform.values import agrees, distance, value_of
from assay.profiles.registry import get_profile
from conformance.tests.thirdparty.replay import load


@dataclass
class Row:
    case_id: str
    level: str
    recorded: Answer
    predicted: Any
    agrees: bool
    distance: float


def recorded_answer(rec: dict[str, Any]) -> Answer | None:
    """The recorded answer as conform's :class:`Answer` (None: skipped by the package's shape)."""
    if "skipped" in rec:
        return None
    if "error" in rec:
        return Answer("error", message=f"{rec['error']}: {rec.get('message', '')}")
    return Answer("result", rec["score"], rec.get("components") or {})


def compare(name: str, profile: str, changes: dict[str, Any] | None = None, factor: float = 1.0,
            tolerance: float = 1e-6) -> list[Row]:
    """One row per recorded, non-skipped input of recording ``name`` under ``profile`` + ``changes``."""
    doc = load(name)
    metric = doc["metric"]
    family = get_family(metric)
    prof = get_profile(metric, profile)
    rows: list[Row] = []
    cases = recorded_inputs(metric)
    for key, rec in sorted(doc["answers"].items()):
        answer = recorded_answer(rec)
        if answer is None:
            continue
        case = cases[key]
        knobs = {**prof.knobs, **(prof.sentence_knobs if case.level == "sentence" else {})}
        report = report_knobs(metric, case.knobs)
        if report:
            knobs.update(family.knobset.resolve(report, metric))
        knobs.update(changes or {})
        predicted: Any
        if prof.max_refs is not None and case.nrefs > prof.max_refs:
            predicted = None
        else:
            config = Config(family.name, family.knobset, knobs)
            predicted = value_of(Evaluator(metric, case.hyps, case.refs), config, case.level)
        rows.append(Row(case.id, case.level, answer, predicted, agrees(predicted, answer, factor, tolerance),
                        distance(predicted, answer, factor)))
    return rows


def main(argv: list[str]) -> int:
    name, profile, *rest = argv
    changes: dict[str, Any] = {}
    for item in rest:
        k, _, v = item.partition("=")
        changes[k] = v
    if changes:
        fam = get_family(load(name)["metric"])
        changes = fam.knobset.resolve(changes, fam.name)
    rows = compare(name, profile, changes)
    bad = [r for r in rows if not r.agrees]
    print(f"{name} vs {profile} {changes or ''}: {len(rows) - len(bad)}/{len(rows)} agree")
    for r in sorted(bad, key=lambda r: -r.distance)[:25]:
        rec = r.recorded.score if r.recorded.kind == "result" else r.recorded.message
        print(f"  {r.case_id} [{r.level}] distance {r.distance:.3g}: recorded {str(rec)[:90]} predicted "
              f"{str(r.predicted)[:90]}")
    return 0 if not bad else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
