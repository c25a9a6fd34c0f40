"""``assay audit`` on GLEU claims: the claims are NLTK's frozen answers on the bundled sample
(fixtures/gleu/sample.json, ``python -m conformance.regen gleu``), printed as a paper would.

- the standard GLEU is HF evaluate's ``google_bleu`` (13a tokens); printed x100 it is reproduced
  under the standard configuration;
- NLTK on whitespace tokens is a different tool: found as ``gleu/nltk``;
- a number made against the first reference file only is found as that reference subset.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from assay.cli.main import main
from conformance.fixture_io import FIXTURES
from conformance.tests.cli.test_bad_input import work  # noqa: F401  (the sample-file scratch folder fixture)

FROZEN = {c["id"]: c["expected"][0]["score"]
          for c in json.loads((FIXTURES / "gleu" / "sample.json").read_text(encoding="utf-8"))["cases"]}




def _audit(claim: str, capsys: pytest.CaptureFixture[str]) -> dict:
    code = main(["audit", "-i", "hyp.txt", "-r", "ref1.txt", "ref2.txt", "--claim", claim, "-f", "json", "-q"])
    out = capsys.readouterr().out
    assert code == 0, out
    (report,) = json.loads(out)
    assert report["metric"] == "gleu"
    return report


def test_standard_gleu_is_hf_evaluate(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _audit(f"GLEU {100 * FROZEN['sample/hf-evaluate/2refs']:.2f}", capsys)
    assert report["verdict_text"] == "reproduced under the standard configuration", report["verdict_text"]
    assert report["standard"]["profile"] == "gleu/hf-evaluate"


def test_nltk_on_whitespace_tokens_is_named(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _audit(f"Google-BLEU {100 * FROZEN['sample/nltk/2refs']:.2f}", capsys)
    assert report["verdict"] == "reproduced-other", report["verdict_text"]
    assert report["best"]["profile"] == "gleu/nltk", report["best"]


def test_first_reference_only_is_found(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = _audit(f"GLEU {FROZEN['sample/nltk/ref1']:.4f}", capsys)
    found = {(m["profile"], m["references_shown"], tuple(sorted(m["knobs"].items()))) for m in report["matches"]}
    assert ("gleu/nltk", "ref1.txt only", ()) in found, found
