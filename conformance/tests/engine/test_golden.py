"""Golden tests: every case of every fixture file is reproduced by assay within its tolerance.

Expected values come from the reference tools (regen*.py) or the seeds' worked examples.
An expected ``error`` that names a Python exception (``ZeroDivisionError``, ``EOFError`` …) is
the tool's own failure, which the profile reproduces as :class:`assay.ToolBehaviourError`;
any other ``error`` records a crash of a Perl tool, where the profile gives a finite score.
"""
from __future__ import annotations

import math
import re
from typing import Any

import pytest

import assay
from assay.core.io import SegmentFile
from assay.core.score import SentenceScores
from conformance.fixture_io import FIXTURES, iter_cases, within
from conformance.references.availability import missing

PY_EXCEPTION = re.compile(r"^[A-Z]\w*(Error|Exception)$")
#: fixture folders with their own shape and their own tests (not ``assay.score`` cases)
NOT_SCORE_FIXTURES = ("sample", "tokenizers", "significance", "audit", "sacrebleu_cli", "compat", "e2e", "thirdparty")
TOOL_COMPONENT_NAMES = {"hyp_len": "sys_len"}  # multi-bleu.perl's name -> assay's component


def _all_cases() -> list[Any]:
    params = []
    for metric_dir in sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name not in NOT_SCORE_FIXTURES):
        for doc, case in iter_cases(metric_dir.name):
            params.append(pytest.param(doc["metric"], case, id=f"{doc['metric']}/{doc['family']}/{case['id']}"))
    return params


def _run(metric: str, case: dict[str, Any]) -> Any:
    """Score a case; ``input.hyp_final_newline = false`` means the hypothesis file's last line was
    unterminated, which matters to profiles that read files with ``chop``."""
    call = assay.score if case["level"] == "corpus" else assay.sentence_scores
    hyps = case["hyps"]
    config, _ = assay.make_config(metric, case["profile"], case["level"], **case["knobs"])
    if case.get("input", {}).get("hyp_final_newline") is False and config.get("chop_unterminated_last_line"):
        hyps = SegmentFile("hyp", list(hyps), terminated=False).chopped()
    try:
        return call(metric, hyps, case["refs"], case["profile"], **case["knobs"])
    except assay.MissingDependencyError as exc:  # data read at run time (WordNet, ROUGE-1.5.5's lists)
        missing(str(exc))


def _close(expected: Any, got: Any, tol: dict[str, float]) -> bool:
    """Numbers within tolerance, lists and dicts element-wise, strings and None exactly."""
    if isinstance(expected, dict):
        return isinstance(got, dict) and expected.keys() <= got.keys() and all(
            _close(v, got[k], tol) for k, v in expected.items())
    if expected is None or isinstance(expected, str):
        return expected == got
    if isinstance(expected, (list, tuple)):
        return isinstance(got, (list, tuple)) and len(expected) == len(got) and all(
            _close(e, g, tol) for e, g in zip(expected, got))
    return within(float(expected), float(got), tol)


@pytest.mark.parametrize("metric,case", _all_cases())
def test_golden(metric: str, case: dict[str, Any]) -> None:
    for exp in case["expected"]:
        error = exp.get("error")
        if error and PY_EXCEPTION.match(error):
            with pytest.raises(assay.ToolBehaviourError) as info:
                _run(metric, case)
            assert info.value.tool_error == error
            continue
        result = _run(metric, case)
        values = [s.value for s in result] if isinstance(result, SentenceScores) else result.value
        if error:  # a Perl crash: the profile still gives a finite score
            assert all(math.isfinite(v) for v in (values if isinstance(values, list) else [values]))
            continue
        tol = exp.get("tolerance", {"rel": 1e-9})
        assert _close(exp["score"], values, tol), f"{exp['tool']} {exp['version']}: expected {exp['score']}, got {values}"
        if exp.get("exit_status"):  # the tool printed a score but failed: its other numbers are placeholders
            continue
        for tool_key, want in (exp.get("components") or {}).items():
            key = TOOL_COMPONENT_NAMES.get(tool_key, tool_key)
            if isinstance(result, SentenceScores):
                got = [s.components.get(key) for s in result]
            else:
                got = result.components.get(key)
            assert got is not None and not (isinstance(got, list) and None in got), \
                f"component {key} missing from assay's components"
            assert _close(want, got, tol), f"component {key}: expected {want}, got {got}"
