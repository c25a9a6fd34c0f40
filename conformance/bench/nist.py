"""NIST speed: assay vs NLTK 3.10.4 ``nist_score``, in one process, on one corpus (ratios, not absolute times).

    python -m conformance.bench.nist [--corpus DIR] [--size N] [--synthetic N] [--repeats 1]
                                     [--no-sentence] [--tool-sample N] [--quick]

Corpus: the WMT17 en-de systems of ``../shared/corpora`` concatenated, each paired with the reference
(conformance/bench/corpora.py: beyond 48,064 segments the concatenation repeats, copy k marked by a
final word rK). Both sides get the same ``str.split()`` token lists (the ``nltk`` profile's
``tokenize=none``):
- corpus NIST: ``assay.score("nist", hyp_toks, [ref_toks], profile="nltk")`` vs
  ``nltk.translate.nist_score.corpus_nist([[r] ...], hyp_toks, n=5)`` (information weights from the
  whole corpus's references, so the tool cannot be chunked);
- sentence NIST: ``assay.sentence_scores(...)`` vs ``sentence_nist([r], h, n=5)`` per segment, on the
  segments whose hypothesis has at least 5 words (NLTK divides by zero on the others, and so does the
  ``nltk`` profile).
``--tool-sample N`` times NLTK on a random sample of N segments and extrapolates linearly (the label says
so; corpus NIST's information weights then come from the sample, so the scores are compared on the
sample); assay always scores the whole corpus. mteval-v13a.pl is not timed here: the adapter
(conformance/references/moses.py) runs the script twice (printed and widened precision).
"""
from __future__ import annotations

import sys
from typing import Any

import assay

from conformance.bench.corpora import load_mt, mt_arguments
from conformance.bench.harness import Bench, clock_of, coverage_arguments, coverage_of, max_abs_diff, parse, pick


def main(argv: list[str] | None = None) -> int:
    parser = mt_arguments(__doc__, size=48064, quick=2000, repeats=1)
    parser.add_argument("--no-sentence", action="store_true", help="skip the sentence-level comparison")
    coverage_arguments(parser)
    args = parse(parser, argv)
    hyps, refs, corpus = load_mt(args)
    cover = coverage_of(args, len(hyps))
    sample = cover.indices() if cover.sampled else []

    import nltk
    from nltk.translate.nist_score import corpus_nist, sentence_nist

    hyp_toks = [h.split() for h in hyps]
    ref_toks = [r.split() for r in refs]
    # a str caches its hash on first use: hash every token once, untimed, so that the side timed
    # first (with --repeats 1, assay) does not pay the other side's hashing
    for toks in (*hyp_toks, *ref_toks):
        for tok in toks:
            hash(tok)
    nltk_refs = [[r] for r in ref_toks]
    del hyps, refs
    tool = f"nltk {nltk.__version__}"
    bench = Bench("NIST: assay vs NLTK", corpus, repeats=args.repeats, clock=clock_of(args), memory=args.memory,
                  tools=[tool],
                  notes=["both sides get the same str.split() token lists"], warm_up=True)

    def ours_corpus(h: list[list[str]], r: list[list[str]]) -> Any:
        return assay.score("nist", h, [r], profile="nltk")

    label = "corpus NIST (n=5)"
    if cover.sampled:
        sh, sr = pick(hyp_toks, sample), pick(ref_toks, sample)
        row = bench.compare_sampled(label, lambda: ours_corpus(hyp_toks, ref_toks), tool,
                                    lambda: corpus_nist([[r] for r in sr], sh, n=5), cover,
                                    agree=lambda a, t: abs(ours_corpus(sh, sr).value - t))
        bench.note(f"assay {row.assay.result.value:.12f} (whole corpus)  nltk {row.tool.result:.12f} (the sample)")
    else:
        row = bench.compare(label, lambda: ours_corpus(hyp_toks, ref_toks), tool,
                            lambda: corpus_nist(nltk_refs, hyp_toks, n=5), agree=lambda a, t: abs(a.value - t))
        bench.note(f"assay {row.assay.result.value:.12f}  nltk {row.tool.result:.12f}")

    if not args.no_sentence:
        # NLTK's sentence_nist divides by zero on a hypothesis of fewer than 5 words (and so does assay's
        # nltk profile, by design): the sentence rows score the segments NLTK can score
        keep = [i for i, h in enumerate(hyp_toks) if len(h) >= 5]
        kh, kr = pick(hyp_toks, keep), pick(ref_toks, keep)
        knr = [[r] for r in kr]
        part = coverage_of(args, len(keep))
        some = part.indices() if part.sampled else []
        label = f"sentence NIST ({len(keep)} x sentence_nist, hypotheses >= 5 words)"
        ours = lambda: assay.sentence_scores("nist", kh, [kr], profile="nltk")  # noqa: E731
        if part.sampled:
            bench.compare_sampled(label, ours, tool, lambda: [sentence_nist(knr[i], kh[i], n=5) for i in some], part,
                                  agree=lambda a, t: max_abs_diff((a[i].value, y) for i, y in zip(some, t)))
        else:
            bench.compare(label, ours, tool, lambda: [sentence_nist(r, h, n=5) for r, h in zip(knr, kh)],
                          agree=lambda a, t: max_abs_diff((x.value, y) for x, y in zip(a, t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
