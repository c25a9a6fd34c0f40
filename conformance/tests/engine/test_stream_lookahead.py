"""Files under PTB tokenisation scored chunk by chunk with one segment of lookahead equal the whole corpus.

pycocoevalcap's PTBTokenizer runs the jar once over a batch, and the jar reads one line ahead (a
sentence-final abbreviation before a capital, ``No.`` before a number). ``assay score`` reads files in
chunks (engine/stream.py ``shard_segments``): each chunk comes with the segment after it (the next
chunk's first, or the next non-empty shard's first), which the family tokenises as context and drops
(``MetricFamily.chunks_with_lookahead``). A caption holding a line break other than ``\\n`` in a chunk
that more text follows shifts every later caption (KD-PTB-02): the first pass finds it and the corpus
is scored whole. Expected values are assay's own whole-corpus path (tied to the jar by the golden and
differential suites): these tests prove the chunking changes nothing, and that they would see it if
the lookahead were missing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.core.errors import AssayError, UnchunkableInput
from assay.core.score import SentenceScores
from assay.engine import api, stream
from assay.engine import coco as coco_module
from assay.metrics.cider import context as cider_context, family as cider_family

#: words whose PTB tokens depend on the next line (abbreviations, ``No.``) and the words that trigger it
WORDS = ["a", "dog", "The", "He", "Inc.", "Calif.", "A.", "U.S.", "No.", "5", "we'll", "(", '"', "runs", "cat,", "..."]
CONFIGS = [("cider", "coco", {"tokenize": "ptb"}), ("coco", "pycocoevalcap", {"meteor": "off"}),
           ("coco", "pycocoevalcap", {"lowercase": True, "meteor": "off"})]
CAPTION = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)


def _write_shards(tmp: Path, name: str, lines: list[str], cuts: list[int]) -> list[str]:
    paths = []
    for k, (a, b) in enumerate(zip(cuts, cuts[1:])):
        path = tmp / f"{name}-{k:02d}.txt"
        path.write_text("".join(line + "\n" for line in lines[a:b]), encoding="utf-8")
        paths.append(str(path))
    return paths


def _files(tmp: Path, hyps: list[str], refs: list[list[str]], cuts: list[int]) -> tuple[list[str], list[list[str]]]:
    return _write_shards(tmp, "hyp", hyps, cuts), [_write_shards(tmp, f"ref{j}", r, cuts) for j, r in enumerate(refs)]


def _scores(configured: api.Configured, files: tuple[list[str], list[list[str]]], chunk_lines: int) -> Any:
    """The files scored in chunks: the Score, or (sentence level) the list of every Score."""
    if configured.level == "sentence":
        emitted: list = []
        stream.score_files(configured, *files, chunk_lines=chunk_lines, emit=emitted.append, sentence=True)
        return emitted
    return stream.score_files(configured, *files, chunk_lines=chunk_lines)[0]


@given(images=st.lists(st.tuples(CAPTION, st.lists(CAPTION, min_size=2, max_size=2)), min_size=2, max_size=14),
       chunk=st.integers(1, 5), cut_points=st.lists(st.integers(0, 14), max_size=3),
       case=st.sampled_from(CONFIGS), sentence=st.booleans())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_chunks_with_lookahead_equal_the_whole_corpus(tmp_path_factory, images, chunk, cut_points, case, sentence):
    """Any chunk size, any shard cuts (empty shards too): the Scores of the whole corpus, bit for bit."""
    hyps = [h for h, _ in images]
    refs = [[g[j] for _, g in images] for j in range(2)]
    cuts = [0, *sorted(min(c, len(hyps)) for c in cut_points), len(hyps)]
    files = _files(tmp_path_factory.mktemp("la"), hyps, refs, cuts)
    metric, profile, knobs = case
    configured = api.configure(metric, profile, "sentence" if sentence else "corpus", **knobs)
    assert stream.streamable(configured, ["h", "r"])
    whole = (api.sentence_scores_configured if sentence else api.score_configured)
    assert _outcome(lambda: _scores(configured, files, chunk)) == _outcome(lambda: whole(configured, hyps, refs))


def _outcome(run: Any) -> Any:
    """The Scores' JSON, or the error raised (class and message: no reference token is the tool's error)."""
    try:
        got = run()
    except AssayError as exc:
        return type(exc), str(exc)
    return [s.to_json() for s in got] if isinstance(got, (list, SentenceScores)) else got.to_json()


#: chunks of 2 end after hypothesis ``a cat No.`` (the next line is a number: ``no.`` stays one token, and
#: matches its reference) and after reference ``he says we'll`` (not the end of the jar's input: ``we 'll``,
#: as in its hypothesis), so each batch's tokens change without the lookahead.
BOUNDARY_HYPS = ["a dog", "a cat No.", "5 cats", "he says we'll go", "The dog", "He sits"]
BOUNDARY_REFS = [["a dog", "a cat No.", "five cats", "he says", "The dog", "He sits"],
                 ["dog", "5 cats", "cats", "he says we'll", "The dog runs", "he sits"]]


@pytest.mark.parametrize("metric,profile,knobs", CONFIGS[:2])
def test_the_lookahead_is_what_makes_chunks_exact(tmp_path, monkeypatch, metric, profile, knobs):
    """On captions whose tokens change with the next line, chunks of 2 equal the whole corpus, and
    would not if the next segment were dropped (the test sees a missing lookahead)."""
    files = _files(tmp_path, BOUNDARY_HYPS, BOUNDARY_REFS, [0, 6])
    configured = api.configure(metric, profile, "corpus", **knobs)
    expected = api.score_configured(configured, BOUNDARY_HYPS, BOUNDARY_REFS).to_json()
    assert _scores(configured, files, 2).to_json() == expected
    for module in (cider_family, cider_context, coco_module):     # no lookahead: the next caption dropped
        monkeypatch.setattr(module, "split_next",
                            lambda hyps, refs: (hyps[:-1], [s[:-1] for s in refs], (None, None)))
    assert _scores(configured, files, 2).to_json() != expected


@pytest.mark.parametrize("metric,profile,knobs", CONFIGS[:2])
@pytest.mark.parametrize("where,whole", [(0, True), (3, True), (4, False), (5, False)])
@pytest.mark.parametrize("side", ["hyp", "ref"])
def test_a_line_break_inside_a_caption_scores_the_corpus_whole(tmp_path, monkeypatch, metric, profile, knobs,
                                                                where, whole, side):
    """``\\r`` or U+2028 in a caption shifts every later caption's output line (KD-PTB-02): in a chunk that
    more text follows, the corpus is read whole (the first pass finds it before any row); in the last
    chunk, the chunks stay exact. Either way the whole corpus's Scores."""
    hyps, refs = list(BOUNDARY_HYPS), [list(r) for r in BOUNDARY_REFS]
    if side == "hyp":
        hyps[where] += "\u2028Inc."
    else:
        refs[1][where] += "\rThe"
    files = _files(tmp_path, hyps, refs, [0, 6])
    read_whole: list[int] = []
    original = stream.score_whole
    monkeypatch.setattr(stream, "score_whole", lambda *a, **k: read_whole.append(1) or original(*a, **k))
    for level in ("corpus", "sentence"):
        configured = api.configure(metric, profile, level, **knobs)
        got = _scores(configured, files, 2)
        if level == "corpus":
            assert got.to_json() == api.score_configured(configured, hyps, refs).to_json()
        else:
            assert [s.to_json() for s in got] == [s.to_json() for s in api.sentence_scores_configured(
                configured, hyps, refs)]
    assert len(read_whole) == (2 if whole else 0)


def test_a_line_break_is_an_error_where_the_corpus_cannot_be_read_whole(tmp_path):
    """The first pass of a chunk that more text follows raises it (a sharded engine reports it)."""
    from assay.engine.chunks import merged_context

    configured = api.configure("cider", "coco", "corpus", tokenize="ptb")
    chunk = (0, ["a dog\rThe", "cat"], [["a dog", "The cat"]], "", True)
    with pytest.raises(UnchunkableInput, match=r"line break other than \\n .*KD-PTB-02"):
        merged_context(configured.family, configured.config, [chunk])
