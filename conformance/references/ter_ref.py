"""Adapter for sacrebleu's TER (2.x in-process; 1.x through this module run by another interpreter).

``ter(hyps, refs, knobs, level)`` returns plain dicts on sacrebleu's own scale: corpus
``{"score", "num_edits", "ref_length", "text"}``, sentence ``{"segments": [...]}`` (one
``sentence_score``/``sentence_ter`` call per segment). ``knobs`` are the four switches
``normalized``, ``no_punct``, ``asian_support``, ``case_sensitive`` (sacrebleu's names).
Run as ``python -m conformance.references.ter_ref`` it reads JSON requests (one per line) on
stdin and answers one JSON result per line: this is how ``regen_ter.py`` and the legacy tests
query sacrebleu 1.5.1 installed in another virtualenv.
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Iterable

from conformance.references.jsonl import serve

SWITCHES = ("normalized", "no_punct", "asian_support", "case_sensitive")


def _switches(knobs: dict[str, Any]) -> dict[str, bool]:
    unknown = set(knobs) - set(SWITCHES)
    if unknown:
        raise ValueError(f"sacrebleu TER has no option(s) {sorted(unknown)}")
    return {k: bool(knobs.get(k, False)) for k in SWITCHES}


def ter(hyps: list[str], refs: list[list[str]], knobs: dict[str, Any], level: str = "corpus") -> dict[str, Any]:
    """One TER result (corpus) or per-segment results (sentence), as sacrebleu computes them."""
    import sacrebleu
    opts = _switches(knobs)
    if int(sacrebleu.__version__.split(".")[0]) >= 2:
        from sacrebleu.metrics import TER
        metric = TER(**opts)
        if level == "corpus":
            return _result(metric.corpus_score(hyps, refs))
        return {"segments": [_result(metric.sentence_score(h, [s[i] for s in refs])) for i, h in enumerate(hyps)]}
    if level == "corpus":
        return _result(sacrebleu.corpus_ter(hyps, refs, **opts))
    return {"segments": [_result(sacrebleu.sentence_ter(h, [s[i] for s in refs], **opts))
                         for i, h in enumerate(hyps)]}


def _result(score: Any) -> dict[str, Any]:
    return {"score": float(score.score), "num_edits": int(score.num_edits), "ref_length": float(score.ref_length),
            "text": str(score)}


def version() -> str:
    import sacrebleu
    return sacrebleu.__version__


def main() -> None:
    serve(ter, version)


def run_other(python: str, requests: Iterable[dict[str, Any]], timeout: float = 3600) -> list[dict[str, Any]]:
    """Answer ``requests`` with the sacrebleu installed for ``python`` (e.g. the 1.5.1 legacy venv)."""
    root = Path(__file__).resolve().parent.parent.parent
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(root))
    lines = "".join(json.dumps(r) + "\n" for r in requests)
    proc = subprocess.run([python, "-m", "conformance.references.ter_ref"], input=lines, capture_output=True,
                          text=True, env=env, check=True, timeout=timeout)
    return [json.loads(line) for line in proc.stdout.splitlines()]


if __name__ == "__main__":
    main()
