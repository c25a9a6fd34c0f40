"""meteor/nltk@3.6 against live legacy NLTK (3.5 in tox's legacy-nltk35 env, ``ASSAY_LEGACY=nltk35``).

NLTK <= 3.6.2 ``meteor_score`` takes plain strings (it lowercases and splits them itself) and
differs from 3.10.4 in the stages (see the profile's description). Everything is compared to
1e-9 relative against the NLTK imported by the test process:

* hypothesis differential on strings: words with inflections, WordNet synonyms, case, punctuation
  and Greek capitals, joined by assorted whitespace; 1-3 references; default and varied knobs;
* ``lowercase=False`` through ``single_meteor_score(..., preprocess=lambda x: x)`` (legacy
  ``meteor_score`` does not pass ``preprocess`` on);
* the pieces: WordNet lemma names with ``morphy=iterate`` and the stemmer on case variants.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from conformance.references import meteor_nltk_ref as ref

pytestmark = pytest.mark.legacy("nltk35")
WORDS = ("the a an of in on to and is was be it he she they , . ! ? 's n't The A It We we I "
         "cat cats Cat CATS dog dogs car cars automobile run ran running runs quick quickly fast rapidly "
         "big large larger largest small little house houses home begin began started buy bought purchase "
         "die died dying Dying pass passed end ended ending finish agree agreed agreeing happy happiness "
         "city cities church churches go went going mouse mice leaf leaves news News sky skies Skies write "
         "Write writes writing handless wield offerer off blork blorks ΟΔΟΣ οδος Σ").split()
SPACES = [" ", " ", " ", "  ", "\t", " \n ", "\u00a0", "\u2003"]
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # legacy_tool only imports


@st.composite
def sentence(draw: Any) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), max_size=12))
    text = ""
    for k, w in enumerate(words):
        text += (draw(st.sampled_from(SPACES)) if k else "") + w
    return draw(st.sampled_from(["", " ", "\t"])) + text + draw(st.sampled_from(["", " ", "\n"]))


def assay_score(hyp: str, refs: list[str], **knobs: Any) -> float:
    return assay.sentence_scores("meteor", [hyp], [[r] for r in refs], "nltk@3.6", **knobs)[0].value


def same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


def _check_version(nltk: Any) -> None:
    assert nltk.__version__ == "3.5", f"legacy env should have nltk 3.5, found {nltk.__version__}"


@settings(max_examples=300, **SETTINGS)
@given(hyp=sentence(), refs=st.lists(sentence(), min_size=1, max_size=3))
def test_strings_default(legacy_tool, hyp, refs) -> None:
    _check_version(legacy_tool)
    want = ref.legacy_meteor(hyp, refs)
    got = assay_score(hyp, refs)
    assert same(got, want), (hyp, refs, got, want)


@settings(max_examples=100, **SETTINGS)
@given(hyp=sentence(), refs=st.lists(sentence(), min_size=1, max_size=2),
       alpha=st.sampled_from([0.0, 0.3, 0.85, 1.0]), beta=st.sampled_from([0.2, 1.0, 3.0]),
       gamma=st.sampled_from([0.0, 0.5, 1.0]), stem=st.booleans())
def test_strings_knobs(legacy_tool, hyp, refs, alpha, beta, gamma, stem) -> None:
    knobs = dict(alpha=alpha, beta=beta, gamma=gamma, stem=stem)
    want = ref.legacy_meteor(hyp, refs, knobs)
    got = assay_score(hyp, refs, **knobs)
    assert same(got, want), (hyp, refs, knobs, got, want)


@settings(max_examples=150, **SETTINGS)
@given(hyp=sentence(), ref_text=sentence())
def test_no_lowercase_single(legacy_tool, hyp, ref_text) -> None:
    want = ref.legacy_meteor(hyp, [ref_text], {"lowercase": False})
    got = assay_score(hyp, [ref_text], lowercase=False)
    assert same(got, want), (hyp, ref_text, got, want)


def test_doc_example_and_scores_above_one(legacy_tool) -> None:
    """NLTK's own doc example (0.7398 in <= 3.6.2) and a stem match counted again as a synonym."""
    hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
    refs = ["It is a guide to action that ensures that the military will forever heed Party commands",
            "It is the guiding principle which guarantees the military forces always being under the command of "
            "the Party",
            "It is the practical guide for the army always to heed the directions of the party"]
    want = ref.legacy_meteor(hyp, refs)
    assert round(want, 4) == 0.7398
    assert same(assay_score(hyp, refs), want)
    want = ref.legacy_meteor("a cats b", ["a cat b"])
    assert want > 1
    assert same(assay_score("a cats b", ["a cat b"]), want)


def test_wordnet_iterated_morphy(legacy_tool) -> None:
    """Lemma names of ``synsets(w)`` with the rules re-applied (``handless`` -> ``handle``)."""
    from assay.resources.wordnet import load
    ref.wordnet()
    from nltk.corpus import wordnet as nltk_wn
    wn = load()
    words = set(WORDS) | {"abasheded", "handless", "offerer", "less", "obsess", "findings", "dealings",
                          "geese", "churches", "axes", "better", "quickly", "solderer"}
    words |= {w + s for w in ("cat", "run", "end", "hitch", "belong", "offer", "hand") for s in
              ("s", "es", "ed", "ing", "er", "ers", "less", "eses", "ingses")}
    bad = [w for w in sorted(words)
           if set(wn.lemma_names(w, True)) != {lem.name() for s in nltk_wn.synsets(w) for lem in s.lemmas()}]
    assert not bad


def test_stemmer_case(legacy_tool) -> None:
    """Short words keep their case; the irregular table is case-sensitive (``Dying`` -> ``dy``)."""
    from nltk.stem.porter import PorterStemmer

    from assay.engine.api import make_config
    from assay.metrics.meteor.nltk_rows import _Matcher
    words = ["We", "AT", "A,", "Dying", "DYING", "News", "Skies", "Sky", "Howe", "Succeed", "Innings",
             "Cats", "Running", "Happiness", "ÉTÉS", "Write", "we", "dying", "news"]
    nltk_stemmer = PorterStemmer()
    matcher = _Matcher(make_config("meteor", "nltk@3.6", lowercase=False, synonyms=False)[0])
    assert [matcher.stem(w) for w in words] == [nltk_stemmer.stem(w) for w in words]
