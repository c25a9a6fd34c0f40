"""Named presets: a metric plus every knob value that reproduces one reference tool.

Profiles only set knobs (defined once in the metric family modules). ``sentence_knobs``
are the tool's different defaults at its sentence-level entry point (sacrebleu's
``sentence_bleu`` turns effective order on). ``tool_versions`` lists the versions whose
outputs the fixtures verify this profile against.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from importlib import import_module

from assay.core.errors import KnobError
from assay.core.metric_names import METRIC_NAMES
from assay.profiles.audit import AuditHint


SIGNATURE_GRAMMARS = ("", "sacrebleu2", "sacrebleu1")   # see Profile.signature_grammar
TEXT_FORMATS = ("", "sacrebleu", "multi-bleu", "mteval")   # see Profile.text_format


@dataclass(frozen=True)
class Profile:
    """One named preset. Besides its knobs, a profile records facts about the reproduced tool that
    the jobs read instead of naming profiles in code:

    - ``max_refs``: the most reference streams the tool scores (None: any number).
    - ``signature_grammar``: the signatures the tool prints, read back by ``assay audit``:
      ``"sacrebleu2"`` (``nrefs:1|case:mixed|…``, sacrebleu 2.x), ``"sacrebleu1"``
      (``BLEU+case.mixed+…``, sacrebleu 1.x), ``""`` (none). A signature selects, among the
      profiles of its metric and grammar, the one whose knobs agree with it most.
    - ``reported_measures``: glob patterns of the measures (ROUGE types) the tool prints besides
      the ones its own knobs select (``("*",)``: any; ``()``: only its own). ``compare`` and
      ``report`` leave the other measures out for this profile.
    - ``text_format``: the line the tool prints for a score (``assay.output``): ``"sacrebleu"``
      (``BLEU|signature = 48.9 85.7/…``), ``"multi-bleu"`` (``BLEU = 48.89, 85.7/…``), ``"mteval"``
      (``BLEU score = 0.4889``), ``""`` (the value itself, as the Python API returns it).
    - ``drops_empty_refs``: the tool itself drops empty reference lines (sacrebleu 1.x), so the
      audit's reference sets that read empty lines as missing add nothing for it.
    - ``recorded``: the third-party recordings whose answers are this profile's golden values: names
      of ``fixtures/thirdparty/<name>.json`` (format ``assay-thirdparty/1``, written by
      ``python -m conformance.regen thirdparty`` from the real package at its documented defaults,
      e.g. ``recorded=("hf-bleu",)``). ``assay conform`` runs their answers as cases of this profile
      (``<metric>/thirdparty/<name>/...``; recorded exceptions are expected errors), judged within
      ``recorded_tolerance`` (relative; 1e-9 by default, e.g. 1e-6 for a package computing in float32
      tensors such as torchmetrics). A recording of a package option other than its defaults (an
      "injected" departure) is not listed here.
    """

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
    signature_grammar: str = ""
    reported_measures: tuple[str, ...] = ()
    drops_empty_refs: bool = False
    text_format: str = ""
    audit: AuditHint | None = None       # how `assay audit` searches it (assay.profiles.audit)
    recorded: tuple[str, ...] = ()       # fixtures/thirdparty/<name>.json recordings of this profile's tool
    recorded_tolerance: float = 1e-9     # relative tolerance of the recorded answers (float32 packages: 1e-6)

    def __post_init__(self) -> None:
        if self.text_format not in TEXT_FORMATS:
            raise KnobError(f"profile {self.metric}/{self.name}: text_format must be one of "
                            f"{', '.join(map(repr, TEXT_FORMATS))}, got {self.text_format!r}")
        if self.signature_grammar not in SIGNATURE_GRAMMARS:
            raise KnobError(f"profile {self.metric}/{self.name}: signature_grammar must be one of "
                            f"{', '.join(map(repr, SIGNATURE_GRAMMARS))}, got {self.signature_grammar!r}")
        if isinstance(self.recorded, str) or not all(isinstance(n, str) and n for n in self.recorded):
            raise KnobError(f"profile {self.metric}/{self.name}: recorded must be a tuple of recording names "
                            f"(fixtures/thirdparty/<name>.json), got {self.recorded!r}")
        if not 0 < self.recorded_tolerance < 1:
            raise KnobError(f"profile {self.metric}/{self.name}: recorded_tolerance must be a relative "
                            f"tolerance in (0, 1), got {self.recorded_tolerance!r}")

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
    _PROFILES[(profile.metric, profile.name)] = replace(
        profile, knobs=MappingProxyType(dict(profile.knobs)),
        sentence_knobs=MappingProxyType(dict(profile.sentence_knobs)),
        reported_measures=tuple(profile.reported_measures), recorded=tuple(profile.recorded))
    return _PROFILES[(profile.metric, profile.name)]


def get_profile(metric: str, name: str | None) -> Profile:
    """One profile: the preset of every knob that reproduces one tool.

    Parameters: ``metric`` a family name (``"bleu"``); ``name`` a profile of it (``"nltk"``, or
    ``"bleu/nltk"``), None for the family's default.

    Returns the :class:`Profile` (``full_name``, ``tool``, ``tool_versions``, ``knobs``,
    ``command``, ...). Raises :class:`~assay.core.errors.KnobError` for an unknown metric or profile.

    >>> profile = get_profile("bleu", "nltk")
    >>> profile.full_name, profile.tool, profile.tool_versions
    ('bleu/nltk', 'nltk', ('3.10.4',))
    """
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
    """Register the entries of ``assay.profiles.<metric>`` the first time the metric is asked for."""
    if metric in _LOADED:
        return
    if metric not in METRIC_NAMES:
        raise KnobError(f"unknown metric {metric!r}; known: {', '.join(METRIC_NAMES)}")
    _LOADED.add(metric)
    module = import_module(f"assay.profiles.{metric}")
    for profile in module.PROFILES:
        register(profile, default=profile.name == module.DEFAULT)


def profiles_of(metric: str | None = None) -> list[Profile]:
    """Every registered profile of ``metric`` (a family name), or of every family when None.

    Returns a list of :class:`Profile`, in the order the family's profile module lists them.

    >>> [p.name for p in profiles_of("ter")][:2]
    ['sacrebleu', 'sacrebleu@1']
    """
    for name in ([metric.lower()] if metric else METRIC_NAMES):
        _load_profiles_of(name)
    return [p for (m, _), p in _PROFILES.items() if metric is None or m == metric.lower()]


DEFAULT_PROFILE: dict[str, str] = {}
