"""The command line's layout: one entry point (``assay.cli.main``) and one module per command;
``python -m assay`` and ``python -m assay.cli`` run it; ``assay score`` configures once."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import assay
from assay.cli.main import build_parser, main
from assay.engine import api

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample"
COMMANDS = ("score", "significance", "sacrebleu", "compare", "report", "audit", "conform", "profiles", "knobs",
            "completion")


@pytest.mark.parametrize("module", ["assay", "assay.cli", "assay.cli.main"])
def test_python_m(module: str) -> None:
    proc = subprocess.run([sys.executable, "-m", module, "--version"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith(f"assay {assay.__version__}; hot loops: ")


def test_commands_and_their_modules() -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert tuple(sub.choices) == COMMANDS
    for name in ("score", "significance", "compare", "report", "audit", "conform", "profiles", "coco", "common"):
        assert importlib.util.find_spec(f"assay.cli.{name}") is not None, name
    assert importlib.util.find_spec("assay.cli.commands") is None


@pytest.mark.parametrize("extra", [[], ["--sentence"]])
def test_score_configures_once(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                               extra: list[str]) -> None:
    calls = {"configure": 0, "get_family": 0}

    def counted(name: str, fn):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return fn(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(api, "configure", counted("configure", api.configure))
    monkeypatch.setattr(api, "get_family", counted("get_family", api.get_family))
    code = main(["score", "bleu", "-i", str(SAMPLE / "hyp.txt"), "-r", str(SAMPLE / "ref1.txt"),
                 str(SAMPLE / "ref2.txt"), *extra])
    assert code == 0 and capsys.readouterr().out.startswith("BLEU|nrefs:2|")
    assert calls == {"configure": 1, "get_family": 1}


def test_error_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["knobs", "no-such-metric"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("assay: error: unknown metric 'no-such-metric'") and err.count("\n") == 1
