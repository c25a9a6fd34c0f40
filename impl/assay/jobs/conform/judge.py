"""Judge one answer against a case's expected values (per tool version, each with its tolerance).

A number passes when ``|got - expected| <= max(abs, rel * |expected|)`` (fixture tolerance; default
rel 1e-9); sentence-level scores element-wise; components only where the implementation returned
them (lists and dicts element-wise, strings exactly). A case passes when the answer matches any
one tool version's expected values. When the tool itself raises (``error`` names a Python
exception such as ``ZeroDivisionError``), the implementation passes by reporting an error.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from assay.jobs.conform.protocol import is_number
from assay.jobs.conform.suite import Case, Expected

PY_EXCEPTION = re.compile(r"^[A-Z]\w*(Error|Exception)$")
#: tool component names that assay (and most implementations) call differently
COMPONENT_ALIASES = {"hyp_len": ("sys_len",), "sys_len": ("hyp_len",)}

PASSED, FAILED, ERRORED, SKIPPED = "passed", "failed", "errored", "skipped"


@dataclass
class Answer:
    """What an implementation said about one case."""

    kind: str                                  # result | error | skipped | broken (runner-detected)
    score: Any = None
    components: dict[str, Any] = field(default_factory=dict)
    message: str = ""                          # error text / skip reason / what went wrong
    context: dict[str, Any] = field(default_factory=dict)   # stderr tail, exit code, raw output ...
    seconds: float = 0.0


@dataclass
class Outcome:
    case: Case
    status: str
    message: str = ""
    diffs: list[dict[str, Any]] = field(default_factory=list)
    matched: str | None = None                 # the tool version the answer reproduces
    answer: Answer | None = None
    expected_failure: bool = False             # listed in --expect-fail


def within(expected: float, got: float, tolerance: dict[str, float]) -> bool:
    rel = tolerance.get("rel", 1e-9)
    abs_ = tolerance.get("abs", 0.0)
    if not is_number(got):            # NaN, an infinity, an int beyond a double, not a number
        return False
    return abs(float(got) - expected) <= max(abs_, rel * abs(expected), 1e-300 if expected == 0 else 0.0)


def close(expected: Any, got: Any, tol: dict[str, float], partial: bool = False) -> bool:
    """Numbers within tolerance, lists and dicts element-wise, strings and None exactly.

    ``partial`` (components): a dict is judged on the keys the answer has, so an implementation
    that reports only the headline of a measure (ROUGE's F without P and R) is not failed for what
    it leaves out."""
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return False
        if partial:
            return all(close(v, got[k], tol, partial) for k, v in expected.items() if k in got)
        return expected.keys() <= got.keys() and all(close(v, got[k], tol) for k, v in expected.items())
    if expected is None or isinstance(expected, str) or isinstance(expected, bool):
        return expected == got
    if isinstance(expected, (list, tuple)):
        return isinstance(got, (list, tuple)) and len(expected) == len(got) and all(
            close(e, g, tol, partial) for e, g in zip(expected, got))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return within(float(expected), got, tol)


def scaled(value: Any, factor: float) -> Any:
    if factor == 1 or value is None:
        return value
    if isinstance(value, list):
        return [scaled(v, factor) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return value * factor
        except OverflowError:        # an int beyond a double: no score (judged as not finite)
            return math.inf
    return value


def describe_difference(expected: Any, got: Any, unit: str = "segment",
                        tol: dict[str, float] | None = None) -> str:
    """A short human diff: numbers with their deltas, lists by first differing element."""
    tol = tol or {"rel": 1e-9}
    if isinstance(expected, list):
        what = "sentence scores" if unit == "segment" else "entries"
        units = "segments" if unit == "segment" else "entries"
        if not isinstance(got, list):
            return f"expected {len(expected)} {what}, got {_fmt(got)}"
        if len(expected) != len(got):
            return f"expected {len(expected)} {what}, got {len(got)}"
        bad = [i for i, (e, g) in enumerate(zip(expected, got)) if not close(e, g, tol)]
        if not bad:
            return "equal within tolerance"
        i = bad[0]
        return (f"{len(bad)} of {len(expected)} {units} differ; first at {unit} {i + 1}: "
                f"{describe_difference(expected[i], got[i], 'entry', tol)}")
    if isinstance(expected, (int, float)) and is_number(got):
        delta = float(got) - expected
        rel = abs(delta) / abs(expected) if expected else float("inf")
        return f"expected {expected!r}, got {got!r} (diff {delta:+.3g}, rel {rel:.2g})"
    return f"expected {_fmt(expected)}, got {_fmt(got)}"


def _fmt(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:               # an int too long to print (sys.get_int_max_str_digits)
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= 80 else text[:77] + "..."


def _component(components: dict[str, Any], key: str) -> Any:
    if key in components:
        return components[key]
    for alias in COMPONENT_ALIASES.get(key, ()):
        if alias in components:
            return components[alias]
    return None


def _check_entry(exp: Expected, answer: Answer, factor: float) -> tuple[bool | None, str]:
    """(True = matches, False = differs, None = nothing to judge), with the difference."""
    tool_raises = bool(exp.error and PY_EXCEPTION.match(exp.error))
    if tool_raises:
        if answer.kind == "error":
            return True, f"the tool raises {exp.error}; the implementation failed too ({answer.message})"
        return False, f"the tool raises {exp.error}, the implementation returned {_fmt(answer.score)}"
    if exp.error or exp.score is None:      # a Perl crash with a placeholder score: nothing to judge
        return None, f"{exp.label} crashed ({exp.error}); no expected value"
    if answer.kind == "error":
        return False, f"implementation error: {answer.message}"
    got = scaled(answer.score, factor)
    if not close(exp.score, got, exp.tolerance):
        return False, "score: " + describe_difference(exp.score, got, "segment", exp.tolerance)
    if exp.exit_status:
        return True, ""
    for key, want in exp.components.items():
        have = _component(answer.components, key)
        if have is None:
            continue                          # components are optional in answers
        if not close(want, have, exp.tolerance, partial=True):
            return False, f"component {key}: " + describe_difference(want, have, "entry", exp.tolerance)
    return True, ""


def judge(case: Case, answer: Answer, factor: float = 1.0) -> Outcome:
    """The verdict on one answer (``factor`` rescales the implementation's scores, e.g. 100)."""
    if answer.kind == "skipped":
        return Outcome(case, SKIPPED, f"skipped by the implementation: {answer.message}", answer=answer)
    if answer.kind == "broken":
        return Outcome(case, ERRORED, answer.message, answer=answer)
    diffs: list[dict[str, Any]] = []
    judged = False
    for exp in case.expected:
        ok, text = _check_entry(exp, answer, factor)
        if ok is None:
            continue
        judged = True
        if ok:
            return Outcome(case, PASSED, text, matched=exp.label, answer=answer)
        diffs.append({"tool": exp.tool, "version": exp.version, "expected": exp.score,
                      "expected_error": exp.error, "got": scaled(answer.score, factor) if answer.kind == "result"
                      else None, "got_error": answer.message if answer.kind == "error" else None,
                      "difference": text})
    if not judged:
        return Outcome(case, SKIPPED, "no expected value to judge (the reference tool crashed)", answer=answer)
    if answer.kind == "error":
        return Outcome(case, ERRORED, f"implementation error: {answer.message}", diffs, answer=answer)
    return Outcome(case, FAILED, "; ".join(f"{d['tool']} {d['version']}: {d['difference']}" for d in diffs),
                   diffs, answer=answer)
