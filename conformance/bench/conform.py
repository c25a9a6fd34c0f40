"""``assay conform`` speed: the whole BLEU identification suite against in-process implementations.

    python -m conformance.bench.conform [--metric bleu] [--repeats 3] [--quick]

Target (issue 9): the complete identification of an in-process (``direct:``) implementation —
loading the fixtures, choosing the discriminating cases (assay scores every profile on every
candidate), the implementation's answers, agreement, and the single-knob departure search — in
under 5 s. Two rows per implementation: the cold time (fresh process state: fixtures not yet
parsed, no suite built) and the warm time (suite reused, as the CLI does for --identify followed by
the run), each the median of ``--repeats``; the note gives the implementation's own share of the warm
time (harness overhead = total / implementation) and the identified profile. Implementations:
sacrebleu's own functions (when installed), NLTK's (when installed), assay's sacrebleu profile, and
assay's sacrebleu profile with tokenize=intl (a departure to find). The corpus line counts the
metric's golden fixture cases, the pool the suite picks its cases from.
"""
from __future__ import annotations

import importlib.util
import statistics
import sys
import time
import warnings
from typing import Any

import assay
from assay.jobs.conform import connect, identify, suite
from assay.jobs.conform.assay_impl import ProfileImplementation

from conformance.bench.harness import Bench, Corpus, arguments, parse, text_bytes
from conformance.fixture_io import iter_cases

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
        out.append(("assay bleu/sacrebleu + tokenize=intl", "direct:conformance.bench.conform:INTL", None))
    out.append((f"assay {metric} default profile", f"direct:assay.jobs.conform.assay_impl:profiles[{metric}/"
                f"{assay.get_profile(metric, None).name}]", None))
    return out


def clear_caches() -> None:
    suite._load_metric.cache_clear()
    suite._config_key.cache_clear()
    suite._AT_DEFAULTS.clear()


def main(argv: list[str] | None = None) -> int:
    warnings.filterwarnings("ignore")
    parser = arguments(__doc__, size=None, unit="cases", quick=0, repeats=3, corpus=False)
    parser.add_argument("--metric", default="bleu")
    args = parse(parser, argv)
    cases = [case for _, case in iter_cases(args.metric)]
    bench = Bench(f"assay conform: {args.metric} identification of in-process implementations",
                  Corpus(f"fixtures/{args.metric}: the golden cases the identification suite picks from", len(cases),
                         "cases", text_bytes([(c["hyps"], c["refs"]) for c in cases])),
                  repeats=args.repeats, memory=args.memory)
    worst = 0.0
    for label, spec, shape in implementations(args.metric):
        state: dict[str, Any] = {}
        spent: list[float] = []

        def cold(spec: str = spec, shape: str | None = shape) -> Any:
            state["impl"] = impl = Timed(connect.connect(spec, shape))
            state["suite"] = id_suite = identify.IdentificationSuite(args.metric)
            return identify.identify(impl, args.metric, id_suite)

        def warm() -> Any:
            impl = state["impl"]
            impl.spent = 0.0
            result = identify.identify(impl, args.metric, state["suite"])
            spent.append(impl.spent)
            return result

        cold_row = bench.single(f"{label}: cold", cold, setup=clear_caches)
        warm_row = bench.single(f"{label}: warm", warm)
        result = warm_row.assay.result
        own = statistics.median(spent)
        departs = "; ".join(f"{d.knob}={d.value!r}" for d in result.departures) or "none"
        worst = max(worst, cold_row.assay.median)
        bench.note(f"its answers {own:.2f} s (overhead x{warm_row.assay.median / own if own else float('inf'):.1f} "
                   f"warm) -> {args.metric}/{result.profile} (departures: {departs}; {len(result.cases)} cases)")
    verdict = "OK" if worst < TARGET_SECONDS else "SLOWER THAN TARGET"
    bench.note(f"slowest cold identification: {worst:.2f} s (target < {TARGET_SECONDS:g} s): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
