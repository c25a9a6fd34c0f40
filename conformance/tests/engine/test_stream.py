"""Chunked reading and scoring (assay.core.segment_stream, assay.engine.stream) equal whole-file reading.

Expected values here are assay's own whole-corpus path, which the golden and differential suites
tie to the reference tools: these tests only prove that chunking changes nothing."""
from __future__ import annotations

import codecs
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from assay.core import segment_stream
from assay.core.errors import InputError, ToolBehaviourError
from assay.core.io import read_segments
from assay.engine import api, stream

LINE_PIECES = st.sampled_from(["a", "b c", "\r", "\x00", "\x1b", "é", "\u2028", "\x85", " ", "ü", "\t", "x" * 40])
LINES = st.lists(st.lists(LINE_PIECES, max_size=6).map("".join), min_size=0, max_size=30)


def _write(tmp: Path, name: str, data: bytes) -> Path:
    path = tmp / name
    path.write_bytes(data)
    return path


@settings(max_examples=150, deadline=None)
@given(lines=LINES, crlf=st.booleans(), terminated=st.booleans(), bom=st.booleans(),
       encoding=st.sampled_from(["utf-8", "utf-8-sig"]), block=st.integers(1, 64), chunk=st.integers(1, 9))
def test_chunks_equal_whole_file_reading(tmp_path_factory, monkeypatch_session, lines, crlf, terminated, bom,
                                         encoding, block, chunk):
    tmp = tmp_path_factory.mktemp("chunks")
    sep = "\r\n" if crlf else "\n"
    text = sep.join(lines) + (sep if terminated and lines else "")
    data = (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8")
    path = _write(tmp, "f.txt", data)
    monkeypatch_session.setattr(segment_stream, "BLOCK_BYTES", block)
    try:
        whole = read_segments(path, encoding=encoding)
    except InputError as exc:
        with pytest.raises(InputError) as caught:
            segment_stream.survey(path, encoding=encoding)
        assert str(caught.value) == str(exc)
        return
    surveyed = segment_stream.survey(path, encoding=encoding)
    tally = segment_stream.ControlTally()
    chunks = list(segment_stream.iter_chunks(path, encoding=encoding, chunk_lines=chunk, controls=tally))
    got = [ln for _, part in chunks for ln in part]
    assert got == whole.lines
    assert [first for first, _ in chunks] == list(range(1, len(got) + 1, chunk))
    assert surveyed.n_lines == len(whole.lines)
    assert surveyed.terminated == whole.terminated and surveyed.bom == whole.bom
    assert tally.result() == whole.control


@pytest.fixture(scope="session")
def monkeypatch_session():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_invalid_utf8_in_a_later_block_names_the_file_line_and_offset(tmp_path, monkeypatch):
    data = b"one\ntwo\nthr\xffee\nfour\n"
    path = _write(tmp_path, "bad.txt", data)
    with pytest.raises(InputError) as whole:
        read_segments(path)
    monkeypatch.setattr(segment_stream, "BLOCK_BYTES", 5)
    with pytest.raises(InputError) as chunked:
        list(segment_stream.iter_chunks(path, chunk_lines=1))
    assert str(chunked.value) == str(whole.value)
    assert "bad.txt:3:" in str(chunked.value) and "byte offset 11" in str(chunked.value)


@pytest.mark.parametrize("metric,profile", [("bleu", None), ("bleu", "nltk"), ("chrf", None), ("chrf", "sacrebleu-chrf++"),
                                            ("ter", None), ("rouge", None), ("rouge", "rouge-1.5.5"), ("meteor", "meteor-1.5"),
                                            ("meteor", "nltk")])
@pytest.mark.parametrize("sentence", [False, True])
def test_chunked_scores_equal_whole_corpus_scores(sample_dir, metric, profile, sentence):
    hyp = sample_dir / "hyp.txt"
    refs = [sample_dir / "ref1.txt", sample_dir / "ref2.txt"]
    configured = api.configure(metric, profile, "sentence" if sentence else "corpus")
    whole_hyps = read_segments(hyp).lines
    whole_refs = [read_segments(r).lines for r in refs]
    emitted: list = []
    score, _ = stream.score_files(configured, str(hyp), [str(r) for r in refs], sentence=sentence,
                                  chunk_lines=7, emit=emitted.append)
    if sentence:
        expected = api.sentence_scores_configured(configured, whole_hyps, whole_refs)
        assert [s.text for s in emitted] == [s.text for s in expected]
        assert [s.value for s in emitted] == [s.value for s in expected]
    else:
        expected = api.score_configured(configured, whole_hyps, whole_refs)
        assert score.value == expected.value and score.text == expected.text


def test_segment_errors_are_numbered_by_file_line(tmp_path):
    lines = ["a b c"] * 20
    lines[14] = ""
    hyp = _write(tmp_path, "hyp.txt", ("\n".join(lines) + "\n").encode())
    ref = _write(tmp_path, "ref.txt", ("\n".join(["a b d"] * 20) + "\n").encode())
    configured = api.configure("rouge", None, "corpus", empty_document="error")
    with pytest.raises(InputError, match=r"^document 15: "):
        stream.score_files(configured, str(hyp), [str(ref)], chunk_lines=4)


def test_line_count_mismatch_fails_before_scoring(tmp_path):
    hyp = _write(tmp_path, "hyp.txt", b"a\nb\nc\n")
    ref = _write(tmp_path, "ref.txt", b"a\nb\n")
    configured = api.configure("bleu")
    with pytest.raises(InputError, match="line counts differ: .*hyp.txt has 3 lines but .*ref.txt has 2"):
        stream.score_files(configured, str(hyp), [str(ref)])


def test_what_is_read_whole():
    """Standard input is read whole; a configuration whose tokens depend on the next line (CIDEr and the
    COCO composite under PTB) is read in chunks with one segment of lookahead (test_stream_lookahead.py)."""
    assert not stream.streamable(api.configure("bleu"), ["-", "r"])
    assert not stream.streamable(api.configure("coco"), ["-", "r"])
    assert stream.streamable(api.configure("coco"), ["h", "r"])
    assert stream.streamable(api.configure("cider", tokenize="ptb"), ["h", "r"])
    assert stream.streamable(api.configure("bleu"), ["h", "r"])
    assert stream.streamable(api.configure("nist"), ["h", "r"])
    assert stream.streamable(api.configure("cider", tokenize="none"), ["h", "r"])


@pytest.mark.parametrize("metric,profile,knobs", [("nist", None, {}), ("nist", "nltk", {}),
                                                  ("cider", None, {"tokenize": "none"}),
                                                  ("cider", None, {"tokenize": "13a", "lowercase": True})])
@pytest.mark.parametrize("sentence", [False, True])
def test_corpus_pass_families_in_two_passes_equal_whole_corpus(sample_dir, metric, profile, knobs, sentence):
    hyp = sample_dir / "hyp.txt"
    refs = [sample_dir / "ref1.txt", sample_dir / "ref2.txt"]
    configured = api.configure(metric, profile, "sentence" if sentence else "corpus", **knobs)
    whole_hyps = read_segments(hyp).lines
    whole_refs = [read_segments(r).lines for r in refs]
    emitted: list = []
    if sentence:
        try:
            expected = api.sentence_scores_configured(configured, whole_hyps, whole_refs)
        except ToolBehaviourError as exc:    # NLTK's sentence_nist fails on a segment without 3-grams
            with pytest.raises(ToolBehaviourError, match=re.escape(str(exc))):
                stream.score_files(configured, str(hyp), [str(r) for r in refs], sentence=True, chunk_lines=7,
                                   emit=emitted.append)
            return
        stream.score_files(configured, str(hyp), [str(r) for r in refs], sentence=True, chunk_lines=7,
                           emit=emitted.append)
        assert [s.value for s in emitted] == [s.value for s in expected]
    else:
        score, _ = stream.score_files(configured, str(hyp), [str(r) for r in refs], chunk_lines=7)
        expected = api.score_configured(configured, whole_hyps, whole_refs)
        assert score.value == expected.value and score.text == expected.text


def _every_profile() -> list[tuple[str, str]]:
    from assay.core.family import METRIC_NAMES
    from assay.profiles.registry import profiles_of

    return [(m, p.name) for m in METRIC_NAMES if m != "coco" for p in profiles_of(m)]


@pytest.mark.parametrize("metric,profile", _every_profile())
@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_api_lists_in_chunks_give_the_whole_corpus_rows(sample_dir, metric, profile, level):
    """``chunks.rows_of_lists`` (the API's path for corpora longer than a chunk) gives every profile
    the rows of one call on the whole corpus, or the same error with the same segment number."""
    from assay.engine import chunks

    configured = api.configure(metric, profile, level)
    n_refs = configured.profile.max_refs or 2
    hyps = read_segments(sample_dir / "hyp.txt").lines
    streams = [read_segments(sample_dir / f"ref{k}.txt").lines for k in range(1, n_refs + 1)]
    family, config = configured.family, configured.config
    try:
        whole = family.segment_stats(hyps, streams, config)
    except (InputError, ToolBehaviourError) as exc:
        with pytest.raises(type(exc), match=re.escape(str(exc))):
            chunks.rows_of_lists(family, config, hyps, streams, chunk_lines=7)
        return
    chunked = chunks.rows_of_lists(family, config, hyps, streams, chunk_lines=7)
    assert chunks.chunkable(family, config) == family.chunks_exactly(config)
    assert chunked.columns == whole.columns
    assert chunked.rows.dtype == whole.rows.dtype
    assert np.array_equal(chunked.rows, whole.rows, equal_nan=True)


def test_api_chunk_errors_are_numbered_by_segment():
    from assay.engine import chunks

    hyps = ["a b c"] * 20
    hyps[14] = ""
    configured = api.configure("rouge", None, "corpus", empty_document="error")
    with pytest.raises(InputError, match=r"^document 15: "):
        chunks.rows_of_lists(configured.family, configured.config, hyps, [["a b d"] * 20], chunk_lines=4)
