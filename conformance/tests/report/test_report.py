"""assay report: end to end on the bundled sample; self-contained HTML that renders in Chromium.

The Chromium test needs Debian's `chromium` (installed by .ci/run): under CI=true a missing
browser FAILS the test, locally it is skipped.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from assay.cli.main import main
from assay.jobs.report import discover_corpus, sample_dir
from conformance.references.availability import in_ci, require

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "sample"
    assert main(["report", "-o", str(out), "--no-progress"]) == 0
    return out


def test_report_writes_its_files(sample_report: Path) -> None:
    for name in ("index.html", "report.md", "summary.json"):
        assert (sample_report / name).is_file()
    md = (sample_report / "report.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[[^\]]*\]\((plots/[^)]+\.png)\)", md)
    assert len(images) >= 15
    for rel in images:
        data = (sample_report / rel).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    summary = json.loads((sample_report / "summary.json").read_text(encoding="utf-8"))
    assert summary["segments"] == 300 and summary["references"] == 2
    metrics = {m["metric"] for m in summary["metrics"]}
    assert {"bleu", "chrf", "ter", "nist", "rouge", "cider"} <= metrics
    for sec in summary["sections"]:
        for att in sec["attributions"]:
            assert abs(sum(att["parts"].values()) - att["total"]) <= 1e-9 * max(1, abs(att["start"]), abs(att["end"]))
    # every kind of plot is there
    for kind in ("scores-bleu", "waterfall-bleu-BLEU-sacrebleu-nltk", "dist-bleu"):
        assert any(kind in rel for rel in images), kind
    assert "Tool versions" in md and "2.6.0" in md


def test_html_is_self_contained(sample_report: Path) -> None:
    html = (sample_report / "index.html").read_text(encoding="utf-8")
    srcs = re.findall(r'(?:src|href)="([^"#]+)"', html)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "<script" not in html and "http://" not in html and "https://" not in html


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


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def test_html_renders_in_headless_chromium(sample_report: Path, tmp_path: Path) -> None:
    """The page loads without console errors and its plots are drawn (the default profile's bar
    colour of the first score plot appears in a screenshot)."""
    browser = _chromium()
    if browser is None:
        if in_ci():
            pytest.fail("chromium is not installed (CI must install it: apt-get install chromium)")
        pytest.skip("chromium not installed")
    shot = tmp_path / "shot.png"
    proc = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1200,1400",
         "--enable-logging=stderr", "--v=0", f"--screenshot={shot}", (sample_report / "index.html").as_uri()],
        capture_output=True, text=True, timeout=120)
    assert shot.is_file(), proc.stderr[-2000:]
    console = [ln for ln in proc.stderr.splitlines() if "CONSOLE" in ln]
    assert not console, console
    import numpy as np
    from PIL import Image
    img = np.asarray(Image.open(shot).convert("RGB"), dtype=np.int16)
    target = np.array([0x1F, 0x5F, 0xA8], dtype=np.int16)   # plots.DEFAULT_COLOUR: the default profile's bar
    pixels = int((np.abs(img - target) <= 6).all(axis=-1).sum())
    assert pixels > 500, f"no plot drawn in the screenshot ({pixels} bar pixels)"
