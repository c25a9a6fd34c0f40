"""BLEU's score stage: the libm twin and the vectorised NLTK smoothing equal their specifications.

- :func:`assay.metrics.bleu.libm.log`/``exp`` (twin ``assay.metrics.bleu._libm_c``) give the bits
  of ``math.log``/``math.exp`` (:func:`~assay.metrics.bleu.libm.log_py`/``exp_py``) on BLEU's
  domain: positive finite numbers (subnormals, 1.0, huge), finite exponents, -inf;
- :func:`assay.metrics.bleu.libm.fsum_rows` (twin: Shewchuk's partials in C) gives ``math.fsum`` of
  every row, bit for bit: random rows of any magnitude, cancellations, half-way cases, specials;
- :func:`assay.metrics.bleu.nltk_smoothing.nltk_rows` (NLTK methods 4, 5 and 7 on every row at
  once) equals :func:`~assay.metrics.bleu.nltk_smoothing.nltk_methods` row by row, bit for bit,
  with rows cut short (``orders``), rows left out, K = 0, NLTK 3.5's index form, ``hyp_len`` 1
  and a missing last-segment row, and fails on the same first row with the same error (* an empty
  hypothesis scores 0 before any smoothing, so smoothed rows have ``hyp_len >= 1``);
- :func:`assay.metrics.bleu.score.score_rows` with the vectorised methods equals it with every
  method row by row (sentence rows and corpus sums of random token corpora, NLTK 3.10 and 3.5
  profiles, orders 1-6): the same value bits, components and first failure.
"""
from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, Callable
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from assay.engine.api import configure
from assay.metrics.bleu import libm
from assay.metrics.bleu import score as score_module
from assay.metrics.bleu.family import FAMILY
from assay.metrics.bleu.nltk_smoothing import VECTORISED, nltk_methods, nltk_rows

MODULE = "assay.metrics.bleu._libm_c"
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def mod(twin: Callable[[str], Any]) -> Any:
    return twin(MODULE)


def bits(x: np.ndarray) -> list[int]:
    return np.ascontiguousarray(x, dtype=np.float64).view(np.int64).ravel().tolist()


# ----------------------------------------------------------------------------- libm
positive = st.floats(min_value=5e-324, max_value=1.7e308, allow_nan=False, allow_infinity=False)
exponent = st.floats(min_value=-745.2, max_value=709.7, allow_nan=False, allow_infinity=False)


@relaxed
@given(x=hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=6), elements=positive))
def test_log_equals_math_log(mod: Any, x: np.ndarray) -> None:
    with mock.patch.object(libm, "_compiled", mod):
        got = libm.log(x)
    assert got.shape == x.shape and bits(got) == bits(libm.log_py(x))
    assert bits(libm.log_py(x)) == [np.float64(math.log(v)).view(np.int64) for v in x.ravel().tolist()]


@relaxed
@given(x=hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=6), elements=exponent))
def test_exp_equals_math_exp(mod: Any, x: np.ndarray) -> None:
    with mock.patch.object(libm, "_compiled", mod):
        got = libm.exp(x)
    assert got.shape == x.shape and bits(got) == bits(libm.exp_py(x))


def test_libm_corner_values(mod: Any) -> None:
    logs = np.array([1.0, 5e-324, 2.2250738585072014e-308, 0.1, 0.25, 1 / 3, 2.0, 1e308, 4.0, 0.9999999999999999])
    exps = np.array([0.0, -0.0, -np.inf, 1.0, -1.0, -9999999999.0 / 4, 709.78, -745.13, 1e-300, -1e-17])
    with mock.patch.object(libm, "_compiled", mod):
        assert bits(libm.log(logs)) == bits(libm.log_py(logs))
        assert bits(libm.exp(exps)) == bits(libm.exp_py(exps))
        assert libm.log(np.zeros((0, 3))).shape == (0, 3)
        strided = np.arange(1.0, 13.0).reshape(3, 4)[:, ::2]          # not contiguous: copied
        assert bits(libm.log(strided)) == bits(libm.log_py(strided))


any_finite = st.floats(allow_nan=False, allow_infinity=False)
scaled = st.builds(lambda m, e: math.ldexp(m, e), st.integers(-2**53, 2**53), st.integers(-80, 80))


@relaxed
@given(x=hnp.arrays(np.float64, st.tuples(st.integers(0, 5), st.integers(0, 8)),
                    elements=st.one_of(any_finite, scaled, st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e16, 1e-16]))))
def test_fsum_rows_equals_math_fsum(mod: Any, x: np.ndarray) -> None:
    """Every row's ``math.fsum``, or its OverflowError (partial sums beyond the float range)."""
    try:
        expected = [math.fsum(row) for row in x.tolist()]
    except OverflowError:
        with mock.patch.object(libm, "_compiled", mod), pytest.raises(OverflowError):
            libm.fsum_rows(x)
        return
    with mock.patch.object(libm, "_compiled", mod):
        got = libm.fsum_rows(x)
    assert got.shape == (x.shape[0],) and bits(got) == bits(np.array(expected))
    assert bits(libm.fsum_rows_py(x)) == bits(np.array(expected))


def test_fsum_rows_corner_values(mod: Any) -> None:
    rows = np.array([[1e16, 1.0, 1e-16, 0.0], [1.0, 1e100, 1.0, -1e100], [0.1, 0.2, 0.3, -0.6],
                     [1e16, 1.0, 0.0, 0.0], [1e16, -1.0, 0.0, 0.0], [1e16, 1.0, 1e-300, 0.0], [-0.0, -0.0, -0.0, -0.0],
                     [np.inf, 1.0, 2.0, 3.0], [np.nan, 1.0, 0.0, 0.0],
                     [-9999999999.0 / 4, -1e-17, 3.5, -0.25]])
    with mock.patch.object(libm, "_compiled", mod):
        assert bits(libm.fsum_rows(rows)) == bits(np.array([math.fsum(r) for r in rows.tolist()]))
        assert libm.fsum_rows(np.zeros((0, 4))).shape == (0,)
        with pytest.raises(OverflowError):
            libm.fsum_rows(np.array([[1e308, 1e308, -1e308]]))
        with pytest.raises(ValueError, match="-inf \\+ inf"):
            libm.fsum_rows(np.array([[-np.inf, np.inf]]))


# ----------------------------------------------------------------------------- nltk_rows == nltk_methods
COLUMNS = ("hyp_len", "ref_len", "correct_next", "total_next")


@st.composite
def smoothing_cases(draw: st.DrawFn) -> dict[str, Any]:
    m, n = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    total = np.array(draw(st.lists(st.lists(st.integers(0, 6), min_size=n, max_size=n), min_size=m, max_size=m)),
                     dtype=np.float64)
    correct = np.minimum(total, np.array(draw(st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                                                       min_size=m, max_size=m)), dtype=np.float64))
    prec = np.zeros((m, n))
    np.divide(correct, total, out=prec, where=(correct > 0) & (total > 0))
    last_kind = draw(st.sampled_from(["rows", "one", "none", "no-column"]))
    last_rows = np.array(draw(st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 4),
                                                 st.integers(0, 4)), min_size=m, max_size=m)), dtype=np.float64)
    last = {"rows": last_rows, "one": last_rows[-1:], "none": None, "no-column": last_rows}[last_kind]
    return dict(
        method=draw(st.sampled_from(VECTORISED)), prec=prec, correct=correct, total=total,
        sys_len=np.array(draw(st.lists(st.integers(1, 7), min_size=m, max_size=m)), dtype=np.float64),  # >= 1: *
        orders=np.array(draw(st.lists(st.integers(1, n), min_size=m, max_size=m)), dtype=np.int64),
        rows=np.array(draw(st.lists(st.booleans(), min_size=m, max_size=m))),
        config=SimpleNamespace(smooth_k=draw(st.sampled_from([5.0, 0.0, 1.0, 2.5])), smooth_alpha=5.0,
                               nltk_method4=draw(st.sampled_from(["halving", "index"]))),
        columns=COLUMNS[:2] if last_kind == "no-column" else COLUMNS, last=last)


@relaxed
@given(case=smoothing_cases())
def test_nltk_rows_equal_row_by_row(case: dict[str, Any]) -> None:
    got, failures = nltk_rows(**case)
    failing = score_module._first_failure(failures, len(got)) if failures else None
    want, first = case["prec"].copy(), None
    last = case["last"]
    for i in np.flatnonzero(case["rows"]).tolist():
        k = int(case["orders"][i])
        row_last = None if last is None else last[i if len(last) > 1 else 0]
        try:
            want[i, :k] = nltk_methods(case["method"], want[i, :k].tolist(), case["correct"][i, :k].tolist(),
                                       case["total"][i, :k].tolist(), float(case["sys_len"][i]), case["config"],
                                       case["columns"], row_last)
        except Exception as exc:   # noqa: BLE001 - the first row's failure, whatever it is
            first = (i, exc)
            break
    if first is None:
        assert failing is None
        assert bits(got) == bits(want)
    else:
        assert failing is not None and failing[0] == first[0]
        assert (type(failing[1]), str(failing[1])) == (type(first[1]), str(first[1]))
        assert bits(got[:first[0]]) == bits(want[:first[0]])


# ----------------------------------------------------------------------------- score_rows, both ways
words = st.lists(st.sampled_from("abc"), max_size=7)


@relaxed
@given(hyps=st.lists(words, min_size=1, max_size=6), data=st.data(),
       profile=st.sampled_from(["nltk", "nltk@3.5"]), method=st.sampled_from(VECTORISED),
       knobs=st.fixed_dictionaries({}, optional={
           "smooth_k": st.sampled_from([0.0, 1.0, 5.0]), "weights": st.integers(1, 6).map(lambda n: (1 / n,) * n),
           "auto_reweigh": st.booleans(), "scale": st.sampled_from([1, 100]),
           "missing_order": st.sampled_from(["stop", "one"]), "no_match": st.sampled_from(["zero", "smooth"])}))
def test_score_rows_vectorised_equals_row_by_row(hyps: list[list[str]], data: st.DataObject, profile: str,
                                                 method: str, knobs: dict[str, Any]) -> None:
    refs = [data.draw(st.lists(words, min_size=len(hyps), max_size=len(hyps)))]
    config = configure("bleu", profile, "sentence", smooth_method=method, **knobs).config
    stats = FAMILY.segment_stats(hyps, refs, config)
    for sums, last in ((stats.rows, stats.rows), (stats.total()[None, :], stats.rows[-1:])):
        fast = _scored(sums, config, last, stats.columns)
        with mock.patch.object(score_module, "VECTORISED", ()):
            slow = _scored(sums, config, last, stats.columns)
        assert fast == slow


def _scored(sums: np.ndarray, config: Any, last: np.ndarray, columns: tuple[str, ...]) -> Any:
    try:
        scored = score_module.score_rows(sums, config, last, columns)
    except Exception as exc:   # noqa: BLE001 - compared by type and message
        return type(exc), str(exc)
    return bits(scored.values), [scored.components(i) for i in range(len(sums))]
