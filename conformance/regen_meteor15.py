"""Build fixtures/meteor/meteor15.json from the live METEOR 1.5 jar (pycocoevalcap 1.2's meteor-1.5.jar).

Cases (sentence level: per-segment scores from the jar's ``EVAL``, components from its statistics
line: chunks and test/reference matched words per module; plus corpus-level cases whose expected
score is the jar's EVAL of all statistics): seed 004's three examples run on the jar, the research
cases M01-M11, and generated raw sentence pairs (:mod:`conformance.generate_meteor15`: inflections,
synonyms, paraphrasable phrases, function words, punctuation, repeated words; single and multiple
references).

Known divergences are not hidden: generated segments where assay's alignment differs from the jar's
(KD-METEOR-02, see test_meteor15_kd.py) are written to ``fixtures/meteor/kd/meteor15_kd.json`` with
the jar's values; test_meteor15_kd.py checks they still diverge only as documented. assay is used only
to classify, never for an expected value.

``PYTHONHASHSEED=0 python conformance/regen_meteor15.py``
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "impl"), str(ROOT)]

from conformance.references import meteor15_ref as ref  # noqa: E402

TOL = {"rel": 1e-12}       # KD-METEOR-01: the jar's doubles differ from assay's in the last bit at times
MODULES = ("exact", "stem", "synonym", "paraphrase")
KD_DIR = ROOT / "fixtures" / "meteor" / "kd"


def _components(stats_lines: list[str]) -> dict[str, list[Any]]:
    rows = [[float(x) for x in s.split()] for s in stats_lines]
    comp: dict[str, list[Any]] = {"chunks": [int(r[20]) for r in rows], "test_len": [int(r[0]) for r in rows],
                                  "ref_len": [int(r[1]) for r in rows]}
    for k, name in enumerate(MODULES):
        b = 4 + 4 * k
        comp[f"matches_{name}"] = [[int(r[b] + r[b + 2]), int(r[b + 1] + r[b + 3])] for r in rows]
    return comp


def jar_case(jar: ref.Meteor15, case_id: str, hyps: list[str], refs: list[list[str]], note: str,
             level: str = "sentence") -> dict[str, Any]:
    seg, corpus, stats = jar.score_corpus(hyps, refs)
    nref = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(nref)]
    exp: dict[str, Any] = {"tool": ref.TOOL, "version": ref.VERSION, "command": ref.COMMAND + (
        ": SCORE per segment, EVAL of its statistics" if level == "sentence" else ": SCORE per segment, one EVAL "
        "of all statistics (the last number)"), "tolerance": TOL}
    if level == "sentence":
        exp.update(score=seg, components=_components(stats))
    else:
        exp.update(score=corpus)
    return {"id": case_id, "note": note, "profile": "meteor-1.5", "knobs": {}, "level": level,
            "hyps": hyps, "refs": streams, "expected": [exp]}


def build_cases() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    from conformance.generate_meteor15 import generate
    from conformance.regen_meteor import RESEARCH_JSON
    good: list[dict[str, Any]] = []
    kd: list[dict[str, Any]] = []
    with ref.Meteor15() as jar:
        r6 = "the cat sat on the mat"
        good.append(jar_case(jar, "seed004/examples", ["on the mat sat the cat", "the cat was sat on the mat", r6],
                             [[r6]] * 3, "seed 004's three inputs (its breakdowns are NLTK-style; these are the jar's)"))
        items = [c for c in json.loads(RESEARCH_JSON.read_text(encoding="utf-8")) if c["id"].startswith("M")]
        for c in items:
            inp = c["input"]
            if "pairs" in inp:
                hyps, refs = [p[0] for p in inp["pairs"]], [[p[1]] for p in inp["pairs"]]
                good.append(jar_case(jar, f"research/{c['id']}/corpus", hyps, refs, c.get("why", ""), "corpus"))
            else:
                hyps, refs = [inp["hyp"]], [list(inp["refs"])]
            case = jar_case(jar, f"research/{c['id']}", hyps, refs, c.get("why", ""))
            (kd if _diverging(case) else good).append(case)
        for name, seed, count, nref in (("single", 15001, 320, 1), ("multi", 15002, 120, 3)):
            hyps, refs = generate(seed, count, nref)
            for k in range(0, count, 20):
                h, r = hyps[k:k + 20], refs[k:k + 20]
                case = jar_case(jar, f"generated/{name}/{k // 20:02d}", h, r,
                                f"generated raw pairs (seed {seed}), {nref} reference(s) max")
                bad = _diverging(case)
                if not bad:
                    good.append(case)
                    continue
                keep = [i for i in range(len(h)) if i not in bad]
                if keep:
                    good.append(jar_case(jar, case["id"], [h[i] for i in keep], [r[i] for i in keep], case["note"]))
                kd.append(jar_case(jar, case["id"] + "/KD-METEOR-02", [h[i] for i in bad], [r[i] for i in bad],
                                   "KD-METEOR-02: the jar's alignment keeps fewer/other non-exact matches"))
            case = jar_case(jar, f"generated/{name}/corpus", hyps, refs, "whole generated set", "corpus")
            import assay
            got = assay.score("meteor", hyps, case["refs"], profile="meteor-1.5").value
            (good if abs(got - case["expected"][0]["score"]) <= 1e-12 else kd).append(case)
    return good, kd


def _diverging(case: dict[str, Any]) -> set[int]:
    import assay
    exp = case["expected"][0]["score"]
    got = assay.sentence_scores("meteor", case["hyps"], case["refs"], profile="meteor-1.5")
    vals = [float(getattr(g, "value", g)) for g in got]
    return {i for i, (a, b) in enumerate(zip(vals, exp)) if abs(a - b) > TOL["rel"] * max(abs(b), 1e-300)}


def build_fixtures() -> list[dict[str, Any]]:
    good, kd = build_cases()
    KD_DIR.mkdir(parents=True, exist_ok=True)
    (KD_DIR / "meteor15_kd.json").write_text(json.dumps({"cases": kd}, indent=1, ensure_ascii=False) + "\n",
                                               encoding="utf-8")
    return [{"metric": "meteor", "family": "meteor15", "cases": good,
             "description": "METEOR 1.5 jar (pycocoevalcap 1.2) segment and corpus scores, chunks and matches "
                            "per module; KD-METEOR-02 segments live in kd/meteor15_kd.json",
             "generated_by": "conformance/regen_meteor15.py"}]


if __name__ == "__main__":
    from conformance.fixture_io import write_specs
    write_specs(build_fixtures())
