"""METEOR 1.5 (the CMU jar as pycocoevalcap runs it) as rows of sufficient statistics, and their score.

Per segment: the hypothesis (``|||`` removed, as pycocoevalcap does) and every reference (a
reference containing ``|||`` is several references on the jar's stdio line, research M10) are
normalised (``-norm``, :mod:`.normalize`) when ``norm`` is on (else lowercased and split on
whitespace), aligned (:mod:`.align`) and scored (:mod:`.score`); the statistics of the best-scoring
reference are kept (first on ties; :mod:`.best`, compiled when built). Row columns: the jar's 23
statistics, ``chunks_eval`` (chunks, 0 for a perfect one-chunk segment: what the jar's corpus EVAL
sums) and ``score``.

Scoring (:func:`scores_from_sums`) is the jar's EVAL: the formula of :mod:`.score` on summed rows
with ``chunks_eval`` in place of ``chunks``. A segment is its own sum, and its EVAL equals its
SCORE (a perfect segment has fragmentation 0 either way), so corpus, sentence and resampled scores
all go through it.
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from assay.core.errors import InputError
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.core import corpus_cache
from assay.metrics.meteor.knobs import module_weights
from assay.metrics.meteor.meteor15 import align, best, normalize, score
from assay.resources import meteor15 as resources

STAT_NAMES = ("test_len", "ref_len", "test_function", "ref_function",
              *(f"{m}_{k}" for m in align.MODULES for k in ("test_content", "ref_content", "test_function",
                                                             "ref_function")),
              "chunks", "test_matched", "ref_matched")
COLUMNS = (*STAT_NAMES, "chunks_eval", "score")
CHUNKS, CHUNKS_EVAL = STAT_NAMES.index("chunks"), COLUMNS.index("chunks_eval")


def modules_of(config: Config) -> tuple[int, ...]:
    """Indices (into :data:`align.MODULES`) of the ``modules`` knob, in its order (checked by its domain)."""
    return tuple(align.MODULES.index(n) for n in config.modules.split())


def params(config: Config) -> tuple[float, float, float, float, tuple[float, ...]]:
    """α, β, γ, δ and the weight of each of the four modules."""
    return config.alpha, config.beta, config.gamma, config.delta, module_weights(config.modules, config.weights)


def _text(seg: Any, where: str) -> str:
    if isinstance(seg, str):
        return seg
    if isinstance(seg, (list, tuple)) and all(isinstance(t, str) for t in seg):
        return " ".join(seg)
    raise InputError(f"{where}: expected a string or a list of string tokens, got {type(seg).__name__}")


def segment_stats(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], config: Config) -> SegmentStats:
    """One row per segment: the statistics of its best-scoring reference (first on ties), with the
    collector paused (:func:`assay.core.gcpause.collector_paused`: the token lists are acyclic)."""
    with collector_paused():
        return _rows(hyps, refs, config)


def _rows(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], config: Config) -> SegmentStats:
    res = resources.load(config.resources_path or None, config.language)
    mods = modules_of(config)
    alpha, beta, gamma, delta, weights = params(config)
    key = ("meteor-1.5", best.is_compiled(), id(res), config.norm, mods, config.beam)
    cached = corpus_cache.get(key, hyps, refs)
    if cached is None:
        pairs, units = _pairs(hyps, refs, config, res, mods)
        pairs.setflags(write=False)
        units.setflags(write=False)
        corpus_cache.put(key, hyps, refs, (pairs, units, res))
    else:
        pairs, units, _ = cached
    st, values = best.pick_best(pairs, units, (alpha, beta, gamma, delta, weights))
    perfect = (st[:, 21] == st[:, 0]) & (st[:, 22] == st[:, 1]) & (st[:, 20] == 1)
    chunks_eval = np.where(perfect, 0.0, st[:, 20])
    return SegmentStats(COLUMNS, np.column_stack([st, chunks_eval, values]).reshape(len(values), len(COLUMNS)))


def _pairs(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], config: Config, res: resources.Resources,
           mods: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The statistics of every hypothesis/reference pair and each segment's first pair
    (:func:`best.pair_rows`): they depend on the text and the matching knobs only, and are kept in
    :mod:`assay.core.corpus_cache`, so a configuration differing in α, β, γ, δ or the weights alone re-scores
    the pairs instead of aligning them again."""
    if config.norm:
        def tok(s: str) -> list[str]:
            return normalize.tokenize(s, res.prefixes)
    else:
        def tok(s: str) -> list[str]:
            return s.lower().split()
    hyp_tokens: list[list[str]] = []
    ref_tokens: list[list[list[str]]] = []
    for i, seg in enumerate(hyps):
        hyp_tokens.append(tok(_text(seg, f"segment {i + 1}").replace("|||", "")))
        seg_refs = [tok(part) for k, s in enumerate(refs) if s[i] is not None
                    for part in _text(s[i], f"reference stream {k + 1}, segment {i + 1}").split("|||")]
        if not seg_refs:
            raise InputError(f"segment {i + 1} has no reference (METEOR needs at least one)")
        ref_tokens.append(seg_refs)
    return best.pair_rows(hyp_tokens, ref_tokens, res, mods, config.beam)


def scores_from_sums(sums: np.ndarray, config: Config) -> np.ndarray:
    """The jar's EVAL of each summed row (one segment's row included): :func:`score.parts` of the 23
    statistics with ``chunks_eval`` as the chunks."""
    alpha, beta, gamma, delta, weights = params(config)
    sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
    out = np.empty(len(sums))
    for k, row in enumerate(sums):
        r = row.copy()
        r[CHUNKS] = r[CHUNKS_EVAL]
        out[k] = score.parts(r[:score.N_STATS], alpha, beta, gamma, delta, weights)["score"]
    return out


def components(row: Sequence[float], config: Config, segments: int | None = None) -> dict[str, Any]:
    """P, R, Fmean, fragmentation, penalty, chunks, lengths and per-module matches of one row (a
    segment's, or the corpus sum with ``chunks_eval`` as chunks)."""
    alpha, beta, gamma, delta, weights = params(config)
    row = [float(x) for x in row]
    p = score.parts(row[:score.N_STATS], alpha, beta, gamma, delta, weights)
    out: dict[str, Any] = {"precision": p["precision"], "recall": p["recall"], "fmean": p["fmean"],
                           "fragmentation": p["fragmentation"], "penalty": p["penalty"],
                           "chunks": int(row[20]), "test_len": int(row[0]), "ref_len": int(row[1]),
                           "test_matched": int(row[21]), "ref_matched": int(row[22])}
    for k, name in enumerate(align.MODULES):
        b = 4 + 4 * k
        out[f"matches_{name}"] = [int(row[b] + row[b + 2]), int(row[b + 1] + row[b + 3])]
    if segments is not None:
        out["segments"] = segments
    return out


def corpus_row(rows: np.ndarray) -> np.ndarray:
    """Summed statistics with the jar's EVAL chunks (``chunks_eval`` in place of ``chunks``)."""
    total = np.asarray(rows, dtype=np.float64).sum(axis=0)
    total[CHUNKS] = total[CHUNKS_EVAL]
    return total
