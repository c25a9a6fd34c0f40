"""Fixtures for the COCO caption metrics, from the live pycocoevalcap 1.2 (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen.coco [--pipeline] [--vrama91 DIR] [--sets 220]
    PYTHONHASHSEED=0 python -m conformance.regen coco [--vrama91-dir DIR]     # as regen runs it: with --pipeline

Writes
- ``fixtures/cider/coco_research.json``: research cases C01-C06 (shared/research/rouge_meteor_cider.md §7);
- ``fixtures/cider/coco_generated.json``: generated image sets (1-5 references per image), corpus
  CIDEr-D and per-image scores, from ``Cider().compute_score``;
- ``fixtures/bleu/coco_generated.json``: B01-B05 and generated sets, ``Bleu(4).compute_score``
  (Bleu_1..4; sentence level = its per-image lists) and ``BleuScorer.compute_score(option=...)``
  for the shortest/average reference lengths;
- ``fixtures/coco/pretokenized_generated.json``: the ``coco`` composite on pre-tokenised captions
  (Bleu_1..4, ROUGE_L, CIDEr), including R18 (max P and max R over references, beta 1.2);
- with ``--pipeline``: ``fixtures/coco/pipeline_generated.json``, raw captions through
  pycocoevalcap's PTBTokenizer (Java, with a timeout) and the scorers, for the ``coco/pycocoevalcap``
  profile (needs assay's PTB tokenizer to pass);
- with ``--vrama91 DIR``: ``fixtures/cider/vrama91_generated.json`` from the CIDEr authors' code
  (``DIR`` = a vrama91/cider checkout's ``pyciderevalcap`` converted with ``2to3 -w -n``; commit f281464).
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from typing import Any, Sequence

from conformance.fixture_io import write_specs
from conformance.generate.captions import generate_caption_corpus, references_per_image
from conformance.references import coco_ref

TOL = {"rel": 1e-9, "abs": 1e-12}
TOOL = "pycocoevalcap"
VRAMA91_COMMIT = "f281464"
NAMES = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr")


def _streams(groups: Sequence[Sequence[str]]) -> list[list[str | None]]:
    width = max(len(g) for g in groups)
    return [[g[j] if j < len(g) else None for g in groups] for j in range(width)]


def _dicts(hyps: Sequence[str], groups: Sequence[Sequence[str]]) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    return {i: list(g) for i, g in enumerate(groups)}, {i: [h] for i, h in enumerate(hyps)}


def _expected(score: Any, command: str, components: dict[str, Any] | None = None,
              version: str | None = None, tool: str = TOOL) -> dict[str, Any]:
    out = {"tool": tool, "version": version or coco_ref.version(), "command": command, "score": score,
           "tolerance": TOL}
    if components:
        out["components"] = components
    return out


def _case(case_id: str, note: str, metric_profile: str, hyps: Sequence[str], groups: Sequence[Sequence[str]],
          expected: list[dict[str, Any]], level: str = "corpus", knobs: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"id": case_id, "note": note, "profile": metric_profile, "knobs": knobs or {}, "level": level,
            "hyps": list(hyps), "refs": _streams(groups), "expected": expected}


# ----------------------------------------------------------------------------- research cases
def _cider_case(case_id: str, note: str, hyps: list[str], groups: list[list[str]], sentence: bool = False
                ) -> list[dict[str, Any]]:
    gts, res = _dicts(hyps, groups)
    try:
        r = coco_ref.scorers(gts, res, ("cider",))
    except ValueError as exc:   # the tool's own failure is data
        return [_case(case_id, note, "coco", hyps, groups,
                      [{**_expected(None, "Cider().compute_score(gts, res)"), "error": type(exc).__name__,
                        "message": str(exc)}])]
    cases = [_case(case_id, note, "coco", hyps, groups,
                   [_expected(r["CIDEr"], "Cider().compute_score(gts, res)[0]")])]
    if sentence:
        cases.append(_case(case_id + "/per-image", note + " (per-image scores)", "coco", hyps, groups,
                           [_expected(r["per_image"]["CIDEr"], "Cider().compute_score(gts, res)[1]")],
                           level="sentence"))
    return cases


def cider_research() -> list[dict[str, Any]]:
    dog, bike, cats, bird = ("a dog runs on the grass", "a man rides a red bike", "two cats sleep on a sofa",
                             "a bird sits on a fence")
    cases: list[dict[str, Any]] = []
    cases += _cider_case("C01", "one image, hypothesis = reference: idf = log 1 - log 1 = 0 everywhere -> 0",
                         [dog], [[dog]])
    cases += _cider_case("C02", "two images, each hypothesis identical to its reference: 10 (the x10 factor)",
                         [dog, bike], [[dog], [bike]], sentence=True)
    img1 = ("a dog running on grass", ["a dog runs on the grass", "a brown dog running in a field"])
    two = [img1, ("a man rides a bike", [bike])]
    four = two + [("cats on a sofa", [cats]), ("a bird on a fence", [bird])]
    for name, corpus in (("2-images", two), ("4-images", four)):
        cases += _cider_case(f"C03/{name}", "the same image scores differently in a 2- and a 4-image corpus "
                             "(document frequencies of the evaluated references)",
                             [h for h, _ in corpus], [g for _, g in corpus], sentence=True)
    unseen = ["xq", "xr", "xs", "xt", "xu", "xv", "xw", "xx", "xy", "xz", "xp", "xo"]
    for k in (0, 1, 3, 6, 12):
        hyp = " ".join([dog] + unseen[:k])
        cases += _cider_case(f"C04/k={k}", f"reference + {k} unseen tokens: Gaussian length penalty (sigma 6) "
                             "and the cosine drop", [hyp, bike, cats], [[dog], [bike], [cats]], sentence=True)
    for hyp in ("dog dog dog dog dog dog", "a dog"):
        cases += _cider_case(f"C05/{hyp.replace(' ', '_')}", "CIDEr-D clipping: repeating a matching word is "
                             "not rewarded", [hyp, bike, cats], [[dog], [bike], [cats]], sentence=True)
    cases += _cider_case("C06", "untokenised reference 'A dog runs on the grass.': the scorers split on "
                         "whitespace only ('A' and 'grass.' are other tokens)", [dog, bike],
                         [["A dog runs on the grass."], [bike]], sentence=True)
    cases += _cider_case("C07/empty", "an empty hypothesis and an empty reference: zero norms give 0",
                         ["", bike, "a cat"], [[dog, ""], [bike], [cats, "a cat"]], sentence=True)
    cases += _cider_case("C08/no-reference-tokens", "every reference empty: CiderScorer takes max() of an empty "
                         "document-frequency table (ValueError)", ["a dog", "a cat"], [[""], [""]])
    return cases


def bleu_research() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []

    def add(case_id: str, note: str, hyps: list[str], groups: list[list[str]], sentence: bool = False) -> None:
        gts, res = _dicts(hyps, groups)
        r = coco_ref.scorers(gts, res, ("bleu",))
        comps = {f"Bleu_{n}": r[f"Bleu_{n}"] for n in range(1, 5)}
        cases.append(_case(case_id, note, "coco", hyps, groups,
                           [_expected(r["Bleu_4"], "Bleu(4).compute_score(gts, res)[0]", comps)]))
        if sentence:
            per = {f"Bleu_{n}": r["per_image"][f"Bleu_{n}"] for n in range(1, 5)}
            cases.append(_case(case_id + "/sentence", note + " (per-image lists)", "coco", hyps, groups,
                               [_expected(r["per_image"]["Bleu_4"], "Bleu(4).compute_score(gts, res)[1]", per)],
                               level="sentence"))

    add("B01", "zero 4-gram matches: (0+1e-15)/(total+1e-9) instead of 0 or smoothing",
        ["the cat sat down quietly", "dog runs park fast"], [["the cat sat on the mat"], ["a dog runs in the park"]])
    add("B02", "3-word perfect match: p4 = 1e-15/1e-9 = 1e-6 -> Bleu_4 0.0316", ["a red car"], [["a red car"]],
        sentence=True)
    add("B03", "perfect 6-word match: 0.9999999996 (epsilon in the denominators)", ["the cat sat on the mat"],
        [["the cat sat on the mat"]], sentence=True)
    b05 = (["the cat sat on the mat", "a dog is running in the park today", "there is a man riding a horse on the beach"],
           [["the cat is sitting on the mat", "a cat sat on the mat"],
            ["a dog runs in the park", "the dog is running through a park"],
            ["a man rides a horse along the beach", "a person on a horse at the beach"]])
    add("B05", "3-segment corpus: corpus-level counts (the mean of sentence BLEU is another number)", *b05,
        sentence=True)
    add("B06/empty-hyp", "an empty hypothesis: ratio (0+1e-15)/(r+1e-9) gives BP 0", ["", "a dog runs"],
        [["a cat"], ["a dog runs fast"]], sentence=True)
    hyp, refs = "a b c d e f g h", ["a b c d e f", "a b c d e f g h i j k"]
    gts, res = {0: refs}, {0: [hyp]}
    for option in ("closest", "shortest", "average"):
        score = coco_ref.bleu_scorer(gts, res, option)
        cases.append(_case(f"B04/{option}", "8-word hypothesis, references of 6 and 11 words: the reference-length "
                           "option", "coco", [hyp], [refs],
                           [_expected(score[3], f"BleuScorer(n=4) += (hyp, refs); compute_score(option='{option}')[0][3]",
                                      {f"Bleu_{n}": score[n - 1] for n in range(1, 5)})],
                           knobs={"ref_length": option}))
    score = coco_ref.bleu_scorer(gts, res, None)
    cases.append(_case("B04/default-call", "BleuScorer.compute_score() with no option on one segment uses "
                       "'average' (the Bleu class always passes 'closest')", "coco", [hyp], [refs],
                       [_expected(score[3], "BleuScorer(n=4) += (hyp, refs); compute_score()[0][3]",
                                  {f"Bleu_{n}": score[n - 1] for n in range(1, 5)})],
                       knobs={"ref_length": "average"}))
    return cases


# ----------------------------------------------------------------------------- generated sets
def generated(n_sets: int, n_sentence: int, seed0: int = 5000) -> dict[str, list[dict[str, Any]]]:
    """Cases for cider, bleu and the coco composite on the same generated image sets."""
    out: dict[str, list[dict[str, Any]]] = {"cider": [], "bleu": [], "coco": []}
    for k in range(n_sets):
        seed = seed0 + k
        corpus = generate_caption_corpus(seed, max_images=12, raw=False)
        hyps, groups = corpus["hyps"], references_per_image(corpus)
        gts, res = _dicts(hyps, groups)
        r = coco_ref.scorers(gts, res)
        note = f"generated image set (seed {seed}): {len(hyps)} images, 1-5 references each"
        out["cider"].append(_case(f"gen/{seed}", note, "coco", hyps, groups,
                                  [_expected(r["CIDEr"], "Cider().compute_score(gts, res)[0]")]))
        out["bleu"].append(_case(f"gen/{seed}", note, "coco", hyps, groups,
                                 [_expected(r["Bleu_4"], "Bleu(4).compute_score(gts, res, verbose=0)[0]",
                                            {f"Bleu_{n}": r[f"Bleu_{n}"] for n in range(1, 5)})]))
        out["coco"].append(_case(f"gen/{seed}", note, "pretokenized", hyps, groups,
                                 [_expected(r["CIDEr"], coco_ref.COMMANDS["scorers"],
                                            {name: r[name] for name in NAMES})]))
        if k < n_sentence:
            per = r["per_image"]
            out["cider"].append(_case(f"gen/{seed}/per-image", note, "coco", hyps, groups,
                                      [_expected(per["CIDEr"], "Cider().compute_score(gts, res)[1]")],
                                      level="sentence"))
            out["bleu"].append(_case(f"gen/{seed}/sentence", note, "coco", hyps, groups,
                                     [_expected(per["Bleu_4"], "Bleu(4).compute_score(gts, res, verbose=0)[1]",
                                                {f"Bleu_{n}": per[f"Bleu_{n}"] for n in range(1, 5)})],
                                     level="sentence"))
            out["coco"].append(_case(f"gen/{seed}/per-image", note, "pretokenized", hyps, groups,
                                     [_expected(per["CIDEr"], coco_ref.COMMANDS["scorers"] + " (per-image)",
                                                {name: per[name] for name in NAMES})], level="sentence"))
        if k < 40:
            for option in ("shortest", "average"):
                score = coco_ref.bleu_scorer(gts, res, option)
                out["bleu"].append(_case(f"gen/{seed}/{option}", note, "coco", hyps, groups,
                                         [_expected(score[3], f"BleuScorer(n=4) += each (hyp, refs); "
                                                    f"compute_score(option='{option}')[0]",
                                                    {f"Bleu_{n}": score[n - 1] for n in range(1, 5)})],
                                         knobs={"ref_length": option}))
    return out


def composite_research() -> list[dict[str, Any]]:
    hyps = ["a man riding a horse", "a dog runs on the grass"]
    groups = [["a man riding a horse on the beach at sunset", "a man on a horse"], ["a dog running on grass"]]
    gts, res = _dicts(hyps, groups)
    r = coco_ref.scorers(gts, res)
    per = r["per_image"]
    return [
        _case("R18", "ROUGE-L: max P and max R independently over references (from different ones), beta 1.2",
              "pretokenized", hyps, groups, [_expected(r["CIDEr"], coco_ref.COMMANDS["scorers"], {name: r[name] for name in NAMES})],
              level="corpus"),
        _case("R18/per-image", "R18 per image (COCO ROUGE-L of image 1: 0.87143)", "pretokenized", hyps, groups,
              [_expected(per["CIDEr"], coco_ref.COMMANDS["scorers"] + " (per-image)",
                         {name: per[name] for name in NAMES})], level="sentence"),
    ]


def pipeline(n_sets: int, seed0: int = 9000) -> list[dict[str, Any]]:
    """Raw captions through the toolkit's PTBTokenizer and the scorers, COCOEvalCap's way: per set, one
    jar run over all references and one over all results (a caption's tokens can depend on the next one)."""
    corpora = [generate_caption_corpus(seed0 + k, max_images=10, raw=True) for k in range(n_sets)]
    cases = []
    for k, c in enumerate(corpora):
        r = coco_ref.evaluate(dict(enumerate(references_per_image(c))), dict(enumerate(c["hyps"])))
        n = len(c["hyps"])
        cases.append(_case(f"pipeline/{seed0 + k}", f"raw captions (seed {seed0 + k}), {n} images: PTBTokenizer then "
                           "the scorers", "pycocoevalcap", c["hyps"], references_per_image(c),
                           [_expected(r["CIDEr"], coco_ref.COMMANDS["pipeline"], {name: r[name] for name in NAMES})],
                           knobs={}))
    return cases


def vrama91_cases(directory: str, n_sets: int, seed0: int = 7000) -> list[dict[str, Any]]:
    """The CIDEr authors' ``Cider`` (df='corpus') on generated sets: the ``vrama91`` profile."""
    sys.path.insert(0, directory)
    from cider.cider import Cider  # type: ignore[import-not-found]
    cases = []
    for k in range(n_sets):
        corpus = generate_caption_corpus(seed0 + k, max_images=12, raw=False)
        hyps, groups = corpus["hyps"], references_per_image(corpus)
        gts = {str(i): g for i, g in enumerate(groups)}
        res = [{"image_id": str(i), "caption": [h]} for i, h in enumerate(hyps)]
        score, scores = Cider().compute_score(gts, res)
        command = ("pyciderevalcap.cider.cider.Cider().compute_score(gts, res) with gts = {id: [refs]}, "
                   "res = [{'image_id': id, 'caption': [hyp]}]")
        cases.append(_case(f"vrama91/{seed0 + k}", "original CIDEr (no clipping, no length penalty) x10", "vrama91",
                           hyps, groups, [_expected(float(score), command + "[0]", version=f"vrama91/cider@{VRAMA91_COMMIT} (2to3)",
                                                    tool="vrama91/cider")]))
        if k < 20:
            cases.append(_case(f"vrama91/{seed0 + k}/per-image", "original CIDEr per image", "vrama91", hyps, groups,
                               [_expected([float(x) for x in scores], command + "[1]",
                                          version=f"vrama91/cider@{VRAMA91_COMMIT} (2to3)", tool="vrama91/cider")],
                               level="sentence"))
            cases.append(_case(f"vrama91/{seed0 + k}/vedantam2015", "seed 004's CIDEr is the authors' code "
                               "without the x10 (scale=10 restores it)", "vedantam2015", hyps, groups,
                               [_expected(float(score), command + "[0]", version=f"vrama91/cider@{VRAMA91_COMMIT} (2to3)",
                                          tool="vrama91/cider")], knobs={"scale": 10}))
    return cases


def build_fixtures(n_sets: int = 220, n_sentence: int = 60, with_pipeline: bool = False,
                   vrama91_dir: str | None = None) -> list[dict[str, Any]]:
    generated_by = {"command": "PYTHONHASHSEED=0 python conformance/regen_coco.py"
                               + (" --pipeline" if with_pipeline else "") + (" --vrama91 DIR" if vrama91_dir else ""),
                    "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""),
                    "tools": {"pycocoevalcap": coco_ref.version()},
                    "provenance": "captions written by conformance/generate_captions.py (project word lists) "
                                  "and the research cases of shared/research/rouge_meteor_cider.md §7"}
    gen = generated(n_sets, n_sentence)
    specs = [
        {"metric": "cider", "family": "coco_research", "cases": cider_research(), "generated_by": generated_by,
         "description": "pycocoevalcap 1.2 Cider (CIDEr-D) on the research cases C01-C06 (+ empty captions)."},
        {"metric": "cider", "family": "coco_generated", "cases": gen["cider"], "generated_by": generated_by,
         "description": "pycocoevalcap 1.2 Cider on generated image sets (1-5 references per image)."},
        {"metric": "bleu", "family": "coco_generated", "cases": bleu_research() + gen["bleu"],
         "generated_by": generated_by,
         "description": "pycocoevalcap 1.2 Bleu(4)/BleuScorer: research cases B01-B06 and generated image sets."},
        {"metric": "coco", "family": "pretokenized_generated", "cases": composite_research() + gen["coco"],
         "generated_by": generated_by,
         "description": "pycocoevalcap 1.2 Bleu(4), Rouge, Cider on pre-tokenised captions (COCOEvalCap after "
                        "its tokenizer): the coco/pretokenized profile."},
    ]
    if with_pipeline:
        specs.append({"metric": "coco", "family": "pipeline_generated", "cases": pipeline(max(40, n_sets // 4)),
                      "generated_by": {**generated_by, "tools": {"pycocoevalcap": coco_ref.version(),
                                                                 "stanford-corenlp": "3.4.1 (bundled jar)"}},
                      "description": "Raw captions -> pycocoevalcap PTBTokenizer (Java) -> Bleu(4), Rouge, Cider: "
                                     "the coco/pycocoevalcap profile end to end."})
    if vrama91_dir:
        specs.append({"metric": "cider", "family": "vrama91_generated", "cases": vrama91_cases(vrama91_dir, 120),
                      "generated_by": {**generated_by, "tools": {"vrama91/cider": f"{VRAMA91_COMMIT} (2to3)"}},
                      "description": "The CIDEr authors' Cider (original CIDEr x10) on generated image sets."})
    return specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=220, help="generated image sets (default 220)")
    parser.add_argument("--sentence", type=int, default=60, help="of which also per-image cases (default 60)")
    parser.add_argument("--pipeline", action="store_true", help="also raw captions through PTBTokenizer (Java)")
    parser.add_argument("--vrama91", metavar="DIR", help="2to3-converted vrama91/cider pyciderevalcap directory")
    args = parser.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen_coco: set PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    write_specs(build_fixtures(args.sets, args.sentence, args.pipeline, args.vrama91))
    return 0


if __name__ == "__main__":
    sys.exit(main())
