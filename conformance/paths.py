"""Where things are, for every conformance script (regen, bench, generate), wherever it lives.

- ``REPO_ROOT``: the checkout (``pyproject.toml``, ``impl/``, ``fixtures/``, ``conformance/``).
- ``IMPL``: ``impl/``, the package source (put on ``sys.path`` only when assay is not installed).
- ``FIXTURES``: ``fixtures/``, the golden files regen writes.
- ``SHARED``: ``../shared`` beside the checkout; ``RESEARCH`` (``shared/research``) holds the research
  golden cases, ``CORPORA`` (``shared/corpora``, or ``$ASSAY_CORPORA``) the real corpora.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
IMPL = REPO_ROOT / "impl"
FIXTURES = REPO_ROOT / "fixtures"
SHARED = REPO_ROOT.parent / "shared"
RESEARCH = SHARED / "research"


def corpora_dir() -> Path:
    """``$ASSAY_CORPORA`` when set, else ``../shared/corpora`` (it may not exist)."""
    return Path(os.environ.get("ASSAY_CORPORA") or SHARED / "corpora")


def ensure_assay_importable() -> None:
    """Fall back to the working tree's ``impl/`` when no assay is installed (a bare checkout)."""
    if importlib.util.find_spec("assay") is None:
        sys.path.insert(0, str(IMPL))
