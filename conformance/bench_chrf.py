"""chrF / chrF++ speed: assay vs sacrebleu in one process, on one corpus (ratios, not absolute times).

    python conformance/bench_chrf.py [--corpus DIR] [--synthetic N] [--repeats 1]

Corpus: every system of ``wmt17-ende-sacrebleu`` in ``../shared/corpora`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference (16 x 3004 = 48,064 segments); a synthetic corpus
(conformance/bench_bleu.py) stands in when that folder is absent.

Timings (best of ``--repeats``):
- corpus chrF: ``assay.score("chrf", hyps, [refs])`` vs ``sacrebleu.metrics.CHRF().corpus_score(hyps, [refs])``;
- corpus chrF++: ``profile="sacrebleu-chrf++"`` vs ``CHRF(word_order=2)``;
- NLTK corpus_chrf (``--nltk``, slow): ``profile="nltk"`` vs ``nltk.translate.chrf_score.corpus_chrf``.
Each line prints the ratio (tool time / assay time; the target is >= 5x for chrF and chrF++) and the
largest absolute score difference (the scores must agree).
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:
    import assay
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
    import assay

from conformance.bench_bleu import best_of, line, synthetic_corpus, wmt17_corpus  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path,
                        default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"),
                        help="folder holding wmt17-ende-sacrebleu/ (default ../shared/corpora or $ASSAY_CORPORA)")
    parser.add_argument("--synthetic", type=int, metavar="N", help="use a synthetic corpus of N segments")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs (default 1)")
    parser.add_argument("--nltk", action="store_true", help="also time NLTK corpus_chrf")
    args = parser.parse_args(argv)

    corpus = None if args.synthetic else wmt17_corpus(args.corpus)
    if corpus is None:
        corpus = synthetic_corpus(args.synthetic or 48000)
    hyps, refs, source = corpus
    if len(hyps) < 20000:
        print(f"warning: only {len(hyps)} segments (the benchmark is meant for >= 20,000)", file=sys.stderr)

    sacrebleu = importlib.import_module("sacrebleu")
    from sacrebleu.metrics import CHRF

    print(f"corpus: {source} ({len(hyps)} segments, {sum(map(len, hyps))} hypothesis characters)")
    print(f"assay {assay.__version__} ({Path(assay.__file__).parent}); sacrebleu {sacrebleu.__version__}; "
          f"python {sys.version.split()[0]}; best of {args.repeats}")
    tool = f"sacrebleu {sacrebleu.__version__}"
    for label, profile, word_order in (("corpus chrF (chrF2)", "sacrebleu", 0),
                                       ("corpus chrF++ (chrF2++)", "sacrebleu-chrf++", 2)):
        t_ours, ours = best_of(args.repeats, lambda p=profile: assay.score("chrf", hyps, [refs], profile=p))
        t_sb, theirs = best_of(args.repeats, lambda w=word_order: CHRF(word_order=w).corpus_score(hyps, [refs]))
        print(line(label, t_ours, tool, t_sb, abs(ours.value - theirs.score)))
        print(f"    assay {ours.value:.10f}  sacrebleu {theirs.score:.10f}")

    if args.nltk:
        nltk = importlib.import_module("nltk")
        from nltk.translate.chrf_score import corpus_chrf
        t_ours, ours = best_of(args.repeats, lambda: assay.score("chrf", hyps, [refs], profile="nltk"))
        t_nltk, theirs = best_of(args.repeats, lambda: corpus_chrf(refs, hyps))
        print(line("NLTK corpus_chrf", t_ours, f"nltk {nltk.__version__}", t_nltk, abs(ours.value - theirs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
