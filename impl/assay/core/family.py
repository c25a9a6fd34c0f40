"""The shape every metric family has: knobs, per-segment statistics, score from statistics.

Like sacrebleu's Metric and torchmetrics' update/compute split: ``segment_stats`` is the only
place text is read; ``score_stats`` works on rows alone, so corpus scores, sentence scores,
resampling and chunked scoring share one code path.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Sequence

import numpy as np

from assay.core.errors import KnobError
from assay.core.knobs import Config, KnobSet
from assay.core.metric_names import METRIC_NAMES
from assay.core.score import RowScores
from assay.core.stats import SegmentStats


Refs = Sequence[Sequence["str | None"]]          # reference streams, each aligned with hyps
Segments = Sequence["str | Sequence[str]"]       # raw strings or pre-tokenised token lists


class MetricFamily(ABC):
    """One metric family (BLEU, NIST, ...): its knobs and its two computation stages."""

    name: str
    knobset: KnobSet
    #: True when a segment's row depends on the other segments (a first pass over the corpus: NIST's
    #: information weights, CIDEr's document frequencies). Such a family implements the first pass as
    #: :meth:`context_part` per chunk, :meth:`merge_contexts` (associative: chunks and shards merge in
    #: any grouping) and :meth:`finish_context`; ``segment_stats(hyps, refs, config, context)`` then
    #: makes rows of any chunk under the whole corpus's context. Until it does, a corpus_pass family is
    #: scored whole (engine/stream.py).
    corpus_pass: bool = False

    def derive(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Fill knobs implied by others the user set (e.g. BLEU's order from NLTK weights)."""
        return settings

    @abstractmethod
    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        """One row of sufficient statistics per segment."""

    @abstractmethod
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        """The corpus score (tool scale) and its components from the rows."""

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Each row scored alone: its value and its components, built on demand
        (:class:`~assay.core.score.RowScores`). Families override with a vectorised version, which must
        read each row alone (with the shared context): the engine scores a large corpus's rows in
        blocks (assay.engine.api.sentence_row_scores)."""
        return RowScores.of_pairs([self.score_stats(stats.row(i), config) for i in range(len(stats))])

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Vectorised corpus scores for many resampled corpora (significance testing).

        ``sums[k]`` is the column-wise sum of the segment rows of resample ``k`` (shape
        ``(n_resamples, n_columns)``); the result holds one corpus score per resample, on the
        tool's scale, equal to ``score_stats`` on those rows. Families whose corpus score is not a
        function of summed rows under ``config`` raise :class:`KnobError`.
        """
        raise KnobError(f"{self.name}: corpus score is not a function of summed statistics")

    def sums_suffice(self, config: Config) -> bool:
        """True when :meth:`score_stats` under ``config`` reads the rows only through their column sums
        (then a sharded corpus is reduced by summing rows, else by stacking them in order). Default
        False: always correct, never the cheaper reduction."""
        return False

    def has_corpus_pass_protocol(self) -> bool:
        """True when this family implements :meth:`context_part`, :meth:`merge_contexts` and
        :meth:`finish_context` (a corpus-pass family that can be scored in chunks or shards)."""
        cls = type(self)
        return all(getattr(cls, m) is not getattr(MetricFamily, m)
                   for m in ("context_part", "merge_contexts", "finish_context"))

    def chunks_exactly(self, config: Config) -> bool:
        """False when a segment's tokens under ``config`` depend on the lines around it, so a chunk
        boundary would change them (CIDEr under ``tokenize=ptb``: the PTB jar reads a batch as one
        text). Such a configuration is scored whole, or with lookahead (:meth:`chunks_with_lookahead`)."""
        return True

    def chunks_with_lookahead(self, config: Config) -> bool:
        """True when a configuration that does not chunk exactly (:meth:`chunks_exactly` False) does
        once each chunk comes with the segment after it: a segment's tokens depend on the next
        segment's text and on nothing further (the PTB jar reads one line ahead, and its batch is the
        corpus in order). The engine then calls :meth:`context_part` and ``segment_stats`` with
        ``ahead=True`` on a chunk with the next segment appended (nothing is appended to the corpus's
        last chunk, which is called with ``ahead=False``): that segment is context only, its row and
        its first-pass counts left out. A chunk whose text makes one segment of lookahead too little
        raises :class:`~assay.core.errors.UnchunkableInput` (the engine then scores the corpus whole);
        :meth:`context_part` raises it, so the first pass finds it before any row is made."""
        return False

    def context_part(self, hyps: Segments, refs: Refs, config: Config, ahead: bool = False) -> Any:
        """The first pass over one chunk of the corpus (compact counts keyed by integer ids); ``ahead``:
        its last segment is the next chunk's first, context only (:meth:`chunks_with_lookahead`)."""
        raise NotImplementedError(f"{self.name} has no corpus pass")

    def merge_contexts(self, parts: Sequence[Any], config: Config) -> Any:
        """Merge first-pass parts of consecutive chunks (associative; order kept). The parts are left as
        they are (Dask's merge tasks never change their inputs)."""
        raise NotImplementedError(f"{self.name} has no corpus pass")

    def fold_context(self, merged: Any, part: Any, config: Config) -> Any:
        """``merge_contexts([merged, part])`` (``merged`` None: ``part``) for a caller that owns ``merged``,
        a value this method returned, and hands it in no more: a family may add ``part`` into it in
        place (the engine's fold over the chunks of one process, :func:`~assay.engine.chunks.merged_context`)."""
        return part if merged is None else self.merge_contexts([merged, part], config)

    def finish_context(self, merged: Any, config: Config) -> Any:
        """The context ``segment_stats`` takes, from the merged first pass of the whole corpus."""
        raise NotImplementedError(f"{self.name} has no corpus pass")

    def float32_python_float_mask(self, sums: np.ndarray, config: Config) -> np.ndarray | None:
        """Which of :meth:`scores_from_sums` the reproduced tool returns as Python floats rather than
        float32 (sacrebleu's ``--confidence`` mean cannot mix them); None: no such distinction."""
        return None
