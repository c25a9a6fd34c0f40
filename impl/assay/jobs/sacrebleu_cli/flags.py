"""The one table of sacrebleu 2.6.0's score-changing flags: option -> (metric, knob).

Every flag of ``sacrebleu`` that changes a score names one knob of one assay family; the
``assay sacrebleu`` parser (:mod:`assay.cli.sacrebleu`) adds these options from :data:`KNOB_FLAGS`
and :func:`metric_knobs` turns the parsed values into each metric's knob settings. A flag the user
did not give leaves the profile's value (:func:`profile_for`: sacrebleu 2.6.0's defaults, i.e.
``bleu/sacrebleu``, ``chrf/sacrebleu``, ``ter/sacrebleu``).

sacrebleu's own rules reproduced here (found by running it):

- ``-tok`` unset: the target language of ``-l SRC-TGT`` picks the BLEU tokenizer (``zh`` -> zh,
  ``ja`` -> ja-mecab, ``ko`` -> ko-mecab), else 13a (:func:`default_tokenizer`).
- ``-sv`` counts only for ``-s floor`` / ``-s add-k`` (the signature then reads ``floor[0.10]``);
  with ``exp`` or ``none`` it is ignored.
- ``-lc`` is BLEU's alone (chrF has ``--chrf-lowercase``; TER is case-insensitive unless
  ``--ter-case-sensitive``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

from assay.core.errors import KnobError
from assay.profiles.registry import get_profile, profiles_of

#: the metrics sacrebleu's ``-m`` accepts, in the order it scores and prints them
METRICS = ("bleu", "chrf", "ter")
#: the profiles used: the ones that print sacrebleu 2.x signatures, of this version
GRAMMAR, TOOL_VERSION = "sacrebleu2", "2.6.0"


@lru_cache(maxsize=None)
def profile_for(metric: str) -> str:
    """The profile reproducing sacrebleu 2.6.0's defaults for ``metric``, read from the profiles' data
    (signature grammar and tool version): the metric's default profile when it is one of them (chrF:
    chrF2, not chrF++), else the first."""
    candidates = [p for p in profiles_of(metric) if p.signature_grammar == GRAMMAR and TOOL_VERSION in p.tool_versions]
    if not candidates:
        raise KnobError(f"no {metric} profile reproduces sacrebleu {TOOL_VERSION}")
    default = get_profile(metric, None)
    return default.name if default in candidates else candidates[0].name

#: sacrebleu's ``-tok`` choices (2.6.0); the ones assay has no tokenizer for are refused (:data:`UNAVAILABLE`)
TOKENIZERS = ("none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200",
              "spBLEU-1K")

#: tokenizers that need a SentencePiece model sacrebleu downloads, or a tokenizer assay does not reproduce
UNAVAILABLE = {
    "spm": "needs the flores101 SentencePiece model, which sacrebleu downloads (network); not reproduced",
    "flores101": "needs a SentencePiece model that sacrebleu downloads (network); not reproduced",
    "flores200": "needs a SentencePiece model that sacrebleu downloads (network); not reproduced",
    "spBLEU-1K": "needs a SentencePiece model that sacrebleu downloads (network); not reproduced",
    "ko-mecab": "sacrebleu's Korean MeCab tokenizer (mecab-ko) is not reproduced by assay",
}

#: ``-l SRC-TGT``: the BLEU tokenizer sacrebleu picks for a target language when ``-tok`` is not given
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
DEFAULT_TOKENIZER = "13a"


def _smooth_value(value: Any, values: Mapping[str, Any]) -> Any:
    """``-sv`` only reaches the knob for the methods that read it (sacrebleu ignores it otherwise)."""
    return value if values.get("smooth_method") in ("floor", "add-k") else None


@dataclass(frozen=True)
class Flag:
    """One sacrebleu option: its spellings, its argparse settings, the knob it sets and its group."""

    options: tuple[str, ...]
    dest: str
    metric: str
    knob: str
    group: str
    help: str
    kwargs: dict[str, Any] = field(default_factory=dict)
    #: ``convert(value, values)``: the knob's value from the option's (``values``: every parsed option)
    convert: Callable[[Any, Mapping[str, Any]], Any] | None = None


_FLAG = {"action": "store_true", "default": None}
BLEU, CHRF, TER = ("BLEU related arguments", "chrF related arguments",
                   "TER related arguments (The defaults replicate TERCOM's behavior)")

#: every score-changing flag of sacrebleu 2.6.0, in its ``--help`` order
KNOB_FLAGS: tuple[Flag, ...] = (
    Flag(("--smooth-method", "-s"), "smooth_method", "bleu", "smooth_method", BLEU,
         "Smoothing method (Default: exp)", {"choices": ("none", "floor", "add-k", "exp")}),
    Flag(("--smooth-value", "-sv"), "smooth_value", "bleu", "smooth_value", BLEU,
         "The smoothing value, for floor and add-k (Defaults: floor: 0.1, add-k: 1)",
         {"type": float, "metavar": "BLEU_SMOOTH_VALUE"}, _smooth_value),
    Flag(("--tokenize", "-tok"), "tokenize", "bleu", "tokenize", BLEU,
         "Tokenization method for BLEU (Default: zh, ja-mecab, ko-mecab by the -l target, else 13a)",
         {"choices": TOKENIZERS}),
    Flag(("--lowercase", "-lc"), "lowercase", "bleu", "lowercase", BLEU,
         "Case-insensitive BLEU (Default: False)", _FLAG),
    Flag(("--chrf-char-order", "-cc"), "chrf_char_order", "chrf", "char_order", CHRF,
         "Character n-gram order (Default: 6)", {"type": int}),
    Flag(("--chrf-word-order", "-cw"), "chrf_word_order", "chrf", "word_order", CHRF,
         "Word n-gram order (Default: 0; 2 is chrF++)", {"type": int}),
    Flag(("--chrf-beta",), "chrf_beta", "chrf", "beta", CHRF,
         "Importance of recall w.r.t. precision (Default: 2)", {"type": int}),
    Flag(("--chrf-whitespace",), "chrf_whitespace", "chrf", "whitespace", CHRF,
         "Include whitespace in character n-grams (Default: False)", _FLAG),
    Flag(("--chrf-lowercase",), "chrf_lowercase", "chrf", "lowercase", CHRF,
         "Case-insensitive chrF (Default: False)", _FLAG),
    Flag(("--chrf-eps-smoothing",), "chrf_eps_smoothing", "chrf", "eps_smoothing", CHRF,
         "Epsilon smoothing as chrF++.py, NLTK and Moses (Default: False)", _FLAG),
    Flag(("--ter-case-sensitive",), "ter_case_sensitive", "ter", "case_sensitive", TER,
         "Case-sensitive TER (Default: False)", _FLAG),
    Flag(("--ter-asian-support",), "ter_asian_support", "ter", "asian_support", TER,
         "Special treatment of Asian characters (Default: False)", _FLAG),
    Flag(("--ter-no-punct",), "ter_no_punct", "ter", "no_punct", TER,
         "Remove punctuation (Default: False)", _FLAG),
    Flag(("--ter-normalized",), "ter_normalized", "ter", "normalized", TER,
         "Basic normalization and tokenization (Default: False)", _FLAG),
)


def target_language(langpair: str | None) -> str | None:
    """The target of ``-l SRC-TGT`` (``None`` without ``-l``); anything else is a KnobError."""
    if langpair is None:
        return None
    src, sep, tgt = langpair.partition("-")
    if not sep or not src or not tgt or "-" in tgt:
        raise KnobError(f"-l/--language-pair expects SRC-TGT (e.g. en-de), got {langpair!r}")
    return tgt


def default_tokenizer(langpair: str | None) -> str:
    """sacrebleu's BLEU tokenizer when ``-tok`` is not given: by the ``-l`` target language, else 13a."""
    return LANGUAGE_TOKENIZERS.get(target_language(langpair) or "", DEFAULT_TOKENIZER)


def metric_knobs(metric: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The knob settings of ``metric`` from the parsed options ``values`` (dest -> value; ``None`` =
    not given): one entry per :data:`KNOB_FLAGS` flag of that metric, plus BLEU's tokenizer default."""
    knobs: dict[str, Any] = {}
    for flag in KNOB_FLAGS:
        if flag.metric != metric:
            continue
        value = values.get(flag.dest)
        if flag.convert is not None and value is not None:
            value = flag.convert(value, values)
        if value is not None:
            knobs[flag.knob] = value
    if metric == "bleu":
        tok = knobs.setdefault("tokenize", default_tokenizer(values.get("langpair")))
        if tok in UNAVAILABLE:
            given = f"-tok {tok}" if values.get("tokenize") else f"-l {values.get('langpair')} (BLEU tokenizer {tok})"
            raise KnobError(f"{given}: {UNAVAILABLE[tok]}; pass -tok 13a, intl, zh, char, none or ja-mecab")
    return knobs
