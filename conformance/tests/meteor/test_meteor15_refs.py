"""meteor/meteor-1.5 differential runs against the live METEOR 1.5 jar (java + pycocoevalcap's jar).

* generated raw pairs (new seed, two references) through one jar process over -stdio: every segment
  score and the corpus score equal the jar's within rel 1e-12 (KD-METEOR-01: the last bit of the
  double may differ);
* random small-vocabulary pairs rich in repeated, inflected and paraphrasable words, under random beam
  sizes and module lists (the alignment search's tie-breaking and beam effects): the jar's alignment
  statistics are reproduced exactly;
* the research corpus case M01+M09.
"""
from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.refs


def _jar():
    from conformance.references import meteor15_ref
    from conformance.references.availability import missing
    reason = meteor15_ref.available()
    if reason:
        missing(reason)
    return meteor15_ref


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(abs(b), 1e-300)


def test_generated_against_jar():
    ref = _jar()
    import assay
    from conformance.generate.meteor15 import generate
    hyps, refs = generate(15003, 200, 2)
    with ref.Meteor15() as jar:
        seg, corpus, stats = jar.score_corpus(hyps, refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(2)]
    got = assay.sentence_scores("meteor", hyps, streams, profile="meteor-1.5")
    bad = [(i, g.value, e) for i, (g, e) in enumerate(zip(got, seg)) if not _close(g.value, e)]
    assert not bad, f"{len(bad)}/{len(seg)} segments differ from the jar, first: {bad[:3]}"
    assert _close(assay.score("meteor", hyps, streams, profile="meteor-1.5").value, corpus)


VOCAB = ["car", "cars", "auto", "a", "the", "zebra", "dog", "dogs", "photo", "picture", "of", "couple", "two",
         "passed", "away", "died", "run", "ran", "running", "sit", "sitting", "man", "men", "people", "big",
         "bigger", "large", "."]
RUNS = [("exact stem synonym paraphrase", 40), ("exact stem synonym paraphrase", 1),
        ("exact stem synonym paraphrase", 3), ("synonym", 2), ("exact synonym", 4), ("synonym exact", 6),
        ("paraphrase", 2), ("exact paraphrase", 10)]


@pytest.mark.parametrize("modules,beam", RUNS, ids=[f"{m.replace(' ', '+')}-x{b}" for m, b in RUNS])
def test_random_pairs_beam_and_modules(modules: str, beam: int):
    ref = _jar()
    import assay
    rng = random.Random(f"{modules}/{beam}")
    hyps = [" ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 7))) for _ in range(150)]
    refs = [[" ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 7)))] for _ in range(150)]
    with ref.Meteor15(("-l", "en", "-norm", "-x", str(beam), "-m", modules)) as jar:
        seg, _, stats = jar.score_corpus(hyps, refs)
    got = assay.sentence_scores("meteor", hyps, [[r[0] for r in refs]], profile="meteor-1.5", beam=beam,
                                modules=modules)
    for i, (g, e, s) in enumerate(zip(got, seg, stats)):
        st = [int(float(x)) for x in s.split()]
        assert g.components["chunks"] == st[20] and g.components["test_matched"] == st[21] and \
            g.components["ref_matched"] == st[22], (hyps[i], refs[i][0], g.components, s)
        assert _close(g.value, e), (hyps[i], refs[i][0], g.value, e)


def test_research_m01_m09_corpus():
    ref = _jar()
    import assay
    hyps = ["the cat is on the mat", "a cat is on the mat"]
    refs = [["the cat sat on the mat"], ["there is a cat on the mat"]]
    with ref.Meteor15() as jar:
        seg, corpus, _ = jar.score_corpus(hyps, refs)
    got = assay.score("meteor", hyps, [[r[0] for r in refs]], profile="meteor-1.5").value
    assert abs(got - corpus) <= 1e-12
