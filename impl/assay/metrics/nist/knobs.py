"""NIST's knobs, declared once: stage, domain, help.

Tokenisation and casing are the n-gram families' shared text-stage knobs
(:mod:`assay.text.knobs`). ``max_ngram_order``, ``multi_ref`` and ``ref_length`` decide what a row
holds (statistics stage: the info sums, the chosen reference, the penalty accumulators);
``empty_order`` only decides how summed rows become a number (score stage).
"""
from __future__ import annotations

from typing import Any, Mapping

from assay.core.domains import choice, integer
from assay.core.errors import KnobError
from assay.core.knobs import Alias, Knob, KnobSet
from assay.text.knobs import (CASE_SENSITIVE, INTERNATIONAL_TOKENIZATION, LOWERCASE, LOWERCASE_MODE, TOKENIZE,
                              parse_int)

MAX_ORDER = 100


def _validate(values: Mapping[str, Any]) -> None:
    if values["max_ngram_order"] < 1:
        raise KnobError("max_ngram_order must be at least 1")
    if values["multi_ref"] == "union" and values["ref_length"] == "chosen":
        raise KnobError("ref_length='chosen' uses the length of the reference chosen per order, but "
                        "multi_ref='union' clips against all references at once and chooses none; use "
                        "multi_ref='best-single' (NLTK) or ref_length='average' (mteval)")


KNOBS = KnobSet(
    knobs=(
        TOKENIZE,
        LOWERCASE,
        LOWERCASE_MODE,
        Knob("max_ngram_order", 5, "highest n-gram order N", parse_int, tool_names="NLTK n; mteval scores n <= 5",
             stage="statistics",
             domain=integer(1, MAX_ORDER, reason="NIST uses n <= 5; higher orders only add columns and time")),
        Knob("multi_ref", "union", "several references: union = clip by the max count over all references "
             "(mteval); best-single = per order the single best reference (NLTK)", str,
             ("union", "best-single"), stage="statistics", domain=choice("union", "best-single")),
        Knob("ref_length", "average", "penalty's reference length: average = reference words / #refs "
             "(mteval); chosen = the per-order chosen reference's length, once per order (NLTK); "
             "corpus-mean = all reference words / the mean number of non-empty references per segment "
             "(e2e-metrics' mteval-v13a-sig.pl, whose missing references are empty segments)", str,
             ("average", "chosen", "corpus-mean"), stage="statistics",
             domain=choice("average", "chosen", "corpus-mean")),
        Knob("empty_order", "zero", "an order without hypothesis n-grams: zero = divide by max(count, 1) "
             "(mteval); error = ZeroDivisionError (NLTK)", str, ("zero", "error"),
             stage="score", domain=choice("zero", "error")),
    ),
    aliases=(CASE_SENSITIVE, INTERNATIONAL_TOKENIZATION,
             Alias("n", "NLTK corpus_nist/sentence_nist n", lambda v: {"max_ngram_order": v})),
    validate=_validate,
)
