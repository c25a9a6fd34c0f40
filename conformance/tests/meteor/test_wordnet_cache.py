"""The WordNet index cache (:func:`assay.resources.wordnet._cache_file`): a second load reads the
same tables as a parse; an unreadable cache file is parsed again; ``ASSAY_CACHE_DIR=off`` writes none."""
from __future__ import annotations

from pathlib import Path

import pytest

from assay.core.errors import MissingDependencyError
from assay.resources import wordnet
from conformance.references.availability import missing


def _load() -> wordnet.WordNet:
    try:
        return wordnet.WordNet()
    except MissingDependencyError as exc:
        missing(str(exc))
        raise


def test_cached_tables_equal_parsed_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_CACHE_DIR", "off")
    parsed = _load()
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(tmp_path))
    first = _load()                                   # parses, writes the cache
    files = list((tmp_path / "wordnet").iterdir())
    assert len(files) == 1 and files[0].suffix == ".marshal"
    cached = _load()                                  # reads it
    assert cached.index == parsed.index == first.index
    assert cached.exceptions == parsed.exceptions
    assert cached.lemma_names("dogs") == parsed.lemma_names("dogs")
    files[0].write_bytes(b"not marshal data")
    assert _load().index == parsed.index              # unreadable: parsed again


def test_cache_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _load()
    assert not any(tmp_path.iterdir())
