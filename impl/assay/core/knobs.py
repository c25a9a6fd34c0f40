"""Knobs: every behaviour that changes a score, named once, with its type, choices and help.

A metric family declares a tuple of :class:`Knob`; a :class:`Config` is a frozen, validated
mapping of every knob of that family to a value. Profiles (``profiles.py``) only set knobs.
Aliases let users write the reference tool's own parameter names (``case_sensitive`` for
mteval, ``smoothing=method3`` for NLTK); an alias expands to one or more canonical knobs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Mapping

from assay.core.domains import STAGES, Domain
from assay.core.errors import KnobError


def parse_bool(text: Any) -> bool:
    """Accept bools and the usual spellings (true/false, yes/no, 1/0, on/off)."""
    if isinstance(text, bool):
        return text
    value = str(text).strip().lower()
    if value in ("1", "true", "yes", "on", "y"):
        return True
    if value in ("0", "false", "no", "off", "n"):
        return False
    raise ValueError(f"expected a boolean, got {text!r}")


def parse_optional_float(text: Any) -> float | None:
    if text is None or (isinstance(text, str) and text.strip().lower() in ("", "none", "default")):
        return None
    return float(text)


@dataclass(frozen=True)
class Knob:
    """One score-affecting setting, declared once.

    ``parse`` turns a CLI string (or an API value) into the canonical value; ``choices``
    restricts it; ``tool_names`` documents the reference tools' own names for it. ``stage`` says
    where it acts (``text``, ``statistics`` or ``score``, see :data:`assay.core.domains.STAGES`):
    configurations that agree on every text- and statistics-stage knob share statistics.
    ``domain`` is the set of values it accepts (:mod:`assay.core.domains`), checked after parsing.
    """

    name: str
    default: Any
    help: str
    parse: Callable[[Any], Any] = lambda v: v
    choices: tuple[Any, ...] | None = None
    tool_names: str = ""
    stage: str | None = None
    domain: Domain | None = None

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise ValueError(f"knob {self.name}: stage must be one of {STAGES}, got {self.stage!r}")
        if self.domain is None:
            raise ValueError(f"knob {self.name}: no domain declared")

    def coerce(self, value: Any, metric: str = "") -> Any:
        """The canonical value of ``value``; a :class:`KnobError` naming the knob, value and domain."""
        where = f"{metric}: " if metric else ""
        try:
            parsed = self.parse(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise KnobError(f"{where}knob {self.name!r}: {exc}") from None
        if self.choices is not None and parsed not in self.choices:
            shown = ", ".join(str(c) for c in self.choices)
            raise KnobError(f"{where}knob {self.name!r}: {value!r} is not one of: {shown}")
        assert self.domain is not None   # __post_init__ refuses a knob without one
        try:
            self.domain.check(parsed)
        except ValueError as exc:
            raise KnobError(f"{where}{self.name} {exc}, got {value!r}") from None
        return parsed


@dataclass(frozen=True)
class Alias:
    """A reference tool's parameter name that maps onto canonical knobs.

    ``expand(value)`` returns the canonical knob settings it stands for.
    """

    name: str
    help: str
    expand: Callable[[Any], dict[str, Any]]


@dataclass(frozen=True)
class KnobSet:
    """The knobs and aliases of one metric family, plus a validator for combinations."""

    knobs: tuple[Knob, ...]
    aliases: tuple[Alias, ...] = ()
    validate: Callable[[Mapping[str, Any]], None] | None = None
    _index: dict[str, Knob] = field(init=False, repr=False, compare=False)
    _statistics: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _resample: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {k.name: k for k in self.knobs})
        object.__setattr__(self, "_statistics",
                           tuple(k.name for k in self.knobs if k.stage not in ("score", "resample")))
        object.__setattr__(self, "_resample", frozenset(k.name for k in self.knobs if k.stage == "resample"))

    def __contains__(self, name: str) -> bool:
        return name in self._index

    def __getitem__(self, name: str) -> Knob:
        return self._index[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.knobs)

    def defaults(self) -> dict[str, Any]:
        return {k.name: k.default for k in self.knobs}

    def statistics_knobs(self) -> tuple[str, ...]:
        """Names of the knobs that act before the score stage (text and statistics): the key of
        the statistics cache."""
        return self._statistics

    def resample_knobs(self) -> frozenset[str]:
        """Names of the knobs that only act on resampled sums (significance arithmetic)."""
        return self._resample

    def resolve(self, settings: Mapping[str, Any], metric: str) -> dict[str, Any]:
        """Expand aliases and coerce values; unknown names are a :class:`KnobError`."""
        out: dict[str, Any] = {}
        alias_index = {a.name: a for a in self.aliases}
        for name, value in settings.items():
            if name in self._index:
                out[name] = self._index[name].coerce(value, metric)
            elif name in alias_index:
                try:
                    expanded = alias_index[name].expand(value)
                except (TypeError, ValueError, OverflowError) as exc:
                    raise KnobError(f"{metric}: knob {name!r}: {exc}") from None
                for canon, canon_value in expanded.items():
                    out[canon] = self._index[canon].coerce(canon_value, metric)
            else:
                known = ", ".join(sorted(self.names + tuple(alias_index)))
                raise KnobError(f"unknown knob {name!r} for metric {metric!r}; known knobs: {known}")
        return out


class Config(Mapping[str, Any]):
    """A frozen, complete and validated assignment of every knob of a metric family."""

    __slots__ = ("metric", "knobset", "_values")

    def __init__(self, metric: str, knobset: KnobSet, values: Mapping[str, Any]):
        full = knobset.defaults()
        full.update(values)
        if knobset.validate is not None:
            knobset.validate(full)
        self.metric = metric
        self.knobset = knobset
        self._values = MappingProxyType(full)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __hash__(self) -> int:
        return hash((self.metric, tuple((k, hashable(v)) for k, v in self._values.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self.metric == other.metric and dict(self) == dict(other)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._values.items())
        return f"Config({self.metric}: {inner})"

    def as_dict(self) -> dict[str, Any]:
        return dict(self._values)

    def differs_from(self, other: "Config") -> list[str]:
        """Names of the knobs whose values differ (the input of attribution); resample-stage
        knobs cannot change a corpus or sentence score and are left out."""
        resample = self.knobset.resample_knobs()
        return [k for k in self._values if self._values[k] != other[k] and k not in resample]


def hashable(value: Any) -> Any:
    """A hashable, comparable copy of a knob value (lists/tuples to tuples, dicts to sorted pairs)."""
    if isinstance(value, (list, tuple)):
        return tuple(hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, hashable(v)) for k, v in value.items()))
    return value


def describe(knobset: KnobSet) -> Iterable[str]:
    """Human-readable lines: one per knob, then the aliases."""
    for k in knobset.knobs:
        choices = f" [{' | '.join(str(c) for c in k.choices)}]" if k.choices else ""
        tool = f" (tools: {k.tool_names})" if k.tool_names else ""
        yield f"{k.name} = {k.default!r}{choices}: {k.help}{tool}"
    for a in knobset.aliases:
        yield f"{a.name} (alias): {a.help}"
