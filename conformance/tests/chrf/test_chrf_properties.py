"""chrF / chrF++ properties (no reference tool needed): identity, additivity of the statistics,
vectorised resampling scores, order invariance, bad input, and the tools' recorded output formats."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.engine.registry import get_family
from assay.metrics.chrf.text import word_tokens
from conformance.strategies import corpus, segment

SACREBLEU_KNOBS = st.fixed_dictionaries({
    "char_order": st.integers(0, 7), "word_order": st.integers(0, 3), "beta": st.sampled_from([0, 0.5, 1, 2, 3]),
    "lowercase": st.booleans(), "whitespace": st.booleans(), "eps_smoothing": st.booleans()}).filter(
        lambda k: k["char_order"] or k["word_order"])
PROFILES = ["sacrebleu", "sacrebleu-chrf++", "sacrebleu@1", "nltk", "nltk@3.5"]


def _refs_for(profile: str, refs: list[list[str]]) -> list[list[str]]:
    return refs[:1] if profile.startswith("nltk") else refs


@settings(deadline=None, max_examples=80)
@given(st.lists(segment(), min_size=1, max_size=5).filter(lambda s: any(x.strip() for x in s)),
       st.sampled_from(["sacrebleu", "sacrebleu-chrf++"]), st.booleans())
def test_identical_texts_score_100(texts, profile, whitespace):
    """Every effective order has P = R = 1, so chrF is exactly 100 (1 on sacrebleu 1.x's scale)."""
    score = assay.score("chrf", texts, [texts], profile, whitespace=whitespace)
    assert score.value == 100.0
    assert assay.score("chrf", texts, [texts], "sacrebleu@1", whitespace=whitespace).value == 1.0


@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=6, max_refs=3), SACREBLEU_KNOBS)
def test_sentence_stats_sum_to_corpus_stats(data, knobs):
    """The best reference is chosen per segment, so sentence statistics add up to the corpus ones."""
    hyps, refs = data
    corpus_score = assay.score("chrf", hyps, refs, "sacrebleu", **knobs)
    sentences = assay.sentence_scores("chrf", hyps, refs, "sacrebleu", **knobs)
    summed = np.sum([s.components["stats"] for s in sentences], axis=0)
    assert summed.tolist() == corpus_score.components["stats"]


@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=8, max_refs=2), st.sampled_from(PROFILES), st.booleans(), st.integers(0, 2**31 - 1))
def test_scores_from_sums_equals_score_stats(data, profile, eps, seed):
    """The vectorised corpus score of resampled sums is score_stats on the same rows (significance relies on it)."""
    hyps, refs = data
    knobs = {"eps_smoothing": eps} if profile.startswith("sacrebleu") and profile != "sacrebleu@1" else {}
    stats, config, _, _ = assay.compute_stats("chrf", hyps, _refs_for(profile, refs), profile, **knobs)
    family = get_family("chrf")
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(stats), size=(7, len(stats)))
    sums = np.stack([stats.rows[p].sum(axis=0) for p in picks])
    vector = family.scores_from_sums(sums, config)
    for k, p in enumerate(picks):
        value, _ = family.score_stats(stats.select(p), config)
        assert vector[k] == value


@settings(deadline=None, max_examples=60)
@given(corpus(max_segments=7, max_refs=3), st.sampled_from(PROFILES), st.randoms(use_true_random=False))
def test_corpus_score_is_order_invariant(data, profile, rnd):
    hyps, refs = data
    refs = _refs_for(profile, refs)
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    a = assay.score("chrf", hyps, refs, profile).value
    b = assay.score("chrf", [hyps[i] for i in order], [[s[i] for i in order] for s in refs], profile).value
    if profile.startswith("nltk"):   # a mean of sentence scores: summation order may change the last bit
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-300)
    else:                            # sums of integer counts: exact
        assert a == b


@settings(deadline=None, max_examples=40)
@given(corpus(max_segments=5, max_refs=1), SACREBLEU_KNOBS)
def test_sentence_score_is_a_one_segment_corpus(data, knobs):
    hyps, refs = data
    for i, s in enumerate(assay.sentence_scores("chrf", hyps, refs, "sacrebleu", **knobs)):
        assert s.value == assay.score("chrf", [hyps[i]], [[refs[0][i]]], "sacrebleu", **knobs).value


def test_scores_in_range_and_finite():
    for profile in PROFILES:
        for h, r in (("", ""), ("a", ""), ("", "a"), ("ab", "xy"), ("abc", "abc")):
            v = assay.score("chrf", [h], [[r]], profile).value
            top = 100 if profile.startswith("sacrebleu") and profile != "sacrebleu@1" else 1
            assert math.isfinite(v) and 0 <= v <= top


# ------------------------------------------------------------------------- chrF++ words
@pytest.mark.parametrize("text,tokens", [
    ("(hi)", ["(hi", ")"]),                  # sacrebleu #124 / research §1.6: one character only
    ("Hello (hi) world.", ["Hello", "(hi", ")", "world", "."]),
    ("hi!! .. 's . «oui» word—", ["hi!", "!", ".", ".", "'", "s", ".", "«oui»", "word—"]),
    ("a\x1cb.\u3000c", ["a", "b", ".", "c"]),   # str.split's whitespace
])
def test_word_tokens(text, tokens):
    assert word_tokens(text) == tokens


# ------------------------------------------------------------------------- bad input
def test_mismatched_counts_are_input_errors():
    with pytest.raises(InputError, match="2 segments but there are 1"):
        assay.score("chrf", ["a"], [["a", "b"]])
    with pytest.raises(InputError):
        assay.score("chrf", ["a", "b"], [["a", "b"], ["a"]])
    with pytest.raises(InputError):
        assay.score("chrf", [], [[]])


def test_wrong_types_are_input_errors():
    with pytest.raises(InputError, match="token lists"):
        assay.score("chrf", [["a", "b"]], [[["a", "b"]]], "sacrebleu")
    with pytest.raises(InputError, match="expected a string"):
        assay.score("chrf", ["a", 3], [["a", "b"]])
    with pytest.raises(InputError, match="at most 1"):
        assay.score("chrf", ["a"], [["a"], ["b"]], "nltk")
    # NLTK joins token lists with spaces
    assert assay.score("chrf", [["a", "b"]], [[["a", "b"]]], "nltk").value == \
        assay.score("chrf", ["a b"], [["a b"]], "nltk").value


def test_knob_errors():
    for knobs in ({"char_order": 0, "word_order": 0}, {"min_char_order": 4, "char_order": 3}, {"beta": -1},
                  {"char_order": -1}, {"whitespace_set": "nope"}, {"colour": 1}):
        with pytest.raises(KnobError):
            assay.score("chrf", ["a"], [["a"]], **knobs)


def test_missing_references_fail_like_the_tools():
    with pytest.raises(ToolBehaviourError) as info:     # sacrebleu 2.x: one segment -> ValueError
        assay.score("chrf", ["a"], [[None], [None]])
    assert info.value.tool_error == "ValueError"
    with pytest.raises(ToolBehaviourError) as info:     # ... several segments -> IndexError
        assay.score("chrf", ["a", "b"], [["a", None]])
    assert info.value.tool_error == "IndexError"
    with pytest.raises(ToolBehaviourError) as info:     # sacrebleu 1.x: any missing reference
        assay.score("chrf", ["a", "b"], [["a", "b"], ["a", None]], "sacrebleu@1")
    assert info.value.tool_error == "EOFError"
    score = assay.score("chrf", ["a", "b"], [["a", "b"], ["a", None]])   # 2.x: skipped, nrefs:var
    assert score.value == 100.0 and score.signature.startswith("nrefs:var|")


# ------------------------------------------------------------------------- formats (recorded tool output)
# sacrebleu CLI runs (2.6.0 and 1.5.1) on HYP/REF/REF2 below; the printed lines are copied verbatim.
HYP = ["The cat sat on the mat.", "Hello (hi) world."]
REF = ["The cat sat on a mat.", "Hello hi world"]
REF2 = ["A cat sat on the mat.", "Hello (hi) world!"]


def test_sacrebleu2_cli_text_and_json():
    s = assay.score("chrf", HYP, [REF])
    assert s.text == "chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0 = 62.3"  # -f text
    assert s.tool_json == {"name": "chrF2", "score": 62.3,
                           "signature": "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0",
                           "nrefs": "1", "case": "mixed", "eff": "yes", "nc": "6", "nw": "0", "space": "no",
                           "version": "2.6.0"}
    pp = assay.score("chrf", HYP, [REF], "sacrebleu-chrf++")
    assert pp.text == "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0 = 62.3"
    two = assay.score("chrf", HYP, [REF, REF2], "sacrebleu-chrf++", width=4)   # -w 4, JSON
    assert two.tool_json["score"] == 88.4967 and two.tool_json["nrefs"] == "2"
    other = assay.score("chrf", HYP, [REF], beta=3, char_order=4, word_order=1)
    assert other.text == "chrF3+|nrefs:1|case:mixed|eff:yes|nc:4|nw:1|space:no|version:2.6.0 = 76.7"
    flags = assay.score("chrf", HYP, [REF], eps_smoothing=True, lowercase=True, whitespace=True)
    assert flags.value == pytest.approx(70.8, abs=0.05)
    assert flags.signature == "nrefs:1|case:lc|eff:no|nc:6|nw:0|space:yes|version:2.6.0"


def test_sacrebleu1_cli_text():
    s = assay.score("chrf", HYP, [REF], "sacrebleu@1")
    assert s.text == "chrF2+numchars.6+space.false+version.1.5.1 = 0.62"
    # 1.x prints chrF with -w + 1 decimals: -w 4 printed 0.62264
    assert assay.score("chrf", HYP, [REF], "sacrebleu@1", width=4).text == \
        "chrF2+numchars.6+space.false+version.1.5.1 = 0.62264"
    assert assay.score("chrf", HYP, [REF, REF2], "sacrebleu@1").text.endswith(" = 0.62")   # 2nd ref ignored
    # --chrf-whitespace: the 1.x CLI keeps each file line's "\n" (2.x rstrips lines), so the printed
    # 0.80 (0.80451 with -w 4) is the score of the lines with their newlines
    with_nl = dict(whitespace=True, beta=3, char_order=4, width=4)
    ws = assay.score("chrf", [h + "\n" for h in HYP], [[r + "\n" for r in REF]], "sacrebleu@1", **with_nl)
    assert ws.text == "chrF3+numchars.4+space.true+version.1.5.1 = 0.80451"
    assert assay.score("chrf", HYP, [REF], "sacrebleu@1", **with_nl).text.endswith(" = 0.81583")   # API value


def test_non_sacrebleu_settings_get_assay_signatures():
    s = assay.score("chrf", HYP, [REF], "sacrebleu", averaging="segments")
    assert s.signature.startswith("assay:chrf/sacrebleu|nrefs:1|averaging:segments|")
    assert s.tool_json is None
    assert assay.score("chrf", HYP, [REF], "sacrebleu@1", word_order=2).signature.startswith("assay:chrf/sacrebleu@1")
    assert assay.score("chrf", HYP, [REF], "nltk").text == repr(assay.score("chrf", HYP, [REF], "nltk").value)
