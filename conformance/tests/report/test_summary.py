"""The report's summary: it heads report.md and summary.json, names per measure the pair furthest
apart and the knob with the largest Shapley part, and that part is the one `assay compare
--attribute LOW HIGH` prints for the same pair (both are assay's own attribution: this checks that
the report and compare agree, not a tool's number)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assay.cli.main import main
from assay.jobs.report import sample_dir
from assay.jobs.report.summary import value_words

METRICS = "bleu,chrf,rouge,cider"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("summary") / "r"
    assert main(["report", "-o", str(out), "--no-progress", "-m", METRICS]) == 0
    return out


def _summary(report: Path) -> list[dict]:
    doc = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert next(iter(doc)) == "summary"            # the first key
    return doc["summary"]


def test_summary_heads_markdown_and_json(report: Path) -> None:
    rows = _summary(report)
    assert [(r["metric"], r["measure"]) for r in rows] == [
        ("bleu", "BLEU"), ("chrf", "chrF"), ("rouge", "rouge1"), ("rouge", "rouge2"), ("rouge", "rougeL"),
        ("rouge", "rougeLsum"), ("cider", "CIDEr")]
    md = (report / "report.md").read_text(encoding="utf-8")
    head = md.split("\n## ")[1]
    assert head.startswith("Summary")
    for r in rows:
        assert r["sentence"] in head
        assert r["spread"] == pytest.approx(r["high"]["score"] - r["low"]["score"], abs=1e-12)
        if r["knob"] is not None:
            assert r["knob_fraction"] == pytest.approx(r["knob_share"] / r["spread"], rel=1e-12)
            assert f" {r['knob']}" in r["sentence"] and r["low"]["profile"] in r["sentence"]
    cider = next(r for r in rows if r["metric"] == "cider")
    assert cider["scale"] == "CIDEr x100"          # the printed scale, not 0-100
    assert "\n## bleu — BLEU" in md and md.index("## Summary") < md.index("## bleu — BLEU")


def test_summary_share_agrees_with_compare_attribute(report: Path, capsys) -> None:
    d = sample_dir()
    rows = [r for r in _summary(report) if r["knob"] is not None]
    assert len(rows) >= 5
    for r in rows:
        capsys.readouterr()
        assert main(["compare", "-i", str(d / "hyp.txt"), "-r", str(d / "ref1.txt"), str(d / "ref2.txt"),
                     "-m", r["metric"], "--attribute", r["low"]["profile"], r["high"]["profile"], "-f", "json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        (att,) = [a for a in doc["attributions"] if a["measure"] == r["measure"]]
        parts = att["normalised_parts"] or att["parts"]
        biggest = max((k for k in parts if k != "scale"), key=lambda k: abs(parts[k]))
        assert biggest == r["knob"], r
        assert parts[r["knob"]] == pytest.approx(r["knob_share"], rel=1e-12, abs=1e-12), r


def test_no_effect_players_are_one_line(report: Path) -> None:
    """sacrebleu -> sacrebleu@1 BLEU changes knobs without effect on this corpus: one "no effect" row
    names them, no +0 row per knob. "No effect" is zero up to the last bits of floating-point
    arithmetic (attribution.NEGLIGIBLE = 1e-9: e.g. BLEU's score_arithmetic moves a score by ~1e-14)."""
    doc = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    atts = [a for s in doc["sections"] for a in s["attributions"]]
    folded = [a for a in atts if a["no_effect"]]
    assert folded
    for a in folded:
        assert all(abs(a["parts"][k]) <= 1e-9 for k in a["no_effect"])
    md = (report / "report.md").read_text(encoding="utf-8")
    a = folded[0]
    block = md.split(f"### {a['from']} → {a['to']}")[1].split("\n\n")[1]
    assert re.search(r"\| no effect *\| " + re.escape(", ".join(a["no_effect"])), block)
    for k in a["no_effect"]:
        assert f"\n| {k} |" not in block


def test_value_words_come_from_the_declared_help() -> None:
    assert "str.split()" in value_words("bleu", "tokenize", "none")          # the tokenizer's own docstring
    assert value_words("chrf", "multi_ref", "first") == "only the first stream (sacrebleu 1.x)"
    assert value_words("rouge", "tokenizer", "rouge-score") == "Unicode lower(), then the same ASCII filter"
    assert value_words("bleu", "nosuch", 1) == ""


@pytest.mark.slow
def test_committed_corpus_summaries_agree_with_compare(corpora_dir: Path, capsys) -> None:
    """Every committed corpus report (reports/corpora, `tox -e report`): its summary names, per measure
    with a gap, the knob with the largest share, and `assay compare --attribute LOW HIGH` on the same
    corpus and system gives that knob the same share."""
    from assay.jobs.report.corpora import find_corpora
    committed = Path(__file__).resolve().parents[3] / "reports" / "corpora"
    corpora = {c.name: c for c in find_corpora(corpora_dir)}
    checked = 0
    for path in sorted(committed.glob("*/summary.json")):
        corpus = corpora.get(path.parent.name)
        if corpus is None:
            continue
        rows = json.loads(path.read_text(encoding="utf-8")).get("summary")
        assert rows, f"{path}: no summary (regenerate reports/ with tox -e report)"
        for r in rows:
            if r["knob"] is None:
                assert r["spread"] == 0 or "no attribution" in r["sentence"] or "scale" in r["sentence"], r
                continue
            capsys.readouterr()
            assert main(["compare", "-i", str(corpus.systems[0]), "-r", *map(str, corpus.refs), "-m", r["metric"],
                         "--attribute", r["low"]["profile"], r["high"]["profile"], "-f", "json"]) == 0
            doc = json.loads(capsys.readouterr().out)
            (att,) = [a for a in doc["attributions"] if a["measure"] == r["measure"]]
            parts = att["normalised_parts"] or att["parts"]
            assert max((k for k in parts if k != "scale"), key=lambda k: abs(parts[k])) == r["knob"], (path, r)
            assert parts[r["knob"]] == pytest.approx(r["knob_share"], rel=1e-9, abs=1e-9), (path, r)
            checked += 1
    assert checked, "no committed corpus report matched a corpus"
