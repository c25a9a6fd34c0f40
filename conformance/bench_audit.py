"""Audit speed: ``assay audit``'s whole configuration space on one ~2,000-segment corpus.

    python conformance/bench_audit.py [--corpus DIR] [--synthetic N] [--no-preprocessing]

Corpus: WMT22 en-de Online-A against reference A (2,037 segments) from ``../shared/corpora`` (or
``$ASSAY_CORPORA``); without it, the synthetic corpus of bench_bleu.py (2,000 segments, fixed seed).

Prints the number of configurations evaluated, the distinct statistics computed, wall and CPU
time (the target: >= 500 configurations in under 10 s of CPU time, one core), and, for scale, sacrebleu 2.x scoring a
sample of the same configurations one by one (its tokenisation cache cleared per call, as a user
running sacrebleu once per configuration would see), extrapolated to the whole space: the ratio.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:
    import assay  # noqa: F401
except ImportError:
    sys.path.insert(0, str(ROOT / "impl"))
from conformance.bench_bleu import clear_sacrebleu_caches, synthetic_corpus  # noqa: E402

WMT22 = Path("wmt22-general") / "en-de"


def corpus(corpora: Path, synthetic: int) -> tuple[list[str], list[str], str]:
    hyp = corpora / WMT22 / "generaltest2022.en-de.hyp.Online-A.de"
    ref = corpora / WMT22 / "generaltest2022.en-de.ref.A.de"
    if not synthetic and hyp.is_file() and ref.is_file():
        h = hyp.read_text(encoding="utf-8").split("\n")[:-1]
        r = ref.read_text(encoding="utf-8").split("\n")[:-1]
        return h, r, f"wmt22 en-de Online-A vs ref A ({len(h)} segments)"
    hyps, refs, name = synthetic_corpus(synthetic or 2000)
    return hyps, refs, name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--synthetic", type=int, default=0)
    parser.add_argument("--no-preprocessing", dest="preprocessing", action="store_false")
    parser.add_argument("--sample", type=int, default=12, help="sacrebleu configurations timed")
    args = parser.parse_args(argv)
    hyps, refs, name = corpus(args.corpus, args.synthetic)
    from assay.jobs.audit.claims import parse_claim
    from assay.jobs.audit.search import Auditor
    from assay.jobs.audit.verdict import audit_claim

    wall, cpu = time.perf_counter(), time.process_time()
    auditor = Auditor("bleu", hyps, [refs], lang="de", preprocessing=args.preprocessing)
    std = auditor.evaluate(auditor.standard_candidate(parse_claim("BLEU 0")))
    report = audit_claim(auditor, parse_claim(f"BLEU {std.value:.1f}"))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(report.result.evaluated)
    print(f"corpus: {name}")
    print(f"assay audit: {n} configurations ({len(report.result.matches)} match BLEU {std.value:.1f}), "
          f"{auditor.stats_computed} distinct statistics, {wall:.2f}s wall, {cpu:.2f}s CPU "
          f"({n / cpu:.0f} configurations per CPU second); target >= 500 in < 10 s (CPU time: the machine is "
          f"shared, wall time counts other processes): {'met' if n >= 500 and cpu < 10 else 'NOT met'}")
    for note in report.result.notes:
        print(f"  note: {note}")
    try:
        from sacrebleu.metrics import BLEU
    except ImportError:
        print("sacrebleu not installed: no ratio")
        return 0
    rng = random.Random(7)
    sample = [c for c in report.result.evaluated if c.candidate.profile == "sacrebleu" and c.candidate.prep == "raw"
              and c.ok and c.candidate.knob_dict.get("scale", 100) == 100]
    sample = rng.sample(sample, min(args.sample, len(sample)))
    start = time.perf_counter()
    worst = 0.0
    for e in sample:
        k = e.candidate.knob_dict
        clear_sacrebleu_caches()
        bleu = BLEU(tokenize=k.get("tokenize", "13a"), lowercase=k.get("lowercase", False),
                    smooth_method=k.get("smooth_method", "exp"), effective_order=k.get("effective_order", False))
        worst = max(worst, abs(bleu.corpus_score(hyps, [refs]).score - e.value))
    per = (time.perf_counter() - start) / max(1, len(sample))
    print(f"sacrebleu 2.x, one run per configuration: {per:.3f}s each ({len(sample)} timed) -> {per * n:.1f}s "
          f"for {n}; ratio {per * n / wall:.1f}x (max abs score diff on the sample {worst:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
