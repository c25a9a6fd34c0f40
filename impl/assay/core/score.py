"""The one result type: value, components, profile, knobs and a signature; and the sentence-level
sequence of them (:class:`SentenceScores`), which keeps one float per segment, not one object."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Iterator, overload

import numpy as np

from assay.core.knobs import Config


@dataclass(eq=False, slots=True)
class Score:
    """A metric score on the reproduced tool's own scale (e.g. BLEU 0-100 for sacrebleu, 0-1 for NLTK).

    ``components`` are the intermediate values (precisions, BP, lengths, ...); ``text`` is the
    line the reproduced tool would print (at the requested width); ``signature`` names every
    setting that produced the value. Text and the tool's JSON are rendered on first use.
    Slotted (no per-instance dict): a sentence-level run makes one per segment, a million of them
    for a million lines, so each is one small object; its lazy parts are cached in two slots.
    """

    metric: str
    value: float
    config: Config
    profile: str | None
    signature: str
    render: Callable[["Score"], tuple[str, dict[str, Any] | None]] | None = field(default=None, repr=False)
    components_source: dict[str, Any] | Callable[[], dict[str, Any]] = field(default_factory=dict, repr=False)
    _components: dict[str, Any] | None = field(default=None, init=False, repr=False)
    _rendered_cache: tuple[str, dict[str, Any] | None] | None = field(default=None, init=False, repr=False)

    @property
    def components(self) -> dict[str, Any]:
        """Intermediate values; built on first use when the source is lazy (sentence scores)."""
        if self._components is None:
            src = self.components_source
            self._components = src() if callable(src) else src
        return self._components

    @property
    def _rendered(self) -> tuple[str, dict[str, Any] | None]:
        if self._rendered_cache is None:
            self._rendered_cache = self.render(self) if self.render else (f"{self.metric} = {self.value}", None)
        return self._rendered_cache

    @property
    def text(self) -> str:
        return self._rendered[0]

    @property
    def tool_json(self) -> dict[str, Any] | None:
        return self._rendered[1]

    @property
    def knobs(self) -> dict[str, Any]:
        return self.config.as_dict()

    def __float__(self) -> float:
        return float(self.value)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metric": self.metric,
            "profile": self.profile,
            "score": json_safe(self.value),
            "components": json_safe(self.components),
            "knobs": json_safe(self.knobs),
            "signature": self.signature,
            "text": self.text,
        }
        if self.tool_json is not None:
            out["tool_json"] = json_safe(self.tool_json)
        return out

    def dumps(self) -> str:
        import json   # here: a score printed as text needs no JSON

        return json.dumps(self.to_json(), ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class RowScores:
    """Every statistics row scored alone (a family's ``sentence_stats_scores``): ``values[i]`` is row
    i's score (float64, the tool's scale) and ``components(i)`` builds its components on demand, from
    the family's per-corpus arrays (no per-row object is made until a row's components are read)."""

    values: np.ndarray
    components: Callable[[int], dict[str, Any]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", np.asarray(self.values, dtype=np.float64))

    def __len__(self) -> int:
        return len(self.values)

    @classmethod
    def concatenated(cls, blocks: Sequence["RowScores"], size: int) -> "RowScores":
        """Blocks of ``size`` rows each (the last may be shorter), scored one after another, as one."""
        return cls(np.concatenate([b.values for b in blocks]), partial(_in_block, list(blocks), size))

    @classmethod
    def of_pairs(cls, pairs: Sequence[tuple[float, Any]]) -> "RowScores":
        """From (value, components) pairs, each components a dict or a function building it (a family
        scoring its rows one by one)."""
        return cls(np.array([v for v, _ in pairs], dtype=np.float64), partial(_built, [c for _, c in pairs]))


def _in_block(blocks: list[RowScores], size: int, i: int) -> dict[str, Any]:
    return blocks[i // size].components(i % size)


def _built(parts: list[Any], i: int) -> dict[str, Any]:
    part = parts[i]
    built: dict[str, Any] = part() if callable(part) else part
    return built


class SentenceScores(Sequence[Score]):
    """One :class:`Score` per segment, in order: what ``assay.sentence_scores`` returns.

    A read-only sequence (``len``, indexing, negative indices, iteration; a slice is a list of Scores)
    whose Scores are made when they are read, from ``values`` (one float64 per segment, the tool's
    scale: ``scores.values`` is the fast way to get them all as a numpy array) and the family's lazy
    components. A million segments cost a few bytes each, not a Python object each (issue 18: memory
    follows the statistics). Two reads of one index give equal, distinct Score objects.

    ``signatures`` is the signature every segment shares, or ``i -> signature`` (sacrebleu's
    ``nrefs:var`` for a segment with a missing reference)."""

    __slots__ = ("metric", "config", "profile", "rows", "signatures", "render")

    def __init__(self, metric: str, config: Config, profile: str | None, rows: RowScores,
                 signatures: str | Callable[[int], str],
                 render: Callable[[Score], tuple[str, dict[str, Any] | None]] | None):
        self.metric, self.config, self.profile = metric, config, profile
        self.rows, self.signatures, self.render = rows, signatures, render

    @property
    def values(self) -> np.ndarray:
        """Every segment's value (read-only float64 array)."""
        view: np.ndarray = self.rows.values.view()
        view.flags.writeable = False
        return view

    def __len__(self) -> int:
        return len(self.rows.values)

    @overload
    def __getitem__(self, index: int) -> Score: ...

    @overload
    def __getitem__(self, index: slice) -> list[Score]: ...

    def __getitem__(self, index: int | slice) -> Score | list[Score]:
        if isinstance(index, slice):
            return [self._score(i) for i in range(*index.indices(len(self)))]
        n = len(self)
        i = index.__index__()
        if not -n <= i < n:
            raise IndexError(f"segment index {index} out of range for {n} segments")
        return self._score(i % n)

    def __iter__(self) -> Iterator[Score]:
        return map(self._score, range(len(self)))

    def _score(self, i: int) -> Score:
        sig = self.signatures if isinstance(self.signatures, str) else self.signatures(i)
        return Score(self.metric, float(self.rows.values[i]), self.config, self.profile, sig, self.render,
                     partial(self.rows.components, i))

    def __repr__(self) -> str:
        head = ", ".join(f"{v:g}" for v in self.rows.values[:3].tolist())
        more = ", ..." if len(self) > 3 else ""
        return f"SentenceScores({self.metric}, {len(self)} segments: [{head}{more}])"


def json_safe(value: Any, non_finite: str = "error") -> Any:
    """A JSON-ready copy: numpy scalars/arrays to Python, tuples to lists, dict keys to str.

    A non-finite float raises (``non_finite="error"``: assay never emits NaN) or becomes its
    ``repr`` (``"repr"``: reports quoting what another implementation answered)."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {str(k): json_safe(v, non_finite) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, non_finite) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        if non_finite == "repr":
            return repr(value)
        raise ValueError(f"non-finite value {value!r} in a score")
    return value
