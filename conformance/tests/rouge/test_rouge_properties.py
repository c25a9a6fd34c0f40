"""ROUGE properties: invariants of the measures, the bit-parallel LCS against the textbook
dynamic programme, document-order invariance, statistics consistency and bad input."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.core.errors import InputError, KnobError
from assay.engine.registry import get_family
from assay.metrics.rouge.lcs import lcs_length, lcs_ref_positions, lcs_ref_positions_dp, lcs_table, wlcs_positions
from assay.metrics.rouge.measures import union_lcs_hits

WORDS = ["the", "cat", "sat", "on", "mat", "dog", "a", "ran", "big", "red"]
seqs = st.lists(st.integers(0, 5), max_size=14)
long_seqs = st.lists(st.integers(0, 40), min_size=60, max_size=200)
sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=9).map(" ".join)
document = st.lists(sentence, min_size=1, max_size=4).map("\n".join)
N_AND_L = ("rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum")


def _one(hyp: str, ref: str, profile: str = "rouge-score", **knobs) -> dict:
    return assay.score("rouge", [hyp], [[ref]], profile, **knobs).components


# ----------------------------------------------------------------------------- LCS
@given(seqs, seqs)
def test_bit_parallel_lcs_equals_dp(a: list[int], b: list[int]) -> None:
    assert lcs_length(a, b) == lcs_table(a, b)[-1][-1]


@given(seqs, seqs)
def test_lcs_positions_equal_dp_backtrack(a: list[int], b: list[int]) -> None:
    mask = lcs_ref_positions(a, b)
    assert [i for i in range(len(a)) if mask >> i & 1] == lcs_ref_positions_dp(a, b)


@settings(max_examples=30)
@given(long_seqs, long_seqs)
def test_bit_parallel_lcs_long_sequences(a: list[int], b: list[int]) -> None:
    """More than 64 reference positions: several machine words' worth of bits."""
    assert lcs_length(a, b) == lcs_table(a, b)[-1][-1]
    mask = lcs_ref_positions(a, b)
    assert [i for i in range(len(a)) if mask >> i & 1] == lcs_ref_positions_dp(a, b)


@given(seqs, seqs)
def test_lcs_at_most_min_length(a: list[int], b: list[int]) -> None:
    assert lcs_length(a, b) <= min(len(a), len(b))


@given(seqs, seqs)
def test_weighted_lcs_is_a_common_subsequence(a: list[int], b: list[int]) -> None:
    pos = wlcs_positions(a, b, 1.2)
    assert pos == sorted(set(pos)) and len(pos) <= lcs_length(a, b)
    sub = [a[p] for p in pos]
    it = iter(b)
    assert all(tok in it for tok in sub)   # sub is a subsequence of b


@given(st.lists(seqs, min_size=1, max_size=3), st.lists(seqs, min_size=1, max_size=3))
def test_union_lcs_hits_equals_sequential_clipping(hyp: list[list[int]], ref: list[list[int]]) -> None:
    """The closed form sum_t min(U_t, hyp_t, ref_t) equals the tools' sequential decrementing."""
    hc = Counter(t for s in hyp for t in s)
    rc = Counter(t for s in ref for t in s)
    left_h, left_r, expected = Counter(hc), Counter(rc), 0
    for r in ref:
        union = sorted({p for h in hyp for p in lcs_ref_positions_dp(r, h)})
        for p in union:
            if left_h[r[p]] > 0 and left_r[r[p]] > 0:
                left_h[r[p]] -= 1
                left_r[r[p]] -= 1
                expected += 1
    assert union_lcs_hits(hyp, ref, hc, rc) == expected


# ----------------------------------------------------------------------------- measures
@given(document, document)
def test_recall_is_precision_with_sides_swapped(hyp: str, ref: str) -> None:
    """For N and plain L. The summary-level union LCS is not symmetric (the union is taken over
    reference sentences): ``the\nthe`` vs ``the the`` has R 0.5 one way and P 1.0 the other, so
    rougeLsum is checked on single-sentence texts only."""
    types = ",".join(N_AND_L)
    forward, backward = _one(hyp, ref, types=types), _one(ref, hyp, types=types)
    for t in ("rouge1", "rouge2", "rouge3", "rougeL"):
        assert forward[t]["r"] == backward[t]["p"] and forward[t]["p"] == backward[t]["r"], t
    hyp1, ref1 = hyp.replace("\n", " "), ref.replace("\n", " ")
    forward, backward = _one(hyp1, ref1, types="rougeLsum"), _one(ref1, hyp1, types="rougeLsum")
    assert forward["rougeLsum"]["r"] == backward["rougeLsum"]["p"]


@given(document)
def test_identical_texts_score_one(text: str) -> None:
    n_tokens = len(text.split())
    types = "rouge1,rouge2,rougeL,rougeLsum,rougeS4,rougeSU4,rougeS*,rougeSU*"
    comp = _one(text, text, types=types, su_last_unigram="count")
    for t in types.split(","):
        if t == "rouge2" or t.startswith("rougeS"):
            if n_tokens < 2:
                continue
        assert comp[t] == {"p": 1.0, "r": 1.0, "f": 1.0}, t


@given(document)
def test_documented_quirks_on_identical_texts(text: str) -> None:
    """ROUGE-1.5.5: SU skips the last unigram (a 1-token text has no units, research R15); ROUGE-W
    applies f twice to the reference length, so R < 1 for identical texts of 2+ tokens, and P is 1
    only for one sentence (hits sum f over sentences, P divides by f of the whole length)."""
    comp = _one(text, text, "rouge-1.5.5", types="rougeSU4,rougeW", aggregate="mean")
    n_tokens = len(text.split())
    assert comp["rougeSU4"]["f"] == (1.0 if n_tokens >= 2 else 0.0)
    if "\n" not in text:
        assert comp["rougeW"]["p"] == 1.0
    if n_tokens >= 2:
        assert comp["rougeW"]["r"] < 1.0


@given(document, document)
def test_lcs_measures_at_most_rouge1(hyp: str, ref: str) -> None:
    comp = _one(hyp, ref, types="rouge1,rougeL,rougeLsum")
    for t in ("rougeL", "rougeLsum"):
        for k in "prf":
            assert comp[t][k] <= comp["rouge1"][k] + 1e-15, (t, k)


@given(document, st.lists(document, min_size=1, max_size=3))
def test_multi_ref_rules(hyp: str, refs: list[str]) -> None:
    """best-f picks the reference with the largest F; best-recall the largest R; average lies
    between the extremes; pool equals the single reference when there is one."""
    per_ref = [_one(hyp, r, types="rouge1")["rouge1"] for r in refs]
    streams = [[r] for r in refs]
    got = {rule: assay.score("rouge", [hyp], streams, types="rouge1", multi_ref=rule).components["rouge1"]
           for rule in ("best-f", "best-recall", "average", "pool")}
    assert got["best-f"]["f"] == max(c["f"] for c in per_ref)
    assert got["best-recall"]["r"] == max(c["r"] for c in per_ref)
    assert min(c["f"] for c in per_ref) - 1e-12 <= got["average"]["f"] <= max(c["f"] for c in per_ref) + 1e-12
    if len(refs) == 1:
        assert got["pool"] == per_ref[0]


# ----------------------------------------------------------------------------- corpus level
@settings(max_examples=25)
@given(st.lists(st.tuples(document, document), min_size=1, max_size=6), st.randoms())
def test_document_averaging_is_order_invariant(pairs: list[tuple[str, str]], rnd) -> None:
    shuffled = list(pairs)
    rnd.shuffle(shuffled)
    for profile, knobs in (("rouge-score", {}), ("rouge-1.5.5", {"aggregate": "mean"}),
                           ("rouge-1.5.5", {"averaging": "token", "aggregate": "mean"})):
        a = assay.score("rouge", [h for h, _ in pairs], [[r for _, r in pairs]], profile, **knobs)
        b = assay.score("rouge", [h for h, _ in shuffled], [[r for _, r in shuffled]], profile, **knobs)
        assert a.value == pytest.approx(b.value, rel=1e-12, abs=1e-15)


@settings(max_examples=25)
@given(st.lists(st.tuples(document, document), min_size=1, max_size=6))
def test_sentence_scores_average_to_corpus(pairs: list[tuple[str, str]]) -> None:
    hyps, refs = [h for h, _ in pairs], [[r for _, r in pairs]]
    corpus = assay.score("rouge", hyps, refs)
    sentences = assay.sentence_scores("rouge", hyps, refs)
    assert corpus.value == pytest.approx(float(np.mean([s.value for s in sentences])), rel=1e-12, abs=1e-15)


@settings(max_examples=25)
@given(st.lists(st.tuples(document, document), min_size=1, max_size=6), st.sampled_from(["document", "token"]))
def test_scores_from_sums_equals_score_stats(pairs: list[tuple[str, str]], averaging: str) -> None:
    hyps, refs = [h for h, _ in pairs], [[r for _, r in pairs]]
    stats, config, _, _ = assay.engine.api.compute_stats("rouge", hyps, refs, "rouge-score", averaging=averaging)
    family = get_family("rouge")
    rng = np.random.default_rng(0)
    picks = [rng.integers(0, len(stats), len(stats)) for _ in range(3)]
    sums = np.vstack([stats.rows[p].sum(axis=0) for p in picks])
    expected = [family.score_stats(stats.select(p), config)[0] for p in picks]
    assert family.scores_from_sums(sums, config) == pytest.approx(expected, rel=1e-12, abs=1e-15)


# ----------------------------------------------------------------------------- bad input
def test_mismatched_counts() -> None:
    with pytest.raises(InputError, match="reference stream 1 has 1 segments but there are 2"):
        assay.score("rouge", ["a b", "c d"], [["a b"]])


def test_document_without_reference() -> None:
    with pytest.raises(InputError, match="document 2 has no reference"):
        assay.score("rouge", ["a b", "c d"], [["a b", None]])


def test_empty_document_scores_zero_or_errors() -> None:
    """Both tools give 0 for a side without tokens (ROUGE-1.5.5 with a warning); empty_document=error refuses."""
    for profile in ("rouge-score", "rouge-1.5.5"):
        comp = assay.score("rouge", ["", "a b"], [["a b", "a b"]], profile, types="rouge1").components
        assert comp["rouge1"]["r"] == pytest.approx(0.5, abs=1e-5)   # (0 + 1) / 2
        assert assay.score("rouge", ["..."], [["a b"]], profile, types="rouge1").value == 0.0
    with pytest.raises(InputError, match="document 1: the hypothesis has no tokens"):
        assay.score("rouge", ["?!"], [["a b"]], empty_document="error")
    with pytest.raises(InputError, match="reference 1 has no tokens"):
        assay.score("rouge", ["a"], [[""]], empty_document="error")


def test_token_lists_are_rejected() -> None:
    with pytest.raises(InputError, match="ROUGE takes each document as a string"):
        assay.score("rouge", [["a", "b"]], [[["a", "b"]]], tokenizer="rouge-score")


@pytest.mark.parametrize("knobs,message", [
    ({"types": "rouge0"}, "unknown ROUGE type"),
    ({"types": "rougeX"}, "unknown ROUGE type"),
    ({"types": "rouge1,rouge1"}, "repeated"),
    ({"length_limit_words": 3, "length_limit_bytes": 10}, "exclude each other"),
    ({"alpha": 1.5}, "alpha"),
    ({"multi_ref": "best"}, "not one of"),
    ({"averaging": "token", "multi_ref": "average"}, "no counts to pool"),
    ({"f": "C"}, "-f takes A or B"),
])
def test_bad_knobs(knobs: dict, message: str) -> None:
    with pytest.raises(KnobError, match=message):
        assay.score("rouge", ["a b"], [["a b"]], **knobs)


def test_perl_flag_aliases() -> None:
    config, _ = assay.make_config("rouge", "rouge-1.5.5", f="B", t=1, p=0.3, r=10, c=90, l=100)
    assert (config.multi_ref, config.averaging, config.alpha, config.bootstrap_samples, config.confidence,
            config.length_limit_words) == ("best-recall", "token", 0.3, 10, 90.0, 100)
    assert assay.make_config("rouge", use_stemmer=True)[0].stemmer == "porter-nltk"
