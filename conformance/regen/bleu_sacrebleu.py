"""Fixture builders for sacrebleu (2.x live in-process, 1.x through another interpreter).

Families written:
- ``bleu/research_sacrebleu``: the 36 research cases (shared/research/bleu_nist.md §7) under
  every sacrebleu configuration the research ran, corpus and sentence level;
- ``bleu/sacrebleu_generated``: generated corpora (conformance/generate/corpus.py) × rotating configs;
- ``bleu/sacrebleu1_generated``: the same kind of corpora scored by sacrebleu 1.5.1;
- ``bleu/seeds``: seed 003's sacrebleu README example and seed 002's d2l worked example.
The research cases' inputs are copied into the fixture (text written for the research).

    PYTHONHASHSEED=0 python -m conformance.regen sacrebleu [--legacy-python PATH]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from conformance.generate.corpus import generate_corpus
from conformance.paths import REPO_ROOT
from conformance.paths import RESEARCH as RESEARCH_DIR
from conformance.references import sacrebleu_ref

RESEARCH = RESEARCH_DIR / "bleu_golden.json"
TOL = {"rel": 1e-9, "abs": 1e-12}

RESEARCH_CONFIGS: dict[str, dict[str, Any]] = {
    "13a-exp": {}, "13a-none": {"smooth_method": "none"}, "13a-floor": {"smooth_method": "floor"},
    "13a-addk": {"smooth_method": "add-k"}, "13a-exp-eff": {"effective_order": True},
    "13a-exp-lc": {"lowercase": True}, "intl": {"tokenize": "intl"}, "zh": {"tokenize": "zh"},
    "char": {"tokenize": "char"}, "none": {"tokenize": "none"},
}
TOKENIZERS = ("13a", "intl", "zh", "char", "none")
SMOOTH = ("exp", "none", "floor", "add-k")


def _call_text(knobs: dict[str, Any], level: str) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in knobs.items())
    entry = "corpus_score(hyps, refs)" if level == "corpus" else "sentence_score(hyp, [refs of that segment]) per segment"
    return f"sacrebleu.metrics.BLEU({args}).{entry}"


def _expected(result: dict[str, Any], version: str, knobs: dict[str, Any], level: str) -> dict[str, Any]:
    if level == "corpus":
        comps = {k: result[k] for k in ("counts", "totals", "sys_len", "ref_len", "bp", "precisions")}
        return {"tool": "sacrebleu", "version": version, "command": _call_text(knobs, level),
                "score": result["score"], "components": comps, "text": result.get("text", result.get("text_error")),
                "tolerance": TOL}
    segs = result["segments"]
    return {"tool": "sacrebleu", "version": version, "command": _call_text(knobs, level),
            "score": [s["score"] for s in segs],
            "components": {"counts": [s["counts"] for s in segs], "totals": [s["totals"] for s in segs]},
            "tolerance": TOL}


def _case(cid: str, note: str, profile: str, knobs: dict[str, Any], level: str, hyps: list[str],
          refs: list[list[str]], expected: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "note": note, "profile": profile, "knobs": knobs, "level": level,
            "hyps": hyps, "refs": refs, "expected": [expected]}


def research_cases() -> list[dict[str, Any]]:
    cases = json.loads(RESEARCH.read_text(encoding="utf-8"))
    out = []
    version = sacrebleu_ref.version()
    for c in cases:
        for name, knobs in RESEARCH_CONFIGS.items():
            res = sacrebleu_ref.bleu(c["hyps"], c["refs"], knobs, "corpus")
            out.append(_case(f"research/{c['id']}/{name}", c["title"], "sacrebleu", knobs, "corpus",
                             c["hyps"], c["refs"], _expected(res, version, knobs, "corpus")))
        res = sacrebleu_ref.bleu(c["hyps"], c["refs"], {}, "sentence")
        out.append(_case(f"research/{c['id']}/sentence_bleu", c["title"], "sacrebleu", {}, "sentence",
                         c["hyps"], c["refs"], _expected(res, version, {}, "sentence")))
    return out


def generated_knobs(seed: int, legacy: bool = False) -> dict[str, Any]:
    """A deterministic rotation through tokenizers, smoothing, eff order, case and orders."""
    knobs: dict[str, Any] = {"tokenize": TOKENIZERS[seed % len(TOKENIZERS)],
                             "smooth_method": SMOOTH[(seed // 5) % len(SMOOTH)]}
    if seed % 3 == 0:
        knobs["effective_order"] = True
    if seed % 4 == 1:
        knobs["lowercase"] = True
    if knobs["smooth_method"] in ("floor", "add-k") and seed % 7 == 2:
        knobs["smooth_value"] = [0.01, 0.5, 2.0][seed % 3]
    if not legacy and seed % 6 == 5:
        knobs["max_ngram_order"] = 2 + seed % 5
    return knobs


def generated_cases(n: int = 240) -> list[dict[str, Any]]:
    version = sacrebleu_ref.version()
    out = []
    for seed in range(n):
        corpus = generate_corpus(seed)
        knobs = generated_knobs(seed)
        level = "sentence" if seed % 5 == 4 else "corpus"
        res = sacrebleu_ref.bleu(corpus["hyps"], corpus["refs"], knobs, level)
        out.append(_case(f"gen/{seed:04d}", "generated corpus (conformance/generate.py)", "sacrebleu", knobs,
                         level, corpus["hyps"], corpus["refs"], _expected(res, version, knobs, level)))
    return out


def legacy_cases(python: str, n: int = 240) -> list[dict[str, Any]]:
    """sacrebleu 1.x values, computed by ``python -m conformance.references.sacrebleu_ref``."""
    requests, meta = [], []
    for seed in range(n):
        corpus = generate_corpus(seed)
        knobs = generated_knobs(seed, legacy=True)
        level = "sentence" if seed % 5 == 4 else "corpus"
        if level == "sentence":
            knobs = {k: v for k, v in knobs.items() if k not in ("tokenize", "lowercase")}
        requests.append(json.dumps({"hyps": corpus["hyps"], "refs": corpus["refs"], "knobs": knobs, "level": level}))
        meta.append((seed, corpus, knobs, level))
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(REPO_ROOT))
    proc = subprocess.run([python, "-m", "conformance.references.sacrebleu_ref"], input="\n".join(requests) + "\n",
                          capture_output=True, text=True, env=env, check=True, timeout=600)
    out = []
    for (seed, corpus, knobs, level), line in zip(meta, proc.stdout.splitlines()):
        ans = json.loads(line)
        if "error" in ans:
            exp = {"tool": "sacrebleu", "version": ans["version"], "error": ans["error"].split(":")[0],
                   "message": ans["error"], "command": _call_text(knobs, level)}
        else:
            exp = _expected(ans["result"], ans["version"], knobs, level)
        exp["command"] = exp["command"].replace("sacrebleu.metrics.BLEU(", "sacrebleu 1.x corpus_bleu/sentence_bleu(")
        out.append(_case(f"gen1/{seed:04d}", "generated corpus scored by sacrebleu 1.x", "sacrebleu@1", knobs,
                         level, corpus["hyps"], corpus["refs"], exp))
    return out


def seed_cases() -> list[dict[str, Any]]:
    version = sacrebleu_ref.version()
    refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
            ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
    hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
    res = sacrebleu_ref.bleu(hyps, refs, {}, "corpus")
    out = [_case("seed003/sacrebleu-readme", "seed 003 quotes sacrebleu's README example (2 reference streams)",
                 "sacrebleu", {}, "corpus", hyps, refs, _expected(res, version, {}, "corpus"))]
    d2l = {1: 0.7322950476607851, 2: 0.6814773296495302, 3: 0.5940339360503315, 4: 0.0}
    for (k, value), profile in ((kv, p) for p in ("d2l", "d2l@2021") for kv in d2l.items()):
        out.append({"id": f"seed002/{profile}-k{k}",
                    "note": "seed 002's d2l worked example (printed by the pre-2022 code; the current d2l-en "
                            "code gives the same values, as the prediction has more than k tokens)",
                    "profile": profile, "knobs": {"max_ngram_order": k}, "level": "sentence",
                    "hyps": ["A B B C D"], "refs": [["A B C D E F"]],
                    "expected": [{"tool": "d2l bleu (seed 002 worked example)", "version": "seed-002",
                                  "command": f"bleu(label.split(), pred.split(), k={k}) as printed in the seed",
                                  "score": [value], "tolerance": {"rel": 1e-12, "abs": 1e-15}}]})
    return out


def build_fixtures(legacy_python: str | None = None) -> list[dict[str, Any]]:
    gen = {"command": "python conformance/regen.py", "python": sys.version.split()[0],
           "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""), "tools": {"sacrebleu": sacrebleu_ref.version()}}
    specs = [
        {"metric": "bleu", "family": "research_sacrebleu", "cases": research_cases(), "generated_by": gen,
         "description": "The 36 research cases (shared/research/bleu_nist.md §7) under sacrebleu 2.x configurations."},
        {"metric": "bleu", "family": "sacrebleu_generated", "cases": generated_cases(), "generated_by": gen,
         "description": "Generated corpora (mixed scripts, short/empty segments, 1-4 refs) x rotating sacrebleu knobs."},
        {"metric": "bleu", "family": "seeds", "cases": seed_cases(), "generated_by": gen,
         "description": "Worked examples from the seeds: sacrebleu README example (seed 003), d2l BLEU (seed 002)."},
    ]
    if legacy_python:
        ver = subprocess.run([legacy_python, "-c", "import sacrebleu; print(sacrebleu.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
        specs.append({"metric": "bleu", "family": "sacrebleu1_generated", "cases": legacy_cases(legacy_python),
                      "generated_by": {**gen, "tools": {"sacrebleu": ver}, "interpreter": legacy_python},
                      "description": "Generated corpora scored by sacrebleu 1.x (profile sacrebleu@1)."})
    return specs
