"""TER knobs: declared stages are true, the shift search's limits are bounded, profiles are data,
and the one scorer's float32 arithmetic (sacrebleu 2.x's bootstrap) is NumPy's NEP 50 arithmetic."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.engine.api import make_config
from assay.engine.evaluate import ReadTrackingConfig
from assay.engine.registry import get_family
from assay.profiles.registry import profiles_of

HYPS = ["The cat sat on the mat .", "a b c d", ""]
REFS = [["the mat , the cat sat on", "a c b", "x"], ["A cat sat on the mat.", None, ""]]


@pytest.mark.parametrize("profile,knobs", [("sacrebleu", {}), ("sacrebleu@1", {"normalized": True}),
                                           ("sacrebleu", {"beam_width": 3, "max_candidates": 5})])
def test_knobs_read_by_segment_stats_are_text_or_statistics_stage(profile: str, knobs: dict[str, Any]) -> None:
    knobset = get_family("ter").knobset
    config = ReadTrackingConfig(make_config("ter", profile, **knobs)[0])
    get_family("ter").segment_stats(HYPS, REFS, config)
    wrong = {n: knobset[n].stage for n in config.read if knobset[n].stage not in ("text", "statistics")}
    assert config.read and not wrong


def test_every_knob_declares_stage_and_domain() -> None:
    knobset = get_family("ter").knobset
    for knob in knobset.knobs:
        assert knob.stage is not None and knob.domain is not None, knob.name
    assert {k.name for k in knobset.knobs if k.stage == "score"} == {"zero_ref_length", "corpus_score", "scale"}
    assert {k.name for k in knobset.knobs if k.stage == "resample"} == {"resample_arithmetic"}


@pytest.mark.parametrize("knobs,message", [
    ({"max_shift_size": 10_001}, "max_shift_size must be an integer >= 0 and <= 10000"),
    ({"max_shift_dist": -1}, "max_shift_dist must be an integer >= 0"),
    ({"beam_width": 10 ** 9}, "beam_width must be an integer >= 0 and <= 10000"),
    ({"max_candidates": 10 ** 7}, "max_candidates must be an integer >= 0 and <= 1e\\+06"),
    ({"max_candidates": 2.5}, "max_candidates"),
    ({"resample_arithmetic": "float16"}, "resample_arithmetic"),
])
def test_knob_domains(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(assay.KnobError, match=message):
        make_config("ter", "sacrebleu", **knobs)


def test_limits_at_their_bounds_still_score() -> None:
    score = assay.score("ter", ["a b c d"], [["d c b a"]], max_shift_size=10_000, max_shift_dist=10_000,
                        beam_width=10_000, max_candidates=1_000_000)
    assert score.value == assay.score("ter", ["a b c d"], [["d c b a"]]).value
    assert assay.score("ter", ["a b c d"], [["d c b a"]], max_shift_size=0, beam_width=0).value > 0


def test_profiles_are_data_with_commands() -> None:
    profiles = {p.name: p for p in profiles_of("ter")}
    assert set(profiles) == {"sacrebleu", "sacrebleu@1", "torchmetrics", "pyter3"}
    assert all(p.command for p in profiles.values())
    assert profiles["sacrebleu"].knobs["resample_arithmetic"] == "float32"
    assert profiles["sacrebleu@1"].knobs["resample_arithmetic"] == "float64"


@settings(deadline=None, max_examples=40)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from(["edits", "one"]))
def test_float32_scores_are_the_formula_on_numpy_scalars(seed: int, rule: str) -> None:
    """``100 * (edits / ref_len)`` on float32 scalars; a zero length gives a Python float."""
    rng = np.random.default_rng(seed)
    sums = np.stack([rng.integers(0, 40, 30), rng.integers(0, 25, 30) * rng.integers(0, 2, 30)], axis=1)
    sums = (sums + rng.random((30, 2)) * (rng.random((30, 1)) < 0.3)).astype(np.float32)
    config = make_config("ter", "sacrebleu", zero_ref_length=rule)[0]
    family = get_family("ter")
    got = family.scores_from_sums(sums, config)
    python = family.float32_python_float_mask(sums, config)
    want = []
    for edits, length in sums:
        if length > 0:
            want.append(100 * (edits / length))
        else:
            want.append(100.0 if rule == "one" or edits > 0 else 0.0)
    assert [type(w) is float for w in want] == python.tolist()
    assert got.dtype == (np.float64 if python.any() else np.float32)
    assert [float(w) for w in want] == got.tolist()


def test_float64_sums_are_exact_whatever_the_knob() -> None:
    stats, config, _, _ = assay.compute_stats("ter", HYPS, REFS, "sacrebleu")
    family = get_family("ter")
    exact, _ = make_config("ter", "sacrebleu", resample_arithmetic="float64")
    assert family.scores_from_sums(stats.rows.astype(np.float32), exact).dtype == np.float64
    for i, value in enumerate(family.sentence_stats_scores(stats, config).values.tolist()):
        assert value == family.score_stats(stats.row(i), config)[0]
