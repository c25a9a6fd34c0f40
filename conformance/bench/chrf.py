"""chrF / chrF++ speed: assay vs sacrebleu in one process, on one corpus (ratios, not absolute times).

    python -m conformance.bench.chrf [--corpus DIR] [--size N] [--synthetic N] [--repeats 1] [--nltk] [--quick]

Corpus: every system of ``wmt17-ende-sacrebleu`` in ``../shared/corpora`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference (16 x 3004 = 48,064 segments; ``--size N`` takes the
first N); a synthetic corpus (conformance/bench/corpora.py) stands in when that folder is absent.

Timings (median of ``--repeats``, sides alternating):
- corpus chrF: ``assay.score("chrf", hyps, [refs])`` vs ``sacrebleu.metrics.CHRF().corpus_score(hyps, [refs])``;
- corpus chrF++: ``profile="sacrebleu-chrf++"`` vs ``CHRF(word_order=2)``;
- NLTK corpus_chrf (``--nltk``, slow): ``profile="nltk"`` vs ``nltk.translate.chrf_score.corpus_chrf``.
Each row shows the ratio (tool time / assay time; the target is >= 5x for chrF and chrF++) and the
largest absolute score difference (the scores must agree).

For 1M segments (sacrebleu's chrF would need ~44 GB there): ``--tool-chunk N`` runs sacrebleu in chunks
of N segments and sums its own sufficient statistics (the whole corpus's score, exact);
``--tool-sample N`` instead times it on a random sample of N segments and extrapolates linearly
(harness.ToolCoverage). The row's label says which; assay always scores the whole corpus.
"""
from __future__ import annotations

import sys

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import (Bench, clear_sacrebleu_caches, clock_of, coverage_arguments, coverage_of,
                                       parse, pick, sacrebleu_chunked)


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=48064, quick=2000, repeats=1)
    parser.add_argument("--nltk", action="store_true", help="also time NLTK corpus_chrf")
    parser.add_argument("--only", choices=["chrF", "chrF++"], help="time only chrF or only chrF++")
    coverage_arguments(parser)
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args, count="characters")
    cover = coverage_of(args, len(hyps))
    sample = cover.indices() if cover.sampled else []

    import sacrebleu
    from sacrebleu.metrics import CHRF

    tool = f"sacrebleu {sacrebleu.__version__}"
    bench = Bench("chrF / chrF++: assay vs sacrebleu", corpus, repeats=args.repeats, clock=clock_of(args),
                  memory=args.memory,
                  tools=[tool], warm_up=True)
    for label, profile, word_order in (("corpus chrF (chrF2)", "sacrebleu", 0),
                                       ("corpus chrF++ (chrF2++)", "sacrebleu-chrf++", 2)):
        if args.only and args.only != ("chrF++" if word_order else "chrF"):
            continue
        ours = lambda p=profile: assay.score("chrf", hyps, [refs], profile=p)  # noqa: E731
        if cover.chunked:
            row = bench.compare(f"{label} [{cover.chunk_label()}]", ours, tool,
                                lambda w=word_order: sacrebleu_chunked(CHRF(word_order=w), hyps, refs, cover),
                                setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
        elif cover.sampled:
            row = bench.compare_sampled(
                label, ours, tool, lambda w=word_order: CHRF(word_order=w).corpus_score(pick(hyps, sample),
                                                                                        [pick(refs, sample)]),
                cover, setup=clear_sacrebleu_caches,
                agree=lambda a, t, p=profile: abs(assay.score("chrf", pick(hyps, sample), [pick(refs, sample)],
                                                              profile=p).value - t.score))
        else:
            row = bench.compare(label, ours, tool, lambda w=word_order: CHRF(word_order=w).corpus_score(hyps, [refs]),
                                setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
        bench.note(f"assay {row.assay.result.value:.10f}  sacrebleu {row.tool.result.score:.10f}"
                   + (" (assay: the whole corpus; sacrebleu: the sample)"
                      if cover.sampled and not cover.chunked else ""))

    if args.nltk:
        import nltk
        from nltk.translate.chrf_score import corpus_chrf
        bench.compare("NLTK corpus_chrf", lambda: assay.score("chrf", hyps, [refs], profile="nltk"),
                      f"nltk {nltk.__version__}", lambda: corpus_chrf(refs, hyps),
                      agree=lambda a, t: abs(a.value - t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
