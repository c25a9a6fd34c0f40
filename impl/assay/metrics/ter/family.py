"""TER, Translation Edit Rate (Snover et al. 2006), as sacrebleu 2.x and 1.5.1 compute it (tercom-style).

Hypotheses are tokenised once, references twice in sacrebleu 2.x (``retokenize_refs``; only
``normalized`` output changes on a second pass). Per segment: ``num_edits`` = the fewest edits (insertions, deletions, substitutions and block
shifts, each costing 1; see :mod:`.ter_shifts`) over the references, ``ref_length`` = the
**average** reference length in tokens. Corpus TER = Σ num_edits / Σ ref_length (×100 on
sacrebleu 2's scale), so the two summed columns are sufficient statistics.

A zero total reference length: sacrebleu 2 gives 100 when there are edits and 0 otherwise
(``zero_ref_length=edits``); sacrebleu 1.5.1 gives 1 (its whole scale) even with no edit
(``zero_ref_length=one``).
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from assay.core.errors import InputError, KnobError
from assay.core.knobs import Config, Knob, KnobSet, parse_bool
from assay.profiles.registry import Profile, register
from assay.core.stats import SegmentStats
from assay.tokenizers.ter import TokenizerTercom
from assay.core.family import MetricFamily, Refs, Segments
from assay.metrics.ter.shifts import BEAM_WIDTH, MAX_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE, Limits, ter_edits

COLUMNS = ("num_edits", "ref_length")
TOKENIZER_KNOBS = ("normalized", "no_punct", "asian_support", "case_sensitive")


def _validate(values: dict[str, Any]) -> None:
    for name in ("max_shift_size", "max_shift_dist", "beam_width", "max_candidates"):
        if values[name] < 0:
            raise KnobError(f"{name} must be >= 0, got {values[name]}")


def _nonneg_int(value: Any) -> int:
    number = int(value)
    if number != float(value):
        raise ValueError(f"expected an integer, got {value!r}")
    return number


KNOBS = KnobSet(
    knobs=(
        Knob("normalized", False, "tercom normalisation: split punctuation, unescape &quot; &amp; &lt; &gt;, "
             "split 's, join hyphenated lines", parse_bool, tool_names="sacrebleu normalized/--ter-normalized"),
        Knob("no_punct", False, "delete . , ? : ; ! \" ( ) (and CJK punctuation with asian_support)", parse_bool,
             tool_names="sacrebleu no_punct/--ter-no-punct"),
        Knob("asian_support", False, "with normalized: CJK characters become single tokens; with no_punct: "
             "CJK punctuation is deleted", parse_bool, tool_names="sacrebleu asian_support/--ter-asian-support"),
        Knob("case_sensitive", False, "keep case (default: str.lower() first)", parse_bool,
             tool_names="sacrebleu case_sensitive/--ter-case-sensitive"),
        Knob("max_shift_size", MAX_SHIFT_SIZE, "longest block a shift moves (words)", _nonneg_int),
        Knob("max_shift_dist", MAX_SHIFT_DIST, "largest |hypothesis start - reference start| of a shift",
             _nonneg_int),
        Knob("beam_width", BEAM_WIDTH, "edit-distance beam half-width around the length-ratio diagonal",
             _nonneg_int),
        Knob("max_candidates", MAX_CANDIDATES, "shift candidates evaluated per hypothesis/reference pair "
             "(summed over rounds); the round that exhausts it makes no shift", _nonneg_int),
        Knob("retokenize_refs", True, "references go through the tokenizer twice (sacrebleu 2.x: observable "
             "with normalized, e.g. it's<TAB>x -> it 's x, x's. -> x 's .); sacrebleu 1.5.1 tokenises once", parse_bool),
        Knob("zero_ref_length", "edits", "score when the total reference length is 0: edits = full scale if "
             "there are edits, else 0 (sacrebleu 2); one = full scale (sacrebleu 1.5.1)", str, ("edits", "one")),
        Knob("scale", 100, "0-100 (sacrebleu 2) or 0-1 (sacrebleu 1.x)", int, (1, 100)),
    ),
    validate=_validate,
)

SACREBLEU_TER = dict(normalized=False, no_punct=False, asian_support=False, case_sensitive=False,
                     max_shift_size=MAX_SHIFT_SIZE, max_shift_dist=MAX_SHIFT_DIST, beam_width=BEAM_WIDTH,
                     max_candidates=MAX_CANDIDATES, retokenize_refs=True, zero_ref_length="edits", scale=100)
#: knobs sacrebleu exposes; any other knob must keep the profile's value for sacrebleu's signature
SACREBLEU_KNOBS = set(TOKENIZER_KNOBS)


def ter_value(num_edits: float, ref_length: float, config: Config) -> float:
    """num_edits / ref_length on the configured scale, with the tool's zero-length rule."""
    if ref_length > 0:
        ratio = num_edits / ref_length
    elif config.zero_ref_length == "one" or num_edits > 0:
        ratio = 1.0
    else:
        ratio = 0.0
    return ratio * config.scale if config.scale != 1 else ratio


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
        limits = Limits(config.max_shift_size, config.max_shift_dist, config.beam_width, config.max_candidates)
        vocab: dict[str, int] = {}
        memo: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        rows = np.zeros((len(hyp_toks), 2), dtype=np.float64)
        for i, hyp in enumerate(hyp_toks):
            h = tuple(vocab.setdefault(t, len(vocab)) for t in hyp)
            seg_refs = [s[i] for s in ref_toks if s[i] is not None]
            if not seg_refs:
                raise InputError(f"segment {i + 1} has no reference (TER needs at least one)")
            best = None
            for ref in seg_refs:
                r = tuple(vocab.setdefault(t, len(vocab)) for t in ref)
                key = (h, r)
                edits = memo.get(key)
                if edits is None:
                    edits = memo[key] = ter_edits(h, r, limits)
                if best is None or edits < best:
                    best = edits
            rows[i, 0] = best
            rows[i, 1] = sum(len(r) for r in seg_refs) / len(seg_refs)
        return SegmentStats(COLUMNS, rows)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        edits, length = (float(x) for x in stats.total())
        return ter_value(edits, length, config), {"num_edits": _int_if_whole(edits), "ref_length": length}

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, Any]]:
        values = self.scores_from_sums(stats.rows, config).tolist()
        rows = stats.rows
        return [(v, partial(_components, rows, i)) for i, v in enumerate(values)]

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """TER of every summed row: Σedits / Σref_length on the scale (zero-length rule applied)."""
        sums = np.asarray(sums, dtype=np.float64)
        edits, length = sums[:, 0], sums[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(length > 0, edits / np.where(length > 0, length, 1.0), 0.0)
        if config.zero_ref_length == "one":
            ratio = np.where(length > 0, ratio, 1.0)
        else:
            ratio = np.where(length > 0, ratio, np.where(edits > 0, 1.0, 0.0))
        return ratio * config.scale if config.scale != 1 else ratio

    # ------------------------------------------------------------------ presentation
    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        from assay.output.signature import assay_signature
        if profile in ("sacrebleu", "sacrebleu@1") and _sacrebleu_representable(config, profile):
            if profile == "sacrebleu@1":
                return ter_signature1(config, tool_version or "")
            return ter_signature2(config, nrefs, tool_version or "")
        return assay_signature("ter", config, profile, nrefs)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        if signature.startswith("tok.tercom"):       # sacrebleu 1.x CLI: -w 1 (its default) prints 3 digits
            w = 3 if width in (None, 1) else width
            return f"TER+{signature} = {value:.{w}f}"
        w = 1 if width is None else width
        if signature.startswith("assay:"):
            return f"TER = {value:.{w}f}"
        return f"TER|{signature} = {value:.{w}f}"

    def tool_json(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                  signature: str, width: int | None) -> dict[str, Any] | None:
        """sacrebleu 2.x CLI JSON: score rounded to the width, signature and its fields (no verbose part)."""
        if profile != "sacrebleu" or signature.startswith("assay:"):
            return None
        w = 1 if width is None else width
        out: dict[str, Any] = {"name": "TER", "score": float(f"{value:.{w}f}"), "signature": signature}
        for part in signature.split("|"):
            key, _, val = part.partition(":")
            out[key] = val
        return out


def _components(rows: np.ndarray, i: int) -> dict[str, Any]:
    return {"num_edits": _int_if_whole(float(rows[i, 0])), "ref_length": float(rows[i, 1])}


def _int_if_whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _sacrebleu_representable(config: Config, profile: str) -> bool:
    base = PROFILE_KNOBS[profile]
    return all(config[k] == v for k, v in base.items() if k not in SACREBLEU_KNOBS)


def ter_fields(config: Config, nrefs: str, version: str) -> dict[str, str]:
    """sacrebleu 2.x signature fields in its order."""
    return {"nrefs": nrefs, "case": "mixed" if config.case_sensitive else "lc", "tok": "tercom",
            "norm": "yes" if config.normalized else "no", "punct": "no" if config.no_punct else "yes",
            "asian": "yes" if config.asian_support else "no", "version": version}


TER_SHORT_KEYS = {"nrefs": "#", "case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as",
                  "version": "v"}


def ter_signature2(config: Config, nrefs: str, version: str, short: bool = False) -> str:
    """``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` (short: ``#:1|c:lc|t:tercom|…``)."""
    fields = ter_fields(config, nrefs, version)
    return "|".join(f"{TER_SHORT_KEYS[k] if short else k}:{v}" for k, v in fields.items())


def ter_signature1(config: Config, version: str, short: bool = False) -> str:
    """1.x: ``tok.tercom-nonorm-punct-noasian-uncased+version.1.5.1`` (printed after ``TER+``)."""
    tok = "-".join(["tercom", "norm" if config.normalized else "nonorm", "nopunct" if config.no_punct else "punct",
                    "asian" if config.asian_support else "noasian",
                    "cased" if config.case_sensitive else "uncased"])
    return f"{'t' if short else 'tok'}.{tok}+{'v' if short else 'version'}.{version}"


FAMILY = Ter()

PROFILE_KNOBS = {
    "sacrebleu": SACREBLEU_TER,
    "sacrebleu@1": dict(SACREBLEU_TER, retokenize_refs=False, zero_ref_length="one", scale=1),
}
register(Profile(
    "ter", "sacrebleu", "sacrebleu", ("2.6.0",), PROFILE_KNOBS["sacrebleu"],
    "sacrebleu 2.x TER(): tercom-style (lowercased, no normalisation), shift limits 10/50, beam 25, "
    "1000 candidates; fewest edits over references / average reference length, 0-100.",
    default_width=1), default=True)
register(Profile(
    "ter", "sacrebleu@1", "sacrebleu", ("1.5.1",), PROFILE_KNOBS["sacrebleu@1"],
    "sacrebleu 1.5.x corpus_ter/sentence_ter: the same search on the 0-1 scale; references tokenised once; "
    "a zero total reference length scores 1 even without edits.", default_width=3))
