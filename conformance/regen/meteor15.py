"""Build fixtures/meteor/meteor15.json from the live METEOR 1.5 jar (pycocoevalcap 1.2's meteor-1.5.jar).

Cases (sentence level: per-segment scores from the jar's ``EVAL``, components from its statistics
line: chunks and test/reference matched words per module; plus corpus-level cases whose expected
score is the jar's EVAL of all statistics): seed 004's three examples run on the jar, the research
cases M01-M11, and generated raw sentence pairs (:mod:`conformance.generate.meteor15`: inflections,
synonyms, paraphrasable phrases, function words, punctuation, repeated words; single and multiple
references).

Beam cases: the threshold probes of the alignment search (``BEAM_PAIRS``) under several ``-x`` beam
sizes and ``-m`` module lists, with the matching ``beam``/``modules`` knobs. Every expected value is
the jar's; assay is never consulted.

``PYTHONHASHSEED=0 python -m conformance.regen meteor15``
"""
from __future__ import annotations

import json
from typing import Any

from conformance.references import meteor15_ref as ref

TOL = {"rel": 1e-12}       # KD-METEOR-01: the jar's doubles differ from assay's in the last bit at times
MODULES = ("exact", "stem", "synonym", "paraphrase")


def _components(stats_lines: list[str], modules: str = " ".join(MODULES)) -> dict[str, list[Any]]:
    """Chunks, lengths and matches per module; the jar's statistics hold the modules in ``-m`` order."""
    rows = [[float(x) for x in s.split()] for s in stats_lines]
    comp: dict[str, list[Any]] = {"chunks": [int(r[20]) for r in rows], "test_len": [int(r[0]) for r in rows],
                                  "ref_len": [int(r[1]) for r in rows]}
    for k, name in enumerate(modules.split()):
        b = 4 + 4 * k
        comp[f"matches_{name}"] = [[int(r[b] + r[b + 2]), int(r[b + 1] + r[b + 3])] for r in rows]
    return comp


def jar_case(jar: ref.Meteor15, case_id: str, hyps: list[str], refs: list[list[str]], note: str,
             level: str = "sentence", knobs: dict[str, Any] | None = None, args: str = "") -> dict[str, Any]:
    seg, corpus, stats = jar.score_corpus(hyps, refs)
    nref = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(nref)]
    exp: dict[str, Any] = {"tool": ref.TOOL, "version": ref.VERSION, "command": ref.COMMAND + args + (
        ": SCORE per segment, EVAL of its statistics" if level == "sentence" else ": SCORE per segment, one EVAL "
        "of all statistics (the last number)"), "tolerance": TOL}
    if level == "sentence":
        exp.update(score=seg, components=_components(stats, (knobs or {}).get("modules", " ".join(MODULES))))
    else:
        exp.update(score=corpus)
    return {"id": case_id, "note": note, "profile": "meteor-1.5", "knobs": knobs or {}, "level": level,
            "hyps": hyps, "refs": streams, "expected": [exp]}


# The alignment search's beam effects (a larger beam can drop single-word non-exact matches: the
# all-skip state pays no chunk), one jar per module list and beam size
BEAM_PAIRS = [("cars", "car"), ("cars", "car car"), ("cars", "car dog car"), ("cars cars", "car"),
              ("cars cars cars", "car"), ("cars cars", "car car"), ("cars cars cars", "car car"),
              ("cars cars cars", "car car car"), ("zebra", "zebra zebra"), ("zebra zebra", "zebra"),
              ("zebra x cars cars", "zebra y car car"), ("a cars", "a car"), ("a picture of", "a photo of"),
              ("a couple of", "two"), ("cars a b", "car car a b"), ("the cars are red", "the car is red"),
              ("rider drives", "riding"), ("cars are red", "car car is red")]
BEAM_RUNS = [("exact stem synonym paraphrase", (1, 2, 3, 4, 5, 8)), ("synonym", (1, 2, 3, 4, 6, 7)),
             ("exact synonym", (1, 3, 4)), ("paraphrase", (1, 2)), ("stem synonym", (2, 3))]


def beam_cases() -> list[dict[str, Any]]:
    out = []
    for mods, beams in BEAM_RUNS:
        for x in beams:
            with ref.Meteor15(("-l", "en", "-norm", "-x", str(x), "-m", mods)) as jar:
                out.append(jar_case(jar, f"beam/{mods.replace(' ', '+')}/x{x}", [h for h, _ in BEAM_PAIRS],
                                    [[r] for _, r in BEAM_PAIRS], f"alignment search with beam {x}, modules {mods}",
                                    knobs={"beam": x, "modules": mods}, args=f" -x {x} -m '{mods}'"))
    return out


def build_cases() -> list[dict[str, Any]]:
    from conformance.generate.meteor15 import generate
    from conformance.regen.meteor import RESEARCH_JSON
    cases: list[dict[str, Any]] = []
    with ref.Meteor15() as jar:
        r6 = "the cat sat on the mat"
        cases.append(jar_case(jar, "seed004/examples", ["on the mat sat the cat", "the cat was sat on the mat", r6],
                              [[r6]] * 3, "seed 004's three inputs (its breakdowns are NLTK-style; these are the jar's)"))
        items = [c for c in json.loads(RESEARCH_JSON.read_text(encoding="utf-8")) if c["id"].startswith("M")]
        for c in items:
            inp = c["input"]
            if "pairs" in inp:
                hyps, refs = [p[0] for p in inp["pairs"]], [[p[1]] for p in inp["pairs"]]
                cases.append(jar_case(jar, f"research/{c['id']}/corpus", hyps, refs, c.get("why", ""), "corpus"))
            else:
                hyps, refs = [inp["hyp"]], [list(inp["refs"])]
            cases.append(jar_case(jar, f"research/{c['id']}", hyps, refs, c.get("why", "")))
        for name, seed, count, nref in (("single", 15001, 320, 1), ("multi", 15002, 120, 3)):
            hyps, refs = generate(seed, count, nref)
            for k in range(0, count, 20):
                cases.append(jar_case(jar, f"generated/{name}/{k // 20:02d}", hyps[k:k + 20], refs[k:k + 20],
                                      f"generated raw pairs (seed {seed}), {nref} reference(s) max"))
            cases.append(jar_case(jar, f"generated/{name}/corpus", hyps, refs, "whole generated set", "corpus"))
    return cases + beam_cases()


def build_fixtures() -> list[dict[str, Any]]:
    return [{"metric": "meteor", "family": "meteor15", "cases": build_cases(),
             "description": "METEOR 1.5 jar (pycocoevalcap 1.2) segment and corpus scores, chunks and matches "
                            "per module, under several beam sizes and module lists",
             "generated_by": "conformance/regen_meteor15.py"}]


if __name__ == "__main__":
    import argparse
    from conformance.fixture_io import write_specs
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()   # --help only
    write_specs(build_fixtures())
