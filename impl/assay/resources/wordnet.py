"""WordNet 3.0 read straight from its database files (no NLTK): lemma names of a word's synsets.

Answers one question, the one NLTK's METEOR asks: *all lemma names of all synsets of word w, any
part of speech*, the way ``nltk.corpus.wordnet.synsets(w)`` finds the synsets. That is, lowercase
``w``, then for each of noun, verb, adjective and adverb run WordNet's morphological lookup
(``morphy(7WN)``) and take the synsets of every base form found:

1. if ``w`` is in the POS's exception list (``<pos>.exc``), the forms are ``w`` and its listed
   bases, kept where the index has them for that POS, and lookup stops there;
2. otherwise each detachment rule of morphy(7WN) is applied once to ``w``; ``w`` and the results
   that the index has for the POS are the forms. Rules are not re-applied to their results
   (NLTK 3.10.4 does not: ``abasheded`` finds nothing), checked on 321,331 words against NLTK.
   With ``iterate=True`` (NLTK 3.5, black-box: ``handless`` finds ``handle``, ``offerer`` finds
   the adjective ``off``): when neither ``w`` nor a one-rule result is in the index, the rules are
   applied again to every result of the previous round, round after round, and the first round
   with results in the index gives the forms (checked on 20,011 words against NLTK 3.5).

Lemma names are returned as the data files spell them (case kept, ``_`` for spaces), without the
adjective position marker (``(a)``, ``(p)``, ``(ip)``). File formats: wndb(5WN).

The database comes from ``$ASSAY_WORDNET`` or an explicit path, else ``/usr/share/wordnet``
(Debian/Ubuntu ``wordnet-base``). A missing database raises :class:`MissingDependencyError`.
The parsed index and exception lists are kept between runs in ``$ASSAY_CACHE_DIR/wordnet``
(:func:`_cache_file`; 0.05 s to read instead of 0.25 s to parse).
"""
from __future__ import annotations

import hashlib
import marshal
import mmap
import os
from pathlib import Path
from typing import Iterable

from assay.core import paths
from assay.core.errors import MissingDependencyError

DEFAULT_DIRS = ("/usr/share/wordnet",)
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
#: morphy(7WN) detachment rules (suffix, ending) per part of speech; adverbs have none.
RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"),
          ("shes", "sh"), ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
INSTALL_HINT = ("install WordNet 3.0 (Debian/Ubuntu: apt-get install wordnet-base), or point "
                "$ASSAY_WORDNET / the wordnet knob at a directory holding index.noun, data.noun, noun.exc, ...")


def resolve_dir(path: str | None = None) -> Path:
    """The WordNet database directory: ``path``, else ``$ASSAY_WORDNET``, else the system one."""
    candidates = [path] if path else ([os.environ["ASSAY_WORDNET"]] if os.environ.get("ASSAY_WORDNET")
                                      else list(DEFAULT_DIRS))
    for cand in candidates:
        d = Path(cand)
        if all((d / f"{kind}.{name}").is_file() for name in POS_FILES.values() for kind in ("index", "data")):
            return d
    raise MissingDependencyError(f"WordNet 3.0 database not found in {', '.join(map(str, candidates))}: "
                                 f"{INSTALL_HINT}")


class WordNet:
    """Index and exception lists loaded eagerly; synset lines read on demand (seek to the offset)."""

    def __init__(self, path: str | None = None) -> None:
        self.dir = resolve_dir(path)
        self.index: dict[str, dict[str, tuple[int, ...]]] = {pos: {} for pos in POS_FILES}
        self.exceptions: dict[str, dict[str, tuple[str, ...]]] = {pos: {} for pos in POS_FILES}
        self._data = {pos: _map(self.dir / f"data.{name}") for pos, name in POS_FILES.items()}
        self._synset_cache: dict[int, tuple[str, ...]] = {}     # key offset * 4 + POS number
        self._cache: dict[str, frozenset[str]] = {}
        self._keys: dict[str, frozenset[int]] = {}
        self._keys_iterated: dict[str, frozenset[int]] = {}
        self._by_lemma: dict[str, tuple[int, ...]] = {}
        self._all: frozenset[str] | None = None
        #: per POS: (index, exceptions, POS number, rule suffixes, rules), for the lookups
        self._plan = tuple((self.index[pos], self.exceptions[pos], code, ends, rules)
                           for pos, code, ends, rules in _PLAN)
        self._indexes = tuple(self.index.values())
        self._index_codes = tuple((self.index[pos], code) for pos, code, _, _ in _PLAN)
        self._exception_words: frozenset[str] = frozenset()
        cache = _cache_file(self.dir)
        loaded = _read_cache(cache) if cache is not None else None
        if loaded is not None:
            for pos in POS_FILES:
                self.index[pos].update(loaded[0][pos])
                self.exceptions[pos].update(loaded[1][pos])
            self._exception_words = frozenset().union(*self.exceptions.values())
            return
        for pos, name in POS_FILES.items():
            self._load_index(pos, self.dir / f"index.{name}")
            exc = self.dir / f"{name}.exc"
            if exc.is_file():
                table = self.exceptions[pos]
                for line in exc.read_text(encoding="utf-8").splitlines():
                    terms = line.split()
                    if terms:
                        table[terms[0]] = tuple(terms[1:])
        self._exception_words = frozenset().union(*self.exceptions.values())
        if cache is not None:
            _write_cache(cache, (self.index, self.exceptions))

    @property
    def all_lemmas(self) -> frozenset[str]:
        """Every index entry (lowercase lemma, any POS)."""
        if self._all is None:
            self._all = frozenset().union(*self.index.values())
        return self._all

    def _load_index(self, pos: str, path: Path) -> None:
        """index.<pos>: ``lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...``."""
        table = self.index[pos]
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith(" "):        # licence header
                    continue
                f = line.split()
                n_synsets, n_ptrs = int(f[2]), int(f[3])
                first = 4 + n_ptrs + 2
                table[f[0]] = tuple(int(x) for x in f[first:first + n_synsets])

    def _lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        """Words of the synset at ``offset`` of data.<pos> (``offset lex_filenum ss_type w_cnt word lex_id ...``)."""
        key = offset * 4 + _POS_CODE[pos]
        names = self._synset_cache.get(key)
        if names is None:
            data = self._data[pos]
            size = 2048
            while True:   # the synset's words come first on its line: read until they are all in
                head = data[offset:offset + size].split(b"\n", 1)[0].split(b" ", 4)
                count = int(head[3], 16)
                f = head[4].split(b" ", 2 * count)
                if len(f) > 2 * count or offset + size >= len(data):
                    break
                size *= 4
            out = []
            for k in range(count):
                word = f[2 * k].decode("utf-8")
                if word.endswith(")") and "(" in word:   # adjective marker (a) / (p) / (ip)
                    word = word[:word.rindex("(")]
                out.append(word)
            names = self._synset_cache[key] = tuple(out)
        return names

    def morphy(self, form: str, pos: str, iterate: bool = False) -> list[str]:
        """Base forms of ``form`` for ``pos`` that the index holds (see the module docstring)."""
        index = self.index[pos]

        def known(forms: list[str]) -> list[str]:
            seen: list[str] = []
            for x in forms:
                if x in index and x not in seen:
                    seen.append(x)
            return seen

        exc = self.exceptions[pos].get(form)
        if exc is not None:
            return known([form, *exc])
        rules = RULES[pos]

        def detach(forms: list[str]) -> list[str]:
            return [f[: len(f) - len(old)] + new for f in forms for old, new in rules if f.endswith(old)]

        level = detach([form])
        found = known([form, *level])
        while iterate and not found and level:
            level = detach(level)
            found = known(level)
        return found

    def lemma_names(self, word: str, iterate: bool = False) -> frozenset[str]:
        """All lemma names of all synsets of ``word`` (any POS), as NLTK's ``synsets(word)`` finds them.

        The same forms as :meth:`morphy` (order does not matter for a union), with a quick test of
        whether any detachment rule can apply."""
        if iterate:
            return frozenset(name for key in self.synset_keys(word, True)
                             for name in self._lemma_names(_CODE_POS[key & 3], key >> 2))
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        lemma = word.lower()
        names: set[str] = set()
        for pos, ends in _RULE_ENDS.items():
            index = self.index[pos]
            exc = self.exceptions[pos].get(lemma)
            if exc is not None:
                forms: Iterable[str] = (lemma, *exc)
            elif ends and lemma.endswith(ends):
                forms = [lemma] + [lemma[: len(lemma) - len(old)] + new for old, new in RULES[pos]
                                   if lemma.endswith(old)]
            else:
                forms = (lemma,)
            for base in set(forms):
                offsets = index.get(base)
                if offsets is not None:
                    for offset in offsets:
                        names.update(self._lemma_names(pos, offset))
        result = self._cache[word] = frozenset(names)
        return result

    def synset_keys(self, word: str, iterate: bool = False) -> frozenset[int]:
        """The synsets :meth:`lemma_names` reads for ``word``, as keys ``offset * 4 + POS number``
        (index only: no data file is read)."""
        if iterate:
            return self._iterated_keys(word)
        cached = self._keys.get(word)
        if cached is not None:
            return cached
        lemma = word.lower()
        if lemma not in self._exception_words and not lemma.endswith(_ALL_RULE_ENDS):
            # no exception and no rule applies in any POS: the synsets of the word itself
            n, v, a, r = self._indexes
            if lemma not in n and lemma not in v and lemma not in a and lemma not in r:
                self._keys[word] = _NO_KEYS
                return _NO_KEYS
            result = self._keys[word] = frozenset(
                [o * 4 + code for index, code in self._index_codes for o in index.get(lemma, ())])
            return result
        keys: set[int] = set()
        for index, exceptions, code, ends, rules in self._plan:
            exc = exceptions.get(lemma)
            if exc is None and not (ends and lemma.endswith(ends)):
                offsets = index.get(lemma)
                if offsets is not None:
                    keys.update([o * 4 + code for o in offsets])
                continue
            if exc is not None:
                forms: Iterable[str] = {lemma, *exc}
            else:
                forms = {lemma, *[lemma[: len(lemma) - len(old)] + new for old, new in rules if lemma.endswith(old)]}
            for base in forms:
                offsets = index.get(base)
                if offsets is not None:
                    keys.update([o * 4 + code for o in offsets])
        result = self._keys[word] = frozenset(keys) if keys else _NO_KEYS
        return result

    def _iterated_keys(self, word: str) -> frozenset[int]:
        """:meth:`synset_keys` with ``morphy(..., iterate=True)`` (NLTK 3.5)."""
        cached = self._keys_iterated.get(word)
        if cached is None:
            lemma = word.lower()
            keys = {o * 4 + code for pos, code in _POS_CODE.items() for base in self.morphy(lemma, pos, True)
                    for o in self.index[pos][base]}
            cached = self._keys_iterated[word] = frozenset(keys) if keys else _NO_KEYS
        return cached

    def listed(self, name: str) -> bool:
        """Whether ``name.lower()`` is an index entry of some POS (:meth:`keys_with_lemma` is not empty)."""
        low = name.lower()
        n, v, a, r = self._indexes
        return low in n or low in v or low in a or low in r

    def keys_with_lemma(self, name: str) -> tuple[int, ...]:
        """Keys of every synset listing ``name.lower()`` in the index, any POS. A synset spelling a
        lemma name ``w`` is always listed under ``w.lower()`` (wndb(5WN); checked on all 206,978
        lemma names of WordNet 3.0), so this is a superset of the synsets spelling ``name``."""
        cached = self._by_lemma.get(name)
        if cached is None:
            low = name.lower()
            out: list[int] = []
            for index, _, code, _, _ in self._plan:
                offsets = index.get(low)
                if offsets is not None:
                    out += [o * 4 + code for o in offsets]
            cached = self._by_lemma[name] = tuple(out)
        return cached

    def spells(self, key: int, name: str) -> bool:
        """Whether the synset ``key`` (``offset * 4 + POS number``) has a lemma spelled exactly ``name``."""
        return name in self._lemma_names(_CODE_POS[key & 3], key >> 2)


#: per POS, the suffixes any rule detaches (a quick pre-test)
_RULE_ENDS = {pos: tuple({old for old, _ in rules}) for pos, rules in RULES.items()}
_ALL_RULE_ENDS = tuple({old for ends in _RULE_ENDS.values() for old in ends})
_POS_CODE = {"n": 0, "v": 1, "a": 2, "r": 3}
_CODE_POS = {code: pos for pos, code in _POS_CODE.items()}
_NO_KEYS: frozenset[int] = frozenset()
_PLAN = tuple((pos, _POS_CODE[pos], _RULE_ENDS[pos], RULES[pos]) for pos in POS_FILES)


def _map(path: Path) -> "mmap.mmap | bytes":
    """The whole data file, memory-mapped (read-only)."""
    with open(path, "rb") as fh:
        try:
            return mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        except (ValueError, OSError):      # empty file or no mmap support
            return fh.read()


#: the parsed index and exception lists, kept between runs (``marshal``: 5x faster than parsing)
CACHE_FORMAT = "assay-wordnet-index/1"


def _cache_file(d: Path) -> Path | None:
    """Where the parsed index of database ``d`` is kept: ``$ASSAY_CACHE_DIR/wordnet`` (default
    ``$XDG_CACHE_HOME/assay``, i.e. ``~/.cache/assay``; ``off`` turns caching off), named by a
    digest of the directory and every index/exception file's size and modification time, so a
    changed database is parsed again. None: caching is off."""
    root = paths.cache_dir("wordnet")
    if root is None:
        return None
    parts = [CACHE_FORMAT, str(d.resolve())]
    for name in POS_FILES.values():
        for f in (d / f"index.{name}", d / f"{name}.exc"):
            try:
                st = f.stat()
            except OSError:
                parts.append(f"{f.name}:-")
            else:
                parts.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    digest = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return root / f"{digest}.marshal"


def _read_cache(path: Path) -> tuple[dict, dict] | None:
    """The cached (index, exceptions), or None when absent or unreadable (then parsed again)."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(data, tuple) and len(data) == 3 and data[0] == CACHE_FORMAT):
        return None
    return data[1], data[2]


def _write_cache(path: Path, tables: tuple[dict, dict]) -> None:
    """Store the parsed tables (atomically; a cache that cannot be written is skipped)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(marshal.dumps((CACHE_FORMAT, *tables)))
        os.replace(tmp, path)
    except OSError:
        pass


_LOADED: dict[Path, WordNet] = {}


def load(path: str | None = None) -> WordNet:
    """The process-wide WordNet of ``path`` (loaded once)."""
    d = resolve_dir(path)
    wn = _LOADED.get(d)
    if wn is None:
        wn = _LOADED[d] = WordNet(str(d))
    return wn
