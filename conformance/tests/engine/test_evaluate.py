"""The Evaluator's statistics cache is exact: every configuration scores as a fresh api.score does.

Expected values here are assay's own uncached path (this tests a cache, not a metric); the
metric values themselves are checked against the tools by test_golden.py and the refs tests.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings, strategies as st

from assay.engine import api
from assay.core.errors import AssayError
from assay.engine.evaluate import Evaluator
from assay.engine.registry import get_family
from assay.profiles.registry import profiles_of
from conformance.generate.corpus import generate_corpus

METRICS = ("bleu", "nist", "chrf", "ter", "rouge", "cider")


def _variants(metric: str):
    """Every profile, and every profile with one choice-knob moved to each of its other choices."""
    knobset = get_family(metric).knobset
    for prof in profiles_of(metric):
        yield prof.name, {}
        for knob in knobset.knobs:
            for choice in knob.choices or ():
                if choice != prof.knobs.get(knob.name, knob.default) and not isinstance(choice, bool) \
                        or (isinstance(choice, bool) and choice != prof.knobs.get(knob.name, knob.default)):
                    yield prof.name, {knob.name: choice}


def _fresh(metric: str, hyps, refs, profile, knobs):
    try:
        return api.score(metric, hyps, refs, profile, **knobs).value
    except AssayError as exc:
        return type(exc).__name__


def _cached(ev: Evaluator, profile, knobs):
    try:
        config, prof = ev.config(profile, **knobs)
        return ev.score(config, prof).value
    except AssayError as exc:
        return type(exc).__name__


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    return a == b


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_cached_scores_equal_fresh_scores(metric: str, seed: int) -> None:
    corpus = generate_corpus(seed, max_segments=5, max_refs=2)
    hyps, refs = corpus["hyps"], corpus["refs"]
    ev = Evaluator(metric, hyps, refs)
    variants = list(_variants(metric))
    for profile, knobs in variants:
        assert _same(_cached(ev, profile, knobs), _fresh(metric, hyps, refs, profile, knobs)), (profile, knobs)
    assert ev.stats_computed <= len(variants)


def test_score_only_knobs_reuse_statistics() -> None:
    corpus = generate_corpus(7, max_segments=6, max_refs=2)
    ev = Evaluator("bleu", corpus["hyps"], corpus["refs"])
    for effective in (False, True):
        for scale in (1, 100):
            config, prof = ev.config("sacrebleu", effective_order=effective, scale=scale)
            ev.score(config, prof)
    assert ev.stats_computed == 1
    config, prof = ev.config("sacrebleu", tokenize="intl")
    ev.score(config, prof)
    assert ev.stats_computed == 2
