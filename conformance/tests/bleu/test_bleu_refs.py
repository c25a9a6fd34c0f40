"""Differential tests: assay's sacrebleu profile against live sacrebleu 2.x on generated text."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from conformance.fixture_io import within
from conformance.references import sacrebleu_ref
from conformance.references.availability import require
from conformance.strategies import corpus

pytestmark = pytest.mark.refs
TOKENIZERS = ["13a", "intl", "zh", "char", "none"]
SMOOTH = ["exp", "none", "floor", "add-k"]


@pytest.fixture(scope="module", autouse=True)
def _sacrebleu():
    sb = require("sacrebleu")
    assert sb.__version__.startswith("2."), f"the refs env pins sacrebleu 2.x, found {sb.__version__}"


@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=6, max_refs=3), st.sampled_from(TOKENIZERS), st.sampled_from(SMOOTH), st.booleans(),
       st.booleans(), st.integers(1, 6))
def test_corpus_bleu_matches_sacrebleu(data, tokenize, smooth, eff, lowercase, order):
    hyps, refs = data
    knobs = dict(tokenize=tokenize, smooth_method=smooth, effective_order=eff, lowercase=lowercase,
                 max_ngram_order=order)
    want = sacrebleu_ref.bleu(hyps, refs, knobs, "corpus")
    got = assay.score("bleu", hyps, refs, "sacrebleu", **knobs)
    assert within(want["score"], got.value, {"rel": 1e-9, "abs": 1e-12})
    assert got.components["counts"] == want["counts"] and got.components["totals"] == want["totals"]
    assert got.components["ref_len"] == want["ref_len"]


@settings(deadline=None, max_examples=100)
@given(corpus(max_segments=4, max_refs=3), st.sampled_from(TOKENIZERS), st.sampled_from(SMOOTH))
def test_sentence_bleu_matches_sacrebleu(data, tokenize, smooth):
    hyps, refs = data
    knobs = dict(tokenize=tokenize, smooth_method=smooth)
    want = sacrebleu_ref.bleu(hyps, refs, knobs, "sentence")["segments"]
    got = assay.sentence_scores("bleu", hyps, refs, "sacrebleu", **knobs)
    for w, g in zip(want, got):
        assert within(w["score"], g.value, {"rel": 1e-9, "abs": 1e-12})


def test_text_and_signature_match_sacrebleu():
    """str(BLEUScore) at width 2 and the signature string, character for character."""
    from sacrebleu.metrics import BLEU
    hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
            ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
    for kwargs in ({}, {"smooth_method": "floor"}, {"smooth_method": "add-k", "smooth_value": 2},
                   {"lowercase": True, "tokenize": "intl", "effective_order": True}):
        metric = BLEU(**kwargs)
        want = metric.corpus_score(hyps, refs)
        got = assay.score("bleu", hyps, refs, "sacrebleu", width=2, **kwargs)
        assert got.signature == str(metric.get_signature())
        assert got.text == f"BLEU|{metric.get_signature()} = {str(want).split(' = ', 1)[1]}"
