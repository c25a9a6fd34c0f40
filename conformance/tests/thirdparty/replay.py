"""Replay a third-party package's recorded answers as an ``assay conform`` implementation.

``direct:conformance.tests.thirdparty.replay:<name>`` (``<name>`` with ``-``/``.`` as ``_``: e.g.
``hf_bleu``, ``tm_ter_cased``) answers each protocol case from ``fixtures/thirdparty/<name>.json``
(recorded by ``python -m conformance.regen thirdparty`` from the real package): the recorded
score and components, the recorded exception (raised again under its own class name), or a skip
where the package's call shape could not express the case. A case never recorded raises
``LookupError``. No package is imported. The lookup is :func:`assay.jobs.conform.recorded.case_key`
on the recording's own metric, so a profile of another metric (``gleu``) may replay a ``bleu``
recording.
"""
from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Callable

from assay.jobs.conform.recorded import case_key
from conformance.paths import FIXTURES
from conformance.regen.thirdparty import RECORDINGS

ROOT = FIXTURES / "thirdparty"


@lru_cache(maxsize=None)
def load(name: str) -> dict[str, Any]:
    """The recorded document of one package call (``fixtures/thirdparty/<name>.json``)."""
    return json.loads((ROOT / f"{name}.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _error(name: str) -> type[Exception]:
    return type(name, (Exception,), {})


def answer(name: str, case: dict[str, Any]) -> dict[str, Any]:
    """The recorded answer to a protocol case message."""
    from assay.jobs.conform.shapes import ShapeSkip
    doc = load(name)
    key = case_key(doc["metric"], case["level"], case["hyps"], case["refs"], case.get("knobs"))
    rec = doc["answers"].get(key)
    if rec is None:
        raise LookupError(f"{name}: no recorded answer for case {case.get('id')} (key {key})")
    if "skipped" in rec:
        raise ShapeSkip(rec["skipped"])
    if "error" in rec:
        raise _error(rec["error"])(rec.get("message", ""))
    return {"score": rec["score"], "components": rec.get("components") or {}}


def _replayer(name: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def call(case: dict[str, Any]) -> dict[str, Any]:
        return answer(name, case)
    call.__name__ = name.replace("-", "_").replace(".", "_")
    call.assay_conform_info = {"name": f"{name} (recorded)", "metrics": [r.metric for r in RECORDINGS
                                                                          if r.name == name]}
    return call


for _rec in RECORDINGS:
    globals()[_rec.name.replace("-", "_").replace(".", "_")] = _replayer(_rec.name)
