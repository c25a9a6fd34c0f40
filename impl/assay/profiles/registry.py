"""Named presets: a metric plus every knob value that reproduces one reference tool.

Profiles only set knobs (defined once in the metric family modules). ``sentence_knobs``
are the tool's different defaults at its sentence-level entry point (sacrebleu's
``sentence_bleu`` turns effective order on). ``tool_versions`` lists the versions whose
outputs the fixtures verify this profile against.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from importlib import import_module

from assay.core.errors import KnobError
from assay.core.family import METRIC_NAMES


@dataclass(frozen=True)
class Profile:
    metric: str
    name: str
    tool: str
    tool_versions: tuple[str, ...]
    knobs: Mapping[str, Any]
    description: str
    sentence_knobs: Mapping[str, Any] = field(default_factory=dict)
    max_refs: int | None = None
    default_width: int | None = None
    command: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.metric}/{self.name}"

    @property
    def tool_version(self) -> str:
        return self.tool_versions[0]


_PROFILES: dict[tuple[str, str], Profile] = {}


def register(profile: Profile, default: bool = False) -> Profile:
    """Add a profile; ``default=True`` makes it the metric's default profile."""
    if default:
        DEFAULT_PROFILE[profile.metric] = profile.name
    _PROFILES[(profile.metric, profile.name)] = Profile(
        profile.metric, profile.name, profile.tool, profile.tool_versions,
        MappingProxyType(dict(profile.knobs)), profile.description,
        MappingProxyType(dict(profile.sentence_knobs)), profile.max_refs, profile.default_width, profile.command)
    return _PROFILES[(profile.metric, profile.name)]


def get_profile(metric: str, name: str | None) -> Profile:
    """The profile ``name`` of ``metric`` (``metric/name`` is accepted too); default profile if None."""
    metric = metric.lower()
    _load_profiles_of(metric)
    if name is None:
        name = DEFAULT_PROFILE.get(metric)
        if name is None:
            raise KnobError(f"metric {metric!r} has no default profile")
    if "/" in name:
        prefix, name = name.split("/", 1)
        if prefix.lower() != metric:
            raise KnobError(f"profile {prefix}/{name} belongs to metric {prefix!r}, not {metric!r}")
    try:
        return _PROFILES[(metric, name)]
    except KeyError:
        known = ", ".join(p.name for p in profiles_of(metric)) or "none"
        raise KnobError(f"unknown profile {name!r} for metric {metric!r}; known: {known}") from None


_LOADED: set[str] = set()


def _load_profiles_of(metric: str) -> None:
    """Import ``assay.profiles.<metric>`` (its data registers itself) the first time it is asked for.

    Transitional: a family whose profiles still live in its metrics module registers them when
    that module is imported."""
    if metric in _LOADED:
        return
    if metric not in METRIC_NAMES:
        raise KnobError(f"unknown metric {metric!r}; known: {', '.join(METRIC_NAMES)}")
    _LOADED.add(metric)
    try:
        module = import_module(f"assay.profiles.{metric}")
    except ModuleNotFoundError as exc:
        if exc.name != f"assay.profiles.{metric}":
            raise
        import_module(f"assay.metrics.{metric}.family")
        return
    for profile in module.PROFILES:
        register(profile, default=profile.name == module.DEFAULT)


def profiles_of(metric: str | None = None) -> list[Profile]:
    for name in ([metric.lower()] if metric else METRIC_NAMES):
        _load_profiles_of(name)
    return [p for (m, _), p in _PROFILES.items() if metric is None or m == metric.lower()]


DEFAULT_PROFILE: dict[str, str] = {"bleu": "sacrebleu", "nist": "mteval-v13a"}

# --------------------------------------------------------------------------- BLEU
_SACREBLEU_BLEU = dict(tokenize="13a", lowercase=False, lowercase_mode="unicode", smooth_method="exp",
                       smooth_value=None, effective_order=False, max_ngram_order=4, weights="uniform",
                       missing_order="stop", no_match="zero", zero_precision="zero",
                       per_segment_min_total=0, ref_length="closest", empty_refs="keep", scale=100,
                       epsilon="none")

register(Profile(
    "bleu", "sacrebleu", "sacrebleu", ("2.6.0",), _SACREBLEU_BLEU,
    "sacrebleu 2.x BLEU(): corpus_score / CLI defaults (13a, exp, eff off); sentence level = sentence_bleu (eff on).",
    sentence_knobs={"effective_order": True}, default_width=1))
register(Profile(
    "bleu", "sacrebleu@1", "sacrebleu", ("1.5.1",), {**_SACREBLEU_BLEU, "no_match": "smooth", "empty_refs": "drop", "segment_without_refs": "error"},
    "sacrebleu 1.5.x: like 2.x but a corpus with no matching n-gram is still smoothed (2.0.0 made it 0, #141); "
    "empty reference lines are dropped, and a segment left without references fails (EOFError).",
    sentence_knobs={"effective_order": True}, default_width=2))
register(Profile(
    "bleu", "nltk", "nltk", ("3.10.4",),
    dict(_SACREBLEU_BLEU, tokenize="none", smooth_method="float-min", weights=(0.25, 0.25, 0.25, 0.25),
         zero_precision="skip", per_segment_min_total=1, scale=1, auto_reweigh=False),
    "NLTK corpus_bleu/sentence_bleu on whitespace tokens: max(1, #n-grams) per segment, method0 (float-min), "
    "zero precisions skipped, 0-1 scale."))
register(Profile(
    "bleu", "nltk@3.5", "nltk", ("3.5",),
    dict(_SACREBLEU_BLEU, tokenize="none", smooth_method="float-min", weights=(0.25, 0.25, 0.25, 0.25),
         zero_precision="skip", per_segment_min_total=1, scale=1, auto_reweigh=False, add_k_unigrams=True,
         auto_reweigh_orders="drop", nltk_method4="index", weight_lists="error"),
    "NLTK 3.5: as nltk, but SmoothingFunction.method2 also smooths unigrams (changed in 3.6.2)."))
register(Profile(
    "bleu", "multi-bleu", "multi-bleu.perl", ("mosesdecoder@34452895f350",),
    dict(_SACREBLEU_BLEU, tokenize="multi-bleu", smooth_method="none", lowercase_mode="ascii"),
    "Moses multi-bleu.perl: bytes split on ASCII whitespace, -lc ASCII-only, no smoothing (any zero order -> 0)."))
register(Profile(
    "bleu", "multi-bleu-detok", "multi-bleu-detok.perl", ("mosesdecoder@34452895f350",),
    dict(_SACREBLEU_BLEU, tokenize="13a", smooth_method="none", lowercase_mode="perl",
         lowercase_refs_after_tokenizing=True, chop_unterminated_last_line=True),
    "Moses multi-bleu-detok.perl: 13a tokens, Perl lc (-lc: hyp before tokenising, refs after), no "
    "smoothing; chop drops the last character of an "
    "unterminated last line."))
_MTEVAL_BLEU = dict(_SACREBLEU_BLEU, tokenize="mteval-13a", lowercase=True, lowercase_mode="ascii",
                    missing_order="one", no_match="smooth", scale=1)
register(Profile(
    "bleu", "mteval-v13a", "mteval-v13a.pl", ("mosesdecoder@34452895f350",), _MTEVAL_BLEU,
    "NIST mteval-v13a.pl BLEU: its tokeniser, ASCII lowercasing unless -c, exp smoothing even with no match, "
    "orders without n-grams count as precision 1, 0-1 scale."))
register(Profile(
    "bleu", "mteval-v14", "mteval-v14.pl", ("mosesdecoder@34452895f350",), _MTEVAL_BLEU,
    "NIST mteval-v14.pl BLEU: as v13a (scores equal); v14 survives an empty system output."))
register(Profile(
    "bleu", "d2l", "d2l (d2l-ai/d2l-en)", ("d2l-ai/d2l-en@23d7a5aeccee",),
    dict(_SACREBLEU_BLEU, tokenize="space", smooth_method="none", weights="halving", missing_order="one",
         scale=1),
    "Dive-into-Deep-Learning bleu(pred_seq, label_seq, k): str.split(' ') tokens, weights 1/2^n, "
    "BP exp(min(0, 1 - len(label)/len(pred))), one reference; orders above len(pred) are skipped "
    "(since d2l-en 03f5ae51, 2022).", max_refs=1))
register(Profile(
    "bleu", "d2l@2021", "d2l (seed 002)", ("seed-002",),
    dict(_SACREBLEU_BLEU, tokenize="none", smooth_method="none", weights="halving", missing_order="error",
         scale=1),
    "d2l's bleu before 2022 (the version seed 002 prints): every order up to k, so a hypothesis shorter "
    "than k tokens divides by len(pred) - n + 1 = 0 (ZeroDivisionError).", max_refs=1))

register(Profile(
    "bleu", "coco", "pycocoevalcap", ("1.2",),
    dict(_SACREBLEU_BLEU, tokenize="none", smooth_method="none", missing_order="one", no_match="smooth",
         ref_length="closest", scale=1, epsilon="coco"),
    "pycocoevalcap Bleu(4) (BleuScorer, option 'closest'): str.split() of pre-tokenised captions (COCOEvalCap "
    "runs PTBTokenizer first), p_n = (correct+1e-15)/(total+1e-9), ratio (c+1e-15)/(r+1e-9); value Bleu_4, "
    "components Bleu_1..Bleu_4; sentence level the same formula per segment."))

# --------------------------------------------------------------------------- NIST
_MTEVAL_NIST = dict(tokenize="mteval-13a", lowercase=True, lowercase_mode="ascii", max_ngram_order=5,
                    multi_ref="union", ref_length="average", empty_order="zero")
register(Profile(
    "nist", "mteval-v13a", "mteval-v13a.pl", ("mosesdecoder@34452895f350",), _MTEVAL_NIST,
    "mteval-v13a.pl NIST: clip by max count over all references, average reference length."))
register(Profile(
    "nist", "mteval-v14", "mteval-v14.pl", ("mosesdecoder@34452895f350",), _MTEVAL_NIST,
    "mteval-v14.pl NIST (same scores as v13a)."))
register(Profile(
    "nist", "nltk", "nltk", ("3.10.4",),
    dict(_MTEVAL_NIST, tokenize="none", lowercase=False, multi_ref="best-single", ref_length="chosen",
         empty_order="error"),
    "NLTK corpus_nist/sentence_nist: best single reference per order, that reference's length; "
    "ZeroDivisionError when an order has no hypothesis n-grams."))
