"""METEOR 1.5's linguistic data, read at run time (never shipped with assay).

Sources: the ``meteor-1.5.jar`` of an installed pycocoevalcap (``pycocoevalcap/meteor/``), or the
directory (or jar) named by the ``resources_path`` knob / ``$ASSAY_METEOR_DATA``. Read from the jar
(a zip archive): ``function/<lang>.words`` (function words, one per line), ``nonbreaking/<lang>.prefixes``
(Moses nonbreaking prefixes; ``#NUMERIC_ONLY#`` marks prefixes kept only before a number),
``synonym/english.synsets`` (word line, then its WordNet synset offsets) and
``synonym/english.exceptions`` (base form line, then its irregular forms). Beside the jar:
``data/paraphrase-en.gz`` (probability, phrase, paraphrase: three lines per entry).

Caches (every one keyed on its inputs: a changed resource file is a miss, never a stale answer):

- the paraphrase table (5.3M entries) is indexed once into 64-bit phrase hashes (each entry in its
  own direction, file order kept within a source) in ``$ASSAY_METEOR_CACHE`` (default
  ``~/.cache/assay/meteor15``), keyed by a digest of the table's bytes (:func:`_table_digest`), so
  every installation of the same table shares it. Three raw ``.npy`` files (sources sorted,
  targets, target lengths) that each process memory-maps read-only (:func:`_paraphrase_index`): a
  run reads only the pages its lookups touch instead of copying the whole 90 MB index into its own
  memory (0.1 s and as much system time a process before), and those pages are the page cache's,
  shared by every process. An index of the older
  ``.v2.npz`` layout is converted in place of a rebuild. The build (about a minute) shows a
  progress bar with the time left on a terminal (:mod:`assay.core.progress`; none under ``assay -q``).
  Arrays derived from the index (:meth:`Resources.derived`, e.g. the compiled aligner's bucket
  directory and bloom filter) are kept beside it, keyed by the index's digest and the deriver's name;
- the jar's parsed function words, prefixes and exceptions (``marshal``) and its synonym table
  (:class:`SynsetTable`: sorted word hashes and entries, memory-mapped ``.npy`` files; a run
  decodes only the words it looks up) (:func:`load`: 0.02 s to open instead of 0.13 s to parse,
  and no 150,000-entry dictionary in memory) in ``$ASSAY_CACHE_DIR/meteor15`` (default ``~/.cache/assay``;
  ``ASSAY_CACHE_DIR=off`` turns it off; :func:`_jar_cache_file`), keyed by the jar's resolved
  path, size and modification time, the language and :data:`JAR_CACHE_FORMAT`.

An unreadable or partial cache is rebuilt; an unwritable cache directory only costs the work again
(the paraphrase index then lives in memory for the process). A missing resource raises
:class:`assay.core.errors.MissingDependencyError`.
"""
from __future__ import annotations

import gzip
import hashlib
import importlib.util
import marshal
import os
import zipfile
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, Mapping

import numpy as np

from assay.core import paths
from assay.core.errors import MissingDependencyError
from assay.core.progress import ProgressBar

HINT = ("METEOR 1.5 needs the resources of meteor-1.5.jar: pip install 'assay-metrics[meteor]' (pycocoevalcap 1.2, "
        "which ships them), or set the resources_path knob / $ASSAY_METEOR_DATA to the directory holding "
        "meteor-1.5.jar and data/paraphrase-en.gz")
#: the index build's progress bar counts hundredths of the compressed table read
PROGRESS_UNITS = 100
#: the layout of the parsed-jar cache (:func:`_jar_cache_file`); a new layout is a new key
JAR_CACHE_FORMAT = "assay-meteor15-jar/2"
#: the paraphrase index's layout: one raw ``.npy`` file per array, memory-mapped
INDEX_VERSION = "v3"
INDEX_ARRAYS = ("src", "dst", "dst_len")

Arrays = tuple[np.ndarray, ...]


def find_jar(path: str | None = None) -> Path:
    """The meteor-1.5.jar to read: ``path`` (a jar or a directory), $ASSAY_METEOR_DATA, else pycocoevalcap's."""
    for cand in (path, os.environ.get("ASSAY_METEOR_DATA")):
        if cand:
            p = Path(cand)
            jar = p if p.suffix == ".jar" else p / "meteor-1.5.jar"
            if jar.is_file():
                return jar
            raise MissingDependencyError(f"METEOR 1.5 resources: {jar} not found. {HINT}")
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        jar = Path(list(spec.submodule_search_locations)[0]) / "meteor" / "meteor-1.5.jar"
        if jar.is_file():
            return jar
    raise MissingDependencyError(f"METEOR 1.5 resources not found. {HINT}")


def _hash(phrase: str) -> int:
    return int.from_bytes(hashlib.blake2b(phrase.encode("utf-8"), digest_size=8).digest(), "little")


def phrase_hash(phrase: str) -> int:
    """Stable 64-bit hash of a space-joined phrase (the paraphrase index key)."""
    return _hash(phrase)


@dataclass
class Resources:
    """Function words, nonbreaking prefixes, synonym sets and (lazily) the paraphrase index."""
    jar: Path
    language: str
    function_words: frozenset[str]
    prefixes: dict[str, int]
    synsets: Mapping[str, tuple[str, ...]]
    bases: dict[str, tuple[str, ...]]
    _para: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    _derived: dict[str, Arrays] = field(default_factory=dict, repr=False)

    @property
    def paraphrase_file(self) -> Path:
        return self.jar.parent / "data" / f"paraphrase-{self.language}.gz"

    def paraphrases(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sorted source hashes, target hashes, target lengths in words) of every table entry
        (read-only, memory-mapped from the cache when it can be written)."""
        if self._para is None:
            self._para = _paraphrase_index(self.paraphrase_file)
        return self._para

    def derived(self, name: str, build: Callable[[tuple[np.ndarray, np.ndarray, np.ndarray]], Arrays]) -> Arrays:
        """Arrays computed from the paraphrase index by ``build`` (called with :meth:`paraphrases`),
        kept beside the index and memory-mapped like it, keyed by the index's digest and ``name``:
        ``name`` must name everything else the arrays depend on (their layout, parameters, the
        version of the code that builds them). Once per process and per name."""
        got = self._derived.get(name)
        if got is None:
            table = self.paraphrase_file
            base = _index_base(table) if table.is_file() else None
            got = _mapped(base, name) if base is not None else None
            if got is None:
                got = tuple(build(self.paraphrases()))
                if base is not None:
                    got = _store(base, name, got)
            self._derived[name] = got
        return got


def _read_lines(z: zipfile.ZipFile, name: str) -> list[str]:
    try:
        return z.read(name).decode("utf-8").splitlines()
    except KeyError:
        raise MissingDependencyError(f"{name} is not in {z.filename}. {HINT}") from None


_JarTables = tuple[frozenset[str], dict[str, int], Mapping[str, tuple[str, ...]], dict[str, tuple[str, ...]]]


@lru_cache(maxsize=4)
def load(path: str | None = None, language: str = "en") -> Resources:
    """Read the resources of one jar (cached per process, and between runs: :func:`_jar_cache_file`;
    the synonym table then is a :class:`SynsetTable` over the cache's files)."""
    jar = find_jar(path)
    lang = {"en": "english"}.get(language, language)
    cache = _jar_cache_file(jar, lang)
    tables = _read_jar_cache(cache) if cache is not None else None
    if tables is None:
        tables = _parse_jar(jar, lang)
        if cache is not None:
            _write_jar_cache(cache, tables)
    return Resources(jar, language, *tables)


def _key_hash(key: bytes) -> int:
    """:func:`phrase_hash` of an encoded word."""
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little")


class SynsetTable(Mapping[str, tuple[str, ...]]):
    """The jar's synonym table (word -> its synset offsets) without a dictionary of its 147,000
    words: the entries ``word\tsynset synset ...`` (UTF-8) sorted by a 64-bit hash of the word
    (:func:`phrase_hash`), found by a binary search of the hashes and checked against the word
    (so a hash collision cannot answer for another word). The arrays are memory-mapped from the
    cache: a run reads the pages of the words it looks up. Answers are memoised per word."""

    def __init__(self, hashes: np.ndarray, offsets: np.ndarray, blob: np.ndarray):
        self._arrays = (hashes, offsets, blob)
        # memoryviews: bisect and indexing give Python ints without a numpy scalar per step
        self._hashes = np.ascontiguousarray(hashes, dtype=np.uint64).data.cast("B").cast("Q")
        self._offsets = np.ascontiguousarray(offsets, dtype=np.int64).data.cast("B").cast("q")
        self._blob = np.ascontiguousarray(blob, dtype=np.uint8).data.cast("B")
        self._memo: dict[str, tuple[str, ...] | None] = {}

    @classmethod
    def arrays(cls, synsets: Mapping[str, tuple[str, ...]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hashes ascending, entry offsets, entry bytes) of a word -> synsets mapping."""
        keyed = sorted((_key_hash(w.encode("utf-8", "surrogatepass")), w) for w in synsets)
        entries = [f"{w}\t{' '.join(synsets[w])}".encode("utf-8", "surrogatepass") for _, w in keyed]
        offsets = np.zeros(len(entries) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, entries), np.int64, len(entries)), out=offsets[1:])
        return (np.array([h for h, _ in keyed], dtype=np.uint64), offsets,
                np.frombuffer(b"".join(entries), dtype=np.uint8).copy())

    def _find(self, word: str) -> tuple[str, ...] | None:
        try:
            return self._memo[word]
        except KeyError:
            pass
        got = None
        key = word.encode("utf-8", "surrogatepass")
        h = _key_hash(key)
        hashes, offsets = self._hashes, self._offsets
        k = bisect_left(hashes, h)
        while k < len(hashes) and hashes[k] == h:
            entry = self._blob[offsets[k]:offsets[k + 1]].tobytes()
            w, _, syn = entry.partition(b"\t")
            if w == key:
                got = tuple(syn.decode("utf-8", "surrogatepass").split())
                break
            k += 1
        self._memo[word] = got
        return got

    def __getitem__(self, word: str) -> tuple[str, ...]:
        got = self._find(word) if isinstance(word, str) else None
        if got is None:
            raise KeyError(word)
        return got

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._find(word) is not None

    def get(self, word: str, default: tuple[str, ...] | None = None) -> tuple[str, ...] | None:  # type: ignore[override]
        got = self._find(word) if isinstance(word, str) else None
        return default if got is None else got

    def __iter__(self) -> Iterator[str]:
        blob = self._blob.tobytes()
        offsets = self._offsets.tolist()
        for a, b in zip(offsets[:-1], offsets[1:]):
            yield blob[a:b].partition(b"\t")[0].decode("utf-8", "surrogatepass")

    def __len__(self) -> int:
        return len(self._hashes)


def _parse_jar(jar: Path, lang: str) -> _JarTables:
    """Function words, prefixes (2: only before a number), synsets of each word, base forms of each
    irregular form, read from the jar."""
    with zipfile.ZipFile(jar) as z:
        fw = frozenset(w.strip() for w in _read_lines(z, f"function/{lang}.words") if w.strip())
        prefixes: dict[str, int] = {}
        for line in _read_lines(z, f"nonbreaking/{lang}.prefixes"):
            parts = line.strip().split()
            if parts and not parts[0].startswith("#"):
                prefixes[parts[0]] = 2 if len(parts) > 1 and parts[1] == "#NUMERIC_ONLY#" else 1
        synsets: dict[str, tuple[str, ...]] = {}
        bases: dict[str, list[str]] = {}
        if lang == "english":
            lines = _read_lines(z, "synonym/english.synsets")
            for k in range(0, len(lines) - 1, 2):
                synsets[lines[k]] = tuple(lines[k + 1].split())
            lines = _read_lines(z, "synonym/english.exceptions")
            for k in range(0, len(lines) - 1, 2):
                for form in lines[k + 1].split():
                    bases.setdefault(form, []).append(lines[k])
    return fw, prefixes, synsets, {k: tuple(v) for k, v in bases.items()}


def _jar_cache_file(jar: Path, lang: str) -> Path | None:
    """Where the parsed tables of ``jar`` are kept: ``$ASSAY_CACHE_DIR/meteor15`` (None: caching is
    off), named by a digest of :data:`JAR_CACHE_FORMAT`, the jar's resolved path, size and
    modification time and the language (a changed or touched jar is parsed again)."""
    root = paths.cache_dir("meteor15")
    if root is None:
        return None
    try:
        st = jar.stat()
    except OSError:
        return None
    key = "\0".join((JAR_CACHE_FORMAT, str(jar.resolve()), str(st.st_size), str(st.st_mtime_ns), lang))
    return root / f"jar-{lang}.{hashlib.sha256(key.encode('utf-8', 'surrogateescape')).hexdigest()[:32]}.marshal"


def _read_jar_cache(path: Path) -> _JarTables | None:
    """The cached tables, or None when absent or unreadable (then parsed again): function words,
    prefixes and exceptions from ``path`` (marshal), the synonym table's arrays beside it."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == 4 and data[0] == JAR_CACHE_FORMAT):
        return None
    synsets = _mapped(path.with_suffix(""), "synsets")
    if synsets is None or len(synsets) != 3:
        return None
    return frozenset(data[1]), data[2], SynsetTable(*synsets), data[3]


def _write_jar_cache(path: Path, tables: _JarTables) -> None:
    """Store the parsed tables (atomically, the synonym table's arrays first; a cache that cannot be
    written is skipped)."""
    fw, prefixes, synsets, bases = tables
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _store(path.with_suffix(""), "synsets", SynsetTable.arrays(synsets))
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps((JAR_CACHE_FORMAT, tuple(sorted(fw)), prefixes, bases)))
        os.replace(tmp, path)
    except OSError:
        pass


def _cache_dir() -> Path:
    return Path(os.environ.get("ASSAY_METEOR_CACHE") or Path.home() / ".cache" / "assay" / "meteor15")


def _table_digest(table: Path) -> str:
    """A digest of the table's bytes (the index cache's key). Hashing the 30 MB table costs ~0.2 s a
    process, so the digest is remembered in a small stamp file keyed by the table's resolved path,
    size and modification time; a changed or touched table is hashed again."""
    st = table.stat()
    where = f"{table.resolve()}\0{st.st_size}\0{st.st_mtime_ns}".encode("utf-8", "surrogateescape")
    stamp = _cache_dir() / f"{table.stem}.stamp.{hashlib.blake2b(where, digest_size=8).hexdigest()}"
    try:
        known = stamp.read_text(encoding="ascii").strip()
        if len(known) == 16:
            return known
    except (OSError, UnicodeDecodeError):
        pass
    digest = hashlib.blake2b(table.read_bytes(), digest_size=8).hexdigest()
    try:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        tmp = stamp.with_name(stamp.name + f".{os.getpid()}.tmp")
        tmp.write_text(digest + "\n", encoding="ascii")
        tmp.replace(stamp)
    except OSError:           # an unwritable cache only costs the hashing next time
        pass
    return digest


def _index_base(table: Path) -> Path:
    """The common prefix of the index's files: ``<cache>/<table stem>.v3.<digest of the table>``."""
    return _cache_dir() / f"{table.stem}.{INDEX_VERSION}.{_table_digest(table)}"


def _mapped(base: Path, name: str) -> Arrays | None:
    """The arrays ``<base>.<name>.<k>.npy`` (k = 0, 1, ... up to the count in ``<base>.<name>.n``),
    memory-mapped read-only; None when any is missing or unreadable."""
    try:
        count = int((base.parent / f"{base.name}.{name}.n").read_text(encoding="ascii"))
        return tuple(np.load(base.parent / f"{base.name}.{name}.{k}.npy", mmap_mode="r", allow_pickle=False)
                     for k in range(count))
    except (OSError, ValueError, EOFError):
        return None


def _store(base: Path, name: str, arrays: Arrays) -> Arrays:
    """Write ``arrays`` as :func:`_mapped` reads them (each file atomically, the count last) and
    return them mapped; the in-memory arrays when the cache cannot be written."""
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
        for k, a in enumerate(arrays):
            final = base.parent / f"{base.name}.{name}.{k}.npy"
            tmp = final.with_name(f"{final.name}.{os.getpid()}.tmp")
            with open(tmp, "wb") as fh:
                np.save(fh, np.ascontiguousarray(a), allow_pickle=False)
            os.replace(tmp, final)
        count = base.parent / f"{base.name}.{name}.n"
        tmp = count.with_name(f"{count.name}.{os.getpid()}.tmp")
        tmp.write_text(str(len(arrays)), encoding="ascii")
        os.replace(tmp, count)
    except OSError:
        return arrays
    return _mapped(base, name) or arrays


def _paraphrase_index(table: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(source hashes sorted, target hashes, target lengths): every table entry in its own direction,
    targets of one source in file order (the jar's candidate order). Memory-mapped from the cache
    (:func:`_mapped`); an older ``.v2.npz`` cache of the same table is converted, else the table is
    parsed (:func:`_build_index`)."""
    if not table.is_file():
        raise MissingDependencyError(f"paraphrase table {table} not found. {HINT}")
    digest = _table_digest(table)
    base = _index_base(table)
    got = _mapped(base, "index")
    if got is None:
        old = _cache_dir() / f"{table.stem}.v2.{digest}.npz"
        arrays: Arrays | None = None
        if old.is_file():
            try:
                with np.load(old, allow_pickle=False) as data:
                    arrays = tuple(data[k] for k in INDEX_ARRAYS)
            except (OSError, ValueError, KeyError, EOFError):
                arrays = None
        got = _store(base, "index", arrays if arrays is not None else _build_index(table))
    src, dst, dst_len = got
    return src, dst, dst_len


def _build_index(table: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Parse the gzipped table (probability, phrase, paraphrase: three lines per entry) into the
    index's arrays, sources sorted stably (file order kept within a source)."""
    src: list[int] = []
    dst: list[int] = []
    dst_len: list[int] = []
    size = max(table.stat().st_size, 1)
    with open(table, "rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as f, \
            ProgressBar(PROGRESS_UNITS, description="METEOR 1.5 paraphrase index (built once)") as bar:
        it = iter(f)
        for _prob in it:
            a = next(it).rstrip("\n")
            b = next(it).rstrip("\n")
            src.append(_hash(a))
            dst.append(_hash(b))
            dst_len.append(len(b.split(" ")))
            if len(src) % 65536 == 0:   # the share of the compressed bytes read so far
                done = raw.tell() * PROGRESS_UNITS // size
                if done > bar.done:
                    bar.step(f"{len(src):,} entries", done - bar.done)
    s = np.array(src, dtype=np.uint64)
    order = np.argsort(s, kind="stable")
    return s[order], np.array(dst, dtype=np.uint64)[order], np.array(dst_len, dtype=np.uint8)[order]
