"""CLI tests: ``assay`` run as a subprocess on the bundled sample corpus (fixtures/sample).

Expected numbers never come from assay. They were produced by the reference tools on the
sample files and frozen here; each constant names the command and tool version:

    cd fixtures/sample
    /tmp/refvenv/bin/python -c "import sacrebleu; from sacrebleu.metrics import BLEU; ..."   # sacrebleu 2.6.0
    /tmp/refvenv/bin/python -m sacrebleu ref1.txt ref2.txt -i hyp.txt -f text                  # sacrebleu 2.6.0

The ``refs`` and ``legacy`` tests at the end re-run the live tools (when tox installs them) and
compare the CLI's text line by line.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import assay

REPO_ROOT = Path(__file__).resolve().parents[3]
INSTALLED = not Path(assay.__file__).resolve().is_relative_to(REPO_ROOT / "impl")
SAMPLE = REPO_ROOT / "fixtures" / "sample"
REL = 1e-9

# sacrebleu 2.6.0: BLEU().corpus_score(hyp, [ref1, ref2]) on fixtures/sample (.score, full repr)
SB_CORPUS_2REFS = 51.435640263178634
# ... .counts / .totals / .sys_len / .ref_len / .bp of the same call
SB_COUNTS = [333, 220, 143, 93]
SB_TOTALS = [385, 345, 305, 265]
SB_SYS_LEN, SB_REF_LEN = 385, 410
SB_BP = 0.937128313889631
# sacrebleu 2.6.0: BLEU().corpus_score(hyp, [ref1]).score
SB_CORPUS_REF1 = 47.108636357579655
# sacrebleu 2.6.0: BLEU(tokenize="none").corpus_score(hyp, [ref1, ref2]).score
SB_TOK_NONE = 47.30724060291525
# sacrebleu 2.6.0: BLEU(lowercase=True).corpus_score(hyp, [ref1, ref2]).score
SB_LOWERCASE = 51.81614154763734
# sacrebleu 2.6.0: `python -m sacrebleu ref1.txt ref2.txt -i hyp.txt -f text` (default width 1)
SB_TEXT = ("BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 51.4 86.5/63.8/46.9/35.1 "
           "(BP = 0.937 ratio = 0.939 hyp_len = 385 ref_len = 410)")
# sacrebleu 2.6.0: `python -m sacrebleu ref1.txt ref2.txt -i hyp.txt -f text -w 6`
SB_TEXT_W6 = ("BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 51.435640 "
              "86.5/63.8/46.9/35.1 (BP = 0.937 ratio = 0.939 hyp_len = 385 ref_len = 410)")
# sacrebleu 2.6.0: [sacrebleu.sentence_bleu(h, [r1, r2]).score for h, r1, r2 in zip(hyp, ref1, ref2)]
SB_SENTENCE = [
    63.601880277075544, 100.00000000000004, 50.353378875558576, 32.46679154750989, 35.494810560100525,
    51.56626918239823, 100.00000000000004, 46.307771619910305, 35.54333944875169, 58.77283725105324,
    37.70063804549471, 100.00000000000004, 21.200626759025184, 16.735949370018847, 34.13065354365521,
    35.494810560100525, 34.56232340002788, 6.09604579835652, 15.510080985034998, 4.691812222477093,
    46.17366309441026, 30.739407647563215, 45.180100180492246, 75.06238537503395, 100.00000000000004,
    39.281465090051285, 57.73502691896257, 60.767958081376904, 36.20102485057091, 32.46679154750989,
    19.692104496063735, 63.11969078225887, 67.0422683816333, 73.48889200874659, 66.06328636027612,
    48.10977290978806, 100.00000000000004, 21.87405715612323, 60.653065971263366, 16.605579150202516,
]
# nltk 3.10.4: corpus_bleu([[r1.split(), r2.split()] ...], [h.split() ...]) (method0, default weights)
NLTK_CORPUS = 0.47111766915192066
# nltk 3.10.4: the same with smoothing_function=SmoothingFunction().method2
NLTK_METHOD2 = 0.4731235302570419
# nltk 3.5 (/tmp/legacyvenv): the same with method2 (3.5 also add-one smooths unigrams)
NLTK35_METHOD2 = 0.47319885827434166


def close(expected: float, got: float, rel: float = REL) -> bool:
    return abs(got - expected) <= rel * abs(expected)


def assay_cmd() -> list[str]:
    return [sys.executable, "-m", "assay.cli.main"]


def run(args: list[str], cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(assay_cmd() + args, cwd=cwd, input=stdin, capture_output=True, timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8"),
                                       proc.stderr.decode("utf-8"))


def ok(args: list[str], cwd: Path, stdin: bytes | None = None) -> str:
    proc = run(args, cwd, stdin)
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr}"
    assert proc.stderr == ""
    return proc.stdout


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """A scratch directory holding copies of the sample files (so messages show short names)."""
    for name in ("hyp.txt", "ref1.txt", "ref2.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    return tmp_path


SCORE = ["score", "bleu", "-i", "hyp.txt", "-r", "ref1.txt", "ref2.txt"]


# ----------------------------------------------------------------------------- sample corpus
def test_sample_is_aligned_and_clean() -> None:
    counts = []
    for name in ("hyp.txt", "ref1.txt", "ref2.txt"):
        data = (SAMPLE / name).read_bytes()
        text = data.decode("utf-8")
        assert text.endswith("\n") and "\r" not in text
        lines = text.split("\n")[:-1]
        assert all(line.strip() for line in lines), f"{name} has an empty line"
        counts.append(len(lines))
    assert counts[0] >= 40 and len(set(counts)) == 1


# ----------------------------------------------------------------------------- score
def test_score_text_matches_sacrebleu_cli(work: Path) -> None:
    assert ok(SCORE, work) == SB_TEXT + "\n"


def test_score_text_width(work: Path) -> None:
    assert ok(SCORE + ["-w", "6"], work) == SB_TEXT_W6 + "\n"


def test_score_json(work: Path) -> None:
    out = ok(SCORE + ["--format", "json"], work)
    lines = out.splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    for key in ("metric", "profile", "knobs", "score", "components", "signature"):
        assert key in doc, key
    assert doc["metric"] == "bleu"
    assert doc["profile"] == "sacrebleu"
    assert doc["signature"] == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    assert doc["knobs"]["tokenize"] == "13a" and doc["knobs"]["smooth_method"] == "exp"
    assert close(SB_CORPUS_2REFS, doc["score_exact"])
    comp = doc["components"]
    assert comp["counts"] == SB_COUNTS and comp["totals"] == SB_TOTALS
    assert comp["sys_len"] == SB_SYS_LEN and comp["ref_len"] == SB_REF_LEN
    assert close(SB_BP, comp["bp"])


def test_score_single_reference(work: Path) -> None:
    doc = json.loads(ok(["score", "bleu", "-i", "hyp.txt", "-r", "ref1.txt", "-f", "json"], work))
    assert close(SB_CORPUS_REF1, doc["score_exact"])
    assert doc["signature"].startswith("nrefs:1|")


def test_score_stdin(work: Path) -> None:
    stdin = (work / "hyp.txt").read_bytes()
    doc = json.loads(ok(["score", "bleu", "-i", "-", "-r", "ref1.txt", "ref2.txt", "-f", "json"], work, stdin))
    assert close(SB_CORPUS_2REFS, doc["score_exact"])


@pytest.mark.parametrize("knob,expected", [
    ("tokenize=none", SB_TOK_NONE),
    ("lowercase=true", SB_LOWERCASE),
    ("smooth_method=none", SB_CORPUS_2REFS),  # nothing to smooth at corpus level on this sample
])
def test_score_set_knob(work: Path, knob: str, expected: float) -> None:
    doc = json.loads(ok(SCORE + ["--set", knob, "-f", "json"], work))
    assert close(expected, doc["score_exact"])
    name, value = knob.split("=")
    assert str(doc["knobs"][name]).lower() == value


@pytest.mark.parametrize("profile", ["nltk", "bleu/nltk"])
def test_score_profile_nltk(work: Path, profile: str) -> None:
    doc = json.loads(ok(SCORE + ["--profile", profile, "-f", "json"], work))
    assert doc["profile"] == "nltk"
    assert doc["knobs"]["tokenize"] == "none"
    assert close(NLTK_CORPUS, doc["score_exact"])


def test_score_profile_and_set_together(work: Path) -> None:
    doc = json.loads(ok(SCORE + ["-p", "nltk", "--set", "smoothing=method2", "-f", "json"], work))
    assert doc["knobs"]["smooth_method"] == "add-k"
    assert close(NLTK_METHOD2, doc["score_exact"])


def test_sentence_json(work: Path) -> None:
    out = ok(SCORE + ["--sentence", "--format", "json"], work)
    lines = out.splitlines()
    assert len(lines) == len(SB_SENTENCE)
    for i, (line, expected) in enumerate(zip(lines, SB_SENTENCE), start=1):
        doc = json.loads(line)
        assert {"metric", "profile", "knobs", "score", "components", "signature"} <= set(doc)
        assert doc["knobs"]["effective_order"] is True  # sentence_bleu's default
        assert close(expected, doc["score_exact"]), f"segment {i}: expected {expected}, got {doc['score_exact']}"


def test_sentence_text(work: Path) -> None:
    lines = ok(SCORE + ["--sentence"], work).splitlines()
    assert len(lines) == len(SB_SENTENCE)
    assert all(line.startswith("BLEU|nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|") for line in lines)
    # sacrebleu 2.6.0: `python -m sacrebleu ref1.txt ref2.txt -i hyp.txt -sl -f text`, line 2
    assert lines[1].split(" = ")[1].startswith("100.0 100.0/100.0/100.0/100.0 ")


# ----------------------------------------------------------------------------- listings
def test_profiles_all(work: Path) -> None:
    out = ok(["profiles"], work)
    assert "bleu/sacrebleu (default): sacrebleu 2.6.0" in out
    for name in ("bleu/nltk:", "bleu/sacrebleu@1:", "bleu/nltk@3.5:"):
        assert name in out


def test_profiles_bleu(work: Path) -> None:
    out = ok(["profiles", "bleu"], work)
    heads = [line for line in out.splitlines() if not line.startswith(" ")]
    assert heads and all(h.startswith("bleu/") for h in heads)
    assert any(h.startswith("bleu/sacrebleu (default)") for h in heads)
    assert "tokenize=13a" in out and "smooth_method=exp" in out


def test_knobs_bleu(work: Path) -> None:
    out = ok(["knobs", "bleu"], work)
    names = [line.split(" ", 1)[0] for line in out.splitlines()]
    for knob in ("tokenize", "lowercase", "smooth_method", "smooth_value", "effective_order", "max_ngram_order"):
        assert knob in names
    assert any(line.startswith("tokenize = '13a'") for line in out.splitlines())


def test_version(work: Path) -> None:
    out = " ".join(ok(["--version"], work).split())
    assert out.startswith(f"assay {assay.__version__}; hot loops: ")
    assert ("compiled" in out) or ("pure Python" in out)


@pytest.mark.skipif(not INSTALLED, reason="the console script exists only when assay is installed")
def test_console_script(work: Path) -> None:
    script = shutil.which("assay", path=os.pathsep.join([str(Path(sys.executable).parent),
                                                         os.environ.get("PATH", "")]))
    assert script, "the `assay` console script is not on PATH"
    proc = subprocess.run([script] + SCORE, cwd=work, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == SB_TEXT + "\n"


# ----------------------------------------------------------------------------- errors
def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return path.name


def error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """Exit 2, nothing on stdout, exactly one stderr line ``assay: error: …``, no traceback."""
    assert proc.returncode == 2, f"exit {proc.returncode}; stderr: {proc.stderr}"
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("assay: error: "), lines[0]
    return lines[0]


def test_error_line_counts(work: Path) -> None:
    lines = (work / "ref1.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    write(work / "short.txt", "".join(lines[:-1]).encode("utf-8"))
    msg = error_line(run(["score", "bleu", "-i", "hyp.txt", "-r", "ref1.txt", "short.txt"], work))
    assert "hyp.txt" in msg and "short.txt" in msg
    assert "40" in msg and "39" in msg


@pytest.mark.parametrize("data,line", [
    (b"\xff first line\nsecond\nthird\n", 1),
    (b"first\nsecond \xc3\x28 bad\nthird\n", 2),
    (b"first\nsecond\nthird caf\xe9", 3),            # Latin-1 byte in an unterminated last line
    (b"first\r\nsecond\r\nthird \xed\xa0\x80\r\n", 3),  # an encoded surrogate, CRLF lines
])
def test_error_invalid_utf8_names_file_and_line(work: Path, data: bytes, line: int) -> None:
    write(work / "bad.txt", data)
    write(work / "three.txt", b"a\nb\nc\n")
    for args in (["-i", "bad.txt", "-r", "three.txt"], ["-i", "three.txt", "-r", "bad.txt"]):
        msg = error_line(run(["score", "bleu"] + args, work))
        assert f"bad.txt:{line}:" in msg, msg
        assert "UTF-8" in msg


@pytest.mark.parametrize("side", ["hyp", "ref"])
def test_error_empty_file(work: Path, side: str) -> None:
    write(work / "empty.txt", b"")
    args = ["-i", "empty.txt", "-r", "ref1.txt"] if side == "hyp" else ["-i", "hyp.txt", "-r", "empty.txt"]
    msg = error_line(run(["score", "bleu"] + args, work))
    assert "empty.txt" in msg and "empty" in msg.split("empty.txt", 1)[1]


@pytest.mark.parametrize("side", ["hyp", "ref"])
def test_error_missing_file(work: Path, side: str) -> None:
    args = ["-i", "nope.txt", "-r", "ref1.txt"] if side == "hyp" else ["-i", "hyp.txt", "-r", "ref1.txt", "nope.txt"]
    msg = error_line(run(["score", "bleu"] + args, work))
    assert "nope.txt" in msg


def test_error_directory(work: Path) -> None:
    (work / "adir").mkdir()
    msg = error_line(run(["score", "bleu", "-i", "hyp.txt", "-r", "adir"], work))
    assert "adir" in msg


def test_error_unknown_profile(work: Path) -> None:
    msg = error_line(run(SCORE + ["--profile", "no-such-tool"], work))
    assert "no-such-tool" in msg and "sacrebleu" in msg  # names the known profiles


def test_error_profile_of_other_metric(work: Path) -> None:
    msg = error_line(run(SCORE + ["--profile", "nist/mteval-v13a"], work))
    assert "nist" in msg


def test_error_unknown_knob(work: Path) -> None:
    msg = error_line(run(SCORE + ["--set", "no_such_knob=1"], work))
    assert "no_such_knob" in msg


@pytest.mark.parametrize("setting,knob", [
    ("max_ngram_order=abc", "max_ngram_order"),
    ("smooth_method=bogus", "smooth_method"),
    ("lowercase=maybe", "lowercase"),
    ("tokenize=no-such-tokenizer", "tokenize"),
])
def test_error_bad_knob_value(work: Path, setting: str, knob: str) -> None:
    msg = error_line(run(SCORE + ["--set", setting], work))
    assert knob in msg


def test_error_unknown_metric(work: Path) -> None:
    msg = error_line(run(["score", "no-such-metric", "-i", "hyp.txt", "-r", "ref1.txt"], work))
    assert "no-such-metric" in msg and "bleu" in msg


def test_error_unknown_metric_knobs(work: Path) -> None:
    msg = error_line(run(["knobs", "no-such-metric"], work))
    assert "no-such-metric" in msg


@pytest.mark.parametrize("setting", ["lowercase", "=true"])
def test_error_set_without_equals(work: Path, setting: str) -> None:
    msg = error_line(run(SCORE + ["--set", setting], work))
    assert "KNOB=VALUE" in msg


# ----------------------------------------------------------------------------- live tools
def tool_cli(module: str, args: list[str], cwd: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", module] + args, cwd=cwd, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    return proc.stdout.decode("utf-8")


@pytest.mark.refs
@pytest.mark.parametrize("extra", [[], ["-w", "6"], ["-lc"], ["-tok", "none"], ["-s", "floor"], ["-sl"]],
                         ids=["default", "w6", "lc", "tok-none", "floor", "sentence"])
def test_cli_text_equals_live_sacrebleu(work: Path, require_tool: Any, extra: list[str]) -> None:
    require_tool("sacrebleu", "2.6.0")
    theirs = tool_cli("sacrebleu", ["ref1.txt", "ref2.txt", "-i", "hyp.txt", "-m", "bleu", "-f", "text"] + extra, work)
    mapping = {"-lc": ["--set", "lowercase=true"], "-tok": ["--set", "tokenize=none"],
               "-s": ["--set", "smooth_method=floor"], "-sl": ["--sentence"], "-w": ["-w", "6"]}
    ours_args = mapping[extra[0]] if extra else []
    assert ok(SCORE + ours_args, work) == theirs


@pytest.mark.refs
def test_cli_json_equals_live_sacrebleu(work: Path, require_tool: Any) -> None:
    require_tool("sacrebleu", "2.6.0")
    theirs = json.loads(tool_cli("sacrebleu", ["ref1.txt", "ref2.txt", "-i", "hyp.txt", "-m", "bleu", "-w", "4"], work))
    ours = json.loads(ok(SCORE + ["-f", "json", "-w", "4"], work))
    assert ours["tool_json"] == theirs


@pytest.mark.refs
def test_cli_nltk_profile_equals_live_nltk(work: Path, require_tool: Any) -> None:
    require_tool("nltk", "3.10.4")
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    hyp, r1, r2 = (_lines(work / n) for n in ("hyp.txt", "ref1.txt", "ref2.txt"))
    refs = [[a.split(), b.split()] for a, b in zip(r1, r2)]
    for method in ("method0", "method1", "method2", "method3", "method4"):
        want = corpus_bleu(refs, [h.split() for h in hyp], smoothing_function=getattr(SmoothingFunction(), method))
        doc = json.loads(ok(SCORE + ["-p", "nltk", "--set", f"smoothing={method}", "-f", "json"], work))
        assert close(want, doc["score_exact"]), f"{method}: nltk {want}, assay {doc['score_exact']}"


@pytest.mark.legacy("sacrebleu1")
@pytest.mark.parametrize("extra", [[], ["-w", "6"], ["-lc"]], ids=["default", "w6", "lc"])
def test_cli_text_equals_live_sacrebleu1(work: Path, legacy_tool: Any, extra: list[str]) -> None:
    theirs = tool_cli("sacrebleu", ["ref1.txt", "ref2.txt", "-i", "hyp.txt"] + extra, work)
    assert theirs.startswith("BLEU+case.")
    ours_args = {"-lc": ["--set", "lowercase=true"], "-w": ["-w", "6"]}[extra[0]] if extra else []
    assert ok(SCORE + ["--profile", "sacrebleu@1"] + ours_args, work) == theirs


@pytest.mark.legacy("nltk35")
def test_cli_nltk35_method2_equals_live_nltk35(work: Path, legacy_tool: Any) -> None:
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    hyp, r1, r2 = (_lines(work / n) for n in ("hyp.txt", "ref1.txt", "ref2.txt"))
    want = corpus_bleu([[a.split(), b.split()] for a, b in zip(r1, r2)], [h.split() for h in hyp],
                       smoothing_function=SmoothingFunction().method2)
    assert close(NLTK35_METHOD2, want)  # the frozen value still holds for the pinned tool
    doc = json.loads(ok(SCORE + ["-p", "nltk@3.5", "--set", "smoothing=method2", "-f", "json"], work))
    assert close(want, doc["score_exact"])


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]
