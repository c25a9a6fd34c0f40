"""METEOR's per-pair cache (:mod:`assay.core.corpus_cache`): a configuration that differs only
in α, β, γ (δ, module weights) re-scores the cached pairs; its rows must equal the rows of a fresh
alignment bit for bit, and the cache must miss when the text changes (a token list changed in place)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay.core.errors import MissingDependencyError
from assay.engine.api import make_config
from assay.engine.registry import get_family
from assay.core import corpus_cache
from conformance.references.availability import missing

HYPS = ["The cat sat on the mat .", "Two dogs are running quickly in a park", "a man rides a horse", "", "x y"]
REFS = [["A cat was sitting on the mat .", "Two dogs run fast in the park", "a person riding a horse", "a",
         "y x"],
        ["the cat sits on a mat", None, "a man is on a horse", "", "x y"]]

CASES: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("nltk", {}, {"alpha": 0.5, "beta": 2.0, "gamma": 0.3}),
    ("nltk", {"synonyms": False}, {"alpha": 0.2, "beta": 0.5, "gamma": 1.0}),
    ("meteor-1.5", {}, {"alpha": 0.5, "beta": 2.0, "gamma": 0.3, "delta": 0.5, "weights": "1 0.2 0.3 0.9"}),
    ("meteor-1.5", {"modules": "exact synonym", "weights": "1 0.5"}, {"alpha": 0.1, "delta": 1.0}),
]


def _rows(profile: str, knobs: dict[str, Any], hyps: Any = HYPS, refs: Any = REFS) -> np.ndarray:
    config = make_config("meteor", profile, **knobs)[0]
    try:
        return get_family("meteor").segment_stats(hyps, refs, config).rows
    except MissingDependencyError as exc:   # WordNet or the METEOR 1.5 jar's resources
        missing(str(exc))
        raise


@pytest.mark.parametrize("profile,matching,scoring", CASES, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(CASES)])
def test_rescored_pairs_equal_a_fresh_alignment(profile: str, matching: dict[str, Any],
                                                scoring: dict[str, Any]) -> None:
    corpus_cache.clear()
    first = _rows(profile, matching)
    rescored = _rows(profile, {**matching, **scoring})        # a hit: only the scoring knobs differ
    corpus_cache.clear()
    fresh = _rows(profile, {**matching, **scoring})
    assert rescored.tobytes() == fresh.tobytes()
    assert first.tobytes() != fresh.tobytes()                 # the scoring knobs did change the rows
    again = _rows(profile, matching)
    assert again.tobytes() == first.tobytes()


@pytest.mark.parametrize("profile", ["nltk", "meteor-1.5"])
def test_a_token_list_changed_in_place_is_a_miss(profile: str) -> None:
    corpus_cache.clear()
    hyps = [h.split() for h in HYPS]
    before = _rows(profile, {}, hyps)
    hyps[0][1] = "dog"                                        # same list object, other text
    after = _rows(profile, {}, hyps)
    corpus_cache.clear()
    assert after.tobytes() == _rows(profile, {}, hyps).tobytes()
    assert after.tobytes() != before.tobytes()


def test_compiled_pick_best_equals_the_pure_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The twin's re-scoring and choice (``unit_scores``, ``first_best``) against :func:`score.parts`
    and the ``value > best`` loop, on random statistics with ties (several pairs per segment)."""
    from assay.metrics.meteor.meteor15 import best
    from conformance.tests.accel.conftest import import_twin
    compiled = import_twin("assay.metrics.meteor.meteor15._best_c")     # fails under CI when not built
    rng = np.random.default_rng(7)
    stats = rng.integers(0, 4, size=(400, 23)).astype(np.float64)
    t_matched = stats[:, 4:20:4].sum(axis=1) + stats[:, 6:20:4].sum(axis=1)
    r_matched = stats[:, 5:20:4].sum(axis=1) + stats[:, 7:20:4].sum(axis=1)
    stats[:, 21], stats[:, 22] = t_matched, r_matched
    stats[:, 0] = t_matched + rng.integers(0, 3, 400)
    stats[:, 1] = r_matched + rng.integers(0, 3, 400)
    stats[:, 2] = stats[:, 6:20:4].sum(axis=1)
    stats[:, 3] = stats[:, 7:20:4].sum(axis=1)
    stats[:, 20] = np.minimum(rng.integers(1, 4, 400), np.maximum(t_matched, 1))
    stats[1::3] = stats[0:-1:3][: len(stats[1::3])]          # ties: the first must win
    units = np.concatenate([[0], np.cumsum(rng.integers(1, 5, 200))])
    units = units[units <= len(stats)]
    for params in [(0.9, 3.0, 0.5, 0.75, (1.0, 0.6, 0.8, 0.6)), (0.1, 0.4, 1.0, 0.2, (0.3, 0.0, 1.0, 0.5))]:
        monkeypatch.setattr(best, "_compiled", compiled)
        got = best.pick_best(stats, units, params)
        monkeypatch.setattr(best, "_compiled", None)
        want = best.pick_best(stats, units, params)
        monkeypatch.undo()
        assert got[0].tobytes() == want[0].tobytes() and got[1].tobytes() == want[1].tobytes()


def test_snapshots_tell_segment_shapes_apart() -> None:
    """Two corpora have equal snapshots exactly when they are equal segment by segment (a string is
    not its one-token list, tokens do not move between segments, None is not an empty list)."""
    variants = [[["a", "b"], ["c"]], [["a"], ["b", "c"]], [("a", "b"), ("c",)], ["a b", ["c"]], [["a b"], ["c"]],
                [["a", "b"], None], [["a", "b"], []], [["a", "b"], ["c"], []], ["a b", "c"]]
    for x in variants:
        for y in variants:
            same = [list(s) if isinstance(s, tuple) else s for s in x] == \
                   [list(s) if isinstance(s, tuple) else s for s in y]
            assert (corpus_cache.snapshot(x, [x]) == corpus_cache.snapshot(y, [y])) == same, (x, y)
