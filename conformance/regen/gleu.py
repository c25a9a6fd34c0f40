"""Fixture builders for GLEU: NLTK's ``gleu_score`` (3.10.4), live and in-process.

    PYTHONHASHSEED=0 python -m conformance.regen gleu

Families written (``fixtures/gleu/``):

- ``nltk_generated``: the distinct string inputs of the BLEU fixtures (``fixtures/bleu/*.json``:
  every input of the research, seed and bit-level files, every 5th of the generated ones), scored by
  ``corpus_gleu`` on ``str.split()`` tokens (profile ``nltk``), the n-gram orders rotating
  (``max_len`` 4, 2, 3, 1, 5; ``min_len`` 2 on some), every 3rd input also at sentence level
  (``sentence_gleu`` per segment);
- ``edge``: hand-written cases: empty hypothesis, empty reference, both empty, missing references,
  several references, ties between references in both orders, clipping of repeated n-grams,
  orders longer than the segment;
- ``sample``: the bundled sample (``fixtures/sample``: hyp.txt against ref1.txt and ref2.txt, and
  against ref1.txt alone) under both profiles, corpus level (the audit tests' claims);
- ``hf13a``: the research and seed inputs under profile ``hf-evaluate``: NLTK ``corpus_gleu`` on the
  tokens of sacrebleu 2.6.0's ``Tokenizer13a`` (the tokenizer HF evaluate's ``google_bleu`` copies as
  ``tokenizer_13a``; evaluate's own answers are recorded in fixtures/thirdparty/hf-google_bleu*.json).

A segment's references are the reference streams' entries that are not None, in stream order
(NLTK takes a list of references per segment). Every expected value is NLTK's output.
"""
from __future__ import annotations

import argparse
import os
import platform
import sys
from typing import Any, Callable, Sequence

from conformance.fixture_io import iter_cases, write_specs

TOL = {"rel": 1e-9, "abs": 0.0}
FULL_FILES = ("bits", "nltk_research", "research_moses", "seeds", "sacrebleu1_generated")
GENERATED_EVERY = 5
SENTENCE_EVERY = 3
#: (min_len, max_len) rotation of the generated cases; the first is NLTK's default
ORDERS = ((1, 4), (1, 2), (1, 3), (1, 4), (1, 1), (2, 4), (1, 5), (2, 3))


def _nltk() -> Any:
    from nltk.translate import gleu_score
    return gleu_score


def _tokenizer(tokenize: str) -> Callable[[str], list[str]]:
    if tokenize == "split":
        return str.split
    if tokenize == "13a":
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
        tok = Tokenizer13a()
        return lambda text: tok(text).split()
    raise ValueError(f"unknown tokenize {tokenize!r}")


def segment_refs(refs: Sequence[Sequence[str | None]], n_seg: int) -> list[list[str]]:
    """Per segment, its references (the streams' entries that are not None), in stream order."""
    return [[s[i] for s in refs if s[i] is not None] for i in range(n_seg)]


def nltk_gleu(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], level: str = "corpus",
              min_len: int = 1, max_len: int = 4, tokenize: str = "split") -> float | list[float]:
    """NLTK ``corpus_gleu`` (``level="corpus"``) or ``sentence_gleu`` per segment, on ``tokenize`` tokens."""
    gleu = _nltk()
    tok = _tokenizer(tokenize)
    hyp_toks = [tok(h) for h in hyps]
    ref_toks = [[tok(r) for r in seg] for seg in segment_refs(refs, len(hyps))]
    if level == "sentence":
        return [gleu.sentence_gleu(r, h, min_len=min_len, max_len=max_len) for h, r in zip(hyp_toks, ref_toks)]
    return gleu.corpus_gleu(ref_toks, hyp_toks, min_len=min_len, max_len=max_len)


def _command(level: str, min_len: int, max_len: int, tokenize: str) -> str:
    tok = "str.split()" if tokenize == "split" else "sacrebleu Tokenizer13a()(text).split()"
    call = ("sentence_gleu(refs_i, hyp_i, min_len={a}, max_len={b}) per segment" if level == "sentence"
            else "corpus_gleu(list_of_references, hypotheses, min_len={a}, max_len={b})")
    return f"nltk.translate.gleu_score.{call.format(a=min_len, b=max_len)} on {tok} tokens"


def _versions(tokenize: str) -> dict[str, str]:
    import nltk
    out = {"nltk": nltk.__version__}
    if tokenize == "13a":
        import sacrebleu
        out["sacrebleu"] = sacrebleu.__version__
    return out


def make_case(case_id: str, note: str, profile: str, hyps: list[str], refs: list[list[str | None]],
              level: str = "corpus", min_len: int = 1, max_len: int = 4, tokenize: str = "split") -> dict[str, Any]:
    """One fixture case: NLTK's answer for ``hyps``/``refs`` under ``profile`` with the given orders."""
    knobs: dict[str, Any] = {}
    if min_len != 1:
        knobs["min_ngram_order"] = min_len
    if max_len != 4:
        knobs["max_ngram_order"] = max_len
    score = nltk_gleu(hyps, refs, level, min_len, max_len, tokenize)
    import nltk
    return {"id": case_id, "note": note, "profile": profile, "knobs": knobs, "level": level, "hyps": hyps,
            "refs": refs, "expected": [{"tool": "nltk", "version": nltk.__version__,
                                        "command": _command(level, min_len, max_len, tokenize),
                                        "score": score, "tolerance": dict(TOL)}]}


def bleu_inputs() -> list[tuple[str, list[str], list[list[str | None]]]]:
    """(source id, hyps, reference streams) of the chosen distinct string inputs of the BLEU fixtures."""
    seen: set[str] = set()
    out = []
    per_file: dict[str, int] = {}
    import json
    for doc, case in iter_cases("bleu"):
        if case.get("input") or any(not isinstance(h, str) for h in case["hyps"]):
            continue
        if any(r is not None and not isinstance(r, str) for s in case["refs"] for r in s):
            continue
        key = json.dumps([case["hyps"], case["refs"]], ensure_ascii=False)
        if key in seen:
            continue
        seen.add(key)
        family = doc["family"]
        k = per_file[family] = per_file.get(family, -1) + 1
        if family not in FULL_FILES and k % GENERATED_EVERY:
            continue
        out.append((f"{family}/{k:04d}", list(case["hyps"]), [list(s) for s in case["refs"]]))
    return out


def generated_cases() -> list[dict[str, Any]]:
    cases = []
    for n, (source, hyps, refs) in enumerate(bleu_inputs()):
        low, high = ORDERS[n % len(ORDERS)]
        note = f"input of the BLEU fixture case {source}; min_len={low}, max_len={high}"
        cases.append(make_case(f"nltk/{source}", note, "nltk", hyps, refs, "corpus", low, high))
        if n % SENTENCE_EVERY == 0:
            cases.append(make_case(f"nltk/{source}/sentence", note, "nltk", hyps, refs, "sentence", low, high))
    return cases


def hf13a_cases() -> list[dict[str, Any]]:
    cases = []
    for n, (source, hyps, refs) in enumerate(bleu_inputs()):
        if source.split("/")[0] not in ("nltk_research", "research_moses", "seeds", "bits"):
            continue
        note = f"input of the BLEU fixture case {source}; HF evaluate google_bleu's pipeline (13a tokens, NLTK)"
        cases.append(make_case(f"hf13a/{source}", note, "hf-evaluate", hyps, refs, "corpus", tokenize="13a"))
        if n % SENTENCE_EVERY == 0:
            cases.append(make_case(f"hf13a/{source}/sentence", note, "hf-evaluate", hyps, refs, "sentence",
                                   tokenize="13a"))
    return cases


#: (id, note, hyps, reference streams, (min_len, max_len)) of the hand-written edge cases
EDGE: tuple[tuple[str, str, list[str], list[list[str | None]], tuple[int, int]], ...] = (
    ("identical", "identical hypothesis and reference: 1", ["the cat sat on the mat"],
     [["the cat sat on the mat"]], (1, 4)),
    ("empty-hyp", "empty hypothesis: total = the reference's n-grams, no match", ["", "a b c"],
     [["a b c d", "a b c"]], (1, 4)),
    ("empty-ref", "empty reference: total = the hypothesis' n-grams", ["a b c", "a b"], [["", "a b"]], (1, 4)),
    ("empty-both", "empty hypothesis and reference: the reference has total 0 and is ignored", ["", "x y"],
     [["", "x y"]], (1, 4)),
    ("empty-corpus", "every segment empty on both sides: NLTK returns 0.0", ["", ""], [["", ""]], (1, 4)),
    ("missing-ref", "a missing reference (None) in the second stream", ["a b c d", "e f g"],
     [["a b c d", "e f x"], [None, "e f g"]], (1, 4)),
    ("multi-best", "several references: the one with the highest matches/total is kept", ["a b c d e"],
     [["a x"], ["a b c d"], ["a b c d e f g h"]], (1, 4)),
    ("tie-first", "equal ratios 1/2 and 2/4 (max_len 1): the first reference listed wins", ["a b", "z"],
     [["a q", "z"], ["a b c d", None]], (1, 1)),
    ("tie-second", "the same references in the other order: now 2/4 is kept", ["a b", "z"],
     [["a b c d", "z"], ["a q", None]], (1, 1)),
    ("tie-default-orders", "equal ratios at the default orders, both orders of the references",
     ["a b", "a b"], [["a b x y", "a q"], ["a q", "a b x y"]], (1, 4)),
    ("ref-empty-other", "an empty reference beside a real one", ["a"], [[""], ["a"]], (1, 4)),
    ("clipping", "repeated hypothesis n-grams clipped by the reference's counts", ["the the the the the the"],
     [["the cat is on the mat"]], (1, 4)),
    ("short", "orders longer than the segments", ["a", "a b"], [["a", "a b"]], (1, 6)),
    ("long-orders", "max_len beyond every segment length, min_len 3", ["a b c d e", "a b"],
     [["a b c d e", "a b"]], (3, 8)),
    ("unicode", "non-ASCII and punctuation attached to words (str.split keeps them)", ["Ça va, très bien !"],
     [["ça va très bien!"]], (1, 4)),
    ("case", "case matters (no lowercasing)", ["The Cat"], [["the cat"]], (1, 4)),
    ("whitespace", "tabs and repeated spaces (str.split)", ["a\tb  c"], [["a b c"]], (1, 4)),
)


def edge_cases() -> list[dict[str, Any]]:
    cases = []
    for name, note, hyps, refs, (low, high) in EDGE:
        for level in ("corpus", "sentence"):
            cases.append(make_case(f"edge/{name}/{level}", note, "nltk", hyps, refs, level, low, high))
        if low == 1 and high == 4:
            cases.append(make_case(f"edge/{name}/max3", note + "; max_len=3", "nltk", hyps, refs, "corpus", 1, 3))
    return cases


def sample_cases() -> list[dict[str, Any]]:
    from conformance.paths import FIXTURES
    folder = FIXTURES / "sample"

    def lines(name: str) -> list[str]:
        return (folder / name).read_text(encoding="utf-8").splitlines()
    hyps, ref1, ref2 = lines("hyp.txt"), lines("ref1.txt"), lines("ref2.txt")
    cases = []
    for profile, tok in (("nltk", "split"), ("hf-evaluate", "13a")):
        for name, refs in (("2refs", [ref1, ref2]), ("ref1", [ref1])):
            note = f"fixtures/sample/hyp.txt against {'ref1.txt and ref2.txt' if len(refs) == 2 else 'ref1.txt'}"
            cases.append(make_case(f"sample/{profile}/{name}", note, profile, hyps, refs, "corpus", tokenize=tok))
    return cases


def _generated_by(tokenize: str = "split") -> dict[str, Any]:
    return {"command": "PYTHONHASHSEED=0 python -m conformance.regen gleu", "python": platform.python_version(),
            "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""), "tools": _versions(tokenize),
            "provenance": "inputs: the BLEU fixtures' inputs and hand-written edge cases (conformance/regen/gleu.py); "
                          "expected values from running NLTK's gleu_score"}


def build_fixtures() -> list[dict[str, Any]]:
    return [
        {"metric": "gleu", "family": "nltk_generated", "cases": generated_cases(),
         "description": "NLTK corpus_gleu/sentence_gleu on str.split() tokens of the BLEU fixtures' inputs, "
                        "n-gram orders rotating (profile nltk).", "generated_by": _generated_by()},
        {"metric": "gleu", "family": "edge", "cases": edge_cases(),
         "description": "Hand-written GLEU edge cases (empty sides, missing and several references, ties, "
                        "clipping, long orders) under NLTK (profile nltk).", "generated_by": _generated_by()},
        {"metric": "gleu", "family": "sample", "cases": sample_cases(),
         "description": "The bundled sample (fixtures/sample) under NLTK on str.split() tokens (profile nltk) and "
                        "on sacrebleu 2.6.0 13a tokens (profile hf-evaluate).", "generated_by": _generated_by("13a")},
        {"metric": "gleu", "family": "hf13a", "cases": hf13a_cases(),
         "description": "HF evaluate google_bleu's pipeline: NLTK corpus_gleu on sacrebleu 2.6.0 13a tokens "
                        "(profile hf-evaluate).", "generated_by": _generated_by("13a")},
    ]


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen gleu: set PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    write_specs(build_fixtures())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
