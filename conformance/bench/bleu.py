"""BLEU speed: assay vs the tools it reproduces, in one process, on one corpus (ratios, not absolute times).

    python -m conformance.bench.bleu [--corpus DIR] [--size N] [--synthetic N] [--repeats 3]
                                     [--no-sentence] [--no-nltk] [--nltk-smoothing K ...] [--quick]
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
- sentence BLEU: ``assay.sentence_scores("bleu", ...)`` vs ``sacrebleu.sentence_bleu`` per segment;
- NLTK sentence BLEU on the same token lists: ``assay.sentence_scores(..., profile="nltk")`` vs
  ``nltk.translate.bleu_score.sentence_bleu`` per segment (method0; NLTK warns about zero counts,
  once per call site); ``--nltk-smoothing 4 7`` adds one row per smoothing method K
  (``smoothing="methodK"`` vs ``smoothing_function=SmoothingFunction().methodK``).
Each row also shows the largest absolute score difference (the scores must agree).

For 1M segments, where the tools would need tens of GB or hours: ``--tool-chunk N`` runs sacrebleu's
corpus BLEU in chunks of N segments and sums its own sufficient statistics (the whole corpus's score,
exact); ``--tool-sample N`` times every other tool row on a random sample of N segments and
extrapolates linearly (harness.ToolCoverage). The row's label says which; assay scores all of it.
"""
from __future__ import annotations

import sys
import warnings
from typing import Any

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import (Bench, clear_sacrebleu_caches, clock_of, coverage_arguments, coverage_of,
                                       max_abs_diff, parse, pick, sacrebleu_chunked)


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=48064, quick=2000, repeats=3)
    parser.add_argument("--no-sentence", action="store_true", help="skip the sentence-level comparison")
    parser.add_argument("--no-nltk", action="store_true", help="skip the NLTK comparisons")
    parser.add_argument("--nltk-smoothing", type=int, nargs="*", default=[], metavar="K", choices=range(8),
                        help="also time NLTK sentence BLEU with SmoothingFunction().methodK (0-7)")
    coverage_arguments(parser)
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args)
    cover = coverage_of(args, len(hyps))
    sample = cover.indices() if cover.sampled else []

    import nltk
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
    from sacrebleu.metrics import BLEU

    bench = Bench("BLEU: assay vs sacrebleu and NLTK", corpus, repeats=args.repeats, clock=clock_of(args),
                  memory=args.memory,
                  tools=[f"sacrebleu {sacrebleu.__version__}", f"nltk {nltk.__version__}"],
                  notes=["sacrebleu's tokenizer caches are cleared before every run of either side"], warm_up=True)
    tool = f"sacrebleu {sacrebleu.__version__}"

    ours = lambda: assay.score("bleu", hyps, [refs], profile="sacrebleu")  # noqa: E731
    if cover.chunked:
        row = bench.compare(f"corpus BLEU (13a, exp) [{cover.chunk_label()}]", ours, tool,
                            lambda: sacrebleu_chunked(BLEU(), hyps, refs, cover), setup=clear_sacrebleu_caches,
                            agree=lambda a, t: abs(a.value - t.score))
    elif cover.sampled:
        row = bench.compare_sampled("corpus BLEU (13a, exp)", ours, tool,
                                    lambda: BLEU().corpus_score(pick(hyps, sample), [pick(refs, sample)]), cover,
                                    setup=clear_sacrebleu_caches,
                                    agree=lambda a, t: abs(assay.score("bleu", pick(hyps, sample), [pick(refs, sample)],
                                                                       profile="sacrebleu").value - t.score))
    else:
        row = bench.compare("corpus BLEU (13a, exp)", ours, tool, lambda: BLEU().corpus_score(hyps, [refs]),
                            setup=clear_sacrebleu_caches, agree=lambda a, t: abs(a.value - t.score))
    bench.note(f"assay {row.assay.result.value:.6f}  sacrebleu {row.tool.result.score:.6f}"
               + (" (assay: the whole corpus; sacrebleu: the sample)" if cover.sampled and not cover.chunked else ""))

    if not args.no_nltk:
        hyp_toks = [h.split() for h in hyps]
        ref_toks = [r.split() for r in refs]
        nltk_refs = [[r] for r in ref_toks]
        ours = lambda: assay.score("bleu", hyp_toks, [ref_toks], profile="nltk")  # noqa: E731
        if cover.sampled:
            row = bench.compare_sampled("NLTK corpus BLEU (split, method0)", ours, f"nltk {nltk.__version__}",
                                        lambda: corpus_bleu(pick(nltk_refs, sample), pick(hyp_toks, sample)), cover,
                                        agree=lambda a, t: abs(assay.score("bleu", pick(hyp_toks, sample),
                                                                           [pick(ref_toks, sample)],
                                                                           profile="nltk").value - t))
        else:
            row = bench.compare("NLTK corpus BLEU (split, method0)", ours, f"nltk {nltk.__version__}",
                                lambda: corpus_bleu(nltk_refs, hyp_toks), agree=lambda a, t: abs(a.value - t))
        bench.note(f"assay {row.assay.result.value:.12f}  nltk {row.tool.result:.12f}"
                   + (" (assay: the whole corpus; nltk: the sample)" if cover.sampled else ""))
    if not args.no_sentence:
        ours = lambda: assay.sentence_scores("bleu", hyps, [refs], profile="sacrebleu")  # noqa: E731
        if cover.sampled:
            bench.compare_sampled(f"sentence BLEU ({len(hyps)} x sentence_bleu)", ours, tool,
                                  lambda: [sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score for i in sample], cover,
                                  setup=clear_sacrebleu_caches,
                                  agree=lambda a, t: max_abs_diff((a[i].value, y) for i, y in zip(sample, t)))
        else:
            bench.compare(f"sentence BLEU ({len(hyps)} x sentence_bleu)", ours, tool,
                          lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)],
                          setup=clear_sacrebleu_caches,
                          agree=lambda a, t: max_abs_diff((x.value, y) for x, y in zip(a, t)))

    if not args.no_nltk and not args.no_sentence:
        smoothing = SmoothingFunction()
        for k in dict.fromkeys([0, *args.nltk_smoothing]):
            knobs = {"smoothing": f"method{k}"} if k else {}
            function = getattr(smoothing, f"method{k}") if k else None
            label = f"NLTK sentence BLEU ({len(hyps)} x, method{k})"
            ours = (lambda knobs=knobs:  # noqa: E731
                    assay.sentence_scores("bleu", hyp_toks, [ref_toks], profile="nltk", **knobs))
            if cover.sampled:
                bench.compare_sampled(label, ours, f"nltk {nltk.__version__}",
                                      lambda function=function: _nltk_sentences(
                                          sentence_bleu, pick(nltk_refs, sample), pick(hyp_toks, sample), function),
                                      cover,
                                      agree=lambda a, t: max_abs_diff((a[i].value, y) for i, y in zip(sample, t)))
            else:
                bench.compare(label, ours, f"nltk {nltk.__version__}",
                              lambda function=function: _nltk_sentences(sentence_bleu, nltk_refs, hyp_toks, function),
                              agree=lambda a, t: max_abs_diff((x.value, y) for x, y in zip(a, t)))
    return 0


def _nltk_sentences(sentence_bleu: Any, nltk_refs: list[list[list[str]]], hyp_toks: list[list[str]],
                    function: Any) -> list[float]:
    """NLTK's sentence_bleu of every segment (its zero-count warnings silenced)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [sentence_bleu(r, h, smoothing_function=function) for r, h in zip(nltk_refs, hyp_toks)]


if __name__ == "__main__":
    sys.exit(main())
