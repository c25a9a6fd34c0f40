"""Benchmark: a full `assay report` (every metric, every profile) of a 2,000-segment corpus, and
the cost of running each reference tool once on the same corpus.

    PYTHONHASHSEED=0 python -m conformance.bench.report [--size 2000] [--out DIR] [--no-tools] [--quick]

The corpus is generated (conformance/generate/report_sample.py, seed 11; text the project
writes). The report must take under 60 s on the project's 2-core machine (issue 7); the tool
rows show what one score per tool costs, so the report's price per profile can be compared
with running the tools themselves. Tools that are not installed are listed as such. The table
shows wall time (perf_counter); the notes add process CPU time: the machine is shared, so CPU
time is the steadier figure. The notes end with the page's weight and height in Chromium
(``conformance.bench.report_page``, which measures the bundled sample's page).
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Callable

from conformance.bench.harness import Bench, Corpus, arguments, parse
from conformance.generate.report_sample import generate


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


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=2000, unit="segments", quick=200, repeats=1, size_aliases=("--segments",),
                       corpus=False)
    parser.add_argument("--out", type=Path, help="report directory (default: a temporary one)")
    parser.add_argument("--no-tools", action="store_true", help="skip the reference tools")
    args = parse(parser, argv)
    hyps, ref1, ref2 = generate(args.size, seed=11)
    refs = [ref1, ref2]
    bench = Bench("assay report vs one score per reference tool",
                  Corpus.of("generated (conformance/generate/report_sample.py, seed 11), 2 references", len(hyps),
                            "segments", hyps, refs),
                  repeats=args.repeats, memory=args.memory)

    from assay.jobs.report import build_report
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "report"
        row = bench.single("assay report (every metric and profile)",
                           lambda: build_report(hyps, refs, out, progress=False))
        report = row.assay.result
        profiles = sum(len(t.scored) for t in report.comparison.tables)
        attributions = sum(len(s.attributions) for s in report.sections)
        stats = sum(ev.stats_computed for ev in report.comparison.evaluators.values())
        wall, cpu = row.assay.wall[-1], row.assay.cpu[-1]
        bench.note(f"{wall:.1f} s wall, {cpu:.1f} s CPU ({profiles} profile scores, {attributions} attributions, "
                   f"{stats} distinct statistics) -> {'OK' if wall < 60 else 'OVER'} the 60 s budget")
        from conformance.bench.report_page import measure_page   # the page's size, laid out in Chromium
        for line in measure_page(out / "index.html").lines():
            bench.note(line)
    if args.no_tools:
        return 0
    for name, fn, why in _tools(hyps, refs):
        if fn is None:
            bench.derived(name, None, why, None)
            continue
        row = bench.single(f"{name} (one corpus score)", fn, tool=name.split(" ")[0])
        bench.note(f"{row.tool.wall[-1]:.2f} s wall, {row.tool.cpu[-1]:.2f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
