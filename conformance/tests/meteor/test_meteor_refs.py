"""meteor/nltk against live NLTK 3.10.4 meteor_score (WordNet 3.0 built from /usr/share/wordnet).

* hypothesis differential: random token lists from a vocabulary of inflections, WordNet synonyms,
  function words, punctuation and case, 1-3 references, default and varied knobs;
* WordNet reader vs ``nltk.corpus.wordnet.synsets`` lemma names on words, inflections and stems;
* corpus test: a sample of segments of ../shared/corpora/meteor-example (WMT09 newstest2009 and the
  X-Ray example), hypothesis vs reference, split on whitespace (``corpora_dir``).
All comparisons are to 1e-9 relative (in practice the values are bit-identical).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from conformance.references.availability import missing

pytestmark = pytest.mark.refs
NLTK_VERSION = "3.10.4"
VOCAB = ("the a an of in on to and is was were be it he she they , . ! ? ; 's n't The A It "
         "cat cats dog dogs mat mats sat sit sits sitting run ran running runs quick quickly fast rapidly "
         "big large bigger largest small little tiny house houses home car cars automobile begin began "
         "begun start started buy bought purchase die died dying pass passed away child children kid kids "
         "happy glad happier happily city cities church churches go went gone going mouse mice leaf leaves "
         "Dog CAT Run").split()


@pytest.fixture(scope="module")
def nltk_ref() -> Any:
    from conformance.references import availability
    availability.require("nltk", NLTK_VERSION)
    from conformance.references import meteor_nltk_ref as ref
    try:
        ref.wordnet()
    except (FileNotFoundError, LookupError) as exc:
        missing(f"WordNet for NLTK could not be built: {exc}")
    return ref


def assay_scores(hyps, refs, **knobs) -> list[float]:
    return [s.value for s in assay.sentence_scores("meteor", hyps, refs, "nltk", **knobs)]


def same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * abs(b)


toks = st.lists(st.sampled_from(VOCAB), max_size=15)


@settings(max_examples=300, deadline=None)
@given(hyp=toks, refs=st.lists(toks, min_size=1, max_size=3))
def test_differential_default(nltk_ref, hyp, refs) -> None:
    want = nltk_ref.meteor(hyp, refs)
    got = assay_scores([hyp], [[r] for r in refs])[0]
    assert same(got, want), (hyp, refs, got, want)


@settings(max_examples=100, deadline=None)
@given(hyp=toks, ref=toks, alpha=st.sampled_from([0.0, 0.3, 0.5, 0.85, 1.0]),
       beta=st.sampled_from([0.2, 1.0, 3.0, 4.5]), gamma=st.sampled_from([0.0, 0.5, 0.6, 1.0]))
def test_differential_parameters(nltk_ref, hyp, ref, alpha, beta, gamma) -> None:
    want = nltk_ref.meteor(hyp, [ref], alpha=alpha, beta=beta, gamma=gamma)
    got = assay_scores([hyp], [[ref]], alpha=alpha, beta=beta, gamma=gamma)[0]
    assert same(got, want), (hyp, ref, got, want)


@settings(max_examples=100, deadline=None)
@given(hyp=toks, ref=toks)
def test_differential_no_lowercase(nltk_ref, hyp, ref) -> None:
    want = nltk_ref.meteor(hyp, [ref], preprocess=lambda w: w)
    got = assay_scores([hyp], [[ref]], lowercase=False)[0]
    assert same(got, want), (hyp, ref, got, want)


def test_no_lowercase_capitalised_irregular_stems(nltk_ref) -> None:
    """preprocess=identity: NLTK 3.10.4's stemmer lowercases before its irregular table (``Dying`` -> ``die``)
    and for short words (``We`` -> ``we``)."""
    pairs = [("Dying", "died"), ("News", "new"), ("Sky", "skies"), ("We", "we"), ("Innings", "inning"),
             ("Proceed", "proceeds"), ("the Lying man", "a man lies")]
    for hyp, ref in pairs:
        want = nltk_ref.meteor(hyp.split(), [ref.split()], preprocess=lambda w: w)
        got = assay_scores([hyp], [[ref]], lowercase=False)[0]
        assert same(got, want), (hyp, ref, got, want)


def test_wordnet_lemma_names(nltk_ref) -> None:
    from assay.stemmers.porter import PorterStemmer
    from assay.resources.wordnet import load
    wn = load()
    stemmer = PorterStemmer("nltk")
    words = set(VOCAB) | {w.lower() for w in VOCAB}
    for pos in ("n", "v", "a", "r"):
        words.update(list(wn.index[pos])[::97])
        words.update(list(wn.exceptions[pos])[::13])
    words |= {stemmer.stem(w) for w in list(words)} | {w + s for w in list(words)[::7] for s in ("s", "ed", "ing", "er")}
    bad = [w for w in sorted(words) if set(wn.lemma_names(w)) != nltk_ref.lemma_names(w)]
    assert not bad, bad[:20]
    assert len(words) > 3000
    # the synset keys the corpus engine uses name the same synsets
    names = {w: {n for key in wn.synset_keys(w) for n in wn._lemma_names("nvar"[key & 3], key >> 2)} for w in words}
    bad = [w for w in sorted(words) if names[w] != nltk_ref.lemma_names(w)]
    assert not bad, bad[:20]


def _sample(path: Path, every: int) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[::every]


@pytest.mark.parametrize("hyp_file,ref_file", [
    ("newstest2009.cmu-combo.hyp.txt", "newstest2009.ref.txt"),
    ("xray.system1.hyp.txt", "xray.reference.txt"),
    ("xray.system2.hyp.txt", "xray.reference.txt"),
])
def test_corpora_meteor_example(nltk_ref, corpora_dir, hyp_file, ref_file) -> None:
    base = corpora_dir / "meteor-example"
    if not (base / hyp_file).is_file():
        pytest.skip(f"{base / hyp_file} not found")
    hyps, refs = _sample(base / hyp_file, 10), _sample(base / ref_file, 10)
    assert len(hyps) == len(refs) > 200
    got = assay_scores(hyps, [refs])
    want = nltk_ref.sentence_scores(hyps, [refs])
    bad = [i for i, (g, w) in enumerate(zip(got, want)) if not same(g, w)]
    assert not bad, [(i * 10, got[i], want[i]) for i in bad[:5]]
