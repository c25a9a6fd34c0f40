"""``assay sacrebleu``: sacrebleu 2.6.0's command line, byte for byte.

The matrix of commands is :data:`conformance.regen.sacrebleu_cli.CASES` (run in fixtures/sample,
with the extra systems of fixtures/sacrebleu_cli). Expected output comes only from sacrebleu:

- default env: ``assay sacrebleu ARGS`` (in process) against the stdout frozen from sacrebleu 2.6.0 in
  fixtures/sacrebleu_cli/cases.json (``PYTHONHASHSEED=0 python -m conformance.regen sacrebleu-cli``);
- ``refs``: the live ``sacrebleu`` and ``assay sacrebleu`` run as subprocesses on the same matrix.

Where sacrebleu fails (exit 1, or 2 for its argparse errors) assay fails too: exit 2, one line on
stderr, nothing on stdout.
"""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.cli.main import main
from conformance.regen.sacrebleu_cli import CASES, SAMPLE, command_env, run_sacrebleu

FROZEN = Path(__file__).resolve().parents[3] / "fixtures" / "sacrebleu_cli" / "cases.json"
SACREBLEU_ENV = ("SACREBLEU_FORMAT", "SACREBLEU_SEED")


def _frozen() -> list[dict[str, Any]]:
    doc = json.loads(FROZEN.read_text(encoding="utf-8"))
    assert doc["generated_by"]["tools"] == {"sacrebleu": "2.6.0"}
    return list(doc["cases"])


def _assay_in_process(c: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[bytes, str, int]:
    """``assay sacrebleu ARGS`` in this process: (stdout bytes, stderr, exit status)."""
    monkeypatch.chdir(SAMPLE)
    for name in SACREBLEU_ENV:
        monkeypatch.delenv(name, raising=False)
    for name, value in c["env"].items():
        monkeypatch.setenv(name, value)
    data = (SAMPLE / c["stdin"]).read_bytes() if c["stdin"] else b""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["sacrebleu", *c["args"]])
        except SystemExit as exc:          # argparse's usage errors
            status = int(exc.code or 0)
    return out.getvalue().encode("utf-8"), err.getvalue(), status


def _check(c: dict[str, Any], want: bytes, want_status: int, got: bytes, err: str, status: int) -> None:
    if want_status != 0:
        assert status == 2, f"{c['id']}: sacrebleu exited {want_status}, assay {status} ({err})"
        assert got == b"" and want == b""
        assert "Traceback" not in err, err
        last = err.strip().splitlines()[-1]                  # argparse prints its usage first
        assert last.startswith(("assay: error: ", "assay sacrebleu: error: ")), err
        return
    assert status == 0, f"{c['id']}: assay exited {status}: {err}"
    if c["id"] in FULL_PRECISION_JSON:
        _check_full_precision(c, want, got)
        return
    assert got == want, f"{c['id']}: stdout differs\n--- sacrebleu\n{want.decode()}\n--- assay\n{got.decode()}"


#: paired-test JSON prints each system's corpus score at full precision (``repr``): assay's BLEU is
#: within a few units in the last place of sacrebleu's float (the scores' known last-bit difference,
#: rel 1e-9 in every golden test), so these compare the JSON structure and text exactly and the
#: numbers to rel 1e-12; every other case compares stdout byte for byte
FULL_PRECISION_JSON = ("paired-bs-json", "paired-ar-json")


def _check_full_precision(c: dict[str, Any], want: bytes, got: bytes) -> None:
    def close(a: Any, b: Any) -> bool:
        if isinstance(a, float) and isinstance(b, float):
            return abs(a - b) <= 1e-12 * abs(a)
        if isinstance(a, dict):
            return isinstance(b, dict) and list(a) == list(b) and all(close(a[k], b[k]) for k in a)
        if isinstance(a, list):
            return isinstance(b, list) and len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
        return type(a) is type(b) and a == b

    assert close(json.loads(want), json.loads(got)), f"{c['id']}:\n{want.decode()}\n{got.decode()}"
    assert got.count(b"\n") == want.count(b"\n")


def test_matrix_is_large_enough() -> None:
    assert len(CASES) >= 30
    assert len({c["id"] for c in CASES}) == len(CASES)
    assert [c["id"] for c in _frozen()] == [c["id"] for c in CASES], \
        "fixtures/sacrebleu_cli/cases.json is stale: PYTHONHASHSEED=0 python -m conformance.regen sacrebleu-cli"


@pytest.mark.parametrize("frozen", _frozen(), ids=lambda c: c["id"])
def test_assay_sacrebleu_matches_frozen_output(frozen: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    got, err, status = _assay_in_process(frozen, monkeypatch)
    _check(frozen, frozen["stdout"].encode("utf-8"), frozen["returncode"], got, err, status)


def _assay_subprocess(c: dict[str, Any]) -> tuple[bytes, str, int]:
    stdin = (SAMPLE / c["stdin"]).read_bytes() if c["stdin"] else b""
    proc = subprocess.run([sys.executable, "-m", "assay.cli.main", "sacrebleu", *c["args"]], cwd=SAMPLE,
                          input=stdin, capture_output=True, env=command_env(c["env"]), timeout=600)
    return proc.stdout, proc.stderr.decode("utf-8", "replace"), proc.returncode


@pytest.mark.refs
@pytest.mark.parametrize("c", CASES, ids=lambda c: c["id"])
def test_assay_sacrebleu_matches_live_sacrebleu(c: dict[str, Any], require_tool: Any) -> None:
    require_tool("sacrebleu", "2.6.0")
    from conformance.regen.sacrebleu_cli import sacrebleu_executable

    want, want_status = run_sacrebleu(c, sacrebleu_executable())
    assert (want_status != 0) == c["error"]
    got, err, status = _assay_subprocess(c)
    _check(c, want, want_status, got, err, status)


# ----------------------------------------------------------------------------- what sacrebleu cannot do offline
@pytest.mark.parametrize("args", [["-t", "wmt23", "-l", "en-de"], ["--list"], ["--download", "wmt14"],
                                  ["--echo", "src", "-t", "wmt23"], ["ref1.txt", "-i", "hyp.txt", "--origlang", "de"]])
def test_test_set_options_are_refused_in_one_line(args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    c = {"args": args, "env": {}, "stdin": None}
    got, err, status = _assay_in_process(c, monkeypatch)
    assert status == 2 and got == b""
    assert len(err.strip().splitlines()) == 1
    assert "network" in err and "-i" in err


def test_stdin_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    """sacrebleu 2.6.0 treats ``-i -`` as a file named '-'; assay reads standard input (as without -i)."""
    frozen = {c["id"]: c for c in _frozen()}["stdin-b"]
    got, err, status = _assay_in_process({**frozen, "args": ["ref1.txt", "-i", "-", "-b"]}, monkeypatch)
    assert status == 0 and got == frozen["stdout"].encode("utf-8"), err


@pytest.mark.parametrize("command", [["sacrebleu", "ref1.txt", "--bogus"], ["score", "bleu", "-i", "x", "--bogus"]])
def test_wrong_flag_prints_that_commands_usage(command: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SAMPLE)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as exc:
        main(command)
    assert exc.value.code == 2
    text = err.getvalue()
    assert text.startswith(f"usage: assay {command[0]} "), text
    assert f"assay {command[0]}: error: unrecognized arguments: --bogus" in text
