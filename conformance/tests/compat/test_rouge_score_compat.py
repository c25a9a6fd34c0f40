"""``assay.compat.rouge_score`` against rouge-score 0.1.2: frozen outputs (default env) and live (refs).

Script: :func:`conformance.regen.compat.observe_rouge_score` (rouge1/2/L/Lsum, ``score`` and
``score_multi`` on sample lines and two-sentence documents, with ``use_stemmer`` and a user
tokenizer; ``BootstrapAggregator``, compared within resampling noise since rouge-score is unseeded).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay.compat.rouge_score import rouge_scorer, scoring
from assay.core.errors import InputError, KnobError
from conformance.regen.compat import live_rouge_score, observe_rouge_score, sample
from conformance.tests.compat._frozen import assert_same, frozen


def _ours() -> list[dict[str, Any]]:
    """Our observations, the bootstrap seeded as the recording's (numpy.random.seed(0)): without it the
    resampling depends on the global RNG state earlier tests left, and the test was order-dependent."""
    return observe_rouge_score(rouge_scorer, scoring, *sample(), seed=lambda: np.random.seed(0))


def _bootstrap_close(expected: dict[str, Any], got: dict[str, Any]) -> None:
    """Percentile bootstrap of 1000 samples over 40 documents: the mid (the median of the resampled
    means) within 0.005 of the tool's, the interval ends within 0.015."""
    for t, parts in expected.items():
        for part, tol in (("mid", 0.005), ("low", 0.015), ("high", 0.015)):
            assert got[t][part] == pytest.approx(parts[part], abs=tol), (t, part)


def test_frozen_rouge_score_outputs() -> None:
    doc = frozen("rouge_score")
    assert doc["tool"] == "rouge-score" and doc["version"] == "0.1.2"
    ours = _ours()
    assert_same(doc["cases"], ours)
    _bootstrap_close(doc["cases"][-1]["observed"], ours[-1]["observed"])


@pytest.mark.refs
def test_live_rouge_score(require_tool: Any) -> None:
    require_tool("rouge_score")
    theirs, ours = live_rouge_score(), _ours()
    assert_same(theirs, ours)
    _bootstrap_close(theirs[-1]["observed"], ours[-1]["observed"])


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
