"""``assay audit`` names the true configuration of WMT-style claims (fixtures/audit/wmt_claims.json,
written by ``python -m conformance.regen audit-wmt`` from the live sacrebleu 2.6.0 command line on the
WMT22 outputs in ../shared/corpora): the language's own tokenizer (en-ja: ja-mecab, detected from
the text; en-zh: zh, from --lang), a mislabelled metric (chrF2 printed as BLEU, plain chrF2 as
chrF++, chrF2++ as bare chrF), a value rounded twice or truncated, and a single-reference score
audited with both reference files.

The inputs are the corpora's files (nothing of them is committed): every test here is marked
``corpora`` (skipped cleanly without ../shared/corpora) and ``slow`` (about 3 s each), except the en-ja
claim, which needs MeCab (the ja extra) and is marked ``refs`` instead (tox's refs env installs it)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from assay.cli.main import main
from conformance.fixture_io import FIXTURES

pytestmark = [pytest.mark.corpora]

CLAIMS: list[dict[str, Any]] = json.loads((FIXTURES / "audit" / "wmt_claims.json").read_text(encoding="utf-8"))["claims"]


def _param(case: dict[str, Any]) -> Any:
    marks = [pytest.mark.refs] if case["pair"] == "en-ja" else [pytest.mark.slow]
    return pytest.param(case, id=case["id"], marks=marks)


def _audit(corpora_dir: Path, case: dict[str, Any], capsys: pytest.CaptureFixture[str], fmt: str = "json") -> Any:
    args = ["audit", "-i", str(corpora_dir / case["hyp"]), "-r", *(str(corpora_dir / r) for r in case["refs"]),
            "--claim", case["claim"], "-f", fmt, "--no-preprocessing"]
    if case["lang"]:
        args += ["--lang", case["lang"]]
    assert main(args) == 0
    out = capsys.readouterr().out
    return json.loads(out)[0] if fmt == "json" else out


def test_fixture_kinds() -> None:
    """Every kind the issue names is exercised by at least one claim."""
    kinds = {c["kind"] for c in CLAIMS}
    assert {"language", "mislabelled", "double-rounding", "truncation", "reference-subset"} <= kinds
    assert {c["pair"] for c in CLAIMS if c["kind"] == "language"} >= {"en-ja", "en-zh"}


@pytest.mark.parametrize("case", [_param(c) for c in CLAIMS])
def test_audit_names_the_true_configuration(corpora_dir: Path, require_tool: Any, case: dict[str, Any],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    if case["pair"] == "en-ja":
        require_tool("MeCab")
        require_tool("ipadic")
    report = _audit(corpora_dir, case, capsys)
    want = case["expected"]
    best = report["matches"][0]
    got = {"profile": best["profile"], "knobs": best["knobs"], "references": best["references"],
           "printing": best["printing"], "label_read_as": best["label_read_as"]}
    assert got == {"profile": want["profile"], "knobs": want["knobs"], "references": want["references"],
                   "printing": want.get("printing", "round"), "label_read_as": want.get("label_read_as")}, \
        [m["configuration"] for m in report["matches"][:5]]
    if want.get("standard"):
        assert report["verdict"] == "reproduced" and report["verdict_text"].startswith(
            "reproduced under the standard configuration")
    else:
        assert report["verdict"] == "reproduced-other"
    if "label_read_as" in want:
        assert any(f.startswith("mislabelled: the number is ") for f in report["findings"]), report["findings"]
    if want.get("printing") == "round-twice":
        assert any(f.startswith("rounded twice: ") for f in report["findings"]), report["findings"]
    if want.get("printing") == "truncate":
        assert any(f.startswith("truncated, not rounded: ") for f in report["findings"]), report["findings"]


@pytest.mark.slow
def test_mislabelled_chrf_is_said(corpora_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A claim labelled chrF++ that is plain chrF2 is found, and the text says so in the claim's words."""
    case = next(c for c in CLAIMS if c["claim"].startswith("chrF++"))
    out = _audit(corpora_dir, case, capsys, fmt="text")
    assert "mislabelled: the number is chrF2, not chrF2++ (the claim says 'chrF++')" in out
    assert f"claim: {case['claim']}" in out
    for internal in ("cost", "[shown:", "KnobError", "departures"):
        assert internal not in out, internal


@pytest.mark.slow
def test_reference_subset_names_the_file(corpora_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference subset is named by its file, not as ``ref2``."""
    case = next(c for c in CLAIMS if c["kind"] == "reference-subset" and c["expected"]["references"] != "all")
    out = _audit(corpora_dir, case, capsys, fmt="text")
    assert f"refs={Path(case['refs'][1]).name} only" in out
    assert "refs=ref2" not in out
