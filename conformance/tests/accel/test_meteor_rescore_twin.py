"""The compiled re-scoring of aligned METEOR pairs (``_nltk_c.scores``, used when only alpha, beta or
gamma change) equals :func:`assay.metrics.meteor.nltk_rows.meteor_value` bit for bit, zero
denominators included; and a corpus re-scored from the kept alignments equals a fresh pure pass."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from assay.core import corpus_cache
from assay.metrics.meteor import nltk_rows

NLTK = "assay.metrics.meteor._nltk_c"


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[float, float, float, float]:
    hyp_len = draw(st.integers(0, 60))
    ref_len = draw(st.integers(0, 60))
    matches = draw(st.integers(0, min(hyp_len, ref_len)))
    chunks = draw(st.integers(min(matches, 1), matches))
    return float(hyp_len), float(ref_len), float(matches), float(chunks)


_UNIT = st.floats(0.0, 1.0)


@settings(deadline=None)
@given(st.lists(_pairs(), min_size=0, max_size=30), _UNIT, st.floats(0.0, 10.0), _UNIT)
def test_scores_equal_meteor_value(twin, pairs, alpha, beta, gamma):
    cols = [np.array(c, dtype=np.float64) for c in zip(*pairs)] if pairs else [np.zeros(0)] * 4
    got = twin(NLTK).scores(*cols, alpha, beta, gamma).tolist()
    assert got == [nltk_rows.meteor_value(*p, alpha, beta, gamma) for p in pairs]


def test_rescored_corpus_equals_a_fresh_pure_pass(twin):
    from assay.engine.evaluate import Evaluator
    hyps = ["the cat sat on the mat", "dogs were barking at night", "", "a quick brown fox"]
    refs = [["the cat is sitting on the mat", "a dog barked in the night", "nothing", "the fast brown fox"]]
    config, _ = Evaluator("meteor", hyps, refs).config("nltk")
    corpus_cache.clear()
    nltk_rows.corpus_rows(hyps, refs, config, twin(NLTK))            # aligns, keeps the pairs
    for alpha, beta, gamma in ((0.5, 2.0, 0.1), (0.85, 0.2, 0.6), (1.0, 3.0, 0.5)):
        moved = type(config)(config.metric, config.knobset, {**config.as_dict(), "alpha": alpha, "beta": beta,
                                                               "gamma": gamma})
        got = nltk_rows.corpus_rows(hyps, refs, moved, twin(NLTK)).rows    # re-scored in C
        want = nltk_rows.corpus_rows(hyps, refs, moved, None).rows          # the pure path
        np.testing.assert_array_equal(got, want)
    corpus_cache.clear()
