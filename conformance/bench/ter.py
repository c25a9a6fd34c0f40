"""TER speed: assay vs sacrebleu corpus TER, in one process, on one corpus (ratio, not absolute times).

    python -m conformance.bench.ter [--corpus DIR] [--size N] [--synthetic N] [--repeats 1] [--quick]

Corpus: the first ``N`` segments (``--size``/``--segments``, default 21,028 = 7 systems x 3004) of
the wmt17 systems in ``../shared/corpora/wmt17-ende-sacrebleu`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference; without that folder, a synthetic corpus of ``N``
segments (fixed seed) stands in. TER is computed on every segment by both tools:
``assay.score("ter", hyps, [refs])`` vs ``sacrebleu.metrics.TER().corpus_score(hyps, [refs])``
(default settings: lowercased, tercom tokens, shifts). The notes give both edit counts, which must
be equal (the exit status is 1 otherwise), and both scores.

For 1M segments (sacrebleu's TER would take ~2 h there): ``--tool-chunk N`` runs sacrebleu in chunks of
N segments and sums its own statistics (edits, reference length), ``--tool-sample N`` times it on a
random sample of N segments and extrapolates linearly (then the edit counts are compared on the
sample). The row's label says which (harness.ToolCoverage); assay always scores the whole corpus.
"""
from __future__ import annotations

import sys

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import (Bench, clear_sacrebleu_caches, clock_of, coverage_arguments, coverage_of,
                                       parse, pick, sacrebleu_chunked)


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=21028, quick=500, repeats=1)
    coverage_arguments(parser)
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args)
    cover = coverage_of(args, len(hyps))

    import sacrebleu
    from sacrebleu.metrics import TER

    bench = Bench("TER: assay vs sacrebleu", corpus, repeats=args.repeats, clock=clock_of(args), memory=args.memory,
                  tools=[f"sacrebleu {sacrebleu.__version__}"], warm_up=True)
    tool = f"sacrebleu {sacrebleu.__version__}"
    label = "corpus TER (tercom, lowercased)"
    score = lambda h, r: assay.score("ter", h, [r], profile="sacrebleu")  # noqa: E731
    if cover.chunked:
        row = bench.compare(f"{label} [{cover.chunk_label()}]", lambda: score(hyps, refs), tool,
                            lambda: sacrebleu_chunked(TER(), hyps, refs, cover),
                            setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
        ours = row.assay.result
    elif cover.sampled:
        sample = cover.indices()
        sh, sr = pick(hyps, sample), pick(refs, sample)
        row = bench.compare_sampled(label, lambda: score(hyps, refs), tool, lambda: TER().corpus_score(sh, [sr]),
                                    cover, setup=clear_sacrebleu_caches,
                                    agree=lambda a, t: abs(score(sh, sr).value - t.score))
        bench.note(f"assay on the whole corpus: {row.assay.result.value:.10f} "
                   f"({row.assay.result.components['num_edits']} edits); the sample follows")
        ours = score(sh, sr)
    else:
        row = bench.compare(label, lambda: score(hyps, refs), tool, lambda: TER().corpus_score(hyps, [refs]),
                            setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
        ours = row.assay.result
    theirs = row.tool.result
    bench.note(f"edits: assay {ours.components['num_edits']}  sacrebleu {theirs.num_edits};  "
               f"ref length: assay {ours.components['ref_length']}  sacrebleu {theirs.ref_length}")
    bench.note(f"assay {ours.value:.10f}  sacrebleu {theirs.score:.10f}")
    return 0 if ours.components["num_edits"] == theirs.num_edits else 1


if __name__ == "__main__":
    sys.exit(main())
