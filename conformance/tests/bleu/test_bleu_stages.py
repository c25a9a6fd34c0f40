"""BLEU's knob stages and domains, and its one scorer.

- Every knob declares a stage and a domain; ``segment_stats`` reads only text- and
  statistics-stage knobs (so the Evaluator may share statistics across score-stage knobs).
- The smoothing methods of sacrebleu (and NLTK's, methods 5/7 included) share one statistics pass.
- One scorer: a corpus score, the sentence score of a segment, and ``scores_from_sums`` of the
  same rows are the same bits.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import assay
from assay.core.errors import KnobError
from assay.core.stats import SegmentStats
from assay.engine.api import compute_stats, make_config
from assay.engine.evaluate import Evaluator, ReadTrackingConfig
from assay.engine.registry import get_family
from conformance.generate.corpus import generate_corpus

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample"


def _sample() -> tuple[list[str], list[list[str]]]:
    hyps = (SAMPLE / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = [(SAMPLE / f"ref{i}.txt").read_text(encoding="utf-8").splitlines() for i in (1, 2)]
    return hyps, refs


@pytest.mark.parametrize("metric", ["bleu", "nist"])
def test_every_knob_declares_stage_and_domain(metric: str) -> None:
    for knob in get_family(metric).knobset.knobs:
        assert knob.stage in ("text", "statistics", "score", "resample"), knob.name
        assert knob.domain is not None, knob.name
        knob.domain.check(knob.default)


@pytest.mark.parametrize("metric,profile,knobs", [
    ("bleu", "sacrebleu", {}), ("bleu", "sacrebleu@1", {}), ("bleu", "nltk", {"smoothing": "method5"}),
    ("bleu", "nltk@3.5", {"smoothing": "method7", "auto_reweigh": True}), ("bleu", "multi-bleu-detok", {}),
    ("bleu", "mteval-v13a", {}), ("bleu", "d2l", {}), ("bleu", "coco", {}),
    ("nist", "mteval-v13a", {}), ("nist", "nltk", {}),
])
def test_statistics_read_no_score_stage_knob(metric: str, profile: str, knobs: dict) -> None:
    hyps, refs = _sample()
    refs = refs[:1] if profile == "d2l" else refs
    config, _ = make_config(metric, profile, "corpus", **knobs)
    tracked = ReadTrackingConfig(config)
    get_family(metric).segment_stats(hyps, refs, tracked)
    knobset = get_family(metric).knobset
    score_stage = {name for name in tracked.read if name in knobset and knobset[name].stage in ("score", "resample")}
    assert not score_stage


def test_sacrebleu_smoothing_methods_share_statistics() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    for method in ("none", "floor", "add-k", "exp"):
        config, profile = ev.config("sacrebleu", smooth_method=method)
        got = ev.score(config, profile)
        want = assay.score("bleu", hyps, refs, "sacrebleu", smooth_method=method)
        assert (got.value, got.text) == (want.value, want.text)
    assert ev.stats_computed == 1


def test_nltk_smoothing_methods_share_statistics() -> None:
    hyps, refs = _sample()
    ev = Evaluator("bleu", hyps, refs)
    for k in range(8):
        config, _ = ev.config("nltk", smoothing=f"method{k}")
        assert ev.value(config) == assay.score("bleu", hyps, refs, "nltk", smoothing=f"method{k}").value
    assert ev.stats_computed == 1


@pytest.mark.parametrize("profile,knobs", [
    ("sacrebleu", {}), ("sacrebleu", {"smooth_method": "floor"}), ("sacrebleu", {"smooth_method": "add-k"}),
    ("sacrebleu", {"smooth_method": "none", "effective_order": True}), ("sacrebleu@1", {}), ("nltk", {}),
    ("nltk", {"smoothing": "method4"}), ("nltk", {"weights": "1;0.5,0.5;0.25,0.25,0.25,0.25"}),
    ("nltk", {"auto_reweigh": True}), ("nltk@3.5", {"smoothing": "method2"}), ("multi-bleu", {}),
    ("mteval-v13a", {}), ("d2l", {}), ("coco", {}),
])
def test_one_scorer_for_corpus_sentence_and_sums(profile: str, knobs: dict) -> None:
    """Sentence scores, single-segment corpus scores and the sums of single rows agree bit for bit."""
    fam = get_family("bleu")
    for seed in range(8):
        c = generate_corpus(seed, max_segments=8, max_refs=1 if profile == "d2l" else 3, kind="ascii")
        stats, config, *_ = compute_stats("bleu", c["hyps"], c["refs"], profile, **knobs)
        sentence = fam.sentence_stats_scores(stats, config).values.tolist()
        alone = [fam.score_stats(SegmentStats(stats.columns, stats.rows[i:i + 1]), config)[0]
                 for i in range(len(stats))]
        assert sentence == alone
        assert fam.scores_from_sums(stats.rows, config).tolist() == alone
        corpus = fam.score_stats(stats, config)[0]
        assert fam.scores_from_sums(stats.rows.sum(axis=0)[None, :], config).tolist() == [corpus]


def test_resample_arithmetic_applies_to_float32_sums() -> None:
    """float32 sums are scored with sacrebleu 2.x's float32 arithmetic under ``resample_arithmetic=float32``
    (the sacrebleu profile's setting) and exactly under ``float64``; float64 sums are always exact."""
    fam = get_family("bleu")
    hyps, refs = _sample()
    stats, config, *_ = compute_stats("bleu", hyps, refs, "sacrebleu")
    assert config.resample_arithmetic == "float32"
    exact, _ = make_config("bleu", "sacrebleu", "corpus", resample_arithmetic="float64")
    idx = np.random.default_rng(3).integers(0, len(stats), size=(40, len(stats)))
    sums64 = np.stack([stats.rows[i].sum(axis=0) for i in idx])
    sums32 = sums64.astype(np.float32)
    s32 = fam.scores_from_sums(sums32, config)
    assert np.allclose(s32, fam.scores_from_sums(sums64, config), rtol=1e-5)
    assert not np.array_equal(s32, fam.scores_from_sums(sums64, config))
    assert np.array_equal(fam.scores_from_sums(sums32, exact), fam.scores_from_sums(sums64, exact))
    assert np.array_equal(fam.scores_from_sums(sums64, exact), fam.scores_from_sums(sums64, config))


@pytest.mark.parametrize("knob,value", [
    ("weights", "0.5,nan"), ("weights", "0.5,inf"), ("weights", "-0.5,1.5"), ("weights", "1;0.5,-0.5"),
    ("weights", (float("nan"),)), ("max_ngram_order", 0), ("max_ngram_order", 101), ("smooth_value", -0.1),
    ("smooth_value", "nan"), ("smooth_value", "inf"), ("smooth_k", "nan"), ("smooth_alpha", -1),
    ("scale", 10), ("resample_arithmetic", "float16"),
])
def test_values_outside_the_domain_are_rejected(knob: str, value: object) -> None:
    with pytest.raises(KnobError, match=knob):
        make_config("bleu", "nltk" if knob == "weights" else "sacrebleu", "corpus", **{knob: value})


@pytest.mark.parametrize("weights", [(0.1, 0.2, 0.3, 0.4), (0.2,) * 5, (1.0,), (0.7, 0.7), (0.0, 1.0),
                                     ((1.0,), (0.5, 0.5))])
def test_weights_nltk_accepts_are_accepted(weights: object) -> None:
    """NLTK takes any non-negative weights, summing to 1 or not."""
    hyps, refs = _sample()
    value = assay.score("bleu", hyps, refs, "nltk", weights=weights).value
    assert math.isfinite(value)

