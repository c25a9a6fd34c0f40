"""COCO caption metrics speed: assay vs pycocoevalcap 1.2 in one process (ratios, not absolute times).

    python -m conformance.bench.coco [--size 20000] [--repeats 1] [--meteor-images 2000] [--quick]

Times are CPU seconds (``os.times()``: this process plus the child processes it waited for, so the
jar runs count; the machine is shared, and CPU time is what the two sides cost, unlike wall time
which other loads distort). Corpus: ``--size``/``--images`` generated images
(conformance/generate/captions.py, fixed seed), one hypothesis and 5 references each (20,000 images =
20,000 hypotheses + 100,000 references). Timings (median of ``--repeats``, sides alternating), each row
with the largest absolute score difference:
- CIDEr-D on pre-tokenised captions: ``assay.score("cider", …, "coco")`` vs ``Cider().compute_score``;
- BLEU: ``assay.score("bleu", …, "coco")`` vs ``Bleu(4).compute_score``;
- ROUGE-L: ``assay.score("rouge", …, "coco")`` (what ``assay score coco`` uses) vs ``Rouge().compute_score``;
- all three at once: ``assay.score("coco", …, "pretokenized", meteor="off")`` vs the three scorers;
- the PTB tokenizer: assay's vs the toolkit's jar (``PTBTokenizer().tokenize``, one Java run for the
  references and one for the results, as COCOEvalCap);
- CIDEr-D with PTB tokenisation on raw captions, each side's whole path:
  ``assay.score("cider", …, "coco", tokenize="ptb")`` vs the two PTBTokenizer jar runs +
  ``Cider().compute_score`` on their output;
- (the rows on raw captions start each run with a fresh PTB lexer: no chunk cached by an earlier row)
- the whole pipeline on raw captions WITHOUT METEOR (tokenise + BLEU + ROUGE-L + CIDEr-D on both
  sides): ``assay.score("coco", …, "pycocoevalcap", meteor="off")`` vs PTBTokenizer + the three scorers;
- the whole pipeline WITH METEOR (COCOEvalCap's full set minus SPICE) on the first ``--meteor-images``
  images (METEOR dominates both sides; 0 skips it): pycocoevalcap adds ``Meteor().compute_score`` (the
  METEOR 1.5 jar, JVM start-up included) on the tokenised captions; assay adds its
  ``meteor/meteor-1.5`` profile (``meteor="auto"``). METEOR's own share is a separate (derived) row.
"""
from __future__ import annotations

import gc
import sys
from typing import Any

import assay

from conformance.bench.harness import CPU_CHILDREN, Bench, Corpus, arguments, parse, text_bytes
from conformance.generate.captions import large_caption_corpus
from conformance.references import coco_ref

TOOL = "pycocoevalcap"


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=20000, unit="images", quick=500, repeats=1, size_aliases=("--images",),
                       corpus=False)
    parser.add_argument("--meteor-images", type=int, default=2000,
                        help="images for the pipeline-with-METEOR rows (default 2,000; 0 = skip)")
    args = parse(parser, argv)
    if args.quick:
        args.meteor_images = min(args.meteor_images, 100)
    if args.size < 20000 and not args.quick:
        print(f"warning: only {args.size} hypotheses (the benchmark is meant for >= 20,000)", file=sys.stderr)

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    tok = large_caption_corpus(args.size, raw=False)
    hyps, refs = tok["hyps"], tok["refs"]
    groups = [[s[i] for s in refs] for i in range(len(hyps))]
    gts = {i: g for i, g in enumerate(groups)}
    res = {i: [h] for i, h in enumerate(hyps)}
    n_caps = len(hyps) + sum(len(g) for g in groups)
    raw = large_caption_corpus(args.size, raw=True)
    corpus = Corpus.of(f"{len(hyps)} images x 5 references ({n_caps} captions), generated (seed fixed); the "
                       "pre-tokenised rows score the tokenised captions, the pipeline rows the raw ones",
                       len(hyps), "images", raw["hyps"], raw["refs"])
    bench = Bench("COCO caption metrics: assay vs pycocoevalcap", corpus, clock=CPU_CHILDREN, repeats=args.repeats,
                  memory=args.memory, tools=[f"pycocoevalcap {coco_ref.version()}"])

    def compare(label: str, ours: Any, theirs: Any, agree: Any = None, children: bool = False,
                setup: Any = None) -> Any:
        return bench.compare(label, ours, TOOL, theirs, agree=agree, children=children, quiet=True, setup=setup)

    compare("CIDEr-D (pre-tokenised)", lambda: assay.score("cider", hyps, refs, "coco"),
            lambda: Cider().compute_score(gts, res), lambda a, t: abs(a.value - t[0]))
    compare("BLEU 1-4 (pre-tokenised)", lambda: assay.score("bleu", hyps, refs, "coco"),
            lambda: Bleu(4).compute_score(gts, res, verbose=0),
            lambda a, t: max(abs(a.components[f"Bleu_{n}"] - t[0][n - 1]) for n in range(1, 5)))
    compare("ROUGE-L (pre-tokenised)", lambda: assay.score("rouge", hyps, refs, "coco"),
            lambda: Rouge().compute_score(gts, res), lambda a, t: abs(a.value - t[0]))
    compare("BLEU + ROUGE-L + CIDEr-D (pre-tokenised)",
            lambda: assay.score("coco", hyps, refs, "pretokenized", meteor="off"), lambda: coco_ref.scorers(gts, res),
            lambda a, t: max(abs(a.components[k] - t[k]) for k in coco_ref.NAMES))

    raw_groups = [[s[i] for s in raw["refs"]] for i in range(len(raw["hyps"]))]
    gts_raw = {i: g for i, g in enumerate(raw_groups)}
    res_raw = dict(enumerate(raw["hyps"]))

    def jar() -> Any:
        return (coco_ref.ptb_tokenize({str(k): v for k, v in gts_raw.items()}),
                coco_ref.ptb_tokenize({str(k): [v] for k, v in res_raw.items()}))

    try:
        from assay.metrics.cider.tokens import ptb_batch
        ptb_batch(["a"])
    except assay.MissingDependencyError:
        bench.single(f"PTB tokenizer ({n_caps} captions)", jar, tool=TOOL, children=True, quiet=True)
        bench.note("assay's PTB tokenizer is not available (skipped)")
        bench.single("tokenise + score pipeline", lambda: coco_ref.evaluate(gts_raw, res_raw), tool=TOOL,
                     children=True, quiet=True)
        bench.note("assay skipped (no PTB tokenizer)")
        return 0
    flat_refs = [c for g in raw_groups for c in g]
    compare(f"PTB tokenizer ({n_caps} captions; the jar includes JVM start-up)",
            lambda: (ptb_batch(flat_refs), ptb_batch(raw["hyps"])), jar, children=True)
    compare("CIDEr-D with PTB tokenisation (raw captions; PTB + CIDEr-D on both sides)",
            lambda: assay.score("cider", raw["hyps"], raw["refs"], "coco", tokenize="ptb"),
            lambda: Cider().compute_score(*jar()), lambda a, t: abs(a.value - t[0]), children=True, setup=cold_ptb)
    compare("tokenise + score pipeline WITHOUT METEOR (raw captions; PTB + BLEU + ROUGE-L + CIDEr-D on both sides)",
            lambda: assay.score("coco", raw["hyps"], raw["refs"], "pycocoevalcap", meteor="off"),
            lambda: coco_ref.evaluate(gts_raw, res_raw),
            lambda a, t: max(abs(a.components[k] - t[k]) for k in coco_ref.NAMES), children=True, setup=cold_ptb)
    if args.meteor_images > 0:
        with_meteor(bench, raw, min(args.meteor_images, len(raw["hyps"])))
    return 0


def cold_ptb() -> None:
    """Before each run of a row that tokenises raw captions: a fresh PTB lexer (regex compilation and
    an empty chunk cache), so no run reuses the chunks an earlier row tokenised."""
    from assay.tokenizers import ptb
    ptb._LEXER = None


def with_meteor(bench: Bench, raw: dict[str, Any], n: int) -> None:
    """The full COCOEvalCap set minus SPICE on the first ``n`` images, and METEOR's own share."""
    from pycocoevalcap.meteor.meteor import Meteor

    from assay.engine.coco import meteor_profile
    hyps = raw["hyps"][:n]
    refs = [s[:n] for s in raw["refs"]]
    gts_raw = {i: [s[i] for s in refs] for i in range(n)}
    res_raw = dict(enumerate(hyps))
    label = f"{n} images"
    part = text_bytes(hyps, refs)
    meteor_share: list[float] = []   # the tool's METEOR share of each of its runs

    def theirs() -> dict[str, Any]:
        out = coco_ref.evaluate(gts_raw, res_raw)
        tok = out["tokenized"]
        start = bench.clock.read()
        scorer = Meteor()
        out["METEOR"], _ = scorer.compute_score(tok["gts"], tok["res"])
        del scorer       # its __del__ kills and waits for the jar, so the jar's CPU time counts
        gc.collect()
        meteor_share.append(bench.clock.read() - start)
        return out

    profile = meteor_profile()
    if profile is None:
        bench.single(f"pipeline WITH METEOR ({label})", theirs, tool=TOOL, children=True, quiet=True, input_bytes=part)
        bench.note(f"its METEOR jar {min(meteor_share):.2f}s; assay has no METEOR 1.5 profile, so it omits "
                   "METEOR: no like-for-like ratio")
        return
    off = bench.single(f"  {label} WITHOUT METEOR (assay)",
                       lambda: assay.score("coco", hyps, refs, "pycocoevalcap", meteor="off"), quiet=True,
                       input_bytes=part)
    names = coco_ref.NAMES + ("METEOR",)
    row = bench.compare(f"tokenise + score pipeline WITH METEOR ({label}; PTB + BLEU + METEOR + ROUGE-L + CIDEr-D on "
                        f"both sides; assay meteor/{profile})",
                        lambda: assay.score("coco", hyps, refs, "pycocoevalcap", meteor="auto"), TOOL, theirs,
                        agree=lambda a, t: max(abs(a.components[k] - t[k]) for k in names), children=True, quiet=True,
                        input_bytes=part)
    t_on, t_off = row.assay.median, off.assay.median
    t_meteor = sorted(meteor_share)[len(meteor_share) // 2]
    bench.derived(f"  of which METEOR alone ({label}; assay = with minus without METEOR; pycocoevalcap = "
                  "Meteor().compute_score incl. JVM start-up)", max(t_on - t_off, 1e-9), TOOL, t_meteor,
                  abs(row.assay.result.components["METEOR"] - row.tool.result["METEOR"]))
    bench.derived(f"  same {label} WITHOUT METEOR", t_off, TOOL, row.tool.median - t_meteor)


if __name__ == "__main__":
    sys.exit(main())
