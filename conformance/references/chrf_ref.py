"""Black-box adapter for chrF: sacrebleu 2.x / 1.x and NLTK's ``chrf_score`` (live tools, never a copy).

Knobs use assay's names (``char_order``, ``word_order``, ``beta``, ``lowercase``, ``whitespace``,
``eps_smoothing``, ``min_char_order``); references are assay's *streams*. Each call returns a plain
dict ``{"score": float | [float per segment], "stats": [...] | [[...] per segment] | None,
"command": "<the call>"}`` -- statistics are sacrebleu's per-order ``[hyp, ref, match]`` lists
(summed over segments at corpus level). A tool exception propagates.

Run as ``python -m conformance.references.chrf_ref`` it reads one JSON request per line on stdin
(``{"tool": "sacrebleu"|"nltk", "hyps", "refs", "knobs", "level"}``) and answers one JSON line each
(``{"result": ..., "version": ...}`` or ``{"error": "<Exception>: <message>", "version": ...}``):
that is how sacrebleu 1.5.1 and NLTK 3.5, installed in another interpreter, are queried
(:func:`run_in`). At import time this module needs only the standard library.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_LEGACY_PYTHON = "/tmp/legacyvenv/bin/python"


def tool_version(tool: str) -> str:
    module = __import__(tool)
    return module.__version__


def _sum(rows: list[list[int]]) -> list[int]:
    return [sum(col) for col in zip(*rows)] if rows else []


# ---------------------------------------------------------------------------- sacrebleu
def sacrebleu_chrf(hyps: list[str], refs: list[list[str | None]], knobs: dict[str, Any],
                   level: str = "corpus") -> dict[str, Any]:
    """sacrebleu's chrF (2.x ``CHRF(...)``, 1.x ``corpus_chrf``/``sentence_chrf``) with its statistics."""
    import sacrebleu
    if int(sacrebleu.__version__.split(".")[0]) >= 2:
        return _sacrebleu2(hyps, refs, knobs, level)
    return _sacrebleu1(hyps, refs, knobs, level)


def _sacrebleu2(hyps: list[str], refs: list[list[str | None]], knobs: dict[str, Any], level: str) -> dict[str, Any]:
    from sacrebleu.metrics import CHRF
    args = {k: knobs[k] for k in ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
            if k in knobs}
    metric = CHRF(**args)
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items())
    if level == "corpus":
        score = metric.corpus_score(hyps, refs)
        rows = metric._extract_corpus_statistics(hyps, refs)
        signature = str(metric.get_signature())
        return {"score": float(score.score), "stats": _sum(rows), "signature": signature,
                "text": score.format(width=2, signature=signature), "str": str(score),
                "command": f"sacrebleu.metrics.CHRF({shown}).corpus_score(hyps, refs); statistics: "
                           "summed ._extract_corpus_statistics(hyps, refs)"}
    scores, stats = [], []
    for i, hyp in enumerate(hyps):
        seg_refs = [s[i] for s in refs if s[i] is not None]
        scores.append(float(metric.sentence_score(hyp, seg_refs).score))
        stats.append(metric._extract_corpus_statistics([hyp], [[r] for r in seg_refs])[0])
    return {"score": scores, "stats": stats,
            "command": f"sacrebleu.metrics.CHRF({shown}).sentence_score(hyp, [present refs of the segment]) "
                       "per segment"}


def _sacrebleu1(hyps: list[str], refs: list[list[str | None]], knobs: dict[str, Any], level: str) -> dict[str, Any]:
    import argparse

    import sacrebleu
    from sacrebleu.metrics.chrf import CHRF
    bad = set(knobs) - {"char_order", "beta", "whitespace"}
    if bad:
        raise ValueError(f"sacrebleu 1.x chrF has no {sorted(bad)}")
    order, beta = knobs.get("char_order", 6), knobs.get("beta", 2)
    whitespace = knobs.get("whitespace", False)
    kwargs = dict(order=order, beta=beta, remove_whitespace=not whitespace)
    shown = f"order={order!r}, beta={beta!r}, remove_whitespace={not whitespace!r}"
    metric = CHRF(argparse.Namespace(chrf_order=order, chrf_beta=beta, chrf_whitespace=whitespace))
    if level == "corpus":
        score = sacrebleu.corpus_chrf(hyps, refs, **kwargs)
        rows = [metric.get_sentence_statistics(h, [s[i] for s in refs]) for i, h in enumerate(hyps)]
        return {"score": float(score.score), "stats": _sum(rows), "str": str(score),
                "command": f"sacrebleu.corpus_chrf(hyps, refs, {shown}); statistics: summed "
                           "CHRF(args).get_sentence_statistics(hyp, refs of the segment)"}
    scores, stats = [], []
    for i, hyp in enumerate(hyps):
        seg_refs = [s[i] for s in refs]
        scores.append(float(sacrebleu.sentence_chrf(hyp, seg_refs, **kwargs).score))
        stats.append(metric.get_sentence_statistics(hyp, seg_refs))
    return {"score": scores, "stats": stats,
            "command": f"sacrebleu.sentence_chrf(hyp, refs of the segment, {shown}) per segment"}


# ---------------------------------------------------------------------------- NLTK
def nltk_chrf(hyps: list[Any], refs: list[list[Any]], knobs: dict[str, Any], level: str = "corpus") -> dict[str, Any]:
    """NLTK ``corpus_chrf(references, hypotheses, ...)`` / ``sentence_chrf(reference, hypothesis, ...)``
    with the first (only) reference stream; token lists are passed as lists (NLTK joins them)."""
    from nltk.translate.chrf_score import corpus_chrf, sentence_chrf
    bad = set(knobs) - {"char_order", "min_char_order", "beta", "whitespace"}
    if bad:
        raise ValueError(f"NLTK chrF has no {sorted(bad)}")
    if len(refs) != 1:
        raise ValueError("NLTK chrF takes one reference per hypothesis")
    kwargs = dict(min_len=knobs.get("min_char_order", 1), max_len=knobs.get("char_order", 6),
                  beta=knobs.get("beta", 3.0), ignore_whitespace=not knobs.get("whitespace", False))
    shown = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    if level == "corpus":
        return {"score": float(corpus_chrf(refs[0], hyps, **kwargs)), "stats": None,
                "command": f"nltk.translate.chrf_score.corpus_chrf(references, hypotheses, {shown})"}
    return {"score": [float(sentence_chrf(r, h, **kwargs)) for r, h in zip(refs[0], hyps)], "stats": None,
            "command": f"nltk.translate.chrf_score.sentence_chrf(reference, hypothesis, {shown}) per segment"}


TOOLS = {"sacrebleu": sacrebleu_chrf, "nltk": nltk_chrf}


# ---------------------------------------------------------------------------- other interpreters
def answer(req: dict[str, Any]) -> dict[str, Any]:
    """One JSON request -> one JSON answer; the tool's exception is recorded as data."""
    tool = req.get("tool", "sacrebleu")
    try:
        return {"result": TOOLS[tool](req["hyps"], req["refs"], req.get("knobs", {}), req.get("level", "corpus")),
                "version": tool_version(tool)}
    except Exception as exc:  # the tool's own failure is data
        return {"error": f"{type(exc).__name__}: {exc}", "version": tool_version(tool)}


def run_in(python: str, requests: Sequence[dict[str, Any]], timeout: float = 1800.0) -> list[dict[str, Any]]:
    """Answer ``requests`` with this module run by another interpreter (sacrebleu 1.5.1, NLTK 3.5)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(ROOT), PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    proc = subprocess.run([python, "-m", "conformance.references.chrf_ref"], input=payload, capture_output=True,
                          text=True, encoding="utf-8", cwd=str(ROOT), env=env, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{python} -m conformance.references.chrf_ref failed:\n{proc.stderr[-2000:]}")
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    if len(lines) != len(requests):
        raise RuntimeError(f"expected {len(requests)} answer lines from {python}, got {len(lines)}")
    return lines


def main() -> None:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(answer(json.loads(line)), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
