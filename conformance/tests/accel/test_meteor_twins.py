"""METEOR's compiled twins equal the pure specification exactly.

METEOR 1.5 (``assay.metrics.meteor.meteor15._best_c`` and ``._normalize_c``; all but the hashing
need the jar's resources, else skip / CI fail):

- ``blake2b64`` equals ``phrase_hash`` (BLAKE2b, 8-byte digest) on random Unicode phrases of every
  length around the 128-byte block, one at a time and four at a time (AVX2 lanes);
- the paraphrase index's one-pass directory equals the bucket counts, and every source passes its
  bloom filter;
- ``normalized`` (then the shared trim/lowercase/split) equals ``normalize.tokenize_py`` on random
  text: every rule's trigger characters, the jar's letter ranges and their edges, odd whitespace,
  nonbreaking prefixes, digits, long tokens (``..``/``DOTMULTI`` lines: the twin declines them);
- per hypothesis/reference pair: the twin's matches (in ``align.resolve``'s order), 23 statistics
  and score equal ``align.candidates`` + ``align.resolve`` + ``align.alignment_stats`` +
  ``score.parts`` for sentences from a small vocabulary rich in exact, stem, synonym and
  paraphrase matches, empty sides included, under random module lists (repeats included), beams
  and parameters, with four-lane and one-at-a-time hashing; a 150-word pair (bitsets of several
  words, the pairwise synonym path) and the token-identical shortcut;
- ``best.best_rows`` with the twin equals ``best.best_rows_py`` (several references per segment),
  also when segments are left to the pure path (the rank-key bound, lowered for the test).

NLTK (``assay.metrics.meteor._nltk_c``): per pair, (matches, chunks) of the twin equal
``nltk_rows._Matcher.align`` under every knob combination, the corpus rows equal those of the
numpy engine, and ``word_ids`` equals ``nltk_rows._word_ids``.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.strategies import segment

BEST = "assay.metrics.meteor.meteor15._best_c"
NORMALIZE = "assay.metrics.meteor.meteor15._normalize_c"

# exact, stem (cars/car, running/run), synonym (auto/car, died/passed away, big/large), paraphrase
# (couple/two, photo/picture, passed away/died, a couple of/two) and function words
VOCAB = ["car", "cars", "auto", "a", "the", "zebra", "dog", "dogs", "photo", "picture", "of", "couple", "two",
         "passed", "away", "died", "run", "ran", "running", "sit", "sitting", "man", "men", "people", "big",
         "bigger", "large", ".", ",", "is", "are", "on", "in", "réseau", "über"]
_WORDS = st.lists(st.sampled_from(VOCAB), max_size=14)
_MODULES = st.lists(st.integers(0, 3), min_size=1, max_size=5)
_WEIGHT = st.sampled_from([0.0, 0.25, 0.6, 0.8, 1.0])
_PARAMS = st.tuples(st.sampled_from([0.0, 0.5, 0.85, 1.0]), st.sampled_from([0.0, 0.2, 1.0, 3.0]),
                    st.sampled_from([0.0, 0.5, 0.6, 1.0]), st.sampled_from([0.0, 0.5, 0.75, 1.0]),
                    st.tuples(_WEIGHT, _WEIGHT, _WEIGHT, _WEIGHT))
_BEAM = st.sampled_from([1, 2, 3, 5, 40])


@pytest.fixture(scope="module")
def jar_resources():
    """The jar's resources and the paraphrase index, loaded once (else skip / CI fail)."""
    import assay
    from assay.resources import meteor15 as resources
    try:
        resources.load().paraphrases()
    except assay.core.errors.MissingDependencyError as exc:  # type: ignore[attr-defined]
        from conformance.references.availability import missing
        missing(str(exc))


def test_index_filter(jar_resources, twin):
    """The twin's one-pass directory equals the bucket counts of the top bits; every source passes
    the bloom filter."""
    from assay.metrics.meteor.meteor15 import best
    src = _res().paraphrases()[0]
    directory, bloom = best.paraphrase_filter(twin(BEST), _res())
    counts = np.bincount((src >> np.uint64(64 - best.DIRECTORY_BITS)).astype(np.int64),
                         minlength=1 << best.DIRECTORY_BITS)
    np.testing.assert_array_equal(directory, np.concatenate([[0], np.cumsum(counts)]))
    word = bloom[((src >> np.uint64(12)) & np.uint64(len(bloom) - 1)).astype(np.int64)]
    bits = (np.uint64(1) << (src & np.uint64(63))) | (np.uint64(1) << ((src >> np.uint64(6)) & np.uint64(63)))
    assert np.all(word & bits == bits)
    small = np.array([0, 1, 2 ** 63, 2 ** 64 - 1, 2 ** 64 - 1], dtype=np.uint64)
    np.testing.assert_array_equal(twin(BEST).index_filter(small, 2)[0], [0, 2, 2, 3, 5])


def _res():
    from assay.resources import meteor15 as resources
    return resources.load()


# ---------------------------------------------------------------------------------- hashing
@settings(deadline=None)
@given(st.text(st.sampled_from("ab é猫😀 \u00a0.\ud7ff"), max_size=200))
def test_blake2b64(twin, phrase):
    from assay.resources.meteor15 import phrase_hash
    data = phrase.encode("utf-8")
    assert twin(BEST).blake2b64(data) == phrase_hash(phrase)


@settings(deadline=None)
@given(st.lists(st.text(st.sampled_from("ab é猫😀 .x"), max_size=140), max_size=13))
def test_blake2b64_four_lanes(twin, phrases):
    """Four one-block phrases at a time (AVX2 lanes, where the CPU has them) hash as one at a time."""
    from assay.resources.meteor15 import phrase_hash
    assert twin(BEST).blake2b64_batch([p.encode() for p in phrases]) == [phrase_hash(p) for p in phrases]


@pytest.mark.parametrize("length", [0, 1, 127, 128, 129, 255, 256, 257, 1000])
def test_blake2b64_block_edges(twin, length):
    from assay.resources.meteor15 import phrase_hash
    phrase = "".join(chr(97 + k % 26) for k in range(length))
    assert twin(BEST).blake2b64(phrase.encode()) == phrase_hash(phrase)


# ---------------------------------------------------------------------------------- -norm
_TRIGGERS = ["Mr.", "No.", "no.", "U.S.", "e.g.", "3.5km.", "1990's", "James'", "doesn't", "'s", "''", "``",
             "--", "-", "a-b", "7-9-12", "U.S.-led", ",", "1,000", "a,b,c", "\u2018", "\u2019", "\u201c", "\u201d",
             "\u2013", "„", "´", "丨", "Beijing", "Fig.", ".", "x" * 150, "Straße.", "İ", "ǅ", "DOTMULTI", "..."]
# the letter classes' edges, ASCII controls, the jar's whitespace and characters just outside
_EDGES = "AZaz09\u00bf\u00c0\u00d6\u00d7\u00d8\u00f6\u00f7\u00f8\u017e\u017f\u03a9\u0400\u0527\u0528" \
         "\ua63f\ua640\ua66e\ua66f\ua67e\ua697\ua698\u1cff\u1d00\u1d7f\u1d80" \
         " \t\n\x0b\f\r\x00\x01\x1c\x1f\x85\u00a0\u2000\u200a\u200b\u202f\u205f\u3000" \
         ".'`,-\"!?()$%&;:/@#\ud800"
_LINE = st.one_of(
    segment(),
    st.lists(st.one_of(st.sampled_from(_TRIGGERS), st.text(st.sampled_from(_EDGES), max_size=3)),
             max_size=12).map("".join),
    st.lists(st.one_of(st.sampled_from(_TRIGGERS), st.sampled_from(VOCAB)), max_size=12).map(" ".join),
    st.text(max_size=30), st.just(""))


@settings(deadline=None)
@given(_LINE)
def test_normalized(jar_resources, twin, line):
    res = _res()
    from assay.metrics.meteor.meteor15 import normalize
    got = twin(NORMALIZE).normalized(line, res.prefixes)
    if got is None:                 # rule 2's escaping: the twin leaves the line to the pure path
        assert ".." in line or "DOTMULTI" in line
        return
    assert normalize._words(got) == normalize.tokenize_py(line, res.prefixes)


# ---------------------------------------------------------------------------------- alignment
def _pure_unit(hyp, ref, res, modules, beam, params):
    from assay.metrics.meteor.meteor15 import align, score
    chosen = align.resolve(align.candidates(hyp, ref, res, modules), len(hyp), len(ref), beam)
    st_ = align.alignment_stats(hyp, ref, chosen, res.function_words)
    return chosen, st_, score.parts(st_, *params)["score"]


@settings(deadline=None)
@given(st.lists(st.tuples(_WORDS, st.lists(_WORDS, min_size=1, max_size=3)), max_size=4), _MODULES, _BEAM,
       _PARAMS, st.booleans())
def test_alignments(jar_resources, twin, segments, modules, beam, params, simd):
    """Per pair: matches, statistics and score; phrases hashed four at a time (AVX2) or one at a time."""
    res = _res()
    from assay.metrics.meteor.meteor15 import best
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    twin(BEST).use_simd(simd)
    try:
        got = best.alignments(twin(BEST), hyps, refs, res, modules, beam, params)
    finally:
        twin(BEST).use_simd(True)
    want = [_pure_unit(h, r, res, modules, beam, params) for h, rs in segments for r in rs]
    assert len(got) == len(want)
    for (g_matches, g_stats, g_score), (w_matches, w_stats, w_score) in zip(got, want):
        assert g_matches == w_matches
        assert g_stats == w_stats
        assert g_score == w_score or (np.isnan(g_score) and np.isnan(w_score))


@settings(deadline=None)
@given(st.lists(st.tuples(_WORDS, st.lists(_WORDS, min_size=1, max_size=4)), max_size=5), _MODULES, _BEAM,
       _PARAMS)
def test_best_rows(jar_resources, twin, segments, modules, beam, params):
    res = _res()
    from assay.metrics.meteor.meteor15 import best
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    aligner, sides = best.prepare(twin(BEST), hyps, refs, res, modules, beam, params)
    assert not aligner.unit_rows(*sides)[1]          # no segment left to the pure path
    g_stats, g_scores = best.complete(aligner, sides, hyps, refs, res, modules, beam, params)
    w_stats, w_scores = best.best_rows_py(hyps, refs, res, modules, beam, params)
    np.testing.assert_array_equal(g_stats, w_stats)
    np.testing.assert_array_equal(g_scores, w_scores)


@settings(deadline=None)
@given(st.lists(st.tuples(_WORDS, st.lists(_WORDS, min_size=1, max_size=4)), max_size=5), st.integers(0, 6))
def test_segments_left_to_the_pure_path(jar_resources, twin, segments, max_ref):
    """A pair beyond the twin's rank-key bounds (here: lowered) sends its segment to the pure path."""
    from assay.metrics.meteor.meteor15 import best
    res = _res()
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    params = (0.85, 0.2, 0.6, 0.75, (1.0, 0.6, 0.8, 0.6))
    aligner, sides = best.prepare(twin(BEST), hyps, refs, res, (0, 1, 2, 3), 40, params)
    aligner.max_ref = max_ref
    g_stats, g_scores = best.complete(aligner, sides, hyps, refs, res, (0, 1, 2, 3), 40, params)
    w_stats, w_scores = best.best_rows_py(hyps, refs, res, (0, 1, 2, 3), 40, params)
    np.testing.assert_array_equal(g_stats, w_stats)
    np.testing.assert_array_equal(g_scores, w_scores)


def test_identical_long_pair(jar_resources, twin):
    """Bitsets over several 64-bit words; the token-identical shortcut (only the first module)."""
    from assay.metrics.meteor.meteor15 import best
    res = _res()
    words = [VOCAB[k * 7 % len(VOCAB)] for k in range(150)]
    other = words[::-1] + ["cars", "auto"]
    params = (0.85, 0.2, 0.6, 0.75, (1.0, 0.6, 0.8, 0.6))
    for hyp, ref in ((words, words), (words, other), (other, words)):
        got = best.alignments(twin(BEST), [hyp], [[ref]], res, (3, 0, 1, 2), 40, params)
        want = _pure_unit(hyp, ref, res, (3, 0, 1, 2), 40, params)
        assert (got[0][0], got[0][1], got[0][2]) == want


# ---------------------------------------------------------------------------------- NLTK
NLTK = "assay.metrics.meteor._nltk_c"
# exact, Porter-stem (cats/cat, running/runs), WordNet synonyms (big/large, die/pass, home/house,
# quick/fast), irregular forms, case pairs, punctuation, Greek final sigma
NLTK_WORDS = ("the a an of in on to and is was it he they , . ! 's n't The A It We I cat cats Cat CATS dog "
              "dogs car cars automobile run ran running runs quick quickly fast rapidly big large larger small "
              "little house houses home begin began started buy bought purchase die died dying Dying pass passed "
              "end ended finish agree agreed happy city cities church churches go went mouse mice leaf leaves "
              "news News sky skies Skies write writes handless off blork ΟΔΟΣ οδος Σ").split()
_NLTK_TOKENS = st.lists(st.sampled_from(NLTK_WORDS), max_size=12)
_NLTK_KNOBS = st.fixed_dictionaries({
    "lowercase": st.booleans(), "stem": st.booleans(), "synonyms": st.booleans(),
    "synonym_input": st.sampled_from(["stem-leftovers", "exact-leftovers"]),
    "stem_case": st.sampled_from(["lower", "as-given"]), "morphy": st.sampled_from(["once", "iterate"]),
    "alpha": st.sampled_from([0.0, 0.5, 0.9, 1.0]), "beta": st.sampled_from([0.0, 1.0, 3.0]),
    "gamma": st.sampled_from([0.0, 0.5, 1.0])})


@st.composite
def _nltk_corpus(draw: st.DrawFn) -> tuple[list[list[str]], list[list[list[str] | None]]]:
    """Segments with one to three reference streams (a missing reference somewhere, never all)."""
    n = draw(st.integers(1, 5))
    hyps = [draw(_NLTK_TOKENS) for _ in range(n)]
    streams = [[draw(_NLTK_TOKENS) for _ in range(n)] for _ in range(draw(st.integers(1, 3)))]
    for i in range(n):
        if len(streams) > 1 and draw(st.booleans()):
            streams[draw(st.integers(1, len(streams) - 1))][i] = None
    return hyps, streams


def _nltk_config(knobs: dict):
    """The configuration; WordNet loaded once (a missing WordNet: skip / CI fail)."""
    from assay.core.errors import MissingDependencyError
    from assay.engine.api import configure
    from assay.resources.wordnet import load
    if knobs["synonyms"]:
        try:
            load()
        except MissingDependencyError as exc:
            from conformance.references.availability import missing
            missing(f"WordNet 3.0 is not installed: {exc}")
    return configure("meteor", "nltk", "sentence", **knobs).config


@settings(deadline=None)
@given(_nltk_corpus(), _NLTK_KNOBS)
def test_nltk_rows(twin, corpus, knobs):
    """The twin's rows equal the numpy engine's, under every knob combination."""
    from assay.metrics.meteor import nltk_rows
    hyps, streams = corpus
    config = _nltk_config(knobs)
    got = nltk_rows.corpus_rows(hyps, streams, config, twin(NLTK)).rows
    want = nltk_rows.corpus_rows(hyps, streams, config, None).rows
    np.testing.assert_array_equal(got, want)


@settings(deadline=None)
@given(st.lists(st.tuples(_NLTK_TOKENS, _NLTK_TOKENS), min_size=1, max_size=5), _NLTK_KNOBS)
def test_nltk_pairs(twin, pairs, knobs):
    """Per pair, the twin's (matches, chunks) equal the readable greedy loop ``_Matcher.align`` on
    the lowercased tokens, and its score equals ``meteor_value``."""
    from assay.metrics.meteor import nltk_rows
    config = _nltk_config(knobs)
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    rows = nltk_rows.corpus_rows(hyps, [refs], config, twin(NLTK)).rows
    matcher = nltk_rows._Matcher(config)
    low = (lambda ws: [w.lower() for w in ws]) if config.lowercase else list
    for (hyp, ref), row in zip(pairs, rows.tolist()):
        matches, chunks = matcher.align(low(hyp), low(ref))
        assert row[:4] == [len(hyp), len(ref), matches, chunks]
        assert row[4] == nltk_rows.meteor_value(len(hyp), len(ref), matches, chunks, config.alpha, config.beta,
                                                config.gamma)


_TOKEN = st.one_of(st.sampled_from(NLTK_WORDS + ["İ", "ǅ", "ß", "ﬁ", "K", ""]), st.text(max_size=6))


@settings(deadline=None)
@given(st.lists(st.lists(_TOKEN, max_size=8), max_size=6), st.booleans())
def test_nltk_word_ids(twin, token_lists, lowercase):
    """``word_ids`` equals ``nltk_rows._word_ids`` (first-seen order of the lowercased forms; odd
    Unicode case mappings, empty tokens), and both decline a token that is not a string."""
    from assay.metrics.meteor import nltk_rows
    words, ids = twin(NLTK).word_ids(token_lists, lowercase)
    want_words, want_ids = nltk_rows._word_ids(token_lists, lowercase)
    assert words == want_words
    np.testing.assert_array_equal(ids, want_ids)
    for bad in (3, None, ["x"]):
        assert twin(NLTK).word_ids(token_lists + [["a", bad]], lowercase)[0] is None
        assert nltk_rows._word_ids(token_lists + [["a", bad]], lowercase)[0] is None
