"""assay report: end to end on the bundled sample; self-contained HTML that renders in Chromium.

The page in a real browser: test_report_browser.py (the sample's report is written once per
session: conftest.py).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from assay.cli.main import main
from assay.jobs.report import discover_corpus, sample_dir
from conformance.references.availability import require

ROOT = Path(__file__).resolve().parents[3]


def test_report_writes_its_files(sample_report: Path) -> None:
    for name in ("index.html", "report.md", "summary.json"):
        assert (sample_report / name).is_file()
    md = (sample_report / "report.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\((plots/[^)]+)\)", md)
    assert len(images) >= 15
    for rel in images:                 # every chart: SVG from a template, well-formed, nothing external
        data = (sample_report / rel).read_bytes()
        root = ElementTree.fromstring(data)
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and b"href" not in data and len(data) > 1000
    assert {Path(rel).suffix for rel in images} == {".svg"}
    assert {p.suffix for p in (sample_report / "plots").iterdir()} == {".svg"}
    summary = json.loads((sample_report / "summary.json").read_text(encoding="utf-8"))
    assert summary["segments"] == 300 and summary["references"] == 2
    metrics = {m["metric"] for m in summary["metrics"]}
    assert {"bleu", "chrf", "ter", "nist", "rouge", "cider"} <= metrics
    for sec in summary["sections"]:
        for att in sec["attributions"]:
            assert abs(sum(att["parts"].values()) - att["total"]) <= 1e-9 * max(1, abs(att["start"]), abs(att["end"]))
    # every kind of plot is there
    for kind in ("scores-bleu", "waterfall-bleu-BLEU-sacrebleu-nltk", "dist-bleu", "scatter-bleu"):
        assert any(kind in rel for rel in images), kind
    assert "Tool versions" in md and "2.6.0" in md


def test_html_is_self_contained(sample_report: Path) -> None:
    """One file: charts inline SVG, scripts and styles inline, no URL to fetch; the page is made
    from the package's templates (no HTML is assembled from strings in impl/assay/jobs/report)."""
    html = (sample_report / "index.html").read_text(encoding="utf-8")
    assert not re.findall(r'(?:src|href)="([^"#]+)"', html) and "<img" not in html
    md = (sample_report / "report.md").read_text(encoding="utf-8")
    assert html.count("<svg") == len(re.findall(r"!\[[^\]]*\]\(plots/", md)) >= 15
    assert "xmlns" not in html                                  # the SVG charts inline, no namespace URL
    assert not re.search(r"<script[^>]*\bsrc=|<link\b|@import|url\(", html)
    assert "http://" not in html and "https://" not in html
    assert html.count("<script") == 2          # the explorer's JSON and its inline script
    assert 'id="summary"' in html and html.index('id="summary"') < html.index('id="explorer"') < html.index('id="details"')
    for source in (ROOT / "impl" / "assay" / "jobs" / "report").glob("*.py"):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"f[\"'][^\"']*<(?:td|tr|th|table|p|div|h[1-6]|html|figure|img)\b", text), source


def test_explorer_data_is_bounded_and_consistent(sample_report: Path) -> None:
    html = (sample_report / "index.html").read_text(encoding="utf-8")
    raw = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', html, re.S).group(1)
    data = json.loads(raw)
    summary = json.loads((sample_report / "summary.json").read_text(encoding="utf-8"))
    assert data["text"] is True and data["nrefs"] == 2 and data["cap"] >= len(data["segments"])
    keys = {f"{m['metric']} {m['measure']}" for m in summary["metrics"] if any(p["value"] is not None for p in m["profiles"])}
    assert keys == {m["key"] for m in data["measures"]}
    for m in data["measures"]:
        assert len(m["seg"]) == min(300, data["cap"]) and all(len(col) == len(m["seg"]) for col in m["scores"])
        for tok in m["toks"]:
            for k, (h, marks) in enumerate(zip(tok["h"], tok["hm"])):
                assert len(data["lists"][h]) == len(marks)
                assert len(tok["r"][k]) == 2


def test_help_says_what_the_plots_are(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = capsys.readouterr().out
    assert "PNG" in text and "SVG" in text and "plots/*.svg" in text


def test_reports_without_text_contain_no_segment(tmp_path: Path) -> None:
    d = sample_dir()
    out = tmp_path / "notext"
    assert main(["report", "-i", str(d / "hyp.txt"), "-r", str(d / "ref1.txt"), str(d / "ref2.txt"),
                 "-o", str(out), "--no-text", "--no-progress", "-m", "bleu,ter"]) == 0
    written = "".join((out / n).read_text(encoding="utf-8") for n in ("index.html", "report.md", "summary.json"))
    lines = (d / "hyp.txt").read_text(encoding="utf-8").splitlines() + \
        (d / "ref1.txt").read_text(encoding="utf-8").splitlines()
    long_lines = [ln for ln in lines if len(ln.split()) >= 5]
    assert long_lines
    for ln in long_lines:
        words = ln.split()
        for k in range(len(words) - 3):         # no run of 4 consecutive words of any segment
            assert " ".join(words[k:k + 4]) not in written, ln
    assert "segment" in written   # segment numbers are still there


def test_corpus_discovery(tmp_path: Path) -> None:
    (tmp_path / "sys.hyp.txt").write_text("a b\nc d\n", encoding="utf-8")
    (tmp_path / "ref.a.txt").write_text("a b\nc e\n", encoding="utf-8")
    (tmp_path / "ref.short.txt").write_text("a b\n", encoding="utf-8")
    hyp, refs = discover_corpus(tmp_path)
    assert hyp.name == "sys.hyp.txt" and [r.name for r in refs] == ["ref.a.txt"]
    assert main(["report", "--corpus", str(tmp_path / "missing")]) == 2


@pytest.mark.refs
def test_committed_sample_report_is_current(sample_report: Path) -> None:
    """reports/sample is what `assay report` writes for the bundled sample (numbers compared).

    In the refs env: `tox -e report` writes reports/ with the refs extra installed, whose
    pycocoevalcap carries METEOR 1.5's resources (without them meteor-1.5 is listed as unavailable)."""
    require("pycocoevalcap")
    committed = ROOT / "reports" / "sample" / "summary.json"
    if not committed.is_file():
        pytest.skip("reports/sample not generated in this checkout")
    a = json.loads(committed.read_text(encoding="utf-8"))
    b = json.loads((sample_report / "summary.json").read_text(encoding="utf-8"))
    for doc in (a, b):
        doc.pop("assay_version", None)
        doc.pop("title", None)
    assert a["metrics"] == b["metrics"]
    assert a["sections"] == b["sections"]




def test_matched_ngram_marks() -> None:
    """A token's mark is the longest n-gram (up to 4) containing it that the other side shares."""
    from assay.jobs.report.segments import kept_segments, marks
    hyp = "the cat sat on the mat".split()
    assert marks(hyp, ["a cat sat on a mat".split()]) == "033301"
    assert marks(hyp, ["the cat sat on the mat".split()]) == "444444"
    assert marks(hyp, [[]]) == "000000"
    assert marks(["x"], ["y".split(), "x z".split()]) == "1"
    import numpy as np
    scores = {"a": np.array([1.0, 5.0, 2.0, 9.0]), "b": np.array([1.0, 1.0, 2.0, 0.0])}
    assert kept_segments(scores, cap=2) == [1, 3]
