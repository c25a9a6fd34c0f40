"""The one result type: value, components, profile, knobs and a signature."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable

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
        return json.dumps(self.to_json(), ensure_ascii=False)


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
