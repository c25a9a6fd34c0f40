"""Where the package's bundled data lives: ``assay/_fixtures`` in a wheel, ``fixtures/`` in a checkout."""
from __future__ import annotations

from pathlib import Path

#: the ``assay`` package directory
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def bundled_fixture_dirs() -> tuple[Path, ...]:
    """Candidate fixture roots, in order: the wheel's ``assay/_fixtures``, the checkout's ``fixtures/``."""
    return (PACKAGE_DIR / "_fixtures", PACKAGE_DIR.parent.parent / "fixtures")
