"""Properties of meteor/nltk that hold by construction of NLTK's formula (no reference tool needed).

* identical texts give the most the profile allows: 1 − γ·(1/n)^β for n reference tokens, and no
  hypothesis scores more against that reference;
* adding a reference never lowers the max-over-references score;
* exact-only matching of distinct tokens with α = 0.5 is symmetric in hypothesis and reference;
* corpus = mean of the segment scores (assay's choice), also from summed rows;
* bad input and a missing WordNet are clear errors; ``synonyms=off`` needs no WordNet;
* the whole-corpus engine and the per-pair greedy loop agree (meteor/nltk and meteor/nltk@3.6).
Tests that use WordNet skip locally (fail under CI) when /usr/share/wordnet is absent.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.core.errors import InputError, MissingDependencyError
from assay.resources.wordnet import resolve_dir
from conformance.references.availability import missing

WORDS = ["the", "cat", "cats", "sat", "sit", "sitting", "on", "mat", "mats", "dog", "big", "large", "ran",
         "run", "quickly", "fast", "a", "an", "house", "home", ",", ".", "The", "Cat", "die", "pass"]
tokens = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12)
OFFLINE = {"synonyms": False}


@pytest.fixture(scope="module")
def wordnet_dir() -> str:
    try:
        return str(resolve_dir())
    except MissingDependencyError as exc:
        missing(f"WordNet 3.0 is not installed: {exc}")
        raise


def sent(hyps, refs, **knobs):
    return [s.value for s in assay.sentence_scores("meteor", hyps, refs, "nltk", **knobs)]


def test_identical_formula_and_maximum(wordnet_dir: str) -> None:
    for n in (1, 2, 6, 20):
        text = " ".join(f"w{i}" for i in range(n))
        assert sent([text], [[text]]) == [1 - 0.5 * (1 / n) ** 3]


@settings(max_examples=150, deadline=None)
@given(hyp=tokens, ref=tokens.filter(bool))
def test_identical_is_the_maximum(hyp, ref) -> None:
    best = sent([ref], [[ref]], **OFFLINE)[0]
    got = sent([hyp], [[ref]], **OFFLINE)[0]
    assert 0.0 <= got <= best <= 1.0


@settings(max_examples=150, deadline=None)
@given(hyp=tokens, refs=st.lists(tokens, min_size=1, max_size=3), extra=tokens)
def test_adding_a_reference_never_lowers(hyp, refs, extra) -> None:
    before = sent([hyp], [[r] for r in refs], **OFFLINE)[0]
    after = sent([hyp], [[r] for r in refs] + [[extra]], **OFFLINE)[0]
    assert after >= before
    assert after == max(before, sent([hyp], [[extra]], **OFFLINE)[0])


@settings(max_examples=150, deadline=None)
@given(hyp=st.lists(st.sampled_from(WORDS), unique=True, max_size=10),
       ref=st.lists(st.sampled_from(WORDS), unique=True, max_size=10))
def test_symmetric_exact_distinct_tokens(hyp, ref) -> None:
    knobs = dict(stem=False, synonyms=False, lowercase=False, alpha=0.5)
    assert sent([hyp], [[ref]], **knobs) == sent([ref], [[hyp]], **knobs)


def test_corpus_is_mean_of_segments() -> None:
    hyps = ["the cat sat", "a dog ran fast", "", "mat"]
    refs = [["the cat sat on the mat", "the dog ran", "x", "mat"]]
    seg = sent(hyps, refs, **OFFLINE)
    corpus = assay.score("meteor", hyps, refs, "nltk", **OFFLINE)
    assert corpus.value == pytest.approx(sum(seg) / len(seg), rel=1e-12)
    assert seg[2] == 0.0
    stats, config, _, _ = assay.compute_stats("meteor", hyps, refs, "nltk", **OFFLINE)
    from assay.engine.registry import get_family
    sums = np.vstack([stats.select([0, 1]).total(), stats.select([3, 3, 2]).total()])
    got = get_family("meteor").scores_from_sums(sums, config)
    assert got[0] == pytest.approx((seg[0] + seg[1]) / 2, rel=1e-12)
    assert got[1] == pytest.approx((2 * seg[3] + seg[2]) / 3, rel=1e-12)


def test_components() -> None:
    s = assay.sentence_scores("meteor", ["the cat was sat on the mat"], [["the cat sat on the mat"]], "nltk",
                              **OFFLINE)[0]
    c = s.components
    assert (c["matches"], c["chunks"], c["hyp_len"], c["ref_len"]) == (6, 2, 7, 6)
    assert c["precision"] == 6 / 7 and c["recall"] == 1.0
    assert s.value == pytest.approx((1 - c["penalty"]) * c["fmean"], rel=1e-15)


def test_token_lists_and_strings_agree() -> None:
    assert sent([["the", "cat"]], [[["a", "cat"]]], **OFFLINE) == sent(["the cat"], [["a  cat"]], **OFFLINE)


def test_missing_wordnet_is_an_error(tmp_path) -> None:
    with pytest.raises(MissingDependencyError, match="wordnet-base"):
        sent(["a"], [["b"]], wordnet=str(tmp_path))
    assert sent(["a"], [["b"]], wordnet=str(tmp_path), synonyms=False) == [0.0]


def test_bad_input() -> None:
    with pytest.raises(InputError):
        sent(["a"], [[None]], **OFFLINE)
    with pytest.raises(InputError):
        sent([3], [["a"]], **OFFLINE)


def test_bad_knob() -> None:
    with pytest.raises(assay.KnobError):
        sent(["a"], [["a"]], alpha="nan")


def test_wordnet_reader(wordnet_dir: str) -> None:
    from assay.resources.wordnet import load
    wn = load(wordnet_dir)
    assert "domestic_dog" in wn.lemma_names("dog")
    assert "goose" in wn.lemma_names("geese")            # noun.exc
    assert wn.morphy("churches", "n") == ["church"]      # ches -> ch
    assert "die" in wn.lemma_names("pass")
    assert not wn.lemma_names("quickli")                 # the stem NLTK's stage 3 looks up
    assert math.isclose(sent(["he ran quickly"], [["he ran rapidly"]])[0], 0.625)


@settings(max_examples=100, deadline=None)
@given(hyps=st.lists(tokens, min_size=1, max_size=4), streams=st.lists(st.lists(tokens, min_size=4, max_size=4),
                                                                       min_size=1, max_size=3),
       profile=st.sampled_from(["nltk", "nltk@3.6"]), lowercase=st.booleans())
def test_corpus_engine_equals_pairwise_alignment(wordnet_dir: str, hyps, streams, profile, lowercase) -> None:
    """The whole-corpus alignment (numpy joins) and the per-pair greedy loop (used when the corpus
    is too large for the joins' integer keys) give the same rows, for both NLTK generations."""
    from assay.engine.api import compute_stats
    from assay.metrics.meteor import nltk_rows as meteor
    refs = [s[:len(hyps)] for s in streams]
    fast = compute_stats("meteor", hyps, refs, profile, level="sentence", lowercase=lowercase)[0].rows
    original = meteor._align_units

    def too_large(*args, **kwargs):
        raise OverflowError("forced")
    meteor._align_units = too_large
    try:
        slow = compute_stats("meteor", hyps, refs, profile, level="sentence", lowercase=lowercase)[0].rows
    finally:
        meteor._align_units = original
    assert np.array_equal(fast, slow)


def test_synset_keys_are_those_of_morphy(wordnet_dir: str) -> None:
    """:meth:`WordNet.synset_keys` (with its shortcut for words no rule or exception touches) finds the
    synsets of the base forms :meth:`WordNet.morphy` gives, in every part of speech."""
    from assay.resources.wordnet import _POS_CODE, WordNet
    wn = WordNet(wordnet_dir)
    words = WORDS + ["geese", "churches", "men", "running", "bigger", "biggest", "quickli", "Paris", "paris",
                     "axes", "leaves", "was", "better", "dying", "news", "", "s", "ing", "blork", "well"]
    for word in words:
        want = {o * 4 + code for pos, code in _POS_CODE.items() for base in wn.morphy(word.lower(), pos)
                for o in wn.index[pos][base]}
        assert wn.synset_keys(word) == want, word
        assert wn.listed(word) == bool(wn.keys_with_lemma(word)), word
