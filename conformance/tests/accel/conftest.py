"""Equality of the compiled twins and the pure-Python specification (README "Building").

``twin("assay.text._ngrams_c")`` imports a compiled twin directly (ignoring ``ASSAY_PURE``, so the
properties also run in ``tox -e pure``). A missing twin FAILS under ``CI`` (CI installs a C
compiler, so every twin must be built there) and is skipped locally.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

import numpy as np
import pytest

from assay.text import ngram_codes

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


def flat_ids(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Id lists as one flat id array and segment offsets."""
    ids = np.array([t for seg in lists for t in seg], dtype=np.int64)
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in lists], out=offsets[1:])
    return ids, offsets


def twin_coded(ids: np.ndarray, offsets: np.ndarray, max_order: int, vocab_size: int = 7) -> ngram_codes.Coded:
    """:func:`assay.text.ngram_codes.code_ngrams` through the compiled coder."""
    codes = np.empty((max_order, len(ids)), dtype=np.int32)
    coder = import_twin("assay.text._ngram_codes_c")
    return ngram_codes.Coded(codes, *coder.code_ngrams_into(ids, offsets, max_order, vocab_size, codes))
