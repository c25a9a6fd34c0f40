"""GLEU against the frozen NLTK answers (fixtures/gleu, ``python -m conformance.regen gleu``) and the
command line: ``assay score gleu``, ``assay profiles gleu``, ``assay compare -m gleu``, bad input.

Every case of fixtures/gleu is also run by conformance/tests/engine/test_golden.py; here the cases
that pin one behaviour each are checked by name, so a failure says which behaviour broke.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay
from conformance.fixture_io import FIXTURES, within
from conformance.tests.cli.test_bad_input import run, work  # noqa: F401  (work: a fixture)

FILES = ("nltk_generated", "edge", "hf13a")


def _cases() -> dict[str, dict[str, Any]]:
    out = {}
    for name in FILES:
        doc = json.loads((FIXTURES / "gleu" / f"{name}.json").read_text(encoding="utf-8"))
        assert doc["format"] == "assay-fixtures/1" and doc["metric"] == "gleu"
        assert doc["generated_by"]["tools"]["nltk"] == "3.10.4", doc["generated_by"]
        for case in doc["cases"]:
            out[case["id"]] = case
    return out


CASES = _cases()


def _value(case: dict[str, Any]) -> Any:
    if case["level"] == "corpus":
        return assay.score("gleu", case["hyps"], case["refs"], case["profile"], **case["knobs"]).value
    return [s.value for s in assay.sentence_scores("gleu", case["hyps"], case["refs"], case["profile"],
                                                   **case["knobs"])]


def _expected(case_id: str) -> Any:
    (exp,) = CASES[case_id]["expected"]
    assert exp["tool"] == "nltk" and exp["command"].startswith("nltk.translate.gleu_score.")
    return exp["score"]


def test_fixtures_cover_both_profiles_levels_and_orders() -> None:
    profiles = {c["profile"] for c in CASES.values()}
    levels = {c["level"] for c in CASES.values()}
    orders = {(c["knobs"].get("min_ngram_order", 1), c["knobs"].get("max_ngram_order", 4)) for c in CASES.values()}
    assert profiles == {"nltk", "hf-evaluate"} and levels == {"corpus", "sentence"}
    assert len(orders) >= 6, orders
    assert sum(len(c["refs"]) > 1 for c in CASES.values()) >= 50


@pytest.mark.parametrize("case_id", sorted(i for i in CASES if i.startswith("edge/")))
def test_edge_case(case_id: str) -> None:
    want, got = _expected(case_id), _value(CASES[case_id])
    if isinstance(want, list):
        assert len(want) == len(got) and all(within(w, g, {"rel": 1e-9}) for w, g in zip(want, got)), (want, got)
    else:
        assert within(want, got, {"rel": 1e-9}), (want, got)


def test_ties_go_to_the_first_reference() -> None:
    """1/2 and 2/4 are equal ratios: NLTK keeps the first one listed, so listing the references in the
    other order changes the corpus score (2/3 vs 3/5)."""
    first, second = _expected("edge/tie-first/corpus"), _expected("edge/tie-second/corpus")
    assert first != second
    assert _value(CASES["edge/tie-first/corpus"]) == first
    assert _value(CASES["edge/tie-second/corpus"]) == second


def test_empty_sides() -> None:
    """An empty hypothesis adds the reference's n-grams to the total; empty on both sides adds nothing;
    a corpus with nothing at all scores 0 (not NaN)."""
    for name in ("empty-hyp", "empty-ref", "empty-both", "empty-corpus"):
        assert _value(CASES[f"edge/{name}/corpus"]) == _expected(f"edge/{name}/corpus"), name
    assert _expected("edge/empty-corpus/corpus") == 0.0


def test_components_count_matches_and_totals() -> None:
    """``the the the the the the`` against ``the cat is on the mat``: 2 unigram matches (six ``the``
    clipped to the reference's two), none of higher order (``the the`` is not in the reference); total
    max(6+5+4+3, 6+5+4+3) = 18. The value is NLTK's; the counts are the value's numerator and denominator."""
    score = assay.score("gleu", ["the the the the the the"], [["the cat is on the mat"]], "nltk")
    assert score.components == {"matches": 2, "total": 18}
    assert score.value == _expected("edge/clipping/corpus") == 2 / 18


# ----------------------------------------------------------------------------- command line




def test_cli_score_and_profiles(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["score", "gleu", "-p", "nltk", "-i", "hyp.txt", "-r", "ref1.txt", "ref2.txt"], capsys)
    assert code == 0 and out.startswith("GLEU = 0."), out
    code, out, _ = run(["score", "gleu", "-p", "hf-evaluate", "-i", "hyp.txt", "-r", "ref1.txt", "-f", "json"],
                        capsys)
    doc = json.loads(out)
    assert code == 0 and doc["metric"] == "gleu" and doc["name"] == "GLEU" and doc["profile"] == "hf-evaluate"
    assert set(doc["components"]) == {"matches", "total"}
    code, out, _ = run(["profiles", "gleu"], capsys)
    assert code == 0 and "gleu/hf-evaluate (default)" in out and "gleu/nltk" in out


def test_cli_compare_attributes_the_tokenizer(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["compare", "-i", "hyp.txt", "-r", "ref1.txt", "ref2.txt", "-m", "gleu", "--attribute",
                         "nltk", "hf-evaluate"], capsys)
    assert code == 0, out
    assert "== gleu: GLEU" in out and "tokenize: none → 13a" in out


@pytest.mark.parametrize("args,needle", [
    (["--set", "max_ngram_order=0"], "max_ngram_order"),
    (["--set", "min_ngram_order=3", "--set", "max_ngram_order=2"], "min_ngram_order=3 > max_ngram_order=2"),
    (["--set", "multi_ref=worst"], "multi_ref"),
    (["--set", "order=3"], "unknown knob 'order'"),
    (["-p", "sacrebleu"], "unknown profile 'sacrebleu' for metric 'gleu'"),
])
def test_cli_bad_knobs(work: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str) -> None:
    code, out, err = run(["score", "gleu", "-i", "hyp.txt", "-r", "ref1.txt", *args], capsys)
    assert code == 2 and out == "", err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error: ") and needle in lines[0], err


def test_cli_mismatched_lines(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "short.txt").write_text("one line\n", encoding="utf-8")
    code, out, err = run(["score", "gleu", "-i", "hyp.txt", "-r", "short.txt"], capsys)
    assert code == 2 and out == "" and "short.txt" in err and len(err.splitlines()) == 1, err


# ----------------------------------------------------------------------------- knob stages
def test_segment_stats_read_only_text_and_statistics_knobs() -> None:
    """The Evaluator shares rows between configurations that agree on text- and statistics-stage knobs,
    so ``segment_stats`` must read no score-stage knob (``averaging``, ``scale``)."""
    from assay.engine.api import make_config
    from assay.engine.evaluate import ReadTrackingConfig
    from assay.engine.registry import get_family
    family = get_family("gleu")
    for profile, knobs in (("nltk", {}), ("hf-evaluate", {"averaging": "segments", "scale": 100}),
                           ("nltk", {"multi_ref": "first", "lowercase": True, "min_ngram_order": 2})):
        config = ReadTrackingConfig(make_config("gleu", profile, **knobs)[0])
        family.segment_stats(["a b c", "d e"], [["a b x", "d e"], [None, "d"]], config)
        read = {k for k in config.read if k in family.knobset}    # tokenize_refs also asks for BLEU's knobs
        wrong = {k: family.knobset[k].stage for k in read if family.knobset[k].stage not in ("text", "statistics")}
        assert read and not wrong, wrong
