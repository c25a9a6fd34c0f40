"""Differential GLEU tests: assay's profiles against the live NLTK ``gleu_score`` on generated text.

- profile ``nltk``: ``corpus_gleu`` / ``sentence_gleu`` on ``str.split()`` tokens;
- profile ``hf-evaluate``: the same on sacrebleu 2.6.0's 13a tokens (HF evaluate's ``google_bleu``
  pipeline; evaluate itself is checked through its recorded answers, conformance/tests/thirdparty).

Both with random n-gram orders, one to three references (some missing), corpus and sentence level.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from conformance.fixture_io import within
from conformance.regen.gleu import nltk_gleu
from conformance.strategies import corpus

TOL = {"rel": 1e-9, "abs": 0.0}
ORDERS = st.tuples(st.integers(1, 3), st.integers(1, 6)).filter(lambda o: o[0] <= o[1])


def _check(want, got, level: str) -> None:
    if level == "corpus":
        assert within(want, got.value, TOL), (want, got.value)
        return
    assert len(want) == len(got)
    for i, (w, g) in enumerate(zip(want, got)):
        assert within(w, g.value, TOL), (i, w, g.value)


def _missing(refs: list[list[str]], drop: list[bool]) -> list[list[str | None]]:
    """Drop some references of the later streams (a segment keeps its first reference)."""
    out: list[list[str | None]] = [list(refs[0])]
    for k, stream in enumerate(refs[1:]):
        out.append([None if drop[(k + i) % len(drop)] else r for i, r in enumerate(stream)])
    return out


@pytest.mark.refs
@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(corpus(max_segments=6, max_refs=3), ORDERS, st.sampled_from(["corpus", "sentence"]),
       st.sampled_from([("nltk", "split"), ("hf-evaluate", "13a")]), st.lists(st.booleans(), min_size=1, max_size=4))
def test_profiles_match_live_nltk(require_tool, data, orders, level, profile_tok, drop) -> None:
    require_tool("nltk", "3.10.4")
    require_tool("sacrebleu", "2.6.0")
    (hyps, refs), (low, high), (profile, tok) = data, orders, profile_tok
    refs = _missing(refs, drop)
    want = nltk_gleu(hyps, refs, level, low, high, tok)
    call = assay.score if level == "corpus" else assay.sentence_scores
    got = call("gleu", hyps, refs, profile, min_ngram_order=low, max_ngram_order=high)
    _check(want, got, level)


@pytest.mark.refs
def test_fixture_inputs_match_live_nltk(require_tool) -> None:
    """The regen target's answers are still NLTK's (the installed NLTK reproduces the frozen file)."""
    require_tool("nltk", "3.10.4")
    from conformance.regen.gleu import edge_cases
    from conformance.fixture_io import iter_cases
    frozen = {c["id"]: c["expected"][0]["score"] for _, c in iter_cases("gleu", "edge")}
    for case in edge_cases():
        assert case["expected"][0]["score"] == frozen[case["id"]], case["id"]
