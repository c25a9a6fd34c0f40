"""Properties of NIST's ``ref_length=corpus-mean`` (the ``nist/e2e-mteval-v13a-sig`` profile).

mteval-v13a-sig.pl (e2e-metrics) divides all reference words by the mean number of non-empty
references per segment; mteval-v13a.pl by the number of reference streams, empty ones included.
No reference tool is needed for these:

- with every segment holding the same number of non-empty references the two agree;
- a missing reference (``None``) and an empty one (``""``) are the same to ``corpus-mean``, while
  ``average`` counts an empty one as a reference of length 0;
- the corpus value is a function of the summed rows: rows of chunks scored under the corpus
  context give the corpus score (``refs_counted`` and ``segments`` add up);
- the information sums do not depend on the knob (only the length penalty does).
"""
from __future__ import annotations

import math

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import assay
from assay.core.stats import SegmentStats
from assay.engine.api import compute_stats
from assay.engine.registry import get_family
from conformance.strategies import corpus

PLAIN = {"tokenize": "none", "lowercase": False}
NIST = get_family("nist")


def _value(hyps, refs, **knobs) -> float:
    return assay.score("nist", hyps, refs, "mteval-v13a", **{**PLAIN, **knobs}).value


@settings(deadline=None, max_examples=20)
@given(corpus(max_segments=5, max_refs=3))
def test_full_reference_sets_agree_with_average(data):
    hyps, refs = data
    assume(all(r.split() for s in refs for r in s))
    assert math.isclose(_value(hyps, refs, ref_length="corpus-mean"), _value(hyps, refs), rel_tol=1e-12,
                        abs_tol=1e-12)


@settings(deadline=None, max_examples=20)
@given(corpus(max_segments=5, max_refs=3), st.data())
def test_missing_and_empty_references_are_the_same(data, draw):
    hyps, refs = data
    assume(len(refs) > 1 and all(s[0].split() for s in refs[:1]) and all(r.split() for r in refs[0]))
    holes = [[draw.draw(st.booleans()) if k > 0 else False for _ in s] for k, s in enumerate(refs)]
    as_none = [[None if h else r for r, h in zip(s, hs)] for s, hs in zip(refs, holes)]
    as_empty = [["" if h else r for r, h in zip(s, hs)] for s, hs in zip(refs, holes)]
    a = _value(hyps, as_none, ref_length="corpus-mean")
    b = _value(hyps, as_empty, ref_length="corpus-mean")
    assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_empty_padding_moves_average_but_not_corpus_mean():
    hyps = ["a b c d", "e f"]
    refs = [["a b c d e f", "e f g h"], [None, "e f g h i j"]]
    padded = [[r if r is not None else "" for r in s] for s in refs]
    assert _value(hyps, refs, ref_length="corpus-mean") == _value(hyps, padded, ref_length="corpus-mean")
    assert _value(hyps, padded) != _value(hyps, refs)


@settings(deadline=None, max_examples=15)
@given(corpus(max_segments=6, max_refs=3), st.integers(1, 5))
def test_rows_of_chunks_sum_to_the_corpus(data, cut):
    hyps, refs = data
    assume(len(hyps) >= 2 and any(r.split() for s in refs for r in s))
    stats, config, _, _ = compute_stats("nist", hyps, refs, "e2e-mteval-v13a-sig", **PLAIN)
    cut = min(cut, len(hyps) - 1)
    parts = [NIST.segment_stats(hyps[a:b], [s[a:b] for s in refs], config, stats.context)
             for a, b in ((0, cut), (cut, len(hyps)))]
    rows = SegmentStats(stats.columns, np.vstack([p.rows for p in parts]), stats.context)
    np.testing.assert_allclose(rows.total(), stats.total(), rtol=1e-12, atol=1e-12)
    assert math.isclose(NIST.score_stats(rows, config)[0], NIST.score_stats(stats, config)[0], rel_tol=1e-12,
                        abs_tol=1e-12)


@settings(deadline=None, max_examples=15)
@given(corpus(max_segments=5, max_refs=3))
def test_only_the_penalty_depends_on_the_knob(data):
    hyps, refs = data
    assume(any(r.split() for s in refs for r in s))
    a = assay.score("nist", hyps, refs, "mteval-v13a", **PLAIN).components
    c = assay.score("nist", hyps, refs, "mteval-v13a", ref_length="corpus-mean", **PLAIN).components
    assert a["info"] == c["info"] and a["totals"] == c["totals"]
