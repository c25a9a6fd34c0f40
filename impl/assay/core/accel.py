"""Which path runs the hot loops: the compiled Cython twins, or the pure-Python specification.

Every hot loop has a pure-Python function (the readable, tested specification) and may have a
compiled twin in a Cython module named ``_<name>_c`` beside it (``assay/text/_ngrams_c.pyx`` next
to ``assay/text/ngrams.py``). A pure module picks its twin with::

    from assay.core import accel
    try:
        from assay.text import _ngrams_c as _compiled
    except ImportError:       # not built (no compiler at install time): the pure path
        _compiled = None
    _compiled = accel.use(_compiled, __name__)

- ``ASSAY_PURE=1`` in the environment forces the pure path everywhere (``tox -e pure`` runs the
  whole golden suite so);
- :func:`status` tells whether the twins are built and used (``assay --version`` prints it).

The two paths must agree exactly: conformance/tests/accel holds the equality properties.
"""
from __future__ import annotations

import importlib
import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Optional

#: True when ``ASSAY_PURE=1``: every module runs its pure-Python path
PURE: bool = os.environ.get("ASSAY_PURE", "") == "1"



def use(twin: Optional[ModuleType], owner: str) -> Optional[ModuleType]:
    """``twin`` unless the pure path is forced (``owner``, the pure module's name, is for messages)."""
    return None if PURE else twin


def load(module: str) -> Optional[ModuleType]:
    """The compiled twin named ``module``, or None when it is not built or the pure path is forced.

    For a twin whose package ``__init__`` imports the pure module (``assay.stemmers``): a static
    ``from assay.stemmers import _porter_c`` would read, to the import graph, as the module importing
    its own package (a cycle), since grimp does not see compiled modules."""
    if PURE:
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def twins() -> dict[str, bool]:
    """Every Cython twin the package ships a source for, and whether its compiled module is built."""
    root = Path(__file__).resolve().parents[1]
    found = {}
    for source in sorted(root.rglob("_*_c.pyx")):
        name = ".".join(("assay",) + source.relative_to(root).with_suffix("").parts)
        found[name] = any(source.with_name(source.stem + suffix).exists() for suffix in EXTENSION_SUFFIXES)
    return found


def status() -> str:
    """One line for ``assay --version``: which path the hot loops take."""
    if PURE:
        return "hot loops: pure Python (ASSAY_PURE=1)"
    built = twins()
    n_built = sum(built.values())
    if not built or n_built == 0:
        return "hot loops: pure Python (not compiled; README 'Building')"
    missing = sorted(k.rsplit(".", 1)[-1] for k, v in built.items() if not v)
    return f"hot loops: compiled ({n_built} of {len(built)} twins" + (f"; not built: {', '.join(missing)})" if missing else ")")
