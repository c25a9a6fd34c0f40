"""Properties of GLEU (hypothesis), on assay alone: each follows from the definition
``matches / max(hyp n-grams, ref n-grams)`` with orders pooled (Wu et al. 2016).

- bounds: 0 <= GLEU <= 1; identity: a non-empty hypothesis equal to its reference scores 1;
- symmetry: with one reference, swapping hypothesis and reference keeps every sentence score
  (matches are symmetric, the total is the larger side);
- corpus statistics are the sums of the sentence statistics; corpus-order and duplicate-corpus
  invariance (a ratio of sums);
- more references never lower a sentence score (the best ratio is kept);
- ``scale=100`` is 100 times the value; ``averaging=segments`` is the mean of the sentence scores;
- the compiled n-gram twin and the pure path give the same rows.
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.engine.registry import get_family
from conformance.strategies import corpus, segment

PROFILES = st.sampled_from(["nltk", "hf-evaluate"])
ORDERS = st.tuples(st.integers(1, 3), st.integers(1, 5)).filter(lambda o: o[0] <= o[1])


@settings(deadline=None, max_examples=80)
@given(corpus(max_segments=5, max_refs=3), PROFILES, ORDERS)
def test_bounds_and_sums(data, profile, orders) -> None:
    hyps, refs = data
    knobs = dict(min_ngram_order=orders[0], max_ngram_order=orders[1])
    total = assay.score("gleu", hyps, refs, profile, **knobs)
    sentences = assay.sentence_scores("gleu", hyps, refs, profile, **knobs)
    assert 0.0 <= total.value <= 1.0
    assert all(0.0 <= s.value <= 1.0 for s in sentences)
    for part in ("matches", "total"):
        assert total.components[part] == sum(s.components[part] for s in sentences)
    m, t = total.components["matches"], total.components["total"]
    assert total.value == (m / t if t else 0.0)
    mean = assay.score("gleu", hyps, refs, profile, averaging="segments", **knobs).value
    assert math.isclose(mean, sum(s.value for s in sentences) / len(sentences), rel_tol=1e-12, abs_tol=1e-15)
    assert assay.score("gleu", hyps, refs, profile, scale=100, **knobs).value == 100 * total.value


@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=5, max_refs=2), PROFILES, st.randoms(use_true_random=False))
def test_order_and_duplicate_invariance(data, profile, rnd) -> None:
    hyps, refs = data
    value = assay.score("gleu", hyps, refs, profile).value
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    shuffled = assay.score("gleu", [hyps[i] for i in order], [[s[i] for i in order] for s in refs], profile)
    doubled = assay.score("gleu", hyps * 2, [s * 2 for s in refs], profile)
    assert shuffled.value == value
    assert doubled.value == value


@settings(deadline=None, max_examples=80)
@given(segment(), segment(), PROFILES, ORDERS)
def test_symmetry_and_identity(hyp, ref, profile, orders) -> None:
    knobs = dict(min_ngram_order=orders[0], max_ngram_order=orders[1])
    forward = assay.sentence_scores("gleu", [hyp], [[ref]], profile, **knobs)[0].value
    backward = assay.sentence_scores("gleu", [ref], [[hyp]], profile, **knobs)[0].value
    assert forward == backward
    same = assay.sentence_scores("gleu", [hyp], [[hyp]], profile, **knobs)[0]
    assert same.value == (1.0 if same.components["total"] else 0.0)


@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=4, max_refs=3), PROFILES)
def test_more_references_never_lower_a_sentence(data, profile) -> None:
    hyps, refs = data
    one = assay.sentence_scores("gleu", hyps, refs[:1], profile)
    every = assay.sentence_scores("gleu", hyps, refs, profile)
    assert all(b.value >= a.value for a, b in zip(one, every))
    first = assay.sentence_scores("gleu", hyps, refs, profile, multi_ref="first")
    assert [s.value for s in first] == [s.value for s in one]


@settings(deadline=None, max_examples=40)
@given(corpus(max_segments=5, max_refs=3), PROFILES, ORDERS)
def test_compiled_and_pure_rows_agree(data, profile, orders) -> None:
    from assay.text import ngrams
    hyps, refs = data
    config, _ = assay.make_config("gleu", profile, "corpus", min_ngram_order=orders[0], max_ngram_order=orders[1])
    family = get_family("gleu")
    fast = family.segment_stats(hyps, refs, config).rows
    saved = ngrams._compiled
    ngrams._compiled = None
    try:
        pure = family.segment_stats(hyps, refs, config).rows
    finally:
        ngrams._compiled = saved
    assert np.array_equal(fast, pure)


def test_first_reference_is_the_segments_first_present_one() -> None:
    """``multi_ref=first`` keeps the first reference a segment has (a None in the first stream falls
    through to the next stream), as a per-segment list's ``refs[0]`` would."""
    hyps = ["a b c", "d e f"]
    streams = [[None, "d e x"], ["a b c", "d e f"]]
    first = assay.sentence_scores("gleu", hyps, streams, "nltk", multi_ref="first")
    by_hand = assay.sentence_scores("gleu", hyps, [["a b c", "d e x"]], "nltk")
    assert [s.value for s in first] == [s.value for s in by_hand] == [1.0, by_hand[1].value]
    assert by_hand[1].value < 1.0
