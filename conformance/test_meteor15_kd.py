"""meteor/meteor-1.5 known divergences from the jar (frozen jar values in fixtures/meteor/kd/).

KD-METEOR-01: a last-bit difference of the double (the jar's operation order / Math.pow); fixtures
compare with rel 1e-12. KD-METEOR-02: the jar's alignment resolution keeps fewer (or other) non-exact
matches than assay's beam search: a stem/synonym/paraphrase candidate is dropped in situations such as
no exact match in the segment with a word pair matched by two modules (``cars``/``car`` alone: 0.0), or a
reference word with two candidate partners (``ran ran``/``run``: 0.0). These tests pin the
divergence: assay's value differs, and only non-exact matches are involved (the exact-module counts of
the jar's statistics are reproduced).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

KD = Path(__file__).resolve().parent.parent / "fixtures" / "meteor" / "kd" / "meteor15_kd.json"


def _cases():
    if not KD.is_file():
        return []
    return [c for c in json.loads(KD.read_text(encoding="utf-8"))["cases"] if c["level"] == "sentence"]


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["id"])
def test_kd_meteor_02_only_non_exact(case):
    import assay
    try:
        got = assay.sentence_scores("meteor", case["hyps"], case["refs"], profile="meteor-1.5")
    except assay.errors.MissingDependencyError as exc:  # type: ignore[attr-defined]
        from conformance.references.availability import missing
        missing(str(exc))
    exp = case["expected"][0]
    assert any(abs(g.value - e) > 1e-12 for g, e in zip(got, exp["score"])), "divergence fixed: move to meteor15.json"
    # lengths (normalisation) agree everywhere
    assert [g.components["test_len"] for g in got] == exp["components"]["test_len"]
    assert [g.components["ref_len"] for g in got] == exp["components"]["ref_len"] or len(case["refs"]) > 1
