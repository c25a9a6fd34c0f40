"""Start-up of the ``assay`` command (issue 18): a command imports only what it runs.

Each case runs ``python -m assay …`` in a fresh process and reads back the modules it imported
(``sys.modules`` at exit) and its threads; no timing is asserted. ``assay --help``, ``--version`` and
every ``assay CMD --help`` import no numpy and no scoring machinery (and no job, but the module of a
constant a parser shows); ``import assay`` imports none of it either, yet every public name answers;
``assay score bleu|chrf|ter`` imports no job (compare, report, audit, significance, ...), no other
command's module, no other family, and none of rich, Jinja2, jsonschema, SciPy, Dask or numpy's
optional submodules; it loads numpy with one OpenBLAS thread (:func:`assay.cli.main._single_blas_thread`),
leaving the environment as it found it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample"

#: runs ``assay ARGS`` as ``python -m assay`` does, then writes what the process holds to stderr
DRIVER = """\
import json, os, runpy, sys
sys.argv = ["assay", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("assay", run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
tasks = os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else None
sys.stderr.write("\\nSTARTUP " + json.dumps({"modules": sorted(sys.modules), "threads": None if tasks is None else len(tasks),
                                             "blas_env": os.environ.get("OPENBLAS_NUM_THREADS")}) + "\\n")
sys.exit(code)
"""

#: never imported by ``assay score`` (third-party packages and numpy submodules numpy itself loads lazily)
HEAVY = ("rich", "jinja2", "jsonschema", "scipy", "dask", "distributed", "pandas", "matplotlib", "argcomplete",
         "numpy.random", "numpy.ma", "numpy.polynomial", "numpy.fft", "numpy.testing")
#: the other commands' modules
OTHER_COMMANDS = tuple(f"assay.cli.{name}" for name in ("significance", "sacrebleu", "compare", "report", "audit",
                                                        "conform", "profiles", "completion", "coco"))

_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _start(*args: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], dict]:
    base = {k: v for k, v in os.environ.items() if k not in _BLAS_THREADS}
    proc = subprocess.run([sys.executable, "-c", DRIVER, *args], capture_output=True, text=True, timeout=120,
                          env={**base, **(env or {})})
    line = next(x for x in proc.stderr.splitlines() if x.startswith("STARTUP "))
    return proc, json.loads(line[len("STARTUP "):])


def _under(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


COMMANDS = ("score", "significance", "sacrebleu", "compare", "report", "audit", "conform", "profiles", "knobs",
            "completion")
#: commands whose parser shows a job's constant (``--max-players``' default, ``--shape``'s and sacrebleu's
#: choices): building it imports that job module, and no more
PARSER_JOBS = ("compare", "report", "conform", "sacrebleu")


@pytest.mark.parametrize("args", [["--help"], ["--version"], *([c, "--help"] for c in COMMANDS)],
                         ids=lambda a: " ".join(a))
def test_help_imports_no_scoring_machinery(args: list[str]) -> None:
    proc, seen = _start(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: assay" if args != ["--version"] else "assay ")
    banned = ("numpy", "assay.engine", "assay.metrics", "assay.output", *HEAVY)
    if args[0] not in PARSER_JOBS:
        banned += ("assay.jobs", "assay.profiles")
    assert _under(seen["modules"], banned) == []


@pytest.mark.parametrize("metric, line", [("bleu", "BLEU|"), ("chrf", "chrF2|"), ("ter", "TER|")])
def test_score_imports_only_the_score_path(metric: str, line: str) -> None:
    proc, seen = _start("score", metric, "-i", str(SAMPLE / "hyp.txt"), "-r", str(SAMPLE / "ref1.txt"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(line)
    modules = seen["modules"]
    assert "numpy" in modules and f"assay.metrics.{metric}" in modules   # the driver does see the score path
    assert _under(modules, ("assay.jobs", "assay.compat", "assay.engine.dask_engine", "assay.core.coco_json",
                            *OTHER_COMMANDS, *HEAVY)) == []
    others = [m for m in ("bleu", "chrf", "ter", "rouge", "meteor", "cider", "nist", "gleu") if m != metric]
    assert _under(modules, tuple(f"assay.metrics.{m}" for m in others)) == []


def test_score_starts_numpy_with_one_blas_thread() -> None:
    """OpenBLAS starts its pool of threads when numpy is imported (half of ``import numpy``'s time):
    ``assay score`` asks for one thread, only while numpy loads, and not when the user set a count."""
    proc, seen = _start("score", "bleu", "-i", str(SAMPLE / "hyp.txt"), "-r", str(SAMPLE / "ref1.txt"))
    assert proc.returncode == 0, proc.stderr
    assert seen["blas_env"] is None                # the environment is left as it was found
    if seen["threads"] is None:                    # no /proc: nothing to count on this system
        return
    assert seen["threads"] == 1
    # the control: the same process with the user's own count keeps it (more than one thread where
    # there is more than one CPU), so the count above is the CLI's doing
    cpus = os.cpu_count() or 1
    proc, seen = _start("score", "bleu", "-i", str(SAMPLE / "hyp.txt"), "-r", str(SAMPLE / "ref1.txt"),
                        env={"OPENBLAS_NUM_THREADS": "2"})
    assert proc.returncode == 0, proc.stderr
    assert seen["blas_env"] == "2"
    assert seen["threads"] > 1 or cpus == 1


def test_public_api_is_there_on_first_use() -> None:
    """``import assay`` imports no scoring machinery, yet every public name and subpackage answers."""
    proc = subprocess.run([sys.executable, "-c", (
        "import sys, assay\n"
        "assert 'numpy' not in sys.modules and 'assay.engine' not in sys.modules\n"
        "missing = [n for n in assay.__all__ if getattr(assay, n, None) is None]\n"
        "assert assay.__all__ == ['__version__', *assay._PUBLIC]\n"
        "assert not missing, missing\n"
        "assert assay.Score.__module__ == 'assay.core.score' and callable(assay.score)\n"
        "assert assay.profiles.__name__ == 'assay.profiles' and assay.get_profile('bleu', 'nltk').metric == 'bleu'\n"
        "try:\n    assay.profiles('bleu')\nexcept TypeError as exc:\n    assert 'profiles_of' in str(exc)\n"
        "else:\n    raise AssertionError('assay.profiles is callable')\n"
        "try:\n    assay.no_such_name\nexcept AttributeError:\n    pass\n"
        "else:\n    raise AssertionError('assay.no_such_name')\n"
        "print('ok')\n")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "ok\n", proc.stderr
