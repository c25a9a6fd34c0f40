"""Black-box adapter for Google's rouge-score 0.1.2 (live, in-process; never a copy of it).

assay takes reference *streams* (``refs[k][i]`` = k-th reference of document i); rouge-score
scores one document at a time: ``RougeScorer(types, use_stemmer, split_summaries=False)``,
``.score(target, prediction)`` for one reference and ``.score_multi(targets, prediction)``
(per type, the reference with the best F; the first wins a tie) for several. A ``None``
reference is left out of its document. Results are plain dicts: per document
``{type: {"p", "r", "f"}}`` and their corpus mean (the arithmetic mean of per-document P, R and
F, which is what assay's rouge-score profile reports at corpus level).
"""
from __future__ import annotations

from typing import Any, Sequence

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def version() -> str:
    from importlib.metadata import version as dist_version
    return dist_version("rouge-score")


def scorer(types: Sequence[str], use_stemmer: bool) -> Any:
    from rouge_score import rouge_scorer
    return rouge_scorer.RougeScorer(list(types), use_stemmer=use_stemmer, split_summaries=False)


def command_text(types: Sequence[str], use_stemmer: bool, multi: bool) -> str:
    call = "score_multi(targets, prediction)" if multi else "score(target, prediction)"
    return (f"rouge_score.rouge_scorer.RougeScorer({list(types)!r}, use_stemmer={use_stemmer}, "
            f"split_summaries=False).{call} per document; corpus = mean of per-document p/r/f")


def score_docs(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], types: Sequence[str] = DEFAULT_TYPES,
               use_stemmer: bool = False, force_multi: bool = False) -> dict[str, Any]:
    """Per-document scores and their mean. ``force_multi`` uses ``score_multi`` even for one reference."""
    sc = scorer(types, use_stemmer)
    docs: list[dict[str, dict[str, float]]] = []
    multi_used = False
    for i, hyp in enumerate(hyps):
        targets = [stream[i] for stream in refs if stream[i] is not None]
        if not targets:
            raise ValueError(f"document {i} has no reference")
        if len(targets) == 1 and not force_multi:
            result = sc.score(targets[0], hyp)
        else:
            multi_used = True
            result = sc.score_multi(targets, hyp)
        docs.append({t: {"p": float(s.precision), "r": float(s.recall), "f": float(s.fmeasure)}
                     for t, s in result.items()})
    mean = {t: {k: (sum(d[t][k] for d in docs) / len(docs)) if docs else 0.0 for k in ("p", "r", "f")}
            for t in types}
    return {"docs": docs, "mean": mean, "command": command_text(types, use_stemmer, multi_used or force_multi),
            "version": version()}
