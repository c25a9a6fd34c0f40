"""BLEU's knobs, declared once: stage, domain, help.

Stages (what the statistics cache keys on, see :mod:`assay.core.domains`):

- ``text``: tokenisation and casing (shared with NIST, :mod:`assay.text.knobs`), multi-bleu-detok's
  reference lowercasing after tokenising and its chop of an unterminated last line;
- ``statistics``: what the per-segment rows hold: ``max_ngram_order`` (the columns),
  ``per_segment_min_total`` (NLTK's ``max(1, #n-grams)``), ``ref_length`` (which reference length a
  row carries), ``empty_refs`` and ``segment_without_refs`` (which references a row sees);
- ``score``: everything that turns summed rows into a number (smoothing, weights, effective
  order, the zero rules, NLTK's version switches, ``epsilon``, ``scale`` and
  ``resample_arithmetic``). The rows never depend on them: NLTK methods 5 and 7 read 5-gram
  counts, which every row carries (:mod:`assay.metrics.bleu.rows`).
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from assay.core.domains import Boolean, choice, integer, optional, predicate, real
from assay.core.errors import KnobError
from assay.core.knobs import Alias, Knob, KnobSet, parse_bool, parse_optional_float
from assay.text.knobs import (CASE_SENSITIVE, INTERNATIONAL_TOKENIZATION, LOWERCASE, LOWERCASE_MODE, TOKENIZE,
                              parse_int)

SMOOTH_METHODS = ("none", "floor", "add-k", "exp", "float-min",
                  "nltk-method4", "nltk-method5", "nltk-method6", "nltk-method7")
NLTK_SMOOTHING = {"method0": "float-min", "method1": "floor", "method2": "add-k", "method3": "exp",
                  "method4": "nltk-method4", "method5": "nltk-method5", "method6": "nltk-method6",
                  "method7": "nltk-method7"}
DEFAULT_SMOOTH_VALUE = {"floor": 0.1, "add-k": 1.0}
SCORE_ARITHMETICS = ("weighted-logs", "sacrebleu", "nltk", "d2l")
MAX_ORDER = 100
ORDER_REASON = "BLEU uses n <= 4, NLTK weights rarely more than 6; higher orders only add columns and time"


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


def weights_problem(weights: Any) -> str | None:
    """Why ``weights`` is not acceptable, or None.

    Any finite, non-negative numbers are accepted, whatever their sum: NLTK takes any weights
    (the fixtures use tuples summing to 1 up to rounding, e.g. ``(0.1, 0.2, 0.3, 0.4)``).
    """
    tuples = weight_tuples(weights)
    if tuples is None:
        return None if weights in ("uniform", "halving") else f"unknown scheme {weights!r}"
    if not tuples:
        return "no weight tuple"
    for t in tuples:
        if not t:
            return "an empty weight tuple"
        if len(t) > MAX_ORDER:
            return f"a tuple of {len(t)} weights (at most {MAX_ORDER}: {ORDER_REASON})"
        for w in t:
            if isinstance(w, bool) or not isinstance(w, (int, float)):
                return f"{w!r} is not a number"
            if not math.isfinite(w):
                return f"{w!r} is not finite"
            if w < 0:
                return f"{w!r} is negative"
    return None


def _validate(values: Mapping[str, Any]) -> None:
    tuples = weight_tuples(values["weights"])
    if tuples is not None and max(len(t) for t in tuples) != values["max_ngram_order"]:
        raise KnobError(f"weights {values['weights']} imply max_ngram_order={max(len(t) for t in tuples)}, "
                        f"but max_ngram_order={values['max_ngram_order']}")
    if values["max_ngram_order"] < 1:
        raise KnobError("max_ngram_order must be at least 1")
    if values["effective_order"] and values["weights"] != "uniform":
        raise KnobError("effective_order needs weights=uniform (the weights are 1/effective order)")


def _nltk_method(value: Any) -> str:
    key = str(value).strip()
    if key.isdigit():
        key = f"method{key}"
    if key not in NLTK_SMOOTHING:
        raise ValueError(f"smoothing must be method0..method7, got {value!r}")
    return NLTK_SMOOTHING[key]


def _choice(name: str, default: Any, help_text: str, values: tuple[Any, ...], stage: str, tool_names: str = "",
            parse: Any = str) -> Knob:
    return Knob(name, default, help_text, parse, values, tool_names, stage=stage, domain=choice(*values))


KNOBS = KnobSet(
    knobs=(
        TOKENIZE,
        LOWERCASE,
        LOWERCASE_MODE,
        Knob("lowercase_refs_after_tokenizing", False, "lowercase references after tokenising (so the "
             "case-sensitive <skipped> and entity rules see the original case); multi-bleu-detok -lc",
             parse_bool, stage="text", domain=Boolean()),
        Knob("max_ngram_order", 4, "highest n-gram order N", parse_int, tool_names="sacrebleu max_ngram_order",
             stage="statistics", domain=integer(1, MAX_ORDER, reason=ORDER_REASON)),
        Knob("weights", "uniform", "n-gram weights: uniform (1/N), halving (1/2^n), a tuple, or tuples "
             "separated by ';'", parse_weights, tool_names="NLTK weights", stage="score",
             domain=predicate("uniform, halving, or tuples of finite non-negative numbers", weights_problem)),
        _choice("smooth_method", "exp", "treatment of orders with zero matches", SMOOTH_METHODS, "score",
                "sacrebleu smooth_method; NLTK smoothing=method0..7 (alias)"),
        Knob("smooth_value", None, "floor epsilon / add-k k (None = tool default: 0.1 / 1)",
             parse_optional_float, tool_names="sacrebleu smooth_value; NLTK SmoothingFunction epsilon",
             stage="score", domain=optional(real(0, None))),
        Knob("smooth_k", 5.0, "NLTK method4's K", float, tool_names="NLTK SmoothingFunction k",
             stage="score", domain=real(0, None)),
        Knob("smooth_alpha", 5.0, "NLTK method6's alpha", float, tool_names="NLTK SmoothingFunction alpha",
             stage="score", domain=real(0, None)),
        Knob("add_k_unigrams", False, "add-k also smooths unigrams (NLTK 3.5 method2)", parse_bool,
             stage="score", domain=Boolean()),
        Knob("effective_order", False, "average only over leading orders that have hypothesis n-grams",
             parse_bool, tool_names="sacrebleu effective_order/use_effective_order", stage="score",
             domain=Boolean()),
        _choice("missing_order", "stop", "an order with no hypothesis n-grams: stop = precision 0 from there "
                "(sacrebleu), one = precision 1 (mteval), error = ZeroDivisionError (d2l)",
                ("stop", "one", "error"), "score"),
        _choice("zero_length", "score", "a corpus (sentence) whose hypothesis length or chosen reference length "
                "is 0: score = the formula's value; error = ZeroDivisionError (TF NMT compute_bleu, as HF "
                "evaluate's bleu runs it: ratio = c / r, then exp(1 - 1 / ratio))", ("score", "error"), "score"),
        _choice("no_match", "zero", "no matching unigram: zero = score 0 (sacrebleu 2, NLTK), smooth = "
                "smoothing still applies (sacrebleu 1.x, mteval)", ("zero", "smooth"), "score"),
        _choice("zero_precision", "zero", "a precision still 0 after smoothing: zero = score 0 (log 0 = "
                "-9999999999), skip = left out of the mean (NLTK)", ("zero", "skip"), "score"),
        _choice("per_segment_min_total", 0, "per-segment floor on #hypothesis n-grams (NLTK: 1)", (0, 1),
                "statistics", parse=parse_int),
        Knob("use_brevity_penalty", True, "multiply by the brevity penalty exp(1 - r/c) when c < r; false = "
             "BP 1 whatever the lengths (implementations that leave it out)", parse_bool, stage="score",
             domain=Boolean()),
        _choice("ngram_counts", "multiset", "how n-grams are counted: multiset = clipped counts, "
                "correct_n = sum_g min(count_hyp(g), max_r count_r(g)), total_n = #hypothesis n-grams (every "
                "tool); set = distinct n-grams, correct_n = |set(hyp) & union_r set(ref_r)|, total_n = "
                "|set(hyp)| (implementations built on Python sets)", ("multiset", "set"), "statistics"),
        _choice("ref_length", "closest", "reference length: closest (tie -> shorter), closest-first (tie -> the "
                "first listed reference: torchmetrics), shortest, average",
                ("closest", "closest-first", "shortest", "average"), "statistics", "mteval --brevity-penalty; COCO"),
        _choice("empty_refs", "keep", "an empty reference line (nothing but whitespace): keep = a 0-length "
                "reference (sacrebleu); drop = missing; drop-after-first = an empty reference in the FIRST "
                "stream is kept (a 0-length reference, so it can be the closest length; it has no n-grams), "
                "empty ones in later streams are missing (e2e-metrics' mteval-v13a-sig.pl)",
                ("keep", "drop", "drop-after-first"), "statistics"),
        _choice("segment_without_refs", "score", "a segment left with no reference (all missing/dropped): "
                "score = reference length 0, nothing matches; error = the tool fails (sacrebleu 1.x EOFError)",
                ("score", "error"), "statistics"),
        Knob("auto_reweigh", False, "NLTK auto_reweigh: uniform weights over hyp_len orders when the "
             "corpus has fewer than 4 hypothesis tokens and weights are (0.25,)*4", parse_bool,
             stage="score", domain=Boolean()),
        _choice("auto_reweigh_orders", "keep", "when auto_reweigh applies: keep = only the weights change, all N "
                "orders are computed and smoothed (NLTK >= 3.6); drop = only hyp_len orders are computed (so "
                "smoothing sees hyp_len orders) and an empty corpus raises ZeroDivisionError (NLTK 3.5)",
                ("keep", "drop"), "score"),
        _choice("nltk_method4", "halving", "NLTK method4 on zero-count orders: halving = 1/(2^k*K/ln L)/d "
                "(NLTK >= 3.6); index = (i + K/ln L)/d with i the 0-based order index (NLTK 3.5)",
                ("halving", "index"), "score"),
        _choice("weight_lists", "scores", "several weight tuples: scores = one score each (NLTK >= 3.6); "
                "error = TypeError unless nothing matches (NLTK 3.5)", ("scores", "error"), "score"),
        _choice("score_arithmetic", "weighted-logs", "the floating-point order of the final formula (the "
                "value's last bits): weighted-logs = (scale*BP)*exp(sum_n w_n*log(c_n/t_n)), added order by "
                "order; sacrebleu = BP*exp(sum_n log(scale*c_n/t_n) / N_eff), logs of the scaled precisions "
                "added order by order (uniform weights; other weights: weighted-logs); nltk = "
                "scale*(BP*exp(fsum_n w_n*log p_n)), the exactly rounded sum (math.fsum); d2l = "
                "scale*(BP*p_1^w_1*p_2^w_2*...), libm pow, multiplied order by order", SCORE_ARITHMETICS, "score"),
        Knob("chop_unterminated_last_line", False, "drop the last character of a file's last line when it "
             "has no trailing newline (multi-bleu-detok's chop); applies when reading files", parse_bool,
             stage="text", domain=Boolean()),
        _choice("scale", 100, "report on 0-100 (sacrebleu, multi-bleu) or 0-1 (NLTK, mteval, d2l)", (1, 100),
                "score", parse=parse_int),
        _choice("epsilon", "none", "coco = pycocoevalcap's BleuScorer: p_n = (correct+1e-15)/(total+1e-9) and "
                "ratio (c+1e-15)/(r+1e-9) for every order, no smoothing or zero rules, cumulative Bleu_1..N "
                "components (assay.metrics.bleu.score)", ("none", "coco"), "score"),
        _choice("resample_arithmetic", "float64", "arithmetic of resampled scores (significance): float64 = "
                "exact; float32 = sacrebleu 2.x, whose bootstrap sums each resample's statistics in float32 and "
                "whose corpus_score then computes the precisions in float32 (numpy's NEP 50 promotion)",
                ("float64", "float32"), "resample", "sacrebleu --paired-bs/--confidence (2.x)"),
    ),
    aliases=(
        Alias("smoothing", "NLTK SmoothingFunction().methodK", lambda v: {"smooth_method": _nltk_method(v)}),
        CASE_SENSITIVE,
        INTERNATIONAL_TOKENIZATION,
        Alias("no_smoothing", "mteval --no-smoothing: no smoothing, and an order without n-grams gives 0",
              lambda v: {"smooth_method": "none", "missing_order": "stop"} if parse_bool(v)
              else {"smooth_method": "exp", "missing_order": "one"}),
        Alias("brevity_penalty", "mteval --brevity-penalty closest|shortest", lambda v: {"ref_length": v}),
        Alias("use_effective_order", "sacrebleu 1.x name", lambda v: {"effective_order": v}),
    ),
    validate=_validate,
)
