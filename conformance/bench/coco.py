"""COCO caption metrics speed: assay vs pycocoevalcap 1.2 in one process (ratios, not absolute times).

    python -m conformance.bench.coco [--size 20000] [--repeats 1] [--meteor-images 2000] [--tool-sample N] [--quick]

Times are CPU seconds (``time.process_time()`` for this process plus ``os.times()`` for the child processes it waited for, so the
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
- (before the rows, assay scores the first 200 images once, untimed: its modules are imported on first
  use, the tool's before any row)
- the whole pipeline on raw captions WITHOUT METEOR (tokenise + BLEU + ROUGE-L + CIDEr-D on both
  sides): ``assay.score("coco", …, "pycocoevalcap", meteor="off")`` vs PTBTokenizer + the three scorers;
- the whole pipeline WITH METEOR (COCOEvalCap's full set minus SPICE) on the first ``--meteor-images``
  images (METEOR dominates both sides; 0 skips it): pycocoevalcap adds ``Meteor().compute_score`` (the
  METEOR 1.5 jar, JVM start-up included) on the tokenised captions; assay adds its
  ``meteor/meteor-1.5`` profile (``meteor="auto"``). METEOR's own share is a separate (derived) row.

For 1M images (pycocoevalcap's CIDEr-D alone would need ~19 GB): ``--tool-sample N`` runs every tool
row but the METEOR ones on a random sample of N images (harness.ToolCoverage: ``random.Random(seed)``,
``--sample-seed``, default 18) and multiplies its time by ``size / N``; the row's label says so, the
tool's peak is the sample's, and the scores are compared on the sample (assay scores the sample once
more, untimed, for that). assay always scores the whole corpus. (CIDEr-D's idf is the evaluated
references', so a sample's scores differ from the whole corpus's; ``--tool-chunk`` does not apply. The
jar rows' JVM start-up, ~1 s of CPU, is extrapolated with the rest: it favours the tool slightly.)
"""
from __future__ import annotations

import gc
import sys
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import assay

from conformance.bench.harness import (CPU_CHILDREN, Bench, Corpus, arguments, coverage_arguments, coverage_of, parse,
                                       pick, text_bytes)
from conformance.generate.captions import large_caption_corpus
from conformance.references import coco_ref

TOOL = "pycocoevalcap"


@dataclass(frozen=True)
class View:
    """The captions one side scores: assay's lists (hypotheses, reference streams) and the tool's dicts
    (``gts = {i: [refs of image i]}``, ``res = {i: [hyp]}``); the whole corpus or the tool's sample."""

    hyps: list[str]
    refs: list[list[str]]
    gts: dict[int, list[str]]
    res: dict[int, list[str]]
    flat_refs: list[str]        #: every reference, image by image (the wrapper's order)

    @classmethod
    def of(cls, hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
           indices: Sequence[int] | None = None) -> "View":
        if indices is not None:
            hyps, refs = pick(hyps, indices), [pick(s, indices) for s in refs]
        groups = [[s[i] for s in refs if s[i] is not None] for i in range(len(hyps))]
        return cls(list(hyps), [list(s) for s in refs], dict(enumerate(groups)),
                   {i: [h] for i, h in enumerate(hyps)}, [c for g in groups for c in g])


def jar(view: View) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """pycocoevalcap's PTBTokenizer on the references, then on the results (two jar runs, as COCOEvalCap)."""
    return (coco_ref.ptb_tokenize({str(k): v for k, v in view.gts.items()}),
            coco_ref.ptb_tokenize({str(k): v for k, v in view.res.items()}))


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=20000, unit="images", quick=500, repeats=1, size_aliases=("--images",),
                       corpus=False)
    parser.add_argument("--meteor-images", type=int, default=2000,
                        help="images for the pipeline-with-METEOR rows (default 2,000; 0 = skip)")
    coverage_arguments(parser)
    args = parse(parser, argv)
    if args.tool_chunk:
        parser.error("--tool-chunk does not apply to COCO: CIDEr-D's document frequencies are the whole "
                     "corpus's (pycocoevalcap has no additive statistics); use --tool-sample N")
    if args.quick:
        args.meteor_images = min(args.meteor_images, 100)
    if args.size < 20000 and not args.quick:
        print(f"warning: only {args.size} hypotheses (the benchmark is meant for >= 20,000)", file=sys.stderr)

    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    tok = large_caption_corpus(args.size, raw=False)
    raw = large_caption_corpus(args.size, raw=True)
    cover = coverage_of(args, len(tok["hyps"]))
    sample = cover.indices() if cover.sampled else None
    whole = View.of(tok["hyps"], tok["refs"])
    whole_raw = View.of(raw["hyps"], raw["refs"])
    part = View.of(tok["hyps"], tok["refs"], sample) if sample is not None else whole
    part_raw = View.of(raw["hyps"], raw["refs"], sample) if sample is not None else whole_raw
    n_caps = len(whole.hyps) + sum(len(g) for g in whole.gts.values())
    corpus = Corpus.of(f"{len(whole.hyps)} images x 5 references ({n_caps} captions), generated (seed fixed); the "
                       "pre-tokenised rows score the tokenised captions, the pipeline rows the raw ones",
                       len(whole.hyps), "images", raw["hyps"], raw["refs"])
    bench = Bench("COCO caption metrics: assay vs pycocoevalcap", corpus, clock=CPU_CHILDREN, repeats=args.repeats,
                  memory=args.memory, tools=[f"pycocoevalcap {coco_ref.version()}"])

    def compare(label: str, ours: Callable[[View], Any], theirs: Callable[[View], Any], tokenised: bool = True,
                agree: Callable[[Any, Any], float] | None = None, children: bool = False,
                setup: Callable[[], None] | None = None) -> Any:
        """One row: assay on the whole corpus against the tool on the whole corpus or, with
        --tool-sample, on the sample (time extrapolated; the scores compared on the sample)."""
        mine, theirs_view = (whole, part) if tokenised else (whole_raw, part_raw)
        if sample is None:
            return bench.compare(label, lambda: ours(mine), TOOL, lambda: theirs(theirs_view), agree=agree,
                                 children=children, quiet=True, setup=setup)
        on_sample = None if agree is None else (lambda a, t: agree(ours(theirs_view), t))
        return bench.compare_sampled(label, lambda: ours(mine), TOOL, lambda: theirs(theirs_view), cover,
                                     agree=on_sample, setup=setup, quiet=True, children=children)

    warm_up(tok, raw)
    compare("CIDEr-D (pre-tokenised)", lambda v: assay.score("cider", v.hyps, v.refs, "coco"),
            lambda v: Cider().compute_score(v.gts, v.res), agree=lambda a, t: abs(a.value - t[0]))
    compare("BLEU 1-4 (pre-tokenised)", lambda v: assay.score("bleu", v.hyps, v.refs, "coco"),
            lambda v: Bleu(4).compute_score(v.gts, v.res, verbose=0),
            agree=lambda a, t: max(abs(a.components[f"Bleu_{n}"] - t[0][n - 1]) for n in range(1, 5)))
    compare("ROUGE-L (pre-tokenised)", lambda v: assay.score("rouge", v.hyps, v.refs, "coco"),
            lambda v: Rouge().compute_score(v.gts, v.res), agree=lambda a, t: abs(a.value - t[0]))
    compare("BLEU + ROUGE-L + CIDEr-D (pre-tokenised)",
            lambda v: assay.score("coco", v.hyps, v.refs, "pretokenized", meteor="off"),
            lambda v: coco_ref.scorers(v.gts, v.res),
            agree=lambda a, t: max(abs(a.components[k] - t[k]) for k in coco_ref.NAMES))

    try:
        from assay.metrics.cider.tokens import ptb_batch
        ptb_batch(["a"])
    except assay.MissingDependencyError:
        bench.note("assay's PTB tokenizer is not available: the rows on raw captions are skipped")
        return 0
    compare(f"PTB tokenizer ({n_caps} captions; the jar includes JVM start-up)",
            lambda v: (ptb_batch(v.flat_refs), ptb_batch(v.hyps)), jar, tokenised=False, children=True)
    compare("CIDEr-D with PTB tokenisation (raw captions; PTB + CIDEr-D on both sides)",
            lambda v: assay.score("cider", v.hyps, v.refs, "coco", tokenize="ptb"),
            lambda v: Cider().compute_score(*jar(v)), tokenised=False, agree=lambda a, t: abs(a.value - t[0]),
            children=True, setup=cold_ptb)
    compare("tokenise + score pipeline WITHOUT METEOR (raw captions; PTB + BLEU + ROUGE-L + CIDEr-D on both sides)",
            lambda v: assay.score("coco", v.hyps, v.refs, "pycocoevalcap", meteor="off"),
            lambda v: coco_ref.evaluate(v.gts, {k: c[0] for k, c in v.res.items()}), tokenised=False,
            agree=lambda a, t: max(abs(a.components[k] - t[k]) for k in coco_ref.NAMES), children=True,
            setup=cold_ptb)
    if args.meteor_images > 0:
        with_meteor(bench, raw, min(args.meteor_images, len(raw["hyps"])))
    return 0


def warm_up(tok: dict[str, Any], raw: dict[str, Any], images: int = 200) -> None:
    """assay's calls once on the first ``images`` images, untimed: its family modules are imported on
    first use (``import assay`` is lazy), while the tool's are imported before any row, so without this
    the first timed run of a row would pay assay's imports and first-call set-up and no tool's."""
    hyps, refs = tok["hyps"][:images], [s[:images] for s in tok["refs"]]
    for metric, profile in (("cider", "coco"), ("bleu", "coco"), ("rouge", "coco")):
        assay.score(metric, hyps, refs, profile)
    assay.score("coco", hyps, refs, "pretokenized", meteor="off")
    try:
        assay.score("coco", raw["hyps"][:images], [s[:images] for s in raw["refs"]], "pycocoevalcap", meteor="off")
    except assay.MissingDependencyError:
        pass


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
