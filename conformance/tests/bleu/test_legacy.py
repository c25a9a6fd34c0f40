"""Legacy profiles against old tool versions installed in tox's legacy envs.

``ASSAY_LEGACY=sacrebleu1`` (sacrebleu 1.5.x installed): profile ``sacrebleu@1``;
``ASSAY_LEGACY=nltk35`` (nltk 3.5 installed): profile ``nltk@3.5``.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from conformance.fixture_io import within
from conformance.references import sacrebleu_ref
from conformance.references.availability import require
from conformance.strategies import corpus

pytestmark = pytest.mark.legacy
LEGACY = os.environ.get("ASSAY_LEGACY", "")


@pytest.mark.skipif(LEGACY != "sacrebleu1", reason="runs in tox's legacy-sacrebleu1 env (ASSAY_LEGACY=sacrebleu1)")
@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=5, max_refs=3), st.sampled_from(["13a", "intl", "zh", "char", "none"]),
       st.sampled_from(["exp", "none", "floor", "add-k"]), st.booleans(), st.booleans())
def test_sacrebleu1_corpus(data, tokenize, smooth, eff, lowercase):
    sb = require("sacrebleu")
    assert sb.__version__.startswith("1."), f"legacy env should have sacrebleu 1.x, found {sb.__version__}"
    hyps, refs = data
    knobs = dict(tokenize=tokenize, smooth_method=smooth, effective_order=eff, lowercase=lowercase)
    try:
        want = sacrebleu_ref.bleu(hyps, refs, knobs, "corpus")
    except EOFError:
        with pytest.raises(assay.ToolBehaviourError):
            assay.score("bleu", hyps, refs, "sacrebleu@1", **knobs)
        return
    got = assay.score("bleu", hyps, refs, "sacrebleu@1", **knobs)
    assert within(want["score"], got.value, {"rel": 1e-9, "abs": 1e-12})
