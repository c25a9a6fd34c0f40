"""Benchmark: a full `assay report` (every metric, every profile) of a 2,000-segment corpus, and
the cost of running each reference tool once on the same corpus.

    PYTHONHASHSEED=0 python conformance/bench_report.py [--segments 2000] [--out DIR]

The corpus is generated (conformance/generate_report_sample.py, seed 11; text the project
writes). The report must take under 60 s on the project's 2-core machine (issue 7); the tool
lines show what one score per tool costs, so the report's price per profile can be compared
with running the tools themselves. Tools that are not installed are listed as such. Wall time
(perf_counter) and process CPU time are both printed: the machine is shared, so CPU time is
the steadier figure.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Callable

from conformance.generate_report_sample import generate


def _timed(fn: Callable[[], object]) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def _tools(hyps: list[str], refs: list[list[str]]) -> list[tuple[str, Callable[[], object] | None, str]]:
    out: list[tuple[str, Callable[[], object] | None, str]] = []
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU, CHRF, TER
        out.append((f"sacrebleu {sacrebleu.__version__} BLEU", lambda: BLEU().corpus_score(hyps, refs), ""))
        out.append((f"sacrebleu {sacrebleu.__version__} chrF", lambda: CHRF().corpus_score(hyps, refs), ""))
        out.append((f"sacrebleu {sacrebleu.__version__} TER", lambda: TER().corpus_score(hyps, refs), ""))
    except ImportError:
        out.append(("sacrebleu", None, "not installed"))
    try:
        import nltk
        from nltk.translate.bleu_score import corpus_bleu
        from nltk.translate.nist_score import corpus_nist
        toks_h = [h.split() for h in hyps]
        toks_r = [[s[i].split() for s in refs] for i in range(len(hyps))]
        out.append((f"nltk {nltk.__version__} corpus_bleu", lambda: corpus_bleu(toks_r, toks_h), ""))
        out.append((f"nltk {nltk.__version__} corpus_nist", lambda: corpus_nist(toks_r, toks_h), ""))
    except ImportError:
        out.append(("nltk", None, "not installed"))
    try:
        from rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])
        out.append(("rouge-score 0.1.2 (4 types)", lambda: [scorer.score_multi([s[i] for s in refs], h)
                                                           for i, h in enumerate(hyps)], ""))
    except ImportError:
        out.append(("rouge-score", None, "not installed"))
    try:
        from pycocoevalcap.cider.cider import Cider
        gts = {i: [s[i] for s in refs] for i in range(len(hyps))}
        res = {i: [h] for i, h in enumerate(hyps)}
        out.append(("pycocoevalcap 1.2 CIDEr", lambda: Cider().compute_score(gts, res), ""))
    except ImportError:
        out.append(("pycocoevalcap", None, "not installed"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--out", type=Path, help="report directory (default: a temporary one)")
    ap.add_argument("--no-tools", action="store_true", help="skip the reference tools")
    args = ap.parse_args()
    hyps, ref1, ref2 = generate(args.segments, seed=11)
    refs = [ref1, ref2]

    from assay.jobs.report import build_report
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "report"
        holder: dict[str, object] = {}
        wall, cpu = _timed(lambda: holder.setdefault("r", build_report(hyps, refs, out, progress=False)))
        report = holder["r"]
        profiles = sum(len(t.scored) for t in report.comparison.tables)   # type: ignore[attr-defined]
        attributions = sum(len(s.attributions) for s in report.sections)  # type: ignore[attr-defined]
        stats = sum(ev.stats_computed for ev in report.comparison.evaluators.values())  # type: ignore[attr-defined]
        print(f"assay report, {args.segments} segments x 2 refs: {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"({profiles} profile scores, {attributions} attributions, {stats} distinct statistics) "
              f"-> {'OK' if wall < 60 else 'OVER'} the 60 s budget")
    if args.no_tools:
        return
    print("reference tools, one corpus score each on the same corpus:")
    for name, fn, why in _tools(hyps, refs):
        if fn is None:
            print(f"  {name:<36} {why}")
            continue
        w, c = _timed(fn)
        print(f"  {name:<36} {w:7.2f} s wall {c:7.2f} s CPU")


if __name__ == "__main__":
    main()
