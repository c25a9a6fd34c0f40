"""Issue 17, the last edges: the API's ``width``, expect-fail files read by Python callers, and
claimed values that no score of the metric can have. Each bad input is one of assay's own errors
naming what was wrong and where; at the command line, one ``assay: error:`` line and exit 2."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import assay
from assay.cli.main import main
from assay.core.errors import InputError, KnobError
from assay.engine import api
from assay.jobs.audit.claims import CLAIM_RANGES, is_value_text, parse_claim, range_problem
from assay.jobs.conform import suite

REPO_ROOT = Path(__file__).resolve().parents[3]
SAMPLE = REPO_ROOT / "fixtures" / "sample"
HYPS, REFS = ["the cat sat on the mat"], [["the cat sat on a mat"]]


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("hyp.txt", "ref1.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def one_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """``assay ARGS`` fails with exit 2 and exactly one ``assay: error:`` line, no traceback."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("assay: error: "), err
    return lines[0]


# ----------------------------------------------------------------------------- API width
@pytest.mark.parametrize("width", [-1, 18, 2.5, True, "3", float("nan")])
@pytest.mark.parametrize("call", [assay.score, assay.sentence_scores])
def test_api_width_outside_its_domain(call, width) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(KnobError, match=r"^width must be an integer >= 0 and <= 17 .*, got "):
        call("bleu", HYPS, REFS, width=width)


def test_api_width_from_statistics_and_in_domain() -> None:
    stats, config, profile, _ = api.compute_stats("chrf", HYPS, REFS)
    with pytest.raises(KnobError, match="width"):
        api.score_from_stats("chrf", stats, config, profile, "1", width=-1)
    assert api.score_from_stats("chrf", stats, config, profile, "1", width=0).text
    text = assay.score("bleu", HYPS, REFS, width=17).text
    assert f"{assay.score('bleu', HYPS, REFS).value:.17f}" in text
    assert assay.score("bleu", HYPS, REFS, width=2.0).text == assay.score("bleu", HYPS, REFS, width=2).text


# ----------------------------------------------------------------------------- expect-fail files
def test_expect_fail_undecodable_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "known.txt"
    path.write_bytes(b"# known\nbleu/a/*\n\xff\xfe\n")
    with pytest.raises(InputError, match=rf"{path}:3: invalid UTF-8 \(byte 0xff"):
        suite.read_expect_fail(path)


@pytest.mark.parametrize("content, line, char", [
    ("bleu/a/1 bleu/a/2\n", 1, "U+0020"),               # two ids on one line
    ("# c\n\nbleu/a/1\tx\n", 3, "U+0009"),
    ("bleu/\x1b[31m/x\n", 1, "U+001B"),
    ("ok/1\nbad\u202e/2\n", 2, "U+202E"),
])
def test_expect_fail_bad_entry_names_file_and_line(tmp_path: Path, content: str, line: int, char: str) -> None:
    path = tmp_path / "known.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=rf"^{path}:{line}: expected one case id or glob per line, .*{re.escape(char)}"):
        suite.read_expect_fail(path)


def test_expect_fail_paths_and_accepted_forms(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=rf"cannot read expect-fail file {tmp_path}: is a directory"):
        suite.read_expect_fail(tmp_path)
    with pytest.raises(InputError, match="expected a path, got int"):
        suite.read_expect_fail(3)  # type: ignore[arg-type]
    path = tmp_path / "known.txt"
    path.write_text("\ufeffbleu/a/1  # comment\r\n\n   \nrouge/*\n", encoding="utf-8")
    assert suite.read_expect_fail(path) == ["bleu/a/1", "rouge/*"]
    assert suite.read_expect_fail(str(path)) == ["bleu/a/1", "rouge/*"]


def test_conform_cli_expect_fail_with_two_ids_on_a_line(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "known.txt").write_text("bleu/x/1 bleu/x/2\n", encoding="utf-8")
    msg = one_error(["conform", "direct:assay.jobs.conform.assay_impl:profiles[bleu/sacrebleu]", "--metric", "bleu",
                     "--expect-fail", "known.txt", "--run", "bleu/research_sacrebleu/*"], capsys)
    assert "known.txt:1:" in msg


# ----------------------------------------------------------------------------- claimed values
@pytest.mark.parametrize("claim, fragment", [
    ("BLEU 1e308", "1e+308 is outside the range of BLEU scores, which are 0 to 100"),
    ("BLEU 150", "150 is outside the range of BLEU scores"),
    ("BLEU -5", "-5 is outside the range of BLEU scores"),
    ("chrF2 100.5", "100.5 is outside the range of chrF2 scores"),
    ("ROUGE-L 101", "outside the range of ROUGE-L scores"),
    ("METEOR -0.1", "outside the range of METEOR scores"),
    ("TER -1", "-1 is outside the range of TER scores, which are >= 0"),
    ("CIDEr-D -2", "outside the range of CIDEr-D scores"),
])
def test_claim_outside_the_metric_range(claim: str, fragment: str) -> None:
    problem = range_problem(parse_claim(claim))   # the audit still lists the nearest configurations
    assert problem is not None and fragment in problem
    assert len(problem) < 200


@pytest.mark.parametrize("claim, fragment", [
    ("BLEU inf", "inf is infinite"),
    ("BLEU -Infinity", "-Infinity is infinite"),
    ("BLEU nan", "nan is not a number"),
    ("BLEU 1" + "0" * 400, "is beyond the largest double"),
    ("NIST NaN", "NaN is not a number"),
])
def test_claim_that_is_no_number(claim: str, fragment: str) -> None:
    with pytest.raises(InputError, match="^claim ") as err:
        parse_claim(claim)
    assert fragment in str(err.value) and len(str(err.value)) < 300


def test_claims_inside_the_range_and_exponents() -> None:
    for text in ("TER 150", "CIDEr-D 117.9", "NIST 1e3", "BLEU 0", "BLEU 100", "BLEU 0.284"):
        assert range_problem(parse_claim(text)) is None   # TER has no upper bound; papers print CIDEr x100
    claim = parse_claim("BLEU 2.84e1")
    assert (claim.value, claim.decimals) == (28.4, 1)
    assert parse_claim("BLEU 1e-3").decimals == 3 and parse_claim("NIST 1e3").value == 1000.0
    from assay.core.family import METRIC_NAMES
    assert set(CLAIM_RANGES) == set(METRIC_NAMES) - {"coco"}     # every family a claim can name
    assert is_value_text("inf") and is_value_text("28.4%") and is_value_text("1e308") and not is_value_text("value")


@pytest.mark.parametrize("claim", ["BLEU inf", "BLEU nan", "BLEU -inf", "BLEU 1" + "0" * 400])
def test_audit_cli_rejects_claims_that_are_no_number(work: Path, capsys: pytest.CaptureFixture[str],
                                                     claim: str) -> None:
    msg = one_error(["audit", "-i", "hyp.txt", "-r", "ref1.txt", "--claim", claim], capsys)
    assert "BLEU" in msg and ("infinite" in msg or "not a number" in msg or "largest double" in msg), msg
    assert "unknown metric" not in msg and len(msg) < 300


@pytest.mark.parametrize("claim, shown", [("BLEU 1e308", "1e+308"), ("BLEU -5", "-5"), ("BLEU 150", "150")])
def test_audit_cli_says_a_claim_is_outside_the_range(work: Path, capsys: pytest.CaptureFixture[str],
                                                     claim: str, shown: str) -> None:
    """Before: ``BLEU 1e308`` was an unknown metric ``BLEU 1e``; 400 digits read as inf and were
    "reproduced under the stated configuration" by every configuration."""
    assert main(["audit", "-i", "hyp.txt", "-r", "ref1.txt", "--claim", claim, "--no-preprocessing"]) == 0
    out = capsys.readouterr().out
    assert (f"verdict: not reproducible: {shown} is outside the range of BLEU scores, which are 0 to 100"
            in out), out
    assert "nearest configurations:" in out and max(len(line) for line in out.splitlines()) < 400
    assert main(["audit", "-i", "hyp.txt", "-r", "ref1.txt", "--claim", claim, "--no-preprocessing",
                 "-f", "json"]) == 0
    report = json.loads(capsys.readouterr().out)[0]
    assert report["verdict"] == "not-reproducible" and "outside the range" in report["out_of_range"]


def test_audit_table_first_row_with_an_impossible_value_is_no_header(work: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A first row whose value is ``inf`` was taken for a header and skipped without a word."""
    (work / "claims.tsv").write_text("hyp.txt\tref1.txt\tBLEU\tinf\n", encoding="utf-8")
    msg = one_error(["audit", "--table", "claims.tsv"], capsys)
    assert "claims.tsv:1:" in msg and "infinite" in msg
