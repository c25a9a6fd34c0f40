"""Values for identification: what a profile predicts on a case, and when an answer agrees.

A prediction (:func:`value_of`) is a number (corpus), a list (sentence level), a dict of the
headline score and the F of every measure (ROUGE), :data:`ERROR` (the tool fails on this input)
or None (the configuration cannot score it). :func:`agrees` compares an answer with a prediction
after a scale factor, within a relative tolerance (the identification default is 1e-6: the
fixtures' 1e-9 policy plus room for float32 implementations); :func:`differs` says whether two
predictions are *evidence* against each other: a difference no larger than the tolerance (such as
1e-16 from another summation order) never is.
"""
from __future__ import annotations

import math
from typing import Any

from assay.core.errors import AssayError, ToolBehaviourError
from assay.core.knobs import Config
from assay.engine.evaluate import Evaluator
from assay.jobs.conform.judge import Answer

FACTORS = (1.0, 100.0, 0.01)
ERROR = "error"
#: metrics whose corpus answers are compared measure by measure (the F of every ROUGE type the
#: case reports), not only on the headline score
PER_MEASURE = frozenset({"rouge"})


def value_of(ev: Evaluator, config: Config, level: str) -> Any:
    try:
        if level == "sentence":
            return [float(v) for v in ev.sentence_values(config)]
        if ev.metric in PER_MEASURE:
            value, comps = ev.family.score_stats(ev.stats(config), config)
            out = {"score": float(value)}
            out.update({k: float(v["f"]) for k, v in comps.items() if isinstance(v, dict) and "f" in v})
            return out
        return float(ev.value(config))
    except ToolBehaviourError:
        return ERROR
    except (AssayError, ZeroDivisionError, ValueError):
        return None


def normalised(value: Any, scale: float) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, round(v / scale, 9)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(round(v / scale, 9) for v in value)
    if isinstance(value, float):
        return round(value / scale, 9)
    return value


def agrees(assay_value: Any, answer: Answer, factor: float, rel: float) -> bool:
    if assay_value is None:            # the profile rejects this input (e.g. too many references)
        return answer.kind == "error"
    if assay_value == ERROR or answer.kind == "error":
        return assay_value == ERROR and answer.kind == "error"
    if answer.kind != "result":
        return False
    got = answer.score
    if isinstance(assay_value, dict):
        pairs = _measure_pairs(assay_value, answer)
        return pairs is not None and all(close_enough(a, g * factor, rel) for a, g in pairs)
    if isinstance(assay_value, list):
        return isinstance(got, list) and len(got) == len(assay_value) and all(
            close_enough(a, g * factor, rel) for a, g in zip(assay_value, got))
    return not isinstance(got, list) and close_enough(assay_value, got * factor, rel)


def _measure_pairs(assay_value: dict[str, float], answer: Answer) -> list[tuple[float, float]] | None:
    """(assay, answer) pairs: the score, then the F of every measure both report."""
    if isinstance(answer.score, list):
        return None
    pairs = [(assay_value["score"], answer.score)]
    for key, value in assay_value.items():
        comp = answer.components.get(key) if key != "score" else None
        if isinstance(comp, dict) and isinstance(comp.get("f"), (int, float)) and not isinstance(comp["f"], bool):
            pairs.append((value, comp["f"]))
    return pairs


def distance(assay_value: Any, answer: Answer, factor: float) -> float:
    """Relative difference |a - g| / max(|a|, |g|) (0 = equal, 1 = unrelated or error mismatch)."""
    if assay_value is None or assay_value == ERROR or answer.kind != "result":
        return 0.0 if agrees(assay_value, answer, factor, 0.0) else 1.0
    got = answer.score
    if isinstance(assay_value, dict):
        pairs = _measure_pairs(assay_value, answer)
        return 1.0 if pairs is None else max(relative(a, g * factor) for a, g in pairs)
    if isinstance(assay_value, list):
        if not isinstance(got, list) or len(got) != len(assay_value):
            return 1.0
        return median([relative(a, g * factor) for a, g in zip(assay_value, got)])
    if isinstance(got, list):
        return 1.0
    return relative(assay_value, got * factor)


def relative(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else min(abs(a - b) / scale, 1.0)


def median(values: list[float]) -> float:
    if not values:
        return 1.0
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def close_enough(a: float, b: float, rel: float) -> bool:
    if not (math.isfinite(a) and math.isfinite(b)):
        return a == b
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), 1e-12)


def differs(a: Any, b: Any, rel: float) -> bool:
    """Whether two predictions tell their configurations apart beyond ``rel`` (None: no evidence;
    an error against a number: evidence)."""
    if a is None or b is None:
        return False
    if (a == ERROR) != (b == ERROR):
        return True
    if a == ERROR:
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return any(k in b and not close_enough(v, b[k], rel) for k, v in a.items())
    if isinstance(a, list) and isinstance(b, list):
        return len(a) != len(b) or any(not close_enough(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return not close_enough(a, b, rel)
    return type(a) is not type(b)


def scaled_prediction(value: Any, factor: float) -> Any:
    """A prediction in the implementation's units (its scores times ``factor`` are the profile's)."""
    if factor == 1 or value is None or value == ERROR:
        return value
    if isinstance(value, dict):
        return {k: v / factor for k, v in value.items()}
    if isinstance(value, list):
        return [v / factor for v in value]
    return value / factor
