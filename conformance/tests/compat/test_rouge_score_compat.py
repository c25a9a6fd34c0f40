"""``assay.compat.rouge_score`` against rouge-score 0.1.2: frozen outputs (default env) and live (refs).

Script: :func:`conformance.regen.compat.observe_rouge_score` (rouge1/2/L/Lsum, ``score`` and
``score_multi`` on sample lines and two-sentence documents, with ``use_stemmer`` and a user
tokenizer; ``BootstrapAggregator`` after ``numpy.random.seed(0)``: both draw from numpy's global
generator, so the intervals agree value for value).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay.compat.rouge_score import rouge_scorer, scoring
from assay.core.errors import InputError, KnobError
from conformance.regen.compat import ROUGE_TYPES, live_rouge_score, observe_rouge_score, sample
from conformance.tests.compat._frozen import assert_same, frozen


def _ours() -> list[dict[str, Any]]:
    """Our observations, the bootstrap run after ``numpy.random.seed(0)`` as the recording's."""
    return observe_rouge_score(rouge_scorer, scoring, *sample(), seed=lambda: np.random.seed(0))


def test_frozen_rouge_score_outputs() -> None:
    doc = frozen("rouge_score")
    assert doc["tool"] == "rouge-score" and doc["version"] == "0.1.2"
    assert_same(doc["cases"], _ours())


def test_private_seed_gives_the_global_seeds_intervals_and_leaves_numpy_alone() -> None:
    """``BootstrapAggregator(seed=0)`` prints what rouge-score prints after ``numpy.random.seed(0)``
    and does not move numpy's global generator."""
    expected = frozen("rouge_score")["cases"][-1]["observed"]
    hyps, r1, _ = sample()
    scorer, agg = rouge_scorer.RougeScorer(ROUGE_TYPES), scoring.BootstrapAggregator(seed=0)
    for hyp, ref in zip(hyps, r1):
        agg.add_scores(scorer.score(ref, hyp))
    np.random.seed(7)
    result = agg.aggregate()
    assert np.random.randint(0, 1 << 30) == np.random.RandomState(7).randint(0, 1 << 30)
    assert {t: {k: list(getattr(v, k)) for k in ("low", "mid", "high")} for t, v in result.items()} == expected


@pytest.mark.refs
def test_live_rouge_score(require_tool: Any) -> None:
    require_tool("rouge_score")
    assert_same(live_rouge_score(), _ours())


def test_layout_and_types() -> None:
    from assay.compat import rouge_score

    assert rouge_score.rouge_scorer is rouge_scorer
    got = rouge_scorer.RougeScorer(["rouge1"]).score("the cat sat", "the cat")["rouge1"]
    assert type(got).__name__ == "Score" and got._fields == ("precision", "recall", "fmeasure")
    assert got == (1.0, 2 / 3, 0.8)
    agg = scoring.BootstrapAggregator(seed=1)
    agg.add_scores({"rouge1": got})
    assert agg.aggregate()["rouge1"].mid == pytest.approx(got)


@pytest.mark.parametrize("call, error, message", [
    (lambda: rouge_scorer.RougeScorer(["rougeW"]), KnobError, "invalid rouge type 'rougeW'"),
    (lambda: rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True), KnobError, "Punkt"),
    (lambda: rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a"), InputError, "no target"),
    (lambda: rouge_scorer.RougeScorer(["rouge1"]).score(["a"], "a"), InputError, "target must be a string"),
    (lambda: scoring.BootstrapAggregator().aggregate(), InputError, "no scores"),
])
def test_bad_input_is_one_clear_error(call: Any, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        call()
