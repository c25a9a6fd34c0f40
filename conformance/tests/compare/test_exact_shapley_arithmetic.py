"""The exact Shapley values (:func:`assay.jobs.attribution._exact`) sum the float scores as integers
over their largest power-of-two denominator: the same rationals as summing them as ``Fraction``
term by term (the definition, written out here), for any finite scores."""
from __future__ import annotations

from fractions import Fraction
from math import factorial

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.jobs import attribution


def _by_fractions(n: int, scores: list[float]) -> list[Fraction]:
    v = [Fraction(x) for x in scores]
    out = []
    for i in range(n):
        phi = Fraction(0)
        for mask in range(1 << n):
            if not mask >> i & 1:
                s = bin(mask).count("1")
                phi += Fraction(factorial(s) * factorial(n - s - 1), factorial(n)) * (v[mask | 1 << i] - v[mask])
        out.append(phi)
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1 << n, max_size=1 << n))))
def test_exact_equals_fraction_sums(case: tuple[int, list[float]]) -> None:
    n, scores = case
    groups = [(f"k{i}",) for i in range(n)]
    by_mask = {attribution._knobs_of(groups, mask): scores[mask] for mask in range(1 << n)}
    got = attribution._exact(groups, by_mask.__getitem__)
    want = _by_fractions(n, scores)
    assert list(got.values()) == want
    assert [float(x) for x in got.values()] == [float(x) for x in want]
