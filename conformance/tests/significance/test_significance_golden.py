"""Golden significance cases (fixtures/significance/*.json, produced by live sacrebleu 2.x).

Per case: every metric's name and signature; for every system the corpus score (rel 1e-9), the
p-value (exactly: it is a count over the resamples), the bootstrap mean and CI half-width
(rel 1e-9; they are float32 values for chrF/TER, the same bits when the arithmetic is right);
then the text sacrebleu printed (table or --confidence lines) character for character, and its
JSON where it could print one. A case whose metric family assay lacks is skipped with the reason.
"""
from __future__ import annotations

import json
import math
from typing import Any

import pytest

from conformance.fixture_io import FIXTURES, load_fixture_file

import assay.jobs.significance as sig
from assay.core.errors import KnobError, ToolBehaviourError
from assay.jobs.significance_text import confidence_lines

FILES = sorted((FIXTURES / "significance").glob("*.json"))
CASES = [(path.stem, case) for path in FILES for case in load_fixture_file(path)["cases"]]
REL = 1e-9


def _close(expected: float | None, got: float | None) -> bool:
    if expected is None or got is None:
        return expected is None and got is None
    return math.isclose(got, expected, rel_tol=REL, abs_tol=1e-12)


def _metrics(case: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    from assay.engine.registry import get_family
    out = []
    for m in case["metrics"]:
        try:
            get_family(m["metric"])
        except KnobError:
            pytest.skip(f"metric family {m['metric']!r} is not implemented in assay yet")
        out.append((m["metric"], m["profile"], m["knobs"]))
    return out


def _seed(case: dict[str, Any]) -> Any:
    return sig.DEFAULT_SEED if case["seed"] is None else case["seed"]


def run_case(case: dict[str, Any]) -> Any:
    metrics = _metrics(case)
    systems = [(s["name"], s["hyps"]) for s in case["systems"]]
    if case["test"] == "confidence":
        res = sig.confidence_interval(metrics, systems[0][1], case["refs"], n_samples=case["n_samples"],
                                      seed=_seed(case))
        return res if isinstance(res, list) else [res]
    run = sig.paired_bootstrap if case["test"] == "bs" else sig.paired_ar
    return run(metrics, systems[0], systems[1:], case["refs"], n_samples=case["n_samples"], seed=_seed(case))


def _json_equal(expected: Any, got: Any, where: str) -> None:
    if isinstance(expected, float) or isinstance(got, float):
        assert expected is not None and got is not None and _close(float(expected), float(got)), \
            f"{where}: {got!r} != {expected!r}"
    elif isinstance(expected, dict):
        assert isinstance(got, dict) and list(got) == list(expected), f"{where}: keys {list(got)} != {list(expected)}"
        for k in expected:
            _json_equal(expected[k], got[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{where}: length differs"
        for i, (e, g) in enumerate(zip(expected, got)):
            _json_equal(e, g, f"{where}[{i}]")
    else:
        assert got == expected, f"{where}: {got!r} != {expected!r}"


@pytest.mark.parametrize("stem,case", CASES, ids=[c["id"] for _, c in CASES])
def test_significance_golden(stem: str, case: dict[str, Any]) -> None:
    exp = case["expected"][0]
    if case["test"] == "confidence":
        errors = [r["error"] for r in exp["results"] if r["error"]]
        if errors:
            _metrics(case)
            with pytest.raises(ToolBehaviourError):
                run_case(case)
            return
        results = run_case(case)
        assert [r.name for r in results] == [r["name"] for r in exp["results"]]
        for got, want in zip(results, exp["results"]):
            assert got.signature == want["signature"]
            assert _close(want["score"], got.result.score), (got.name, got.result.score, want["score"])
            assert _close(want["mean"], got.mean), (got.name, "mean", got.mean, want["mean"])
            assert _close(want["ci"], got.ci), (got.name, "ci", got.ci, want["ci"])
        assert "\n".join(confidence_lines(results)) == exp["text"].rstrip("\n")
        if exp["json"] is not None:
            docs = [r.tool_json() for r in results]
            _json_equal(exp["json"], docs[0] if len(docs) == 1 else docs, "json")
        return
    res = run_case(case)
    assert res.names == exp["names"]
    assert res.signatures == exp["signatures"]
    for name in res.names:
        for i, (got, want) in enumerate(zip(res.results[name], exp["results"][name])):
            where = f"{name} system {res.systems[i]}"
            assert _close(want["score"], got.score), (where, "score", got.score, want["score"])
            assert got.p_value == want["p_value"], (where, "p", got.p_value, want["p_value"])
            assert _close(want["mean"], got.mean), (where, "mean", got.mean, want["mean"])
            assert _close(want["ci"], got.ci), (where, "ci", got.ci, want["ci"])
    assert res.text == exp["text"].rstrip("\n")
    if exp["json"] is not None:
        _json_equal(exp["json"], json.loads(json.dumps(res.tool_json())), "json")
