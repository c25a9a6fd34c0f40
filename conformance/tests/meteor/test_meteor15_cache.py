"""METEOR 1.5's resource caches (:mod:`assay.resources.meteor15`): each is keyed on its inputs and
answers exactly what parsing answers.

- the jar's parsed tables (``$ASSAY_CACHE_DIR/meteor15``): function words, prefixes, exceptions and
  the synonym table (a :class:`~assay.resources.meteor15.SynsetTable` over memory-mapped arrays)
  equal a parse of the jar, entry for entry; a touched jar is a miss; an unreadable cache is parsed
  again; ``ASSAY_CACHE_DIR=off`` writes nothing;
- the paraphrase index (``$ASSAY_METEOR_CACHE``, memory-mapped ``.npy`` files) equals a parse of
  the table; an older ``.v2.npz`` index is converted; a changed table (new bytes) is a miss, and so
  are the arrays derived from it (:meth:`~assay.resources.meteor15.Resources.derived`).
"""
from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from assay.core.errors import MissingDependencyError
from assay.resources import meteor15


def _jar() -> Path:
    try:
        return meteor15.find_jar()
    except MissingDependencyError as exc:
        from conformance.references.availability import missing
        missing(str(exc))
        raise


@pytest.fixture
def fresh_load():
    meteor15.load.cache_clear()
    yield meteor15.load
    meteor15.load.cache_clear()


def test_jar_cache_equals_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_load) -> None:
    jar = tmp_path / "jar" / "meteor-1.5.jar"
    jar.parent.mkdir()
    shutil.copyfile(_jar(), jar)
    fw, prefixes, synsets, bases = meteor15._parse_jar(jar, "english")
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(tmp_path / "cache"))
    first = fresh_load(str(jar))                       # parses, writes the cache
    assert isinstance(first.synsets, dict)
    fresh_load.cache_clear()
    cached = fresh_load(str(jar))                      # reads it
    assert isinstance(cached.synsets, meteor15.SynsetTable)
    assert cached.function_words == fw and cached.prefixes == prefixes and cached.bases == bases
    assert len(cached.synsets) == len(synsets) and set(cached.synsets) == set(synsets)
    for word, offsets in synsets.items():
        assert cached.synsets.get(word) == offsets and cached.synsets[word] == offsets and word in cached.synsets
    for word in ("", "zzqxj", "Dog", "dog ", "\udc80", "ünïcödé"):
        assert (word in cached.synsets) == (word in synsets)
        assert cached.synsets.get(word, ()) == synsets.get(word, ())
    # a touched jar is another key: parsed again, a second cache file
    (cache,) = (tmp_path / "cache" / "meteor15").glob("*.marshal")
    os.utime(jar, ns=(jar.stat().st_atime_ns, jar.stat().st_mtime_ns + 10**9))
    fresh_load.cache_clear()
    assert isinstance(fresh_load(str(jar)).synsets, dict)
    assert len(list((tmp_path / "cache" / "meteor15").glob("*.marshal"))) == 2
    # an unreadable cache is parsed again
    for f in (tmp_path / "cache" / "meteor15").glob("*.marshal"):
        f.write_bytes(b"not marshal data")
    fresh_load.cache_clear()
    again = fresh_load(str(jar))
    assert isinstance(again.synsets, dict) and again.synsets == synsets
    assert cache.is_file()


def test_jar_cache_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_load) -> None:
    _jar()
    monkeypatch.setenv("ASSAY_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    res = fresh_load()
    assert isinstance(res.synsets, dict)
    assert not any(tmp_path.iterdir())


def _table(path: Path, entries: list[tuple[str, str]]) -> None:
    """A paraphrase table in the jar's format: probability, phrase, paraphrase (three lines each)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        for a, b in entries:
            f.write(f"0.5\n{a}\n{b}\n")


ENTRIES = [("big house", "large home"), ("a", "an"), ("big house", "mansion"), ("the end", "finish"),
           ("a", "one"), ("ünï", "x y z")]


def _expected(entries: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    src = np.array([meteor15.phrase_hash(a) for a, _ in entries], dtype=np.uint64)
    order = np.argsort(src, kind="stable")
    return (src[order], np.array([meteor15.phrase_hash(b) for _, b in entries], dtype=np.uint64)[order],
            np.array([len(b.split(" ")) for _, b in entries], dtype=np.uint8)[order])


def test_paraphrase_index_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_METEOR_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "jar" / "data" / "paraphrase-xx.gz"
    _table(table, ENTRIES)
    res = meteor15.Resources(tmp_path / "jar" / "meteor-1.5.jar", "xx", frozenset(), {}, {}, {})
    built = res.paraphrases()                                 # parsed, written, mapped
    for got, want in zip(built, _expected(ENTRIES)):
        assert isinstance(got, np.memmap) and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    files = sorted(p.name for p in (tmp_path / "cache").iterdir() if "stamp" not in p.name)
    assert [f for f in files if f.endswith(".npy")] and all(".v3." in f for f in files)
    calls = []

    def build(index):
        calls.append(1)
        return (np.asarray(index[0]) >> np.uint64(60), np.cumsum(index[2], dtype=np.int64))
    derived = res.derived("test-derived.1", build)
    again = meteor15.Resources(res.jar, "xx", frozenset(), {}, {}, {}).derived("test-derived.1", build)
    assert len(calls) == 1                                    # the second process-level call read the cache
    for a, b in zip(derived, again):
        np.testing.assert_array_equal(a, b)
    # an older .v2.npz index of the same table is converted, not rebuilt
    for p in (tmp_path / "cache").glob("*.v3.*"):
        p.unlink()
    digest = meteor15._table_digest(table)
    np.savez(tmp_path / "cache" / f"paraphrase-xx.v2.{digest}.npz",
             **dict(zip(meteor15.INDEX_ARRAYS, (a[::-1].copy() for a in _expected(ENTRIES)))))
    converted = meteor15.Resources(res.jar, "xx", frozenset(), {}, {}, {}).paraphrases()
    np.testing.assert_array_equal(converted[0], _expected(ENTRIES)[0][::-1])   # read from the old file
    # a changed table is a new digest: its index and derived arrays are built again
    _table(table, ENTRIES + [("new", "entry")])
    changed = meteor15.Resources(res.jar, "xx", frozenset(), {}, {}, {})
    for got, want in zip(changed.paraphrases(), _expected(ENTRIES + [("new", "entry")])):
        np.testing.assert_array_equal(got, want)
    changed.derived("test-derived.1", build)
    assert len(calls) == 2


def test_unreadable_index_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_METEOR_CACHE", str(tmp_path / "cache"))
    table = tmp_path / "jar" / "data" / "paraphrase-xx.gz"
    _table(table, ENTRIES)
    meteor15.Resources(tmp_path / "jar" / "meteor-1.5.jar", "xx", frozenset(), {}, {}, {}).paraphrases()
    for p in (tmp_path / "cache").glob("*.index.0.npy"):
        p.write_bytes(b"\x93NUMPY truncated")
    got = meteor15.Resources(tmp_path / "jar" / "meteor-1.5.jar", "xx", frozenset(), {}, {}, {}).paraphrases()
    for a, b in zip(got, _expected(ENTRIES)):
        np.testing.assert_array_equal(a, b)
