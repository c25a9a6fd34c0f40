"""Adapter for sacrebleu (2.x in-process; 1.x through the same module run by another interpreter).

Normalises orientation (assay and sacrebleu both use reference streams) and returns plain
dicts: score on sacrebleu's own scale, counts, totals, sys_len, ref_len, bp, precisions.
Run as ``python -m conformance.references.sacrebleu_ref`` it reads JSON requests (one per
line) on stdin and answers one JSON result per line: this is how ``regen.py`` queries an old
sacrebleu installed in another virtualenv.
"""
from __future__ import annotations

from typing import Any

from conformance.references.jsonl import serve


def _bleu_object(sacrebleu: Any, knobs: dict[str, Any], level: str) -> Any:
    major = int(sacrebleu.__version__.split(".")[0])
    eff_default = level == "sentence"
    eff = knobs.get("effective_order", eff_default)
    if major >= 2:
        from sacrebleu.metrics import BLEU
        return BLEU(lowercase=knobs.get("lowercase", False), tokenize=knobs.get("tokenize", "13a"),
                    smooth_method=knobs.get("smooth_method", "exp"), smooth_value=knobs.get("smooth_value"),
                    max_ngram_order=knobs.get("max_ngram_order", 4), effective_order=eff)
    return None


def bleu(hyps: list[str], refs: list[list[str]], knobs: dict[str, Any], level: str = "corpus") -> dict[str, Any]:
    """One BLEU result (corpus) or a list of per-segment results (sentence), as sacrebleu computes them."""
    import sacrebleu
    major = int(sacrebleu.__version__.split(".")[0])
    eff = knobs.get("effective_order", level == "sentence")
    if major >= 2:
        metric = _bleu_object(sacrebleu, knobs, level)
        if level == "corpus":
            return _result(metric.corpus_score(hyps, refs))
        return {"segments": [_result(metric.sentence_score(h, [s[i] for s in refs])) for i, h in enumerate(hyps)]}
    kwargs = dict(smooth_method=knobs.get("smooth_method", "exp"), smooth_value=knobs.get("smooth_value"),
                  use_effective_order=eff)
    if level == "corpus":
        return _result(sacrebleu.corpus_bleu(hyps, refs, lowercase=knobs.get("lowercase", False),
                                             tokenize=knobs.get("tokenize", "13a"), **kwargs))
    if knobs.get("lowercase") or knobs.get("tokenize", "13a") != "13a":
        raise ValueError("sacrebleu 1.x sentence_bleu has no lowercase/tokenize arguments")
    return {"segments": [_result(sacrebleu.sentence_bleu(h, [s[i] for s in refs], **kwargs))
                         for i, h in enumerate(hyps)]}


def _result(score: Any) -> dict[str, Any]:
    out = {"score": float(score.score), "counts": [_number(c) for c in score.counts],
           "totals": [_number(t) for t in score.totals], "sys_len": int(score.sys_len),
           "ref_len": int(score.ref_len), "bp": float(score.bp),
           "precisions": [float(p) for p in score.precisions]}
    try:
        out["text"] = str(score)
    except ZeroDivisionError as exc:  # sacrebleu 1.x cannot print a score whose ref_len is 0
        out["text_error"] = f"{type(exc).__name__}: {exc}"
    return out


def _number(x: Any) -> int | float:
    """Counts are ints, except with add-k and a fractional k."""
    return int(x) if float(x).is_integer() else float(x)


def version() -> str:
    import sacrebleu
    return sacrebleu.__version__


def main() -> None:
    serve(bleu, version)


if __name__ == "__main__":
    main()
