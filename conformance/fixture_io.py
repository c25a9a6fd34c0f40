"""Read and write golden fixture files (``fixtures/<metric>/<family>.json``).

File shape (format ``assay-fixtures/1``)::

    {
      "format": "assay-fixtures/1",
      "metric": "bleu",                     # metric family
      "family": "research",                 # file stem
      "description": "why these cases exist",
      "generated_by": {"command": "...", "python": "3.11.7", "PYTHONHASHSEED": "0",
                        "tools": {"sacrebleu": "2.6.0"}, "provenance": "..."},
      "cases": [
        {
          "id": "research/G08/sacrebleu",    # unique within the metric
          "note": "why this case exists",
          "profile": "sacrebleu",            # assay profile expected to reproduce the tool
          "knobs": {"smooth_method": "exp"}, # knob overrides on top of the profile
          "level": "corpus",                 # or "sentence" (one expected value per segment)
          "hyps": ["..."],
          "refs": [["..."]],                 # reference STREAMS, each aligned with hyps
          "expected": [
            {"tool": "sacrebleu", "version": "2.6.0",
             "command": "BLEU(tokenize='13a').corpus_score(hyps, refs)",
             "score": 29.85,                 # tool's own scale; list of floats for level=sentence
             "components": {"counts": [..]}, # optional, compared exactly/within tolerance
             "error": null,                  # or the tool's failure, e.g. "ZeroDivisionError"
             "tolerance": {"rel": 1e-9, "abs": 0.0}}
          ]
        }
      ]
    }

Expected values come only from running the reference tool (or from a seed's worked example);
never from assay.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from conformance.paths import FIXTURES

FORMAT = "assay-fixtures/1"


def write_fixture_file(metric: str, family: str, cases: list[dict[str, Any]], description: str,
                       generated_by: dict[str, Any], root: Path | None = None) -> Path:
    """Write ``<root>/<metric>/<family>.json`` (``root`` defaults to ``fixtures/``)."""
    path = (root or FIXTURES) / metric / f"{family}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    ids = [c["id"] for c in cases]
    if len(ids) != len(set(ids)):
        raise ValueError(f"duplicate case ids in {path}")
    doc = {"format": FORMAT, "metric": metric, "family": family, "description": description,
           "generated_by": generated_by, "cases": cases}
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return path


def write_specs(specs: list[dict[str, Any]], root: Path | None = None) -> None:
    """Write fixture-file specs ``{"metric", "family", "cases", "description", "generated_by"}``."""
    for spec in specs:
        path = write_fixture_file(spec["metric"], spec["family"], spec["cases"], spec["description"],
                                  spec["generated_by"], root)
        print(f"wrote {path} ({len(spec['cases'])} cases)")


def load_fixture_file(path: Path) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("format") != FORMAT:
        raise ValueError(f"{path}: not an {FORMAT} file")
    return doc


def iter_cases(metric: str, family: str | None = None) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Yield ``(file_doc, case)`` for every case of a metric (optionally one family)."""
    pattern = f"{family}.json" if family else "*.json"
    for path in sorted((FIXTURES / metric).glob(pattern)):
        doc = load_fixture_file(path)
        for case in doc["cases"]:
            yield doc, case


def within(expected: float, got: float, tolerance: dict[str, float] | None) -> bool:
    """``|got - expected| <= max(abs, rel * |expected|)`` (defaults: rel 1e-9, abs 0)."""
    tol = tolerance or {}
    rel = tol.get("rel", 1e-9)
    abs_ = tol.get("abs", 0.0)
    return abs(got - expected) <= max(abs_, rel * abs(expected), 1e-300 if expected == 0 else 0.0)
