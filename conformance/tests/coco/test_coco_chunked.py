"""The ``coco`` composite scored chunk by chunk (``engine/chunks.rows_of_lists``: CIDEr's document
frequencies as the first pass, then each chunk's BLEU, ROUGE-L, CIDEr and METEOR rows under them) gives
the rows, the corpus scores and the per-image scores of one pass over the whole corpus, bit for bit.
Under PTB (one jar batch) Python lists are tokenised by the composite in parts, each with the next
caption as context; files are chunked with one segment of lookahead (engine/test_stream_lookahead.py)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.core.errors import ToolBehaviourError
from assay.engine.api import make_config
from assay.engine.chunks import chunkable, rows_of_lists
from assay.engine import coco as coco_module
from assay.engine.coco import FAMILY as COCO
from conformance.strategies import captions

WORDS = ["a", "dog", "cat", "runs", "on", "the", "grass", "Red", "two", "sits", "A", "DOG", "dog,"]


@given(captions(WORDS, max_images=10), st.integers(1, 4), st.sampled_from([{}, {"lowercase": True}, {"tokenize": "13a"},
                                                        {"bleu_ref_length": "shortest", "rouge_beta": 2.0}]))
@settings(deadline=None, max_examples=60)
def test_chunked_composite_is_the_whole_corpus(data: tuple[list[str], list[list[Any]]], chunk: int,
                                               knobs: dict[str, Any]) -> None:
    hyps, refs = data
    config, _ = make_config("coco", "pretokenized", meteor="off", **knobs)
    assert chunkable(COCO, config)
    try:
        whole = COCO.segment_stats(hyps, refs, config)
    except ToolBehaviourError as exc:          # no reference token: pycocoevalcap's error, chunked too
        with pytest.raises(ToolBehaviourError) as info:
            rows_of_lists(COCO, config, hyps, refs, chunk_lines=chunk)
        assert info.value.tool_error == exc.tool_error
        return
    chunked = rows_of_lists(COCO, config, hyps, refs, chunk_lines=chunk)
    assert chunked.columns == whole.columns
    assert chunked.rows.tobytes() == whole.rows.tobytes()
    assert COCO.score_stats(chunked, config) == COCO.score_stats(whole, config)
    mine, one_pass = COCO.sentence_stats_scores(chunked, config), COCO.sentence_stats_scores(whole, config)
    assert mine.values.tobytes() == one_pass.values.tobytes()
    assert [mine.components(i) for i in range(len(hyps))] == [one_pass.components(i) for i in range(len(hyps))]


def test_ptb_chunks_with_lookahead_and_meteor_chunks_exactly() -> None:
    from assay.engine.chunks import reads_ahead

    ptb = make_config("coco", "pycocoevalcap", meteor="off")[0]
    assert not chunkable(COCO, ptb) and reads_ahead(COCO, ptb)
    auto = make_config("coco", "pretokenized", meteor="auto")[0]
    assert chunkable(COCO, auto) and not reads_ahead(COCO, auto)


def test_chunks_share_the_corpus_document_frequencies() -> None:
    hyps = ["a dog runs", "two cats", "a red dog", "the grass"]
    refs = [["a dog runs on grass", "two cats sit", "a dog", "green grass"], ["a dog", "cats", None, "the grass"]]
    config, _ = make_config("coco", "pretokenized", meteor="off")
    chunked = rows_of_lists(COCO, config, hyps, refs, chunk_lines=1)
    whole = COCO.segment_stats(hyps, refs, config)
    assert chunked.context["cider"]["df"].n_images == 4
    assert chunked.context["cider"]["df"].table == whole.context["cider"]["df"].table
    np.testing.assert_array_equal(chunked.rows, whole.rows)


RAW_WORDS = ["a", "dog", "The", "Inc.", "A.", "No.", "5", "we'll", "Calif.", "(", '"', "runs", "cat,", "..."]


@given(st.lists(st.tuples(st.lists(st.sampled_from(RAW_WORDS), max_size=7).map(" ".join),
                          st.lists(st.lists(st.sampled_from(RAW_WORDS), max_size=7).map(" ".join), min_size=1,
                                   max_size=4)), min_size=2, max_size=10),
       st.integers(1, 4), st.sampled_from([None, "\r", "\u2028"]), st.sampled_from([{}, {"lowercase": True}]))
@settings(deadline=None, max_examples=60)
def test_ptb_pipeline_in_chunks_is_the_whole_batch(images: list[tuple[str, list[str]]], chunk: int,
                                                   line_break: str | None, knobs: dict[str, Any]) -> None:
    """Under PTB (one jar batch) the composite tokenises and scores chunks itself, each with the next
    caption of each batch as context: the rows of one pass (a line break inside a caption: whole)."""
    if line_break is not None:
        images[-1] = (images[-1][0] + line_break + "Inc.", images[-1][1])
    hyps = [h for h, _ in images]
    refs = [[g[j] if j < len(g) else None for _, g in images] for j in range(4)]
    config, _ = make_config("coco", "pycocoevalcap", meteor="off", **knobs)
    saved = coco_module.PTB_CHUNK_IMAGES
    try:
        coco_module.PTB_CHUNK_IMAGES = 10 ** 9
        try:
            whole = COCO.segment_stats(hyps, refs, config)
        except ToolBehaviourError as exc:     # no reference token: the same error in chunks
            coco_module.PTB_CHUNK_IMAGES = chunk
            with pytest.raises(ToolBehaviourError) as info:
                COCO.segment_stats(hyps, refs, config)
            assert info.value.tool_error == exc.tool_error
            return
        coco_module.PTB_CHUNK_IMAGES = chunk
        chunked = COCO.segment_stats(hyps, refs, config)
    finally:
        coco_module.PTB_CHUNK_IMAGES = saved
    assert chunked.columns == whole.columns
    assert chunked.rows.tobytes() == whole.rows.tobytes()
    assert chunked.context["cider"]["df"].table == whole.context["cider"]["df"].table
    assert COCO.score_stats(chunked, config) == COCO.score_stats(whole, config)


def test_composite_meteor_in_chunks_equals_one_pass(monkeypatch, sample_dir):
    """The composite's METEOR is made chunk by chunk, on the PTB path's chunks too (bounded working
    set): its corpus and per-image values equal one pass over the whole corpus (the NLTK profile
    stands in for METEOR 1.5, whose jar resources the default environment lacks; chunks of 7 images,
    PTB chunks of 30)."""
    from functools import partial

    from assay.core.io import read_segments
    from assay.metrics.meteor.family import FAMILY as METEOR

    hyps = read_segments(sample_dir / "hyp.txt").lines
    streams = [read_segments(sample_dir / f"ref{k}.txt").lines for k in (1, 2)]
    monkeypatch.setattr(coco_module, "meteor_profile", lambda: "nltk")
    config = make_config("coco", "pycocoevalcap")[0]
    whole = COCO.segment_stats(hyps, streams, config)
    monkeypatch.setattr(coco_module, "rows_of_lists", partial(rows_of_lists, chunk_lines=7))
    monkeypatch.setattr(coco_module, "PTB_CHUNK_IMAGES", 30)
    chunked = COCO.segment_stats(hyps, streams, config)
    assert chunked.rows.tobytes() == whole.rows.tobytes()
    assert chunked.context["meteor"] == whole.context["meteor"] == "nltk"
    tokenised = COCO._tokenised(hyps, streams, config)
    m_config = make_config("meteor", "nltk", "corpus")[0]
    one_pass = METEOR.segment_stats(*tokenised, m_config)
    assert COCO.score_stats(whole, config)[1]["METEOR"] == METEOR.score_stats(one_pass, m_config)[0]
    per_image = [s["METEOR"] for s in map(COCO.sentence_stats_scores(whole, config).components, range(len(hyps)))]
    assert per_image == METEOR.sentence_stats_scores(one_pass, m_config).values.tolist()
