"""Knob domains: what values a knob may take, declared once next to the knob.

A :class:`Domain` checks a value that the knob's parser has already produced (so ``"0.5"`` from
the command line and ``0.5`` from the API are checked alike) and describes itself in words for
error messages and ``assay knobs``: ``beta must be a finite number > 0, got nan``. Every size
knob (n-gram orders, bootstrap samples, beams, ...) has an upper bound with a reason, so no value
can make a metric hang or exhaust memory.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, Callable

STAGES = ("text", "statistics", "score", "resample")
"""Where a knob acts. ``text``: how segments become tokens; ``statistics``: how tokens become
per-segment rows; ``score``: how rows become a number; ``resample``: only how resampled sums
become numbers (significance tests), never a corpus or sentence score. Configurations that agree on
every text- and statistics-stage knob share their statistics
(:class:`assay.engine.evaluate.Evaluator`); resample-stage knobs are not differences between two
configurations' scores (:meth:`assay.core.knobs.Config.differs_from`, the input of attribution)."""


@dataclass(frozen=True)
class Domain:
    """The set of values a knob accepts; :meth:`check` raises ``ValueError("must be …")``."""

    description: str

    def check(self, value: Any) -> None:   # pragma: no cover - overridden
        raise NotImplementedError

    def describe(self) -> str:
        return self.description


@dataclass(frozen=True)
class Boolean(Domain):
    description: str = "true or false"

    def check(self, value: Any) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"must be {self.description}")


@dataclass(frozen=True)
class Choice(Domain):
    values: tuple[Any, ...] = ()

    def check(self, value: Any) -> None:
        if value not in self.values:
            raise ValueError(f"must be {self.description}")


def choice(*values: Any) -> Choice:
    """One of ``values``."""
    return Choice("one of " + ", ".join(str(v) for v in values), tuple(values))


@dataclass(frozen=True)
class Number(Domain):
    """A finite int or float within bounds (``low``/``high``; ``None`` = unbounded on that side)."""

    integer: bool = False
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    reason: str = ""

    def check(self, value: Any) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"must be {self.description}")
        if self.integer and not float(value).is_integer():
            raise ValueError(f"must be {self.description}")
        if not math.isfinite(value):
            raise ValueError(f"must be {self.description}")
        if self.low is not None and (value < self.low or (self.low_open and value == self.low)):
            raise ValueError(f"must be {self.description}")
        if self.high is not None and (value > self.high or (self.high_open and value == self.high)):
            raise ValueError(f"must be {self.description}")


def _bounds_text(low: float | None, high: float | None, low_open: bool, high_open: bool) -> str:
    parts = []
    if low is not None:
        parts.append(f"{'>' if low_open else '>='} {low:g}")
    if high is not None:
        parts.append(f"{'<' if high_open else '<='} {high:g}")
    return " and ".join(parts)


def integer(low: int | None = None, high: int | None = None, reason: str = "") -> Number:
    """An integer in ``[low, high]``; a size knob states why its upper bound is where it is."""
    bounds = _bounds_text(low, high, False, False)
    text = "an integer" + (f" {bounds}" if bounds else "") + (f" ({reason})" if reason else "")
    return Number(text, True, low, high, False, False, reason)


def real(low: float | None = None, high: float | None = None, *, low_open: bool = False,
         high_open: bool = False, reason: str = "") -> Number:
    """A finite number in the given range (NaN and infinities are never accepted)."""
    bounds = _bounds_text(low, high, low_open, high_open)
    text = "a finite number" + (f" {bounds}" if bounds else "") + (f" ({reason})" if reason else "")
    return Number(text, False, low, high, low_open, high_open, reason)


@dataclass(frozen=True)
class Optional(Domain):
    """``None`` (the tool's default) or a value of ``inner``."""

    inner: Domain = field(default_factory=lambda: Boolean())

    def check(self, value: Any) -> None:
        if value is not None:
            self.inner.check(value)


def optional(inner: Domain) -> Optional:
    return Optional(f"none or {inner.describe()}", inner)


@dataclass(frozen=True)
class PathDomain(Domain):
    """A filesystem path of one kind (``file`` or ``dir``), readable; ``None`` allowed when optional."""

    kind: str = "file"
    allow_none: bool = True

    def check(self, value: Any) -> None:
        if value is None or value == "":
            if self.allow_none:
                return
            raise ValueError(f"must be {self.description}")
        if not isinstance(value, (str, os.PathLike)):
            raise ValueError(f"must be {self.description}")
        path = os.fspath(value)
        if self.kind == "dir" and not os.path.isdir(path):
            raise ValueError(f"must be {self.description}: no such directory")
        if self.kind == "file" and not os.path.isfile(path):
            raise ValueError(f"must be {self.description}: " +
                             ("it is a directory" if os.path.isdir(path) else "no such file"))
        if not os.access(path, os.R_OK):
            raise ValueError(f"must be {self.description}: not readable")


def path(kind: str = "file", allow_none: bool = True) -> PathDomain:
    text = ("none or " if allow_none else "") + ("a readable directory" if kind == "dir" else "a readable file")
    return PathDomain(text, kind, allow_none)


@dataclass(frozen=True)
class Predicate(Domain):
    """A structured value (weights, measure lists, ...) checked by a function returning an error text or None."""

    test: Callable[[Any], str | None] = field(default=lambda v: None)

    def check(self, value: Any) -> None:
        problem = self.test(value)
        if problem:
            raise ValueError(problem if problem.startswith("must") else f"must be {self.description}: {problem}")


def predicate(description: str, test: Callable[[Any], str | None]) -> Predicate:
    return Predicate(description, test)


@dataclass(frozen=True)
class Text(Domain):
    """Free text of bounded length (markers, names)."""

    max_length: int = 1000

    def check(self, value: Any) -> None:
        if not isinstance(value, str) or len(value) > self.max_length:
            raise ValueError(f"must be {self.description}")


def text(max_length: int = 1000) -> Text:
    return Text(f"a string of at most {max_length} characters", max_length)

