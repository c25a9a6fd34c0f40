"""METEOR 1.5's linguistic data, read at run time (never shipped with assay).

Sources: the ``meteor-1.5.jar`` of an installed pycocoevalcap (``pycocoevalcap/meteor/``), or the
directory (or jar) named by the ``resources_path`` knob / ``$ASSAY_METEOR_DATA``. Read from the jar
(a zip archive): ``function/<lang>.words`` (function words, one per line), ``nonbreaking/<lang>.prefixes``
(Moses nonbreaking prefixes; ``#NUMERIC_ONLY#`` marks prefixes kept only before a number),
``synonym/english.synsets`` (word line, then its WordNet synset offsets) and
``synonym/english.exceptions`` (base form line, then its irregular forms). Beside the jar:
``data/paraphrase-en.gz`` (probability, phrase, paraphrase: three lines per entry).

The paraphrase table (5.3M entries) is indexed once into a cache of 64-bit phrase hashes (each
entry in its own direction, file order kept within a source)
(``$ASSAY_METEOR_CACHE`` or ``~/.cache/assay/meteor15``), keyed by a digest of the table's bytes, so
every installation of the same table shares it. The build (about a minute) shows a progress bar
with the time left on a terminal (:mod:`assay.core.progress`; none under ``assay -q``).
A missing resource raises :class:`assay.core.errors.MissingDependencyError`.
"""
from __future__ import annotations

import gzip
import hashlib
import importlib.util
import os
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from assay.core.errors import MissingDependencyError
from assay.core.progress import ProgressBar

HINT = ("METEOR 1.5 needs the resources of meteor-1.5.jar: pip install 'assay-metrics[meteor]' (pycocoevalcap 1.2, "
        "which ships them), or set the resources_path knob / $ASSAY_METEOR_DATA to the directory holding "
        "meteor-1.5.jar and data/paraphrase-en.gz")
#: the index build's progress bar counts hundredths of the compressed table read
PROGRESS_UNITS = 100


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
    synsets: dict[str, tuple[str, ...]]
    bases: dict[str, tuple[str, ...]]
    _para: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @property
    def paraphrase_file(self) -> Path:
        return self.jar.parent / "data" / f"paraphrase-{self.language}.gz"

    def paraphrases(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(sorted source hashes, target hashes, target lengths in words) of every table entry."""
        if self._para is None:
            self._para = _paraphrase_index(self.paraphrase_file)
        return self._para


def _read_lines(z: zipfile.ZipFile, name: str) -> list[str]:
    try:
        return z.read(name).decode("utf-8").splitlines()
    except KeyError:
        raise MissingDependencyError(f"{name} is not in {z.filename}. {HINT}") from None


@lru_cache(maxsize=4)
def load(path: str | None = None, language: str = "en") -> Resources:
    """Read the resources of one jar (cached per process)."""
    jar = find_jar(path)
    lang = {"en": "english"}.get(language, language)
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
    return Resources(jar, language, fw, prefixes, synsets, {k: tuple(v) for k, v in bases.items()})


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


def _paraphrase_index(table: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(source hashes sorted, target hashes, target lengths): every table entry in its own direction,
    targets of one source in file order (the jar's candidate order)."""
    if not table.is_file():
        raise MissingDependencyError(f"paraphrase table {table} not found. {HINT}")
    cache = _cache_dir() / f"{table.stem}.v2.{_table_digest(table)}.npz"
    if cache.is_file():
        with np.load(cache) as data:
            return data["src"], data["dst"], data["dst_len"]
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
    s = s[order]
    d = np.array(dst, dtype=np.uint64)[order]
    n = np.array(dst_len, dtype=np.uint8)[order]
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, src=s, dst=d, dst_len=n)
    tmp.rename(cache)
    return s, d, n
