"""COCO caption metrics speed: assay vs pycocoevalcap 1.2 in one process (ratios, not absolute times).

    python conformance/bench_coco.py [--images 20000] [--repeats 1]

Corpus: ``--images`` generated images (conformance/generate_captions.py, fixed seed), one hypothesis
and 5 references each (20,000 images = 20,000 hypotheses + 100,000 references). Timings (best of
``--repeats``), each line with the largest absolute score difference:
- CIDEr-D on pre-tokenised captions: ``assay.score("cider", …, "coco")`` vs ``Cider().compute_score``;
- BLEU: ``assay.score("bleu", …, "coco")`` vs ``Bleu(4).compute_score``;
- ROUGE-L: ``assay.metrics.coco.coco_rouge_l`` (what ``assay score coco`` uses) vs ``Rouge().compute_score``;
- all three at once: ``assay.score("coco", …, "pretokenized")`` vs the three scorers;
- the PTB tokenizer: assay's (when present) vs the toolkit's jar (``PTBTokenizer().tokenize``, one
  Java run for the references and one for the results, as COCOEvalCap);
- the whole pipeline on raw captions (tokenise + score): ``assay.score("coco", …, "pycocoevalcap")``
  vs PTBTokenizer + the three scorers (needs assay's PTB tokenizer).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import io
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
try:
    import assay
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
    import assay

from conformance.generate_captions import large_caption_corpus  # noqa: E402


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):   # the toolkit prints progress
            result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def line(label: str, ours: float, theirs: float, diff: float | None) -> str:
    ratio = theirs / ours if ours > 0 else float("inf")
    tail = "" if diff is None else f" (max abs score diff {diff:.3g})"
    return f"{label}: assay {ours:.2f}s, pycocoevalcap {theirs:.2f}s, ratio {ratio:.1f}x{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=20000, help="generated images (default 20,000)")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs (default 1)")
    args = parser.parse_args(argv)
    if args.images < 20000:
        print(f"warning: only {args.images} hypotheses (the benchmark is meant for >= 20,000)", file=sys.stderr)

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge
    from assay.metrics.coco import coco_rouge_l
    from conformance.references import coco_ref

    tok = large_caption_corpus(args.images, raw=False)
    hyps, refs = tok["hyps"], tok["refs"]
    groups = [[s[i] for s in refs] for i in range(len(hyps))]
    gts = {i: g for i, g in enumerate(groups)}
    res = {i: [h] for i, h in enumerate(hyps)}
    n_caps = len(hyps) + sum(len(g) for g in groups)
    print(f"corpus: {len(hyps)} images x 5 references ({n_caps} captions), generated (seed fixed)")
    print(f"assay {assay.__version__}; pycocoevalcap {coco_ref.version()}; python {sys.version.split()[0]}; "
          f"best of {args.repeats}")

    t_a, ours = best_of(args.repeats, lambda: assay.score("cider", hyps, refs, "coco"))
    t_t, theirs = best_of(args.repeats, lambda: Cider().compute_score(gts, res))
    print(line("CIDEr-D (pre-tokenised)", t_a, t_t, abs(ours.value - theirs[0])))

    t_a, ours = best_of(args.repeats, lambda: assay.score("bleu", hyps, refs, "coco"))
    t_t, theirs = best_of(args.repeats, lambda: Bleu(4).compute_score(gts, res, verbose=0))
    print(line("BLEU 1-4 (pre-tokenised)", t_a, t_t,
               max(abs(ours.components[f"Bleu_{n}"] - theirs[0][n - 1]) for n in range(1, 5))))

    t_a, ours = best_of(args.repeats, lambda: coco_rouge_l(hyps, groups))
    t_t, theirs = best_of(args.repeats, lambda: Rouge().compute_score(gts, res))
    print(line("ROUGE-L (pre-tokenised)", t_a, t_t, abs(float(ours[:, 2].mean()) - theirs[0])))

    t_a, ours = best_of(args.repeats, lambda: assay.score("coco", hyps, refs, "pretokenized"))
    t_t, theirs = best_of(args.repeats, lambda: coco_ref.scorers(gts, res))
    print(line("BLEU + ROUGE-L + CIDEr-D (pre-tokenised)", t_a, t_t,
               max(abs(ours.components[k] - theirs[k]) for k in coco_ref.NAMES)))

    raw = large_caption_corpus(args.images, raw=True)
    raw_groups = [[s[i] for s in raw["refs"]] for i in range(len(raw["hyps"]))]
    gts_raw = {i: g for i, g in enumerate(raw_groups)}
    res_raw = dict(enumerate(raw["hyps"]))
    t_jar, _ = best_of(args.repeats, lambda: (coco_ref.ptb_tokenize({str(k): v for k, v in gts_raw.items()}),
                                              coco_ref.ptb_tokenize({str(k): [v] for k, v in res_raw.items()})))
    t_pipe, want = best_of(args.repeats, lambda: coco_ref.evaluate(gts_raw, res_raw))
    try:
        from assay.metrics.cider import ptb_batch
        ptb_batch(["a"])
    except assay.MissingDependencyError:
        print(f"PTB tokenizer: pycocoevalcap jar {t_jar:.2f}s for {n_caps} captions; assay's PTB tokenizer is not "
              "available (skipped)")
        print(f"tokenise + score pipeline: pycocoevalcap {t_pipe:.2f}s; assay skipped (no PTB tokenizer)")
        return 0
    flat_refs = [c for g in raw_groups for c in g]
    t_ours, _ = best_of(args.repeats, lambda: (ptb_batch(flat_refs), ptb_batch(raw["hyps"])))
    print(line(f"PTB tokenizer ({n_caps} captions; the jar includes JVM start-up)", t_ours, t_jar, None))
    t_a, ours = best_of(args.repeats, lambda: assay.score("coco", raw["hyps"], raw["refs"], "pycocoevalcap"))
    print(line("tokenise + score pipeline (raw captions)", t_a, t_pipe,
               max(abs(ours.components[k] - want[k]) for k in coco_ref.NAMES)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
