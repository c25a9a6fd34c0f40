"""CIDEr's compiled twin (``assay.metrics.cider._vectors_c``) equals the pure specification
(:mod:`assay.metrics.cider.vectors`) exactly: the same n-grams under the same codes up to their
numbering, the same document frequencies, and bit-identical similarity sums and rows."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.engine.api import make_config
from assay.engine.registry import get_family
from assay.metrics.cider import vectors
from assay.text import ngram_codes
from conformance.tests.accel.conftest import flat_ids, twin_coded

TEXT = st.text(st.sampled_from(list("ab c\t\n\x0b\x0c\r\x1c\x1f\x85\xa0\u1680\u2000\u200a\u200b\u2028\u202f"
                                     "\u3000\ufeffé猫😀.,")), max_size=30)
ID_LISTS = st.lists(st.lists(st.integers(0, 6), max_size=12), min_size=1, max_size=10)


@st.composite
def images(draw: st.DrawFn) -> tuple[list[list[int]], np.ndarray]:
    """Captions (hypotheses, then references image-major) and the reference counts per image."""
    n_img = draw(st.integers(1, 5))
    per = [draw(st.integers(1, 4)) for _ in range(n_img)]
    caption = st.lists(st.integers(0, 6), max_size=10)
    lists = [draw(caption) for _ in range(n_img + sum(per))]
    return lists, np.array(per, dtype=np.int64)


@given(images(), st.integers(1, 5), st.data())
@settings(deadline=None)
def test_document_frequencies_and_sums(twin, data, max_order, draw):
    mod = twin("assay.metrics.cider._vectors_c")
    lists, per = data
    n_img = len(per)
    ids, offsets = flat_ids(lists)
    owner = np.repeat(np.arange(n_img), per)
    ref_start = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
    for coded in (ngram_codes.code_ngrams_py(ids, offsets, max_order, 7), twin_coded(ids, offsets, max_order)):
        pure_df = vectors.image_df_py(coded, offsets, n_img, owner)
        comp_df = [np.zeros(nc, dtype=np.int64) for nc in coded.n_codes]
        mod.image_df_into(coded.codes, offsets, n_img, owner, comp_df)
        for a, b in zip(pure_df, comp_df):
            np.testing.assert_array_equal(a, b)
        idf = [np.log(7.0) - np.log(np.maximum(1.0, d.astype(np.float64))) * draw.draw(st.sampled_from([1.0, 0.37]))
               for d in pure_df]
        penalty = np.array(draw.draw(st.lists(st.floats(0.0, 1.0), min_size=len(owner), max_size=len(owner))))
        for clipping in (True, False):
            pure = vectors.cider_sums_py(coded, offsets, n_img, ref_start, idf, penalty, clipping)
            with _pure_off():
                comp = vectors.cider_sums(coded, offsets, n_img, ref_start, idf, penalty, clipping)
            assert pure.tobytes() == comp.tobytes()


CAPTION = st.lists(st.sampled_from(["a", "dog", "cat", "runs", "on", "the", "grass", "red"]), max_size=10).map(" ".join)


@given(st.lists(st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=4)), min_size=1, max_size=8),
       st.sampled_from(["coco", "vedantam2015", "vrama91"]))
@settings(deadline=None)
def test_rows_are_bit_identical(twin, images, profile):
    twin("assay.metrics.cider._vectors_c")
    hyps = [h for h, _ in images]
    refs = [[g[j] if j < len(g) else None for _, g in images] for j in range(4)]
    family = get_family("cider")
    config, _ = make_config("cider", profile, no_reference_ngrams="zero")
    with _pure_off():
        compiled = family.segment_stats(hyps, refs, config)
    with _pure_on():
        pure = family.segment_stats(hyps, refs, config)
    assert compiled.rows.tobytes() == pure.rows.tobytes()
    assert compiled.context["df"].table == pure.context["df"].table


@contextmanager
def _pure_on() -> Iterator[None]:
    saved, vectors._compiled = vectors._compiled, None
    try:
        yield
    finally:
        vectors._compiled = saved


@contextmanager
def _pure_off() -> Iterator[None]:
    from assay.metrics.cider import _vectors_c
    saved, vectors._compiled = vectors._compiled, _vectors_c
    try:
        yield
    finally:
        vectors._compiled = saved
