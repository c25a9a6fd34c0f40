"""assay itself as an implementation under test (``--shape protocol`` callables).

- ``direct:assay.jobs.conform.assay_impl:follow`` follows each case's profile and knob hints (it runs
  every case, like the golden tests).
- ``direct:assay.jobs.conform.assay_impl:profiles[bleu/nltk]`` is one profile at its defaults, blind to
  the hints: what a knob-free implementation of that tool looks like (identification target).

Tool failures (:class:`~assay.core.errors.ToolBehaviourError`) are raised, so the runner records them
as the implementation's error (e.g. NLTK NIST's ZeroDivisionError).
"""
from __future__ import annotations

from typing import Any

from assay._version import __version__
from assay.core.io import SegmentFile
from assay.core.score import json_safe
from assay.engine.api import make_config, score, sentence_scores
from assay.engine.registry import METRIC_NAMES
from assay.jobs.conform.suite import report_knobs
from assay.profiles.registry import get_profile


def score_case(metric: str, profile: str | None, level: str, hyps: list[Any], refs: list[list[Any]],
               knobs: dict[str, Any] | None = None, input: dict[str, Any] | None = None) -> dict[str, Any]:
    """``{"score", "components"}`` from assay (a list of scores for level=sentence).

    ``input.hyp_final_newline = false`` (an unterminated last line) is applied like a file read:
    profiles with ``chop_unterminated_last_line`` drop that line's last character."""
    knobs = knobs or {}
    if input and input.get("hyp_final_newline") is False:
        config, _ = make_config(metric, profile, level, **knobs)
        if config.get("chop_unterminated_last_line"):
            hyps = SegmentFile("hyp", list(hyps), terminated=False).chopped()
    if level == "sentence":
        scores = sentence_scores(metric, hyps, refs, profile, **knobs)
        comps: dict[str, list[Any]] = {}
        for s in scores:
            for k, v in s.components.items():
                comps.setdefault(k, []).append(json_safe(v))
        return {"score": [float(s.value) for s in scores],
                "components": {k: v for k, v in comps.items() if len(v) == len(scores)}}
    result = score(metric, hyps, refs, profile, **knobs)
    return {"score": float(result.value), "components": json_safe(result.components)}


def follow(case: dict[str, Any]) -> dict[str, Any]:
    """Score a protocol case with the profile and knobs it names."""
    return score_case(case["metric"], case.get("profile"), case["level"], case["hyps"], case["refs"],
                      case.get("knobs") or {}, case.get("input"))


follow.assay_conform_info = {  # type: ignore[attr-defined]
    "name": "assay (follows the case's profile and knobs)", "version": __version__,
    "metrics": list(METRIC_NAMES), "knobs": True, "language": "python"}


class ProfileImplementation:
    """One assay profile at its defaults, ignoring the case's hints."""

    def __init__(self, metric: str, profile: str, **knobs: Any):
        self.metric, self.profile, self.knobs = metric, profile, knobs
        self.assay_conform_info = {"name": f"assay {metric}/{profile}", "version": __version__,
                                   "metrics": [metric], "profile": profile, "knobs": False,
                                   "language": "python"}

    def __call__(self, case: dict[str, Any]) -> dict[str, Any]:
        knobs = {**report_knobs(self.metric, case.get("knobs") or {}), **self.knobs}
        return score_case(self.metric, self.profile, case["level"], case["hyps"], case["refs"], knobs,
                          case.get("input"))


class _Profiles:
    """``profiles["bleu/nltk"]`` -> a :class:`ProfileImplementation`."""

    def __getitem__(self, name: str) -> ProfileImplementation:
        metric, _, profile = name.partition("/")
        get_profile(metric, profile)       # unknown names fail here, with the known ones listed
        return ProfileImplementation(metric, profile)


profiles = _Profiles()
