"""COCO caption metrics speed: assay vs pycocoevalcap 1.2 in one process (ratios, not absolute times).

    python conformance/bench_coco.py [--images 20000] [--repeats 1] [--meteor-images 2000]

Times are CPU seconds (``os.times()``: this process plus the child processes it waited for, so the
jar runs count; the machine is shared, and CPU time is what the two sides cost, unlike wall time
which other loads distort). Corpus: ``--images`` generated images (conformance/generate_captions.py, fixed seed), one hypothesis
and 5 references each (20,000 images = 20,000 hypotheses + 100,000 references). Timings (best of
``--repeats``), each line with the largest absolute score difference:
- CIDEr-D on pre-tokenised captions: ``assay.score("cider", …, "coco")`` vs ``Cider().compute_score``;
- BLEU: ``assay.score("bleu", …, "coco")`` vs ``Bleu(4).compute_score``;
- ROUGE-L: ``assay.score("rouge", …, "coco")`` (what ``assay score coco`` uses) vs ``Rouge().compute_score``;
- all three at once: ``assay.score("coco", …, "pretokenized", meteor="off")`` vs the three scorers;
- the PTB tokenizer: assay's vs the toolkit's jar (``PTBTokenizer().tokenize``, one Java run for the
  references and one for the results, as COCOEvalCap);
- the whole pipeline on raw captions WITHOUT METEOR (tokenise + BLEU + ROUGE-L + CIDEr-D on both
  sides): ``assay.score("coco", …, "pycocoevalcap", meteor="off")`` vs PTBTokenizer + the three scorers;
- the whole pipeline WITH METEOR (COCOEvalCap's full set minus SPICE) on the first ``--meteor-images``
  images (METEOR dominates both sides; 0 skips it): pycocoevalcap adds ``Meteor().compute_score`` (the
  METEOR 1.5 jar, JVM start-up included) on the tokenised captions; assay adds its
  ``meteor/meteor-1.5`` profile (``meteor="auto"``). METEOR's own share is printed as a separate line.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import sys
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


def cpu() -> float:
    """CPU seconds of this process and of its waited-for children (the Java runs)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        gc.collect()
        start = cpu()
        with contextlib.redirect_stdout(io.StringIO()):   # the toolkit prints progress
            result = fn()
        best = min(best, cpu() - start)
    return best, result


def line(label: str, ours: float, theirs: float, diff: float | None) -> str:
    ratio = theirs / ours if ours > 0 else float("inf")
    tail = "" if diff is None else f" (max abs score diff {diff:.3g})"
    return f"{label}: assay {ours:.2f}s, pycocoevalcap {theirs:.2f}s (CPU), ratio {ratio:.1f}x{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--images", type=int, default=20000, help="generated images (default 20,000)")
    parser.add_argument("--repeats", type=int, default=1, help="best of this many runs (default 1)")
    parser.add_argument("--meteor-images", type=int, default=2000,
                        help="images for the pipeline-with-METEOR lines (default 2,000; 0 = skip)")
    args = parser.parse_args(argv)
    if args.images < 20000:
        print(f"warning: only {args.images} hypotheses (the benchmark is meant for >= 20,000)", file=sys.stderr)

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge
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

    t_a, ours = best_of(args.repeats, lambda: assay.score("rouge", hyps, refs, "coco"))
    t_t, theirs = best_of(args.repeats, lambda: Rouge().compute_score(gts, res))
    print(line("ROUGE-L (pre-tokenised)", t_a, t_t, abs(ours.value - theirs[0])))

    t_a, ours = best_of(args.repeats, lambda: assay.score("coco", hyps, refs, "pretokenized", meteor="off"))
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
        from assay.metrics.cider.family import ptb_batch
        ptb_batch(["a"])
    except assay.MissingDependencyError:
        print(f"PTB tokenizer: pycocoevalcap jar {t_jar:.2f}s for {n_caps} captions; assay's PTB tokenizer is not "
              "available (skipped)")
        print(f"tokenise + score pipeline: pycocoevalcap {t_pipe:.2f}s; assay skipped (no PTB tokenizer)")
        return 0
    flat_refs = [c for g in raw_groups for c in g]
    t_ours, _ = best_of(args.repeats, lambda: (ptb_batch(flat_refs), ptb_batch(raw["hyps"])))
    print(line(f"PTB tokenizer ({n_caps} captions; the jar includes JVM start-up)", t_ours, t_jar, None))
    t_a, ours = best_of(args.repeats, lambda: assay.score("coco", raw["hyps"], raw["refs"], "pycocoevalcap",
                                                          meteor="off"))
    print(line("tokenise + score pipeline WITHOUT METEOR (raw captions; PTB + BLEU + ROUGE-L + CIDEr-D on both "
               "sides)", t_a, t_pipe, max(abs(ours.components[k] - want[k]) for k in coco_ref.NAMES)))
    if args.meteor_images > 0:
        with_meteor(raw, min(args.meteor_images, len(raw["hyps"])), args.repeats)
    return 0


def with_meteor(raw: dict[str, Any], n: int, repeats: int) -> None:
    """The full COCOEvalCap set minus SPICE on the first ``n`` images, and METEOR's own share."""
    from pycocoevalcap.meteor.meteor import Meteor
    from assay.metrics.coco.family import _meteor_profile
    from conformance.references import coco_ref
    hyps = raw["hyps"][:n]
    refs = [s[:n] for s in raw["refs"]]
    gts_raw = {i: [s[i] for s in refs] for i in range(n)}
    res_raw = dict(enumerate(hyps))
    label = f"{n} images"

    def theirs() -> tuple[dict[str, Any], float, float]:
        start = cpu()
        out = coco_ref.evaluate(gts_raw, res_raw)
        tok = out["tokenized"]
        m_start = cpu()
        scorer = Meteor()
        out["METEOR"], _ = scorer.compute_score(tok["gts"], tok["res"])
        del scorer       # its __del__ kills and waits for the jar, so the jar's CPU time counts
        gc.collect()
        end = cpu()
        return out, end - start, end - m_start

    best_t, best_m, want = float("inf"), float("inf"), None
    for _ in range(repeats):
        gc.collect()
        with contextlib.redirect_stdout(io.StringIO()):
            want, t_all, t_met = theirs()
        best_t, best_m = min(best_t, t_all), min(best_m, t_met)
    profile = _meteor_profile()
    if profile is None:
        print(f"pipeline WITH METEOR ({label}): pycocoevalcap {best_t:.2f}s (its METEOR jar {best_m:.2f}s); assay has "
              "no METEOR 1.5 profile, so it omits METEOR: no like-for-like ratio")
        return
    t_off, _ = best_of(repeats, lambda: assay.score("coco", hyps, refs, "pycocoevalcap", meteor="off"))
    t_on, ours = best_of(repeats, lambda: assay.score("coco", hyps, refs, "pycocoevalcap", meteor="auto"))
    names = coco_ref.NAMES + ("METEOR",)
    print(line(f"tokenise + score pipeline WITH METEOR ({label}; PTB + BLEU + METEOR + ROUGE-L + CIDEr-D on both "
               f"sides; assay meteor/{profile})", t_on, best_t,
               max(abs(ours.components[k] - want[k]) for k in names)))
    print(line(f"  of which METEOR alone ({label}; assay = pipeline with minus without METEOR; pycocoevalcap = "
               "Meteor().compute_score incl. JVM start-up)", max(t_on - t_off, 1e-9), best_m,
               abs(ours.components["METEOR"] - want["METEOR"])))
    print(line(f"  same {label} WITHOUT METEOR", t_off, best_t - best_m, None))


if __name__ == "__main__":
    sys.exit(main())
