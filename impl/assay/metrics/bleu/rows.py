"""BLEU's statistics stage: text -> one row per segment.

Row: ``hyp_len, ref_len, correct_1..N, total_1..N, correct_next, total_next`` with

- ``correct_n = sum_g min(count_hyp(g), max_r count_r(g))`` (clipped matches),
- ``total_n = max(hyp_len - n + 1, per_segment_min_total)`` (NLTK floors it at 1 per segment),
- ``ref_len`` the reference length chosen by ``ref_length`` (closest, ties to the shorter;
  shortest; average),
- ``correct_next``/``total_next``: the same two counts for **5-grams**, whatever N is.

The last pair is what NLTK's smoothing methods 5 and 7 read: they append the *last segment's*
5-gram precision to the N precisions (shared/research/bleu_nist.md §2.2). Every row carries it, so
the rows depend on text- and statistics-stage knobs only, and configurations that differ in
smoothing share one computation (:class:`assay.engine.evaluate.Evaluator`). Measured on
``fixtures/report_sample`` ×10 (3000 segments, 2 references): counting orders 1-5 instead of 1-4
costs about 5% of a statistics pass (2 ms of 45 ms); reading the smoothing method here instead
cost a whole pass per method (9 configurations of sacrebleu and NLTK smoothing: 9 passes, now 2).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from assay.core.errors import ToolBehaviourError
from assay.core.items import only_strings, presence
from assay.core.family import Refs, Segments
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.text.ngrams import Encoded, clipped_matches, encode, token_matches
from assay.text.segments import tokenize_refs, tokenize_segments
from assay.tokenizers import get_tokenizer
from assay.tokenizers.base import IdEncoder

NEXT_ORDER = 5   # NLTK method5 appends the last segment's 5-gram precision for every N


def columns(max_ngram_order: int) -> tuple[str, ...]:
    """The column names of a row for N = ``max_ngram_order``."""
    n = max_ngram_order
    return tuple(["hyp_len", "ref_len"] + [f"correct{i}" for i in range(1, n + 1)]
                 + [f"total{i}" for i in range(1, n + 1)] + ["correct_next", "total_next"])


def segment_rows(hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
    """The rows of every segment (reads text- and statistics-stage knobs only)."""
    if config.empty_refs != "keep":
        refs = drop_empty_refs(refs, keep_first=config.empty_refs == "drop-after-first")
    if config.segment_without_refs == "error":
        for i in range(len(hyps)):
            if all(s[i] is None for s in refs):
                raise ToolBehaviourError(f"segment {i + 1} has no valid reference (sacrebleu 1.x: "
                                         "'No valid references for a sentence!')", "EOFError")
    n_main = config.max_ngram_order
    order = max(n_main, NEXT_ORDER)
    if config.ngram_counts == "set":
        hyp_len, ref_lens, present, correct, distinct = _set_matches(hyps, refs, config, order)
        total = np.maximum(distinct, config.per_segment_min_total)
    else:
        hyp_len, ref_lens, present, correct = _lengths_and_matches(hyps, refs, config, order)
        total = np.maximum(hyp_len[:, None] - np.arange(order)[None, :], config.per_segment_min_total)
    ref_len = choose_ref_length(hyp_len, ref_lens, present, config.ref_length)
    nxt = slice(NEXT_ORDER - 1, NEXT_ORDER)
    parts = [hyp_len[:, None], ref_len[:, None], correct[:, :n_main], total[:, :n_main], correct[:, nxt],
             total[:, nxt]]
    return SegmentStats(columns(n_main), np.hstack(parts))


def _lengths_and_matches(hyps: Segments, refs: Refs, config: Config, order: int
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Hypothesis lengths (n_segments,), reference lengths (n_refs, n_segments; 0 where missing),
    which references are present and the clipped matches of orders 1..``order`` (n_segments, order).

    Strings under a tokenizer with an id encoder go through :func:`encode_sides`; everything else
    is tokenised (token lists are read as given) and matched by :func:`assay.text.ngrams.token_matches`.
    """
    n_seg = len(hyps)
    present = presence(refs, n_seg)
    direct = _id_encoder(hyps, refs, config)
    if direct is not None:
        sides = _direct_sides(direct, hyps, refs, present)
        lengths = [s.lengths.astype(np.float64) for s in sides]
        ref_lens = np.vstack(lengths[1:]) if len(lengths) > 1 else np.zeros((0, n_seg))
        return lengths[0], ref_lens, present, clipped_matches(sides, order)
    hyp_toks = tokenize_segments(hyps, config)
    ref_toks = tokenize_refs(refs, config)
    hyp_len = np.fromiter(map(len, hyp_toks), dtype=np.float64, count=n_seg)
    ref_lens = np.zeros((len(refs), n_seg))
    for k, (stream, here) in enumerate(zip(ref_toks, present)):
        ref_lens[k] = np.fromiter(map(len, stream if here.all() else [t or () for t in stream]),
                                  dtype=np.float64, count=n_seg)
    return hyp_len, ref_lens, present, token_matches(hyp_toks, ref_toks, order)


def _set_matches(hyps: Segments, refs: Refs, config: Config, order: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``ngram_counts=set``: as :func:`_lengths_and_matches`, with matches counted on distinct
    n-grams (``|set(hyp) & union_r set(ref_r)|``), and the number of distinct hypothesis n-grams
    per order (the totals). Pure Python on the tokens: no compiled twin counts sets."""
    n_seg = len(hyps)
    present = presence(refs, n_seg)
    hyp_toks = tokenize_segments(hyps, config)
    ref_toks = tokenize_refs(refs, config)
    hyp_len = np.fromiter(map(len, hyp_toks), dtype=np.float64, count=n_seg)
    ref_lens = np.zeros((len(refs), n_seg))
    correct = np.zeros((n_seg, order))
    distinct = np.zeros((n_seg, order))
    for i, h in enumerate(hyp_toks):
        seg_refs = [stream[i] for k, stream in enumerate(ref_toks) if present[k, i]]
        for k, stream in enumerate(ref_toks):
            ref_lens[k, i] = len(stream[i] or ())
        for n in range(1, order + 1):
            grams = {tuple(h[j:j + n]) for j in range(len(h) - n + 1)}
            known = set().union(*({tuple(r[j:j + n]) for j in range(len(r) - n + 1)} for r in seg_refs))
            correct[i, n - 1] = len(grams & known)
            distinct[i, n - 1] = len(grams)
    return hyp_len, ref_lens, present, correct, distinct


def encode_sides(hyps: Segments, refs: Refs, config: Config) -> tuple[list[Encoded], np.ndarray]:
    """The hypotheses and every reference stream as token ids of one vocabulary (a missing
    reference is an empty segment), and which references are present ((n_refs, n_segments) bool).

    Strings under a tokenizer with an id encoder (:meth:`assay.tokenizers.base.Tokenizer.id_encoder`:
    13a, compiled) go straight from text to ids; everything else is tokenised
    (:func:`assay.text.segments.tokenize_segments`; token lists are read as given) and then interned
    (:func:`assay.text.ngrams.encode`). Both give the same arrays (tests/accel).
    """
    present = presence(refs, len(hyps))
    direct = _id_encoder(hyps, refs, config)
    if direct is not None:
        return _direct_sides(direct, hyps, refs, present), present
    hyp_toks = tokenize_segments(hyps, config)
    ref_toks = tokenize_refs(refs, config)
    vocab: dict[str, int] = {}
    return ([encode(hyp_toks, vocab)]
            + [encode(s if here.all() else [t or [] for t in s], vocab) for s, here in zip(ref_toks, present)],
            present)


def _direct_sides(direct: IdEncoder, hyps: Segments, refs: Refs, present: np.ndarray) -> list[Encoded]:
    """The sides of :func:`encode_sides` from an id encoder (a missing reference: no tokens)."""
    sides = [_encoded(*direct(hyps))]
    for stream, here in zip(refs, present):
        complete = bool(here.all())
        ids, lengths = direct(stream if complete else [r for r in stream if r is not None])
        if not complete:
            full = np.zeros(len(stream), dtype=np.int64)
            full[here] = lengths
            lengths = full
        sides.append(_encoded(ids, lengths))
    return sides


def _id_encoder(hyps: Segments, refs: Refs, config: Config) -> IdEncoder | None:
    """The tokenizer's id encoder when every segment is a string and no token-level lowercasing
    is asked for (``lowercase_refs_after_tokenizing``); else None."""
    mode = config["lowercase_mode"] if config["lowercase"] else None
    if mode is not None and config.get("lowercase_refs_after_tokenizing", False):
        return None
    if not hyps or not only_strings(hyps) or not all(only_strings(s, none_ok=True) for s in refs):
        return None
    return get_tokenizer(config.tokenize).id_encoder(mode)


def _encoded(ids: np.ndarray, lengths: np.ndarray) -> Encoded:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Encoded(ids, offsets)


def drop_empty_refs(refs: Refs, keep_first: bool = False) -> Refs:
    """Empty references (nothing but whitespace, or no tokens) become missing (None).

    ``keep_first`` (``empty_refs=drop-after-first``): the first stream is left as it is, so an empty
    reference there stays a 0-length reference. This is what e2e-metrics' mteval-v13a-sig.pl does
    (black-box, from its ``-f`` log's per-segment reference lengths): an empty first slot still
    competes for the closest reference length (length 0, ties to the shorter), an empty later slot
    does not. It has no n-grams, so the matches are those of the non-empty references either way.
    """
    return [stream if (keep_first and k == 0) else
            [None if (r is not None and not _has_content(r)) else r for r in stream]
            for k, stream in enumerate(refs)]


def _has_content(ref: Any) -> bool:
    return bool(ref) if isinstance(ref, (list, tuple)) else bool(str(ref).strip())


def choose_ref_length(hyp_len: np.ndarray, ref_lens: np.ndarray, present: np.ndarray, rule: str) -> np.ndarray:
    """Per segment: the closest reference length (ties -> shorter; ``closest-first``: ties -> the first
    listed, as torchmetrics' ``list.index(min(...))``), the shortest, or the average.

    ``ref_lens`` and ``present`` are (n_refs, n_segments); missing references are ignored;
    a segment without any reference gets 0.
    """
    if ref_lens.size == 0:
        return np.zeros_like(hyp_len)
    any_present = present.any(axis=0)
    if rule == "average":
        count = present.sum(axis=0)
        sums = np.where(present, ref_lens, 0).sum(axis=0)
        return np.where(any_present, sums / np.maximum(count, 1), 0.0)
    if rule == "shortest":
        return np.where(any_present, np.where(present, ref_lens, np.inf).min(axis=0), 0.0)
    # closest: minimise (|r - c|, r) lexicographically; closest-first: |r - c|, the first listed on a tie
    diff = np.abs(ref_lens - hyp_len[None, :])
    tie = ref_lens if rule == "closest" else np.zeros_like(ref_lens)
    key = np.where(present, diff * (ref_lens.max() + 1.0) * 2 + tie, np.inf)
    best = np.argmin(key, axis=0)
    chosen = ref_lens[best, np.arange(ref_lens.shape[1])]
    return np.where(any_present, chosen, 0.0)
