"""BLEU speed: assay vs the tools it reproduces, in one process, on one corpus (ratios, not absolute times).

    python -m conformance.bench.bleu [--corpus DIR] [--size N] [--synthetic N] [--repeats 3]
                                     [--no-sentence] [--no-nltk] [--quick]
    tox -e bench

Corpus: every system of ``wmt17-ende-sacrebleu`` in ``../shared/corpora`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference (16 x 3004 = 48,064 segments; ``--size N`` takes the
first N). When that folder is absent, a synthetic corpus generated with a fixed seed stands in
(``--synthetic N`` forces it).

Timings (median of ``--repeats``, sides alternating; sacrebleu's tokenizer ``lru_cache`` is cleared
before every run, so neither side profits from a previous repetition):
- corpus BLEU: ``assay.score("bleu", hyps, [refs], profile="sacrebleu")`` vs
  ``sacrebleu.metrics.BLEU().corpus_score(hyps, [refs])`` (13a, exp);
- NLTK corpus BLEU on ``str.split`` tokens: ``assay.score(..., profile="nltk")`` vs
  ``nltk.translate.bleu_score.corpus_bleu`` (method0), both given the same token lists;
- sentence BLEU: ``assay.sentence_scores("bleu", ...)`` vs ``sacrebleu.sentence_bleu`` per segment.
Each row also shows the largest absolute score difference (the scores must agree).
"""
from __future__ import annotations

import sys

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import Bench, clear_sacrebleu_caches, max_abs_diff, parse


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=48064, quick=2000, repeats=3)
    parser.add_argument("--no-sentence", action="store_true", help="skip the sentence-level comparison")
    parser.add_argument("--no-nltk", action="store_true", help="skip the NLTK comparison")
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args)

    import nltk
    import sacrebleu
    from nltk.translate.bleu_score import corpus_bleu
    from sacrebleu.metrics import BLEU

    bench = Bench("BLEU: assay vs sacrebleu and NLTK", corpus, repeats=args.repeats, memory=args.memory,
                  tools=[f"sacrebleu {sacrebleu.__version__}", f"nltk {nltk.__version__}"],
                  notes=["sacrebleu's tokenizer caches are cleared before every run of either side"])
    tool = f"sacrebleu {sacrebleu.__version__}"

    row = bench.compare("corpus BLEU (13a, exp)", lambda: assay.score("bleu", hyps, [refs], profile="sacrebleu"),
                        tool, lambda: BLEU().corpus_score(hyps, [refs]), setup=clear_sacrebleu_caches,
                        agree=lambda a, t: abs(a.value - t.score))
    bench.note(f"assay {row.assay.result.value:.6f}  sacrebleu {row.tool.result.score:.6f}")

    if not args.no_nltk:
        hyp_toks = [h.split() for h in hyps]
        ref_toks = [r.split() for r in refs]
        nltk_refs = [[r] for r in ref_toks]
        row = bench.compare("NLTK corpus BLEU (split, method0)",
                            lambda: assay.score("bleu", hyp_toks, [ref_toks], profile="nltk"),
                            f"nltk {nltk.__version__}", lambda: corpus_bleu(nltk_refs, hyp_toks),
                            agree=lambda a, t: abs(a.value - t))
        bench.note(f"assay {row.assay.result.value:.12f}  nltk {row.tool.result:.12f}")

    if not args.no_sentence:
        bench.compare(f"sentence BLEU ({len(hyps)} x sentence_bleu)",
                      lambda: assay.sentence_scores("bleu", hyps, [refs], profile="sacrebleu"), tool,
                      lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)],
                      setup=clear_sacrebleu_caches,
                      agree=lambda a, t: max_abs_diff((x.value, y) for x, y in zip(a, t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
