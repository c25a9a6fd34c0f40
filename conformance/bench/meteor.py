"""METEOR speed: assay meteor/nltk vs NLTK 3.10.4 meteor_score, in one process (ratio, not absolute times).

    python -m conformance.bench.meteor [--corpus DIR] [--size 10000] [--repeats 2] [--tool-sample N] [--quick]

Segments: ``meteor-example`` of ``../shared/corpora`` (or ``$ASSAY_CORPORA``): WMT09 newstest2009
and the two X-Ray systems, each hypothesis with its reference, topped up (or replaced, when the
folder is absent) with generated pairs (conformance/regen/meteor.py's generator) to ``--size``/``--segments``.
Both sides get the same ``str.split()`` token lists and WordNet 3.0 from /usr/share/wordnet; both
WordNets are loaded and both METEOR modules imported before timing (NLTK's ``ensure_loaded``,
assay's index load), so the times are scoring only. assay: ``assay.sentence_scores("meteor", hyps, [refs], "nltk")`` (one call);
NLTK: ``meteor_score([ref], hyp, wordnet=wn)`` per segment. Shows both CPU times
(``time.process_time``: steadier than wall time on a shared machine; median of the runs, sides
alternating), the ratio and the largest absolute score difference (the scores must agree), then the
first run and the best repeat run of each side. Each side starts cold (assay builds its stem and
synonym caches inside the first timed call; the per-unique-word stemming and WordNet lookups
dominate it); later repeats show a process whose caches are warm (NLTK caches nothing per word).

For 1M pairs (NLTK would take hours): ``--tool-sample N`` times NLTK on a random sample of N pairs and
extrapolates linearly; the scores are compared on the sample (harness.ToolCoverage; the row's label
says so). assay always scores every pair.
"""
from __future__ import annotations

import sys
from pathlib import Path

import assay

from conformance.bench.harness import (CPU, Bench, Corpus, arguments, coverage_arguments, coverage_of, max_abs_diff,
                                       parse, pick)
from conformance.references import meteor_nltk_ref as ref
from conformance.regen.meteor import generate_pairs

PAIRS = [("newstest2009.cmu-combo.hyp.txt", "newstest2009.ref.txt"),
         ("xray.system1.hyp.txt", "xray.reference.txt"), ("xray.system2.hyp.txt", "xray.reference.txt")]


def corpus(folder: Path, target: int) -> tuple[list[list[str]], list[list[str]], str]:
    hyps: list[str] = []
    refs: list[str] = []
    for h, r in PAIRS:
        if (folder / h).is_file() and (folder / r).is_file():
            hl = (folder / h).read_text(encoding="utf-8").splitlines()
            rl = (folder / r).read_text(encoding="utf-8").splitlines()
            if len(hl) == len(rl):
                hyps += hl
                refs += rl
    hyps, refs = hyps[:target], refs[:target]
    real = len(hyps)
    if len(hyps) < target:
        gh, gr = generate_pairs(7001, target - len(hyps), 1)
        hyps += gh
        refs += [x or "" for x in gr[0]]
    return ([h.split() for h in hyps], [r.split() for r in refs],
            f"{real} meteor-example segments + {len(hyps) - real} generated = {len(hyps)} pairs")


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=10000, unit="segment pairs", quick=500, repeats=2, size_aliases=("--segments",))
    coverage_arguments(parser)
    args = parse(parser, argv)
    hyps, refs, desc = corpus(args.corpus / "meteor-example", args.size)
    cover = coverage_of(args, len(hyps))
    from nltk.translate.meteor_score import meteor_score
    wn = ref.wordnet()
    from assay.resources.wordnet import load
    load()
    import assay.metrics.meteor.family  # noqa: F401  (imported before timing, as NLTK's meteor_score is)
    texts = [" ".join(h) for h in hyps] + [" ".join(r) for r in refs]
    bench = Bench("METEOR: assay meteor/nltk vs NLTK meteor_score", Corpus.of(desc, len(hyps), "segment pairs", texts),
                  clock=CPU, repeats=max(1, args.repeats), memory=args.memory, tools=[f"nltk {ref.version()}"],
                  notes=["both WordNets are loaded before timing; each side starts cold (assay builds its stem and "
                         "synonym caches inside its first run)"])
    tool = f"nltk {ref.version()}"
    ours = lambda: [s.value for s in assay.sentence_scores("meteor", hyps, [refs], "nltk")]  # noqa: E731
    label = f"sentence METEOR x{len(hyps)}"
    if cover.sampled:
        sample = cover.indices()
        sh, sr = pick(hyps, sample), pick(refs, sample)
        row = bench.compare_sampled(label, ours, tool, lambda: [meteor_score([r], h, wordnet=wn) for h, r in zip(sh, sr)],
                                    cover, agree=lambda a, t: max_abs_diff(zip(pick(a, sample), t)))
    else:
        row = bench.compare(label, ours, tool, lambda: [meteor_score([r], h, wordnet=wn) for h, r in zip(hyps, refs)],
                            agree=lambda a, t: max_abs_diff(zip(a, t)))
    ours, theirs = row.assay.times, row.tool.times
    bench.derived("  first run (assay's caches cold)", ours[0], tool, theirs[0])
    if len(ours) > 1:
        bench.derived("  repeat runs, best (assay's process-wide stem/synonym caches warm)", min(ours[1:]), tool,
                      min(theirs[1:]))
        bench.note("every run (assay s / nltk s = speed-up): " + ", ".join(
            f"{x:.3f}/{y:.3f} = {y / x:.1f}x" for x, y in zip(ours, theirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
