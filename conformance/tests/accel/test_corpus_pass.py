"""The corpus-pass protocol of NIST and CIDEr (``MetricFamily.context_part`` / ``merge_contexts`` /
``finish_context``, core/family.py).

For any split of a corpus into chunks (empty ones too) and any grouping of the merges, the rows of
each chunk under ``finish_context(merge_contexts([context_part(chunk) ...]))``, stacked, are the
rows of ``segment_stats`` on the whole corpus, bit for bit, and so is the score; the context
survives pickling (Dask ships it to workers); a part holds exactly the distinct reference n-grams
of its chunk (16 bytes each) with their counts (NIST) or document frequencies (CIDEr).
"""
from __future__ import annotations

import json
import pickle
from collections import Counter
from typing import Any, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.core.errors import KnobError, ToolBehaviourError
from assay.core.stats import SegmentStats
from assay.engine.api import make_config
from assay.engine.registry import get_family
from conformance.strategies import captions, corpus

PROFILES = [("nist", "mteval-v13a", {}), ("nist", "nltk", {}), ("nist", "mteval-v13a", {"max_ngram_order": 3}),
            ("cider", "coco", {}), ("cider", "vedantam2015", {}), ("cider", "vrama91", {}),
            ("cider", "coco", {"max_ngram_order": 2, "length_unit": "words"})]
CAPTION_WORDS = ["a", "dog", "cat", "runs", "on", "the", "grass", "red", "two", "sits"]


@st.composite
def splits(draw: st.DrawFn, n: int) -> list[tuple[int, int]]:
    """Chunk bounds covering 0..n (repeated cuts give empty chunks)."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=5)))
    edges = [0] + cuts + [n]
    return list(zip(edges[:-1], edges[1:]))


@st.composite
def merge_trees(draw: st.DrawFn, n_parts: int) -> Any:
    """A random grouping of the parts 0..n_parts-1 (nested lists of consecutive indices)."""
    def tree(lo: int, hi: int) -> Any:
        if hi - lo == 1:
            return lo
        k = draw(st.integers(lo + 1, hi - 1))
        return [tree(lo, k), tree(k, hi)] if draw(st.booleans()) else list(range(lo, hi))
    return tree(0, n_parts)


def _merged(family: Any, parts: Sequence[Any], tree: Any, config: Any) -> Any:
    if isinstance(tree, int):
        return family.merge_contexts([parts[tree]], config)
    return family.merge_contexts([_merged(family, parts, t, config) if isinstance(t, list) else parts[t]
                                  for t in tree], config)


def _chunked(metric: str, hyps: list[Any], refs: list[list[Any]], config: Any, bounds: list[tuple[int, int]],
             tree: Any) -> SegmentStats:
    family = get_family(metric)
    parts = [family.context_part(hyps[a:b], [s[a:b] for s in refs], config) for a, b in bounds]
    context = family.finish_context(_merged(family, parts, tree, config), config)
    context = pickle.loads(pickle.dumps(context))
    blocks = [family.segment_stats(hyps[a:b], [s[a:b] for s in refs], config, context) for a, b in bounds if b > a]
    return SegmentStats(blocks[0].columns, np.vstack([b.rows for b in blocks]), blocks[0].context)


def _check(metric: str, profile: str, knobs: dict[str, Any], hyps: list[Any], refs: list[list[Any]],
           bounds: list[tuple[int, int]], tree: Any) -> None:
    family = get_family(metric)
    config, _ = make_config(metric, profile, **knobs)
    try:
        whole = family.segment_stats(hyps, refs, config)
    except ToolBehaviourError as exc:
        with pytest.raises(ToolBehaviourError) as info:
            _chunked(metric, hyps, refs, config, bounds, tree)
        assert info.value.tool_error == exc.tool_error
        return
    chunked = _chunked(metric, hyps, refs, config, bounds, tree)
    assert chunked.columns == whole.columns
    np.testing.assert_array_equal(chunked.rows, whole.rows)
    try:
        expected = family.score_stats(whole, config)
    except ToolBehaviourError:
        return
    assert family.score_stats(chunked, config) == expected


@given(corpus(max_segments=8, max_refs=3), st.sampled_from(PROFILES), st.data())
@settings(deadline=None)
def test_chunked_rows_are_the_whole_corpus_rows(data: tuple[list[str], list[list[str]]], pick: tuple, draw: Any
                                                ) -> None:
    hyps, refs = data
    metric, profile, knobs = pick
    bounds = draw.draw(splits(len(hyps)))
    _check(metric, profile, {"tokenize": "none", **knobs} if metric == "nist" else knobs, hyps, refs, bounds,
           draw.draw(merge_trees(len(bounds))))


@given(captions(CAPTION_WORDS), st.sampled_from(["coco", "vedantam2015"]), st.sampled_from(["none", "ptb"]),
       st.data())
@settings(deadline=None)
def test_cider_missing_references_and_ptb(data: tuple, profile: str, tokenize: str, draw: Any) -> None:
    """Images with fewer references; PTB tokenisation (exact here: plain words do not look across lines)."""
    hyps, refs = data
    bounds = draw.draw(splits(len(hyps)))
    _check("cider", profile, {"tokenize": tokenize}, hyps, refs, bounds, draw.draw(merge_trees(len(bounds))))


@pytest.fixture(scope="module")
def idf_files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("idf")
    table = folder / "df.json"
    table.write_text(json.dumps({"format": "assay-cider-df/1", "n_images": 50,
                                 "df": {"a": 40, "dog": 7, "a dog": 5, "the grass": 3, "on the grass": 2, "cat": 50}}),
                     encoding="utf-8")
    lines = folder / "refs.txt"
    lines.write_text("a dog runs ||| the cat sits\ntwo red dogs on the grass\n\na cat ||| a dog\n", encoding="utf-8")
    return [str(table), str(lines)]


@given(captions(CAPTION_WORDS), st.sampled_from([0, 1]), st.data())
@settings(deadline=None, max_examples=30)
def test_cider_idf_corpus(idf_files: list[str], data: tuple, which: int, draw: Any) -> None:
    """With ``idf_corpus`` the parts carry no table and the context is the loaded one."""
    hyps, refs = data
    bounds = draw.draw(splits(len(hyps)))
    config, _ = make_config("cider", "coco", idf_corpus=idf_files[which])
    assert all(get_family("cider").context_part(hyps[a:b], [s[a:b] for s in refs], config).table is None
               for a, b in bounds)
    _check("cider", "coco", {"idf_corpus": idf_files[which]}, hyps, refs, bounds, draw.draw(merge_trees(len(bounds))))


def _ngrams(tokens: Sequence[str], max_order: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for n in range(1, max_order + 1) for i in range(len(tokens) - n + 1)]


@given(corpus(max_segments=6, max_refs=3))
@settings(deadline=None, max_examples=50)
def test_a_part_holds_the_distinct_reference_ngrams(data: tuple[list[str], list[list[str]]]) -> None:
    """NIST: every reference n-gram with its count; CIDEr: with its number of images; 16 bytes each."""
    hyps, refs = data
    config, _ = make_config("nist", "mteval-v13a", tokenize="none", lowercase=False)
    part = get_family("nist").context_part(hyps, refs, config)
    counts = Counter(g for stream in refs for r in stream for g in _ngrams(r.split(), 5))
    assert part.table.as_dict() == dict(counts)
    assert part.ref_words == sum(len(r.split()) for stream in refs for r in stream)
    config, _ = make_config("cider", "coco")
    part = get_family("cider").context_part(hyps, refs, config)
    df = Counter(g for i in range(len(hyps)) for g in {g for stream in refs for g in _ngrams(stream[i].split(), 4)})
    assert part.table.as_dict() == dict(df)
    assert part.n_images == len(hyps)
    if len(part.table):
        assert part.table.nbytes == 16 * len(part.table)


def test_parts_merge_whatever_the_grouping() -> None:
    hyps = ["a dog runs", "the cat sits on the grass", "two red dogs", "a cat", "a dog on the grass"]
    refs = [["a dog runs fast", "a cat sits on the grass", "two dogs", "the cat", "a red dog on grass"],
            ["the dog runs", None, "two red dogs run", None, "dogs on the grass"]]
    for metric in ("nist", "cider"):
        family = get_family(metric)
        config, _ = make_config(metric, None, **({"tokenize": "none"} if metric == "nist" else {}))
        streams = [[r or "" for r in s] for s in refs] if metric == "nist" else refs
        parts = [family.context_part(hyps[i:i + 1], [s[i:i + 1] for s in streams], config) for i in range(5)]
        left = family.merge_contexts([family.merge_contexts(parts[:2], config), *parts[2:]], config)
        right = family.merge_contexts([*parts[:3], family.merge_contexts(parts[3:], config)], config)
        whole = family.context_part(hyps, streams, config)
        assert left.table == right.table == whole.table
        empty = family.merge_contexts([], config).table
        assert empty is None or empty.as_dict() == {}


def test_a_context_of_another_order_is_refused() -> None:
    hyps, refs = ["a dog runs"], [["a dog runs fast"]]
    for metric in ("nist", "cider"):
        family = get_family(metric)
        config, _ = make_config(metric, None)
        other, _ = make_config(metric, None, max_ngram_order=2)
        context = family.finish_context(family.merge_contexts([family.context_part(hyps, refs, other)], other), other)
        with pytest.raises(KnobError, match="another max_ngram_order"):
            family.segment_stats(hyps, refs, config, context)
