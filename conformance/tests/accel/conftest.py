"""Equality of the compiled twins and the pure-Python specification (README "Building").

``twin("assay.text._ngrams_c")`` imports a compiled twin directly (ignoring ``ASSAY_PURE``, so the
properties also run in ``tox -e pure``). A missing twin FAILS under ``CI`` (CI installs a C
compiler, so every twin must be built there) and is skipped locally.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

import pytest

from conformance.references.availability import in_ci


def import_twin(module: str) -> ModuleType:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = f"compiled twin {module} is not built ({exc}); `pip install -e .` compiles it"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="session")
def twin() -> Callable[[str], ModuleType]:
    """``twin("assay.text._ngrams_c")`` -> the compiled module; fails under CI / skips locally if missing."""
    return import_twin
