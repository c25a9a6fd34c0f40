"""``assay conform`` speed: the whole BLEU identification suite against in-process implementations.

    python conformance/bench_conform.py [--metric bleu] [--repeats 3]

Target (issue 9): the complete identification of an in-process (``direct:``) implementation —
loading the fixtures, choosing the discriminating cases (assay scores every profile on every
candidate), the implementation's answers, agreement, and the single-knob departure search — in
under 5 s. Printed per implementation: the cold time (fresh process state: fixtures not yet
parsed, no suite built), the warm time (suite reused, as the CLI does for --identify followed by
the run), the implementation's own share of the time (harness overhead = total / implementation)
and the identified profile. Implementations: sacrebleu's own functions (when installed), NLTK's
(when installed), assay's sacrebleu profile, and assay's sacrebleu profile with tokenize=intl (a
departure to find).
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
try:
    import assay  # noqa: F401
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
sys.path.insert(0, str(ROOT))

from assay.jobs.conform import connect, identify, suite  # noqa: E402
from assay.jobs.conform.assay_impl import ProfileImplementation  # noqa: E402

TARGET_SECONDS = 5.0
#: a sacrebleu-like implementation that tokenises with intl instead of 13a (departure to find)
INTL = ProfileImplementation("bleu", "sacrebleu", tokenize="intl")


class Timed(connect.Implementation):
    """Wraps an implementation and adds up the time spent inside its answers."""

    def __init__(self, inner: connect.Implementation):
        self.inner, self.info, self.spent = inner, inner.info, 0.0

    def answer(self, message: dict[str, Any]) -> Any:
        start = time.perf_counter()
        try:
            return self.inner.answer(message)
        finally:
            self.spent += time.perf_counter() - start


def implementations(metric: str) -> list[tuple[str, str, str | None]]:
    out = []
    if metric == "bleu":
        if importlib.util.find_spec("sacrebleu"):
            out.append(("sacrebleu 2.x functions", "direct:sacrebleu.compat:corpus_bleu,sentence_bleu", "sacrebleu"))
        if importlib.util.find_spec("nltk"):
            out.append(("NLTK corpus_bleu/sentence_bleu", "direct:nltk.translate.bleu_score:corpus_bleu,sentence_bleu",
                        "nltk"))
        out.append(("assay bleu/sacrebleu + tokenize=intl", "direct:conformance.bench_conform:INTL", None))
    out.append((f"assay {metric} default profile", f"direct:assay.jobs.conform.assay_impl:profiles[{metric}/"
                f"{assay.get_profile(metric, None).name}]", None))
    return out


def clear_caches() -> None:
    suite._load_metric.cache_clear()
    suite._config_key.cache_clear()
    suite._AT_DEFAULTS.clear()


def main() -> int:
    import warnings
    warnings.filterwarnings("ignore")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metric", default="bleu")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    worst = 0.0
    for label, spec, shape in implementations(args.metric):
        cold_best = warm_best = float("inf")
        result = None
        own = 0.0
        for _ in range(args.repeats):
            clear_caches()
            impl = Timed(connect.connect(spec, shape))
            start = time.perf_counter()
            id_suite = identify.IdentificationSuite(args.metric)
            result = identify.identify(impl, args.metric, id_suite)
            cold = time.perf_counter() - start
            impl.spent = 0.0
            start = time.perf_counter()
            result = identify.identify(impl, args.metric, id_suite)
            warm = time.perf_counter() - start
            cold_best = min(cold_best, cold)
            if warm < warm_best:
                warm_best, own = warm, impl.spent
        assert result is not None
        departs = "; ".join(f"{d.knob}={d.value!r}" for d in result.departures) or "none"
        worst = max(worst, cold_best)
        print(f"{label:<40} cold {cold_best:6.2f} s  warm {warm_best:6.2f} s  "
              f"its answers {own:5.2f} s (overhead x{warm_best / own if own else float('inf'):.1f} warm)  "
              f"-> {args.metric}/{result.profile} (departures: {departs}; {len(result.cases)} cases)")
    verdict = "OK" if worst < TARGET_SECONDS else "SLOWER THAN TARGET"
    print(f"slowest cold identification: {worst:.2f} s (target < {TARGET_SECONDS:g} s): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
