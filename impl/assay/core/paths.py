"""Where the package's bundled data lives (``assay/_fixtures`` in a wheel, ``fixtures/`` in a
checkout), and where its caches go (:func:`cache_dir`)."""
from __future__ import annotations

import os
from pathlib import Path

#: the ``assay`` package directory
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def bundled_fixture_dirs() -> tuple[Path, ...]:
    """Candidate fixture roots, in order: the wheel's ``assay/_fixtures``, the checkout's ``fixtures/``."""
    return (PACKAGE_DIR / "_fixtures", PACKAGE_DIR.parent.parent / "fixtures")


#: values of ``$ASSAY_CACHE_DIR`` that turn every cache off
CACHE_OFF = ("", "off", "0", "no", "none")


def cache_dir(name: str) -> Path | None:
    """The folder of one cache (``"moses"``, ``"wordnet"``): ``$ASSAY_CACHE_DIR/<name>`` (default
    ``$XDG_CACHE_HOME/assay/<name>``, i.e. ``~/.cache/assay/<name>``); None when
    ``ASSAY_CACHE_DIR=off`` turns caching off. Nothing is created here."""
    root = os.environ.get("ASSAY_CACHE_DIR")
    if root is not None and root.strip().lower() in CACHE_OFF:
        return None
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                            "assay")
    return Path(root) / name
