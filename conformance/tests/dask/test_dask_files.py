"""``--engine dask`` on sharded files gives the single-process Scores exactly (issue 19).

Expected values are assay's own single-process path on the whole files, which the golden and
differential suites tie to the reference tools: these tests prove that sharding and the Dask reduce
change nothing (values, text, components: ``Score.to_json()``), on a real LocalCluster of 2 worker
processes (conftest.py). The shards of fixtures/report_sample include an empty one, a one-line one
and a gzipped one.
"""
from __future__ import annotations

import os
import signal
import socket
import threading
import time
from pathlib import Path

import pytest

from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.engine import api, stream
from assay.engine.dask_engine import files, reduce
from assay.engine.dask_engine.parts import Part

from conformance.tests.dask.conftest import split

# (metric, profile, knobs, reference streams used, the reduce it takes): every streamed family
CORPUS_CASES = [
    ("bleu", None, {}, 2, "sums"),
    ("bleu", "nltk", {}, 2, "sums"),
    ("bleu", "nltk", {"smoothing": "method7"}, 2, "rows"),          # reads the last row
    ("bleu", "mteval-v13a", {"ref_length": "average"}, 2, "sums"),  # halves: still exact sums
    ("chrf", None, {}, 2, "sums"),
    ("chrf", "sacrebleu-chrf++", {}, 2, "sums"),
    ("chrf", "nltk", {}, 1, "rows"),                                # summed sentence scores: not exact
    ("ter", None, {}, 2, "sums"),                                   # averages over 2 references: halves
    ("rouge", None, {}, 2, "rows"),                                 # reads every row
    ("rouge", "rouge-1.5.5", {}, 1, "rows"),
    ("meteor", "nltk", {}, 2, "rows"),
]


@pytest.fixture
def gathered(monkeypatch):
    """How many times the reduce gathered rows (instead of scoring exact sums)."""
    calls: list[int] = []
    original = reduce._gathered

    def spy(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(reduce, "_gathered", spy)
    return calls


def _whole(configured: api.Configured, sharded, n_refs: int, sentence: bool):
    hyps, refs = sharded.lines()
    if sentence:
        return api.sentence_scores_configured(configured, hyps, refs[:n_refs])
    return api.score_configured(configured, hyps, refs[:n_refs])


@pytest.mark.parametrize("metric,profile,knobs,n_refs,reduced", CORPUS_CASES,
                         ids=[f"{m}-{p}-{'-'.join(map(str, k.values()))}" for m, p, k, _, _ in CORPUS_CASES])
def test_corpus_scores_equal_the_single_process_scores(session, report_shards, gathered, metric, profile, knobs,
                                                       n_refs, reduced):
    configured = api.configure(metric, profile, "corpus", **knobs)
    expected = _whole(configured, report_shards, n_refs, False)
    refs = report_shards.ref_shards[:n_refs]
    single, _ = stream.score_files(configured, report_shards.hyp_shards, refs, chunk_lines=17)
    scored, notes = files.score_shards(session, configured, report_shards.hyp_shards, refs, chunk_lines=17)
    assert scored.to_json() == single.to_json() == expected.to_json()
    assert scored.value == expected.value          # bit for bit (to_json compares floats with ==, too)
    assert [n.path for n in notes] == [p for shard in zip(report_shards.hyp_shards, *refs) for p in shard]
    assert len(gathered) == (reduced == "rows")


@pytest.mark.parametrize("metric,profile", [("bleu", None), ("chrf", None), ("ter", None), ("rouge", None),
                                            ("meteor", "nltk")])
def test_sentence_scores_equal_the_single_process_scores(session, report_shards, metric, profile):
    configured = api.configure(metric, profile, "sentence")
    expected = _whole(configured, report_shards, 2, True)
    emitted: list = []
    assert files.score_shards(session, configured, report_shards.hyp_shards, report_shards.ref_shards,
                              sentence=True, emit=emitted.append)[0] is None
    assert [s.to_json() for s in emitted] == [s.to_json() for s in expected]


def test_sums_that_are_not_exact_in_every_shard_are_gathered(session, tmp_path, gathered, monkeypatch):
    """TER with 3 references averages lengths by 3: shards whose averages are whole numbers reduce to
    exact sums, the others keep their rows; the mixed corpus is gathered (the exact shards' rows are
    made again), and scores as one process does."""
    lines = [f"w{i} x y z" + " q" * (i % 5) for i in range(60)]
    hyp = tmp_path / "hyp"
    hyp.mkdir()
    streams = [tmp_path / f"r{k}" for k in range(3)]
    for s in streams:
        s.mkdir()
    for shard in range(4):
        part = lines[shard * 15:(shard + 1) * 15]
        (hyp / f"{shard}.txt").write_text("\n".join(f"{ln} extra" for ln in part) + "\n")
        for k, s in enumerate(streams):
            # shards 0 and 2: three equal references (whole averages); 1 and 3: lengths L, L, L+1
            tail = " more" if shard % 2 and k == 2 else ""
            (s / f"{shard}.txt").write_text("\n".join(ln + tail for ln in part) + "\n")
    hyp_files = sorted(str(p) for p in hyp.iterdir())
    ref_files = [sorted(str(p) for p in s.iterdir()) for s in streams]
    configured = api.configure("ter")
    stages: list[str] = []
    submit = session.submit
    monkeypatch.setattr(session, "submit", lambda *a, stage, **k: stages.append(stage) or submit(*a, stage=stage, **k))
    single, _ = stream.score_files(configured, hyp_files, ref_files)
    scored, _ = files.score_shards(session, configured, hyp_files, ref_files)
    assert gathered and stages.count("rows-rows") == 2      # shards 0 and 2 made again, with their rows
    assert scored.to_json() == single.to_json()
    assert scored.value == single.value


def test_the_first_failing_shard_is_reported_as_one_process_reports_it(session, tmp_path):
    configured = api.configure("rouge", None, "corpus", empty_document="error")
    hyp_files, ref_files = [], []
    for shard in range(3):
        lines = ["a b c"] * 10
        if shard:
            lines[4 + shard] = ""                      # shard 1 line 6, shard 2 line 7
        h, r = tmp_path / f"h{shard}.txt", tmp_path / f"r{shard}.txt"
        h.write_text("\n".join(lines) + "\n")
        r.write_text("a b d\n" * 10)
        hyp_files.append(str(h))
        ref_files.append(str(r))
    with pytest.raises(InputError) as single:
        stream.score_files(configured, hyp_files, [ref_files], chunk_lines=4)
    with pytest.raises(InputError) as scored:
        files.score_shards(session, configured, hyp_files, [ref_files], chunk_lines=4)
    assert str(scored.value) == str(single.value)
    assert str(scored.value).startswith(f"{hyp_files[1]}: document 6: ")


def test_tool_failures_keep_their_class_and_tool_error(session, tmp_path):
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("a b\n")
    r.write_text("a b\n")
    configured = api.configure("bleu", "d2l@2021")
    with pytest.raises(ToolBehaviourError) as caught:
        files.score_shards(session, configured, [str(h)], [[str(r)]])
    assert caught.value.tool_error == "ZeroDivisionError"


def test_line_counts_are_checked_shard_by_shard_before_scoring(session, report_shards, tmp_path):
    other = split(Path(report_shards.hyp).parent, ("hyp", "ref1"), tmp_path, cuts=(0, 100, 300))
    with pytest.raises(InputError, match="reference stream 1 has 2 file"):
        files.score_shards(session, api.configure("bleu"), report_shards.hyp_shards, other.ref_shards)
    Path(other.ref_shards[0][1]).write_text("just one line\n")
    with pytest.raises(InputError, match=r"line counts differ: .*part-01.txt has 200 lines but .*part-01.txt has 1"):
        files.score_shards(session, api.configure("bleu"), other.hyp_shards, other.ref_shards)


def test_corpus_pass_families_without_a_distributed_first_pass_are_a_knob_error(session, report_shards):
    from assay.engine.dask_engine import tasks

    for metric in ("nist", "cider"):
        configured = api.configure(metric)
        if tasks.has_corpus_pass(configured.family):
            continue                                   # implemented: scored like the others
        with pytest.raises(KnobError, match=f"{metric}: --engine dask needs the family's first pass"):
            files.score_shards(session, configured, report_shards.hyp_shards, report_shards.ref_shards)


def test_corpus_pass_families_that_have_a_first_pass_equal_one_process(session, report_shards):
    from assay.engine.dask_engine import tasks

    for metric in ("nist", "cider"):
        configured = api.configure(metric)
        if not tasks.has_corpus_pass(configured.family):
            continue
        expected = _whole(configured, report_shards, 2, False)
        scored, _ = files.score_shards(session, configured, report_shards.hyp_shards, report_shards.ref_shards,
                                       chunk_lines=17)
        assert scored.to_json() == expected.to_json()


@pytest.mark.parametrize("metric,profile,knobs", [("cider", "coco", {"tokenize": "ptb"}),
                                                  ("coco", "pycocoevalcap", {"meteor": "off"})])
def test_ptb_reads_the_next_shards_first_segment(session, tmp_path, metric, profile, knobs):
    """Under PTB a shard's last chunk is tokenised with the next non-empty shard's first segment as the
    jar's next line (shards end after ``No.`` before a number and after ``we'll``: both change without
    it), as one process does: the whole corpus's Score. A line break inside a caption that more text
    follows needs the batch whole: an error naming it (one process reads such a corpus whole)."""
    from conformance.tests.engine.test_stream_lookahead import BOUNDARY_HYPS, BOUNDARY_REFS, _files

    configured = api.configure(metric, profile, "corpus", **knobs)
    expected = api.score_configured(configured, BOUNDARY_HYPS, BOUNDARY_REFS).to_json()
    hyps, refs = _files(tmp_path, BOUNDARY_HYPS, BOUNDARY_REFS, [0, 2, 2, 4, 6])
    for chunk_lines in (1, 17):
        scored, _ = files.score_shards(session, configured, hyps, refs, chunk_lines=chunk_lines)
        assert scored.to_json() == expected
    broken = tmp_path / "broken"
    broken.mkdir()
    hyps, refs = _files(broken, ["a dog\rThe", *BOUNDARY_HYPS[1:]], BOUNDARY_REFS, [0, 2, 2, 4, 6])
    with pytest.raises(InputError, match=r"line break other than \\n .*--engine dask cannot"):
        files.score_shards(session, configured, hyps, refs)


# ----------------------------------------------------------------------------- a worker dies mid-job
SLOW = """
import time
from assay.engine.dask_engine import tasks as _tasks
if not hasattr(_tasks, "_fast_file_part"):
    _tasks._fast_file_part = _tasks.file_part
    def _slow(*args, **kwargs):
        time.sleep(0.4)
        return _tasks._fast_file_part(*args, **kwargs)
    _tasks.file_part = _slow
"""
FAST = """
from assay.engine.dask_engine import tasks as _tasks
if hasattr(_tasks, "_fast_file_part"):
    _tasks.file_part = _tasks._fast_file_part
    del _tasks._fast_file_part
"""


def test_a_worker_killed_during_the_job_changes_nothing(session, dask_client, report_shards):
    """Both workers take 0.4 s per shard; once a shard is done, the worker busy with another is killed
    (SIGKILL). The scheduler re-runs its tasks elsewhere, and the corpus score is the same."""
    configured = api.configure("chrf")
    expected = _whole(configured, report_shards, 2, False)
    pids = dask_client.run(os.getpid)
    dask_client.run(exec, SLOW, {})
    killed: list[str] = []

    class KillOnce:
        """A progress that kills a busy worker when the first shard's rows are in (surveys come first)."""

        def __init__(self) -> None:
            self.total = self.done = 0

        def add(self, n: int) -> None:
            self.total += n

        def step(self, label: str = "") -> None:
            self.done += 1
            if self.done == len(report_shards.hyp_shards) + 1 and not killed:
                threading.Thread(target=self.kill).start()

        def kill(self) -> None:
            busy = [w for w, keys in dask_client.processing().items() if keys]
            if busy:
                killed.append(busy[0])
                os.kill(pids[busy[0]], signal.SIGKILL)

        def close(self, message: str = "") -> None:
            pass

    try:
        session.progress = KillOnce()
        scored, _ = files.score_shards(session, configured, report_shards.hyp_shards, report_shards.ref_shards)
    finally:
        dask_client.wait_for_workers(2, timeout=60)
        dask_client.run(exec, FAST, {})
    assert killed, "no worker was busy when the first shard finished: nothing was killed"
    assert scored.to_json() == expected.to_json()


# ----------------------------------------------------------------------------- connecting
def test_an_unreachable_scheduler_is_a_clear_error_within_seconds(distributed_module):
    from assay.engine.dask_engine.session import open_session

    with socket.socket() as s:      # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(InputError, match=rf"--scheduler tcp://127.0.0.1:{port}: no Dask scheduler answered "
                                         r"within 2 s"):
        with open_session(scheduler=f"tcp://127.0.0.1:{port}", connect_timeout=2):
            pass
    assert time.monotonic() - started < 15


def test_parts_sum_exactly_or_keep_their_rows():
    import numpy as np

    from assay.core.stats import SegmentStats
    from assay.engine.dask_engine.parts import combine, make_part

    ints = SegmentStats(("a", "b"), np.array([[1, 2], [3, 4]], dtype=np.int64))
    halves = SegmentStats(("a", "b"), np.array([[0.5, 2.0], [1.5, 4.0]]))
    thirds = SegmentStats(("a", "b"), np.array([[1 / 3, 2.0], [2 / 3, 4.0]]))
    for stats in (ints, halves):
        part = make_part(0, [stats], "sum", keep_context=True)
        assert part.exact and part.rows is None and part.total.tolist() == stats.total().tolist()
    part = make_part(1, [thirds], "sum", keep_context=False)
    assert not part.exact and part.rows is not None
    both = combine([make_part(0, [halves], "sum", keep_context=True), part])
    assert isinstance(both, Part) and both.n == 4 and not both.exact
    assert make_part(0, [halves], "rows", keep_context=True).rows is halves.rows


def test_a_worker_with_another_assay_version_is_an_engine_error(report_shards):
    from dataclasses import replace

    from assay.engine.dask_engine import tasks
    from assay.engine.dask_engine.parts import EngineError, Failure

    spec = replace(tasks.ConfigSpec.of(api.configure("bleu")), version="0.0.0-other")
    shard = stream.pair_shards(report_shards.hyp_shards[:1], [report_shards.ref_shards[0][:1]])[0]
    got = tasks.file_part(spec, 0, shard, stream.survey_shard(shard, "utf-8", False), "utf-8", 100, False, "sum")
    assert isinstance(got, Failure)
    with pytest.raises(EngineError, match="a Dask worker runs assay .*, the client assay 0.0.0-other"):
        got.throw()
