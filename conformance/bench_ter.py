"""TER speed: assay vs sacrebleu corpus TER, in one process, on one corpus (ratio, not absolute times).

    python conformance/bench_ter.py [--corpus DIR] [--segments N] [--synthetic N] [--repeats 1]

Corpus: the first ``N`` segments (default 21,028 = 7 systems x 3004) of the wmt17 systems in
``../shared/corpora/wmt17-ende-sacrebleu`` (or ``$ASSAY_CORPORA``) concatenated, each paired with
the reference; without that folder, a synthetic corpus of ``N`` segments (fixed seed) stands in.
TER is computed on every segment by both tools:
``assay.score("ter", hyps, [refs])`` vs ``sacrebleu.metrics.TER().corpus_score(hyps, [refs])``
(default settings: lowercased, tercom tokens, shifts). The line also prints both edit counts,
which must be equal, and the score difference.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
try:
    import assay
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
    import assay

from conformance.bench_bleu import _read_lines, best_of, line, synthetic_corpus  # noqa: E402

WMT17 = "wmt17-ende-sacrebleu"


def wmt17_segments(corpora: Path, n: int) -> tuple[list[str], list[str], str] | None:
    folder = corpora / WMT17
    ref_path = folder / "newstest2017.en-de.ref.de"
    systems = sorted(folder.glob("newstest2017.*.en-de.hyp.de"))
    if not ref_path.is_file() or not systems:
        return None
    ref = _read_lines(ref_path)
    hyps: list[str] = []
    refs: list[str] = []
    used = 0
    for path in systems:
        if len(hyps) >= n:
            break
        hyps += _read_lines(path)
        refs += ref
        used += 1
    return hyps[:n], refs[:n], f"{WMT17}: first {min(n, len(hyps))} segments of {used} systems"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path,
                        default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"),
                        help="folder holding wmt17-ende-sacrebleu/ (default ../shared/corpora or $ASSAY_CORPORA)")
    parser.add_argument("--segments", type=int, default=21028, help="segments to score (default 21,028)")
    parser.add_argument("--synthetic", type=int, metavar="N", help="use a synthetic corpus of N segments")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs (default 1: sacrebleu is slow)")
    args = parser.parse_args(argv)

    corpus = None if args.synthetic else wmt17_segments(args.corpus, args.segments)
    if corpus is None:
        corpus = synthetic_corpus(args.synthetic or args.segments)
    hyps, refs, source = corpus
    if len(hyps) < 20000:
        print(f"warning: only {len(hyps)} segments (the benchmark is meant for >= 20,000)", file=sys.stderr)

    import sacrebleu
    from sacrebleu.metrics import TER

    print(f"corpus: {source} ({len(hyps)} segments, {sum(len(h.split()) for h in hyps)} hypothesis words)")
    print(f"assay {assay.__version__} ({Path(assay.__file__).parent}); sacrebleu {sacrebleu.__version__}; "
          f"python {sys.version.split()[0]}; best of {args.repeats}")
    t_ours, ours = best_of(args.repeats, lambda: assay.score("ter", hyps, [refs], profile="sacrebleu"))
    t_sb, theirs = best_of(args.repeats, lambda: TER().corpus_score(hyps, [refs]))
    print(line("corpus TER (tercom, lowercased)", t_ours, f"sacrebleu {sacrebleu.__version__}", t_sb,
               abs(ours.value - theirs.score)))
    print(f"    edits: assay {ours.components['num_edits']}  sacrebleu {theirs.num_edits};  "
          f"ref length: assay {ours.components['ref_length']}  sacrebleu {theirs.ref_length}")
    print(f"    assay {ours.value:.10f}  sacrebleu {theirs.score:.10f}")
    return 0 if ours.components["num_edits"] == theirs.num_edits else 1


if __name__ == "__main__":
    sys.exit(main())
