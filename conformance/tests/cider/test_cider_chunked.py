"""CIDEr rows made chunk by chunk (:func:`assay.metrics.cider.rows.chunked_rows`, for corpora of more
than ``CHUNK_IMAGES`` images, e.g. ``tokenize=ptb`` scored whole) equal the rows of one pass, to the
bit, with the same document frequencies; with or without ``idf_corpus``."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.engine.api import make_config
from assay.engine.registry import get_family
from assay.metrics.cider import family as cider_family

CAPTION = st.lists(st.sampled_from(["a", "dog", "cat", "runs", "on", "the", "grass", "red", "Inc.", "A."]),
                   max_size=9).map(" ".join)


@given(st.lists(st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=4)), min_size=1, max_size=12),
       st.integers(1, 5), st.sampled_from(["coco", "vedantam2015", "vrama91"]), st.sampled_from(["none", "ptb"]))
@settings(deadline=None, max_examples=60)
def test_chunked_rows_equal_one_pass(images: list[tuple[str, list[str]]], chunk: int, profile: str,
                                     tokenize: str) -> None:
    hyps = [h for h, _ in images]
    refs = [[g[j] if j < len(g) else None for _, g in images] for j in range(4)]
    family = get_family("cider")
    config, _ = make_config("cider", profile, no_reference_ngrams="zero", tokenize=tokenize)
    whole = family.segment_stats(hyps, refs, config)
    saved, cider_family.CHUNK_IMAGES = cider_family.CHUNK_IMAGES, chunk
    try:
        chunked = family.segment_stats(hyps, refs, config)
    finally:
        cider_family.CHUNK_IMAGES = saved
    assert chunked.rows.tobytes() == whole.rows.tobytes()
    assert chunked.context["df"].table == whole.context["df"].table
    assert chunked.context["df"].n_images == whole.context["df"].n_images


def test_chunked_rows_under_idf_corpus(tmp_path: pytest.TempPathFactory) -> None:
    df = tmp_path / "df.txt"
    df.write_text("a dog runs ||| the dog\na cat on the grass\n", encoding="utf-8")
    hyps = ["a dog runs", "the cat", "red grass", "a dog"]
    refs = [["a dog runs on grass", "the cat sits", "red red grass", "dog"], ["a dog", None, "grass", "a cat"]]
    family = get_family("cider")
    config, _ = make_config("cider", "coco", idf_corpus=str(df))
    whole = family.segment_stats(hyps, refs, config)
    saved, cider_family.CHUNK_IMAGES = cider_family.CHUNK_IMAGES, 1
    try:
        chunked = family.segment_stats(hyps, refs, config)
    finally:
        cider_family.CHUNK_IMAGES = saved
    assert chunked.rows.tobytes() == whole.rows.tobytes()
