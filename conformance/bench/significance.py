"""Paired bootstrap speed: assay vs sacrebleu, in one process (ratios, not absolute times).

    python -m conformance.bench.significance [--corpus DIR] [--synthetic] [--metrics bleu,chrf] [--size N]
                                             [--systems 10] [--samples 1000] [--ar] [--repeats 1] [--quick]

Corpus: wmt17-ende-sacrebleu in ``../shared/corpora`` (or ``$ASSAY_CORPORA``): the baseline
LIUM-NMT plus the next 9 systems in name order (10 systems x 3004 segments; ``--size N`` keeps the
first N segments of each); without it, a generated corpus of the same shape
(conformance/regen/significance.py's generator).

Timed calls, each from raw text to the finished result (statistics of every system, resampling,
p-values and CIs):
- assay: ``assay.jobs.significance.paired_bootstrap(metrics, baseline, systems, refs, n_samples=1000)``;
- sacrebleu: ``sacrebleu.significance.PairedTest(named_systems, metrics, refs, 'bs', 1000)()``
  (single process, ``n_jobs=1``), with its tokenizer caches cleared before each run.
``--ar`` adds the same comparison for approximate randomisation (10,000 trials). Each row also
shows the largest p-value difference and the largest mean difference (they must agree).
"""
from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Any

from conformance.bench.corpora import WMT17, wmt17_systems
from conformance.bench.harness import Bench, Corpus, arguments, clear_sacrebleu_caches, parse
from conformance.regen.significance import significance_corpus

Systems = list[tuple[str, list[str]]]


def chosen_systems(corpora: Path, n_systems: int, size: int) -> tuple[Systems, list[str], str] | None:
    """The LIUM-NMT baseline and the next ``n_systems - 1`` systems, first ``size`` segments each."""
    found = wmt17_systems(corpora)
    if found is None or len(found[0]) < n_systems:
        return None
    systems, ref = found
    base = [s for s in systems if "LIUM-NMT" in s[0]]
    chosen = base + [s for s in systems if s not in base][:n_systems - len(base)]
    return [(name, lines[:size]) for name, lines in chosen], ref[:size], f"{WMT17}: {len(chosen)} systems"


def synthetic_systems(n_systems: int, size: int) -> tuple[Systems, list[str], str]:
    c = significance_corpus(20240611, size, n_systems, 1, "ascii")
    return c["systems"], c["refs"][0], f"generated: {n_systems} systems"


def run_sacrebleu(test: str, metrics: list[str], systems: Systems, refs: list[str], n: int) -> Any:
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest
    objs = {m: {"bleu": BLEU, "chrf": CHRF, "ter": TER}[m]() for m in metrics}
    with contextlib.redirect_stderr(io.StringIO()):
        return PairedTest(systems, objs, [refs], test_type=test, n_samples=n)()


def differences(ours: Any, theirs: Any) -> str:
    """Largest p-value and mean differences between assay's result and sacrebleu's ``(_, results)``."""
    dp = dm = 0.0
    for name in ours.names:
        for got, want in zip(ours.results[name], theirs[1][name]):
            if want.p_value is not None:
                dp = max(dp, abs(got.p_value - want.p_value))
            if want.mean is not None:
                dm = max(dm, abs(got.mean - float(want.mean)))
    return f"p {dp:.3g}, mean {dm:.3g}"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=3004, unit="segments per system", quick=300, repeats=1,
                       size_aliases=("--segments",))
    parser.add_argument("--synthetic", action="store_true", help="use a generated corpus")
    parser.add_argument("--metrics", default="bleu", help="comma-separated: bleu, chrf, ter (default bleu)")
    parser.add_argument("--systems", type=int, default=10, help="systems including the baseline (default 10)")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--ar", action="store_true", help="also time --paired-ar (10,000 trials)")
    args = parse(parser, argv)
    os.environ.pop("SACREBLEU_SEED", None)

    import sacrebleu
    import assay.jobs.significance as sig
    data = None if args.synthetic else chosen_systems(args.corpus, args.systems, args.size)
    systems, refs, source = data if data is not None else synthetic_systems(args.systems, args.size)
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    corpus = Corpus.of(f"{source} x {len(refs)} segments; metrics {', '.join(metrics)}", len(systems) * len(refs),
                       "system segments", [lines for _, lines in systems], refs)
    bench = Bench("paired significance tests: assay vs sacrebleu", corpus, repeats=args.repeats, memory=args.memory,
                  tools=[f"sacrebleu {sacrebleu.__version__}"])
    tests = [("bs", args.samples)] + ([("ar", 10000)] if args.ar else [])
    for test, n in tests:
        run = sig.paired_bootstrap if test == "bs" else sig.paired_ar
        bench.compare(f"--paired-{test} ({n} {'resamples' if test == 'bs' else 'trials'}, {len(systems)} systems)",
                      lambda run=run, n=n: run(metrics, systems[0], systems[1:], [refs], n_samples=n),
                      f"sacrebleu {sacrebleu.__version__}",
                      lambda test=test, n=n: run_sacrebleu(test, metrics, systems, refs, n),
                      setup=clear_sacrebleu_caches, agree=differences)
    return 0


if __name__ == "__main__":
    sys.exit(main())
