"""chrF knobs: declared stages are true, domains reject what cannot be scored, profiles are data,
and the one scorer's float32 arithmetic (sacrebleu 2.x's bootstrap) is NumPy's own NEP 50 arithmetic.

The float32 checks compare the vectorised scorer with the same formula evaluated row by row on
NumPy float32 scalars and Python floats (NumPy itself decides each operation's type there); the
values sacrebleu prints from them are pinned by fixtures/significance.
"""
from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.engine.api import make_config
from assay.engine.evaluate import ReadTrackingConfig
from assay.engine.registry import get_family
from assay.metrics.chrf.nep50 import Mixed, where
from assay.profiles.registry import profiles_of

HYPS = ["The cat sat on the mat.", "Hello (hi) world.", "", "a b c"]
REFS = [["The cat sat on a mat.", "Hello hi world", "x", ""], ["A cat sat on the mat.", None, "", "a b"]]

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("sacrebleu", {}),
    ("sacrebleu-chrf++", {"eps_smoothing": True, "lowercase": True}),
    ("sacrebleu", {"averaging": "segments", "zero_division": "nltk", "beta": 3}),
    ("sacrebleu@1", {"whitespace": True}),
]


@pytest.mark.parametrize("profile,knobs", CONFIGS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(CONFIGS)])
def test_knobs_read_by_segment_stats_are_text_or_statistics_stage(profile: str, knobs: dict[str, Any]) -> None:
    knobset = get_family("chrf").knobset
    refs = REFS[:1] if profile == "sacrebleu@1" else REFS
    config = ReadTrackingConfig(make_config("chrf", profile, **knobs)[0])
    get_family("chrf").segment_stats(HYPS, refs, config)
    wrong = {n: knobset[n].stage for n in config.read if knobset[n].stage not in ("text", "statistics")}
    assert config.read and not wrong


def test_every_knob_declares_stage_and_domain() -> None:
    for knob in get_family("chrf").knobset.knobs:
        assert knob.stage is not None and knob.domain is not None, knob.name
    knobset = get_family("chrf").knobset
    assert {k.name for k in knobset.knobs if k.stage == "score"} == {"scale"}
    assert {k.name for k in knobset.knobs if k.stage == "resample"} == {"resample_arithmetic"}


@pytest.mark.parametrize("knobs,message", [
    ({"beta": 1e308}, "beta must be a finite number >= 0 and <= 1e\\+19"),
    ({"beta": 10 ** 400}, "beta"),
    ({"beta": "nan"}, "beta must be a finite number"),
    ({"beta": "inf"}, "beta must be a finite number"),
    ({"beta": -1}, "beta must be a finite number >= 0"),
    ({"char_order": 101}, "char_order must be an integer >= 0 and <= 100"),
    ({"word_order": -1}, "word_order must be an integer >= 0"),
    ({"min_char_order": 0}, "min_char_order must be an integer >= 1"),
    ({"resample_arithmetic": "float16"}, "resample_arithmetic"),
    ({"scale": 10}, "scale"),
])
def test_knob_domains(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(assay.KnobError, match=message):
        make_config("chrf", "sacrebleu", **knobs)


def test_values_the_tools_accept_are_kept() -> None:
    """beta 0 (F = P), fractional beta, the largest beta and order, a word-only chrF++."""
    hyp, ref = ["The cat sat on the mat."], [["The cat sat on a mat."]]
    assert assay.score("chrf", hyp, ref, beta=0).value > 0
    big = assay.score("chrf", hyp, ref, beta=10 ** 19).value
    assert np.isfinite(big) and big == pytest.approx(assay.score("chrf", hyp, ref, beta=10 ** 6).value, rel=1e-9)
    assert np.isfinite(assay.score("chrf", hyp, ref, beta=1e19, eps_smoothing=True).value)
    assert assay.score("chrf", hyp, ref, char_order=100).value > 0
    assert assay.score("chrf", hyp, ref, char_order=0, word_order=2).value > 0


def test_profiles_are_data_with_commands() -> None:
    profiles = profiles_of("chrf")
    assert {p.name for p in profiles} == {"sacrebleu", "sacrebleu-chrf++", "sacrebleu@1", "nltk", "nltk@3.5",
                                             "torchmetrics"}
    for p in profiles:
        assert p.command, p.name
        two = p.tool == "sacrebleu" and p.tool_version.startswith("2.")
        assert p.knobs["resample_arithmetic"] == ("float32" if two else "float64"), p.name


# ----------------------------------------------------------------------------- NEP 50 arithmetic
_OPS = [operator.add, operator.mul, operator.truediv]
_NUMBER = st.one_of(st.sampled_from([0.0, 1.0, 1e-16, 4.0, 0.25, 3.0]),
                    st.floats(min_value=1e-30, max_value=1e6, allow_nan=False))


@settings(deadline=None, max_examples=300)
@given(_NUMBER, st.booleans(), _NUMBER, st.booleans(), st.sampled_from(_OPS))
def test_mixed_follows_numpy_nep50(a: float, a_py: bool, b: float, b_py: bool, op: Any) -> None:
    """One operation of :class:`Mixed` = the same operation on a NumPy float32 / Python float pair
    (two Python floats are plain Python arithmetic: nothing to emulate)."""
    if a_py and b_py:
        return
    x = a if a_py else np.float32(a)
    y = b if b_py else np.float32(b)
    with np.errstate(all="ignore"):
        want = op(x, y)
        got = op(a if a_py else Mixed.float32(np.array([a])), b if b_py else Mixed.float32(np.array([b])))
    assert bool(got.py[0]) == (type(want) is float)
    assert got.value[0] == float(want) or (np.isnan(got.value[0]) and np.isnan(float(want)))


def _tool_chrf(h: np.ndarray, r: np.ndarray, m: np.ndarray, beta: float, eps_smoothing: bool) -> Any:
    """The chrF formula (score.py's docstring) row by row on NumPy float32 scalars and Python floats."""
    b2 = beta ** 2
    eps = 1e-16
    if eps_smoothing:
        total: Any = 0.0
        for hk, rk, mk in zip(h, r, m):
            p = mk / hk if hk > 0 else eps
            rc = mk / rk if rk > 0 else eps
            den = b2 * p + rc
            total += (1 + b2) * p * rc / den if den > 0 else eps
        return 100 * total / len(h)
    p: Any = 0.0
    rc: Any = 0.0
    eff = 0
    for hk, rk, mk in zip(h, r, m):
        if hk > 0 and rk > 0:
            p += mk / hk
            rc += mk / rk
            eff += 1
    if eff == 0:
        return 0.0
    p /= eff
    rc /= eff
    if p + rc == 0:
        return 0.0
    return 100 * ((1 + b2) * p * rc / (b2 * p + rc))


@settings(deadline=None, max_examples=60)
@given(st.integers(0, 2 ** 31 - 1), st.sampled_from([0.5, 1, 2, 3]), st.booleans(), st.integers(1, 4))
def test_float32_scores_are_the_formula_on_numpy_scalars(seed: int, beta: float, eps: bool, n_orders: int) -> None:
    rng = np.random.default_rng(seed)
    rows = 40
    h = (rng.integers(0, 6, (rows, n_orders)) * rng.integers(0, 2, (rows, n_orders))).astype(np.float32)
    r = (rng.integers(0, 6, (rows, n_orders)) * rng.integers(0, 2, (rows, n_orders))).astype(np.float32)
    m = (np.minimum(h, r) * rng.integers(0, 2, (rows, n_orders))).astype(np.float32)
    sums = np.stack([h, r, m], axis=2).reshape(rows, -1).astype(np.float32)
    config = make_config("chrf", "sacrebleu", char_order=n_orders, beta=beta, eps_smoothing=eps)[0]
    family = get_family("chrf")
    got = family.scores_from_sums(sums, config)
    python = family.float32_python_float_mask(sums, config)
    with np.errstate(all="ignore"):
        want = [_tool_chrf(h[i], r[i], m[i], beta, eps) for i in range(rows)]
    assert [type(w) is float for w in want] == python.tolist()
    assert got.dtype == (np.float64 if python.any() else np.float32)
    assert [float(w) for w in want] == got.tolist()


def test_float32_sums_follow_the_knob() -> None:
    """float32 sums are scored in float32 only under resample_arithmetic=float32; float64 sums never."""
    stats, config, _, _ = assay.compute_stats("chrf", HYPS, REFS, "sacrebleu")
    family = get_family("chrf")
    sums32 = stats.rows.astype(np.float32)
    exact, _ = make_config("chrf", "sacrebleu", resample_arithmetic="float64")
    assert family.scores_from_sums(sums32, exact).tolist() == family.scores_from_sums(stats.rows, config).tolist()
    assert family.scores_from_sums(stats.rows, config).dtype == np.float64
    assert family.float32_python_float_mask(stats.rows, config).all()
    nltk, _ = make_config("chrf", "nltk", resample_arithmetic="float32")
    with pytest.raises(assay.KnobError, match="float32"):
        family.scores_from_sums(sums32, nltk)


def test_where_keeps_kinds() -> None:
    a = Mixed.float32(np.array([1.5, 2.5]))
    out = where(np.array([True, False]), a, 0.0)
    assert out.value.tolist() == [1.5, 0.0] and out.py.tolist() == [False, True]
    assert where(np.array([True]), np.array([1.0]), 0.0).tolist() == [1.0]
