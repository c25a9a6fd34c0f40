"""TER, Translation Edit Rate (Snover et al. 2006), as sacrebleu 2.x and 1.5.1 compute it (tercom-style).

Hypotheses are tokenised once, references twice in sacrebleu 2.x (``retokenize_refs``; only
``normalized`` output changes on a second pass). Per segment: ``num_edits`` = the fewest edits
(insertions, deletions, substitutions and block shifts, each costing 1; see :mod:`.shifts`, or
:mod:`.spans` under ``shift_search=maximal-spans``) over
the references (a pair beyond assay's work bound, :mod:`.limits`, is an ``InputError`` naming
the segment), ``ref_length`` = the **average** reference length in tokens. Corpus TER =
Σ num_edits / Σ ref_length (:mod:`.score`), so the two summed columns are sufficient statistics.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.metrics.ter.knobs import KNOBS
from assay.metrics.ter.score import COLUMNS, float32_python_float_mask, scores_from_sums
from assay.metrics.ter.limits import Limits
from assay.metrics.ter.shifts import ter_edits
from assay.metrics.ter.spans import span_edits
from assay.tokenizers.ter import TokenizerTercom


def edit_search(config: Config) -> Callable[[Sequence[str], Sequence[str], str], int]:
    """``(hyp, ref, where) -> edits`` of the configured shift search (``shift_search``)."""
    if config.shift_search == "maximal-spans":
        return span_edits
    limits = Limits(config.max_shift_size, config.max_shift_dist, config.beam_width, config.max_candidates)
    return partial(_tercom, limits=limits)


def _tercom(hyp: Sequence[str], ref: Sequence[str], where: str, limits: Limits) -> int:
    return ter_edits(hyp, ref, limits, where)


def tokenizer_of(config: Config) -> TokenizerTercom:
    return TokenizerTercom(config.normalized, config.no_punct, config.asian_support, config.case_sensitive)


class Ter(MetricFamily):
    name = "ter"
    knobset = KNOBS

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        tok = tokenizer_of(config)
        for i, seg in enumerate(hyps):
            if not isinstance(seg, str):
                raise InputError(f"segment {i + 1}: TER takes strings (tercom tokenises them), got "
                                 f"{type(seg).__name__}")
        hyp_toks = tok.tokenize_lines(list(hyps))
        ref_toks: list[list[list[str] | None]] = []
        for k, stream in enumerate(refs):
            present = [i for i, r in enumerate(stream) if r is not None]
            for i in present:
                if not isinstance(stream[i], str):
                    raise InputError(f"reference stream {k + 1}, segment {i + 1}: expected a string, got "
                                     f"{type(stream[i]).__name__}")
            texts = [stream[i] for i in present]
            if config.retokenize_refs:
                texts = [tok.tokenize(t) for t in texts]
            toks = tok.tokenize_lines(texts)
            full: list[list[str] | None] = [None] * len(stream)
            for i, t in zip(present, toks):
                full[i] = t
            ref_toks.append(full)
        search = edit_search(config)
        memo: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}
        rows = np.zeros((len(hyp_toks), 2), dtype=np.float64)
        for i, hyp in enumerate(hyp_toks):
            h = tuple(hyp)
            seg_refs = [s[i] for s in ref_toks if s[i] is not None]
            if not seg_refs:
                raise InputError(f"segment {i + 1} has no reference (TER needs at least one)")
            best = None
            for k, ref in enumerate(seg_refs):
                key = (h, tuple(ref))
                edits = memo.get(key)
                if edits is None:
                    where = f"segment {i + 1}" + (f", reference {k + 1}" if len(seg_refs) > 1 else "")
                    if config.shift_side == "reference":    # torchmetrics: the reference's words are shifted
                        edits = memo[key] = search(key[1], h, where) if h else 0
                    else:
                        edits = memo[key] = search(h, key[1], where)
                if best is None or edits < best:
                    best = edits
            rows[i, 0] = best
            rows[i, 1] = sum(len(r) for r in seg_refs) / len(seg_refs)
        return SegmentStats(COLUMNS, rows)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        _check_corpus(config)
        total = np.asarray(stats.total(), dtype=np.float64)     # corpus scores: float64 arithmetic
        value = float(scores_from_sums(total[None, :], config)[0])
        return value, _components(total[None, :], 0)

    def sums_suffice(self, config: Config) -> bool:
        """:meth:`score_stats` reads the column sums only (Σ num_edits / Σ ref_length)."""
        return True

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        rows = np.asarray(stats.rows, dtype=np.float64)
        return RowScores(scores_from_sums(rows, config), partial(_components, rows))

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """TER of summed rows (:func:`.score.scores_from_sums`: float64, or sacrebleu's float32
        arithmetic for float32 sums under ``resample_arithmetic=float32``); corpus scores of resamples,
        refused under ``corpus_score=none``."""
        _check_corpus(config)
        return scores_from_sums(sums, config)

    def float32_python_float_mask(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Which of :meth:`scores_from_sums` are Python floats in the tool (:func:`.score.float32_python_float_mask`)."""
        return float32_python_float_mask(sums, config)


def _check_corpus(config: Config) -> None:
    """``corpus_score=none``: the reproduced tool has no corpus score (pyter3), so assay gives none."""
    if config.corpus_score == "none":
        raise KnobError("this TER configuration scores sentences only (corpus_score=none: pyter3 has no corpus "
                        "TER): score sentences (--sentence), or --set corpus_score=sums for sum of edits / sum of "
                        "reference lengths")


def _components(rows: np.ndarray, i: int) -> dict[str, Any]:
    return {"num_edits": _int_if_whole(float(rows[i, 0])), "ref_length": float(rows[i, 1])}


def _int_if_whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


FAMILY = Ter()
