"""Each segment's best reference under METEOR 1.5: its 23 statistics and its score.

For every hypothesis and each of its references (tokens already normalised): the candidates and
the jar's alignment search (:mod:`.align`), the alignment's statistics and the score
(:mod:`.score`); the first reference with the highest score wins (``value > best``, as the jar).

:func:`best_rows_py` is the specification. :func:`best_rows` runs the compiled twin
(:mod:`._best_c`, same results bit for bit) when it is built: it takes the corpus as integer word
ids (:func:`word_table`: each distinct word's UTF-8 bytes, Snowball stem, synsets and
function-word flag, computed once per word) and the paraphrase index with a bucket directory and a
bloom filter (:func:`paraphrase_filter`), and does the candidates, search, statistics and scores
in C. A segment the twin cannot key (a reference of 65,533+ words) is left to the pure path.
"""
from __future__ import annotations

import os
from types import ModuleType
from typing import Any, NamedTuple, Sequence

import numpy as np

from assay.core import accel
from assay.metrics.meteor.meteor15 import align, score
from assay.resources.meteor15 import Resources
from assay.text.ngrams import encode

try:
    from assay.metrics.meteor.meteor15 import _best_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

Tokens = Sequence[str]
Params = tuple[float, float, float, float, tuple[float, ...]]     # α, β, γ, δ, the four module weights

#: the paraphrase index's bucket directory: entries whose source hash has top bits b are
#: ``src[dir[b]:dir[b + 1]]`` (2^20 buckets, 4 MiB); before it, a 1 MiB bloom filter of the sources
#: turns most absent phrases away
DIRECTORY_BITS = 20
_FILTERS: dict[int, tuple[Resources, tuple[np.ndarray, np.ndarray]]] = {}


def best_rows_py(hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources,
                 modules: Sequence[int], beam: int, params: Params) -> tuple[np.ndarray, np.ndarray]:
    """(statistics, score) of each segment's first best reference: an (S, 23) and an (S,) array."""
    rows: list[list[float]] = []
    values: list[float] = []
    for hyp, seg_refs in zip(hyps, refs):
        best: tuple[float, list[float]] | None = None
        for ref in seg_refs:
            chosen = align.resolve(align.candidates(hyp, ref, res, modules), len(hyp), len(ref), beam)
            st = align.alignment_stats(hyp, ref, chosen, res.function_words)
            value = score.parts(st, *params)["score"]
            if best is None or value > best[0]:
                best = (value, st)
        assert best is not None, "every segment has a reference"
        values.append(best[0])
        rows.append(best[1])
    return (np.array(rows, dtype=np.float64).reshape(len(rows), score.N_STATS),
            np.array(values, dtype=np.float64))


def is_compiled() -> bool:
    """Whether the twin aligns (part of :mod:`assay.core.corpus_cache`'s key, so the equality tests compare engines)."""
    return _compiled is not None


def best_rows(hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources,
              modules: Sequence[int], beam: int, params: Params) -> tuple[np.ndarray, np.ndarray]:
    """:func:`best_rows_py`, compiled when the twin is built: :func:`pick_best` of :func:`pair_rows`."""
    stats, units = pair_rows(hyps, refs, res, modules, beam)
    return pick_best(stats, units, params)


def pair_rows(hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources, modules: Sequence[int],
              beam: int) -> tuple[np.ndarray, np.ndarray]:
    """The 23 statistics of every hypothesis/reference pair (U×23; segment s's pairs are rows
    ``units[s]..units[s+1]−1``, its references in order) and ``units``. They do not depend on α, β,
    γ, δ or the module weights. Compiled when the twin is built; a segment the twin cannot key (a
    reference of 65,533+ words) is aligned by the pure path."""
    units = np.zeros(len(refs) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, refs), np.int64, len(refs)), out=units[1:])
    if _compiled is None:
        return _pair_rows_py(hyps, refs, res, modules, beam, units), units
    aligner, sides = prepare(_compiled, hyps, refs, res, modules, beam, _NO_PARAMS)
    return twin_pair_rows(aligner, sides, hyps, refs, res, modules, beam), units


def twin_pair_rows(aligner: Any, sides: tuple[np.ndarray, ...], hyps: Sequence[Tokens],
                   refs: Sequence[Sequence[Tokens]], res: Resources, modules: Sequence[int], beam: int) -> np.ndarray:
    """The twin's :func:`pair_rows` statistics (``aligner``, ``sides``: :func:`prepare`), with the
    segments it leaves (a pair too long for its rank keys, :func:`._best_c._key`) aligned by the
    pure path."""
    units = sides[-1]
    stats, left = aligner.unit_rows(*sides)
    for s in left:
        stats[units[s]:units[s + 1]] = _pair_rows_py([hyps[s]], [refs[s]], res, modules, beam, units[s:s + 2] - units[s])
    return stats


def _pair_rows_py(hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources, modules: Sequence[int],
                  beam: int, units: np.ndarray) -> np.ndarray:
    rows = [align.alignment_stats(hyp, ref, align.resolve(align.candidates(hyp, ref, res, modules), len(hyp),
                                                          len(ref), beam), res.function_words)
            for hyp, seg_refs in zip(hyps, refs) for ref in seg_refs]
    return np.array(rows, dtype=np.float64).reshape(int(units[-1]), score.N_STATS)


def pick_best(stats: np.ndarray, units: np.ndarray, params: Params) -> tuple[np.ndarray, np.ndarray]:
    """(statistics, score) of each segment's first best pair (``value > best``, as the jar) among
    :func:`pair_rows`, scored under ``params`` (the twin's arithmetic is :func:`score.parts`'s)."""
    alpha, beta, gamma, delta, weights = params
    if _compiled is not None:
        values = _compiled.unit_scores(np.ascontiguousarray(stats, dtype=np.float64), alpha, beta, gamma, delta,
                                       np.array(weights, dtype=np.float64))
        pick = _compiled.first_best(values, units)
    else:
        values = np.array([score.parts(row, *params)["score"] for row in stats.tolist()], dtype=np.float64)
        pick = np.empty(len(units) - 1, dtype=np.int64)
        for s, (lo, hi) in enumerate(zip(units[:-1].tolist(), units[1:].tolist())):
            b = lo
            for u in range(lo + 1, hi):
                if values[u] > values[b]:
                    b = u
            pick[s] = b
    if len(pick) == len(stats):      # one pair per segment: every pair is picked, no copy
        return stats.reshape(len(pick), score.N_STATS), values
    return stats[pick].reshape(len(pick), score.N_STATS), values[pick]


_NO_PARAMS: Params = (0.9, 3.0, 0.5, 0.75, (1.0, 0.6, 0.8, 0.6))   # the twin's scorer is not used by pair_rows


def complete(aligner: Any, sides: tuple[np.ndarray, ...], hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]],
             res: Resources, modules: Sequence[int], beam: int, params: Params) -> tuple[np.ndarray, np.ndarray]:
    """:func:`best_rows` through a given ``aligner`` (for the tests): :func:`pick_best` of
    :func:`twin_pair_rows`."""
    return pick_best(twin_pair_rows(aligner, sides, hyps, refs, res, modules, beam), sides[-1], params)


def prepare(twin: ModuleType, hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources,
            modules: Sequence[int], beam: int, params: Params) -> tuple[Any, tuple[np.ndarray, ...]]:
    """``twin.Aligner`` over the corpus's words, and its corpus arguments: hypothesis ids and
    offsets, reference ids and offsets (every segment's references in turn), each segment's first
    reference (an offset array)."""
    vocab: dict[str, int] = {}
    hyp_enc = encode(hyps, vocab)
    ref_enc = encode([r for seg in refs for r in seg], vocab)
    units = np.zeros(len(refs) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, refs), np.int64, len(refs)), out=units[1:])
    table = word_table(list(vocab), res, modules)
    src, dst, dst_len = res.paraphrases() if 3 in modules else (_EMPTY_U64, _EMPTY_U64, _EMPTY_U8)
    directory, bloom = paraphrase_filter(twin, res) if 3 in modules else (np.zeros(2, dtype=np.int32), _EMPTY_U64)
    alpha, beta, gamma, delta, weights = params
    aligner = twin.Aligner(*table, src, dst, dst_len, directory, bloom, 64 - DIRECTORY_BITS if 3 in modules else 63,
                           np.array(modules, dtype=np.int64), beam, alpha, beta, gamma, delta,
                           np.array(weights, dtype=np.float64))
    return aligner, (hyp_enc.ids, hyp_enc.offsets, ref_enc.ids, ref_enc.offsets, units)


_EMPTY_U64 = np.zeros(0, dtype=np.uint64)
_EMPTY_U8 = np.zeros(0, dtype=np.uint8)


class WordTable(NamedTuple):
    """Per distinct word (by id): UTF-8 bytes (``blob[off[w]:off[w + 1]]``), stem id, synset ids
    (``syn[syn_off[w]:syn_off[w + 1]]``, ascending) and whether it is a function word."""
    blob: bytes
    off: np.ndarray
    stem: np.ndarray
    syn_off: np.ndarray
    syn: np.ndarray
    function: np.ndarray


_STEM_IDS: dict[str, int] = {}             # word -> id of its Snowball stem (ids from _STEM_KEYS)
_STEM_KEYS: dict[str, int] = {}            # stem -> id
_SYNSET_IDS: dict[int, tuple[Resources, dict[str, tuple[int, ...]], dict[str, int]]] = {}


def _stem_id(word: str) -> int:
    got = _STEM_IDS.get(word)
    if got is None:
        got = _STEM_IDS[word] = _STEM_KEYS.setdefault(align.stem_of(word), len(_STEM_KEYS))
    return got


def word_table(words: list[str], res: Resources, modules: Sequence[int]) -> WordTable:
    """The :class:`WordTable` of ``words`` (stems only with the stem module, synsets only with the
    synonym module; ids of stems and synsets are cached per process)."""
    encoded = [w.encode("utf-8") for w in words]
    off = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), np.int64, len(encoded)), out=off[1:])
    stem = np.zeros(len(words), dtype=np.int64)
    if 1 in modules:
        get = _STEM_IDS.get
        stem[:] = [get(w) or _stem_id(w) for w in words]
    syn_off = np.zeros(len(words) + 1, dtype=np.int64)
    syn: list[int] = []
    if 2 in modules:
        _, by_word, ids = _SYNSET_IDS.setdefault(id(res), (res, {}, {}))
        counts = np.zeros(len(words), dtype=np.int64)
        for k, w in enumerate(words):
            got = by_word.get(w)
            if got is None:
                got = by_word[w] = tuple(sorted(ids.setdefault(s, len(ids)) for s in align.synsets_of(w, res)))
            if got:
                syn += got
                counts[k] = len(got)
        np.cumsum(counts, out=syn_off[1:])
    function = np.fromiter(map(res.function_words.__contains__, words), np.uint8, len(words))
    return WordTable(b"".join(encoded), off, stem, syn_off, np.array(syn, dtype=np.int64), function)


def paraphrase_filter(twin: ModuleType, res: Resources) -> tuple[np.ndarray, np.ndarray]:
    """The paraphrase index's bucket directory (:data:`DIRECTORY_BITS`) and bloom filter, built by
    the twin in one pass over the index; kept beside the index between runs
    (:meth:`Resources.derived`, keyed by the index's digest, the directory's bits and the twin's
    file size and modification time, since the filter's layout is the twin's), so a run reads only
    the buckets it looks up instead of the whole index."""
    got = _FILTERS.get(id(res))
    if got is None:
        try:
            st = os.stat(getattr(twin, "__file__", None) or "")
        except OSError:                    # a twin without a file: built, not kept
            directory, bloom = twin.index_filter(res.paraphrases()[0], DIRECTORY_BITS)
        else:
            name = f"filter.{twin.__name__.rsplit('.', 1)[-1]}.{DIRECTORY_BITS}.{st.st_size}.{st.st_mtime_ns}"
            directory, bloom = res.derived(name, lambda index: twin.index_filter(index[0], DIRECTORY_BITS))
        got = _FILTERS[id(res)] = (res, (directory, bloom))
    return got[1]


def alignments(twin: ModuleType, hyps: Sequence[Tokens], refs: Sequence[Sequence[Tokens]], res: Resources,
               modules: Sequence[int], beam: int, params: Params) -> list[tuple[list[align.Match], list[float], float]]:
    """The twin's (matches, statistics, score) of every hypothesis/reference pair, segment by segment
    (matches in the order :func:`align.resolve` returns them; for the equality tests)."""
    aligner, sides = prepare(twin, hyps, refs, res, modules, beam, params)
    return [([align.Match(*m) for m in ms], st, v) for ms, st, v in aligner.units(*sides)]
