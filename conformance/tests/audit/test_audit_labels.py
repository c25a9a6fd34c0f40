"""Audit: the target language, labels as evidence with a cost, double rounding and truncation, the
user's words, and one progress bar (default env: committed fixtures and worked examples only).

- the brief's worked example: 27.346 printed as 27.4 is rounding twice (27.346 -> 27.35 -> 27.4);
- claims printed by sacrebleu 2.6.0 on generated corpora (fixtures/audit/claims.json), relabelled
  or re-printed: the audit still names the tool's configuration, and says how the claim departs.
"""
from __future__ import annotations

import json
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

import pytest

from assay.cli.main import main
from assay.core.progress import ProgressBar
from assay.jobs.audit import space as sp
from assay.jobs.audit.claims import parse_claim
from assay.jobs.audit.language import detect_language, target_language
from assay.jobs.audit.search import Auditor
from assay.jobs.audit.verdict import audit_claim
from conformance.fixture_io import FIXTURES

CLAIMS: list[dict[str, Any]] = json.loads((FIXTURES / "audit" / "claims.json").read_text(encoding="utf-8"))["claims"]


# ----------------------------------------------------------------------------- printing
def test_double_rounding_and_truncation_worked_example() -> None:
    claim = parse_claim("BLEU 27.4")
    assert claim.printed_as(27.346) == "round-twice"          # 27.346 -> 27.35 -> 27.4
    assert claim.printing_steps(27.346, "round-twice").endswith("-> 27.35 -> 27.4")
    assert claim.printed_as(27.38) == "round"
    assert claim.printed_as(27.46) == "truncate"              # cut, not rounded: 27.46 -> 27.4
    assert claim.printed_as(27.30) is None
    assert parse_claim("BLEU 27.3").printed_as(27.399) == "truncate"


# ----------------------------------------------------------------------------- language
@pytest.mark.parametrize("lines, code", [
    (["私は学生です。", "今日は晴れています。"], "ja"),
    (["我是学生。", "今天天气很好。"], "zh"),
    (["저는 학생입니다.", "오늘은 날씨가 좋습니다."], "ko"),
    (["The cat sat on the mat.", "Der Hund schläft."], None),
])
def test_language_detected_from_scripts(lines: list[str], code: str | None) -> None:
    found = detect_language(lines)
    assert found.code == code
    assert found.how == ("detected" if code else "not detected")


def test_language_pair_names_the_target() -> None:
    assert target_language("en-ja") == "ja" and target_language("de") == "de" and target_language(None) is None


def test_standard_follows_the_language() -> None:
    """The standard en-ja BLEU is sacrebleu's ja-mecab (sacrebleu 2.6.0's -l en-ja), and 13a is the departure."""
    profile, knobs, _ = sp.standard("bleu", {}, (), None, 1, lang="ja")
    assert (profile, knobs.get("tokenize")) == ("sacrebleu", "ja-mecab")
    refs = sp.RefSubset("all", (0,))
    base = sp.language_base("bleu", "sacrebleu", "ja")
    std = sp.make_candidate("bleu", "sacrebleu", {"tokenize": "ja-mecab"}, refs, lang_base=base)
    tok13a = sp.make_candidate("bleu", "sacrebleu", {"tokenize": "13a"}, refs, lang_base=base)
    assert std.departures == 0 and std.cost == 0.0
    assert tok13a.departures == 1 and tok13a.cost > 0
    assert "ja-mecab" in sp.tokenize_axis("bleu", ("13a", "intl", "none", "zh", "char"), "ja")
    assert "ja-mecab" not in sp.tokenize_axis("bleu", ("13a", "intl", "none", "zh", "char"), "de")


def test_missing_tokenizer_is_said() -> None:
    """ko-mecab (sacrebleu's standard for Korean) is not in assay: the audit says so, it does not drop it silently."""
    hyps = ["저는 학생입니다.", "오늘은 날씨가 좋습니다."]
    auditor = Auditor("bleu", hyps, [hyps], lang=None, preprocessing=False)
    assert auditor.language.code == "ko"
    assert any("ko-mecab, the standard for Korean, cannot be searched" in n for n in auditor.notes), auditor.notes
    assert any("flores101" in n and "not searched" in n for n in auditor.notes)


# ----------------------------------------------------------------------------- labels
def test_bare_chrf_label_does_not_free_beta() -> None:
    """A bare "chrF" reads as sacrebleu names it (chrF2): chrF++ with beta 3 costs more than chrF2++."""
    refs = sp.RefSubset("all", (0,))
    readings = sp.readings("chrf", {})
    words = next(r for r in readings if r.name == "word_order")
    beta2 = sp.make_candidate("chrf", "sacrebleu-chrf++", {"beta": 2, "word_order": 2}, refs,
                              implied=words.implied(), reading=words)
    beta3 = sp.make_candidate("chrf", "sacrebleu-chrf++", {"beta": 3, "word_order": 2}, refs,
                              implied=words.implied(), reading=words)
    assert beta2.cost < beta3.cost and beta2.departures < beta3.departures


def _sacrebleu_claim(words: int) -> dict[str, Any]:
    return next(c for c in CLAIMS if c["tool"] == "sacrebleu" and c["claim"].startswith("chrF")
                and c["knobs"].get("word_order", 0) == words and c["refs_subset"] == "all")


def _is(cand: Any, case: dict[str, Any], metric: str) -> bool:
    import assay
    if cand.metric != metric or cand.refs.name != "all" or cand.prep != "raw" or cand.display != 1.0:
        return False
    want = assay.make_config(metric, case["profile"], **case["knobs"])[0]
    return assay.make_config(metric, cand.profile, **cand.knob_dict)[0] == want


def test_chrf_labelled_chrf_plus_plus_is_found() -> None:
    """A plain chrF2 number (printed by sacrebleu) published as "chrF++" is found, at a cost, and said."""
    case = _sacrebleu_claim(0)
    value = case["claim"].split()[-1]
    claim = parse_claim(f"chrF++ {value}")
    auditor = Auditor("chrf", case["hyps"], case["refs"], preprocessing=False)
    report = audit_claim(auditor, claim)
    found = [e for e in report.result.matches if _is(e.candidate, case, "chrf")]
    assert found and all(e.candidate.reading == "word_order" for e in found)
    if report.best is not None and report.best.candidate.reading:
        assert any(f.startswith("mislabelled: the number is chrF") and "not chrF2++" in f for f in report.findings)


def test_metric_label_swap_is_searched() -> None:
    """A sacrebleu chrF2 number (its defaults) published as "BLEU" is found (the label is evidence), and said."""
    case = next(c for c in CLAIMS if c["tool"] == "sacrebleu" and c["claim"].startswith("chrF2 ")
                and c["refs_subset"] == "all" and not any(c["knobs"].values()))
    claim = parse_claim("BLEU " + case["claim"].split()[-1])
    auditor = Auditor("bleu", case["hyps"], case["refs"], preprocessing=False)
    report = audit_claim(auditor, claim)
    swapped = [e for e in report.result.matches if _is(e.candidate, case, "chrf")]
    assert swapped and all(e.candidate.reading == "metric" for e in swapped)
    if report.best is not None and report.best.candidate.metric == "chrf":
        assert any(f.startswith("mislabelled: the number is chrF2, not BLEU") for f in report.findings)


def _printed(value: str, places: int, how: str) -> str | None:
    exact = Decimal(value)
    once = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    if how == "truncate":
        other = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_DOWN)
    else:
        other = exact.quantize(Decimal(1).scaleb(-(places + 1)), rounding=ROUND_HALF_UP) \
            .quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return str(other) if other != once else None


@pytest.mark.parametrize("how", ["truncate"])
def test_reprinted_tool_value_is_found(how: str) -> None:
    """A value sacrebleu printed, cut to fewer decimals, is found with that printing named (rounding twice
    needs digits the printed fixture values lack: the WMT claims of test_audit_wmt.py and the worked
    example above check it)."""
    for case in CLAIMS:
        name, value = case["claim"].rsplit(" ", 1)
        if case["tool"] != "sacrebleu" or "." not in value or len(value.split(".")[1]) < 2:
            continue
        places = len(value.split(".")[1]) - 1
        shown = _printed(value, places, how)
        if shown is None or case["refs_subset"] != "all":
            continue
        claim = parse_claim(f"{name} {shown}")
        auditor = Auditor(claim.metric, case["hyps"], case["refs"], preprocessing=False)
        report = audit_claim(auditor, claim)
        hits = [e for e in report.result.matches if _is(e.candidate, case, claim.metric)]
        assert hits and hits[0].printing in (how, "round"), [(e.candidate.label(), e.printing) for e in hits]
        if report.best is not None and report.best.printing == how:
            word = "truncated" if how == "truncate" else "rounded twice"
            assert any(f.startswith(word) for f in report.findings)
        return
    pytest.fail(f"no sacrebleu claim in claims.json can be re-printed by {how}")


# ----------------------------------------------------------------------------- words and progress
def test_progress_bar_counts_the_whole_search() -> None:
    case = CLAIMS[0]
    claim = parse_claim(case["claim"])
    auditor = Auditor(claim.metric, case["hyps"], case["refs"], preprocessing=False)
    bar = ProgressBar(enabled=False)
    result = auditor.search(claim, bar)
    assert bar.done == bar.total == len(result.evaluated) > 0


def test_cli_speaks_the_users_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """File names instead of ref1/ref2, no internal cost, no exception class names, no bar off a terminal."""
    case = next(c for c in CLAIMS if len(c["refs"]) == 2 and c["claim"].startswith("BLEU"))
    hyp = tmp_path / "system.out"
    hyp.write_text("\n".join(case["hyps"]) + "\n", encoding="utf-8")
    refs = []
    for name, stream in zip(("newstest.ref-A.txt", "newstest.ref-B.txt"), case["refs"]):
        (tmp_path / name).write_text("\n".join(stream) + "\n", encoding="utf-8")
        refs.append(str(tmp_path / name))
    assert main(["audit", "-i", str(hyp), "-r", *refs, "--claim", case["claim"], "--no-preprocessing",
                 "--max-matches", "200"]) == 0
    out, err = capsys.readouterr()
    auditor = Auditor("bleu", case["hyps"], case["refs"], preprocessing=False, ref_names=refs)
    assert [s.shown for s in auditor.subsets if s.kind == "single"] == ["newstest.ref-A.txt only",
                                                                        "newstest.ref-B.txt only"]
    for internal in ("refs=ref1", "refs=ref2", "cost", "[shown:", "Error)", "departures"):
        assert internal not in out, internal
    assert f"claim: {case['claim']}" in out
    assert err == ""


def test_reference_subsets_named_by_file() -> None:
    """Single references are named by their files; one file holding every reference (COCO JSON
    annotations) names them by position instead of failing."""
    subsets = sp.ref_subsets(2, has_empty=True)
    named = sp.name_subsets(subsets, ["dir/newstest.A.de", "dir/newstest.B.de"])
    assert [s.shown for s in named] == ["all", "newstest.A.de only", "newstest.B.de only",
                                        "all, empty lines as missing references"]
    coco = sp.name_subsets(sp.ref_subsets(3, has_empty=False), ["captions_val.json"])
    assert [s.shown for s in coco if s.kind == "single"] == [f"reference {i} of each segment only" for i in (1, 2, 3)]
