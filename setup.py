"""Build script: setuptools compiles assay's Cython twins of the hot loops (README "Building").

Why setuptools (not meson-python or scikit-build-core): the extensions are a handful of
self-contained Cython modules with no C library to find, and setuptools can mark an extension
*optional*, so a machine without a C compiler still installs the package, on the pure-Python path
(the tested specification), and says so once. ``pip install -e .`` compiles the twins in place.

- Every ``impl/assay/**/_*_c.pyx`` is one extension module (``assay/text/_ngrams_c.pyx`` ->
  ``assay.text._ngrams_c``), beside the pure module it mirrors.
- ``ASSAY_BUILD_PURE=1`` skips compiling (a pure wheel); ``ASSAY_PURE=1`` at run time ignores
  built twins (assay.core.accel).
- ``fixtures/`` (the bundled golden data) is copied into the wheel as ``assay/_fixtures``.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
PACKAGE_ROOT = ROOT / "impl"
_PURE_NOTE = "assay: {why}; installing the pure-Python path (correct, slower: README 'Building')"
_noted = False


def _note_pure(why: str) -> None:
    """Say once that this install runs on the pure-Python path, and why."""
    global _noted
    if not _noted:
        _noted = True
        print(_PURE_NOTE.format(why=why), file=sys.stderr)


def _extensions() -> list[Extension]:
    if os.environ.get("ASSAY_BUILD_PURE") == "1":
        _note_pure("ASSAY_BUILD_PURE=1")
        return []
    sources = sorted(PACKAGE_ROOT.glob("assay/**/_*_c.pyx"))
    if not sources:
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _note_pure("Cython is not installed")
        return []
    modules = [Extension(".".join(src.relative_to(PACKAGE_ROOT).with_suffix("").parts),
                         [str(src.relative_to(ROOT))], optional=True,
                         extra_compile_args=["-O3"] if os.name != "nt" else ["/O2"])
               for src in sources]
    return cythonize(modules, quiet=True, language_level=3,
                     compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True,
                                          "initializedcheck": False, "embedsignature": True})


class OptionalBuildExt(build_ext):
    """Compile the twins when possible; a failure (no compiler, no headers) falls back to pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:   # no compiler at all: distutils raises before building anything
            _note_pure(f"the C extensions could not be built ({type(exc).__name__}: {exc})")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            _note_pure(f"{ext.name} could not be compiled ({type(exc).__name__}: {exc})")


class BuildPyWithFixtures(build_py):
    """Also copy the checkout's ``fixtures/`` into the built package as ``assay/_fixtures``."""

    def run(self) -> None:
        super().run()
        source = ROOT / "fixtures"
        if source.is_dir() and not self.editable_mode:
            target = Path(self.build_lib) / "assay" / "_fixtures"
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithFixtures})
