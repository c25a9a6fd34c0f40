"""METEOR speed: assay meteor/nltk vs NLTK 3.10.4 meteor_score, in one process (ratio, not absolute times).

    python conformance/bench_meteor.py [--corpus DIR] [--segments 10000] [--repeats 2]

Segments: ``meteor-example`` of ``../shared/corpora`` (or ``$ASSAY_CORPORA``): WMT09 newstest2009
and the two X-Ray systems, each hypothesis with its reference, topped up (or replaced, when the
folder is absent) with generated pairs (conformance/regen_meteor.py's generator) to ``--segments``.
Both sides get the same ``str.split()`` token lists and WordNet 3.0 from /usr/share/wordnet; both
WordNets are loaded before timing (NLTK's ``ensure_loaded``, assay's index load), so the times are
scoring only. assay: ``assay.sentence_scores("meteor", hyps, [refs], "nltk")`` (one call);
NLTK: ``meteor_score([ref], hyp, wordnet=wn)`` per segment. Prints both CPU times
(``time.process_time``: steadier than wall time on a shared machine), the ratio and the largest
absolute score difference (the scores must agree). Each side starts cold (assay builds its stem and
synonym caches inside the first timed call; the per-unique-word stemming and WordNet lookups
dominate it); later repeats show a process whose caches are warm (NLTK caches nothing per word).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "impl"), str(ROOT)]

import assay  # noqa: E402
from conformance.references import meteor_nltk_ref as ref  # noqa: E402
from conformance.regen_meteor import generate_pairs  # noqa: E402

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
    real = len(hyps)
    if len(hyps) < target:
        gh, gr = generate_pairs(7001, target - len(hyps), 1)
        hyps += gh
        refs += [x or "" for x in gr[0]]
    return ([h.split() for h in hyps], [r.split() for r in refs],
            f"{real} meteor-example segments + {len(hyps) - real} generated = {len(hyps)} pairs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=os.environ.get("ASSAY_CORPORA") or str(ROOT.parent / "shared" / "corpora"))
    ap.add_argument("--segments", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    hyps, refs, desc = corpus(Path(args.corpus) / "meteor-example", args.segments)
    print(f"corpus: {desc}")
    from nltk.translate.meteor_score import meteor_score
    wn = ref.wordnet()
    from assay.resources.wordnet import load
    load()

    t_assay: list[float] = []
    t_nltk: list[float] = []
    for _ in range(max(1, args.repeats)):
        t0 = time.process_time()
        ours = [s.value for s in assay.sentence_scores("meteor", hyps, [refs], "nltk")]
        t_assay.append(time.process_time() - t0)
        t0 = time.process_time()
        theirs = [meteor_score([r], h, wordnet=wn) for h, r in zip(hyps, refs)]
        t_nltk.append(time.process_time() - t0)
    diff = max(abs(a - b) for a, b in zip(ours, theirs))
    print(f"sentence METEOR x{len(hyps)} (CPU s), first run (assay's caches cold): assay {t_assay[0]:.3f}s  "
          f"nltk {ref.version()} {t_nltk[0]:.3f}s  speed-up {t_nltk[0] / t_assay[0]:.1f}x  max|diff| {diff:.2e}")
    if len(t_assay) > 1:
        a, n = min(t_assay[1:]), min(t_nltk[1:])
        print(f"sentence METEOR x{len(hyps)} (CPU s), repeat runs (best; assay's process-wide stem/synonym "
              f"caches warm, as for a second call): assay {a:.3f}s  nltk {n:.3f}s  speed-up {n / a:.1f}x")
        print("  every run (assay s / nltk s = speed-up): " + ", ".join(
            f"{x:.3f}/{y:.3f} = {y / x:.1f}x" for x, y in zip(t_assay, t_nltk)))


if __name__ == "__main__":
    main()
