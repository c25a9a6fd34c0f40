"""Fixtures for the ``rouge/coco`` profile, from the live pycocoevalcap 1.2 ``Rouge`` (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen.rouge_coco [--sets 220] [--sentence 60] [--raw 40]
    PYTHONHASHSEED=0 python -m conformance.regen rouge-coco                 # the defaults

Writes ``fixtures/rouge/coco.json``:
- research case R18 (shared/research/rouge_meteor_cider.md §5.4, §7: ``a man riding a horse`` vs a
  long reference and ``a man on a horse``: COCO 0.87143, max P and max R from different references);
- edge cases of pycocoevalcap's ``split(" ")`` tokens (double and outer spaces, empty captions, a tab,
  case, punctuation left attached) and of the F_beta zero rule;
- ``--sets`` generated image sets (conformance/generate/captions.py, 1-5 references per image,
  PTB-style lower-case captions) as corpus cases (``Rouge().compute_score(gts, res)[0]``, the mean
  of per-image F), the first ``--sentence`` of them also per image (``compute_score(...)[1]``);
- ``--raw`` generated sets of untokenised captions (capitals, punctuation, irregular spaces): what
  the scorer computes when called without the PTBTokenizer.
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
CORPUS_CMD = "pycocoevalcap.rouge.rouge.Rouge().compute_score(gts, res)[0] with gts = {i: [refs of image i]}, " \
             "res = {i: [hyp i]}"
SENTENCE_CMD = "pycocoevalcap.rouge.rouge.Rouge().compute_score(gts, res)[1] (per-image F, image order)"


def _streams(groups: Sequence[Sequence[str]]) -> list[list[str | None]]:
    width = max(len(g) for g in groups)
    return [[g[j] if j < len(g) else None for g in groups] for j in range(width)]


def _expected(score: Any, command: str) -> dict[str, Any]:
    return {"tool": TOOL, "version": coco_ref.version(), "command": command, "score": score, "tolerance": TOL}


def rouge_cases(case_id: str, note: str, hyps: Sequence[str], groups: Sequence[Sequence[str]],
                sentence: bool = False) -> list[dict[str, Any]]:
    """A corpus case (and optionally its per-image case) scored live by pycocoevalcap's Rouge."""
    gts = {i: list(g) for i, g in enumerate(groups)}
    res = {i: [h] for i, h in enumerate(hyps)}
    r = coco_ref.scorers(gts, res, ("rouge",))
    base = {"note": note, "profile": "coco", "knobs": {}, "hyps": list(hyps), "refs": _streams(groups)}
    cases = [{"id": case_id, **base, "level": "corpus", "expected": [_expected(r["ROUGE_L"], CORPUS_CMD)]}]
    if sentence:
        cases.append({"id": case_id + "/per-image", **base, "note": note + " (per-image F)", "level": "sentence",
                      "expected": [_expected(r["per_image"]["ROUGE_L"], SENTENCE_CMD)]})
    return cases


def research() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    cases += rouge_cases("R18", "research R18: max P (1.0, from 'a man riding a horse on the beach at sunset') and "
                         "max R (0.8, from 'a man on a horse') come from different references; F_beta 1.2 = 0.87143 "
                         "where rouge-score score_multi and ROUGE-1.5.5 -f B give 0.8",
                         ["a man riding a horse"],
                         [["a man riding a horse on the beach at sunset", "a man on a horse"]], sentence=True)
    edge = [
        ("double-space-hyp", "a double space in the hypothesis is an empty token (split(' '), not split())",
         ["a  dog runs"], [["a dog runs"]]),
        ("double-space-ref", "a double space in the reference is an empty token", ["a dog runs"],
         [["a dog  runs"]]),
        ("double-space-both", "empty tokens on both sides match each other", ["a  dog"], [["a  dog"]]),
        ("outer-spaces", "leading/trailing spaces give empty tokens at the ends", [" a dog runs "],
         [["a dog runs"]]),
        ("empty-both", "an empty hypothesis and an empty reference: one empty token each, F = 1",
         [""], [[""]]),
        ("empty-hyp", "an empty hypothesis against a non-empty reference: 0", [""], [["a dog runs"]]),
        ("empty-ref", "a non-empty hypothesis, one empty and one matching reference", ["a dog runs"],
         [["", "a dog"]]),
        ("tab", "a tab is not a separator for split(' ')", ["a\tdog runs"], [["a dog runs"]]),
        ("newline", "a newline is not a separator either (no sentence split)", ["a dog\nruns"], [["a dog runs"]]),
        ("case", "no lowercasing: 'A' and 'a' differ", ["A Dog runs"], [["a dog runs"]]),
        ("punctuation", "no tokenisation: 'grass.' is one token", ["a dog runs on the grass."],
         [["a dog runs on the grass", "a dog runs on the grass ."]]),
        ("no-overlap", "no common token: P = R = 0 -> F = 0", ["x y z"], [["a b c", "d e"]]),
        ("recall-from-short", "P maximal on one reference, R on another", ["a b c d"],
         [["a b c d e f g h", "a b"]]),
        ("non-ascii", "non-ASCII tokens are compared as they are", ["un café au lait"], [["café au lait", "thé"]]),
    ]
    for cid, note, hyps, groups in edge:
        cases += rouge_cases(f"edge/{cid}", note, hyps, groups)
    hyps = ["a man riding a horse", "", "a  cat", "A Dog.", "x"]
    groups = [["a man riding a horse on the beach at sunset", "a man on a horse"], ["", "a b"], ["a cat"],
              ["a dog .", "A Dog."], ["y"]]
    cases += rouge_cases("edge/corpus", "the edge cases together: corpus ROUGE_L = mean of per-image F", hyps,
                         groups, sentence=True)
    return cases


def generated(n_sets: int, n_sentence: int, n_raw: int, seed0: int = 7000) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for k in range(n_sets):
        seed = seed0 + k
        corpus = generate_caption_corpus(seed, max_images=12, raw=False)
        cases += rouge_cases(f"gen/{seed}", f"generated image set (seed {seed}): {len(corpus['hyps'])} images, "
                             "1-5 references each", corpus["hyps"], references_per_image(corpus),
                             sentence=k < n_sentence)
    for k in range(n_raw):
        seed = seed0 + 5000 + k
        corpus = generate_caption_corpus(seed, max_images=12, raw=True)
        cases += rouge_cases(f"raw/{seed}", f"generated untokenised captions (seed {seed}): capitals, punctuation "
                             "and irregular spaces reach split(' ') as they are", corpus["hyps"],
                             references_per_image(corpus), sentence=k < n_raw // 2)
    return cases


def build_fixtures(n_sets: int = 220, n_sentence: int = 60, n_raw: int = 40) -> list[dict[str, Any]]:
    generated_by = {"command": "PYTHONHASHSEED=0 python conformance/regen_rouge_coco.py",
                    "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""),
                    "tools": {"pycocoevalcap": coco_ref.version()},
                    "provenance": "captions written by conformance/generate_captions.py (project word lists), "
                                  "hand-written edge cases, and research case R18 of "
                                  "shared/research/rouge_meteor_cider.md §7"}
    return [{"metric": "rouge", "family": "coco", "cases": research() + generated(n_sets, n_sentence, n_raw),
             "generated_by": generated_by,
             "description": "pycocoevalcap 1.2 Rouge (ROUGE-L, beta 1.2, max P and max R over references, "
                            "split(' ') tokens): the rouge/coco profile."}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=220, help="generated image sets (default 220)")
    parser.add_argument("--sentence", type=int, default=60, help="of which also per-image cases (default 60)")
    parser.add_argument("--raw", type=int, default=40, help="generated sets of untokenised captions (default 40)")
    args = parser.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen_rouge_coco: set PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    if coco_ref.version() != coco_ref.VERSION:
        print(f"regen_rouge_coco: pycocoevalcap=={coco_ref.VERSION} is needed, found {coco_ref.version()}",
              file=sys.stderr)
        return 2
    write_specs(build_fixtures(args.sets, args.sentence, args.raw))
    return 0


if __name__ == "__main__":
    sys.exit(main())
