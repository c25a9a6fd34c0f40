"""Shell completion (issue 20, item 4): ``assay completion bash|zsh|fish`` prints argcomplete's script,
and a completion request (what that script sends on Tab) is answered from the command line's own
argparse tree: commands, then each command's options and choices.

argcomplete is a dependency of assay-metrics: under CI=true its absence fails these tests.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from assay.cli.main import main

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def argcomplete() -> object:
    try:
        import argcomplete as module
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("argcomplete is not installed (a dependency of assay-metrics: pip install 'assay-metrics')")
        pytest.skip("argcomplete is not installed")
    return module


@pytest.mark.parametrize("shell,marker", [("bash", "complete "), ("zsh", "compdef"), ("fish", "complete ")])
def test_completion_prints_the_shell_script(argcomplete: object, shell: str, marker: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert marker in out and "assay" in out and "_ARGCOMPLETE" in out


def test_unknown_shell_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["completion", "tcsh"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def _complete(line: str, tmp_path: Path, shell: str = "bash") -> list[str]:
    """What ``assay`` answers when the shell asks to complete ``line`` (cursor at its end)."""
    out = tmp_path / "completions"
    env = dict(os.environ, _ARGCOMPLETE="1", _ARGCOMPLETE_SHELL=shell, COMP_LINE=line, COMP_POINT=str(len(line)),
               _ARGCOMPLETE_STDOUT_FILENAME=str(out), _ARGCOMPLETE_IFS="\n", COMP_TYPE="9")
    done = subprocess.run([sys.executable, "-m", "assay"], env=env, capture_output=True, text=True, timeout=60,
                          cwd=REPO_ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    return [w.split("\t")[0].strip() for w in out.read_text(encoding="utf-8").split("\n") if w.strip()]


def test_commands_options_and_choices_complete(argcomplete: object, tmp_path: Path) -> None:
    assert "significance" in _complete("assay sig", tmp_path)
    assert {"score", "compare", "report", "completion"} <= set(_complete("assay ", tmp_path))
    assert "--attribute" in _complete("assay compare --at", tmp_path)
    assert {"bash", "zsh", "fish"} <= set(_complete("assay completion ", tmp_path))
    assert "--quiet" in _complete("assay --qu", tmp_path)
    # fish asks with its own shell name (descriptions after a tab)
    assert "--paired-bs" in _complete("assay significance --paired-b", tmp_path, shell="fish")


def test_bash_loads_the_script(argcomplete: object, tmp_path: Path) -> None:
    """bash itself evaluates the script and registers the completion function for ``assay``."""
    script = tmp_path / "assay.bash"
    done = subprocess.run([sys.executable, "-m", "assay", "completion", "bash"], capture_output=True, text=True,
                          timeout=60, cwd=REPO_ROOT)
    assert done.returncode == 0, done.stderr
    script.write_text(done.stdout, encoding="utf-8")
    shell = subprocess.run(["bash", "--norc", "--noprofile", "-c", f"source {script} && complete -p assay"],
                           capture_output=True, text=True, timeout=60)
    assert shell.returncode == 0, shell.stderr
    assert shell.stdout.strip().endswith(" assay") and "-F " in shell.stdout
