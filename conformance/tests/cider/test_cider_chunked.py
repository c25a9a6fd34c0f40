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

# "Inc.", "A.", "No." look past the line end in a PTB batch (a part is tokenised with the caption
# after it); U+2028 shifts the wrapper's pairing of every later caption (the batch is then cut whole)
CAPTION = st.lists(st.sampled_from(["a", "dog", "cat", "runs", "on", "the", "grass", "red", "Inc.", "A.", "The",
                                    "No.", "5", "Calif.", "we'll"]),
                   max_size=9).map(" ".join)


@given(st.lists(st.tuples(CAPTION, st.lists(CAPTION, min_size=1, max_size=4)), min_size=1, max_size=12),
       st.integers(1, 5), st.sampled_from(["coco", "vedantam2015", "vrama91"]), st.sampled_from(["none", "ptb"]),
       st.sampled_from([None, "\u2028", "\r"]), st.integers(0, 60))
@settings(deadline=None, max_examples=80)
def test_chunked_rows_equal_one_pass(images: list[tuple[str, list[str]]], chunk: int, profile: str,
                                     tokenize: str, line_break: str | None, where: int) -> None:
    if line_break is not None:       # one caption with a line break (in a hypothesis or a reference)
        k = where % len(images)
        hyp, group = images[k]
        images[k] = (hyp + line_break + "Inc.", group) if where % 2 else (hyp, [line_break + group[0]] + group[1:])
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


def test_the_fold_adds_chunks_into_one_index_and_merges_leave_their_parts() -> None:
    """The engine folds first-pass parts chunk after chunk (``fold_context``): every chunk goes into
    the one index the fold made (one insertion per distinct n-gram of the chunk, never a copy of what
    the index holds), whose table is the whole corpus's. ``merge_contexts`` (Dask's merge tasks) makes
    a new index and leaves its parts as they were."""
    words = ["a", "dog", "cat", "runs", "on", "the", "grass", "red", "two"]
    hyps = [" ".join(words[(i * 7 + j) % 9] for j in range(3)) for i in range(37)]
    refs = [[" ".join(words[(i * k + j) % 9] for j in range(2 + k % 3)) for i in range(37)] for k in (1, 2, 5)]
    family = get_family("cider")
    config, _ = make_config("cider", "coco")
    whole = family.context_part(hyps, refs, config).table
    merged = None
    parts = []
    for i in range(37):
        part = family.context_part(hyps[i:i + 1], [s[i:i + 1] for s in refs], config)
        parts.append(part)
        before = part.table.as_dict()
        merged = family.fold_context(merged, part, config)
        if i == 0:
            index = merged.grams
        assert merged.grams is index and merged.n_images == i + 1
        assert part.table.as_dict() == before
    assert merged.table == whole
    assert family.finish_context(merged, config)["df"].n_images == 37
    left = family.merge_contexts(parts[:20], config)
    right = family.merge_contexts(parts[20:], config)
    snapshot = left.table.as_dict()
    both = family.merge_contexts([left, right], config)
    assert both.grams is not left.grams and left.table.as_dict() == snapshot
    assert both.table == whole and both.n_images == 37
