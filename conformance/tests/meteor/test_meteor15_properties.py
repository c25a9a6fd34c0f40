"""meteor/meteor-1.5 properties (no jar needed; the jar's resources are, else skip / CI fail)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

WORDS = ["the", "a", "cat", "cats", "dog", "sat", "sits", "on", "mat", "big", "large", ",", ".", "ran", "run",
         "passed", "away", "died", "quickly", "rapidly"]
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)


@pytest.fixture(scope="module", autouse=True)
def _resources():
    import assay
    from assay.resources import meteor15 as resources
    try:
        resources.load()
    except assay.core.errors.MissingDependencyError as exc:  # type: ignore[attr-defined]
        from conformance.references.availability import missing
        missing(str(exc))


def _score(hyp, refs):
    import assay
    return assay.score("meteor", [hyp], [[r] for r in refs], profile="meteor-1.5").value


@settings(max_examples=60, deadline=None)
@given(sentence)
def test_identical_is_one(s):
    assert _score(s, [s]) == 1.0


@settings(max_examples=60, deadline=None)
@given(sentence, sentence, sentence)
def test_adding_a_reference_never_lowers(h, r1, r2):
    assert _score(h, [r1, r2]) >= _score(h, [r1])


def test_zero_without_match():
    assert _score("alpha beta", ["gamma delta"]) == 0.0
