"""Progress (issue 20, item 5): one bar over the whole job, with the time left, on stderr, only on a
terminal, off with ``assay -q``.

The commands run as real processes with stderr on a pseudo-terminal (the bar is drawn only when
stderr is a terminal), then again with ``-q`` and with stderr on a pipe: the bar must vanish and
stdout must not change. The METEOR 1.5 paraphrase index build is checked on a small table of the
same format (the real one takes a minute) with the bar forced on into a buffer.
"""
from __future__ import annotations

import gzip
import io
import os
import re
import select
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from assay.core import progress as core_progress
from assay.resources import meteor15

REPO_ROOT = Path(__file__).resolve().parents[3]
SAMPLE = REPO_ROOT / "fixtures" / "report_sample"
ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
#: a bar frame: its description, "done/total", elapsed, "left" and a time estimate
FRAME = r"{name} .*? (\d+)/(\d+) \d+:\d\d:\d\d left (\d+:\d\d:\d\d)"

pytestmark = pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")


def _run_on_pty(args: list[str]) -> tuple[int, str, str]:
    """Run ``python -m assay ARGS`` with stderr on a pseudo-terminal: (exit code, stdout, stderr frames)."""
    master, slave = os.openpty()
    env = dict(os.environ, COLUMNS="160", LINES="40", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "assay", *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=slave, env=env, cwd=REPO_ROOT)
    os.close(slave)
    chunks: list[bytes] = []
    stdout = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:          # the child closed the terminal (Linux: EIO)
                    break
                if not data:
                    break
                chunks.append(data)
            elif proc.poll() is not None:
                break
        stdout = proc.stdout.read() if proc.stdout else b""
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = ESCAPE.sub("", b"".join(chunks).decode("utf-8", "replace")).replace("\r", "\n")
    return proc.returncode, stdout.decode("utf-8"), text


def _run_piped(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assay", *args], capture_output=True, text=True, cwd=REPO_ROOT,
                          stdin=subprocess.DEVNULL, timeout=120)


def _frames(text: str, name: str) -> list[tuple[int, int, str]]:
    return [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in re.finditer(FRAME.format(name=re.escape(name)), text)]


def _check_one_bar(text: str, name: str) -> None:
    """Frames of one bar whose total never restarts, reaching its total, with a time-left estimate."""
    frames = _frames(text, name)
    assert frames, f"no {name!r} progress bar on the terminal:\n{text[-2000:]}"
    done = [d for d, _, _ in frames]
    assert done == sorted(done), f"the bar went backwards (restarted): {done}"
    assert frames[-1][0] == frames[-1][1], f"the bar ended at {frames[-1][0]}/{frames[-1][1]}"
    assert any(left != "-:--:--" for _, _, left in frames), "no estimate of the time left was shown"


COMPARE = ["compare", "-i", "fixtures/report_sample/hyp.txt", "-r", "fixtures/report_sample/ref1.txt",
           "fixtures/report_sample/ref2.txt", "-m", "bleu,chrf", "--attribute", "sacrebleu", "nltk"]
SIGNIFICANCE = ["significance", "bleu", "-i", "fixtures/report_sample/hyp.txt", "fixtures/report_sample/ref2.txt",
                "-r", "fixtures/report_sample/ref1.txt", "--paired-ar", "-n", "4000"]


@pytest.mark.parametrize("args,name", [(COMPARE, "compare"), (SIGNIFICANCE, "significance")],
                         ids=["compare", "significance"])
def test_bar_on_a_terminal_none_with_quiet_or_a_pipe(args: list[str], name: str) -> None:
    code, stdout, err = _run_on_pty(args)
    assert code == 0, err[-2000:]
    _check_one_bar(err, name)
    code_q, stdout_q, err_q = _run_on_pty(["-q", *args])
    assert code_q == 0 and not _frames(err_q, name) and "━" not in err_q, err_q[-2000:]
    piped = _run_piped(args)
    assert piped.returncode == 0 and "━" not in piped.stderr and "left" not in piped.stderr, piped.stderr
    assert stdout == stdout_q == piped.stdout      # the bar never touches the output


def test_dask_engine_bar_follows_the_tasks() -> None:
    """``--engine dask``: one bar over the cluster's tasks (needs the dask extra; CI fails without it)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("dask[distributed] is not installed (the dask extra)")
        pytest.skip("dask[distributed] is not installed")
    args = ["score", "bleu", "-i", "fixtures/report_sample/hyp.txt", "-r", "fixtures/report_sample/ref1.txt",
            "--engine", "dask", "--workers", "1"]
    code, stdout, err = _run_on_pty(args)
    assert code == 0, err[-2000:]
    frames = _frames(err, "dask")
    assert frames and frames[-1][0] == frames[-1][1] > 0, err[-2000:]
    assert stdout.startswith("BLEU|nrefs:1|")
    from assay.cli import engine

    with pytest.MonkeyPatch.context() as mp:      # as if stderr were a terminal: a bar, unless assay -q
        mp.setattr(core_progress, "_isatty", lambda stream: True)
        bar = engine._progress()
        assert isinstance(bar, core_progress.ProgressBar) and bar.enabled
        bar.close()
        core_progress.set_quiet(True)
        try:
            assert engine._progress() is None
        finally:
            core_progress.set_quiet(False)


def test_significance_output_does_not_depend_on_the_bar() -> None:
    """The bar resamples in blocks: the printed table equals the library's one-block run."""
    from assay.jobs import significance as sig

    lines = (SAMPLE / "hyp.txt").read_text(encoding="utf-8").split("\n")[:-1]
    other = [("the " + line) if k % 3 == 0 else line for k, line in enumerate(lines)]
    refs = [(SAMPLE / "ref1.txt").read_text(encoding="utf-8").split("\n")[:-1]]
    bar = core_progress.ProgressBar(0, stream=io.StringIO(), enabled=False)
    from assay.cli.tracked_runs import TrackedRuns

    for test, n in (("bs", 300), ("ar", 21), ("bs", 7)):      # blocks of unequal sizes; fewer draws than blocks
        plain = sig.paired_test(test, "bleu,chrf", ("base", lines), [("other", other)], refs, None, n, 7, None, {})
        blocks = sig.paired_test(test, "bleu,chrf", ("base", lines), [("other", other)], refs, None, n, 7, None, {},
                                 runs=partial(TrackedRuns, bar))
        assert blocks.text == plain.text
    plain_ci = sig.confidence_test("bleu", lines, refs, None, 300, 7, None, {})
    blocks_ci = sig.confidence_test("bleu", lines, refs, None, 300, 7, None, {}, runs=partial(TrackedRuns, bar))
    assert blocks_ci.tool_json() == plain_ci.tool_json()
    assert bar.done == bar.total > 0


def test_meteor_paraphrase_index_build_shows_one_bar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = tmp_path / "data" / "paraphrase-en.gz"
    table.parent.mkdir()
    with gzip.open(table, "wt", encoding="utf-8") as f:
        for k in range(70_000):          # past one progress check (every 65,536 entries)
            f.write(f"0.5\nphrase {k}\nparaphrase number {k}\n")
    monkeypatch.setenv("ASSAY_METEOR_CACHE", str(tmp_path / "cache"))
    shown = io.StringIO()
    bars: list[core_progress.ProgressBar] = []

    def forced(*args: object, **kwargs: object) -> core_progress.ProgressBar:
        kwargs.update(stream=shown, enabled=True)
        bars.append(core_progress.ProgressBar(*args, **kwargs))  # type: ignore[arg-type]
        return bars[-1]

    monkeypatch.setattr(meteor15, "ProgressBar", forced)
    src, dst, lengths = meteor15._paraphrase_index(table)
    assert len(src) == len(dst) == len(lengths) == 70_000
    assert len(bars) == 1 and 0 < bars[0].done <= bars[0].total == meteor15.PROGRESS_UNITS
    assert "METEOR 1.5 paraphrase index" in shown.getvalue()
    # built once: the cached index is read back with no bar
    meteor15._paraphrase_index(table)
    assert len(bars) == 1


def test_quiet_wins_over_a_forced_bar() -> None:
    try:
        core_progress.set_quiet(True)
        assert not core_progress.ProgressBar(3, stream=io.StringIO(), enabled=True).enabled
    finally:
        core_progress.set_quiet(False)
