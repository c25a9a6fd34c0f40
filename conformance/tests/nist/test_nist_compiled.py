"""NIST's compiled paths equal the pure specification bit for bit.

- ``_matches_c.sentence_values_into`` (every sentence value at once) equals
  ``family.nist_from_sums`` row by row, and flags exactly the rows it refuses (``empty_order=error``);
- rows under a finished corpus context (the compiled path codes the tokens straight into the
  context's table: ``matches.context_sums``) equal the pure path's rows (a chunk-wide vocabulary,
  n-gram codes and ``NistWeights.info_of``), whatever the chunking, and so do rows under a context
  that lacks some of the chunk's reference n-grams (the compiled path then falls back);
- the sentence scores and their (lazily built) components are those of the pure path.
"""
from __future__ import annotations

import math
import pickle
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay
from assay.core.errors import ToolBehaviourError
from assay.engine.api import make_config
from assay.engine.registry import get_family
from assay.metrics.nist import matches
from assay.metrics.nist.family import BETA, nist_from_sums
from conformance.strategies import corpus
from conformance.tests.accel.conftest import import_twin

NIST = get_family("nist")
PROFILES = ["mteval-v13a", "nltk"]


@pytest.fixture(scope="module")
def compiled() -> Any:
    return import_twin("assay.metrics.nist._matches_c")


def _path(module: Any) -> Any:
    """Run NIST's hot loops through ``module`` (None: the pure path)."""
    return mock.patch.object(matches, "_compiled", module)


FLOAT = st.floats(0, 50, allow_nan=False)
COUNT = st.sampled_from([0.0, 0.0, 1.0, 2.0, 3.0, 7.0, 12.0])


@given(st.integers(1, 5), st.data(), st.booleans())
@settings(deadline=None, max_examples=150)
def test_sentence_values(compiled, n, data, zero):
    k = data.draw(st.integers(1, 6))
    rows = np.array([[data.draw(COUNT), data.draw(FLOAT), data.draw(COUNT), data.draw(st.sampled_from([0.0, 1.0, 5.0]))]
                     + [data.draw(FLOAT) for _ in range(n)] + [data.draw(COUNT) for _ in range(n)]
                     for _ in range(k)], dtype=np.float64)
    config, _ = make_config("nist", "mteval-v13a" if zero else "nltk", max_ngram_order=n)
    values = np.empty(k)
    bad = np.zeros(k, dtype=np.uint8)
    compiled.sentence_values_into(rows, 4, 4 + n, 2, 3, n, BETA, zero, values, bad)
    for i, row in enumerate(rows):
        try:
            value, _ = nist_from_sums(row[4:4 + n], row[4 + n:4 + 2 * n], row[2], row[3], row[0], row[1], config)
        except ToolBehaviourError:
            assert bad[i] == 1
            continue
        assert bad[i] == 0
        assert math.copysign(1.0, value) == math.copysign(1.0, values[i])
        assert np.float64(value).tobytes() == values[i].tobytes()


def _chunk_rows(hyps: list[str], refs: list[list[str]], config: Any, bounds: list[tuple[int, int]],
                context: Any) -> np.ndarray:
    blocks = [NIST.segment_stats(hyps[a:b], [s[a:b] for s in refs], config, context).rows for a, b in bounds if b > a]
    return np.vstack(blocks)


def _context(hyps: list[str], refs: list[list[str]], config: Any, bounds: list[tuple[int, int]], pickled: bool
             ) -> Any:
    """The context of the chunks ``bounds`` of ``hyps``/``refs``, folded as the API folds them; pickled
    (Dask: its weights come from a table) or not (compiled: from the first pass's counts)."""
    merged = None
    for a, b in bounds:
        part = NIST.context_part(hyps[a:b], [s[a:b] for s in refs], config)
        merged = part if merged is None else NIST.merge_contexts([merged, part], config)
    context = NIST.finish_context(merged, config)
    return pickle.loads(pickle.dumps(context)) if pickled else context


@given(corpus(max_segments=8, max_refs=3), st.sampled_from(PROFILES), st.integers(1, 5), st.data())
@settings(deadline=None, max_examples=50)
def test_rows_under_a_context(compiled, data, profile, order, draw):
    hyps, refs = data
    config, _ = make_config("nist", profile, tokenize="none", lowercase=False, max_ngram_order=order)
    cuts = sorted(draw.draw(st.lists(st.integers(0, len(hyps)), max_size=3)))
    edges = [0] + cuts + [len(hyps)]
    bounds = list(zip(edges[:-1], edges[1:]))
    # the context of the whole corpus, and one of its first half only (lacking reference n-grams)
    with _path(None):
        whole = NIST.segment_stats(hyps, refs, config).rows
    half = max(1, len(hyps) // 2)
    for scope, pickled in ((len(hyps), False), (len(hyps), True), (half, False), (half, True)):
        parts = [(a, min(b, scope)) for a, b in bounds if a < scope]
        out = []
        for module in (compiled, None):
            with _path(module):
                context = _context(hyps, refs, config, parts, pickled)
                out.append(_chunk_rows(hyps, refs, config, bounds, context))
        assert out[0].tobytes() == out[1].tobytes()
        if scope == len(hyps):
            assert out[0].tobytes() == whole.tobytes()


@given(corpus(max_segments=6, max_refs=3), st.sampled_from(PROFILES))
@settings(deadline=None, max_examples=40)
def test_sentence_scores_and_components(compiled, data, profile):
    hyps, refs = data
    results = []
    for module in (compiled, None):
        with _path(module):
            try:
                scores = assay.sentence_scores("nist", hyps, refs, profile, tokenize="none", lowercase=False)
            except ToolBehaviourError as exc:
                results.append(("error", str(exc)))
                continue
            results.append([(np.float64(s.value).tobytes(), repr(s.components)) for s in scores])
    assert results[0] == results[1]


TOKENS = st.lists(st.sampled_from(["a", "b", "c", "dé", "日本"]), max_size=6)


@given(st.integers(0, 5), st.integers(0, 3), st.data())
@settings(deadline=None, max_examples=60)
def test_segment_lengths(compiled, n_seg, n_refs, data):
    hyps = [data.draw(TOKENS) for _ in range(n_seg)]
    refs = [[data.draw(st.one_of(st.none(), TOKENS)) for _ in range(n_seg)] for _ in range(n_refs)]
    pure = matches.segment_lengths_py(hyps, refs)
    with _path(compiled):
        comp = matches.segment_lengths(hyps, refs)
    assert comp[0].dtype == pure[0].dtype and comp[1].dtype == pure[1].dtype
    assert comp[0].tolist() == pure[0].tolist() and comp[1].tolist() == pure[1].tolist()
    assert comp[1].shape == pure[1].shape
