"""Rows kept between chunks are stored in the narrowest integer dtype that holds them, and read back
exactly: as the float64 rows families compute on, or as column sums equal bit for bit to the sums of
those float64 rows (``SegmentStats.total``, the single-process corpus sum)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from assay.core.errors import AssayError
from assay.core.io import read_segments
from assay.core.stats import SegmentStats, as_float_rows, exact_total, narrowest
from assay.engine import api, chunks, stream
from assay.engine.chunks import RowStack

_INT_DTYPES = [np.dtype(t) for t in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")]


def _holds(dtype: np.dtype, low: int, high: int) -> bool:
    info = np.iinfo(dtype)
    return info.min <= low and high <= info.max


def _integer_rows(max_value: int) -> st.SearchStrategy[np.ndarray]:
    shapes = hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=40)
    values = st.integers(-max_value, max_value).map(float)
    return hnp.arrays(np.float64, shapes, elements=values)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([1, 127, 128, 255, 256, 40_000, 70_000, 2 ** 31, 2 ** 40, 2 ** 53 - 1]).flatmap(_integer_rows))
def test_integer_rows_take_the_narrowest_dtype_and_come_back_bit_for_bit(rows):
    narrow = narrowest(rows)
    low, high = int(rows.min()), int(rows.max())
    assert narrow.dtype.kind in "iu"
    assert _holds(narrow.dtype, low, high)
    assert not any(_holds(d, low, high) for d in _INT_DTYPES if d.itemsize < narrow.dtype.itemsize)
    back = as_float_rows(narrow)
    assert back.dtype == np.float64 and back.tobytes() == rows.tobytes()


@pytest.mark.parametrize("value", [0.5, -0.0, np.nan, np.inf, -np.inf, 2.0 ** 53, -(2.0 ** 53), 1e300])
def test_a_value_no_integer_holds_keeps_the_rows_float64(value):
    rows = np.array([[1.0, 2.0], [3.0, value]])
    assert narrowest(rows) is rows


def test_rows_that_are_not_float64_are_left_as_they_are():
    rows = np.array([[1, 2]], dtype=np.float32)
    assert narrowest(rows) is rows


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([1, 127, 255, 40_000, 2 ** 31, 2 ** 50]).flatmap(_integer_rows))
def test_exact_total_of_narrow_rows_is_the_float64_sum_bit_for_bit(rows):
    """int8 rows of 127 summed in their own dtype would wrap; sums past 2**53 fall back to the float sum."""
    assert exact_total(narrowest(rows)).tobytes() == rows.sum(axis=0).tobytes()


def test_exact_total_does_not_wrap_in_a_narrow_dtype():
    rows = np.full((1000, 3), 127.0)
    assert narrowest(rows).dtype == np.int8
    assert exact_total(narrowest(rows)).tolist() == [127_000.0] * 3


_CHUNK = hnp.arrays(np.float64, st.tuples(st.integers(1, 30), st.just(4)),
                    elements=st.one_of(st.integers(-300, 70_000).map(float),
                                       st.sampled_from([0.5, 1 / 3, -0.0])))


@settings(max_examples=200, deadline=None)
@given(st.lists(_CHUNK, min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_a_row_stack_gives_back_the_rows_and_their_sums_whatever_the_chunk_order(chunks, rnd):
    """Chunks of different dtypes (uint8, int16, uint32, float64) put in any order: the stack widens."""
    whole = np.vstack(chunks)
    starts = np.cumsum([0] + [len(c) for c in chunks[:-1]])
    order = list(range(len(chunks)))
    rnd.shuffle(order)
    stack = RowStack(len(whole))
    columns = ("a", "b", "c", "d")
    for i in order:
        stack.put(int(starts[i]), SegmentStats(columns, chunks[i], {"k": 1}))
    stats = stack.stats()
    assert stats.rows.dtype == np.float64 and stats.rows.tobytes() == whole.tobytes()
    assert stats.columns == columns and stats.context == {"k": 1}
    assert stack.summed().rows.tobytes() == SegmentStats(columns, whole).total()[None, :].tobytes()
    assert (stack.dtype == np.float64) == (narrowest(whole).dtype == np.float64)


def test_bleu_rows_of_a_file_are_kept_in_two_bytes(sample_dir, monkeypatch):
    """The memory the issue asks for: BLEU's counts are small integers, so a million rows of 12 columns
    take 24 MB, not 96 MB; and the corpus score is made from their sums, never a float64 copy."""
    kept: list[np.dtype] = []
    real_summed = RowStack.summed

    def summed(self: RowStack) -> SegmentStats:
        kept.append(self.dtype)
        return real_summed(self)

    def no_float_copy(self: RowStack) -> SegmentStats:
        raise AssertionError("a sums_suffice score made the float64 rows")

    monkeypatch.setattr(RowStack, "summed", summed)
    monkeypatch.setattr(RowStack, "stats", no_float_copy)
    configured = api.configure("bleu")
    stream.score_files(configured, str(sample_dir / "hyp.txt"), [str(sample_dir / "ref1.txt")], chunk_lines=7)
    assert len(kept) == 1 and kept[0].kind in "iu" and kept[0].itemsize <= 2


def _sums_profiles() -> list[tuple[str, str]]:
    from assay.core.metric_names import METRIC_NAMES
    from assay.profiles.registry import profiles_of

    out = []
    for metric in METRIC_NAMES:
        if metric == "coco":
            continue
        for profile in profiles_of(metric):
            configured = api.configure(metric, profile.name)
            if configured.family.sums_suffice(configured.config):
                out.append((metric, profile.name))
    return out


@pytest.mark.parametrize("metric,profile", _sums_profiles())
def test_files_scored_from_summed_narrow_rows_equal_the_whole_corpus(sample_dir, metric, profile):
    """Every profile whose score reads only column sums: the file path (narrow rows, exact sums) gives
    the Score of the whole corpus in one call, value, text and components alike."""
    configured = api.configure(metric, profile)
    n_refs = configured.profile.max_refs or 2
    refs = [sample_dir / f"ref{k}.txt" for k in range(1, min(n_refs, 2) + 1)]
    hyp = sample_dir / "hyp.txt"
    try:
        expected = api.score_configured(configured, read_segments(hyp).lines, [read_segments(r).lines for r in refs])
    except AssayError as exc:           # a profile that has no corpus score says so on both paths
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            stream.score_files(configured, str(hyp), [str(r) for r in refs], chunk_lines=7)
        return
    score, _ = stream.score_files(configured, str(hyp), [str(r) for r in refs], chunk_lines=7)
    family, config = configured.family, configured.config
    summed = chunks.rows_of_lists(family, config, read_segments(hyp).lines, [read_segments(r).lines for r in refs],
                                  chunk_lines=7, sums_only=True)
    assert len(summed) == 1        # the API's long lists: one row of sums
    from_lists = api.family_score(family, summed, config, configured.profile, str(len(refs)))
    for got in (score, from_lists):
        assert got is not None
        assert got.value == expected.value
        assert repr(got.components) == repr(expected.components)
    assert score.text == expected.text
