"""Audit speed: ``assay audit``'s whole configuration space on one ~2,000-segment corpus.

    python -m conformance.bench.audit [--corpus DIR] [--synthetic N] [--no-preprocessing] [--sample 12] [--quick]

Corpus: WMT22 en-de Online-A against reference A (2,037 segments) from ``../shared/corpora`` (or
``$ASSAY_CORPORA``); without it, the synthetic corpus of conformance/bench/corpora.py (2,000
segments, fixed seed). ``--size N`` keeps the first N segments.

Shows the number of configurations evaluated, the distinct statistics computed, wall and CPU
time (the target: >= 500 configurations in under 10 s of CPU time, one core), and, for scale, sacrebleu 2.x scoring a
sample of the same configurations one by one (its tokenisation cache cleared per call, as a user
running sacrebleu once per configuration would see), extrapolated to the whole space: the ratio.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

from conformance.bench.corpora import read_lines, synthetic_corpus
from conformance.bench.harness import Bench, Corpus, arguments, clear_sacrebleu_caches, parse

WMT22 = Path("wmt22-general") / "en-de"


def corpus(corpora: Path, synthetic: int, size: int) -> tuple[list[str], list[str], str]:
    hyp = corpora / WMT22 / "generaltest2022.en-de.hyp.Online-A.de"
    ref = corpora / WMT22 / "generaltest2022.en-de.ref.A.de"
    if not synthetic and hyp.is_file() and ref.is_file():
        h, r = read_lines(hyp)[:size], read_lines(ref)[:size]
        return h, r, f"wmt22 en-de Online-A vs ref A ({len(h)} segments)"
    return synthetic_corpus(synthetic or min(size, 2000))


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=2037, unit="segments", quick=300, repeats=1, size_aliases=("--segments",))
    parser.add_argument("--synthetic", type=int, default=0, metavar="N", help="use a synthetic corpus of N segments")
    parser.add_argument("--no-preprocessing", dest="preprocessing", action="store_false")
    parser.add_argument("--sample", type=int, default=12, help="sacrebleu configurations timed")
    args = parse(parser, argv)
    hyps, refs, name = corpus(args.corpus, args.synthetic, args.size)
    from assay.jobs.audit.claims import parse_claim
    from assay.jobs.audit.search import Auditor
    from assay.jobs.audit.verdict import audit_claim

    bench = Bench("assay audit: the whole BLEU configuration space", Corpus.of(name, len(hyps), "segments", hyps, refs),
                  repeats=args.repeats, memory=args.memory)
    holder: dict[str, Auditor] = {}

    def run_audit() -> object:
        holder["auditor"] = auditor = Auditor("bleu", hyps, [refs], lang="de", preprocessing=args.preprocessing)
        std = auditor.evaluate(auditor.standard_candidate(parse_claim("BLEU 0")))
        return std, audit_claim(auditor, parse_claim(f"BLEU {std.value:.1f}"))

    row = bench.single("assay audit (every configuration)", run_audit)
    std, report = row.assay.result
    auditor = holder["auditor"]
    wall, cpu = row.assay.wall[-1], row.assay.cpu[-1]
    n = len(report.result.evaluated)
    bench.note(f"{n} configurations ({len(report.result.matches)} match BLEU {std.value:.1f}), "
               f"{auditor.stats_computed} distinct statistics, {wall:.2f}s wall, {cpu:.2f}s CPU "
               f"({n / cpu:.0f} configurations per CPU second); target >= 500 in < 10 s (CPU time: the machine is "
               f"shared, wall time counts other processes): {'met' if n >= 500 and cpu < 10 else 'NOT met'}")
    for note in report.result.notes:
        bench.note(f"note: {note}")
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU
    except ImportError:
        bench.note("sacrebleu not installed: no ratio")
        return 0
    rng = random.Random(7)
    sample = [c for c in report.result.evaluated if c.candidate.profile == "sacrebleu" and c.candidate.prep == "raw"
              and c.ok and c.candidate.knob_dict.get("scale", 100) == 100]
    sample = rng.sample(sample, min(args.sample, len(sample)))

    def one_by_one() -> float:
        worst = 0.0
        for e in sample:
            k = e.candidate.knob_dict
            clear_sacrebleu_caches()
            bleu = BLEU(tokenize=k.get("tokenize", "13a"), lowercase=k.get("lowercase", False),
                        smooth_method=k.get("smooth_method", "exp"), effective_order=k.get("effective_order", False))
            worst = max(worst, abs(bleu.corpus_score(hyps, [refs]).score - e.value))
        return worst

    tool = f"sacrebleu {sacrebleu.__version__}"
    sb = bench.single(f"sacrebleu, one run per configuration ({len(sample)} sampled)", one_by_one, tool=tool,
                      repeats=1)
    per = sb.tool.median / max(1, len(sample))
    bench.derived(f"whole space: {n} configurations (sacrebleu extrapolated, {per:.3f}s each)", row.assay.median,
                  tool, per * n, sb.tool.result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
