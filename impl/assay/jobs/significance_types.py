"""The results of a significance run (sacrebleu ``--confidence``, ``--paired-bs``, ``--paired-ar``).

Plain data: the seed, each system's score with its p-value, bootstrap mean and CI, and the
signatures. ``text`` / ``tool_json`` render them as sacrebleu prints them
(:mod:`assay.jobs.significance_text`, which reads these objects by their fields only).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assay.jobs.significance_text import confidence_json, confidence_line, paired_text


@dataclass(frozen=True)
class Seed:
    """The seed used for every draw (``None`` = unseeded) and the ``seed:`` signature field."""

    value: int | None
    label: str

    @property
    def paired_label(self) -> str:
        """Paired tests write the parsed seed (``" 0042"`` -> ``42``); ``--confidence`` the raw text."""
        return "none" if self.value is None else str(self.value)


@dataclass(frozen=True)
class SystemResult:
    """One system under one metric: the corpus score, and (per test) p-value, mean and CI."""

    score: float
    p_value: float | None = None
    mean: float | None = None
    ci: float | None = None
    low: float | None = None
    high: float | None = None

    def as_tool_json(self) -> dict[str, Any]:
        """sacrebleu's paired JSON entry: score, p_value, mean, ci (None = null)."""
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class ConfidenceResult:
    """Bootstrap CI of one system under one metric (sacrebleu ``--confidence``)."""

    metric: str
    name: str
    score: Any                 # the assay Score of the full corpus
    result: SystemResult
    n_samples: int
    seed: Seed
    signature: str
    width: int

    @property
    def mean(self) -> float:
        return float(self.result.mean)

    @property
    def ci(self) -> float:
        return float(self.result.ci)

    @property
    def text(self) -> str:
        return confidence_line(self)

    def tool_json(self) -> dict[str, Any]:
        return confidence_json(self)


@dataclass(frozen=True)
class PairedResult:
    """A paired test of a baseline against other systems under one or more metrics.

    ``systems[0]`` is the baseline; ``results[name][i]`` belongs to ``systems[i]`` (the baseline's
    p-value is None; AR results have no mean/CI).
    """

    test: str                   # "bs" or "ar"
    n_samples: int
    seed: Seed
    systems: list[str]
    names: list[str]            # metric display names, in order
    results: dict[str, list[SystemResult]]
    signatures: dict[str, str]
    width: int = 1
    scores: dict[str, list[Any]] = field(default_factory=dict, repr=False)

    @property
    def baseline(self) -> str:
        return self.systems[0]

    def p_values(self, name: str) -> list[float | None]:
        return [r.p_value for r in self.results[name]]

    @property
    def text(self) -> str:
        return paired_text(self)

    def tool_json(self) -> list[dict[str, Any]]:
        """sacrebleu's multi-system JSON: ``[{"system": …, METRIC: {score, p_value, mean, ci}}]``."""
        out = []
        for i, system in enumerate(self.systems):
            entry: dict[str, Any] = {"system": f"Baseline: {system}" if i == 0 else system}
            for name in self.names:
                entry[name] = self.results[name][i].as_tool_json()
            out.append(entry)
        return out
