"""Fixture builders for TER (sacrebleu 2.x live in-process, 1.5.1 through another interpreter).

    PYTHONHASHSEED=0 python -m conformance.regen ter [--legacy-python /tmp/legacyvenv/bin/python]

Families written (``fixtures/ter/``):
- ``sacrebleu_generated``: 240 corpora of ``conformance/generate/corpus.py`` (mixed/ascii/tokenised)
  under a rotation of the four switches (normalized, no_punct, asian_support, case_sensitive),
  corpus level and (every 5th) sentence level, scored by sacrebleu 2.x;
- ``sacrebleu_hard``: corpora of :func:`ter_corpus` (this module): long segments with block
  moves, unequal lengths (the beam), repetitive vocabularies (the 1000-candidate budget), CJK
  text for ``asian_support``, attached punctuation, entities and ``'s`` before tabs (sacrebleu
  2's second reference tokenisation), case variants; plus hand-written edge cases (empty
  hypothesis / reference, all-empty corpus, the research checks);
- ``sacrebleu1_generated``: the generated corpora and the edge cases scored by sacrebleu 1.5.1
  (``--legacy-python``; skipped when not given).
Every expected value is the tool's output: score, ``num_edits`` and ``ref_length``.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
from typing import Any

from conformance.generate.corpus import (ACCENTED, ATTACHED, CAPS, CJK_PUNCT, CORE, ENTITIES, KINDS,
                                         NUMBERS, PUNCT, UNI_PUNCT, generate_corpus)
from conformance.references import ter_ref

TOL = {"rel": 1e-9, "abs": 1e-12}
SWITCHES = ter_ref.SWITCHES
HARD_KINDS = ("blocks", "unbalanced", "repetitive", "cjk", "punct", "case")
CJK_TEXT = ["我爱北京天安门", "私は学生です", "中文字符", "东京", "学生们", "天气很好", "汉字", "カタカナ", "ひらがな",
            "한국어", "（注）", "「引用」", "『书名』", "１２３", "ＡＢＣ"]


# ----------------------------------------------------------------------------- generators
def generated_knobs(seed: int) -> dict[str, bool]:
    """Rotate through all 16 switch combinations (only the switches that are on are listed)."""
    bits = seed % 16
    return {name: True for k, name in enumerate(SWITCHES) if bits >> k & 1}


def _words(rng: random.Random, kind: str) -> list[str]:
    """A per-corpus vocabulary from the project's word lists (small for ``repetitive``)."""
    if kind == "repetitive":
        return rng.sample(CORE, rng.choice([2, 3, 4]))
    if kind == "cjk":
        return CJK_TEXT + CJK_PUNCT + CORE[:8] + ["、", "。", "！", "？"]
    if kind == "punct":
        return CORE + ATTACHED + PUNCT + ENTITIES + NUMBERS + ["it's", "John's", "x's.", "'s", "a\t's"]
    if kind == "case":
        return CORE + CAPS + ACCENTED + [w.upper() for w in CORE[:10]]
    return CORE + CAPS + NUMBERS[:5] + PUNCT[:6] + UNI_PUNCT[:3]


def _move_blocks(rng: random.Random, toks: list[str], moves: int, max_len: int) -> list[str]:
    out = list(toks)
    for _ in range(moves):
        if len(out) < 3:
            break
        a = rng.randrange(len(out))
        size = rng.randint(1, min(max_len, len(out) - a))
        block = out[a:a + size]
        del out[a:a + size]
        b = rng.randrange(len(out) + 1)
        out[b:b] = block
    return out


def _noise(rng: random.Random, toks: list[str], rate: float, vocab: list[str]) -> list[str]:
    out: list[str] = []
    for tok in toks:
        r = rng.random()
        if r >= rate:
            out.append(tok)
        elif r < rate / 3:
            out.append(rng.choice(vocab))
        elif r < 2 * rate / 3:
            out += [tok, rng.choice(vocab)]
        # else: dropped
    return out


def _segment(rng: random.Random, kind: str, vocab: list[str]) -> tuple[list[str], list[list[str]]]:
    if kind == "repetitive":
        n = rng.randint(25, 70)
    elif kind in ("blocks", "unbalanced"):
        n = rng.randint(20, 110)
    else:
        n = rng.randint(1, 30)
    ref = [rng.choice(vocab) for _ in range(n)]
    if kind == "unbalanced":
        style = rng.randrange(4)
        if style == 0:     # a junk prefix pushes the alignment off the length-ratio diagonal
            hyp = [rng.choice(vocab) for _ in range(rng.randint(20, 50))] + ref[:rng.randint(1, n)]
        elif style == 1:   # rotation
            cut = rng.randrange(n)
            hyp = ref[cut:] + ref[:cut]
        elif style == 2:   # a few words of a long reference
            hyp = ref[rng.randrange(n):][:rng.randint(0, 6)]
        else:              # a long hypothesis for a short reference
            hyp, ref = ref, ref[rng.randrange(n):][:rng.randint(1, 10)]
    else:
        hyp = _move_blocks(rng, ref, rng.randint(1, 6), rng.choice([3, 10, 14]))
        hyp = _noise(rng, hyp, rng.choice([0.0, 0.1, 0.3, 0.5]), vocab)
    if kind == "case":
        hyp = [rng.choice([t.lower(), t.upper(), t.capitalize(), t]) for t in hyp]
    refs = [ref] + [_noise(rng, _move_blocks(rng, ref, 1, 5), 0.2, vocab) for _ in range(rng.randint(0, 2))]
    return hyp, refs


def _render(rng: random.Random, toks: list[str], kind: str) -> str:
    if kind == "cjk" and rng.random() < 0.6:
        return "".join(toks)                 # no spaces: only asian_support splits it
    seps = [" "] * 12 + ["  ", "\t"] if kind == "punct" else [" "]
    return "".join(t + rng.choice(seps) for t in toks).rstrip(" ")


def ter_corpus(seed: int, kind: str, max_segments: int = 4) -> dict[str, list]:
    """``{"hyps": [...], "refs": [stream, ...]}`` of one hard kind (deterministic per seed)."""
    if kind not in HARD_KINDS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(HARD_KINDS)}")
    rng = random.Random(f"ter-{kind}-{seed}")
    vocab = _words(rng, kind)
    segs = [_segment(rng, kind, vocab) for _ in range(rng.randint(1, max_segments))]
    n_refs = max(len(r) for _, r in segs)
    hyps = [_render(rng, h, kind) for h, _ in segs]
    refs = [[_render(rng, r[k % len(r)], kind) for _, r in segs] for k in range(n_refs)]
    return {"hyps": hyps, "refs": refs}


EDGE_CASES: list[tuple[str, str, list[str], list[list[str]], dict[str, bool]]] = [
    ("research-shift", "one 5-word block move: 1 edit (12.50)", ["d e f g h a b c"], [["a b c d e f g h"]], {}),
    ("research-case", "lowercased by default: 3 edits / 6 (50.00)", ["The Cat sat"], [["the cat sat on the mat"]], {}),
    ("research-case-sensitive", "case_sensitive: 5 edits / 6 (83.33)", ["The Cat sat"], [["the cat sat on the mat"]],
     {"case_sensitive": True}),
    ("empty-hyp", "empty hypothesis: every reference word is an edit", ["", "a b"], [["a b c", "a b"]], {}),
    ("empty-ref", "empty reference: every hypothesis word is an edit, length 0", ["a b", "x"], [["", "x"]], {}),
    ("all-empty", "nothing anywhere: 0 edits over length 0", ["", ""], [["", ""]], {}),
    ("edits-zero-length", "edits but total reference length 0", ["a b", "c"], [["", ""]], {}),
    ("multi-ref-average", "fewest edits, average length", ["a b", "c"], [["a x", "d e"], ["y", ""]], {}),
    ("retokenize-tab", "'s before a tab: sacrebleu 2 tokenises references twice", ["it 's we", "it's\twe"],
     [["it's\twe", "it 's we"]], {"normalized": True}),
    ("retokenize-dot", "x's. splits 's only on the second pass", ["x 's .", "x's ."], [["x's.", "x's."]],
     {"normalized": True}),
    ("wide-beam", "1 word vs 101: the beam widens to ceil(101/2 + 25) = 76 and cuts the last row on the left",
     ["w17", "w3 w90"], [[" ".join(f"w{i}" for i in range(101)), " ".join(f"w{i}" for i in range(120))]], {}),
    ("whitespace", "Unicode spaces and U+001C split tokens", ["a\u3000b\x1cc d"], [["a b\u00a0c\td"]], {}),
    ("entities", "entities unescaped only when normalising", ["&quot;hi&quot; &amp; &lt;b&gt;"],
     [['"hi" & <b>']], {"normalized": True}),
]


# ----------------------------------------------------------------------------- expected values
def _command(knobs: dict[str, Any], level: str, legacy: bool) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in knobs.items())
    if legacy:
        entry = "corpus_ter(hyps, refs" if level == "corpus" else "sentence_ter(hyp, [refs of that segment]"
        return f"sacrebleu.{entry}{', ' + args if args else ''}) (sacrebleu 1.x)"
    entry = "corpus_score(hyps, refs)" if level == "corpus" else "sentence_score(hyp, [refs of that segment]) per segment"
    return f"sacrebleu.metrics.TER({args}).{entry}"


def _expected(answer: dict[str, Any], knobs: dict[str, Any], level: str, legacy: bool) -> dict[str, Any]:
    version = answer["version"]
    if "error" in answer:
        return {"tool": "sacrebleu", "version": version, "error": answer["error"].split(":")[0],
                "message": answer["error"], "command": _command(knobs, level, legacy)}
    res = answer["result"]
    if level == "corpus":
        score: Any = res["score"]
        comps: dict[str, Any] = {"num_edits": res["num_edits"], "ref_length": res["ref_length"]}
    else:
        segs = res["segments"]
        score = [s["score"] for s in segs]
        comps = {"num_edits": [s["num_edits"] for s in segs], "ref_length": [s["ref_length"] for s in segs]}
    return {"tool": "sacrebleu", "version": version, "command": _command(knobs, level, legacy), "score": score,
            "components": comps, "tolerance": TOL}


def _ask(requests: list[dict[str, Any]], legacy_python: str | None) -> list[dict[str, Any]]:
    if legacy_python:
        return ter_ref.run_other(legacy_python, requests)
    version = ter_ref.version()
    out = []
    for r in requests:
        try:
            out.append({"result": ter_ref.ter(r["hyps"], r["refs"], r["knobs"], r["level"]), "version": version})
        except Exception as exc:  # the tool's own failure is data
            out.append({"error": f"{type(exc).__name__}: {exc}", "version": version})
    return out


def _cases(items: list[tuple[str, str, dict[str, Any], str, list[str], list[list[str]]]], profile: str,
           legacy_python: str | None) -> list[dict[str, Any]]:
    """items: (id, note, knobs, level, hyps, refs) -> fixture cases with the tool's answers."""
    requests = [{"hyps": h, "refs": r, "knobs": k, "level": lv} for _, _, k, lv, h, r in items]
    answers = _ask(requests, legacy_python)
    return [{"id": cid, "note": note, "profile": profile, "knobs": knobs, "level": level, "hyps": hyps,
             "refs": refs, "expected": [_expected(ans, knobs, level, legacy_python is not None)]}
            for (cid, note, knobs, level, hyps, refs), ans in zip(items, answers)]


def generated_items(n: int = 240) -> list[tuple[str, str, dict[str, Any], str, list[str], list[list[str]]]]:
    items = []
    for seed in range(n):
        corpus = generate_corpus(seed, max_segments=6, max_refs=3, kind=KINDS[seed % len(KINDS)])
        level = "sentence" if seed % 5 == 4 else "corpus"
        items.append((f"gen/{seed:04d}", f"generate_corpus(seed={seed}, kind={KINDS[seed % len(KINDS)]!r})",
                      generated_knobs(seed * 7 + 3), level, corpus["hyps"], corpus["refs"]))
    return items


def hard_items(per_kind: int = 12) -> list[tuple[str, str, dict[str, Any], str, list[str], list[list[str]]]]:
    items = []
    for kind in HARD_KINDS:
        for seed in range(per_kind):
            corpus = ter_corpus(seed, kind, max_segments=2 if kind in ("repetitive", "unbalanced", "blocks") else 4)
            knobs = generated_knobs(seed * 5 + HARD_KINDS.index(kind))
            if kind == "cjk":
                knobs = dict(knobs, asian_support=True)
            level = "sentence" if seed % 4 == 3 else "corpus"
            items.append((f"hard/{kind}/{seed:03d}", f"ter_corpus(seed={seed}, kind={kind!r})", knobs, level,
                          corpus["hyps"], corpus["refs"]))
    return items


def edge_items() -> list[tuple[str, str, dict[str, Any], str, list[str], list[list[str]]]]:
    items = []
    for cid, note, hyps, refs, knobs in EDGE_CASES:
        for level in ("corpus", "sentence"):
            items.append((f"edge/{cid}/{level}", note, knobs, level, hyps, refs))
    return items


def _generated_by(tool_version: str) -> dict[str, Any]:
    return {"command": "PYTHONHASHSEED=0 python conformance/regen_ter.py", "python": platform.python_version(),
            "PYTHONHASHSEED": "0", "tools": {"sacrebleu": tool_version},
            "provenance": "inputs from conformance/generate.py and conformance/regen_ter.py (project-written word "
                          "lists); expected values from running sacrebleu"}


def build_fixtures(legacy_python: str | None = None) -> list[dict[str, Any]]:
    """Fixture-file specs for fixtures/ter/*.json (1.5.1 family only when ``legacy_python`` is given)."""
    version = ter_ref.version()
    specs = [
        {"metric": "ter", "family": "sacrebleu_generated", "cases": _cases(generated_items(), "sacrebleu", None),
         "description": "generated corpora x rotating switches, corpus and sentence TER from sacrebleu 2.x",
         "generated_by": _generated_by(version)},
        {"metric": "ter", "family": "sacrebleu_hard", "cases": _cases(hard_items() + edge_items(), "sacrebleu", None),
         "description": "long block moves, beam and candidate-budget cases, CJK, punctuation, case, edge cases "
                        "(sacrebleu 2.x)", "generated_by": _generated_by(version)},
    ]
    if legacy_python:
        legacy_cases = _cases(generated_items(200) + edge_items(), "sacrebleu@1", legacy_python)
        for case in legacy_cases:
            case["id"] = "v1/" + case["id"]
        old = legacy_cases[0]["expected"][0]["version"]
        specs.append({"metric": "ter", "family": "sacrebleu1_generated", "cases": legacy_cases,
                      "description": "generated corpora and edge cases scored by sacrebleu 1.x (0-1 scale)",
                      "generated_by": dict(_generated_by(old), command="PYTHONHASHSEED=0 python "
                                           "conformance/regen_ter.py --legacy-python <python with sacrebleu 1.5.1>")})
    return specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--legacy-python", help="interpreter with sacrebleu 1.5.1 (e.g. /tmp/legacyvenv/bin/python)")
    args = parser.parse_args(argv)
    from conformance.fixture_io import write_specs
    write_specs(build_fixtures(args.legacy_python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
