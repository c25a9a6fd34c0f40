"""``coco``: every COCO caption metric in one call, as pycocoevalcap 1.2's COCOEvalCap reports them.

A composite of the other families, so it lives in the engine (above profiles and every family).
COCOEvalCap tokenises references and results with its PTBTokenizer (``tokenize=ptb``), then runs
``Bleu(4)``, ``Meteor``, ``Rouge`` and ``Cider`` on the tokenised strings. Here:

- ``Bleu_1..Bleu_4``: the ``bleu/coco`` profile (BleuScorer's epsilons, ``closest`` reference
  length; ``bleu_ref_length`` knob), corpus-level counts;
- ``ROUGE_L``: the ``rouge/coco`` profile (per image, the LCS of the hypothesis with each
  reference on ``split(" ")`` tokens, **max P and max R taken independently** over references,
  F_beta with beta = 1.2, mean over images; ``rouge_beta`` sets the rouge family's ``beta``);
- ``CIDEr``: the ``cider/coco`` profile (CIDEr-D, idf over the evaluated references);
- ``METEOR``: the ``meteor/meteor-1.5`` profile (the jar's call) when the ``meteor`` knob is
  ``auto`` and its resources (the installed pycocoevalcap's jar data) are found; otherwise it is
  *omitted* with the reason (see ``components["omitted"]``), never estimated. Its statistics rows
  are columns of the composite's rows, which give the corpus and per-image values.

The score's value is CIDEr; all numbers are in ``components`` under pycocoevalcap's names. Rows
hold the BLEU counts, the per-image ROUGE-L P/R/F, the per-image CIDEr and METEOR's statistics of each
image, with the CIDEr document frequencies as context, so per-image (sentence) scores come from the
same pass, and chunks, shards and subsets of rows score like the whole corpus.
JSON input (COCO annotations + results) is read by :mod:`assay.core.coco_json`; the command is
:mod:`assay.cli.coco`.
"""
from __future__ import annotations

from functools import partial
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.domains import choice, real
from assay.core.errors import InputError, KnobError, MissingDependencyError
from assay.core.items import only_strings
from assay.core.family import MetricFamily, Refs, Segments
from assay.core.knobs import Config, Knob, KnobSet
from assay.core.score import RowScores
from assay.core.stats import SegmentStats
from assay.engine.api import make_config
from assay.engine.chunks import rows_of_lists
from assay.metrics.bleu.family import FAMILY as BLEU
from assay.metrics.cider.family import FAMILY as CIDER
from assay.metrics.cider.knobs import KNOBS as CIDER_KNOBS, TOKENIZE_CHOICES
from assay.metrics.cider.rows import image_spans, reference_spans
from assay.metrics.cider.tokens import (PTB, caption_side, caption_tokens, check_chunkable, group_refs, narrow,
                                        ptb_batch, split_next)
from assay.metrics.meteor.family import FAMILY as METEOR
from assay.metrics.rouge.family import FAMILY as ROUGE
from assay.profiles.registry import get_profile
from assay.text.ngrams import Encoded
from assay.tokenizers import lowercase_text
from assay.tokenizers.ptb import has_line_breaks

BETA = 1.2
METEOR_OMITTED = ("assay has no METEOR 1.5 profile here (pycocoevalcap runs the METEOR 1.5 jar); no number is "
                  "estimated in its place")
BLEU_REF_LENGTHS = ("closest", "shortest", "average")

KNOBS = KnobSet(
    knobs=(
        Knob("tokenize", PTB, "ptb = COCOEvalCap's PTBTokenizer on every caption; none = captions are "
             "already tokenised (the scorers' str.split() / split(' '))", str, TOKENIZE_CHOICES,
             stage="text", domain=choice(*TOKENIZE_CHOICES)),
        CIDER_KNOBS["lowercase"],
        CIDER_KNOBS["lowercase_mode"],
        Knob("bleu_ref_length", "closest", "BLEU reference length: closest (the Bleu class), shortest, average "
             "(BleuScorer options)", str, BLEU_REF_LENGTHS, stage="statistics", domain=choice(*BLEU_REF_LENGTHS)),
        Knob("rouge_beta", BETA, "ROUGE-L F_beta's beta (pycocoevalcap: 1.2)", float,
             stage="statistics", domain=real(0, None, low_open=True)),
        CIDER_KNOBS["idf_corpus"],
        Knob("meteor", "auto", "auto = METEOR through assay's METEOR 1.5 profile when it exists; off = omit it "
             "(the other metrics are unchanged; METEOR is the slow part)", str, ("auto", "off"),
             stage="statistics", domain=choice("auto", "off")),
    ),
)


# ----------------------------------------------------------------------------- tokens
def tokenised_strings(captions: Sequence[Any], config: Mapping[str, Any]) -> list[str]:
    """Each caption as the string the toolkit's scorers see (PTB output joined by spaces).

    BLEU and CIDEr split it with ``str.split()``, ROUGE-L with ``split(" ")``, as pycocoevalcap.
    With ``tokenize=ptb`` the captions are one batch of the wrapper (one jar run): pass the
    references and the results separately, each in image order, as COCOEvalCap does.
    """
    if not only_strings(captions):                  # the common case checked at C speed
        if any(isinstance(c, (list, tuple)) for c in captions):
            if not all(isinstance(c, (list, tuple)) for c in captions):
                raise InputError("mix of token lists and strings; pass one kind")
            return [" ".join(c) for c in captions]
        for i, c in enumerate(captions):
            if not isinstance(c, str):
                raise InputError(f"caption {i + 1}: expected a string, got {type(c).__name__}")
    tok, lower = config["tokenize"], config["lowercase"]
    if tok == PTB:
        out = ptb_batch(captions)
        if lower:
            out = [lowercase_text(s, config["lowercase_mode"]) for s in out]
        return out
    if tok == "none" and not lower:
        return list(captions)
    return [" ".join(t) for t in caption_tokens(list(captions), {**config})]


# ----------------------------------------------------------------------------- ROUGE-L (COCO)
def _rouge_rows(hyps: Sequence[str], streams: Sequence[Sequence[str | None]], beta: float) -> np.ndarray:
    """Per image (P, R, F) of pycocoevalcap's Rouge: the ``rouge/coco`` profile with ``beta``."""
    config = make_config("rouge", "coco", "corpus", beta=beta)[0]
    stats = ROUGE.segment_stats(list(hyps), streams, config)
    cols = stats.columns
    return stats.rows[:, [cols.index("rougeL:p"), cols.index("rougeL:r"), cols.index("rougeL:f")]]


def _streams(ref_s: list[Any], owner: np.ndarray, n_img: int) -> list[list[Any]]:
    """The tokenised references (image-major, reference ``k`` of image ``owner[k]``) as streams: stream
    j holds each image's j-th reference, None where an image has fewer."""
    counts = np.bincount(owner, minlength=n_img) if n_img else np.zeros(0, dtype=np.int64)
    width = int(counts.max()) if n_img else 0
    if n_img and (counts == width).all():             # every image has as many: slices, no per-image lists
        return [ref_s[j::width] for j in range(width)]
    groups: list[list[str]] = [[] for _ in range(n_img)]
    for text, o in zip(ref_s, owner.tolist()):
        groups[o].append(text)
    return [[g[j] if j < len(g) else None for g in groups] for j in range(width)]


def meteor_profile() -> str | None:
    """The METEOR profile reproducing pycocoevalcap's jar call, if assay has one."""
    for name in ("coco", "meteor-1.5"):
        try:
            get_profile("meteor", name)
            return name
        except KnobError:
            continue
    return None


class _Meteor:
    """The composite's METEOR as columns of its rows: per image, the statistics rows of the METEOR
    profile's corpus configuration (columns ``meteor:*``) and, when the profile has sentence-level
    knobs, of its sentence configuration (``meteor_sentence:*``). The corpus value is METEOR's score of
    the rows, the per-image values its sentence scores: computed from any chunk, shard or subset of
    rows like BLEU's, CIDEr's and ROUGE-L's (so METEOR never keeps the composite from being scored in
    chunks; 7.3 GB at 1M images when it did). A missing resource (``meteor=auto``) leaves METEOR out
    with its reason (``context["meteor_missing"]``), never estimated."""

    def __init__(self, config: Config) -> None:
        self.profile = meteor_profile() if config.meteor == "auto" else None
        self.configs: list[tuple[str, Config]] = []
        if self.profile is not None:
            corpus, prof = make_config("meteor", self.profile, "corpus")
            self.configs = [("meteor", corpus)]
            if prof.sentence_knobs:
                self.configs.append(("meteor_sentence", make_config("meteor", self.profile, "sentence")[0]))

    def rows(self, hyps: list[str], streams: list[list[str | None]]) -> tuple[tuple[str, ...], np.ndarray, str | None]:
        """The METEOR columns and rows of these images (tokenised captions and reference streams), made
        chunk by chunk (:func:`rows_of_lists`), and the reason METEOR is missing (None: it is not)."""
        columns: list[str] = []
        blocks: list[np.ndarray] = []
        try:
            for prefix, config in self.configs:
                stats = rows_of_lists(METEOR, config, hyps, streams)
                columns.extend(f"{prefix}:{c}" for c in stats.columns)
                blocks.append(stats.rows)
        except MissingDependencyError as exc:
            return (), np.zeros((len(hyps), 0)), str(exc)
        return tuple(columns), (np.hstack(blocks) if blocks else np.zeros((len(hyps), 0))), None

    def put_into(self, context: dict[str, Any], missing: str | None) -> None:
        """``context["meteor"]`` (the profile) or ``context["meteor_missing"]`` (why it is left out)."""
        if self.profile is not None:
            context["meteor_missing" if missing is not None else "meteor"] = missing or self.profile

    @staticmethod
    def stats(stats: SegmentStats, prefix: str) -> SegmentStats:
        """The METEOR statistics of the composite's rows under one of its configurations."""
        index = [i for i, c in enumerate(stats.columns) if c.startswith(prefix + ":")]
        return SegmentStats(tuple(stats.columns[i][len(prefix) + 1:] for i in index), _columns(stats.rows, index))

    def corpus(self, stats: SegmentStats) -> float | None:
        """The corpus METEOR of the rows (None when it was not scored)."""
        if not self.configs or "meteor" not in stats.context:
            return None
        return float(METEOR.score_stats(self.stats(stats, "meteor"), self.configs[0][1])[0])

    def per_image(self, stats: SegmentStats) -> np.ndarray | None:
        """Each row's METEOR (None when it was not scored)."""
        if not self.configs or "meteor" not in stats.context:
            return None
        prefix, config = self.configs[-1]
        return METEOR.sentence_stats_scores(self.stats(stats, prefix), config).values


def bleu_config(config: Config) -> Config:
    """The ``bleu/coco`` configuration of a coco configuration."""
    return make_config("bleu", "coco", "corpus", ref_length=config.bleu_ref_length)[0]


def cider_config(config: Config) -> Config:
    """The ``cider/coco`` configuration of a coco configuration."""
    return make_config("cider", "coco", "corpus", idf_corpus=config.idf_corpus)[0]


# ----------------------------------------------------------------------------- the composite
class Coco(MetricFamily):
    name = "coco"
    knobset = KNOBS
    corpus_pass = True   # its CIDEr columns carry the whole corpus's document frequencies

    def chunks_exactly(self, config: Config) -> bool:
        """Chunk by chunk (its first pass is CIDEr's) unless PTB tokenises the captions (the jar reads a
        batch as one text: then with lookahead, :meth:`chunks_with_lookahead`)."""
        return config.tokenize != PTB

    def chunks_with_lookahead(self, config: Config) -> bool:
        """Under PTB a caption's tokens depend on the next caption of its batch and nothing further."""
        return config.tokenize == PTB

    def _tokenised(self, hyps: Segments, refs: Refs, config: Config, ahead: bool = False, hyps_too: bool = True
                   ) -> tuple[Segments, list[list[Any]]]:
        """The captions as the scorers see them: the hypotheses and the reference streams (``ahead``: the
        last image is the next chunk's first, its captions only the batches' next lines; ``hyps_too``
        False: the hypotheses as given, for CIDEr's first pass, which only counts them)."""
        after: tuple[Any, Any] = (None, None)
        if ahead:
            hyps, refs, after = split_next(hyps, refs)
        flat, owner = group_refs(hyps, refs)
        if config.tokenize == PTB:
            check_chunkable(hyps, flat, ahead=ahead)
        ref_s = _strings_before(flat, config, after[1])     # COCOEvalCap: gts first, then res, two batches
        hyp_s = _strings_before(hyps, config, after[0]) if hyps_too else hyps
        return hyp_s, _streams(ref_s, owner, len(hyps))

    # ------------------------------------------------------------------ the first pass: CIDEr's
    def context_part(self, hyps: Segments, refs: Refs, config: Config, ahead: bool = False) -> Any:
        return CIDER.context_part(*self._tokenised(hyps, refs, config, ahead, hyps_too=False), cider_config(config))

    def merge_contexts(self, parts: Sequence[Any], config: Config) -> Any:
        return CIDER.merge_contexts(parts, cider_config(config))

    def fold_context(self, merged: Any, part: Any, config: Config) -> Any:
        return CIDER.fold_context(merged, part, cider_config(config))

    def finish_context(self, merged: Any, config: Config) -> Mapping[str, Any]:
        return CIDER.finish_context(merged, cider_config(config))

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config,
                      context: Mapping[str, Any] | None = None, ahead: bool = False) -> SegmentStats:
        """One row per image; ``context`` (:meth:`finish_context`) fixes CIDEr's document frequencies
        (chunks of one corpus); ``ahead``: the last image is the next chunk's first, context only. Under
        PTB a corpus of more than ``PTB_CHUNK_IMAGES`` images is tokenised and scored chunk by chunk
        (:meth:`_ptb_in_chunks`), to the same rows."""
        if context is None and not ahead and config.tokenize == PTB and len(hyps) > PTB_CHUNK_IMAGES:
            flat, owner = group_refs(hyps, refs)
            if not has_line_breaks(flat) and not has_line_breaks(hyps):
                return self._ptb_in_chunks(hyps, flat, owner, config)
            del flat, owner
        hyp_s, streams = self._tokenised(hyps, refs, config, ahead)
        # the three scorers read the tokenised strings themselves: BLEU and CIDEr split them with
        # str.split() (their id encoders, no token lists), ROUGE-L with split(" ")
        cider = CIDER.segment_stats(hyp_s, streams, cider_config(config), context)
        bleu = BLEU.segment_stats(hyp_s, streams, bleu_config(config))
        rouge = _rouge_rows(hyp_s, streams, config.rouge_beta)
        meteor = _Meteor(config)
        meteor_columns, meteor_rows, missing = meteor.rows(hyp_s, streams)
        rows = np.hstack([bleu.rows, rouge, cider.rows, meteor_rows])
        context = _context_of(bleu, cider, config)
        meteor.put_into(context, missing)
        return SegmentStats(_columns_of(bleu, cider) + meteor_columns, rows, context)

    def _ptb_in_chunks(self, hyps: Segments, flat: list[Any], owner: np.ndarray, config: Config) -> SegmentStats:
        """The rows of :meth:`segment_stats` under PTB, ``PTB_CHUNK_IMAGES`` images at a time: each
        chunk's captions tokenised with the caption after them in each batch as context
        (:func:`_strings_before`; no caption holds a line break), its BLEU, ROUGE-L and METEOR rows made,
        its tokenised captions kept only as token ids (1-4 bytes a token) for CIDEr, whose document
        frequencies need every chunk first (``stats_of_parts``: the rows of ``CIDER.segment_stats`` on
        the same strings). One PTB pass; the rows laid out once."""
        n = len(hyps)
        spans = image_spans(n, PTB_CHUNK_IMAGES)
        c_config = cider_config(config)
        cider_width = len(CIDER.columns(c_config))
        vocab: dict[str, int] = {}
        hyp_parts: list[Encoded] = []
        ref_parts: list[Encoded] = []
        meteor = _Meteor(config)
        rows: np.ndarray | None = None
        for (a, b), (ra, rb) in zip(spans, reference_spans(owner, n, spans)):
            ref_s = _strings_before(flat[ra:rb], config, flat[rb] if rb < len(flat) else None)
            hyp_s = _strings_before(hyps[a:b], config, hyps[b] if b < n else None)
            streams = _streams(ref_s, owner[ra:rb] - a, b - a)
            bleu = BLEU.segment_stats(hyp_s, streams, bleu_config(config))
            meteor_columns, meteor_rows, missing = meteor.rows(hyp_s, streams)
            width = len(bleu.columns) + 3
            if rows is None:
                rows = np.empty((n, width + cider_width + meteor_rows.shape[1]))
            rows[a:b, :width - 3] = bleu.rows
            rows[a:b, width - 3:width] = _rouge_rows(hyp_s, streams, config.rouge_beta)
            rows[a:b, width + cider_width:] = meteor_rows
            hyp_parts.append(narrow(caption_side(hyp_s, c_config, vocab), len(vocab)))
            ref_parts.append(narrow(caption_side(ref_s, c_config, vocab), len(vocab)))
        del flat
        cider = CIDER.stats_of_parts(hyp_parts, ref_parts, list(vocab), owner, c_config)
        rows[:, width:width + cider_width] = cider.rows
        context = _context_of(bleu, cider, config)
        meteor.put_into(context, missing)
        return SegmentStats(_columns_of(bleu, cider) + meteor_columns, rows, context)

    @staticmethod
    def _parts(stats: SegmentStats) -> tuple[SegmentStats, np.ndarray, SegmentStats]:
        cols = stats.columns
        b = [i for i, c in enumerate(cols) if c.startswith("bleu:")]
        c = [i for i, c in enumerate(cols) if c.startswith("cider:")]
        bleu = SegmentStats(tuple(cols[i][5:] for i in b), _columns(stats.rows, b), stats.context.get("bleu", {}))
        cider = SegmentStats(tuple(cols[i][6:] for i in c), _columns(stats.rows, c), stats.context.get("cider", {}))
        rouge = _columns(stats.rows, [cols.index("rouge:p"), cols.index("rouge:r"), cols.index("rouge:f")])
        return bleu, rouge, cider

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        bleu, rouge, cider = self._parts(stats)
        if len(stats) == 0:
            raise InputError("no images to score")
        _, bc = BLEU.score_stats(bleu, bleu_config(config))
        cider_value, cc = CIDER.score_stats(cider, cider_config(config))
        comp: dict[str, Any] = {f"Bleu_{n}": bc[f"Bleu_{n}"] for n in range(1, 5)}
        meteor = _Meteor(config).corpus(stats)
        if meteor is not None:
            comp["METEOR"] = meteor
        comp["ROUGE_L"] = float(rouge[:, 2].mean())
        comp["CIDEr"] = cider_value
        comp["images"] = len(stats)
        if meteor is None:
            reason = stats.context.get("meteor_missing", METEOR_OMITTED)
            comp["omitted"] = {"METEOR": reason if config.meteor == "auto" else "meteor=off"}
        comp["bleu"] = {k: bc[k] for k in ("sys_len", "ref_len", "ratio", "bp", "counts", "totals")}
        comp["idf"] = cc["idf"]
        return cider_value, comp

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> RowScores:
        """Per image, as COCOEvalCap's ``evalImgs``: sentence Bleu_1..4, METEOR, ROUGE_L, CIDEr (the value)."""
        bleu, rouge, cider = self._parts(stats)
        cider_values = CIDER.sentence_stats_scores(cider, cider_config(config)).values
        return RowScores(cider_values, partial(_image_components, BLEU.sentence_stats_scores(bleu, bleu_config(config)),
                                               _Meteor(config).per_image(stats), rouge, cider_values))


#: images tokenised and scored at a time under PTB when a corpus has more (:meth:`Coco._ptb_in_chunks`)
PTB_CHUNK_IMAGES = 50_000


def _strings_before(captions: Sequence[Any], config: Config, after: Any) -> list[str]:
    """:func:`tokenised_strings` of ``captions``, part of a longer wrapper batch under PTB: tokenised with
    ``after`` (the caption that follows them; None: the batch ends) as the jar's next line, dropped."""
    if after is None or config.tokenize != PTB:
        return tokenised_strings(list(captions), config)
    return tokenised_strings([*captions, after], config)[:-1]


def _columns_of(bleu: SegmentStats, cider: SegmentStats) -> tuple[str, ...]:
    return tuple([f"bleu:{c}" for c in bleu.columns] + ["rouge:p", "rouge:r", "rouge:f"]
                 + [f"cider:{c}" for c in cider.columns])


def _context_of(bleu: SegmentStats, cider: SegmentStats, config: Config) -> dict[str, Any]:
    rouge_source = "rouge/coco" if config.rouge_beta == BETA else f"rouge/coco beta={config.rouge_beta}"
    return {"cider": dict(cider.context), "bleu": dict(bleu.context), "rouge": rouge_source}


def _columns(rows: np.ndarray, index: list[int]) -> np.ndarray:
    """``rows[:, index]``: a view when the columns are consecutive (they are, as ``segment_stats`` lays
    them out; a million rows are not copied), else a copy."""
    if index and index == list(range(index[0], index[-1] + 1)):
        return rows[:, index[0]:index[-1] + 1]
    return rows[:, index]


def _image_components(bleu: RowScores, meteor: np.ndarray | None, rouge: np.ndarray, cider: np.ndarray,
                      i: int) -> dict[str, Any]:
    bc = bleu.components(i)
    comp: dict[str, Any] = {f"Bleu_{n}": bc[f"Bleu_{n}"] for n in range(1, 5)}
    if meteor is not None:
        comp["METEOR"] = float(meteor[i])
    comp.update(ROUGE_L=float(rouge[i, 2]), CIDEr=float(cider[i]))
    return comp


FAMILY = Coco()
