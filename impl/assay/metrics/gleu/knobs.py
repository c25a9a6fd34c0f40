"""GLEU's knobs, declared once: stage, domain, help.

Stages. Text: tokenisation and casing (shared with BLEU and NIST, :mod:`assay.text.knobs`).
Statistics: the n-gram orders counted (``min_ngram_order``..``max_ngram_order``, all orders pooled
into one count) and which reference a segment keeps (``multi_ref``). Score: ``averaging`` (every
row carries both its counts and its sentence score, so both aggregations share the rows) and
``scale``.

Domains. Orders are integers in ``[1, MAX_ORDER]`` with ``min_ngram_order <= max_ngram_order``:
NLTK also accepts ``min_len=0`` (it then counts the empty n-gram once per side, a quirk nobody
uses) and ``min_len > max_len`` (nothing is counted, every score is 0); both are refused here.
"""
from __future__ import annotations

from typing import Any, Mapping

from assay.core.domains import choice, integer
from assay.core.errors import KnobError
from assay.core.knobs import Alias, Knob, KnobSet
from assay.text.knobs import LOWERCASE, LOWERCASE_MODE, TOKENIZE, parse_int

MAX_ORDER = 100
_ORDER_REASON = "GLEU uses orders 1-4; longer n-grams only match in near-identical segments"
MULTI_REFS = ("best", "first")
AVERAGINGS = ("corpus", "segments")


def _validate(values: Mapping[str, Any]) -> None:
    """At least one order: ``min_ngram_order <= max_ngram_order``, both >= 1 (repeated here for
    configurations built without coercion: attribution, conform's probes)."""
    low, high = values["min_ngram_order"], values["max_ngram_order"]
    if low < 1 or high < 1:
        raise KnobError("gleu: min_ngram_order and max_ngram_order must be >= 1")
    if low > high:
        raise KnobError(f"gleu: min_ngram_order={low} > max_ngram_order={high}: no n-gram order is left "
                        "(NLTK scores 0 here)")


KNOBS = KnobSet(
    knobs=(
        TOKENIZE,
        LOWERCASE,
        LOWERCASE_MODE,
        Knob("min_ngram_order", 1, "lowest n-gram order counted", parse_int,
             tool_names="NLTK / HF evaluate min_len", stage="statistics",
             domain=integer(1, MAX_ORDER, reason=_ORDER_REASON)),
        Knob("max_ngram_order", 4, "highest n-gram order counted (all orders pooled into one count)", parse_int,
             tool_names="NLTK / HF evaluate max_len", stage="statistics",
             domain=integer(1, MAX_ORDER, reason=_ORDER_REASON)),
        Knob("multi_ref", "best", "several references: best = per segment the reference with the highest "
             "matches/total (first on ties; references with no n-gram on either side are ignored), as NLTK "
             "corpus_gleu; first = the segment's first reference (of the first stream that has one)", str, MULTI_REFS,
             stage="statistics", domain=choice(*MULTI_REFS)),
        Knob("averaging", "corpus", "corpus score: corpus = summed matches / summed totals (NLTK corpus_gleu, "
             "Wu et al.); segments = mean of the sentence scores", str, AVERAGINGS,
             stage="score", domain=choice(*AVERAGINGS)),
        Knob("scale", 1, "0-1 (NLTK, HF evaluate) or 0-100", int, (1, 100), stage="score", domain=choice(1, 100)),
    ),
    aliases=(
        Alias("min_len", "NLTK / HF evaluate min_len", lambda v: {"min_ngram_order": v}),
        Alias("max_len", "NLTK / HF evaluate max_len", lambda v: {"max_ngram_order": v}),
    ),
    validate=_validate,
)
