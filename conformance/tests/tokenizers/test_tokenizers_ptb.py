"""PTB tokenizer (pycocoevalcap 1.2 / CoreNLP 3.4.1) against the frozen jar outputs in fixtures/tokenizers/ptb.json.

Every fixture line was produced by the jar (see the file's ``generated_by``). A case whose output
differs must belong to a documented known divergence (``conformance.references.ptb_ref.KNOWN_DIVERGENCES``)
and the agreement over each set must stay at or above 99.9 %; everything else must match exactly,
both the raw tokens and the wrapper's COCO string.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tokenizers.ptb import COCO_PUNCTUATION, coco_tokenize, coco_tokenize_lines, ptb_tokenize, ptb_tokenize_lines
from conformance.references.ptb_ref import KNOWN_DIVERGENCES, kd_classes, wrapper_line

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "tokenizers" / "ptb.json"
DOC = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES = DOC["cases"]
MIN_AGREEMENT = 0.999


def _differs(case: dict) -> bool:
    return (ptb_tokenize(case["input"], case["following"]) != case["tokens"]
            or coco_tokenize(case["input"], case["following"]) != case["coco"])


def test_fixture_provenance() -> None:
    tool = DOC["generated_by"]["tool"]
    assert tool["jar"] == "stanford-corenlp-3.4.1.jar" and "-preserveLines -lowerCase" in tool["command"]
    assert len(CASES) >= 2000


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_golden(case: dict) -> None:
    got = ptb_tokenize(case["input"], case["following"])
    if got != case["tokens"]:
        kds = kd_classes(case["input"], case["following"])
        if kds:
            pytest.xfail(f"known divergence {', '.join(kds)}: jar {case['tokens']} vs assay {got}")
        assert got == case["tokens"]
    assert coco_tokenize(case["input"], case["following"]) == case["coco"]


def test_agreement_per_set() -> None:
    total, bad = Counter(), Counter()
    for case in CASES:
        name = case["id"].split("/")[0]
        total[name] += 1
        bad[name] += _differs(case)
    for name in total:
        assert 1 - bad[name] / total[name] >= MIN_AGREEMENT or bad[name] <= 2, (name, bad[name], total[name])


def test_research_p01() -> None:
    """Research case P01: the wrapper keeps -lrb-/-rrb-/-lcb-/-rcb- (case mismatch) and -lsb-/-rsb-."""
    caption = "A man's dog (brown) jumped -- over the fence... \"Wow!\" [really] {ok}"
    assert coco_tokenize(caption) == ("a man 's dog -lrb- brown -rrb- jumped over the fence wow -lsb- really "
                                      "-rsb- -lcb- ok -rcb-")


def test_batch_equals_fixture_files() -> None:
    """coco_tokenize_lines over a whole set reproduces the wrapper's batch (cross-line lookahead included)."""
    sets: dict[str, list[dict]] = {}
    for case in CASES:
        sets.setdefault(case["id"].split("/")[0], []).append(case)
    for name, cases in sets.items():
        got = coco_tokenize_lines([c["input"] for c in cases])
        for case, line in zip(cases, got):
            if line != case["coco"]:
                assert kd_classes(case["input"], case["following"]), (case["id"], line, case["coco"])


def test_cross_line_lookahead() -> None:
    """A sentence-final abbreviation depends on the next caption of the batch (observed on the jar)."""
    assert ptb_tokenize("He works at Apple Inc.", following="He is happy") == \
        ["he", "works", "at", "apple", "inc.", "."]
    assert ptb_tokenize("He works at Apple Inc.", following="x") == ["he", "works", "at", "apple", "inc."]
    assert ptb_tokenize("He works at Apple Inc.") == ["he", "works", "at", "apple", "inc.", "."]


#: (caption, the jar's raw tokens, pycocoevalcap's string), observed on stanford-corenlp-3.4.1.jar
#: (``PTBTokenizer -preserveLines -lowerCase``) and pycocoevalcap 1.2's ``PTBTokenizer().tokenize``,
#: 2026-11-26: a soft hyphen next to "_" (hypothesis found "\u00ad_" giving an empty token)
SOFT_HYPHEN_UNDERSCORE = [
    ("a\u00ad_b", ["a", "_", "b"], "a _ b"), ("ab_cd\u00ad", ["ab_cd", "-"], "ab_cd"),
    ("\u00ad_a", ["-", "_", "a"], "_ a"), ("a_b\u00adc", ["a_b", "c"], "a_b c"),
    ("ab\u00adcd_ef", ["abcd", "_", "ef"], "abcd _ ef"), ("\u00adab_cd\u00ad", ["ab", "_", "cd"], "ab _ cd"),
    ("x\u00ad_", ["x", "_"], "x _"), ("\u00ad_", ["-", "_"], "_"), ("\u00ad__a", ["-", "__", "a"], "__ a"),
]


@pytest.mark.parametrize("caption,tokens,coco", SOFT_HYPHEN_UNDERSCORE)
def test_soft_hyphen_next_to_underscore(caption: str, tokens: list[str], coco: str) -> None:
    """"_" joins letters and digits only where no soft hyphen touches them (observed on the jar)."""
    assert ptb_tokenize(caption) == tokens
    assert coco_tokenize_lines([caption]) == [coco]


def test_known_divergences_documented() -> None:
    for kd, (cause, pattern) in KNOWN_DIVERGENCES.items():
        assert kd.startswith("KD-PTB-") and cause and pattern


def test_bad_input() -> None:
    with pytest.raises(TypeError):
        coco_tokenize(None)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- properties
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_tokens_are_lowercase_and_spaceless(text: str) -> None:
    tokens = ptb_tokenize(text)
    for tok in tokens:
        assert tok and " " not in tok and "\n" not in tok
        assert tok == tok.lower()


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_coco_is_filtered_tokens(text: str) -> None:
    tokens = ptb_tokenize(text)
    assert coco_tokenize(text) == wrapper_line(" ".join(tokens))
    assert not set(coco_tokenize(text).split(" ")) & COCO_PUNCTUATION


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="abc ABC.'\"-,", max_size=20), min_size=1, max_size=6))
def test_batch_matches_single_with_following(captions: list[str]) -> None:
    batch = ptb_tokenize_lines(captions)
    for i, cap in enumerate(captions):
        following = captions[i + 1] if i + 1 < len(captions) else None
        assert batch[i] == ptb_tokenize(cap, following)
