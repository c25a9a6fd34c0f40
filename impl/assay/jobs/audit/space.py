"""The configuration space of a metric: every profile and the knobs users vary in practice.

A :class:`Candidate` is one way a published number could have been produced: a profile (the
tool), the knobs changed from that profile's defaults, the reference subset (each single
reference, all, or all with empty lines treated as missing), the input preprocessing (raw,
Moses-tokenised, Moses + ``##AT##-##AT##`` compound splitting ...), the reported measure (ROUGE
P/R/F) and the presentation scale (0-1 vs 0-100 for families without a ``scale`` knob).

Which profiles are searched, with which knob values, at what prior cost, on which reference
subsets and inputs, and which one is the community's standard, is data carried by each profile
entry (its :class:`~assay.profiles.audit.AuditHint`); this module is generic code reading it and
names no profile, so a new tool (or tool version) is one profile entry.

Ranking: every departure from the tool's defaults costs ``DEPARTURE_COST`` unless a commonness
prior says otherwise (``VALUE_COST``); each profile has a prior cost (its hint's ``cost``: sacrebleu
is the most common tool). The best explanation is the candidate with the lowest total cost, then
the fewest departures. The numbers are a judgement from how scores are reported in practice
(sacrebleu defaults dominate MT since 2018; multi-bleu.perl on tokenised text before it; NLTK in
data-to-text and captioning code; rouge-score for summarisation). ``VALUE_COST`` stays here: it
is the audit's prior on how often published numbers depart to a knob value, a ranking judgement
of this job keyed by knob and value (no profile), not a property of the knob that
``metrics/<family>/knobs.py`` should carry for every user.

The target language moves the standard (:func:`language_base`: sacrebleu's ja-mecab for Japanese,
zh for Chinese) and a sacrebleu-style ``tokenize`` axis (:func:`tokenize_axis`); departures are
counted from the profile with the language's standard in place. The claim's label is evidence with
a cost (:func:`readings`: a chrF label's word n-grams or beta read otherwise, a BLEU/chrF swap), so a
knob counts as fixed by the claim only when its reading fixes it (``Reading.implied``).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping, Sequence

from assay.core.errors import KnobError
from assay.engine.registry import get_family
from assay.profiles.audit import (CLAIM_DERIVED, DEFAULT_TOKENIZER, UNLISTED_COST, AuditGrid, language_tokenizer,
                                  language_tokenizers)
from assay.profiles.registry import Profile, get_profile, profiles_of

DEPARTURE_COST = 1.0
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
    ("gleu", "scale", 100): 0.5,
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
    shown: str = ""                # the same in the user's words: file names (see :func:`name_subsets`)

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
    reading: str = ""                        # the claim's label read otherwise ("" = as written; see Reading)

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
            parts.append(f"refs={self.refs.shown or self.refs.name}")
        if self.prep != "raw":
            parts.append(f"input={PREP_WORDS.get(self.prep, self.prep)}")
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


def profile_cost(metric: str, profile: str) -> float:
    """The prior cost of a profile: its audit hint's ``cost`` (UNLISTED_COST without a hint)."""
    hint = get_profile(metric, profile).audit
    return UNLISTED_COST if hint is None else hint.cost


#: with image captions, COCOEvalCap's PTB tokenisation is the norm and raw text the departure
CAPTION_PREP_COST = {"ptb": 0.0, "raw": 0.3}
CAPTION_VALUE_COST = {("cider", "tokenize", "ptb"): 0.0}


def make_candidate(metric: str, profile: str, knobs: dict[str, Any], refs: RefSubset, prep: str = "raw",
                   measure: str | None = None, display: float = 1.0, standard: bool = False,
                   captions: bool = False, implied: Sequence[str] = (), lang_base: Mapping[str, Any] | None = None,
                   reading: "Reading | None" = None) -> Candidate:
    """A candidate with its departures counted and its cost computed. Departures are counted from the
    profile's knobs with the language's standard values (``lang_base``: ja-mecab for Japanese, see
    :func:`language_base`) in place; knobs in ``implied`` (fixed by the claim's metric name) are not
    departures. ``reading``: the claim's label read otherwise (a mislabel), with its cost."""
    base = get_profile(metric, profile).knobs
    departed = tuple(sorted((k, v) for k, v in knobs.items() if k not in base or base[k] != v))
    norm = {**base, **(lang_base or {})}
    counted = [(k, v) for k, v in sorted(knobs.items()) if (k not in norm or norm[k] != v) and k not in implied]
    counted += [(k, base[k]) for k in (lang_base or {}) if k in base and k not in knobs and k not in implied
                and base[k] != norm[k]]
    cost = profile_cost(metric, profile)
    values = {**VALUE_COST, **CAPTION_VALUE_COST} if captions else VALUE_COST
    cost += sum(values.get((metric, k, v), DEPARTURE_COST) for k, v in counted)
    preps = {**PREP_COST, **CAPTION_PREP_COST} if captions else PREP_COST
    cost += REFS_COST[refs.kind] + preps.get(prep, 1.0) + MEASURE_COST.get(measure or "f", 1.0)
    cost += DISPLAY_COST if display != 1.0 else 0.0
    normal_prep = "ptb" if captions and prep in ("ptb", "raw") and metric in CAPTION_PREP_METRICS else "raw"
    departures = len(counted) + (refs.kind != "all") + (prep != normal_prep) + ((measure or "f") != "f") + \
        (display != 1.0)
    if reading is not None and reading.cost:
        cost += reading.cost
        departures += 1
    return Candidate(metric, profile, departed, refs, prep, measure, display, round(cost, 6), departures, standard,
                     reading.name if reading is not None else "")


def language_base(metric: str, profile: str, lang: str | None) -> dict[str, Any]:
    """The knob values that are the standard for the target language where the profile uses
    sacrebleu's default tokenizer: ``{"tokenize": "ja-mecab"}`` for Japanese (sacrebleu 2.6.0's
    choice for ``-l xx-ja``), nothing for a language whose standard is 13a."""
    want = language_tokenizer(lang)
    if want == DEFAULT_TOKENIZER or get_profile(metric, profile).knobs.get("tokenize") != DEFAULT_TOKENIZER:
        return {}
    return {"tokenize": want}


#: input preprocessing in words (labels and signatures)
PREP_WORDS = {"moses": "Moses-tokenised", "moses-a": "Moses-tokenised (-a)", "compound": "##AT##-##AT## split",
              "moses+compound": "Moses-tokenised + ##AT##-##AT## split", "ptb": "PTB-tokenised"}


# ----------------------------------------------------------------------------- readings of the label
#: the cost of reading a claim's label otherwise than as written (labels are evidence, not constraints):
#: chrF++ published as "chrF" is a common loose naming; a "chrF++" that is plain chrF, a beta other than
#: the one printed, and a BLEU/chrF swap are mislabels
LABEL_COST = {"chrf-words-loose": 0.5, "chrf-words": 1.0, "beta": 1.0, "metric": 1.5}
#: metric families whose labels are swapped in practice
SWAPPED_METRICS = {"bleu": "chrf", "chrf": "bleu"}


@dataclass(frozen=True)
class Reading:
    """One reading of a claim's label: the family and the knob values it fixes, at a cost (0: as written)."""

    metric: str
    constraints: Mapping[str, Any]
    cost: float = 0.0
    name: str = ""               # "" as written; "word_order", "beta", "metric": what is read otherwise

    def implied(self) -> tuple[str, ...]:
        """Knobs this reading fixes (not departures): its constraints, what they derive, and the
        knobs every claim of the family fixes by naming it (ROUGE types, CIDEr-D clipping)."""
        names = set(self.constraints) | {"types", "clipping"}
        names |= {k for k, (src, _) in CLAIM_DERIVED.items() if src in self.constraints}
        return tuple(sorted(names))


def readings(metric: str, constraints: Mapping[str, Any], swap: bool = True) -> list[Reading]:
    """The claim's label as written, then read otherwise at :data:`LABEL_COST`: a chrF label's word
    n-grams (``chrF`` and ``chrF2`` read as sacrebleu names them: no words; ``chrF++``: words 2)
    flipped, its printed beta freed, and the other family of :data:`SWAPPED_METRICS` (its defaults)."""
    out = []
    if metric == "chrf":
        written = {"word_order": 0, **constraints}
        out.append(Reading(metric, written))
        flipped = {**written, "word_order": 0 if written["word_order"] else 2}
        out.append(Reading(metric, flipped, LABEL_COST["chrf-words" if written["word_order"] else "chrf-words-loose"],
                           "word_order"))
        if "beta" in constraints:
            out.append(Reading(metric, {k: v for k, v in written.items() if k != "beta"}, LABEL_COST["beta"], "beta"))
    else:
        out.append(Reading(metric, dict(constraints)))
    if swap and metric in SWAPPED_METRICS:
        out.append(Reading(SWAPPED_METRICS[metric], {}, LABEL_COST["metric"], "metric"))
    return out


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


def name_subsets(subsets: Sequence[RefSubset], files: Sequence[str] | None) -> list[RefSubset]:
    """The subsets named in the user's words: ``ref2`` -> the second reference file's name,
    ``all/reversed`` -> the files in that order, ``all/empty-missing`` -> "all, empty lines as missing"."""
    if not files:
        return list(subsets)
    n_streams = max((max(s.indices) + 1 for s in subsets if s.indices), default=0)
    names = [str(f).replace("\\", "/").rsplit("/", 1)[-1] for f in files]
    if len(names) != n_streams:       # one file holds every reference (COCO JSON annotations)
        names = [f"reference {i + 1} of each segment" for i in range(n_streams)]
    out = []
    for s in subsets:
        if s.kind == "single":
            shown = f"{names[s.indices[0]]} only"
        elif s.kind == "reordered":
            shown = ", ".join(names[i] for i in s.indices) + " (in this order)"
        elif s.empty_missing:
            shown = "all, empty lines as missing references"
        else:
            shown = "all"
        out.append(replace(s, shown=shown))
    return out


# ----------------------------------------------------------------------------- knob grids (profile data)
RAW_PREP = ("raw",)
TOKENISED_PREPS = ("moses", "moses+compound", "compound")
ALL_TOKENISED_PREPS = ("moses", "moses-a", "moses+compound", "compound")
#: the claim's ROUGE measures choose values of this knob
CLAIM_TYPES_KNOB = "types"


def claim_choices(metric: str, constraints: Mapping[str, Any],
                  rouge_types: Sequence[str] = ()) -> dict[str, tuple[Any, ...]]:
    """The knob values a claim allows: one value per knob its name fixes (``BLEU-2``:
    ``max_ngram_order=2``; ``chrF2``: ``beta=2, word_order=0``), and for ROUGE each named type
    (``ROUGE-L``: ``types=(rougeL,)`` or ``(rougeLsum,)``). A value outside the knob's domain
    fixes nothing (``BLEU-0`` is searched as BLEU)."""
    knobset = get_family(metric).knobset
    out: dict[str, tuple[Any, ...]] = {}
    for name, value in constraints.items():
        if name in knobset:
            try:
                knobset[name].coerce(value, metric)
            except KnobError:
                continue
        out[name] = (value,)
    if rouge_types and CLAIM_TYPES_KNOB in knobset:
        out[CLAIM_TYPES_KNOB] = tuple((t,) for t in rouge_types)
    return out


def _claimed(names: Sequence[str], claim: Mapping[str, Any]) -> dict[str, Any]:
    """The knobs among ``names`` the claim sets, directly or through :data:`CLAIM_DERIVED`."""
    out: dict[str, Any] = {}
    for name in names:
        if name in claim:
            out[name] = claim[name]
        elif name in CLAIM_DERIVED and CLAIM_DERIVED[name][0] in claim:
            source, derive = CLAIM_DERIVED[name]
            out[name] = derive(claim[source])
    return out


def tokenize_axis(metric: str, values: Sequence[Any], lang: str | None) -> tuple[Any, ...]:
    """A grid's ``tokenize`` axis for the target language: an axis holding sacrebleu's default 13a is
    a sacrebleu-style axis, and gets the language's tokenizer first (ja-mecab for Japanese) and every
    alternative of :data:`~assay.profiles.audit.ALTERNATIVE_TOKENIZERS` assay implements; the
    others are named by :func:`missing_tokenizers`. Any other axis is kept as it is."""
    if DEFAULT_TOKENIZER not in values or "tokenize" not in get_family(metric).knobset:
        return tuple(values)
    known, _ = language_tokenizers(lang, tuple(get_family(metric).knobset["tokenize"].choices or ()))
    return known + tuple(v for v in values if v not in known)


def missing_tokenizers(metric: str, lang: str | None) -> list[str]:
    """sacrebleu tokenizers the search would try for ``lang`` that assay does not implement."""
    if "tokenize" not in get_family(metric).knobset:
        return []
    return language_tokenizers(lang, tuple(get_family(metric).knobset["tokenize"].choices or ()))[1]


def _points(grid: AuditGrid, profile: Profile, claim: Mapping[str, Any], lang: str | None = None
            ) -> list[dict[str, Any]]:
    """The knob settings of one grid under a claim with one value per knob (see
    :mod:`assay.profiles.audit` for how a claim follows or restricts a grid); a sacrebleu-style
    ``tokenize`` axis follows the target language (:func:`tokenize_axis`)."""
    axes = {name: tuple(values) for name, values in grid.axes.items()}
    if "tokenize" in axes:
        axes["tokenize"] = tokenize_axis(profile.metric, axes["tokenize"], lang)
    for name, value in claim.items():
        if name in grid.follows_claim:
            if name in axes:
                axes[name] = (value,)
        elif name in axes:
            axes[name] = (value,) if value in axes[name] else ()
        elif grid.fixed.get(name, profile.knobs.get(name)) != value:
            return []
    followed = _claimed([n for n in grid.follows_claim if n not in axes], claim)
    out = []
    for values in itertools.product(*axes.values()):
        point = dict(zip(axes, values))
        for knob, value, extra in grid.links:
            if point.get(knob) == value:
                point.update(extra)
        point.update(grid.fixed)
        point.update(followed)
        out.append(point)
    return out


def _walk(metric: str, claim: Mapping[str, Any], prep: str, lang: str | None = None
          ) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every grid of the metric's profiles for one reading of the claim, in rank order; grids of
    one ``lockstep`` group point by point, at the place of the first of them."""
    entries = sorted(((grid.rank, i, j), profile, grid)
                     for i, profile in enumerate(profiles_of(metric)) if profile.audit is not None
                     for j, grid in enumerate(profile.audit.grids) if grid.applies_to(prep))
    walked: set[str] = set()
    for _, profile, grid in entries:
        if not grid.lockstep:
            for point in _points(grid, profile, claim, lang):
                yield profile.name, point
            continue
        if grid.lockstep in walked:
            continue
        walked.add(grid.lockstep)
        group = [(p.name, _points(g, p, claim, lang)) for _, p, g in entries if g.lockstep == grid.lockstep]
        for index in range(max(len(points) for _, points in group)):
            for name, points in group:
                if index < len(points):
                    yield name, points[index]


def grids(metric: str, constraints: Mapping[str, Any], prep: str = "raw",
          rouge_types: Sequence[str] = (), lang: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """(profile, knobs) pairs the audit tries for a claim on input preprocessed by ``prep``, read
    from the profiles' :class:`~assay.profiles.audit.AuditHint` grids. A claim that allows several
    values of a knob (ROUGE-L: rougeL or rougeLsum) is searched one value at a time, outermost."""
    if not any(p.audit is not None and p.audit.grids for p in profiles_of(metric)):
        raise KnobError(f"audit does not know the configuration space of {metric!r}")
    choices = claim_choices(metric, constraints, rouge_types)
    several = [name for name, values in choices.items() if len(values) > 1]
    single = {name: values[0] for name, values in choices.items() if len(values) == 1}
    out: list[tuple[str, dict[str, Any]]] = []
    for combo in itertools.product(*(choices[name] for name in several)):
        out += _walk(metric, {**single, **dict(zip(several, combo))}, prep, lang)
    return out


def on_subsets(metric: str, profile: str) -> bool:
    """Whether a searched profile is also tried on reference subsets other than all references as
    given (single references, empty lines as missing) when the search is not thorough."""
    hint = get_profile(metric, profile).audit
    return hint is None or hint.subsets


#: families whose tool value is on 0-1 with no scale knob: the ×100 reading is a presentation choice
DISPLAY_FACTORS = {"rouge": (1.0, 100.0), "cider": (1.0, 100.0, 0.01), "meteor": (1.0, 100.0),
                   "nist": (1.0,), "bleu": (1.0,), "chrf": (1.0,), "ter": (1.0,), "gleu": (1.0,)}


#: families whose claims name a measure (ROUGE P/R/F); the standard reports F unless the claim says
MEASURE_METRICS = ("rouge",)


def _agrees(profile: Profile, choices: Mapping[str, tuple[Any, ...]], followed: Sequence[str]) -> bool:
    return all(profile.knobs.get(name) in values for name, values in choices.items() if name not in followed)


def standard(metric: str, claim_constraints: Mapping[str, Any], rouge_types: Sequence[str], measure: str | None,
             n_streams: int, captions: bool = False, lang: str | None = None
             ) -> tuple[str, dict[str, Any], str | None]:
    """The community-recommended configuration, read from the profiles marked ``standard_for``
    (``plain`` claims, or ``captions``): sacrebleu defaults (BLEU, chrF, TER), rouge-score defaults
    (ROUGE), pycocoevalcap's COCOEvalCap (CIDEr: PTB tokenisation; with captions also BLEU, ROUGE-L
    and METEOR on PTB tokens), METEOR 1.5 (METEOR), mteval (NIST). The claim's values of the
    profile's ``standard_follows`` knobs are added (BLEU-2: ``max_ngram_order=2``), and the target
    language's standard tokenizer (:func:`language_base`: sacrebleu's ja-mecab for Japanese)."""
    context = "captions" if captions else "plain"
    found = [p for p in profiles_of(metric) if p.audit is not None and context in p.audit.standard_for]
    if not found:
        raise KeyError(metric)
    choices = claim_choices(metric, claim_constraints, rouge_types)
    chosen = next((p for p in found if _agrees(p, choices, p.audit.standard_follows)), found[0])
    first = {name: values[0] for name, values in choices.items()}
    knobs = {**chosen.audit.standard_knobs, **_claimed(chosen.audit.standard_follows, first)}
    knobs = {**language_base(metric, chosen.name, lang), **knobs}
    measured = metric in MEASURE_METRICS and chosen.audit.standard_measure
    return chosen.name, knobs, ((measure or "f") if measured else None)


def profile_names(metric: str) -> list[str]:
    return [p.name for p in profiles_of(metric)]
