"""Without a C compiler, ``pip install`` still installs assay, on the pure-Python path, and says so once.

Builds a wheel of a copy of the checkout with ``CC`` pointing at a compiler that does not exist
(pip's isolated build fetches setuptools and Cython, as on a user's machine), then checks that the
build succeeded, printed the pure-path note exactly once, and shipped no compiled module.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from conformance.conftest import REPO_ROOT

NOTE = "installing the pure-Python path"


def _copy_checkout(target: Path) -> None:
    for name in ("setup.py", "pyproject.toml", "README.md", "MANIFEST.in"):
        shutil.copy2(REPO_ROOT / name, target / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*_c.c", "build", "*.egg-info")
    shutil.copytree(REPO_ROOT / "impl", target / "impl", ignore=ignore)
    shutil.copytree(REPO_ROOT / "fixtures", target / "fixtures")


def test_wheel_without_a_compiler_is_pure_and_says_so_once(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    _copy_checkout(source)
    env = dict(os.environ, CC=str(tmp_path / "no-such-cc"), PIP_NO_INPUT="1")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(tmp_path / "dist"),
                           str(source)], capture_output=True, text=True, env=env, check=False, timeout=600)
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output[-3000:]
    assert output.count(NOTE) == 1, output[-3000:]
    (wheel,) = (tmp_path / "dist").glob("assay_metrics-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    assert any(n.endswith("_c.pyx") for n in names), "the Cython sources ship with the pure path"
    assert any(n.startswith("assay/_fixtures/") for n in names)
