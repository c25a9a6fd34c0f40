"""CIDEr (Vedantam et al. 2015) and CIDEr-D as pycocoevalcap 1.2 computes it, as one family.

Every hypothesis and reference becomes, for each order n = 1..N, a vector of n-gram weights
``tf(g) * idf(g)`` with ``tf`` the raw count and

    idf(g) = log(N_images) - log(max(1, df(g)))

where ``df(g)`` is the number of *images* one of whose references contains ``g`` (each image's
reference n-gram set counts once; hypotheses never count). For image i with references
``r_1..r_m`` and order n::

    sim_n(h, r) = sum_g min(h_g, r_g) * r_g / (|h| |r|)          (CIDEr-D: clipped)
                  * exp(-(len_h - len_r)^2 / (2 sigma^2))           (sigma = 6)
    CIDEr-D(i)  = 10 * mean_n( sum_j sim_n(h, r_j) ) / m

and the corpus score is the mean over images (shared/research/rouge_meteor_cider.md §5.1).
Tool quirks reproduced by the ``coco`` profile:

- tokens are ``str.split()`` of the (already PTB-tokenised) captions (``tokenize=none``);
- the idf comes from the *evaluated* references, so one image always scores 0 (idf 0
  everywhere) and the same pair scores differently in different corpora;
- an n-gram seen only in hypotheses gets idf log N: it adds to |h| and never matches;
- "length" is the number of bigrams (words - 1, 0 for an empty caption);
- a zero norm on either side leaves sim_n = 0.

``vedantam2015`` is the original CIDEr as seed 004 writes it (eq. 4.1-4.3): cosine of tf-idf
vectors (tf normalised by the n-gram total, which the cosine cancels), no clipping, no length
penalty, no factor 10, uniform weights over n = 1..4. The seed's idf ``log(|I| / df)`` is
undefined for an n-gram no reference has (df = 0); that n-gram is given df = 1 here, as in
CIDEr-D, so it weighs the hypothesis norm with idf log N.

``idf_corpus`` (NOT the toolkit's behaviour) takes the document frequencies from a fixed
reference set instead of the evaluated one, so a single image gets a meaningful score:
a path to a JSON of document frequencies (``{"format": "assay-cider-df/1", "n_images": N,
"df": {"a dog": 12, ...}}``), a JSON of reference captions (COCO annotations or
``{image_id: [captions]}``), or a text file with one image per line (every line, blank ones too),
references separated by `` ||| ``; or a name looked up as ``$ASSAY_IDF_DIR/<name>.json``. (vrama91/cider's
``df_mode='coco-val-df'`` did the same with the COCO val2014 frequencies.)

Sufficient statistics: the document-frequency table is the corpus context (first pass, kept in
``SegmentStats.context["df"]``); each image is a row (``images``=1, ``cider``, ``cider_1..N``,
``n_refs``, ``hyp_len``); the corpus score is ``sum(cider) / sum(images)``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.core.knobs import Config, Knob, KnobSet, parse_bool, parse_optional_float
from assay.profiles.registry import Profile, register
from assay.core.stats import SegmentStats
from assay.tokenizers import TOKENIZER_NAMES
from assay.core.family import MetricFamily, Refs, Segments
from assay.text.ngrams import NgramIndex, encode
from assay.text.segments import tokenize_segments
from assay.tokenizers.ptb import coco_tokenize_lines

PTB = "ptb"
TOKENIZE_CHOICES: tuple[str, ...] = tuple(dict.fromkeys(TOKENIZER_NAMES + (PTB,)))
DF_FORMAT = "assay-cider-df/1"
REF_SEPARATOR = " ||| "


def _parse_optional_str(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in ("", "none", "default") else text


def _validate(values: Mapping[str, Any]) -> None:
    if values["max_ngram_order"] < 1:
        raise KnobError("max_ngram_order must be at least 1")
    sigma = values["length_penalty_sigma"]
    if sigma is not None and sigma <= 0:
        raise KnobError("length_penalty_sigma must be positive (or none for no length penalty)")


KNOBS = KnobSet(
    knobs=(
        Knob("tokenize", "none", "tokenizer: none = str.split() of captions the caller already tokenised "
             "(pycocoevalcap's Cider scorer); ptb = pycocoevalcap's PTBTokenizer first (COCOEvalCap)",
             str, TOKENIZE_CHOICES),
        Knob("lowercase", False, "lowercase captions before tokenising", parse_bool),
        Knob("lowercase_mode", "unicode", "unicode = str.lower(); perl; ascii", str, ("unicode", "perl", "ascii")),
        Knob("max_ngram_order", 4, "highest n-gram order N", int, tool_names="pycocoevalcap Cider n"),
        Knob("clipping", True, "CIDEr-D clipping: sum min(h_g, r_g) * r_g (false: the dot product h . r)",
             parse_bool),
        Knob("length_penalty_sigma", 6.0, "Gaussian length penalty exp(-(len_h-len_r)^2/(2 sigma^2)); "
             "none = no penalty", parse_optional_float, tool_names="pycocoevalcap CiderScorer sigma"),
        Knob("length_unit", "bigrams", "length in the penalty: bigrams (pycocoevalcap: #bigrams = words-1) "
             "or words (the CIDEr-D paper's l(c))", str, ("bigrams", "words")),
        Knob("scale", 10.0, "factor on the score (CIDEr-D: 10; original CIDEr: 1)", float),
        Knob("no_reference_ngrams", "error", "no reference of the corpus has an n-gram (all empty): error = the "
             "tool's ValueError (pycocoevalcap and vrama91 take max() of an empty df table); zero = score 0",
             str, ("error", "zero")),
        Knob("idf_corpus", None, "document frequencies from a fixed reference set instead of the evaluated "
             "references (NOT the toolkit's behaviour): a df JSON, a captions JSON/text file, or a name in "
             "$ASSAY_IDF_DIR", _parse_optional_str),
    ),
    validate=_validate,
)


# ----------------------------------------------------------------------------- tokens
def ptb_batch(captions: Sequence[str]) -> list[str]:
    """pycocoevalcap's ``PTBTokenizer().tokenize`` output strings for one batch, in order.

    The wrapper writes a batch (all references, or all results) to one file and runs the jar once,
    so a caption's tokens can depend on the next caption (a sentence-final abbreviation before a
    capital letter); callers pass captions in the wrapper's order (image order, references in order).
    """
    for i, c in enumerate(captions):
        if not isinstance(c, str):
            raise InputError(f"caption {i + 1}: expected a string or a list of tokens, got {type(c).__name__}")
    return coco_tokenize_lines(list(captions))


def caption_tokens(segments: Sequence[Any], config: Mapping[str, Any]) -> list[list[str]]:
    """Tokens of each caption under the ``tokenize``/``lowercase`` knobs (``ptb``: PTB on the whole
    list as one wrapper batch, then split())."""
    if config["tokenize"] == PTB and not _is_token_lists(segments):
        out = [s.split() for s in ptb_batch(segments)]
        if config["lowercase"]:
            from assay.tokenizers import lowercase_text
            out = [[lowercase_text(t, config["lowercase_mode"]) for t in toks] for toks in out]
        return out
    if config["tokenize"] in (PTB, "none") and not config["lowercase"] and _is_token_lists(segments):
        return list(segments)                     # token lists as given (read only; no per-caption copy)
    if config["tokenize"] == PTB:
        config = {**config, "tokenize": "none"}   # token lists are already tokenised
    if config["tokenize"] == "none" and not config["lowercase"] and all(isinstance(s, str) for s in segments):
        return [s.split() for s in segments]      # the toolkit's str.split(), without per-line dispatch
    return tokenize_segments(segments, config)


def _is_token_lists(segments: Sequence[Any]) -> bool:
    return bool(segments) and all(isinstance(s, (list, tuple)) for s in segments if s is not None)


def group_refs(hyps: Segments, refs: Refs) -> tuple[list[Any], np.ndarray]:
    """Flatten reference streams into one list of (image, reference) pairs, image-major.

    Returns the references and, per reference, its image index. Missing references (None) are
    skipped; an image left without any reference is an :class:`InputError` (pycocoevalcap
    asserts ``len(refs) > 0``).
    """
    n_img = len(hyps)
    if not refs:
        raise InputError("no reference streams")
    # image-major order: zip the streams (one tuple of references per image), drop the Nones
    per_image = list(zip(*(stream[:n_img] for stream in refs)))
    flat = [r for group in per_image for r in group if r is not None]
    counts = np.array([len(g) - g.count(None) for g in per_image], dtype=np.int64) if per_image else \
        np.zeros(0, dtype=np.int64)
    if len(counts) < n_img or (counts == 0).any():
        i = int(np.flatnonzero(counts == 0)[0]) if (counts == 0).any() else len(counts)
        raise InputError(f"image {i + 1} has no reference caption (CIDEr needs at least one per image)")
    return flat, np.repeat(np.arange(n_img, dtype=np.int64), counts)


# ----------------------------------------------------------------------------- document frequencies
@dataclass
class DocumentFrequencies:
    """The corpus context: number of images and df of every n-gram (``"w1 w2"`` -> #images).

    Built from the evaluated references (the toolkit) or loaded from ``idf_corpus``. ``table``
    is materialised on first use when the frequencies were computed on integer codes.
    """

    n_images: int
    source: str
    _table: dict[str, int] | None = None
    _builder: Callable[[], dict[str, int]] | None = field(default=None, repr=False)

    @property
    def table(self) -> dict[str, int]:
        if self._table is None:
            self._table = self._builder() if self._builder else {}
            self._builder = None
        return self._table

    def to_json(self) -> dict[str, Any]:
        return {"format": DF_FORMAT, "n_images": self.n_images, "source": self.source, "df": self.table}


def df_from_token_lists(image_refs: Sequence[Sequence[Sequence[str]]], max_order: int, source: str
                        ) -> DocumentFrequencies:
    """Document frequencies of a reference set: each image's n-gram set counts once."""
    vocab: dict[str, int] = {}
    flat = [r for refs in image_refs for r in refs]
    owner = np.repeat(np.arange(len(image_refs)), [len(refs) for refs in image_refs]).astype(np.int64)
    side = encode(flat, vocab)
    index = NgramIndex([side], max_order)
    id_to_tok = _inverse_vocab(vocab)
    table: dict[str, int] = {}
    for n in range(1, max_order + 1):
        nc = index.n_codes[n - 1]
        counts = index.side_counts(0, n)
        codes, df = _image_df(counts, owner, nc)
        present = np.flatnonzero(df)
        names = _code_strings(index, 0, n, present, id_to_tok)
        table.update(zip(names, df[present].tolist()))
    return DocumentFrequencies(len(image_refs), source, table)


def _image_df(counts: Any, owner: np.ndarray, nc: int) -> tuple[np.ndarray, np.ndarray]:
    """df per code: the number of distinct images whose references contain the n-gram."""
    codes = counts.keys % nc
    images = owner[counts.keys // nc]
    pairs = np.sort(images * nc + codes)     # sort-based unique (numpy's hash unique is slower here)
    if len(pairs):
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
    return codes, np.bincount(pairs % nc, minlength=nc)


def _inverse_vocab(vocab: Mapping[str, int]) -> list[str]:
    out = [""] * len(vocab)
    for tok, i in vocab.items():
        out[i] = tok
    return out


def _code_strings(index: NgramIndex, side: int, n: int, codes: np.ndarray, id_to_tok: list[str]) -> list[str]:
    """``"w1 w2 .. wn"`` for the given codes of order n (from a first occurrence of each code)."""
    if len(codes) == 0:
        return []
    lo, hi = index._side_bounds[side], index._side_bounds[side + 1]
    valid = index.valid[n - 1][lo:hi]
    all_codes = index.codes[n - 1][lo:hi]
    positions = np.flatnonzero(valid)
    first = np.full(index.n_codes[n - 1], -1, dtype=np.int64)
    first[all_codes[positions][::-1]] = positions[::-1]
    ids = _side_ids(index, side)
    starts = first[codes]
    return [" ".join(id_to_tok[t] for t in ids[s:s + n]) for s in starts.tolist()]


def _side_ids(index: NgramIndex, side: int) -> np.ndarray:
    return index.sides[side].ids


def load_idf_corpus(spec: str, config: Mapping[str, Any]) -> DocumentFrequencies:
    """Read ``idf_corpus``: a df JSON, a captions JSON / text file, or a name in ``$ASSAY_IDF_DIR``."""
    path = Path(spec)
    if not path.is_file():
        folder = os.environ.get("ASSAY_IDF_DIR")
        named = Path(folder) / f"{spec}.json" if folder else None
        if named is None or not named.is_file():
            where = f" or {named}" if named else " (and $ASSAY_IDF_DIR is not set)"
            raise KnobError(f"idf_corpus {spec!r}: no such file{where}")
        path = named
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, config["tokenize"], config["lowercase"],
           config["lowercase_mode"], config["max_ngram_order"])
    return _load_idf_cached(key)


@lru_cache(maxsize=8)
def _load_idf_cached(key: tuple[Any, ...]) -> DocumentFrequencies:
    path = Path(key[0])
    config = {"tokenize": key[3], "lowercase": key[4], "lowercase_mode": key[5]}
    max_order = key[6]
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".json":
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}:{exc.lineno}: not valid JSON ({exc.msg})") from None
        if isinstance(doc, dict) and "df" in doc:
            return _df_table_from_json(doc, path)
        from assay.core.coco_json import parse_annotations
        groups = parse_annotations(doc, str(path), allow_empty=True)
        captions = list(groups.values())
    else:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()                      # the final newline ends the last image's line
        captions = [line.split(REF_SEPARATOR) for line in lines]   # every line is one image
        if not captions:
            raise InputError(f"{path}: no reference captions")
    flat = [c for group in captions for c in group]
    toks = caption_tokens(flat, {**config})
    it = iter(toks)
    image_refs = [[next(it) for _ in group] for group in captions]
    return df_from_token_lists(image_refs, max_order, str(path))


def _df_table_from_json(doc: Mapping[str, Any], path: Path) -> DocumentFrequencies:
    if doc.get("format") not in (None, DF_FORMAT):
        raise InputError(f"{path}: unknown document-frequency format {doc.get('format')!r} (expected {DF_FORMAT})")
    n_images = doc.get("n_images")
    df = doc["df"]
    if not isinstance(n_images, int) or n_images < 1:
        raise InputError(f"{path}: 'n_images' must be a positive integer")
    if not isinstance(df, dict) or not all(isinstance(v, int) and v >= 0 for v in df.values()):
        raise InputError(f"{path}: 'df' must map n-gram strings to non-negative integers")
    too_big = [k for k, v in df.items() if v > n_images]
    if too_big:
        raise InputError(f"{path}: df of {too_big[0]!r} is {df[too_big[0]]}, more than n_images = {n_images}")
    return DocumentFrequencies(n_images, str(path), {" ".join(k.split()): v for k, v in df.items()})


# ----------------------------------------------------------------------------- the computation
def cider_rows(hyp_toks: Sequence[Sequence[str]], ref_toks: Sequence[Sequence[str]], owner: np.ndarray,
               config: Mapping[str, Any], df_source: DocumentFrequencies | None = None,
               keep: dict[str, Any] | None = None) -> tuple[np.ndarray, np.ndarray, DocumentFrequencies]:
    """Per image: the score and the per-order parts; plus the document frequencies used.

    ``ref_toks[k]`` is a reference of image ``owner[k]``. Returns ``(scores, per_order, df)``
    with ``per_order[i, n-1] = scale * sum_j sim_n(h_i, r_ij) / m_i`` and ``scores`` their mean
    over n. ``keep`` (a dict) receives the n-gram index and the side lengths, for callers that
    count other n-gram statistics of the same tokens (the coco composite's BLEU).
    """
    n_img = len(hyp_toks)
    n_max = int(config["max_ngram_order"])
    n_refs = np.bincount(owner, minlength=n_img).astype(np.float64)
    vocab: dict[str, int] = {}
    hyp_side = encode(hyp_toks, vocab)
    ref_side = encode(ref_toks, vocab)
    index = NgramIndex([hyp_side, ref_side], n_max)
    if keep is not None:
        keep.update(index=index, hyp_lengths=hyp_side.lengths, ref_lengths=ref_side.lengths, owner=owner)
    sigma = config["length_penalty_sigma"]
    if sigma is not None:
        if config["length_unit"] == "bigrams":
            hl = np.maximum(hyp_side.lengths - 1, 0)
            rl = np.maximum(ref_side.lengths - 1, 0)
        else:
            hl, rl = hyp_side.lengths, ref_side.lengths
        delta = (hl[owner] - rl).astype(np.float64)
        penalty = np.exp(-(delta ** 2) / (2.0 * sigma ** 2))
    else:
        penalty = None

    external = df_source is not None
    id_to_tok = _inverse_vocab(vocab) if external else None
    log_n = np.log(float(df_source.n_images if external else n_img))
    per_order = np.zeros((n_img, n_max))
    df_parts: list[tuple[int, np.ndarray, np.ndarray]] = []
    for n in range(1, n_max + 1):
        nc = index.n_codes[n - 1]
        hc = index.side_counts(0, n)
        rc = index.side_counts(1, n)
        r_seg = rc.keys // nc
        r_code = rc.keys % nc
        h_img = hc.keys // nc
        h_code = hc.keys % nc
        if external:
            df = _external_df(index, n, nc, hc, rc, df_source, id_to_tok)
        else:
            _, df = _image_df(rc, owner, nc)
            df_parts.append((n, np.flatnonzero(df), df))
        idf = log_n - np.log(np.maximum(1.0, df.astype(np.float64)))
        wh = hc.counts * idf[h_code]
        wr = rc.counts * idf[r_code]
        norm_h = np.sqrt(np.bincount(h_img, weights=wh * wh, minlength=n_img).astype(np.float64))
        norm_r = np.sqrt(np.bincount(r_seg, weights=wr * wr, minlength=len(ref_toks)).astype(np.float64))
        # the hypothesis weight of each reference n-gram (0 where the hypothesis lacks it)
        query = owner[r_seg] * nc + r_code
        if len(hc.keys):
            pos = np.minimum(np.searchsorted(hc.keys, query), len(hc.keys) - 1)
            wh_at = np.where(hc.keys[pos] == query, wh[pos], 0.0)
        else:
            wh_at = np.zeros(len(query))
        terms = (np.minimum(wh_at, wr) if config["clipping"] else wh_at) * wr
        num = np.bincount(r_seg, weights=terms, minlength=len(ref_toks)).astype(np.float64)
        denom = norm_h[owner] * norm_r
        val = np.divide(num, denom, out=num.copy(), where=denom != 0)
        if penalty is not None:
            val = val * penalty
        per_order[:, n - 1] = np.bincount(owner, weights=val, minlength=n_img).astype(np.float64) / n_refs
    scale = float(config["scale"])
    scores = per_order.mean(axis=1) * scale
    per_order = per_order * scale

    if external:
        used = df_source
    else:
        def build() -> dict[str, int]:
            inv = _inverse_vocab(vocab)
            table: dict[str, int] = {}
            for n, codes, df in df_parts:
                table.update(zip(_code_strings(index, 1, n, codes, inv), df[codes].tolist()))
            return table
        used = DocumentFrequencies(n_img, "evaluated references", None, build)
    return scores, per_order, used


def _external_df(index: NgramIndex, n: int, nc: int, hc: Any, rc: Any, source: DocumentFrequencies,
                 id_to_tok: list[str]) -> np.ndarray:
    """df per code looked up by n-gram string in an external table (0 where it lacks the n-gram)."""
    codes = np.unique(np.concatenate([hc.keys % nc, rc.keys % nc]))
    df = np.zeros(nc, dtype=np.int64)
    if len(codes) == 0:
        return df
    table = source.table
    names = _code_strings_any(index, n, codes, id_to_tok)
    df[codes] = np.fromiter((table.get(s, 0) for s in names), dtype=np.int64, count=len(names))
    return df


def _code_strings_any(index: NgramIndex, n: int, codes: np.ndarray, id_to_tok: list[str]) -> list[str]:
    """Like :func:`_code_strings` over all sides of the index."""
    valid = index.valid[n - 1]
    all_codes = index.codes[n - 1]
    positions = np.flatnonzero(valid)
    first = np.full(index.n_codes[n - 1], -1, dtype=np.int64)
    first[all_codes[positions][::-1]] = positions[::-1]
    ids = np.concatenate([s.ids for s in index.sides])
    return [" ".join(id_to_tok[t] for t in ids[s:s + n]) for s in first[codes].tolist()]


# ----------------------------------------------------------------------------- the family
class Cider(MetricFamily):
    name = "cider"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        n = config.max_ngram_order
        return tuple(["images", "cider"] + [f"cider_{i}" for i in range(1, n + 1)] + ["n_refs", "hyp_len"])

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config,
                      context: Mapping[str, Any] | None = None, keep: dict[str, Any] | None = None) -> SegmentStats:
        """One row per image. ``context`` (from an earlier call) fixes the document frequencies,
        e.g. to score chunks of one corpus with the whole corpus's idf; ``keep``: see :func:`cider_rows`."""
        flat, owner = group_refs(hyps, refs)
        hyp_toks = caption_tokens(hyps, config)
        ref_toks = caption_tokens(flat, config)
        if context is not None:
            df_source = context["df"]
        elif config.idf_corpus is not None:
            df_source = load_idf_corpus(config.idf_corpus, config)
        else:
            df_source = None
        if (df_source is None and config.no_reference_ngrams == "error"
                and not any(len(t) for t in ref_toks)):
            raise ToolBehaviourError("no reference caption has a token: pycocoevalcap's CiderScorer takes max() "
                                     "of an empty document-frequency table", "ValueError")
        scores, per_order, used = cider_rows(hyp_toks, ref_toks, owner, config, df_source, keep)
        n_img = len(hyp_toks)
        rows = np.hstack([np.ones((n_img, 1)), scores[:, None], per_order,
                          np.bincount(owner, minlength=n_img)[:, None].astype(np.float64),
                          np.fromiter((len(t) for t in hyp_toks), dtype=np.float64, count=n_img)[:, None]])
        ctx = {"df": used, "idf": "evaluated references" if df_source is None else f"idf_corpus: {used.source}"}
        return SegmentStats(self.columns(config), rows, ctx)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        n = config.max_ngram_order
        images = int(stats.col("images").sum())
        if images == 0:
            raise InputError("no images to score")
        value = float(stats.col("cider").sum() / images)
        per_order = (stats.cols("cider_", n).sum(axis=0) / images).tolist() if len(stats) else [0.0] * n
        return value, {"images": images, "per_order": per_order, "idf": stats.context.get("idf", ""),
                       "n_images_idf": stats.context["df"].n_images if "df" in stats.context else images}

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, Any]]:
        """Each image's score (pycocoevalcap's per-image ``scores``: corpus document frequencies)."""
        n = config.max_ngram_order
        per = stats.cols("cider_", n)
        return [(float(v), {"per_order": per[i].tolist(), "n_refs": int(stats.col("n_refs")[i])})
                for i, v in enumerate(stats.col("cider").tolist())]

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Mean over the resampled images (document frequencies stay those of the full corpus)."""
        cols = self.columns(config)
        return sums[:, cols.index("cider")] / sums[:, cols.index("images")]

    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        from assay.output.signature import assay_signature
        return assay_signature("cider", config, profile, nrefs)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        text = repr(float(value)) if width is None else f"{value:.{width}f}"
        name = "CIDEr" if profile == "vedantam2015" else "CIDEr-D" if config.clipping else "CIDEr"
        note = "" if config.idf_corpus is None else f" (idf from {config.idf_corpus}: not the toolkit's behaviour)"
        return f"{name} = {text}{note}"


FAMILY = Cider()

_COCO = dict(tokenize="none", lowercase=False, lowercase_mode="unicode", max_ngram_order=4, clipping=True,
             length_penalty_sigma=6.0, length_unit="bigrams", scale=10.0, no_reference_ngrams="error",
             idf_corpus=None)
register(Profile(
    "cider", "coco", "pycocoevalcap", ("1.2",), _COCO,
    "pycocoevalcap Cider (CIDEr-D): str.split() of pre-tokenised captions (COCOEvalCap runs PTBTokenizer first: "
    "tokenize=ptb), idf over the evaluated references (one image scores 0), clipping, Gaussian length penalty "
    "sigma 6 on bigram counts, x10, mean over images."), default=True)
register(Profile(
    "cider", "vedantam2015", "CIDEr (Vedantam et al. 2015, seed 004)", ("seed-004",),
    dict(_COCO, clipping=False, length_penalty_sigma=None, scale=1.0, no_reference_ngrams="zero"),
    "Original CIDEr: mean over n = 1..4 of the mean tf-idf cosine over references; no clipping, no length "
    "penalty, no factor 10; idf over the evaluated references (an n-gram no reference has: df taken as 1)."))
register(Profile(
    "cider", "vrama91", "vrama91/cider (the CIDEr authors' code, class Cider)", ("vrama91/cider@f281464",),
    dict(_COCO, clipping=False, length_penalty_sigma=None, scale=10.0),
    "The CIDEr authors' reference code (github vrama91/cider, Python 2; run through 2to3), Cider with "
    "df='corpus': the original CIDEr of vedantam2015 times 10."))
