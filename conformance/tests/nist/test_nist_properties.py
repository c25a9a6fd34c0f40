"""Properties of the NIST family (no reference tool needed).

- identity gives the maximum: scoring the references themselves maximises every order's info sum,
  and no hypothesis at least as long as its reference scores higher;
- union clipping (mteval) gives info sums >= the best single reference (NLTK), order by order;
- with one reference the mteval and NLTK profiles agree (research §3: identical to 1e-12);
- rows: the corpus score is a function of the summed rows; rows computed chunk by chunk with
  the corpus context equal the corpus rows; a sentence score is the score of a one-segment corpus.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import assay
from assay.engine.api import compute_stats
from assay.core.errors import ToolBehaviourError
from assay.engine.registry import get_family
from conformance.strategies import corpus, segment

PLAIN = {"tokenize": "none", "lowercase": False}
NIST = get_family("nist")


def _rows(hyps, refs, profile="mteval-v13a", **knobs):
    stats, config, _, _ = compute_stats("nist", hyps, refs, profile, **{**PLAIN, **knobs})
    return stats, config


def _info(stats, n=5):
    c = stats.columns
    return stats.rows[:, c.index("info1"):c.index("info1") + n]


@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=4, max_refs=1))
def test_identity_maximises_info_and_score(data):
    hyps, refs = data
    ref_stream = refs[0]
    assume(any(r.split() for r in ref_stream))   # all-empty references: mteval dies, NLTK divides by 0
    # any hypothesis at least as long as its reference (so the penalty is 1 for both)
    longer = [h + " " + r if len(h.split()) < len(r.split()) else h for h, r in zip(hyps, ref_stream)]
    for profile in ("mteval-v13a", "nltk"):
        ident, _ = _rows(ref_stream, refs, profile)
        other, _ = _rows(longer, refs, profile)
        assert np.all(_info(other) <= _info(ident) * (1 + 1e-12) + 1e-12)
        try:
            best = assay.score("nist", ref_stream, refs, profile, **PLAIN)
            got = assay.score("nist", longer, refs, profile, **PLAIN)
        except ToolBehaviourError:
            continue   # NLTK: an order without n-grams
        assert best.components["penalty"] == 1.0
        assert got.value <= best.value * (1 + 1e-12) + 1e-12


@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=4, max_refs=4))
def test_union_info_at_least_best_single(data):
    hyps, refs = data
    union, _ = _rows(hyps, refs, "mteval-v13a")
    single, _ = _rows(hyps, refs, "mteval-v13a", multi_ref="best-single")
    assert np.all(_info(union) >= _info(single) - 1e-9 * np.abs(_info(union)) - 1e-12)
    # the hypothesis-side counts do not depend on the rule
    c = union.columns
    assert np.array_equal(union.rows[:, c.index("total1"):c.index("total1") + 5],
                          single.rows[:, c.index("total1"):c.index("total1") + 5])


@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=5, max_refs=1), st.sampled_from([5, 4, 3, 1]))
def test_single_reference_profiles_agree(data, n):
    hyps, refs = data
    mteval = assay.score("nist", hyps, refs, "mteval-v13a", max_ngram_order=n, **PLAIN)
    try:
        nltk = assay.score("nist", hyps, refs, "nltk", max_ngram_order=n)
    except ToolBehaviourError as exc:
        assert exc.tool_error == "ZeroDivisionError"
        assert 0 in mteval.components["totals"] or all(not r.split() for r in refs[0])
        return
    assert math.isclose(mteval.value, nltk.value, rel_tol=1e-9, abs_tol=1e-12)
    assert mteval.components["info"] == pytest.approx(nltk.components["info"], rel=1e-12, abs=1e-12)


@settings(deadline=None, max_examples=100)
@given(corpus(max_segments=6, max_refs=3), st.sampled_from(["mteval-v13a", "nltk"]), st.integers(1, 5))
def test_rows_sum_to_the_corpus(data, profile, split):
    hyps, refs = data
    stats, config = _rows(hyps, refs, profile)
    try:
        value, comps = NIST.score_stats(stats, config)
    except ToolBehaviourError:
        return
    c = stats.columns
    assert comps["info"] == pytest.approx(list(stats.rows[:, c.index("info1"):c.index("info1") + 5].sum(axis=0)))
    assert comps["totals"] == list(stats.rows[:, c.index("total1"):c.index("total1") + 5].sum(axis=0))
    # chunked: rows of a part, computed with the whole corpus's context, are the corpus rows
    k = min(split, len(hyps))
    part = NIST.segment_stats(hyps[:k], [s[:k] for s in refs], config, context=stats.context)
    assert np.allclose(part.rows, stats.rows[:k], rtol=1e-12, atol=1e-12)
    rest = NIST.segment_stats(hyps[k:], [s[k:] for s in refs], config, context=stats.context) if k < len(hyps) else None
    whole = stats if rest is None else type(stats).concat([part, rest])
    assert NIST.score_stats(whole, config)[0] == pytest.approx(value, rel=1e-12, abs=1e-12)


@settings(deadline=None, max_examples=100)
@given(corpus(max_segments=4, max_refs=3), st.sampled_from(["mteval-v13a", "nltk"]))
def test_sentence_score_is_a_one_segment_corpus(data, profile):
    """NLTK's sentence_nist = corpus_nist([refs], [hyp]): info weights from that segment's references."""
    hyps, refs = data
    try:
        sentences = assay.sentence_scores("nist", hyps, refs, profile, **PLAIN)
    except ToolBehaviourError:
        return
    for i, s in enumerate(sentences):
        alone = assay.score("nist", [hyps[i]], [[r[i]] for r in refs], profile, **PLAIN)
        assert s.value == pytest.approx(alone.value, rel=1e-12, abs=1e-12)


@settings(deadline=None, max_examples=80)
@given(corpus(max_segments=4, max_refs=3))
def test_corpus_order_invariance_and_bounds(data):
    hyps, refs = data
    a = assay.score("nist", hyps, refs, "mteval-v13a", **PLAIN)
    b = assay.score("nist", hyps[::-1], [s[::-1] for s in refs], "mteval-v13a", **PLAIN)
    assert a.value == pytest.approx(b.value, rel=1e-12, abs=1e-12)
    assert a.value >= 0 and 0 <= a.components["penalty"] <= 1


@given(segment(), segment())
@settings(deadline=None, max_examples=50)
def test_penalty_shape(hyp, ref):
    from assay.metrics.nist.family import length_penalty
    assert length_penalty(2 / 3) == pytest.approx(0.5)
    assert length_penalty(1.0) == 1.0 and length_penalty(3.0) == 1.0 and length_penalty(0.0) == 0.0
    r = len(hyp.split()) / max(len(ref.split()), 1)
    assert 0.0 <= length_penalty(r) <= 1.0
