"""The score-stage knob ``resample_arithmetic`` decides how significance runs sum and score resamples.

sacrebleu 2.x profiles set ``float32`` (its bootstrap's arithmetic: fixtures/significance pins the
values); every other profile, or a user setting ``float64``, gets exact float64 sums scored with
float64 arithmetic, i.e. ``scores_from_sums`` of the plain resample sums.
"""
from __future__ import annotations

import statistics
from types import SimpleNamespace

import numpy as np
import pytest

import assay
import assay.jobs.significance as sig
from assay.engine.registry import get_family

HYPS = ["The cat sat on the mat.", "Hello (hi) world.", "a b c d e", "two dogs run", "x y z"]
REFS = [["The cat sat on a mat.", "Hello hi world", "a b c e d", "two dogs are running", "x z y"]]


@pytest.mark.parametrize("metric,profile,dtype", [
    ("chrf", "sacrebleu", np.float32), ("chrf", "sacrebleu-chrf++", np.float32), ("chrf", "sacrebleu@1", np.float64),
    ("chrf", "nltk", np.float64), ("ter", "sacrebleu", np.float32), ("ter", "sacrebleu@1", np.float64),
])
def test_profiles_choose_the_sums(metric: str, profile: str, dtype: type) -> None:
    setup = sig.prepare_metrics(f"{metric}/{profile}")[0]
    stats, *_ = assay.compute_stats(metric, HYPS, REFS, profile)
    idx = sig.bootstrap_indices(len(stats), 20, 1)
    st = SimpleNamespace(rows=np.asarray(stats.rows, dtype=np.float64))
    assert sig.resample_sums(setup, st, idx, sig.resample_counts(idx)).dtype == dtype


@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_float64_on_a_sacrebleu_profile_is_exact_resampling(metric: str) -> None:
    n = 40
    exact = sig.confidence_interval(metric, HYPS, REFS, "sacrebleu", n_samples=n, seed=3,
                                    resample_arithmetic="float64")
    tool = sig.confidence_interval(metric, HYPS, REFS, "sacrebleu", n_samples=n, seed=3)
    stats, config, *_ = assay.compute_stats(metric, HYPS, REFS, "sacrebleu", resample_arithmetic="float64")
    idx = sig.bootstrap_indices(len(stats), n, 3)
    scores = get_family(metric).scores_from_sums(stats.rows[idx].sum(axis=1), config)
    assert exact.mean == statistics.mean(scores.tolist())
    assert float(np.float32(tool.mean)) == tool.mean          # sacrebleu's mean of float32 scores
    assert exact.signature.startswith("assay:") and not tool.signature.startswith("assay:")


def test_float32_needs_a_sacrebleu_style_configuration() -> None:
    with pytest.raises(assay.KnobError, match="float32"):
        sig.confidence_interval("chrf", HYPS, REFS, "nltk", n_samples=10, resample_arithmetic="float32")
