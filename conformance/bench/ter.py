"""TER speed: assay vs sacrebleu corpus TER, in one process, on one corpus (ratio, not absolute times).

    python -m conformance.bench.ter [--corpus DIR] [--size N] [--synthetic N] [--repeats 1] [--quick]

Corpus: the first ``N`` segments (``--size``/``--segments``, default 21,028 = 7 systems x 3004) of
the wmt17 systems in ``../shared/corpora/wmt17-ende-sacrebleu`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference; without that folder, a synthetic corpus of ``N``
segments (fixed seed) stands in. TER is computed on every segment by both tools:
``assay.score("ter", hyps, [refs])`` vs ``sacrebleu.metrics.TER().corpus_score(hyps, [refs])``
(default settings: lowercased, tercom tokens, shifts). The notes give both edit counts, which must
be equal (the exit status is 1 otherwise), and both scores.
"""
from __future__ import annotations

import sys

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import Bench, clear_sacrebleu_caches, parse


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=21028, quick=500, repeats=1)
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args)

    import sacrebleu
    from sacrebleu.metrics import TER

    bench = Bench("TER: assay vs sacrebleu", corpus, repeats=args.repeats, memory=args.memory,
                  tools=[f"sacrebleu {sacrebleu.__version__}"])
    row = bench.compare("corpus TER (tercom, lowercased)",
                        lambda: assay.score("ter", hyps, [refs], profile="sacrebleu"),
                        f"sacrebleu {sacrebleu.__version__}", lambda: TER().corpus_score(hyps, [refs]),
                        setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
    ours, theirs = row.assay.result, row.tool.result
    bench.note(f"edits: assay {ours.components['num_edits']}  sacrebleu {theirs.num_edits};  "
               f"ref length: assay {ours.components['ref_length']}  sacrebleu {theirs.ref_length}")
    bench.note(f"assay {ours.value:.10f}  sacrebleu {theirs.score:.10f}")
    return 0 if ours.components["num_edits"] == theirs.num_edits else 1


if __name__ == "__main__":
    sys.exit(main())
