"""METEOR's knobs, declared once: stage, domain, help.

Both algorithms keep, per segment, the statistics of the best-scoring reference, and the segment
score is part of the row: α, β, γ (and δ, the module weights) choose that reference, so they act
at the statistics stage like the matching knobs. Nothing is read only by the score stage. The
alignments they choose among depend on the matching knobs only and are kept per reference
(:mod:`assay.core.corpus_cache`), so a configuration that changes only α, β, γ, δ or the
weights re-scores those pairs instead of aligning the corpus again.

Domains: NLTK and the jar accept any number for α, β, γ, δ (the jar's ``-p``); only these ranges
mean what the formulas say. α ∈ [0, 1] weighs P against R in Fmean (1 − α must stay a weight);
β ≥ 0 and γ ∈ [0, 1] keep the penalty γ·frag^β within [0, 1] for frag = chunks/matches ≤ 1 (β < 0
or γ > 1 push it above 1: NLTK then returns a negative score, the jar clamps to 0); δ ∈ [0, 1]
splits the weight of content and function words; module weights are in [0, 1].
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from assay.core.domains import Boolean, choice, integer, path, predicate, real
from assay.core.errors import KnobError
from assay.core.knobs import Knob, KnobSet, parse_bool
from assay.metrics.meteor.meteor15.align import MODULES

ALGORITHMS = ("nltk", "meteor-1.5")
MAX_BEAM = 1000


def modules_problem(value: Any) -> str | None:
    """Why ``value`` is not a METEOR 1.5 module list (None when it is)."""
    if not isinstance(value, str):
        return f"must be a space-separated list of {', '.join(MODULES)}"
    names = value.split()
    if not names:
        return f"must be a space-separated list of {', '.join(MODULES)}: it is empty"
    bad = [n for n in names if n not in MODULES]
    if bad:
        return f"must be a space-separated list of {', '.join(MODULES)}: unknown module(s) {' '.join(bad)}"
    return None


def weights_problem(value: Any) -> str | None:
    """Why ``value`` is not a list of module weights in [0, 1] (None when it is)."""
    if not isinstance(value, str):
        return "must be space-separated numbers in [0, 1]"
    try:
        numbers = [float(x) for x in value.split()]
    except ValueError:
        return f"must be space-separated numbers in [0, 1]: {value!r} has a word that is not a number"
    if not numbers:
        return "must be space-separated numbers in [0, 1]: it is empty"
    if not all(math.isfinite(w) and 0.0 <= w <= 1.0 for w in numbers):
        return "must be space-separated numbers in [0, 1]"
    return None


def module_weights(modules: str, weights: str) -> tuple[float, ...]:
    """The weight of each of the four modules (0 for a module not listed): the listed modules take
    the listed weights in order, as the jar's ``-m`` and ``-w`` pair them."""
    mods = modules.split()
    ws = [float(x) for x in weights.split()]
    if len(ws) < len(mods):
        raise KnobError(f"meteor: weights: {len(mods)} modules need {len(mods)} weights, got {weights!r}")
    full = [0.0] * len(MODULES)
    for m, w in zip(mods, ws):
        full[MODULES.index(m)] = w
    return tuple(full)


def _validate(values: Mapping[str, Any]) -> None:
    """Combinations: at least one weight per listed module."""
    module_weights(values["modules"], values["weights"])


_PARAMETER_WHY = "NLTK and the jar accept any number; outside this range the formula loses its meaning"

KNOBS = KnobSet(
    knobs=(
        Knob("algorithm", "nltk", "which METEOR: nltk (meteor_score) or meteor-1.5 (the CMU jar, clean-room)",
             str, choices=ALGORITHMS, tool_names="nltk meteor_score / meteor-1.5.jar",
             stage="text", domain=choice(*ALGORITHMS)),
        Knob("alpha", 0.9, "weight of precision in Fmean = P·R/(α·P + (1−α)·R)", float,
             tool_names="nltk alpha / meteor-1.5 -p (1st)", stage="statistics",
             domain=real(0, 1, reason=_PARAMETER_WHY)),
        Knob("beta", 3.0, "fragmentation exponent: penalty = γ·(chunks/matches)^β", float,
             tool_names="nltk beta / meteor-1.5 -p (2nd)", stage="statistics",
             domain=real(0, None, reason=_PARAMETER_WHY)),
        Knob("gamma", 0.5, "fragmentation weight γ", float, tool_names="nltk gamma / meteor-1.5 -p (3rd)",
             stage="statistics", domain=real(0, 1, reason=_PARAMETER_WHY)),
        Knob("lowercase", True, "lowercase every token first (NLTK preprocess=str.lower); off = identity",
             parse_bool, tool_names="nltk preprocess", stage="text", domain=Boolean()),
        Knob("stem", True, "Porter-stem stage (NLTK PorterStemmer, NLTK_EXTENSIONS); the stems go on to "
             "the synonym stage", parse_bool, tool_names="nltk stemmer", stage="statistics", domain=Boolean()),
        Knob("synonyms", True, "WordNet 3.0 synonym stage (needs WordNet; off skips the stage explicitly)",
             parse_bool, tool_names="nltk wordnet", stage="statistics", domain=Boolean()),
        Knob("synonym_input", "stem-leftovers", "what the WordNet stage aligns: stem-leftovers = the stems of the "
             "words the stem stage left (NLTK 3.10.4); exact-leftovers = the words the exact stage left, stem-matched "
             "ones included, so a stem match can count again as a synonym match (NLTK 3.5: scores can exceed 1, "
             "nltk#2751)", str, choices=("stem-leftovers", "exact-leftovers"),
             tool_names="nltk wordnetsyn_match input", stage="statistics",
             domain=choice("stem-leftovers", "exact-leftovers")),
        Knob("stem_case", "lower", "stemmer on words that are not lowercase (lowercase=off): lower = lowercased "
             "first (NLTK 3.10.4); as-given = words of <= 2 characters kept as given and the irregular-form table "
             "looked up case-sensitively (NLTK 3.5)", str, choices=("lower", "as-given"),
             tool_names="nltk PorterStemmer.stem", stage="statistics", domain=choice("lower", "as-given")),
        Knob("morphy", "once", "WordNet lookup of a word: once = each morphy detachment rule applied once (NLTK "
             "3.10.4); iterate = rules re-applied round after round until a form is in the index (NLTK 3.5)", str,
             choices=("once", "iterate"), tool_names="nltk wordnet._morphy", stage="statistics",
             domain=choice("once", "iterate")),
        Knob("wordnet", "", "directory of the WordNet 3.0 database (index.noun, data.noun, noun.exc, ...); "
             "empty: $ASSAY_WORDNET, else /usr/share/wordnet", str, stage="statistics", domain=path("dir")),
        Knob("delta", 0.75, "meteor-1.5: weight of content words (function words 1−δ) in matches and lengths",
             float, tool_names="meteor-1.5 -p (4th)", stage="statistics",
             domain=real(0, 1, reason=_PARAMETER_WHY)),
        Knob("modules", "exact stem synonym paraphrase", "meteor-1.5: matching modules, in the jar's order",
             str, tool_names="meteor-1.5 -m", stage="statistics",
             domain=predicate(f"a space-separated list of {', '.join(MODULES)}", modules_problem)),
        Knob("weights", "1.0 0.6 0.8 0.6", "meteor-1.5: module weights (one per module)", str,
             tool_names="meteor-1.5 -w", stage="statistics",
             domain=predicate("space-separated numbers in [0, 1]", weights_problem)),
        Knob("norm", True, "meteor-1.5: -norm tokenisation/normalisation (off: lowercase and split on spaces)",
             parse_bool, tool_names="meteor-1.5 -norm / -lower", stage="text", domain=Boolean()),
        Knob("beam", 40, "meteor-1.5: alignment beam width", int, tool_names="meteor-1.5 -x", stage="statistics",
             domain=integer(1, MAX_BEAM, reason="the jar's default is 40; every state kept is expanded at each "
                                                "reference word, so wider beams only cost time")),
        Knob("language", "en", "meteor-1.5: language of the resources (function words, prefixes, paraphrases); "
             "assay reproduces the jar's English parameters, stemmer and synonyms only", str,
             tool_names="meteor-1.5 -l", stage="text", domain=choice("en")),
        Knob("resources_path", "", "meteor-1.5: directory holding meteor-1.5.jar and data/paraphrase-<lang>.gz "
             "(empty: $ASSAY_METEOR_DATA, else the installed pycocoevalcap)", str, stage="text",
             domain=path("dir")),
    ),
    validate=_validate,
)
