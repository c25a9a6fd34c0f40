"""chrF's knobs, declared once: stage, domain, help.

Stages. Text: how segments become the strings n-grams are taken from (case, whitespace, token
lists, missing references). Statistics: the orders counted, which hypothesis n-grams count, and
everything that chooses the reference kept per segment (``multi_ref=best`` keeps the reference
with the highest *sentence score*, so ``beta``, ``eps_smoothing`` and ``zero_division`` act there
too) or fills the sentence-score column of ``averaging=segments``. Score: ``scale`` and
``resample_arithmetic`` only.

Domains. Orders are bounded: chrF uses 6 character and 2 word orders, each order adds three
statistics columns per segment, and n-grams longer than :data:`MAX_ORDER` only match in
near-identical segments. ``beta`` is any finite number in ``[0, MAX_BETA]``: ``beta = 0`` is
F = P (the tools accept it), and ``(1 + beta²) P R / (beta² P + R)`` overflows once ``1 + beta²``
leaves the float range, at ``beta ≥ 2^64 ≈ 1.84e19`` in float32 (sacrebleu's resampling
arithmetic) and ``beta > sqrt(DBL_MAX) ≈ 1.34e154`` in float64 (``beta=1e308`` would give NaN).
Below ``1e19`` nothing overflows, and at ``1e19`` F_beta already equals R to a relative 1e-22
(for any ``P >= eps``): larger values could not change a score.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from assay.core.domains import Boolean, choice, integer, real
from assay.core.errors import KnobError
from assay.core.knobs import Alias, Knob, KnobSet, parse_bool

MAX_ORDER = 100
MAX_BETA = 1e19
ARITHMETICS = ("float64", "float32")
WHITESPACE_SETS = ("isspace", "white_space", "space")
ZERO_DIVISIONS = ("sacrebleu", "nltk", "zero")
MISSING_REFS = ("skip", "ignore", "EOFError", "TypeError")
_ORDER_REASON = "chrF uses 6 character and 2 word orders; each order adds three statistics columns"


def parse_beta(value: Any) -> int | float:
    """An int when written as one (sacrebleu names the metric ``chrF{beta}``: ``chrF2`` vs ``chrF2.0``)."""
    if isinstance(value, bool):
        raise ValueError(f"beta must be a number, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        value = int(text) if text.lstrip("+-").isdigit() else float(text)
    if isinstance(value, (int, np.integer)):
        number = int(value)
        float(number)            # OverflowError (reported by Knob.coerce) for ints beyond the float range
        return number
    return float(value)


def _validate(values: Mapping[str, Any]) -> None:
    """Combinations: at least one order, and a non-empty character order range. (The lower bounds
    are repeated here for configurations built without coercion: attribution, conform's probes.)"""
    if values["char_order"] < 0 or values["word_order"] < 0:
        raise KnobError("char_order and word_order must be >= 0")
    if values["min_char_order"] < 1:
        raise KnobError("min_char_order must be >= 1")
    if values["beta"] < 0:
        raise KnobError("beta must be >= 0")
    if values["char_order"] and values["min_char_order"] > values["char_order"]:
        raise KnobError(f"min_char_order={values['min_char_order']} > char_order={values['char_order']}: "
                        "no character order is left (NLTK divides by zero here)")
    if values["char_order"] == 0 and values["word_order"] == 0:
        raise KnobError("chrF needs at least one order: char_order and word_order are both 0")


KNOBS = KnobSet(
    knobs=(
        Knob("char_order", 6, "highest character n-gram order (0: none, word orders only)", int,
             tool_names="sacrebleu char_order/--chrf-char-order; 1.x order/--chrf-order; NLTK max_len",
             stage="statistics", domain=integer(0, MAX_ORDER, reason=_ORDER_REASON)),
        Knob("min_char_order", 1, "lowest character n-gram order", int, tool_names="NLTK min_len",
             stage="statistics", domain=integer(1, MAX_ORDER, reason=_ORDER_REASON)),
        Knob("word_order", 0, "highest word n-gram order (chrF++: 2)", int,
             tool_names="sacrebleu word_order/--chrf-word-order",
             stage="statistics", domain=integer(0, MAX_ORDER, reason=_ORDER_REASON)),
        Knob("beta", 2, "recall weight of F_beta", parse_beta, tool_names="sacrebleu beta; NLTK beta (3)",
             stage="statistics",
             domain=real(0, MAX_BETA, reason="1 + beta² overflows float32 from beta = 2^64 ≈ 1.84e19")),
        Knob("lowercase", False, "lowercase hypotheses and references (str.lower)", parse_bool,
             tool_names="sacrebleu lowercase/--chrf-lowercase", stage="text", domain=Boolean()),
        Knob("whitespace", False, "keep whitespace in character n-grams", parse_bool,
             tool_names="sacrebleu whitespace; 1.x not remove_whitespace; NLTK not ignore_whitespace",
             stage="text", domain=Boolean()),
        Knob("whitespace_set", "isspace", "characters deleted when whitespace is off: isspace = str.isspace, "
             "as str.split (sacrebleu, NLTK 3.5); white_space = the Unicode White_Space property, which keeps "
             "U+001C..U+001F (NLTK 3.10); space = str.isspace at both ends (str.strip), only U+0020 inside, so "
             "tabs, newlines and no-break spaces between words stay characters (torchmetrics)", str,
             WHITESPACE_SETS, stage="text", domain=choice(*WHITESPACE_SETS)),
        Knob("eps_smoothing", False, "F per order with eps for undefined parts, mean over all orders "
             "(eff:no); off = P and R averaged over effective orders, then one F (eff:yes)", parse_bool,
             tool_names="sacrebleu eps_smoothing/--chrf-eps-smoothing", stage="statistics", domain=Boolean()),
        Knob("zero_division", "sacrebleu", "with eps_smoothing, which parts become eps: sacrebleu = P if no hyp "
             "n-grams, R if no ref n-grams, F if its denominator is 0; nltk = P, R and F when any count is 0; "
             "zero = none: P is 0 without hyp n-grams, R 0 without ref n-grams, F's denominator is floored at "
             "eps, so an undefined order adds 0 (torchmetrics)",
             str, ZERO_DIVISIONS, stage="statistics", domain=choice(*ZERO_DIVISIONS)),
        Knob("hyp_count_without_ref", "zero", "hypothesis n-grams of an order the reference has none of: zero = "
             "not counted (sacrebleu 2.x), keep = counted (sacrebleu 1.x, NLTK, torchmetrics)", str,
             ("zero", "keep"),
             stage="statistics", domain=choice("zero", "keep")),
        Knob("multi_ref", "best", "several references: best = per segment the reference with the highest "
             "sentence score, first wins ties (sacrebleu 2.x); first = only the first stream (sacrebleu 1.x)",
             str, ("best", "first"), stage="statistics", domain=choice("best", "first")),
        Knob("missing_ref", "skip", "a missing (None) reference: skip = ignored, a segment without any fails "
             "like sacrebleu 2.x (ValueError for a one-segment corpus, else IndexError); ignore = ignored, a "
             "segment without any counts its hypothesis n-grams only (torchmetrics); EOFError / TypeError = "
             "the tool fails on any (sacrebleu 1.x / NLTK)", str, MISSING_REFS,
             stage="text", domain=choice(*MISSING_REFS)),
        Knob("zero_score_ref", "keep", "a segment whose every reference has sentence chrF 0: keep = the "
             "statistics of its first reference enter the corpus sums (sacrebleu); drop = none do, the segment "
             "adds its hypothesis n-grams only (torchmetrics keeps a reference only when its score is above 0, "
             "even when there is one)", str, ("keep", "drop"),
             stage="statistics", domain=choice("keep", "drop")),
        Knob("averaging", "corpus", "corpus score: corpus = from the summed statistics (sacrebleu); "
             "segments = mean of the sentence scores (NLTK corpus_chrf)", str, ("corpus", "segments"),
             stage="statistics", domain=choice("corpus", "segments")),
        Knob("token_lists", "error", "token-list input: error = strings only (sacrebleu); join = joined with "
             "one space (NLTK)", str, ("error", "join"), stage="text", domain=choice("error", "join")),
        Knob("scale", 100, "0-100 (sacrebleu 2.x) or 0-1 (sacrebleu 1.x, NLTK)", int, (1, 100),
             stage="score", domain=choice(1, 100)),
        Knob("resample_arithmetic", "float64", "how bootstrap resamples are summed and scored: float64 = exact "
             "sums, float64 arithmetic; float32 = sacrebleu 2.x's bootstrap, which sums each resample in "
             "float32 and scores those sums in float32 under NumPy's NEP 50 rules (Python-float constants "
             "stay float64 until they meet a float32)", str, ARITHMETICS, tool_names="sacrebleu --confidence/--paired-bs (2.x)",
             stage="resample", domain=choice(*ARITHMETICS)),
    ),
    aliases=(
        Alias("order", "sacrebleu 1.x order", lambda v: {"char_order": v}),
        Alias("max_len", "NLTK max_len", lambda v: {"char_order": v}),
        Alias("min_len", "NLTK min_len", lambda v: {"min_char_order": v}),
        Alias("remove_whitespace", "sacrebleu 1.x remove_whitespace", lambda v: {"whitespace": not parse_bool(v)}),
        Alias("ignore_whitespace", "NLTK ignore_whitespace", lambda v: {"whitespace": not parse_bool(v)}),
    ),
    validate=_validate,
)
