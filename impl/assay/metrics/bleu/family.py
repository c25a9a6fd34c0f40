"""BLEU (Papineni et al. 2002) and every variant in use, as one family with explicit knobs.

Per segment: ``hyp_len``, ``ref_len`` (chosen by ``ref_length``), clipped matches
``correct_n = sum_g min(count_hyp(g), max_r count_r(g))`` and ``total_n`` (hypothesis n-grams)
for n = 1..N. Corpus BLEU = BP * exp(sum_n w_n log p_n) on the summed rows, with
BP = exp(1 - r/c) if c < r, 1 if c >= r, 0 if c = 0.

The tools differ only in the knobs below (shared/research/bleu_nist.md):
- sacrebleu: break to 0 at an order with no hypothesis n-grams (``missing_order=stop``), 0 when
  nothing matches (#141, ``no_match=zero``), effective order = leading orders with n-grams.
- mteval-v13a/v14: such an order counts as precision 1 (``missing_order=one``); exp smoothing is
  applied even when nothing matches (``no_match=smooth``), so a 1-token wrong output scores 84.09.
- NLTK: ``max(1, #n-grams)`` denominators per segment (``per_segment_min_total=1``), method0's
  float-min for zero counts, precisions still 0 after smoothing skipped (``zero_precision=skip``),
  methods 5-7 read the last segment (their documented order dependence).
- multi-bleu.perl: log(0) = -9999999999, so any zero order gives 0 (``zero_precision=zero``).
- d2l (seed 002): weights 1/2^n; a hypothesis of exactly n-1 tokens divides by zero.
"""
from __future__ import annotations

import math
import sys
from functools import partial
from typing import Any, Sequence

import numpy as np

from assay.core.errors import KnobError, ToolBehaviourError
from assay.core.knobs import Alias, Config, Knob, KnobSet, parse_bool, parse_optional_float
from assay.core.stats import SegmentStats
from assay.tokenizers import TOKENIZER_NAMES
from assay.core.family import MetricFamily, Refs, Segments
from assay.text.ngrams import clipped_matches, encode
from assay.text.segments import tokenize_refs, tokenize_segments

MY_LOG_ZERO = -9999999999.0   # sacrebleu's and multi-bleu.perl's log(0)
FLOAT_MIN = sys.float_info.min  # NLTK method0's stand-in for a zero count
SMOOTH_METHODS = ("none", "floor", "add-k", "exp", "float-min",
                  "nltk-method4", "nltk-method5", "nltk-method6", "nltk-method7")
NLTK_SMOOTHING = {"method0": "float-min", "method1": "floor", "method2": "add-k", "method3": "exp",
                  "method4": "nltk-method4", "method5": "nltk-method5", "method6": "nltk-method6",
                  "method7": "nltk-method7"}
DEFAULT_SMOOTH_VALUE = {"floor": 0.1, "add-k": 1.0}
NLTK_NEXT_ORDER = 5  # NLTK method5 appends the last segment's 5-gram precision for every N


def parse_weights(value: Any) -> Any:
    """``uniform`` (1/N, effective-order aware), ``halving`` (1/2^n, d2l), a tuple, or tuples.

    CLI form: ``0.5,0.5`` for one tuple, ``1;0.5,0.5`` for several (NLTK returns one score each).
    """
    if isinstance(value, str):
        text = value.strip()
        if text in ("uniform", "halving"):
            return text
        groups = [g for g in text.replace(" ", "").split(";") if g]
        tuples = tuple(tuple(float(x) for x in g.strip("()").split(",") if x) for g in groups)
        if not tuples or any(not t for t in tuples):
            raise ValueError(f"cannot read weights {value!r}")
        return tuples[0] if len(tuples) == 1 else tuples
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (list, tuple)) for v in value):
            return tuple(tuple(float(x) for x in v) for v in value)
        return tuple(float(x) for x in value)
    raise ValueError(f"cannot read weights {value!r}")


def weight_tuples(weights: Any) -> list[tuple[float, ...]] | None:
    """The explicit weight tuples, or None for the named schemes."""
    if isinstance(weights, str):
        return None
    if weights and isinstance(weights[0], tuple):
        return list(weights)
    return [tuple(weights)]


def _validate(values: dict[str, Any]) -> None:
    tuples = weight_tuples(values["weights"])
    if tuples is not None and max(len(t) for t in tuples) != values["max_ngram_order"]:
        raise KnobError(f"weights {values['weights']} imply max_ngram_order={max(len(t) for t in tuples)}, "
                        f"but max_ngram_order={values['max_ngram_order']}")
    if values["max_ngram_order"] < 1:
        raise KnobError("max_ngram_order must be at least 1")
    if values["effective_order"] and values["weights"] != "uniform":
        raise KnobError("effective_order needs weights=uniform (the weights are 1/effective order)")


KNOBS = KnobSet(
    knobs=(
        Knob("tokenize", "13a", "tokenizer applied to hypotheses and references", str, TOKENIZER_NAMES,
             "sacrebleu tokenize/-tok; multi-bleu (whitespace); mteval default/--international-tokenization"),
        Knob("lowercase", False, "lowercase hypotheses and references", parse_bool,
             tool_names="sacrebleu lowercase/-lc; multi-bleu -lc; mteval: not case_sensitive (-c)"),
        Knob("lowercase_mode", "unicode", "unicode = str.lower(); perl = Perl lc (no final sigma); "
             "ascii = A-Z only (Perl tr/byte lc)", str, ("unicode", "perl", "ascii"),
             "multi-bleu -lc and mteval default: ascii; multi-bleu-detok -lc and mteval intl: perl"),
        Knob("lowercase_refs_after_tokenizing", False, "lowercase references after tokenising (so the "
             "case-sensitive <skipped> and entity rules see the original case); multi-bleu-detok -lc",
             parse_bool),
        Knob("max_ngram_order", 4, "highest n-gram order N", int, tool_names="sacrebleu max_ngram_order"),
        Knob("weights", "uniform", "n-gram weights: uniform (1/N), halving (1/2^n), a tuple, or tuples "
             "separated by ';'", parse_weights, tool_names="NLTK weights"),
        Knob("smooth_method", "exp", "treatment of orders with zero matches", str, SMOOTH_METHODS,
             "sacrebleu smooth_method; NLTK smoothing=method0..7 (alias)"),
        Knob("smooth_value", None, "floor epsilon / add-k k (None = tool default: 0.1 / 1)",
             parse_optional_float, tool_names="sacrebleu smooth_value; NLTK SmoothingFunction epsilon"),
        Knob("smooth_k", 5.0, "NLTK method4's K", float, tool_names="NLTK SmoothingFunction k"),
        Knob("smooth_alpha", 5.0, "NLTK method6's alpha", float, tool_names="NLTK SmoothingFunction alpha"),
        Knob("add_k_unigrams", False, "add-k also smooths unigrams (NLTK 3.5 method2)", parse_bool),
        Knob("effective_order", False, "average only over leading orders that have hypothesis n-grams",
             parse_bool, tool_names="sacrebleu effective_order/use_effective_order"),
        Knob("missing_order", "stop", "an order with no hypothesis n-grams: stop = precision 0 from there "
             "(sacrebleu), one = precision 1 (mteval), error = ZeroDivisionError (d2l)", str,
             ("stop", "one", "error")),
        Knob("no_match", "zero", "no matching unigram: zero = score 0 (sacrebleu 2, NLTK), smooth = "
             "smoothing still applies (sacrebleu 1.x, mteval)", str, ("zero", "smooth")),
        Knob("zero_precision", "zero", "a precision still 0 after smoothing: zero = score 0 (log 0 = "
             "-9999999999), skip = left out of the mean (NLTK)", str, ("zero", "skip")),
        Knob("per_segment_min_total", 0, "per-segment floor on #hypothesis n-grams (NLTK: 1)", int, (0, 1)),
        Knob("ref_length", "closest", "reference length: closest (tie -> shorter), shortest, average",
             str, ("closest", "shortest", "average"), "mteval --brevity-penalty; COCO"),
        Knob("empty_refs", "keep", "an empty reference line: keep = a 0-length reference (sacrebleu), "
             "drop = missing", str, ("keep", "drop")),
        Knob("segment_without_refs", "score", "a segment left with no reference (all missing/dropped): "
             "score = reference length 0, nothing matches; error = the tool fails (sacrebleu 1.x EOFError)",
             str, ("score", "error")),
        Knob("auto_reweigh", False, "NLTK auto_reweigh: uniform weights over hyp_len orders when the "
             "corpus has fewer than 4 hypothesis tokens and weights are (0.25,)*4", parse_bool),
        Knob("auto_reweigh_orders", "keep", "when auto_reweigh applies: keep = only the weights change, all N "
             "orders are computed and smoothed (NLTK >= 3.6); drop = only hyp_len orders are computed (so "
             "smoothing sees hyp_len orders) and an empty corpus raises ZeroDivisionError (NLTK 3.5)", str,
             ("keep", "drop")),
        Knob("nltk_method4", "halving", "NLTK method4 on zero-count orders: halving = 1/(2^k*K/ln L)/d "
             "(NLTK >= 3.6); index = (i + K/ln L)/d with i the 0-based order index (NLTK 3.5)", str,
             ("halving", "index")),
        Knob("weight_lists", "scores", "several weight tuples: scores = one score each (NLTK >= 3.6); "
             "error = TypeError unless nothing matches (NLTK 3.5)", str, ("scores", "error")),
        Knob("chop_unterminated_last_line", False, "drop the last character of a file's last line when it "
             "has no trailing newline (multi-bleu-detok's chop); applies when reading files", parse_bool),
        Knob("scale", 100, "report on 0-100 (sacrebleu, multi-bleu) or 0-1 (NLTK, mteval, d2l)", int, (1, 100)),
        Knob("epsilon", "none", "coco = pycocoevalcap's BleuScorer: p_n = (correct+1e-15)/(total+1e-9) and "
             "ratio (c+1e-15)/(r+1e-9) for every order, no smoothing or zero rules, cumulative Bleu_1..N "
             "components (metrics/bleu_coco.py)", str, ("none", "coco")),
    ),
    aliases=(
        Alias("smoothing", "NLTK SmoothingFunction().methodK", lambda v: {"smooth_method": _nltk_method(v)}),
        Alias("case_sensitive", "mteval -c: true = no lowercasing", lambda v: {"lowercase": not parse_bool(v)}),
        Alias("international_tokenization", "mteval --international-tokenization (Unicode lc)",
              lambda v: {"tokenize": "mteval-intl", "lowercase_mode": "perl"} if parse_bool(v)
              else {"tokenize": "mteval-13a", "lowercase_mode": "ascii"}),
        Alias("no_smoothing", "mteval --no-smoothing: no smoothing, and an order without n-grams gives 0",
              lambda v: {"smooth_method": "none", "missing_order": "stop"} if parse_bool(v)
              else {"smooth_method": "exp", "missing_order": "one"}),
        Alias("brevity_penalty", "mteval --brevity-penalty closest|shortest", lambda v: {"ref_length": v}),
        Alias("use_effective_order", "sacrebleu 1.x name", lambda v: {"effective_order": v}),
    ),
    validate=_validate,
)


def _nltk_method(value: Any) -> str:
    key = str(value).strip()
    if key.isdigit():
        key = f"method{key}"
    if key not in NLTK_SMOOTHING:
        raise ValueError(f"smoothing must be method0..method7, got {value!r}")
    return NLTK_SMOOTHING[key]


class Bleu(MetricFamily):
    name = "bleu"
    knobset = KNOBS

    def derive(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Setting NLTK-style weights also sets max_ngram_order to the longest tuple."""
        if "weights" in settings and "max_ngram_order" not in settings:
            tuples = weight_tuples(settings["weights"])
            if tuples is not None:
                settings = {**settings, "max_ngram_order": max(len(t) for t in tuples)}
        return settings

    # ------------------------------------------------------------------ statistics
    def columns(self, config: Config) -> tuple[str, ...]:
        n = config.max_ngram_order
        cols = ["hyp_len", "ref_len"] + [f"correct{i}" for i in range(1, n + 1)] + \
               [f"total{i}" for i in range(1, n + 1)]
        if _needs_extra_order(config):
            cols += ["correct_next", "total_next"]
        return tuple(cols)

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        if config.empty_refs == "drop":
            refs = [[None if (r is not None and not _has_content(r)) else r for r in s] for s in refs]
        if config.segment_without_refs == "error":
            for i in range(len(hyps)):
                if all(s[i] is None for s in refs):
                    raise ToolBehaviourError(f"segment {i + 1} has no valid reference (sacrebleu 1.x: "
                                             "'No valid references for a sentence!')", "EOFError")
        hyp_toks = tokenize_segments(hyps, config)
        ref_toks = tokenize_refs(refs, config)
        n_seg = len(hyp_toks)
        order = max(config.max_ngram_order, NLTK_NEXT_ORDER) if _needs_extra_order(config) else config.max_ngram_order

        vocab: dict[str, int] = {}
        sides = [encode(hyp_toks, vocab)] + [encode([t or [] for t in s], vocab) for s in ref_toks]
        hyp_len = sides[0].lengths.astype(np.float64)
        present = np.array([[t is not None for t in s] for s in ref_toks], dtype=bool).reshape(len(ref_toks), n_seg)
        ref_lens = np.vstack([s.lengths for s in sides[1:]]).astype(np.float64) if ref_toks else \
            np.zeros((0, n_seg))
        ref_len = choose_ref_length(hyp_len, ref_lens, present, config.ref_length)

        correct = clipped_matches(sides, order)
        total = np.maximum(hyp_len[:, None] - np.arange(order)[None, :], config.per_segment_min_total)
        n_main = config.max_ngram_order
        parts = [hyp_len[:, None], ref_len[:, None], correct[:, :n_main], total[:, :n_main]]
        if _needs_extra_order(config):   # NLTK method5/7: the 5-gram counts, whatever N is
            parts += [correct[:, NLTK_NEXT_ORDER - 1:NLTK_NEXT_ORDER], total[:, NLTK_NEXT_ORDER - 1:NLTK_NEXT_ORDER]]
        return SegmentStats(self.columns(config), np.hstack(parts))

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        n = config.max_ngram_order
        tot = stats.total()
        last = stats.rows[-1] if len(stats) else None
        return bleu_from_counts(tot[0], tot[1], tot[2:2 + n], tot[2 + n:2 + 2 * n], config, stats.columns, last)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, dict[str, Any]]]:
        if config.epsilon == "coco":
            from assay.metrics.bleu.coco_epsilon import coco_sentence_scores
            pairs = coco_sentence_scores(stats.rows, config.max_ngram_order)
            return pairs if config.scale == 1 else [(v * config.scale, c) for v, c in pairs]
        from assay.metrics.bleu.vector import bleu_rows, vectorizable
        if not vectorizable(config):
            return [self.score_stats(stats.row(i), config) for i in range(len(stats))]
        n = config.max_ngram_order
        rows = stats.rows
        raw_correct, raw_total = rows[:, 2:2 + n], rows[:, 2 + n:2 + 2 * n]
        scores, comp = bleu_rows(rows[:, 0], rows[:, 1], raw_correct, raw_total, config)
        zero = comp["early"]

        def components(i: int) -> dict[str, Any]:
            counts, totals = (raw_correct[i], raw_total[i]) if zero[i] else (comp["counts"][i], comp["totals"][i])
            ref_len = float(rows[i, 1])
            return {"sys_len": int(rows[i, 0]), "ref_len": ref_len if ref_len % 1 else int(ref_len),
                    "bp": float(comp["bp"][i]), "ratio": float(comp["ratio"][i]),
                    "counts": [_int_if_whole(c) for c in counts.tolist()],
                    "totals": [_int_if_whole(t) for t in totals.tolist()],
                    "precisions": comp["precisions"][i].tolist(), "eff_order": int(comp["eff_order"][i])}

        out = [(value, partial(components, i)) for i, value in enumerate(scores.tolist())]
        return out

    # ------------------------------------------------------------------ presentation
    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        from assay.output.signature import bleu_signature
        return bleu_signature(config, profile, nrefs, tool_version)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        from assay.output.formats import bleu_text
        return bleu_text(value, components, config, profile, signature, width)

    def tool_json(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                  signature: str, width: int | None) -> dict[str, Any] | None:
        from assay.output.formats import bleu_sacrebleu_json
        return bleu_sacrebleu_json(value, components, config, profile, signature, width)

    # ------------------------------------------------------------------ resampling
    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Corpus BLEU of many summed rows at once (bootstrap / approximate randomisation).

        float64 sums: the same rules as :meth:`score_stats` (vectorised where
        :func:`bleu_vector.vectorizable`, else ``bleu_from_counts`` per sum row, which needs no
        segment). float32 sums: sacrebleu 2.x's resampling arithmetic (its significance code
        casts the statistics to float32), see :func:`sacrebleu_float32_scores`. Configurations
        that read the last segment (NLTK methods 5-7) are not a function of sums: KnobError.
        """
        if config.get("epsilon", "none") == "coco":
            from assay.metrics.bleu.coco_epsilon import coco_scores_from_sums
            return coco_scores_from_sums(np.asarray(sums, dtype=np.float64), config.max_ngram_order) * config.scale
        if _needs_extra_order(config) or config.smooth_method == "nltk-method6":
            raise KnobError(f"bleu: smooth_method={config.smooth_method} reads the last segment, so the "
                            "corpus score is not a function of summed statistics (no resampling)")
        sums = np.asarray(sums)
        if sums.ndim != 2 or sums.shape[1] != 2 + 2 * config.max_ngram_order:
            raise KnobError(f"bleu: sums of shape {sums.shape} do not match max_ngram_order="
                            f"{config.max_ngram_order}")
        if sums.dtype == np.float32:
            return sacrebleu_float32_scores(sums, config)
        sums = sums.astype(np.float64)
        n = config.max_ngram_order
        from assay.metrics.bleu.vector import bleu_rows, vectorizable
        if vectorizable(config):
            return bleu_rows(sums[:, 0], sums[:, 1], sums[:, 2:2 + n], sums[:, 2 + n:], config)[0]
        return np.array([bleu_from_counts(r[0], r[1], r[2:2 + n], r[2 + n:], config)[0] for r in sums])


def _has_content(ref: Any) -> bool:
    return bool(ref) if isinstance(ref, (list, tuple)) else bool(str(ref).strip())


def _needs_extra_order(config: Config) -> bool:
    return config.smooth_method in ("nltk-method5", "nltk-method7")


def choose_ref_length(hyp_len: np.ndarray, ref_lens: np.ndarray, present: np.ndarray, rule: str) -> np.ndarray:
    """Per segment: the closest reference length (ties -> shorter), the shortest, or the average.

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
    # closest: minimise (|r - c|, r) lexicographically
    diff = np.abs(ref_lens - hyp_len[None, :])
    key = np.where(present, diff * (ref_lens.max() + 1.0) * 2 + ref_lens, np.inf)
    best = np.argmin(key, axis=0)
    chosen = ref_lens[best, np.arange(ref_lens.shape[1])]
    return np.where(any_present, chosen, 0.0)


def brevity_penalty(sys_len: float, ref_len: float) -> float:
    """BP = 1 if c >= r (so also when both are 0, as sacrebleu), 0 if c = 0 < r, else exp(1 - r/c)."""
    if sys_len >= ref_len:
        return 1.0
    if sys_len == 0:
        return 0.0
    return math.exp(1.0 - ref_len / sys_len)


def bleu_from_counts(sys_len: float, ref_len: float, correct: Sequence[float], total: Sequence[float],
                     config: Config, columns: Sequence[str] = (), last: np.ndarray | None = None
                     ) -> tuple[float, dict[str, Any]]:
    """BLEU from summed statistics; ``last`` is the last segment's row (NLTK methods 5-7)."""
    n_max = config.max_ngram_order
    if config.epsilon == "coco":   # pycocoevalcap reports 0-1; scale=100 multiplies the value only
        from assay.metrics.bleu.coco_epsilon import coco_bleu
        value, comp = coco_bleu(sys_len, ref_len, correct, total)
        return value * config.scale, comp
    method = config.smooth_method
    k_value = config.smooth_value if config.smooth_value is not None else DEFAULT_SMOOTH_VALUE.get(method, 0.0)
    correct = [float(c) for c in correct]
    total = [float(t) for t in total]
    scale = float(config.scale)
    bp = brevity_penalty(sys_len, ref_len)
    sys_len, ref_len = float(sys_len), float(ref_len)
    components: dict[str, Any] = {
        "sys_len": int(sys_len), "ref_len": ref_len if ref_len % 1 else int(ref_len), "bp": bp,
        "ratio": float(sys_len / ref_len) if ref_len > 0 else 0.0,
    }

    tuples = weight_tuples(config.weights)
    if (config.auto_reweigh and config.auto_reweigh_orders == "drop" and sys_len < 4
            and tuples is not None and len(tuples) == 1 and tuples[0] == (0.25, 0.25, 0.25, 0.25)):
        if sys_len == 0:
            raise ToolBehaviourError("NLTK 3.5 auto_reweigh divides 1 by hyp_len = 0", "ZeroDivisionError")
        n_max = int(sys_len)            # NLTK 3.5 computes (and smooths) only the reweighed orders
        correct, total = correct[:n_max], total[:n_max]
    if config.missing_order == "error" and sys_len < n_max:
        raise ToolBehaviourError(
            f"the hypothesis has {int(sys_len)} tokens: d2l's bleu divides by len(pred) - n + 1 = 0 for "
            f"n = {int(sys_len) + 1}" if sys_len else "the hypothesis is empty: d2l's bleu divides by len(pred) = 0",
            "ZeroDivisionError")
    # nothing matches: sacrebleu 2 (#141) and NLTK return 0 before any smoothing (raw counts shown);
    # an empty hypothesis returns early in every tool (sacrebleu 1.x too, before add-k)
    if sys_len == 0 or (correct[0] == 0 and config.no_match == "zero"):
        components.update(counts=[_int_if_whole(c) for c in correct], totals=[_int_if_whole(t) for t in total],
                          precisions=[0.0] * n_max, eff_order=n_max)
        if tuples is not None and len(tuples) > 1 and config.weight_lists == "scores":
            components["scores"] = [0.0] * len(tuples)   # NLTK: a list of 0s, one per weight tuple
        return 0.0, components
    if tuples is not None and len(tuples) > 1 and config.weight_lists == "error":
        raise ToolBehaviourError("NLTK 3.5 takes one weight tuple; several raise TypeError", "TypeError")
    # add-k changes the counts that are reported (sacrebleu shows counts/totals with +k)
    if method == "add-k":
        for i in range(n_max):
            if i >= 1 or config.add_k_unigrams:
                correct[i] += k_value
                total[i] += k_value
    components["counts"] = [_int_if_whole(c) for c in correct]
    components["totals"] = [_int_if_whole(t) for t in total]

    precisions = [0.0] * n_max
    eff_order = n_max
    exp_factor = 1.0
    for i in range(n_max):
        c, t = correct[i], total[i]
        if t == 0:
            if config.missing_order == "stop":
                break
            if config.missing_order == "error":
                raise ToolBehaviourError(
                    f"the hypothesis has no {i + 1}-grams: d2l's bleu divides by len(pred) - n + 1 = 0",
                    "ZeroDivisionError")
            precisions[i] = 1.0   # mteval: log 1 = 0 for an order without test n-grams
            continue
        if config.effective_order:
            eff_order = i + 1
        if c == 0:
            if method == "exp":
                exp_factor *= 2
                precisions[i] = 1.0 / (exp_factor * t)
            elif method == "floor":
                precisions[i] = k_value / t
            elif method == "float-min":
                precisions[i] = FLOAT_MIN
        else:
            precisions[i] = c / t

    precisions = _nltk_smoothing(method, precisions, correct, total, sys_len, config, columns, last)

    tuples = weight_tuples(config.weights)
    if tuples is None:
        if config.weights == "halving":
            tuples = [tuple(0.5 ** (i + 1) for i in range(n_max))]
        else:
            tuples = [tuple([1.0 / eff_order] * eff_order)]
    scores = []
    for weights in tuples:
        if config.auto_reweigh and sys_len < 4 and weights == (0.25, 0.25, 0.25, 0.25):
            weights = tuple([1.0 / sys_len] * int(sys_len)) if sys_len > 0 else weights
        scores.append(scale * bp * math.exp(_weighted_log_sum(weights, precisions, config.zero_precision)))
    components.update(precisions=[p * scale for p in precisions], eff_order=eff_order)
    if len(scores) > 1:
        components["scores"] = scores
    return scores[0], components


def _weighted_log_sum(weights: Sequence[float], precisions: Sequence[float], zero_precision: str) -> float:
    total = 0.0
    for w, p in zip(weights, precisions):
        if p > 0:
            total += w * math.log(p)
        elif zero_precision == "zero":
            total += w * MY_LOG_ZERO if w > 0 else 0.0
    return total


def _int_if_whole(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _nltk_smoothing(method: str, p: list[float], correct: list[float], total: list[float], sys_len: float,
                    config: Config, columns: Sequence[str], last: np.ndarray | None) -> list[float]:
    """NLTK SmoothingFunction methods 4-7 (methods 0-3 are the generic rules above)."""
    if not method.startswith("nltk-method"):
        return p
    from assay.metrics.bleu.nltk_smoothing import nltk_methods
    return nltk_methods(method, p, correct, total, sys_len, config, columns, last)


def sacrebleu_float32_scores(sums: np.ndarray, config: Config) -> np.ndarray:
    """sacrebleu 2.x BLEU of float32 resampled sums, operation for operation (black-box verified).

    sacrebleu's bootstrap hands float32 column sums to its corpus-score function, so under numpy's
    NEP 50 rules the precisions are float32: ``p_n = (100 * c_n) / t_n`` (add-k adds ``k`` to
    ``c_n, t_n`` for n >= 2 in float32; exp smoothing ``100 / (2^j * t_n)``; floor ``(100 k) / t_n``).
    Lengths are truncated to ints, ``BP = exp(1 - r/c)`` in float64; the logs (log 0 =
    -9999999999) are summed in float64 order by order and ``score = BP * exp(sum / N_eff)``. No
    unigram match gives 0; an order without hypothesis n-grams stops the product (sacrebleu).
    """
    if (config.smooth_method not in ("none", "floor", "add-k", "exp") or config.missing_order != "stop"
            or config.no_match != "zero" or config.zero_precision != "zero" or config.weights != "uniform"
            or config.scale != 100 or config.auto_reweigh):
        raise KnobError("bleu: float32 resampling reproduces sacrebleu 2.x and needs a sacrebleu-style "
                        "configuration (smoothing none/floor/add-k/exp, uniform weights, 0-100 scale)")
    n = config.max_ngram_order
    f32 = np.float32
    k_value = config.smooth_value if config.smooth_value is not None else DEFAULT_SMOOTH_VALUE.get(
        config.smooth_method, 0.0)
    sys_len = np.trunc(sums[:, 0].astype(np.float64))
    ref_len = np.trunc(sums[:, 1].astype(np.float64))
    correct = sums[:, 2:2 + n].astype(f32)
    total = sums[:, 2 + n:2 + 2 * n].astype(f32)
    if config.smooth_method == "add-k" and n > 1:
        correct[:, 1:] += f32(k_value)
        total[:, 1:] += f32(k_value)
    m = sums.shape[0]
    prec = np.zeros((m, n), dtype=f32)
    alive = np.ones(m, dtype=bool)
    eff = np.full(m, n)
    factor = np.ones(m)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(n):
            c, t = correct[:, i], total[:, i]
            alive &= t != 0
            if config.effective_order:
                eff[alive] = i + 1
            hit = alive & (c != 0)
            prec[hit, i] = (f32(100.0) * c[hit]) / t[hit]
            zero = alive & (c == 0)
            if config.smooth_method == "exp":
                factor[zero] *= 2
                prec[zero, i] = f32(100.0) / (factor[zero].astype(f32) * t[zero])
            elif config.smooth_method == "floor":
                prec[zero, i] = f32(100.0 * k_value) / t[zero]
        logs = prec.astype(np.float64)
        logs = np.where(logs > 0, np.log(np.where(logs > 0, logs, 1.0)), MY_LOG_ZERO)
        log_sum = np.zeros(m)
        for i in range(n):                       # sacrebleu sums the logs order by order
            log_sum = np.where(i < eff, log_sum + logs[:, i], log_sum)
        bp = np.where(sys_len < ref_len,
                      np.where(sys_len > 0, np.exp(1.0 - ref_len / np.where(sys_len > 0, sys_len, 1.0)), 0.0), 1.0)
        scores = bp * np.exp(log_sum / eff)
    return np.where(correct[:, 0] == 0, 0.0, scores)


FAMILY = Bleu()
