"""ROUGE-1.5.5's bootstrap sums are kept between calls (:func:`assay.metrics.rouge.bootstrap.sample_sums`):
the same input gives the kept, read-only sums, equal to a fresh draw; any change of the values, their
shape or the sample count is a new computation. Expected values are the module's own pure
specification (this tests a cache, not the tool's numbers: the rouge155 bootstrap fixtures do that)."""
from __future__ import annotations

from typing import Iterator

import numpy as np
import pytest

from assay.metrics.rouge import bootstrap


@pytest.fixture(autouse=True)
def _empty() -> Iterator[None]:
    bootstrap._kept.clear()
    yield
    bootstrap._kept.clear()


def _spec(values: np.ndarray, n: int) -> np.ndarray:
    return bootstrap._sequential_sample_sums(values, bootstrap._draw_matrix(values.shape[0], n))


def test_same_input_gives_the_kept_sums() -> None:
    values = np.random.default_rng(1).random((17, 3)).round(5)
    first = bootstrap.sample_sums(values, 50)
    again = bootstrap.sample_sums(values.copy(), 50)
    assert again is first and not first.flags.writeable
    assert first.tolist() == _spec(values, 50).tolist()
    with pytest.raises(ValueError):
        first[0, 0] = 1.0


def test_changed_input_is_computed_again() -> None:
    values = np.random.default_rng(2).random((11, 2)).round(5)
    base = bootstrap.sample_sums(values, 40)
    changed = values.copy()
    changed[5, 1] += 1e-5
    for vals, n in ((changed, 40), (values, 41), (values.reshape(2, 11).T.copy(), 40), (values[:, :1], 40)):
        got = bootstrap.sample_sums(vals, n)
        assert got is not base
        assert got.tolist() == _spec(np.ascontiguousarray(vals, dtype=np.float64), n).tolist()


def test_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bootstrap, "KEPT_SUMS", 3)
    rng = np.random.default_rng(3)
    for _ in range(5):
        bootstrap.sample_sums(rng.random((5, 2)), 10)
    assert len(bootstrap._kept) == 3


def test_confidence_changes_only_the_bounds() -> None:
    values = np.random.default_rng(4).random((30, 3)).round(5)
    avg95, low95, high95 = bootstrap.perl_bootstrap(values, 100, 95.0)
    avg90, low90, high90 = bootstrap.perl_bootstrap(values, 100, 90.0)   # the kept sums
    assert len(bootstrap._kept) == 1
    bootstrap._kept.clear()
    fresh = bootstrap.perl_bootstrap(values, 100, 90.0)
    assert [avg90.tolist(), low90.tolist(), high90.tolist()] == [x.tolist() for x in fresh]
    assert avg90.tolist() == avg95.tolist() and low90.tolist() != low95.tolist()
