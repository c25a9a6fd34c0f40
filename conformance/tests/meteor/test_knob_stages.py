"""Knob stages and domains of meteor, cider and the coco composite.

The Evaluator keys its statistics cache on the knobs declared ``text`` or ``statistics``
(:meth:`assay.core.knobs.KnobSet.statistics_knobs`), so a knob that ``segment_stats`` reads must
never be declared ``score``: :class:`assay.engine.evaluate.ReadTrackingConfig` records what it reads.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import assay
from assay.core.errors import MissingDependencyError
from assay.engine.api import make_config
from assay.engine.evaluate import ReadTrackingConfig
from assay.engine.registry import get_family
from assay.profiles.registry import profiles_of
from conformance.references.availability import missing

HYPS = ["The cat sat on the mat.", "Two dogs are running quickly in a park", "a man rides a horse"]
REFS = [["A cat was sitting on the mat.", "Two dogs run fast in the park", "a person riding a horse"],
        ["the cat sits on a mat", None, "a man is on a horse"]]

CONFIGS: list[tuple[str, str, dict[str, Any]]] = [
    ("cider", "coco", {}),
    ("cider", "coco", {"tokenize": "ptb", "lowercase": True}),
    ("cider", "vedantam2015", {"max_ngram_order": 2}),
    ("cider", "vrama91", {"length_unit": "words", "length_penalty_sigma": 3.0, "scale": 1.0}),
    ("meteor", "nltk", {}),
    ("meteor", "nltk", {"synonyms": False, "lowercase": False}),
    ("meteor", "nltk@3.6", {"alpha": 0.5, "beta": 2.0, "gamma": 0.3}),
    ("meteor", "meteor-1.5", {}),
    ("meteor", "meteor-1.5", {"norm": False, "beam": 3, "modules": "exact synonym", "weights": "1 0.5"}),
]


def _stats_reads(metric: str, profile: str, knobs: dict[str, Any]) -> set[str]:
    config = ReadTrackingConfig(make_config(metric, profile, **knobs)[0])
    try:
        get_family(metric).segment_stats(HYPS, REFS, config)
    except MissingDependencyError as exc:   # WordNet or the METEOR 1.5 jar's resources
        missing(str(exc))
    return config.read


@pytest.mark.parametrize("metric,profile,knobs", CONFIGS,
                         ids=[f"{m}/{p}-{i}" for i, (m, p, _) in enumerate(CONFIGS)])
def test_knobs_read_by_segment_stats_are_text_or_statistics_stage(metric: str, profile: str,
                                                                  knobs: dict[str, Any]) -> None:
    knobset = get_family(metric).knobset
    read = _stats_reads(metric, profile, knobs)
    assert read, "segment_stats read no knob at all"
    wrong = {name: knobset[name].stage for name in read if knobset[name].stage not in ("text", "statistics")}
    assert not wrong, f"{metric}: knobs read by segment_stats but declared {wrong}"


def test_coco_composite_reads_only_text_or_statistics_knobs() -> None:
    read = _stats_reads("coco", "pretokenized", {"meteor": "off"})
    knobset = get_family("coco").knobset
    assert {name: knobset[name].stage for name in read if knobset[name].stage == "score"} == {}


@pytest.mark.parametrize("metric", ["cider", "meteor", "coco"])
def test_every_knob_declares_stage_and_domain(metric: str) -> None:
    for knob in get_family(metric).knobset.knobs:
        assert knob.stage in ("text", "statistics", "score"), knob.name
        assert knob.domain is not None, knob.name


@pytest.mark.parametrize("metric", ["cider", "meteor", "coco"])
def test_profiles_and_defaults_lie_in_the_domains(metric: str) -> None:
    knobset = get_family(metric).knobset
    for profile in profiles_of(metric):
        values = {**knobset.defaults(), **profile.knobs, **profile.sentence_knobs}
        for name, value in values.items():
            knobset[name].domain.check(value)       # raises ValueError when outside
        assert profile.command, f"{profile.full_name} names no command"


@pytest.mark.parametrize("knobs,message", [
    ({"beta": -1}, "beta must be a finite number >= 0"),
    ({"alpha": 1.5}, "alpha must be a finite number >= 0 and <= 1"),
    ({"gamma": 2}, "gamma must be a finite number >= 0 and <= 1"),
    ({"delta": -0.1}, "delta must be a finite number >= 0 and <= 1"),
    ({"gamma": "nan"}, "gamma"),
    ({"beam": 10 ** 6}, "beam must be an integer >= 1 and <= 1000"),
    ({"beam": 0}, "beam must be an integer >= 1"),
    ({"modules": "exact typo"}, "unknown module"),
    ({"modules": ""}, "modules must be"),
    ({"weights": "1 x"}, "weights must be"),
    ({"weights": "1 2 1 1"}, "weights must be"),
    ({"weights": "1"}, "4 modules need 4 weights"),
    ({"wordnet": "/no/such/dir"}, "wordnet must be none or a readable directory"),
    ({"resources_path": "/no/such/dir"}, "resources_path must be none or a readable directory"),
    ({"language": "de"}, "language must be one of en"),
])
def test_meteor_knob_domains(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(assay.KnobError, match=message):
        make_config("meteor", "meteor-1.5", **knobs)


def test_meteor_beta_zero_and_gamma_one_are_accepted() -> None:
    """The range ends stay valid: β = 0 (constant penalty γ) and γ = 1 (penalty up to the whole Fmean)."""
    make_config("meteor", "nltk", beta=0, gamma=1)


def test_meteor15_sentence_scores_equal_the_rows_scores() -> None:
    """One scorer: a segment's EVAL (the scorer on its own row) is the jar's SCORE kept in the row."""
    try:
        stats, config, _, _ = assay.compute_stats("meteor", HYPS, REFS, "meteor-1.5", level="sentence")
    except MissingDependencyError as exc:
        missing(str(exc))
    family = get_family("meteor")
    values = family.sentence_stats_scores(stats, config).values.tolist()
    assert values == stats.col("score").tolist()
    assert family.score_stats(stats.row(1), config)[0] == stats.col("score")[1]
    total = family.scores_from_sums(stats.rows.sum(axis=0)[None, :], config)[0]
    assert family.score_stats(stats, config)[0] == total


def test_meteor_nltk_corpus_is_the_mean_through_the_scorer() -> None:
    stats, config, _, _ = assay.compute_stats("meteor", HYPS, REFS, "nltk", level="sentence", synonyms=False)
    family = get_family("meteor")
    assert family.sentence_stats_scores(stats, config).values.tolist() == stats.col("score").tolist()
    assert family.score_stats(stats, config)[0] == pytest.approx(float(np.mean(stats.col("score"))), rel=1e-15)
