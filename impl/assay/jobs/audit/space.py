"""The configuration space of a metric: every profile and the knobs users vary in practice.

A :class:`Candidate` is one way a published number could have been produced: a profile (the
tool), the knobs changed from that profile's defaults, the reference subset (each single
reference, all, or all with empty lines treated as missing), the input preprocessing (raw,
Moses-tokenised, Moses + ``##AT##-##AT##`` compound splitting ...), the reported measure (ROUGE
P/R/F) and the presentation scale (0-1 vs 0-100 for families without a ``scale`` knob).

Ranking: every departure from the tool's defaults costs ``DEPARTURE_COST`` unless a commonness
prior says otherwise (``VALUE_COST``); each profile has a prior cost (``PROFILE_COST``: sacrebleu
is the most common tool). The best explanation is the candidate with the lowest total cost, then
the fewest departures. The numbers are a judgement from how scores are reported in practice
(sacrebleu defaults dominate MT since 2018; multi-bleu.perl on tokenised text before it; NLTK in
data-to-text and captioning code; rouge-score for summarisation).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from assay.profiles.registry import get_profile, profiles_of

DEPARTURE_COST = 1.0
PROFILE_COST: dict[tuple[str, str], float] = {
    ("bleu", "sacrebleu"): 0.0, ("bleu", "multi-bleu"): 0.4, ("bleu", "sacrebleu@1"): 0.6,
    ("bleu", "nltk"): 0.7, ("bleu", "multi-bleu-detok"): 0.9, ("bleu", "mteval-v13a"): 1.0,
    ("bleu", "mteval-v14"): 1.2, ("bleu", "coco"): 1.0, ("bleu", "nltk@3.5"): 1.3, ("bleu", "d2l"): 2.0,
    ("bleu", "d2l@2021"): 2.5,
    ("chrf", "sacrebleu"): 0.0, ("chrf", "sacrebleu-chrf++"): 0.0, ("chrf", "sacrebleu@1"): 0.6,
    ("chrf", "nltk"): 0.9, ("chrf", "nltk@3.5"): 1.3,
    ("ter", "sacrebleu"): 0.0, ("ter", "sacrebleu@1"): 0.6,
    ("rouge", "rouge-score"): 0.0, ("rouge", "rouge-1.5.5"): 0.3, ("rouge", "coco"): 0.8,
    ("meteor", "meteor-1.5"): 0.0, ("meteor", "nltk"): 0.5, ("meteor", "nltk@3.6"): 0.9,
    ("cider", "coco"): 0.0, ("cider", "vedantam2015"): 1.0, ("cider", "vrama91"): 1.0,
    ("nist", "mteval-v13a"): 0.0, ("nist", "mteval-v14"): 0.2, ("nist", "nltk"): 0.7,
}
#: commonness of particular departures (lower = more common); anything else costs DEPARTURE_COST
VALUE_COST: dict[tuple[str, str, Any], float] = {
    ("bleu", "tokenize", "intl"): 0.9, ("bleu", "tokenize", "none"): 0.7, ("bleu", "tokenize", "zh"): 0.8,
    ("bleu", "tokenize", "char"): 0.9, ("bleu", "tokenize", "13a"): 0.6, ("bleu", "lowercase", True): 0.8,
    ("bleu", "lowercase", False): 0.8, ("bleu", "effective_order", True): 1.1,
    ("bleu", "smooth_method", "none"): 1.0, ("bleu", "smooth_method", "floor"): 1.3,
    ("bleu", "smooth_method", "add-k"): 1.3, ("bleu", "smooth_method", "exp"): 0.8,
    ("bleu", "scale", 1): 0.7, ("bleu", "scale", 100): 0.5,
    ("chrf", "word_order", 2): 0.5, ("chrf", "scale", 1): 0.7, ("chrf", "scale", 100): 0.5,
    ("chrf", "beta", 3): 0.8, ("chrf", "beta", 2): 0.8, ("chrf", "eps_smoothing", True): 1.1,
    ("ter", "scale", 1): 0.6, ("ter", "scale", 100): 0.5, ("ter", "case_sensitive", True): 0.8,
    ("rouge", "stemmer", "porter-nltk"): 0.4, ("rouge", "stemmer", "rouge155"): 0.4,
}
REFS_COST = {"all": 0.0, "reordered": 0.3, "single": 0.6, "empty-missing": 0.8}
CAPTION_PREP_METRICS = ("bleu", "rouge", "meteor")
PREP_COST = {"ptb": 0.2, "raw": 0.0, "moses": 0.8, "moses-a": 1.0, "moses+compound": 0.9, "compound": 0.9}
DISPLAY_COST = 0.5          # ×100 / ÷100 applied by the reader of the score, not the tool
MEASURE_COST = {"f": 0.0, "r": 0.6, "p": 1.2}


@dataclass(frozen=True)
class RefSubset:
    """Which reference streams a configuration reads: ``indices`` into the given streams."""

    name: str                      # "all", "ref2", "all/empty-missing", "all/reversed", ...
    indices: tuple[int, ...]
    empty_missing: bool = False

    @property
    def kind(self) -> str:
        if self.empty_missing:
            return "empty-missing"
        if self.name.startswith("ref"):
            return "single"
        return "reordered" if list(self.indices) != sorted(self.indices) else "all"


@dataclass(frozen=True)
class Candidate:
    """One configuration of the space (see the module docstring)."""

    metric: str
    profile: str
    knobs: tuple[tuple[str, Any], ...]       # departures from the profile, sorted by name
    refs: RefSubset
    prep: str = "raw"
    measure: str | None = None               # ROUGE: p / r / f of the first type
    display: float = 1.0                     # factor applied to the tool's value (×100, ÷100)
    cost: float = 0.0
    departures: int = 0
    standard: bool = False                   # the community-recommended configuration

    @property
    def knob_dict(self) -> dict[str, Any]:
        return dict(self.knobs)

    @property
    def evaluator_key(self) -> tuple[str, str]:
        return (self.refs.name, self.prep)

    def label(self) -> str:
        parts = [f"{self.metric}/{self.profile}"]
        parts += [f"{k}={_show(v)}" for k, v in self.knobs]
        if self.measure not in (None, "f"):
            parts.append(f"measure={self.measure}")
        if self.refs.name != "all":
            parts.append(f"refs={self.refs.name}")
        if self.prep != "raw":
            parts.append(f"input={self.prep}")
        if self.display != 1.0:
            parts.append("×100" if self.display > 1 else "÷100")
        return " ".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ",".join(_show(v) for v in value)
    return str(value)


def knob_cost(metric: str, name: str, value: Any) -> float:
    return VALUE_COST.get((metric, name, value), DEPARTURE_COST)


#: with image captions, COCOEvalCap's PTB tokenisation is the norm and raw text the departure
CAPTION_PREP_COST = {"ptb": 0.0, "raw": 0.3}
CAPTION_VALUE_COST = {("cider", "tokenize", "ptb"): 0.0}
#: knobs a claim's metric name fixes (BLEU-1, chrF2, ROUGE-L ...): not departures
IMPLIED_KNOBS = ("max_ngram_order", "weights", "beta", "word_order", "types", "clipping")


def make_candidate(metric: str, profile: str, knobs: dict[str, Any], refs: RefSubset, prep: str = "raw",
                   measure: str | None = None, display: float = 1.0, standard: bool = False,
                   captions: bool = False, implied: Sequence[str] = ()) -> Candidate:
    """A candidate with its departures from the profile counted and its cost computed; knobs in
    ``implied`` (fixed by the claim's metric name) are not departures."""
    base = get_profile(metric, profile).knobs
    departed = tuple(sorted((k, v) for k, v in knobs.items() if k not in base or base[k] != v))
    counted = [(k, v) for k, v in departed if k not in implied]
    cost = PROFILE_COST.get((metric, profile), 1.5)
    values = {**VALUE_COST, **CAPTION_VALUE_COST} if captions else VALUE_COST
    cost += sum(values.get((metric, k, v), DEPARTURE_COST) for k, v in counted)
    preps = {**PREP_COST, **CAPTION_PREP_COST} if captions else PREP_COST
    cost += REFS_COST[refs.kind] + preps.get(prep, 1.0) + MEASURE_COST.get(measure or "f", 1.0)
    cost += DISPLAY_COST if display != 1.0 else 0.0
    normal_prep = "ptb" if captions and prep in ("ptb", "raw") and metric in CAPTION_PREP_METRICS else "raw"
    departures = len(counted) + (refs.kind != "all") + (prep != normal_prep) + ((measure or "f") != "f") + \
        (display != 1.0)
    return Candidate(metric, profile, departed, refs, prep, measure, display, round(cost, 6), departures, standard)


# ----------------------------------------------------------------------------- reference subsets
#: metrics whose multi-reference score depends on the order of the reference files (sacrebleu chrF
#: keeps the first of equally good references, with its own statistics)
ORDER_SENSITIVE_METRICS = ("chrf",)


def ref_subsets(n_streams: int, has_empty: bool, single: bool = True, reorder: bool = False) -> list[RefSubset]:
    """all references; all in reverse file order (multi-reference chrF breaks ties between references by
    order, so WMT22's two-reference chrF needs B, A); each single reference (when there are several);
    all with empty lines missing."""
    out = [RefSubset("all", tuple(range(n_streams)))]
    if reorder and n_streams > 1:
        out.append(RefSubset("all/reversed", tuple(reversed(range(n_streams)))))
    if single and n_streams > 1:
        out += [RefSubset(f"ref{i + 1}", (i,)) for i in range(n_streams)]
    if has_empty:
        out.append(RefSubset("all/empty-missing", tuple(range(n_streams)), True))
    return out


# ----------------------------------------------------------------------------- knob grids per family
def _grid(**axes: Sequence[Any]) -> Iterator[dict[str, Any]]:
    names = list(axes)
    for values in itertools.product(*(axes[n] for n in names)):
        yield dict(zip(names, values))


SACREBLEU_TOKENIZERS = ("13a", "intl", "none", "zh", "char")
RAW_PREP = ("raw",)
TOKENISED_PREPS = ("moses", "moses+compound", "compound")
ALL_TOKENISED_PREPS = ("moses", "moses-a", "moses+compound", "compound")


#: BLEU profiles tried on a reference subset other than "all" (unless thorough)
SUBSET_BLEU_PROFILES = ("sacrebleu", "sacrebleu@1", "multi-bleu", "nltk", "coco")


def bleu_grids(constraints: dict[str, Any], prep: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(profile, knobs) pairs for BLEU. On pre-tokenised input only whitespace-splitting tools."""
    order = constraints.get("max_ngram_order")
    extra = {"max_ngram_order": order} if order else {}
    raw = prep == "raw"
    toks = SACREBLEU_TOKENIZERS if raw else ("none",)
    for prof in ("sacrebleu", "sacrebleu@1"):
        for g in _grid(tokenize=toks, lowercase=(False, True), smooth_method=("exp", "none", "floor", "add-k"),
                       effective_order=(False, True), scale=(100, 1)):
            yield prof, {**g, **extra}
    for g in _grid(lowercase=(False, True), scale=(100, 1)):
        yield "multi-bleu", {**g, **extra}
        if raw:
            yield "multi-bleu-detok", {**g, **extra}
    nltk_smooth = ("float-min", "floor", "add-k", "exp", "nltk-method4")
    nltk_weights = {"weights": tuple([1.0 / order] * order), "max_ngram_order": order} if order else {}
    for g in _grid(smooth_method=nltk_smooth, lowercase=(False, True), scale=(1, 100)):
        yield "nltk", {**g, "tokenize": "none", **nltk_weights}
    if raw:   # methods 5-7 read extra 5-gram columns (their own statistics): cased raw text only
        for g in _grid(smooth_method=("nltk-method5", "nltk-method6", "nltk-method7"), scale=(1, 100)):
            yield "nltk", {**g, "tokenize": "none", **nltk_weights}
    for g in _grid(smooth_method=("float-min", "add-k", "nltk-method4"), scale=(1, 100)):
        yield "nltk@3.5", {**g, **nltk_weights}
    for g in _grid(scale=(1, 100), lowercase=(False, True)):
        yield "coco", {**g, **extra}
    if raw:
        for prof in ("mteval-v13a", "mteval-v14"):
            for g in _grid(lowercase=(True, False), tokenize=("mteval-13a", "mteval-intl"),
                           scale=(1, 100)):
                if g["tokenize"] == "mteval-intl":
                    g["lowercase_mode"] = "perl"
                yield prof, {**g, **extra}
    for g in _grid(scale=(1, 100)):
        yield "d2l", {**g, **({"max_ngram_order": order} if order else {})}


def chrf_grids(constraints: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    betas = (constraints["beta"],) if "beta" in constraints else (2, 3, 1)
    words = (constraints["word_order"],) if "word_order" in constraints else (0, 2)
    for g in _grid(word_order=words, beta=betas, lowercase=(False, True), whitespace=(False, True),
                   eps_smoothing=(False, True), scale=(100, 1)):
        yield ("sacrebleu-chrf++" if g["word_order"] == 2 else "sacrebleu"), g
    if 2 not in words or 0 in words:
        for g in _grid(beta=betas, whitespace=(False, True), scale=(1, 100)):
            yield "sacrebleu@1", g
            for prof in ("nltk", "nltk@3.5"):
                yield prof, g


def ter_grids() -> Iterator[tuple[str, dict[str, Any]]]:
    for prof in ("sacrebleu", "sacrebleu@1"):
        for g in _grid(case_sensitive=(False, True), normalized=(False, True), no_punct=(False, True),
                       scale=(100, 1)):
            yield prof, g


def rouge_grids(types: Sequence[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    for t in types:
        for stem in ("none", "porter-nltk"):
            yield "rouge-score", {"types": (t,), "stemmer": stem}
        for stem in ("none", "rouge155"):
            yield "rouge-1.5.5", {"types": (t,), "stemmer": stem}
        if t == "rougeL":
            yield "coco", {"types": (t,)}     # pycocoevalcap's Rouge (ROUGE-L, beta 1.2)


def cider_grids(constraints: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    profs = ("coco",) if constraints.get("clipping") else ("coco", "vedantam2015", "vrama91")
    for prof in profs:
        for g in _grid(tokenize=("ptb", "none"), lowercase=(False, True)):
            yield prof, g


def nist_grids() -> Iterator[tuple[str, dict[str, Any]]]:
    for prof in ("mteval-v13a", "mteval-v14", "nltk"):
        for g in _grid(lowercase=(True, False)):
            yield prof, g


def meteor_grids() -> Iterator[tuple[str, dict[str, Any]]]:
    for prof in ("nltk", "nltk@3.6"):
        for g in _grid(lowercase=(True, False)):
            yield prof, g
    for g in _grid(norm=(True, False)):
        yield "meteor-1.5", g


#: families whose tool value is on 0-1 with no scale knob: the ×100 reading is a presentation choice
DISPLAY_FACTORS = {"rouge": (1.0, 100.0), "cider": (1.0, 100.0, 0.01), "meteor": (1.0, 100.0),
                   "nist": (1.0,), "bleu": (1.0,), "chrf": (1.0,), "ter": (1.0,)}


def standard(metric: str, claim_constraints: dict[str, Any], rouge_types: Sequence[str], measure: str | None,
             n_streams: int, captions: bool = False) -> tuple[str, dict[str, Any], str | None]:
    """The community-recommended configuration: sacrebleu defaults (BLEU, chrF, TER), rouge-score
    defaults (ROUGE), pycocoevalcap's COCOEvalCap (CIDEr: PTB tokenisation; with captions also BLEU,
    ROUGE-L and METEOR on PTB tokens), METEOR 1.5 (METEOR), mteval (NIST)."""
    if captions and metric == "bleu":
        order = claim_constraints.get("max_ngram_order")
        return "coco", ({"max_ngram_order": order} if order else {}), None
    if captions and metric == "rouge":
        return "coco", {"types": ("rougeL",)}, None
    if metric == "bleu":
        order = claim_constraints.get("max_ngram_order")
        return "sacrebleu", ({"max_ngram_order": order} if order else {}), None
    if metric == "chrf":
        words = claim_constraints.get("word_order", 0)
        knobs = {k: v for k, v in claim_constraints.items() if k in ("beta",)}
        return ("sacrebleu-chrf++" if words == 2 else "sacrebleu"), knobs, None
    if metric == "ter":
        return "sacrebleu", {}, None
    if metric == "rouge":
        return "rouge-score", {"types": (rouge_types[0] if rouge_types else "rougeL",)}, measure or "f"
    if metric == "cider":
        return "coco", {"tokenize": "ptb"}, None
    if metric == "meteor":
        return "meteor-1.5", {}, None
    if metric == "nist":
        return "mteval-v13a", {}, None
    raise KeyError(metric)


def profile_names(metric: str) -> list[str]:
    return [p.name for p in profiles_of(metric)]
