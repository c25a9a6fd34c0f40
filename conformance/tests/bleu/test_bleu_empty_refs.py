"""BLEU's ``empty_refs`` knob, value ``drop-after-first`` (e2e-metrics' mteval-v13a-sig.pl).

The script counts an empty reference in the FIRST slot as a 0-length reference when it picks the
closest reference length (ties to the shorter), and ignores empty references in later slots.
Expected values are the script's own outputs, recorded in ``fixtures/bleu/e2e_sig_generated.json``
(``python -m conformance.regen e2e-sig``); each test checks the tiny input it reads is the one
described, and that the neighbouring knob values (``drop``, ``keep``) give another number, so the
test fails if the value stops mattering.
"""
from __future__ import annotations

from typing import Any

import pytest

import assay
from assay.core.errors import KnobError
from assay.metrics.bleu.knobs import KNOBS
from conformance.fixture_io import iter_cases

PROFILE = "e2e-mteval-v13a-sig"
CAT = "the cat sat on the mat"


def _recorded(case_id: str) -> dict[str, Any]:
    cases = {c["id"]: c for _, c in iter_cases("bleu", "e2e_sig_generated")}
    case = cases[case_id]
    assert case["expected"][0]["tool"] == "mteval-v13a-sig.pl" and case["knobs"] == {}
    return case


def _score(case: dict[str, Any], **knobs: Any) -> float:
    return assay.score("bleu", case["hyps"], case["refs"], PROFILE, **knobs).value


def test_knob_value_declared_once_with_help() -> None:
    (knob,) = [k for k in KNOBS.knobs if k.name == "empty_refs"]
    assert knob.stage == "statistics" and "drop-after-first" in knob.choices and "FIRST" in knob.help
    assert assay.make_config("bleu", PROFILE, "corpus")[0]["empty_refs"] == "drop-after-first"
    with pytest.raises(KnobError, match="empty_refs"):
        assay.make_config("bleu", PROFILE, "corpus", empty_refs="drop-after-second")


def test_empty_first_slot_is_the_closest_length() -> None:
    """'x y' (2 words) against '' and 'a b c d': both 2 away, the shorter (the empty first slot,
    length 0) is chosen, so the corpus reference length is 0 + 6 < 8 and BP = 1."""
    case = _recorded("e2e-sig/edge/first-slot-empty/default")
    assert case["hyps"] == ["x y", CAT] and case["refs"] == [["", CAT], ["a b c d", "the cat sat"]]
    want = case["expected"][0]["score"]
    assert _score(case) == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert _score(case, empty_refs="drop-after-first") == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert abs(_score(case, empty_refs="drop") - want) > 0.1   # drop: 'a b c d' is chosen, BP < 1


def test_whitespace_first_slot_counts_as_empty() -> None:
    case = _recorded("e2e-sig/edge/first-slot-spaces/default")
    assert case["refs"][0][0] == "   "
    want = case["expected"][0]["score"]
    assert _score(case) == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert abs(_score(case, empty_refs="drop") - want) > 0.1


def test_empty_later_slot_is_ignored() -> None:
    """One-word hypotheses whose closest reference would be an empty one in the SECOND stream: the
    script ignores it (as ``drop``), unlike ``keep``."""
    case = _recorded("e2e-sig/edge/short-hyp-empty-closest/default")
    assert case["refs"][1][:2] == ["", ""] and all(case["refs"][0])
    want = case["expected"][0]["score"]
    assert _score(case) == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert _score(case, empty_refs="drop") == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert abs(_score(case, empty_refs="keep") - want) > 0.1


def test_generated_corpus_with_empty_first_slots() -> None:
    """A generated corpus with empty first slots (seed 4): only ``drop-after-first`` gives the script's value."""
    case = _recorded("e2e-sig/gen-first-004/default")
    assert any(r == "" for r in case["refs"][0])
    want = case["expected"][0]["score"]
    assert _score(case) == pytest.approx(want, rel=1e-9, abs=1e-10)
    assert abs(_score(case, empty_refs="drop") - want) > 1e-3
