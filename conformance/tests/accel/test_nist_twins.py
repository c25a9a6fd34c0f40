"""NIST's compiled twin (``assay.metrics.nist._matches_c``) equals the pure specification
(:mod:`assay.metrics.nist.matches`) exactly: the same n-grams under the same codes up to their
numbering, ``math.log(num / den, 2)`` to the bit, and bit-identical sums and rows."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.engine.api import make_config
from assay.engine.registry import get_family
from assay.metrics.nist import matches
from assay.text import ngram_codes
from conformance.tests.accel.conftest import flat_ids, twin_coded
from conformance.strategies import corpus


@given(st.lists(st.tuples(st.integers(1, 10 ** 9), st.integers(0, 10 ** 6)), max_size=40))
@settings(deadline=None)
def test_log2_ratios(twin, pairs):
    mod = twin("assay.metrics.nist._matches_c")
    num = np.array([p for p, _ in pairs], dtype=np.int64)
    den = np.array([q for _, q in pairs], dtype=np.int64)
    out = np.zeros(len(num))
    mod.log2_ratios_into(num, den, matches.LN2, out)
    assert out.tobytes() == matches.log2_ratios_py(num, den).tobytes()


@st.composite
def segments(draw: st.DrawFn) -> tuple[list[list[int]], int, int]:
    """Hypotheses then ``n_refs`` reference streams of ``n_seg`` id lists each."""
    n_seg = draw(st.integers(1, 5))
    n_refs = draw(st.integers(0, 3))
    seg = st.lists(st.integers(0, 6), max_size=10)
    return [draw(seg) for _ in range((n_refs + 1) * n_seg)], n_seg, n_refs


@given(segments(), st.integers(1, 5), st.booleans(), st.data())
@settings(deadline=None)
def test_sums(twin, data, max_order, union, draw):
    twin("assay.metrics.nist._matches_c")
    lists, n_seg, n_refs = data
    ids, offsets = flat_ids(lists)
    lengths = np.diff(offsets)
    seg_words = np.array([sum(lengths[(r + 1) * n_seg + s] for r in range(n_refs)) for s in range(n_seg)], dtype=float)
    for coded in (ngram_codes.code_ngrams_py(ids, offsets, max_order, 7), twin_coded(ids, offsets, max_order)):
        info = [np.array(draw.draw(st.lists(st.floats(0, 20), min_size=nc, max_size=nc))) for nc in coded.n_codes]
        pure = matches.nist_sums_py(coded, offsets, n_seg, n_refs, info, seg_words, union)
        with _compiled(True):
            comp = matches.nist_sums(coded, offsets, n_seg, n_refs, info, seg_words, union)
        for a, b in ((pure.total, comp.total), (pure.info, comp.info), (pure.seg_info, comp.seg_info)):
            assert a.tobytes() == b.tobytes()


@given(corpus(max_segments=6, max_refs=3), st.sampled_from(["mteval-v13a", "nltk"]))
@settings(deadline=None)
def test_rows_are_bit_identical(twin, data, profile):
    twin("assay.metrics.nist._matches_c")
    hyps, refs = data
    family = get_family("nist")
    config, _ = make_config("nist", profile)
    with _compiled(True):
        compiled = family.segment_stats(hyps, refs, config)
    with _compiled(False):
        pure = family.segment_stats(hyps, refs, config)
    assert compiled.rows.tobytes() == pure.rows.tobytes()
    assert compiled.context["weights"].table == pure.context["weights"].table


@contextmanager
def _compiled(on: bool) -> Iterator[None]:
    from assay.metrics.nist import _matches_c
    saved, matches._compiled = matches._compiled, (_matches_c if on else None)
    try:
        yield
    finally:
        matches._compiled = saved
