"""Differential tests: assay's NLTK profiles against live NLTK on hypothesis-generated corpora.

``refs`` tests need NLTK 3.10.4 in-process (tox env ``refs``); ``legacy("nltk35")`` tests need
NLTK 3.5 in-process (tox env ``legacy-nltk35``). A missing tool fails under CI and skips locally
(``conformance/references/availability.py``).
"""
from __future__ import annotations

import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.core.errors import ToolBehaviourError
from conformance.fixture_io import within
from conformance.references import nltk_ref
from conformance.references.availability import require
from conformance.strategies import corpus

TOL = {"rel": 1e-9}
WEIGHTS = st.sampled_from([None, [1.0], [0.5, 0.5], [1 / 3] * 3, [0.25] * 4, [0.2] * 5, [0.4, 0.3, 0.2, 0.1],
                           [[1.0], [0.5, 0.5], [0.25] * 4], [[0.25] * 4, [0.2] * 5]])
refs_mark = pytest.mark.refs


@pytest.fixture(scope="module")
def nltk_latest() -> Any:
    return require("nltk", "3.10.4")


@pytest.fixture(scope="module")
def nltk35() -> Any:
    return require("nltk", "3.5")


def _knobs(method: int, weights: Any, auto_reweigh: bool) -> dict[str, Any]:
    knobs: dict[str, Any] = {"smoothing": f"method{method}", "auto_reweigh": auto_reweigh}
    if weights is not None:
        knobs["weights"] = weights
    return knobs


def _assay(level: str, hyps: list[str], refs: list[list[str]], profile: str, metric: str = "bleu",
           **knobs: Any) -> dict[str, Any]:
    try:
        if level == "corpus":
            s = assay.score(metric, hyps, refs, profile, **knobs)
            return {"score": s.components.get("scores", s.value), "error": None}
        scores = assay.sentence_scores(metric, hyps, refs, profile, **knobs)
        return {"score": [s.components.get("scores", s.value) for s in scores], "error": None}
    except ToolBehaviourError as exc:
        return {"score": None, "error": exc.tool_error}


def _same(want: dict[str, Any], got: dict[str, Any]) -> None:
    assert want["error"] == got["error"], f"nltk: {want}, assay: {got}"
    if want["error"] is None:
        assert _close(want["score"], got["score"]), f"nltk: {want['score']}, assay: {got['score']}"


def _close(a: Any, b: Any) -> bool:
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    return within(float(a), float(b), TOL)


# ---------------------------------------------------------------------------- NLTK 3.10.4: BLEU
@refs_mark
@settings(deadline=None, max_examples=200)
@given(corpus(max_segments=5, max_refs=3), st.integers(0, 7), WEIGHTS, st.booleans())
def test_corpus_bleu_matches_nltk(nltk_latest, data, method, weights, auto_reweigh):
    hyps, refs = data
    want = nltk_ref.corpus_bleu(hyps, refs, method, weights, auto_reweigh)
    _same(want, _assay("corpus", hyps, refs, "nltk", **_knobs(method, weights, auto_reweigh)))


@refs_mark
@settings(deadline=None, max_examples=120)
@given(corpus(max_segments=4, max_refs=3), st.integers(0, 7), WEIGHTS, st.booleans())
def test_sentence_bleu_matches_nltk(nltk_latest, data, method, weights, auto_reweigh):
    hyps, refs = data
    want = nltk_ref.sentence_bleu(hyps, refs, method, weights, auto_reweigh)
    _same(want, _assay("sentence", hyps, refs, "nltk", **_knobs(method, weights, auto_reweigh)))


@refs_mark
@pytest.mark.parametrize("method", [5, 6, 7])
def test_segment_order_dependence_is_reproduced(nltk_latest, method):
    """Methods 5-7 read the last segment (research §2.2: G03/G33 change when reversed)."""
    hyps = ["the cat sat on the mat", "a dog barked"]
    refs = [["the cat sat on the mat", "the dog barked loudly"]]
    for order in (slice(None), slice(None, None, -1)):
        h, r = hyps[order], [s[order] for s in refs]
        _same(nltk_ref.corpus_bleu(h, r, method), _assay("corpus", h, r, "nltk", smoothing=f"method{method}"))


@refs_mark
@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=3, max_refs=3), st.integers(0, 7), st.floats(0.01, 1.0), st.floats(0.5, 9.0),
       st.floats(1.0, 9.0))
def test_smoothing_parameters_match_nltk(nltk_latest, data, method, epsilon, alpha, k):
    """SmoothingFunction(epsilon, alpha, k) through the NLTK-shaped front end (assay.compat.nltk)."""
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    from assay.compat import nltk as compat
    hyps, refs = data
    lor, hyp = nltk_ref.to_nltk(hyps, refs)
    fn = getattr(SmoothingFunction(epsilon=epsilon, alpha=alpha, k=k), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = {"score": corpus_bleu(lor, hyp, smoothing_function=fn), "error": None}
        except Exception as exc:
            want = {"score": None, "error": type(exc).__name__}
    try:
        got = {"score": compat.corpus_bleu(lor, hyp, smoothing_function=fn), "error": None}
    except ToolBehaviourError as exc:
        got = {"score": None, "error": exc.tool_error}
    _same(want, got)


@refs_mark
def test_compat_matches_nltk_on_token_lists(nltk_latest):
    from nltk.translate.bleu_score import corpus_bleu, sentence_bleu
    from nltk.translate.nist_score import corpus_nist, sentence_nist
    from assay.compat import nltk as compat
    lor = [[["the", "cat", "sat", "on", "the", "mat"], ["a", "cat", "is", "on", "the", "mat"]],
           [["the", "dog", "barked"]], [["it", "was", "raining", "hard", "all", "day"]]]
    hyp = [["the", "cat", "is", "on", "a", "mat"], ["a", "dog", "barked", "loudly"], ["it", "was", "raining"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for weights in [(0.25, 0.25, 0.25, 0.25), [0.25] * 4, (0.5, 0.5), [(1.0,), (0.5, 0.5), (0.25,) * 4]]:
            for auto in (False, True):
                assert _close(corpus_bleu(lor, hyp, weights=weights, auto_reweigh=auto),
                              compat.corpus_bleu(lor, hyp, weights=weights, auto_reweigh=auto))
                assert _close(sentence_bleu(lor[2], hyp[2], weights=weights, auto_reweigh=auto),
                              compat.sentence_bleu(lor[2], hyp[2], weights=weights, auto_reweigh=auto))
        assert _close(corpus_nist(lor, hyp, n=3), compat.corpus_nist(lor, hyp, n=3))
        assert _close(sentence_nist(lor[0], hyp[0]), compat.sentence_nist(lor[0], hyp[0]))


@refs_mark
def test_nltk_string_quirk_is_real(nltk_latest):
    """The quirk assay.compat.nltk refuses (research §2.1): NLTK scores a string hypothesis
    character by character."""
    from nltk.translate.bleu_score import sentence_bleu
    from assay.compat import nltk as compat
    with pytest.raises(assay.core.errors.InputError):
        compat.sentence_bleu(["the cat sat on the mat"], "the cat sat on a mat")
    assert sentence_bleu(["the cat sat on the mat"], "the cat sat on a mat") == pytest.approx(0.776, abs=5e-4)


# ---------------------------------------------------------------------------- NLTK 3.10.4: NIST
@refs_mark
@settings(deadline=None, max_examples=200)
@given(corpus(max_segments=5, max_refs=4), st.sampled_from([5, 5, 4, 3, 2, 1, 6]))
def test_corpus_nist_matches_nltk(nltk_latest, data, n):
    hyps, refs = data
    want = nltk_ref.corpus_nist(hyps, refs, n)
    _same(want, _assay("corpus", hyps, refs, "nltk", metric="nist", max_ngram_order=n))


@refs_mark
@settings(deadline=None, max_examples=120)
@given(corpus(max_segments=4, max_refs=4), st.sampled_from([5, 4, 3, 1]))
def test_sentence_nist_matches_nltk(nltk_latest, data, n):
    hyps, refs = data
    want = nltk_ref.sentence_nist(hyps, refs, n)
    _same(want, _assay("sentence", hyps, refs, "nltk", metric="nist", max_ngram_order=n))


@refs_mark
@settings(deadline=None, max_examples=300)
@given(st.lists(st.lists(st.sampled_from("abc"), max_size=8), min_size=2, max_size=12), st.integers(1, 5))
def test_nist_ties_between_references_match_nltk(nltk_latest, token_lists, n):
    """Tiny vocabularies make references tie on the info sum; the choice (and so the length) must
    follow NLTK exactly, which depends on its left-to-right float sums."""
    hyps = [" ".join(token_lists[0])]
    refs = [[" ".join(t)] for t in token_lists[1:]]
    want = nltk_ref.corpus_nist(hyps, refs, n)
    _same(want, _assay("corpus", hyps, refs, "nltk", metric="nist", max_ngram_order=n))


# ---------------------------------------------------------------------------- NLTK 3.5 (legacy env)
@pytest.mark.legacy("nltk35")
@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=5, max_refs=3), st.sampled_from([0, 1, 2, 3, 5, 6]),
       st.sampled_from([None, [1.0], [0.5, 0.5], [1 / 3] * 3, [0.2] * 5]))
def test_nltk35_corpus_bleu(nltk35, data, method, weights):
    """The behaviours the nltk@3.5 profile models (methods 0-3, 5, 6; one weight tuple; no auto_reweigh)."""
    hyps, refs = data
    want = nltk_ref.corpus_bleu(hyps, refs, method, weights, False)
    _same(want, _assay("corpus", hyps, refs, "nltk@3.5", **_knobs(method, weights, False)))


@pytest.mark.legacy("nltk35")
@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=4, max_refs=3), st.sampled_from([4, 7]), st.booleans())
def test_nltk35_method4_and_auto_reweigh(nltk35, data, method, auto_reweigh):
    hyps, refs = data
    want = nltk_ref.corpus_bleu(hyps, refs, method, None, auto_reweigh)
    _same(want, _assay("corpus", hyps, refs, "nltk@3.5", **_knobs(method, None, auto_reweigh)))
