"""Property tests of the BLEU family (hypothesis): invariants every profile must keep."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, reject, settings
from hypothesis import strategies as st

import assay
from assay.tokenizers import lowercase_text
from conformance.strategies import corpus, segment

PROFILES = ["sacrebleu", "sacrebleu@1", "nltk", "multi-bleu", "multi-bleu-detok", "mteval-v13a"]
CORPUS_ORDER_FREE = ["sacrebleu", "sacrebleu@1", "multi-bleu", "multi-bleu-detok", "mteval-v13a"]
MAX = {"sacrebleu": 100.0, "sacrebleu@1": 100.0, "multi-bleu": 100.0, "multi-bleu-detok": 100.0,
       "nltk": 1.0, "mteval-v13a": 1.0}


def _score(profile: str, hyps, refs, **knobs) -> float:
    """The score; inputs on which the reproduced tool itself fails (sacrebleu 1.x with no valid
    reference for a segment) are not examples of these properties."""
    try:
        return assay.score("bleu", hyps, refs, profile, **knobs).value
    except assay.ToolBehaviourError:
        reject()


@settings(deadline=None)
@given(corpus(), st.sampled_from(PROFILES))
def test_bounds_and_finite(data, profile):
    hyps, refs = data
    value = _score(profile, hyps, refs)
    assert math.isfinite(value)
    assert 0.0 <= value <= MAX[profile] * (1 + 1e-12)


@settings(deadline=None)
@given(st.lists(segment(), min_size=1, max_size=5), st.sampled_from(PROFILES))
def test_identity_gives_maximum_when_long_enough(hyps, profile):
    """A hypothesis equal to its reference scores the maximum once every order has n-grams."""
    hyps = [h + " w1 w2 w3 w4" for h in hyps]
    assert math.isclose(_score(profile, hyps, [hyps]), MAX[profile], rel_tol=1e-12)


@settings(deadline=None)
@given(corpus(), st.sampled_from(CORPUS_ORDER_FREE), st.randoms(use_true_random=False))
def test_corpus_order_invariance(data, profile, rnd):
    hyps, refs = data
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    shuffled = ([hyps[i] for i in order], [[s[i] for i in order] for s in refs])
    assert math.isclose(_score(profile, hyps, refs), _score(profile, *shuffled), rel_tol=1e-12, abs_tol=1e-300)


@settings(deadline=None)
@given(corpus(), st.sampled_from(CORPUS_ORDER_FREE))
def test_duplicated_corpus_invariance(data, profile):
    """Micro-averaged BLEU of a corpus repeated twice equals that of the corpus — without smoothing:
    exp and floor smoothing divide by the corpus totals, so they are not duplication-invariant."""
    hyps, refs = data
    doubled = (hyps + hyps, [s + s for s in refs])
    assert math.isclose(_score(profile, hyps, refs, smooth_method="none"),
                        _score(profile, *doubled, smooth_method="none"), rel_tol=1e-9, abs_tol=1e-300)


@settings(deadline=None)
@given(corpus(), st.sampled_from(PROFILES))
def test_sentence_rows_sum_to_corpus_rows(data, profile):
    hyps, refs = data
    _score(profile, hyps, refs)
    stats, config, prof, streams = assay.compute_stats("bleu", hyps, refs, profile)
    parts = [assay.compute_stats("bleu", [h], [[s[i]] for s in refs], profile)[0] for i, h in enumerate(hyps)]
    assert np.array_equal(stats.rows, np.vstack([p.rows for p in parts]))


@settings(deadline=None)
@given(corpus(), st.sampled_from(["sacrebleu", "multi-bleu", "mteval-v13a"]))
def test_lowercase_knob_equals_lowercased_input(data, profile):
    hyps, refs = data
    mode = assay.make_config("bleu", profile)[0].lowercase_mode
    lowered = ([lowercase_text(h, mode) for h in hyps], [[lowercase_text(r, mode) for r in s] for s in refs])
    assert _score(profile, hyps, refs, lowercase=True) == _score(profile, *lowered, lowercase=False)


@settings(deadline=None)
@given(corpus())
def test_sentence_scores_match_single_segment_corpora(data):
    """sentence_scores == scoring each segment alone with the sentence-level knobs."""
    hyps, refs = data
    sent = assay.sentence_scores("bleu", hyps, refs, "sacrebleu")
    for i, h in enumerate(hyps):
        alone = assay.score("bleu", [h], [[s[i]] for s in refs], "sacrebleu", effective_order=True)
        assert sent[i].value == alone.value
