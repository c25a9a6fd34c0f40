"""CIDEr's knobs, declared once: stage, domain, help.

Every knob is read while the per-image rows are computed (the rows hold the scaled per-image
scores, so even ``scale`` acts there): text stage for how captions become tokens, statistics
stage for the rest. The corpus score is the mean of the rows' ``cider`` column.
"""
from __future__ import annotations

from typing import Any

from assay.core.domains import Boolean, choice, integer, optional, predicate, real
from assay.core.knobs import Knob, KnobSet, parse_bool, parse_optional_float
from assay.metrics.cider.idf import idf_corpus_problem
from assay.metrics.cider.tokens import PTB
from assay.tokenizers import TOKENIZER_NAMES

TOKENIZE_CHOICES: tuple[str, ...] = tuple(dict.fromkeys(TOKENIZER_NAMES + (PTB,)))
LOWERCASE_MODES = ("unicode", "perl", "ascii")
MAX_ORDER = 100


def parse_optional_str(value: Any) -> str | None:
    """``None`` for an absent value (None, empty, ``none``, ``default``), else the stripped text."""
    if value is None:
        return None
    text = str(value).strip()
    return None if text.lower() in ("", "none", "default") else text


KNOBS = KnobSet(
    knobs=(
        Knob("tokenize", "none", "tokenizer: none = str.split() of captions the caller already tokenised "
             "(pycocoevalcap's Cider scorer); ptb = pycocoevalcap's PTBTokenizer first (COCOEvalCap)",
             str, TOKENIZE_CHOICES, stage="text", domain=choice(*TOKENIZE_CHOICES)),
        Knob("lowercase", False, "lowercase captions before tokenising", parse_bool,
             stage="text", domain=Boolean()),
        Knob("lowercase_mode", "unicode", "unicode = str.lower(); perl; ascii", str, LOWERCASE_MODES,
             stage="text", domain=choice(*LOWERCASE_MODES)),
        Knob("max_ngram_order", 4, "highest n-gram order N", int, tool_names="pycocoevalcap Cider n",
             stage="statistics",
             domain=integer(1, MAX_ORDER, reason="CIDEr uses n <= 4; higher orders only add columns and time")),
        Knob("clipping", True, "CIDEr-D clipping: sum min(h_g, r_g) * r_g (false: the dot product h . r)",
             parse_bool, stage="statistics", domain=Boolean()),
        Knob("length_penalty_sigma", 6.0, "Gaussian length penalty exp(-(len_h-len_r)^2/(2 sigma^2)); "
             "none = no penalty", parse_optional_float, tool_names="pycocoevalcap CiderScorer sigma",
             stage="statistics", domain=optional(real(0, None, low_open=True))),
        Knob("length_unit", "bigrams", "length in the penalty: bigrams (pycocoevalcap: #bigrams = words-1) "
             "or words (the CIDEr-D paper's l(c))", str, ("bigrams", "words"),
             stage="statistics", domain=choice("bigrams", "words")),
        Knob("scale", 10.0, "factor on the score (CIDEr-D: 10; original CIDEr: 1); applied to each image's "
             "row", float, stage="statistics", domain=real(0, None, low_open=True)),
        Knob("no_reference_ngrams", "error", "no reference of the corpus has an n-gram (all empty): error = the "
             "tool's ValueError (pycocoevalcap and vrama91 take max() of an empty df table); zero = score 0",
             str, ("error", "zero"), stage="statistics", domain=choice("error", "zero")),
        Knob("idf_corpus", None, "document frequencies from a fixed reference set instead of the evaluated "
             "references (NOT the toolkit's behaviour): a df JSON, a captions JSON/text file, or a name in "
             "$ASSAY_IDF_DIR", parse_optional_str, stage="statistics",
             domain=predicate("none or a readable file (a df JSON, a captions JSON or text file, or a name "
                              "in $ASSAY_IDF_DIR)", idf_corpus_problem)),
    ),
)
