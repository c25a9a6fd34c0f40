"""Shapley attribution (assay.jobs.attribution): the algebra of the decomposition.

These tests check properties of the decomposition itself (efficiency, null players, symmetry,
grouping of invalid combinations), with scores from assay's own Evaluator; the scores are
checked against the reference tools elsewhere (test_golden.py and the *_refs tests).
"""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from assay.jobs.attribution import Attribution, attribute
from assay.core.errors import AssayError, KnobError
from assay.engine.evaluate import Evaluator
from assay.core.knobs import Config
from assay.engine.registry import get_family
from assay.profiles.registry import profiles_of
from conformance.generate.corpus import generate_corpus

METRICS = ("bleu", "chrf", "ter", "nist", "cider", "rouge")
# knobs whose values are paths or need external data; varying them tests nothing here
SKIP_KNOBS = {"exceptions_path", "stopwords_path", "idf_corpus", "wordnet", "tokenize", "tokenizer",
              "bootstrap_samples", "aggregate"}


def _sum_ok(a: Attribution) -> bool:
    tol = 1e-9 * max(1.0, abs(a.start), abs(a.end))
    return math.isclose(math.fsum(a.parts.values()), a.total, rel_tol=0, abs_tol=tol)


def _random_config(draw, metric: str) -> tuple[str, Config]:
    family = get_family(metric)
    prof = draw(st.sampled_from(profiles_of(metric)))
    values = {**family.knobset.defaults(), **prof.knobs}
    choice_knobs = [k for k in family.knobset.knobs if k.choices and k.name not in SKIP_KNOBS]
    for knob in draw(st.lists(st.sampled_from(choice_knobs), max_size=6, unique_by=lambda k: k.name)):
        values[knob.name] = draw(st.sampled_from(knob.choices))
    try:
        return prof.name, Config(metric, family.knobset, values)
    except KnobError:
        assume(False)
        raise


@st.composite
def _case(draw):
    metric = draw(st.sampled_from(METRICS))
    corpus = generate_corpus(draw(st.integers(0, 10_000)), max_segments=5, max_refs=2)
    pa, a = _random_config(draw, metric)
    pb, b = _random_config(draw, metric)
    return metric, corpus, (pa, a), (pb, b), draw(st.integers(1, 8))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(_case())
def test_parts_sum_to_the_difference(case) -> None:
    """Efficiency: the parts add up to end - start, for random knob sets and player limits; every
    differing knob is in exactly one part."""
    metric, corpus, (pa, a), (pb, b), max_players = case
    ev = Evaluator(metric, corpus["hyps"], corpus["refs"])
    try:
        ev.value(a), ev.value(b)
    except AssayError:
        assume(False)
    result = attribute(ev, a, b, max_players=max_players)
    assert result.start == ev.value(a) and result.end == ev.value(b)
    assert _sum_ok(result), (result.parts, result.total, result.notes)
    covered = [k for g in result.groups.values() for k in g]
    assert sorted(covered) == sorted(a.differs_from(b))
    non_scale = [p for p in result.parts if p != "scale"]
    assert (len(non_scale) <= max(max_players, 1) or any("not a pure rescaling" in n for n in result.notes)
            or result.method == "sampled")
    assert (result.method == "sampled") == bool(result.ci95) == any("ESTIMATES" in n for n in result.notes)
    assert all(math.isfinite(v) for v in result.parts.values())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                  HealthCheck.too_slow])
@given(_case())
def test_reversed_attribution_is_negated(case) -> None:
    """Swapping the two configurations negates every part (the reversed game v'(S) = v(N∖S))."""
    metric, corpus, (pa, a), (pb, b), max_players = case
    ev = Evaluator(metric, corpus["hyps"], corpus["refs"])
    try:
        ev.value(a), ev.value(b)
    except AssayError:
        assume(False)
    fwd = attribute(ev, a, b, max_players=8)
    back = attribute(ev, b, a, max_players=8)
    assume(len(fwd.parts) <= 8 and not any("change together" in n or "exceed" in n
                                           for n in fwd.notes + back.notes))
    assert set(fwd.parts) == set(back.parts)
    for name, part in fwd.parts.items():
        assert back.parts[name] == -part, (name, part, back.parts[name])



def _sample() -> tuple[list[str], list[list[str]]]:
    from pathlib import Path
    root = Path(__file__).resolve().parents[3] / "fixtures" / "sample"
    hyps = (root / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = [(root / f"ref{i}.txt").read_text(encoding="utf-8").splitlines() for i in (1, 2)]
    return hyps, refs


@pytest.mark.parametrize("metric", ["bleu", "nist", "chrf", "ter", "cider", "rouge"])
def test_identical_profiles_attribute_nothing(metric: str) -> None:
    hyps, refs = _sample()
    ev = Evaluator(metric, hyps, refs)
    for prof in profiles_of(metric):
        if prof.max_refs is not None and prof.max_refs < 2:
            continue
        config, _ = ev.config(prof.name)
        result = attribute(ev, config, config, prof.name, prof.name)
        assert result.parts == {} and result.total == 0.0 and result.start == result.end


def test_same_knobs_under_two_names_attribute_nothing() -> None:
    """mteval-v13a and v14 set the same BLEU knobs: no knob differs, no part."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("mteval-v13a")
    b, _ = ev.config("mteval-v14")
    result = attribute(ev, a, b, "mteval-v13a", "mteval-v14")
    assert result.parts == {} and result.total == 0.0


def test_one_knob_takes_the_whole_difference() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    b, _ = ev.config("sacrebleu", tokenize="intl")
    result = attribute(ev, a, b)
    assert list(result.parts) == ["tokenize"]
    assert result.parts["tokenize"] == ev.value(b) - ev.value(a) != 0.0


def test_two_knobs_match_the_hand_formula() -> None:
    """phi_a = ((v(a) - v()) + (v(ab) - v(b))) / 2, computed here from four direct evaluations."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    v0, _ = ev.config("sacrebleu")
    va, _ = ev.config("sacrebleu", tokenize="none")
    vb, _ = ev.config("sacrebleu", lowercase=True)
    vab, _ = ev.config("sacrebleu", tokenize="none", lowercase=True)
    result = attribute(ev, v0, vab)
    f = ev.value
    assert result.parts["tokenize"] == pytest.approx(((f(va) - f(v0)) + (f(vab) - f(vb))) / 2, abs=1e-12)
    assert result.parts["lowercase"] == pytest.approx(((f(vb) - f(v0)) + (f(vab) - f(va))) / 2, abs=1e-12)


def test_a_knob_without_effect_gets_exactly_zero() -> None:
    """lowercase_mode does nothing while lowercase is off: a null player."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    b, _ = ev.config("sacrebleu", tokenize="intl", lowercase_mode="ascii")
    result = attribute(ev, a, b)
    assert result.parts["lowercase_mode"] == 0.0
    assert result.parts["tokenize"] == ev.value(b) - ev.value(a)
    assert result.no_effect == ("lowercase_mode",)          # folded into one "no effect" line
    assert list(result.effective) == ["tokenize"] and result.as_dict()["no_effect"] == ["lowercase_mode"]


def test_invalid_combination_groups_knobs_and_says_so() -> None:
    """NIST: ref_length=chosen is invalid with multi_ref=union, so the two move as one player."""
    hyps, refs = _sample()
    ev = Evaluator("nist", hyps, refs)
    a, _ = ev.config("mteval-v13a")
    b, _ = ev.config("nltk")
    result = attribute(ev, a, b, "mteval-v13a", "nltk")
    assert "multi_ref+ref_length" in result.parts
    assert any("change together" in n and "KnobError" in n for n in result.notes)
    assert _sum_ok(result)


def test_scale_is_a_separate_part() -> None:
    """sacrebleu (0-100) -> NLTK (0-1): the other knobs are in points on the 0-100 scale and the
    part 'scale' is the rescaling of NLTK's score; without it, the parts add up to the difference
    of the two scores on the 0-100 scale."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    b, _ = ev.config("nltk")
    result = attribute(ev, a, b, "sacrebleu", "nltk")
    assert result.scale_on == 100.0
    assert result.parts["scale"] == pytest.approx(result.end - 100 * result.end, rel=1e-12)
    others = math.fsum(v for k, v in result.parts.items() if k != "scale")
    assert others == pytest.approx(100 * result.end - result.start, abs=1e-9)
    assert _sum_ok(result)
    on_from = attribute(ev, b, a, "nltk", "sacrebleu", scale_on="from")   # on NLTK's 0-1 scale
    assert on_from.scale_on == 1.0
    assert on_from.parts["tokenize"] == pytest.approx(-result.parts["tokenize"] / 100, rel=1e-9)


def test_player_limit_merges_and_stays_exact() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    b, _ = ev.config("nltk@3.5")
    result = attribute(ev, a, b, "sacrebleu", "nltk@3.5", max_players=3, merge="effect")
    assert len([p for p in result.parts if p != "scale"]) == 3
    assert any("exceed the limit of 3" in n for n in result.notes)
    assert _sum_ok(result)


def test_wrong_metric_and_endpoint_errors() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    c = Evaluator("chrf", hyps, refs).config("sacrebleu")[0]
    with pytest.raises(KnobError):
        attribute(ev, a, c)
    with pytest.raises(AssayError, match="at most 1 reference"):
        attribute(ev, a, ev.config("d2l")[0], "sacrebleu", "d2l")


def test_order_merge_groups_neighbours_without_evaluating() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu")
    b, _ = ev.config("nltk@3.5")
    result = attribute(ev, a, b, "sacrebleu", "nltk@3.5", max_players=4, merge="order")
    groups = [g for name, g in result.groups.items() if name != "scale"]
    assert len(groups) == 4
    order = [k for k in get_family("bleu").knobset.names if k in a.differs_from(b) and k != "scale"]
    assert [k for g in groups for k in g] == order        # consecutive in the family's order
    assert max(map(len, groups)) - min(map(len, groups)) <= 1
    assert result.evaluations == 1 << 4                   # only the 16 coalitions were scored
    assert _sum_ok(result)
    with pytest.raises(KnobError):
        attribute(ev, a, b, merge="nosuch")


def test_twelve_players_are_exact_and_reuse_statistics() -> None:
    """sacrebleu@1 -> nltk@3.5 BLEU differ in 13 knobs besides scale (score_arithmetic among them): with
    max_players=13 all 8,192 coalitions are scored,
    exactly, while only the distinct text/statistics-stage settings compute statistics (2^4 here)."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu@1")
    b, _ = ev.config("nltk@3.5")
    result = attribute(ev, a, b, "sacrebleu@1", "nltk@3.5", max_players=13)
    players = [p for p in result.parts if p != "scale"]
    assert len(players) == 13 and result.method == "exact" and result.ci95 == {}
    assert result.evaluations == 1 << 13
    stats_knobs = set(get_family("bleu").knobset.statistics_knobs()) & set(a.differs_from(b))
    assert ev.stats_computed <= 1 << len(stats_knobs) < result.evaluations
    assert _sum_ok(result)
    assert any("exact Shapley values over 13 player(s), 8192 coalitions" in n for n in result.notes)


def test_beyond_the_limit_a_sampled_estimate_with_intervals() -> None:
    """Above max_players every player stays and the parts are permutation-sampling estimates: they
    still add up, they say so, and the 95% intervals hold the exact values (all but a few players)."""
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    a, _ = ev.config("sacrebleu@1")
    b, _ = ev.config("nltk@3.5")
    exact = attribute(ev, a, b, "sacrebleu@1", "nltk@3.5", max_players=13)
    est = attribute(ev, a, b, "sacrebleu@1", "nltk@3.5", max_players=4, permutations=64, seed=3)
    assert est.method == "sampled" and est.permutations == 64 and set(est.parts) == set(exact.parts)
    assert any("permutation-sampling ESTIMATES" in n for n in est.notes)
    assert _sum_ok(est)
    missed = [n for n, half in est.ci95.items() if abs(est.parts[n] - exact.parts[n]) > half + 1e-12]
    assert len(missed) <= 2, missed                      # 95% intervals: about 1 in 20 may miss
    assert all(abs(est.parts[n] - exact.parts[n]) <= 3 * half + 1e-12 for n, half in est.ci95.items())
    again = attribute(ev, a, b, "sacrebleu@1", "nltk@3.5", max_players=4, permutations=64, seed=3)
    assert again.parts == est.parts                      # seeded: a report is reproducible
    doc = est.as_dict()
    assert doc["method"] == "sampled" and doc["ci95"] == est.ci95
    with pytest.raises(KnobError, match="permutations"):
        attribute(ev, a, b, max_players=4, permutations=1)
