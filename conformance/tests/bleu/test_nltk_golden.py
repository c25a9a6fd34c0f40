"""NLTK fixture files (size, provenance), seed 000's NIST example, and the NLTK-shaped front end.

The cases themselves are reproduced by the generic runner in test_golden.py.
"""
from __future__ import annotations


import pytest

import assay
from assay.core.errors import InputError, KnobError, ToolBehaviourError
from conformance.fixture_io import iter_cases

FILES = [("bleu", "nltk_research"), ("bleu", "nltk_generated"), ("bleu", "nltk35_generated"),
         ("nist", "nltk_research"), ("nist", "nltk_generated"), ("nist", "seed")]

def test_fixture_files_are_large_enough() -> None:
    counts = {f"{m}/{f}": sum(1 for _ in iter_cases(m, f)) for m, f in FILES}
    assert counts["bleu/nltk_research"] >= 36 * 9
    assert counts["bleu/nltk_generated"] >= 200 * 8
    assert counts["nist/nltk_generated"] >= 2 * 200
    assert counts["bleu/nltk35_generated"] >= 200


def test_fixtures_record_their_provenance() -> None:
    for metric, family in FILES:
        for doc, case in iter_cases(metric, family):
            for exp in case["expected"]:
                assert exp["tool"] in ("nltk", "mteval-v13a.pl") and exp["version"] and exp["command"]
                assert exp["tolerance"]["rel"] <= 1e-9
            assert doc["generated_by"].get("PYTHONHASHSEED") == "0" or family == "seed"
            break


# ------------------------------------------------------------------ seed 000 worked example
from conformance.references.nltk_ref import PAPINENI_HYPS, PAPINENI_REFS  # noqa: E402

STREAMS = [[r, r] for r in PAPINENI_REFS]


def test_seed000_nltk_values() -> None:
    """Seed 000 / NLTK docstring: 3.3709..., 1.4619...; corpus 2.6375187380 (research §3)."""
    sent = [s.value for s in assay.sentence_scores("nist", PAPINENI_HYPS, STREAMS, "nltk")]
    assert sent == pytest.approx([3.3709935958, 1.4619035461], abs=5e-11)
    assert assay.score("nist", PAPINENI_HYPS, STREAMS, "nltk").value == pytest.approx(2.6375187380, abs=5e-11)


def test_seed000_decomposition() -> None:
    """Research §3: unigram info sums 77.27 (union) vs 51.74 (best single), bigram 9.92 vs 6.75."""
    refs = [[r] for r in PAPINENI_REFS]
    union = assay.score("nist", PAPINENI_HYPS[:1], refs, "nltk", multi_ref="union", ref_length="average")
    best = assay.score("nist", PAPINENI_HYPS[:1], refs, "nltk")
    assert union.components["info"][:3] == pytest.approx([77.27, 9.92, 2.58], abs=0.01)
    assert best.components["info"][:3] == pytest.approx([51.74, 6.75, 1.58], abs=0.01)
    # hyp2: NLTK's ratio 70/88 (ref length 16 for order 1, then the longest, 18, four times)
    hyp2 = assay.score("nist", PAPINENI_HYPS[1:], refs, "nltk")
    assert hyp2.components["ratio"] == pytest.approx(70 / 88)


def test_nist_text_and_signature() -> None:
    refs = [[r] for r in PAPINENI_REFS]
    mt = assay.score("nist", PAPINENI_HYPS[:1], refs, "mteval-v13a", tokenize="none", lowercase=False)
    assert mt.text == "NIST score = 5.0379"
    assert mt.signature.startswith("assay:nist/mteval-v13a|nrefs:3|")
    nl = assay.score("nist", PAPINENI_HYPS[:1], refs, "nltk")
    assert nl.text == repr(nl.value)


def test_nist_rejects_union_with_chosen_length() -> None:
    with pytest.raises(KnobError, match="best-single"):
        assay.score("nist", ["a b"], [["a b"]], "nltk", multi_ref="union")


# ------------------------------------------------------------------ the NLTK-shaped front end
def test_compat_rejects_string_hypothesis() -> None:
    from assay.compat import nltk as compat
    with pytest.raises(InputError, match="character by character"):
        compat.sentence_bleu([["the", "cat", "sat"]], "the cat sat")
    with pytest.raises(InputError, match="hypothesis 2 is a string"):
        compat.corpus_bleu([[["a", "b"]], [["c"]]], [["a", "b"], "c"])
    with pytest.raises(InputError, match="character by character"):
        compat.sentence_nist([["the", "cat"]], "the cat")


def test_compat_rejects_string_references() -> None:
    """NLTK's own example of the quirk: sentence_bleu(["the cat sat on the mat"], "the cat sat on a mat")."""
    from assay.compat import nltk as compat
    with pytest.raises(InputError):
        compat.sentence_bleu(["the cat sat on the mat"], "the cat sat on a mat".split())
    with pytest.raises(InputError, match="are strings"):
        compat.corpus_bleu([["the cat sat on the mat"]], [["the", "cat"]])
    with pytest.raises(InputError, match="is a string"):
        compat.corpus_nist([[["the", "cat"], "the dog"]], [["the", "cat"]])
    with pytest.raises(InputError):
        compat.sentence_nist("the cat", ["the", "cat"])


def test_compat_shapes_and_errors() -> None:
    from assay.compat import nltk as compat
    refs = [["the", "cat", "sat", "on", "the", "mat"]]
    hyp = ["the", "cat", "sat", "on", "a", "mat"]
    single = compat.sentence_bleu(refs, hyp)
    assert isinstance(single, float)
    several = compat.sentence_bleu(refs, hyp, weights=[(1.0,), (0.5, 0.5), (0.25, 0.25, 0.25, 0.25)])
    assert isinstance(several, list) and len(several) == 3 and several[2] == pytest.approx(single)
    assert compat.sentence_bleu([["x"]], ["y"]) == 0 and isinstance(compat.sentence_bleu([["x"]], ["y"]), int)
    with pytest.raises(ToolBehaviourError) as info:
        compat.sentence_bleu([["a", "b"]], ["a", "c"], smoothing_function="method6")
    assert info.value.tool_error == "AssertionError"
    with pytest.raises(ToolBehaviourError) as info:
        compat.sentence_nist([["a", "b", "c"]], ["a", "b"])
    assert info.value.tool_error == "ZeroDivisionError"
    # auto_reweigh applies to the tuple (0.25,)*4 only, as in NLTK
    short = compat.sentence_bleu([["a", "b", "c"]], ["a", "b"], auto_reweigh=True)
    as_list = compat.sentence_bleu([["a", "b", "c"]], ["a", "b"], weights=[0.25] * 4, auto_reweigh=True)
    assert short == pytest.approx(0.6065306597126334) and as_list < 1e-100
