"""Hostile input at the command line (issue 17): every bad file, path, option value or signal ends in
a clear line and a documented exit code, never a traceback; what is echoed is escaped.

The commands run in process (``assay.cli.main.main``) except where a real process is needed (Ctrl-C).
No expected score is computed here: where a score is checked, it is checked against assay's own
output on the clean copy of the same file (a BOM stripped must give exactly the BOM-free score).
"""
from __future__ import annotations

import gc
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import assay
from assay.cli.main import main
from assay.core import errors
from assay.core.coco_json import MAX_JSON_DEPTH, json_depth
from assay.core.gcpause import collector_paused
from assay.core.terminal import escape

REPO_ROOT = Path(__file__).resolve().parents[3]
SAMPLE = REPO_ROOT / "fixtures" / "sample"
README = REPO_ROOT / "README.md"
ASSAY_IMPL = "direct:assay.jobs.conform.assay_impl:profiles[chrf/nltk]"
RAW_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch directory (the working directory) holding copies of the sample files."""
    for name in ("hyp.txt", "ref1.txt", "ref2.txt"):
        shutil.copy(SAMPLE / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, stdout, stderr of ``assay ARGS`` in process (argparse's SystemExit included)."""
    try:
        code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def one_error(args: list[str], capsys: pytest.CaptureFixture[str], code: int = 2) -> str:
    """The command fails with ``code`` and exactly one stderr line ``assay: error: …``."""
    got, out, err = run(args, capsys)
    assert got == code, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("assay: error: "), err
    assert not RAW_UNSAFE.search(err), err
    return lines[0]


def usage_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """argparse's usage error: exit 2, the last stderr line names the problem."""
    got, out, err = run(args, capsys)
    assert got == 2 and out == "", err
    assert not RAW_UNSAFE.search(err), err
    return err.splitlines()[-1]


SCORE = ["score", "bleu", "-i", "hyp.txt", "-r", "ref1.txt"]


# ----------------------------------------------------------------------------- exit codes
def test_exit_code_per_error_class() -> None:
    assert errors.InputError.exit_code == errors.KnobError.exit_code == 2
    assert errors.MissingDependencyError.exit_code == 2
    assert errors.ToolBehaviourError.exit_code == 4
    assert errors.EXIT_INTERRUPTED == 130


def test_exit_codes_are_documented_in_the_readme() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Exit codes", 1)[1].split("\n## ", 1)[0]
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if line.startswith("| ")}
    for code, names in (("0", []), ("1–100", ["conform"]), ("2", ["InputError", "KnobError", "MissingDependencyError"]),
                        ("4", ["ToolBehaviourError"]), ("130", ["interrupted"])):
        assert code in rows, f"exit code {code} is not in README's table"
        for name in names:
            assert name in rows[code], (code, name)


def test_tool_behaviour_error_exits_4(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "h.txt").write_text("x\n", encoding="utf-8")
    (work / "r.txt").write_text("\n", encoding="utf-8")
    msg = one_error(["score", "nist", "-p", "nltk", "-i", "h.txt", "-r", "r.txt"], capsys, code=4)
    assert "NLTK" in msg


def test_usage_and_input_errors_exit_2(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "required" in usage_error(["significance", "bleu", "-i", "hyp.txt", "-r", "ref1.txt"], capsys)
    assert "no-such-tool" in one_error(SCORE + ["--profile", "no-such-tool"], capsys)


# ----------------------------------------------------------------------------- Ctrl-C
def _random_corpus(directory: Path, lines: int = 3000) -> tuple[Path, Path]:
    words = (SAMPLE / "hyp.txt").read_text(encoding="utf-8").split()
    rng = random.Random(17)
    paths = []
    for name in ("long_hyp.txt", "long_ref.txt"):
        path = directory / name
        path.write_text("".join(" ".join(rng.choice(words) for _ in range(25)) + "\n" for _ in range(lines)),
                        encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def test_ctrl_c_exits_130_with_one_line(tmp_path: Path) -> None:
    # big enough that the compiled path is still at work 1.5 s in (3,000 lines took about 1.5 s in all,
    # so the interrupt could land in the interpreter's shutdown, where Python ignores it)
    hyp, ref = _random_corpus(tmp_path, lines=40000)
    # SIG_DFL in the child: an ignored SIGINT is inherited across exec, and Python then keeps ignoring it
    proc = subprocess.Popen([sys.executable, "-m", "assay.cli.main", "compare", "-i", str(hyp), "-r", str(ref)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.5)
    assert proc.poll() is None, "the command ended before it could be interrupted"
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert time.monotonic() - sent < 5
    text = err.decode("utf-8", "replace")
    assert proc.returncode == 130, text
    assert "Traceback" not in text and text.splitlines() == ["assay: interrupted"], text


def test_collector_pause_passes_ctrl_c_through_and_restores_the_collector() -> None:
    assert gc.isenabled()
    with pytest.raises(KeyboardInterrupt):
        with collector_paused():
            assert not gc.isenabled()
            raise KeyboardInterrupt
    assert gc.isenabled()


# ----------------------------------------------------------------------------- --width
WIDTH_COMMANDS = [
    SCORE,
    SCORE + ["--sentence"],
    ["score", "chrf", "-i", "hyp.txt", "-r", "ref1.txt"],
    ["significance", "bleu", "-i", "hyp.txt", "-r", "ref1.txt", "--confidence", "-n", "10"],
]


@pytest.mark.parametrize("value", ["-1", "18", str(10 ** 6), "abc"])
@pytest.mark.parametrize("command", WIDTH_COMMANDS, ids=["score", "sentence", "chrf", "significance"])
def test_width_out_of_range_is_a_usage_error(work: Path, capsys: pytest.CaptureFixture[str], command: list[str],
                                              value: str) -> None:
    line = usage_error(command + ["-w", value], capsys)
    assert "-w/--width" in line and "17" in line and value in line


@pytest.mark.parametrize("value", ["0", "17"])
def test_width_bounds_are_accepted(work: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, out, err = run(SCORE + ["-w", value], capsys)
    assert code == 0 and err == "" and out.startswith("BLEU|")


# ----------------------------------------------------------------------------- paths
def test_report_output_onto_an_existing_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "afile").write_text("x", encoding="utf-8")
    msg = one_error(["report", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu", "-o", "afile"], capsys)
    assert "-o afile" in msg and "not a directory" in msg
    assert (work / "afile").read_text(encoding="utf-8") == "x"


def test_report_index_onto_a_directory(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "adir").mkdir()
    msg = one_error(["report", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu", "-o", "out", "--index", "adir"],
                    capsys)
    assert "--index adir" in msg and "directory" in msg
    assert not (work / "out").exists()       # checked before any work


def test_compare_plot_onto_an_existing_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "afile").write_text("x", encoding="utf-8")
    msg = one_error(["compare", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu", "--attribute", "sacrebleu", "nltk",
                     "--plot", "afile"], capsys)
    assert "--plot afile" in msg and "not a directory" in msg


@pytest.mark.parametrize("option", ["--annotations", "--results"])
def test_score_coco_given_a_directory(work: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    (work / "adir").mkdir()
    coco = {"1": ["a cat on a mat"]}
    (work / "c.json").write_text(json.dumps(coco), encoding="utf-8")
    files = {"--annotations": "c.json", "--results": "c.json", option: "adir"}
    msg = one_error(["score", "coco", *[x for kv in files.items() for x in kv]], capsys)
    assert f"{option} adir" in msg and "is a directory" in msg


@pytest.mark.parametrize("option", ["--junit", "--jsonl"])
def test_conform_report_onto_a_directory(work: Path, capsys: pytest.CaptureFixture[str], option: str) -> None:
    (work / "adir").mkdir()
    msg = one_error(["conform", ASSAY_IMPL, "--metric", "chrf", option, "adir"], capsys)
    assert f"{option} adir" in msg and "is a directory" in msg


def test_conform_expect_fail_binary_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "known.txt").write_bytes(b"bleu/x\n\xff\xfe\x00")
    msg = one_error(["conform", ASSAY_IMPL, "--metric", "chrf", "--expect-fail", "known.txt"], capsys)
    assert "known.txt:2" in msg and "UTF-8" in msg


def test_output_file_in_a_missing_directory(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    msg = one_error(["conform", ASSAY_IMPL, "--metric", "chrf", "--junit", "no/such/dir/out.xml"], capsys)
    assert "--junit no/such/dir/out.xml" in msg and "does not exist" in msg


def test_audit_table_is_a_directory(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "adir").mkdir()
    assert "--table adir" in one_error(["audit", "--table", "adir"], capsys)


@pytest.mark.parametrize("command", [
    ["score", "bleu", "-i", "nope.txt", "-r", "ref1.txt"],
    ["significance", "bleu", "-i", "nope.txt", "-r", "ref1.txt", "--confidence"],
    ["compare", "-i", "nope.txt", "-r", "ref1.txt"],
    ["report", "-i", "nope.txt", "-r", "ref1.txt"],
    ["audit", "-i", "nope.txt", "-r", "ref1.txt", "--claim", "BLEU 20"],
], ids=["score", "significance", "compare", "report", "audit"])
def test_missing_input_names_the_option(work: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    msg = one_error(command, capsys)
    assert "-i nope.txt" in msg and "no such file" in msg


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads every file")
def test_unreadable_input(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    locked = work / "locked.txt"
    shutil.copy(work / "hyp.txt", locked)
    locked.chmod(0)
    try:
        msg = one_error(["score", "bleu", "-i", "locked.txt", "-r", "ref1.txt"], capsys)
    finally:
        locked.chmod(0o644)
    assert "-i locked.txt" in msg and "not readable" in msg


# ----------------------------------------------------------------------------- file contents
BOM_WARNING = ("assay: warning: bom.txt starts with a UTF-8 byte-order mark (U+FEFF); it is scored as part of "
               "segment 1, as sacrebleu does; pass --encoding utf-8-sig to strip it")


def test_bom_is_reported_once_and_kept_by_default(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "bom.txt").write_bytes(b"\xef\xbb\xbf" + (work / "ref1.txt").read_bytes())
    code, clean, err = run(["score", "bleu", "-i", "hyp.txt", "-r", "ref1.txt", "-w", "17"], capsys)
    assert code == 0 and err == ""
    code, kept, err = run(["score", "bleu", "-i", "hyp.txt", "-r", "bom.txt", "bom.txt", "-w", "17"], capsys)
    assert code == 0 and err.splitlines() == [BOM_WARNING]
    lines = (work / "ref1.txt").read_text(encoding="utf-8").splitlines()
    with_bom = assay.score("bleu", (work / "hyp.txt").read_text(encoding="utf-8").splitlines(),
                           [["\ufeff" + lines[0]] + lines[1:]] * 2, width=17)
    assert kept == with_bom.text + "\n"      # the mark is scored as sacrebleu scores it
    assert kept != clean


def test_encoding_utf8_sig_strips_the_bom(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "bom.txt").write_bytes(b"\xef\xbb\xbf" + (work / "hyp.txt").read_bytes())
    _, clean, _ = run(SCORE + ["-w", "17"], capsys)
    code, out, err = run(["score", "bleu", "-i", "bom.txt", "-r", "ref1.txt", "-w", "17", "--encoding", "utf-8-sig"],
                         capsys)
    assert code == 0 and err == "" and out == clean


@pytest.mark.parametrize("char,label", [("\x00", "U+0000 NUL"), ("\x1b", "U+001B ESC"), ("\x07", "U+0007 BEL"),
                                        ("\r", "U+000D CR")])
def test_control_characters_are_named_once(work: Path, capsys: pytest.CaptureFixture[str], char: str,
                                           label: str) -> None:
    lines = (work / "hyp.txt").read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:5] + char + lines[2][5:]
    lines[7] = char + lines[7]
    (work / "ctl.txt").write_text("\n".join(lines) + "\n", encoding="utf-8", newline="")
    code, out, err = run(["score", "bleu", "-i", "ctl.txt", "-r", "ref1.txt"], capsys)
    assert code == 0 and out.startswith("BLEU|")
    assert err.splitlines() == [f"assay: warning: ctl.txt:3: segment 3 contains the control character {label} "
                                "(column 6; 2 in the file); it is scored as part of the segment's text"]


def test_tabs_and_crlf_are_not_warned(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (work / "hyp.txt").read_text(encoding="utf-8").replace(" ", "\t", 3).replace("\n", "\r\n")
    (work / "crlf.txt").write_text(text, encoding="utf-8", newline="")
    code, _, err = run(["score", "bleu", "-i", "crlf.txt", "-r", "ref1.txt"], capsys)
    assert code == 0 and err == ""


def test_invalid_utf8_names_file_line_and_byte_offset(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "bad.txt").write_bytes(b"one\ntwo \xe9\n")
    (work / "two.txt").write_bytes(b"a\nb\n")
    msg = one_error(["score", "bleu", "-i", "bad.txt", "-r", "two.txt"], capsys)
    assert "bad.txt:2:" in msg and "byte 0xe9" in msg and "byte offset 8" in msg


def test_coco_json_nested_100000_deep(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    (work / "ok.json").write_text(json.dumps({"1": ["a cat"]}), encoding="utf-8")
    for args in (["--annotations", "deep.json", "--results", "ok.json"],
                 ["--annotations", "ok.json", "--results", "deep.json"]):
        msg = one_error(["score", "coco", *args], capsys)
        assert "deep.json" in msg and f"deeper than {MAX_JSON_DEPTH} levels" in msg
    msg = one_error(["audit", "-i", "deep.json", "-r", "ok.json", "--claim", "CIDEr 50"], capsys)
    assert "deep.json" in msg


@pytest.mark.parametrize("text", ["[" * 5000, '{"1": [' * 2000, "[" + "1" * 5000 + "]"],
                         ids=["unclosed", "unclosed-objects", "huge-int"])
def test_coco_json_unreadable_shapes(work: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    (work / "bad.json").write_text(text, encoding="utf-8")
    (work / "ok.json").write_text(json.dumps({"1": ["a cat"]}), encoding="utf-8")
    assert "bad.json" in one_error(["score", "coco", "--annotations", "ok.json", "--results", "bad.json"], capsys)


def test_json_depth_ignores_brackets_in_strings() -> None:
    doc = {"annotations": [{"image_id": 1, "caption": 'a "[[[{" \\ caption ]]'}], "images": [{"id": 1}]}
    assert json_depth(json.dumps(doc)) == 3
    assert json_depth("[]") == 1 and json_depth("7") == 0
    assert json_depth("[" * 200 + "]" * 200, limit=100) > 100


# ----------------------------------------------------------------------------- the terminal
def test_escape() -> None:
    assert escape("a\x1b[31mb\u202ec\u2066d\x00e\x9bf") == "a\\x1b[31mb\\u202ec\\u2066d\\x00e\\x9bf"
    assert escape("line\nnext\ttab", keep="\n") == "line\nnext\\x09tab"
    assert escape("C:\\path\\é ünïcödé 中文") == "C:\\path\\é ünïcödé 中文"


EVIL = "\x1b[31mred\u202eevil"


def test_profile_and_knob_values_are_escaped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "\\x1b[31mred\\u202eevil" in one_error(SCORE + ["--profile", EVIL], capsys)
    assert "\\x1b" in one_error(SCORE + ["--set", f"lowercase={EVIL}"], capsys)
    assert "\\x1b" in one_error(SCORE + ["--set", f"{EVIL}=1"], capsys)


def test_file_names_are_escaped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    msg = one_error(["score", "bleu", "-i", f"{EVIL}.txt", "-r", "ref1.txt"], capsys)
    assert "\\x1b[31mred\\u202eevil.txt" in msg
    name = f"bom{EVIL}.txt"
    (work / name).write_bytes(b"\xef\xbb\xbf" + (work / "hyp.txt").read_bytes())
    code, _, err = run(["score", "bleu", "-i", name, "-r", "ref1.txt"], capsys)
    assert code == 0 and "bom\\x1b[31mred\\u202eevil.txt starts with a UTF-8 byte-order mark" in err
    assert not RAW_UNSAFE.search(err)


def test_argparse_errors_are_escaped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = usage_error(["profiles", "bleu", EVIL], capsys)
    assert "unrecognized arguments" in line and "\\x1b[31mred" in line


def test_implementation_output_is_escaped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    client = work / "evil_client.py"
    client.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['cmd'] == 'start':\n"
        "        print(json.dumps({'version': 1, 'implementation': {'name': 'evil\\x1b[2J\\u202e', "
        "'metrics': ['bleu'], 'profile': 'sacrebleu'}}), flush=True)\n"
        "    elif msg['cmd'] == 'stop':\n"
        "        break\n"
        "    else:\n"
        "        sys.stderr.write('\\x1b]0;pwned\\x07\\u202ecrashed\\n')\n"
        "        sys.exit(1)\n", encoding="utf-8")
    code, out, err = run(["conform", f"cmd:{sys.executable} {client}", "--metric", "bleu", "--profile", "sacrebleu",
                          "--run", "bleu/research_sacrebleu/*", "--no-validate"], capsys)
    assert code > 0 and "ERROR" in out, out + err
    assert "\\x1b]0;pwned\\x07\\u202ecrashed" in out and "evil\\x1b[2J\\u202e" in out
    assert not RAW_UNSAFE.search(out + err)


# ----------------------------------------------------------------------------- conform selections
def test_conform_no_case_selected(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    msg = one_error(["conform", ASSAY_IMPL, "--metric", "chrf", "--run", "no/such/*"], capsys)
    assert "no chrf case" in msg and "--run no/such/*" in msg


def test_conform_every_case_skipped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["conform", ASSAY_IMPL, "--metric", "chrf", "--skip", "*", "--format", "json"], capsys)
    assert code == 2, err
    assert err.startswith("assay: error: every one of the ") and "was skipped" in err
    footer = json.loads(out.splitlines()[-1])
    assert footer["type"] == "footer" and footer["exit_code"] == 2 and footer["counts"]["passed"] == 0


# ----------------------------------------------------------------------------- the API
@pytest.mark.parametrize("metric", ["bleu", "nist", "chrf", "ter", "rouge", "cider", "meteor", "coco"])
def test_api_none_hypothesis(metric: str) -> None:
    with pytest.raises(assay.InputError, match=r"^hypothesis 1 is None, expected a string"):
        assay.score(metric, [None], [["a"]])
    with pytest.raises(assay.InputError, match=r"^hypothesis 2 is an int, expected a string"):
        assay.sentence_scores(metric, ["a b", 7], [["a b", "c"]])


# ----------------------------------------------------------------------------- other numeric options
@pytest.mark.parametrize("command,option,value", [
    (["compare", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu"], "--top", "-5"),
    (["compare", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu", "--attribute", "sacrebleu", "nltk"],
     "--max-players", "40"),
    (["report", "-i", "hyp.txt", "-r", "ref1.txt", "-m", "bleu"], "--top", "-1"),
    (["audit", "-i", "hyp.txt", "-r", "ref1.txt", "--claim", "BLEU 47.1"], "--max-matches", "-1"),
    (["conform", ASSAY_IMPL, "--metric", "chrf"], "--scale", "nan"),
    (["conform", ASSAY_IMPL, "--metric", "chrf"], "--timeout", "-1"),
    (["conform", ASSAY_IMPL, "--metric", "chrf"], "--max-output", "0"),
    (["conform", ASSAY_IMPL, "--metric", "chrf"], "--max-listed", "-1"),
], ids=["compare-top", "max-players", "report-top", "max-matches", "scale", "timeout", "max-output", "max-listed"])
def test_numeric_options_out_of_their_domain(work: Path, capsys: pytest.CaptureFixture[str], command: list[str],
                                            option: str, value: str) -> None:
    line = usage_error(command + [option, value], capsys)
    assert f"argument {option}" in line and "must be" in line and value in line


# ----------------------------------------------------------------------------- --encoding everywhere
@pytest.mark.parametrize("command", [
    ["significance", "bleu", "-i", "bom.txt", "-r", "ref1.txt", "--confidence", "-n", "10"],
    ["compare", "-i", "bom.txt", "-r", "ref1.txt", "-m", "bleu", "-f", "json"],
    ["audit", "-i", "bom.txt", "-r", "ref1.txt", "--claim", "BLEU 47.1", "--no-preprocessing", "-f", "json"],
], ids=["significance", "compare", "audit"])
def test_every_segment_reader_warns_and_takes_encoding(work: Path, capsys: pytest.CaptureFixture[str],
                                                       command: list[str]) -> None:
    (work / "bom.txt").write_bytes(b"\xef\xbb\xbf" + (work / "hyp.txt").read_bytes())
    code, _, err = run(command, capsys)
    assert code == 0 and err.splitlines() == [BOM_WARNING], err
    code, stripped, err = run(command + ["--encoding", "utf-8-sig"], capsys)
    assert code == 0 and err == ""
    code, clean, _ = run([("hyp.txt" if a == "bom.txt" else a) for a in command], capsys)
    assert stripped.replace("bom.txt", "hyp.txt") == clean


def test_segment_text_shown_by_compare_is_escaped(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = (work / "hyp.txt").read_text(encoding="utf-8").splitlines()
    lines = [EVIL + " " + line for line in lines]
    (work / "evil.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run(["compare", "-i", "evil.txt", "-r", "ref1.txt", "-m", "bleu", "--attribute", "sacrebleu",
                          "nltk", "--top", "3"], capsys)
    assert code == 0 and "\\x1b[31mred\\u202eevil" in out
    assert not RAW_UNSAFE.search(out + err)


@pytest.mark.parametrize("suffix", [".json", ".txt"])
def test_binary_idf_corpus_names_file_and_byte(work: Path, suffix: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A binary ``idf_corpus`` file (was a UnicodeDecodeError traceback) names the file and the byte."""
    path = work / f"idf{suffix}"
    path.write_bytes(b"\xc2\x00\xff binary")
    line = one_error(["score", "cider", "-i", "hyp.txt", "-r", "ref1.txt", "--set", f"idf_corpus={path}"], capsys)
    assert path.name in line and "invalid UTF-8" in line and "byte" in line


def test_interrupted_main_called_as_a_library_gives_the_sigint_handler_back(monkeypatch, capsys) -> None:
    """``main([...])`` in a host process (tests, the pytest plugin) must not leave SIGINT ignored:
    every process the host started afterwards would inherit the ignored signal."""
    import assay.cli.profiles as profiles_cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(profiles_cli, "run_profiles", interrupted)
    before = signal.getsignal(signal.SIGINT)
    assert main(["profiles"]) == 130
    assert signal.getsignal(signal.SIGINT) is before
    assert capsys.readouterr().err.strip() == "assay: interrupted"
