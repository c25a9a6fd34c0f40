"""Paired bootstrap speed: assay vs sacrebleu, in one process (ratios, not absolute times).

    python conformance/bench_significance.py [--corpus DIR] [--synthetic] [--metrics bleu,chrf]
                                             [--systems 10] [--samples 1000] [--ar] [--repeats 1]

Corpus: wmt17-ende-sacrebleu in ``../shared/corpora`` (or ``$ASSAY_CORPORA``): the baseline
LIUM-NMT plus the next 9 systems in name order (10 systems x 3004 segments); without it, a
generated corpus of the same shape (conformance/regen_significance.py's generator).

Timed calls, each from raw text to the finished result (statistics of every system, resampling,
p-values and CIs):
- assay: ``assay.jobs.significance.paired_bootstrap(metrics, baseline, systems, refs, n_samples=1000)``;
- sacrebleu: ``sacrebleu.significance.PairedTest(named_systems, metrics, refs, 'bs', 1000)()``
  (single process, ``n_jobs=1``), with its tokenizer caches cleared before each run.
``--ar`` adds the same comparison for approximate randomisation (10,000 trials). Each line also
prints the largest p-value difference and the largest mean difference (they must agree).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
try:
    import assay
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
    import assay

from conformance.bench_bleu import best_of  # noqa: E402

WMT17 = "wmt17-ende-sacrebleu"


def wmt17_systems(corpora: Path, n_systems: int) -> tuple[list[tuple[str, list[str]]], list[str], str] | None:
    folder = corpora / WMT17
    ref_path = folder / "newstest2017.en-de.ref.de"
    paths = sorted(folder.glob("newstest2017.*.en-de.hyp.de"))
    if not ref_path.is_file() or len(paths) < n_systems:
        return None
    base = [p for p in paths if "LIUM-NMT" in p.name]
    chosen = base + [p for p in paths if p not in base][:n_systems - len(base)]
    read = lambda p: p.read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    return [(p.name, read(p)) for p in chosen], read(ref_path), f"{WMT17}: {len(chosen)} systems"


def synthetic_systems(n_systems: int) -> tuple[list[tuple[str, list[str]]], list[str], str]:
    from conformance.regen_significance import significance_corpus
    c = significance_corpus(20240611, 3004, n_systems, 1, "ascii")
    return c["systems"], c["refs"][0], f"generated: {n_systems} systems"


def run_sacrebleu(test: str, metrics: list[str], systems: list[tuple[str, list[str]]], refs: list[str],
                  n: int) -> Any:
    from sacrebleu.metrics import BLEU, CHRF, TER
    from sacrebleu.significance import PairedTest
    objs = {m: {"bleu": BLEU, "chrf": CHRF, "ter": TER}[m]() for m in metrics}
    with contextlib.redirect_stderr(io.StringIO()):
        return PairedTest(systems, objs, [refs], test_type=test, n_samples=n)()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path,
                        default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"))
    parser.add_argument("--synthetic", action="store_true", help="use a generated corpus")
    parser.add_argument("--metrics", default="bleu", help="comma-separated: bleu, chrf, ter (default bleu)")
    parser.add_argument("--systems", type=int, default=10, help="systems including the baseline (default 10)")
    parser.add_argument("--samples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--ar", action="store_true", help="also time --paired-ar (10,000 trials)")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs (default 1)")
    args = parser.parse_args(argv)
    os.environ.pop("SACREBLEU_SEED", None)

    import sacrebleu
    import assay.jobs.significance as sig
    data = None if args.synthetic else wmt17_systems(args.corpus, args.systems)
    systems, refs, source = data if data is not None else synthetic_systems(args.systems)
    metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
    print(f"corpus: {source} x {len(refs)} segments; metrics {', '.join(metrics)}")
    print(f"assay {assay.__version__}; sacrebleu {sacrebleu.__version__}; python {sys.version.split()[0]}; "
          f"best of {args.repeats}")
    tests = [("bs", args.samples)] + ([("ar", 10000)] if args.ar else [])
    for test, n in tests:
        run = sig.paired_bootstrap if test == "bs" else sig.paired_ar
        t_ours, ours = best_of(args.repeats, lambda: run(metrics, systems[0], systems[1:], [refs], n_samples=n))
        t_sb, (_, theirs) = best_of(args.repeats, lambda: run_sacrebleu(test, metrics, systems, refs, n))
        dp = dm = 0.0
        for name in ours.names:
            for got, want in zip(ours.results[name], theirs[name]):
                if want.p_value is not None:
                    dp = max(dp, abs(got.p_value - want.p_value))
                if want.mean is not None:
                    dm = max(dm, abs(got.mean - float(want.mean)))
        label = f"--paired-{test} ({n} {'resamples' if test == 'bs' else 'trials'}, {len(systems)} systems)"
        print(f"{label}: assay {t_ours:.2f}s, sacrebleu {t_sb:.2f}s, ratio {t_sb / t_ours:.1f}x "
              f"(max p-value diff {dp:.3g}, max mean diff {dm:.3g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
