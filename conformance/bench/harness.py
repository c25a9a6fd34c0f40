"""The shared benchmark harness: assay and a reference tool side by side, in one process, on one input.

Every benchmark builds a :class:`Corpus` (what it scores, with its size in units and in UTF-8
bytes), opens a :class:`Bench` and calls :meth:`Bench.compare` once per comparison. ``compare``
runs the assay side and the tool side alternately (A B, B A, A B, ...; each side starts every run
from the same state: its ``setup`` hook, assay's corpus cache emptied (``assay.core.corpus_cache``:
counts it keeps across calls on the same texts, which would make every run after the first a lookup),
then ``gc.collect()`` and ``malloc_trim``), and prints one row of a fixed table:

    comparison | tool | assay s | tool s | ratio | assay peak | B/in | tool peak | B/in | agreement

- times are the **median** of the runs of each side, on the bench's clock (:data:`WALL`,
  :data:`CPU` or :data:`CPU_CHILDREN`, named in the header);
- ratio = tool time / assay time (how many times faster assay is);
- peak (``--memory rss``, the default) = **peak resident set size above the RSS at the start of
  the run**, the largest over the runs (Linux ``VmHWM``, reset before each run; conformance/bench/
  memory.py says how). It counts everything the process touches (Python objects, numpy buffers, C
  libraries) and costs no time; for a side marked ``children=True`` the largest child process's peak
  RSS (a JVM, Perl) follows in brackets. ``--memory tracemalloc`` instead traces one extra, untimed run
  per side; ``--memory off``. The header names the method used;
- B/in = peak bytes per byte of input (the corpus's UTF-8 bytes);
- agreement = the largest absolute difference of the two sides' numbers (the bench's ``agree``
  function); they must agree.

A bench opened with ``warm_up=True`` runs assay's side of each row once, untimed, before its timed
runs: assay imports a family's modules on first use, while a bench imports the tool before any row,
so without it a row timed once would charge assay alone with its imports (about 0.2 s for ROUGE,
most of a 10,000-pair run).

:meth:`Bench.single` times one side only (tool columns ``-``), :meth:`Bench.derived` prints a row
computed from other rows (no memory), :meth:`Bench.note` an indented line under the last row.
:func:`arguments` gives every bench the same options: ``--size N`` (the corpus size in the
bench's unit), ``--quick`` (a small size and one run per side, to check a bench works),
``--repeats``, ``--clock wall|cpu``, ``--memory``, ``--cache warm|cold`` and ``--corpus DIR`` (``../shared/corpora`` or ``$ASSAY_CORPORA``).

For corpora a tool cannot score whole (1M segments: sacrebleu's chrF would need ~44 GB, its TER ~2 h),
:func:`coverage_arguments` adds ``--tool-chunk N`` / ``--tool-sample N`` (:class:`ToolCoverage`): the tool
side runs in chunks whose sufficient statistics are summed through the tool's own API
(:func:`sacrebleu_chunked`), or on a random sample with its time extrapolated linearly
(:meth:`Bench.compare_sampled`); the row's label says which, and assay's side always scores everything.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import assay
from assay.core import corpus_cache

from conformance.bench.memory import MEMORY_MODES, PeakMemory, release_free_memory
from conformance.paths import corpora_dir

MIB = 1024 * 1024


# ----------------------------------------------------------------------------- clocks
@dataclass(frozen=True)
class Clock:
    """What a bench times: a monotonic reading in seconds, and what it counts (printed in the header)."""

    read: Callable[[], float]
    what: str


def _cpu_with_children() -> float:
    """This process's CPU time at the resolution of ``time.process_time`` (nanoseconds; ``os.times``
    counts 10 ms clock ticks, too coarse for a 0.05 s run) plus its waited-for children's (ticks)."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


WALL = Clock(time.perf_counter, "wall time (time.perf_counter)")
CPU = Clock(time.process_time, "CPU time of this process (time.process_time)")
CPU_CHILDREN = Clock(_cpu_with_children,
                     "CPU time of this process (time.process_time) and of the child processes it waited for, e.g. a JVM (os.times)")
CLOCKS = {"wall": WALL, "cpu": CPU}


def clock_of(args: argparse.Namespace, default: Clock = WALL) -> Clock:
    """The clock ``--clock`` names, else the bench's ``default``."""
    name = getattr(args, "clock", None)
    return default if name is None else CLOCKS[name]


# ----------------------------------------------------------------------------- inputs
def text_bytes(*parts: Any) -> int:
    """UTF-8 bytes of every string in (nested lists/tuples/dicts of) ``parts``; ``None`` counts 0."""
    total = 0
    stack: list[Any] = list(parts)
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item.encode("utf-8"))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return total


@dataclass(frozen=True)
class Corpus:
    """What a bench scores: a description, its size in ``unit`` and its input bytes (UTF-8)."""

    description: str
    size: int
    unit: str
    input_bytes: int
    counted: str = "hypotheses and references"   #: what the input bytes are of

    @classmethod
    def of(cls, description: str, size: int, unit: str, *texts: Any,
           counted: str = "hypotheses and references") -> "Corpus":
        """Count the input bytes of ``texts`` (hypotheses and references, any nesting)."""
        return cls(description, size, unit, text_bytes(*texts), counted)

    def line(self) -> str:
        n = self.input_bytes
        human = f"{n / MIB:.1f} MiB" if n >= MIB else f"{n / 1024:.1f} KiB"
        return (f"{self.description} — {self.size:,} {self.unit}, {n:,} bytes of input "
                f"({human}, UTF-8 of the {self.counted})")


# ----------------------------------------------------------------------------- one run
@dataclass
class Side:
    """One side of a comparison: a call, the hook run before each of its runs, and its run count."""

    fn: Callable[[], Any]
    repeats: int
    setup: Callable[[], None] | None = None
    children: bool = False     #: runs child processes (their memory is not in the process's RSS)
    quiet: bool = False        #: swallow what the call prints (toolkits print progress)


@dataclass
class Measure:
    """Every run of one side: times on the bench clock, wall and CPU times, peaks, the last result."""

    times: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    peaks: list[int] = field(default_factory=list)
    child_peak: int | None = None
    result: Any = None

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def peak(self) -> int | None:
        return max(self.peaks) if self.peaks else None


def _call(fn: Callable[[], Any], quiet: bool) -> Any:
    if not quiet:
        return fn()
    with contextlib.redirect_stdout(io.StringIO()):
        return fn()


#: what a run finds in the CPU caches (``--cache``): ``warm``, whatever the last run left (the default);
#: ``cold``, nothing of its own (:func:`evict_caches` before each run)
CACHE_MODES = ("warm", "cold")
_cache = {"mode": "warm"}
_EVICT_BYTES = 128 << 20
_evict_buffer: list[Any] = []


def evict_caches() -> None:
    """Write and read a 128 MiB buffer (four times the 32 MiB L3 cache of the machine the README's tables
    come from), so the run that follows finds none of its data in the CPU caches: at 10k segments a
    corpus's text and Python objects fit in L3 and at 100k they do not, which moves a fast side's
    per-segment cost more than a slow side's. The buffer is made once, before any run's peak is taken."""
    import numpy as np

    if not _evict_buffer:
        _evict_buffer.append(np.zeros(_EVICT_BYTES // 8))
    buffer = _evict_buffer[0]
    buffer += 1.0
    float(buffer.sum())


def _run_once(side: Side, clock: Clock, memory: PeakMemory, into: Measure) -> None:
    if side.setup is not None:
        side.setup()
    corpus_cache.clear()
    release_free_memory()
    if _cache["mode"] == "cold":
        evict_caches()
    memory.start()
    wall0, cpu0, t0 = time.perf_counter(), time.process_time(), clock.read()
    result = _call(side.fn, side.quiet)
    t1, wall1, cpu1 = clock.read(), time.perf_counter(), time.process_time()
    peak, child = memory.stop()
    into.times.append(t1 - t0)
    into.wall.append(wall1 - wall0)
    into.cpu.append(cpu1 - cpu0)
    if peak is not None:
        into.peaks.append(peak)
    if side.children and child is not None:
        into.child_peak = max(into.child_peak or 0, child)
    into.result = result


def measure(sides: Sequence[Side], clock: Clock, memory: PeakMemory) -> list[Measure]:
    """Run the sides alternately (a b, b a, a b, ...) until each has had its ``repeats``; then, with
    ``tracemalloc`` memory, one traced untimed run of each."""
    out = [Measure() for _ in sides]
    pairs = list(zip(sides, out))
    for i in range(max(s.repeats for s in sides)):
        for side, m in (pairs if i % 2 == 0 else pairs[::-1]):
            if i < side.repeats:
                _run_once(side, clock, memory, m)
    if memory.mode == "tracemalloc":
        for side, m in pairs:
            if side.setup is not None:
                side.setup()
            m.peaks = [memory.traced_peak(lambda side=side: _call(side.fn, side.quiet))]
    return out


# ----------------------------------------------------------------------------- the table
#: (heading, width, alignment); a longer comparison label gets a line of its own above its row, and the
#: last column is never cut
COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("comparison", 48, "<"), ("tool", 28, "<"), ("assay s", 9, ">"), ("tool s", 9, ">"), ("ratio", 7, ">"),
    ("assay peak", 11, ">"), ("B/in", 6, ">"), ("tool peak", 21, ">"), ("B/in", 6, ">"), ("agreement", 16, "<"),
)


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def _mib(n: int | None) -> str:
    return "-" if n is None else f"{n / MIB:,.1f} MiB"


def _per_byte(n: int | None, input_bytes: int) -> str:
    return "-" if n is None or input_bytes <= 0 else f"{n / input_bytes:.1f}"


def _seconds(s: float | None) -> str:
    return "-" if s is None else f"{s:.3f}"


def agreement_text(value: float | str | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    return f"max|Δ| {value:.3g}"


@dataclass
class Row:
    """A printed comparison; ``assay``/``tool`` hold every run (``None`` for a side not measured here)."""

    label: str
    assay: Measure | None
    tool: Measure | None

    @property
    def ratio(self) -> float | None:
        if self.assay is None or self.tool is None or self.assay.median <= 0:
            return None
        return self.tool.median / self.assay.median


class Bench:
    """A benchmark's header, rows and notes; see the module docstring."""

    def __init__(self, title: str, corpus: Corpus, *, clock: Clock = WALL, repeats: int = 1, memory: str = "rss",
                 tools: Sequence[str] = (), notes: Iterable[str] = (), warm_up: bool = False) -> None:
        self.corpus, self.clock, self.repeats, self.warm_up = corpus, clock, repeats, warm_up
        self.memory = PeakMemory(memory)
        self.rows: list[Row] = []
        print(f"== {title} ==")
        print(f"corpus:  {corpus.line()}")
        print(f"timing:  median of {repeats} run{'s' if repeats != 1 else ''} per side (unless a row says "
              f"otherwise), the two sides alternating; {clock.what}")
        over = ", the largest over the runs" if self.memory.mode == "rss" else ""
        print(f"memory:  {self.memory.method}{over}; [child] = the largest child process's peak RSS in MiB "
              "(getrusage RUSAGE_CHILDREN); B/in = peak bytes per input byte")
        if warm_up:
            print("warm-up: assay's side of each row runs once, untimed, before its timed runs (assay imports a "
                  "family on first use; the tool was imported before any row)")
        if _cache["mode"] == "cold":
            print("caches:  cold: before each run of either side, a 128 MiB buffer is written and read (the CPU "
                  "caches hold none of the run's data)")
        print(f"versions: assay {assay.__version__} ({Path(assay.__file__).parent}); "
              + "; ".join([*tools, f"python {platform.python_version()}"]))
        for note in notes:
            print(f"note:    {note}")
        print(self._format(tuple(c[0] for c in COLUMNS)))
        print("-" * (sum(c[1] for c in COLUMNS) + 2 * (len(COLUMNS) - 1)), flush=True)

    # -- printing
    def _format(self, cells: Sequence[str]) -> str:
        last = len(COLUMNS) - 1
        return "  ".join(f"{cell if i == last else _fit(cell, width):{align}{width}}"
                         for i, (cell, (_, width, align)) in enumerate(zip(cells, COLUMNS))).rstrip()

    def _tool_peak(self, m: Measure | None) -> str:
        if m is None:
            return "-"
        text = _mib(m.peak)
        return text if m.child_peak is None else f"{text} [{m.child_peak / MIB:,.0f} child]"

    def _print(self, label: str, tool: str, assay_s: float | None, tool_s: float | None,
               a: Measure | None, t: Measure | None, agreement: float | str | None,
               input_bytes: int | None = None) -> None:
        ratio = None if assay_s is None or tool_s is None or assay_s <= 0 else tool_s / assay_s
        n = self.corpus.input_bytes if input_bytes is None else input_bytes
        if len(label) > COLUMNS[0][1]:
            print(label)
            label = ""
        print(self._format((label, tool, _seconds(assay_s), _seconds(tool_s), "-" if ratio is None else f"{ratio:.1f}x",
                            _mib(a.peak if a else None), _per_byte(a.peak if a else None, n),
                            self._tool_peak(t), _per_byte(t.peak if t else None, n),
                            agreement_text(agreement))), flush=True)

    def note(self, text: str) -> None:
        """An indented line under the last row (the two numbers compared, a caveat)."""
        print(f"    {text}", flush=True)

    # -- rows
    def compare(self, label: str, ours: Callable[[], Any], tool: str, theirs: Callable[[], Any], *,
                agree: Callable[[Any, Any], float | str] | None = None, repeats: int | None = None,
                tool_repeats: int | None = None, setup: Callable[[], None] | None = None,
                children: bool = False, quiet: bool = False, input_bytes: int | None = None) -> Row:
        """Time ``ours`` (assay) against ``theirs`` (the tool), alternating; print and return the row.

        ``input_bytes``: the bytes this row scores when it is not the whole corpus (for B/in)."""
        n = self.repeats if repeats is None else repeats
        self._warm(ours, setup, quiet)
        a, t = measure([Side(ours, n, setup, quiet=quiet),
                        Side(theirs, n if tool_repeats is None else tool_repeats, setup, children, quiet)],
                       self.clock, self.memory)
        row = Row(label, a, t)
        agreement = agree(a.result, t.result) if agree is not None else None
        runs = "" if (tool_repeats is None or tool_repeats == n) else f" ({n}/{tool_repeats} runs)"
        self._print(label + runs, tool, a.median, t.median, a, t, agreement, input_bytes)
        self.rows.append(row)
        return row

    def single(self, label: str, fn: Callable[[], Any], *, tool: str | None = None, repeats: int | None = None,
               setup: Callable[[], None] | None = None, children: bool = False, quiet: bool = False,
               input_bytes: int | None = None) -> Row:
        """Time one side only: assay's (``tool=None``) or a tool's (named by ``tool``)."""
        if tool is None:
            self._warm(fn, setup, quiet)
        m, = measure([Side(fn, self.repeats if repeats is None else repeats, setup, children, quiet)],
                     self.clock, self.memory)
        if tool is None:
            row = Row(label, m, None)
            self._print(label, "-", m.median, None, m, None, None, input_bytes)
        else:
            row = Row(label, None, m)
            self._print(label, tool, None, m.median, None, m, None, input_bytes)
        self.rows.append(row)
        return row

    def compare_sampled(self, label: str, ours: Callable[[], Any], tool: str, theirs_on_sample: Callable[[], Any],
                        coverage: ToolCoverage, *, agree: Callable[[Any, Any], float | str] | None = None,
                        repeats: int | None = None, setup: Callable[[], None] | None = None,
                        quiet: bool = False, children: bool = False) -> Row:
        """Like :meth:`compare`, but the tool scores ``coverage``'s sample only: its time is measured on the
        sample and multiplied by ``coverage.factor`` (the label says so; its peak is the sample's);
        ``agree(assay result, tool result on the sample)`` compares the two on the sample."""
        n = self.repeats if repeats is None else repeats
        self._warm(ours, setup, quiet)
        a, t = measure([Side(ours, n, setup, quiet=quiet), Side(theirs_on_sample, n, setup, children, quiet)],
                       self.clock, self.memory)
        scaled = Measure([x * coverage.factor for x in t.times], [x * coverage.factor for x in t.wall],
                         [x * coverage.factor for x in t.cpu], t.peaks, t.child_peak, t.result)
        row = Row(label, a, scaled)
        agreement = agree(a.result, t.result) if agree is not None else None
        self._print(f"{label} [{coverage.sample_label()}]", tool, a.median, scaled.median, a, scaled, agreement)
        self.note(f"tool measured {t.median:.3f} s on {coverage.sample:,} of {coverage.total:,} {self.corpus.unit} "
                  f"(random sample, seed {coverage.seed}) x {coverage.factor:g}; tool peak = the sample's; "
                  "agreement on the sample")
        self.rows.append(row)
        return row

    def _warm(self, ours: Callable[[], Any], setup: Callable[[], None] | None, quiet: bool) -> None:
        """assay's side once, untimed, when the bench warms up (its result and caches are dropped: every
        timed run starts from an empty corpus cache)."""
        if self.warm_up:
            if setup is not None:
                setup()
            _call(ours, quiet)
            corpus_cache.clear()

    def derived(self, label: str, assay_s: float | None, tool: str, tool_s: float | None,
                agreement: float | str | None = None) -> None:
        """A row whose times come from other rows or runs (no memory measured)."""
        self._print(label, tool, assay_s, tool_s, None, None, agreement)


# ----------------------------------------------------------------------------- tools too slow for the corpus
def _count(n: int) -> str:
    """100000 -> ``100k``, 1000000 -> ``1M`` (other numbers with thousands separators)."""
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    return f"{n // 1000}k" if n % 1000 == 0 else f"{n:,}"


@dataclass(frozen=True)
class ToolCoverage:
    """How a tool's side covers a corpus of ``total`` segments that it cannot score at once in this
    machine's memory or time (assay's side always scores all of it, in one call):

    - ``chunk``: the tool scores consecutive chunks of ``chunk`` segments through its own API and the
      chunks' additive sufficient statistics are summed (the score is the whole corpus's; the time is
      the sum of the chunks'; the tool's peak is a chunk's);
    - ``sample``: the tool scores a random sample of ``sample`` segments (``random.Random(seed)``,
      in corpus order), and its time is multiplied by ``total / sample`` (linear extrapolation: it
      assumes the tool's cost per segment does not grow with the corpus); its peak memory is the
      sample's, and the scores are compared on the sample only.

    Rows that use either say so in their label (:meth:`chunk_label`, :meth:`sample_label`)."""

    total: int
    chunk: int | None = None
    sample: int | None = None
    seed: int = 18

    @property
    def chunked(self) -> bool:
        return self.chunk is not None and 0 < self.chunk < self.total

    @property
    def sampled(self) -> bool:
        return self.sample is not None and 0 < self.sample < self.total

    @property
    def factor(self) -> float:
        """The extrapolation factor of a sampled row (``total / sample``)."""
        return self.total / self.sample if self.sampled and self.sample else 1.0

    def slices(self) -> list[slice]:
        """The consecutive chunks (one slice of everything when not chunked)."""
        step = self.chunk if self.chunked and self.chunk else max(self.total, 1)
        return [slice(i, i + step) for i in range(0, self.total, step)]

    def indices(self) -> list[int]:
        """The sampled segment indices, ascending (every index when not sampled)."""
        if not self.sampled or self.sample is None:
            return list(range(self.total))
        import random
        return sorted(random.Random(self.seed).sample(range(self.total), self.sample))

    def chunk_label(self) -> str:
        return f"tool: chunked {_count(self.chunk or 0)} x {len(self.slices())}"

    def sample_label(self) -> str:
        return f"tool: {_count(self.sample or 0)}-sample, x{self.factor:g} extrapolated"


def pick(items: Sequence[Any], indices: Sequence[int]) -> list[Any]:
    """``[items[i] for i in indices]``."""
    return [items[i] for i in indices]


def sacrebleu_chunked(metric: Any, hyps: Sequence[str], refs: Sequence[str], coverage: ToolCoverage) -> Any:
    """sacrebleu's corpus score of ``hyps`` against one reference stream, chunk by chunk: for each chunk,
    the metric's own per-segment statistics (``_extract_corpus_statistics``, the rows its significance
    tests resample) are summed with its ``sacrebleu.utils.sum_of_lists``; the chunks' sums are added and
    ``_compute_score_from_stats`` gives the score once. ``corpus_score`` does the same on one list of
    every segment's statistics (BLEU, chrF and TER statistics are additive counts), so the score is the
    whole corpus's while only one chunk's statistics and reference cache are alive at a time."""
    from sacrebleu.utils import sum_of_lists
    total: Any = None
    for part in coverage.slices():
        stats = sum_of_lists(metric._extract_corpus_statistics(hyps[part], [refs[part]]))
        total = stats if total is None else sum_of_lists([total, stats])
        del stats
    return metric._compute_score_from_stats(total)


def coverage_arguments(parser: argparse.ArgumentParser) -> None:
    """``--tool-chunk N`` and ``--tool-sample N`` (see :class:`ToolCoverage`) for the benches that take them."""
    parser.add_argument("--tool-chunk", type=int, metavar="N",
                        help="run the tool side in chunks of N segments and sum its sufficient statistics "
                             "(rows whose tool has such statistics; the label says so)")
    parser.add_argument("--tool-sample", type=int, metavar="N",
                        help="time the tool side on a random sample of N segments and extrapolate linearly "
                             "(rows not chunked; the label says so; assay always scores the whole corpus)")
    parser.add_argument("--sample-seed", type=int, default=18, help="seed of --tool-sample (default 18)")


def coverage_of(args: argparse.Namespace, total: int) -> ToolCoverage:
    return ToolCoverage(total, getattr(args, "tool_chunk", None), getattr(args, "tool_sample", None),
                        getattr(args, "sample_seed", 18))


# ----------------------------------------------------------------------------- cold starts
def clear_sacrebleu_caches() -> None:
    """sacrebleu memoises tokenizer calls (``lru_cache(maxsize=2**16)``); start every run cold."""
    for name in list(sys.modules):
        if not name.startswith("sacrebleu.tokenizers"):
            continue
        for obj in vars(sys.modules[name]).values():
            if isinstance(obj, type):
                for attr in vars(obj).values():
                    if hasattr(attr, "cache_clear"):
                        attr.cache_clear()


def max_abs_diff(pairs: Iterable[tuple[float, float]]) -> float:
    """The largest ``|a - b|`` over ``pairs`` (0.0 for none)."""
    return max((abs(a - b) for a, b in pairs), default=0.0)


# ----------------------------------------------------------------------------- options
def arguments(doc: str | None, *, size: int | None, unit: str, quick: int, repeats: int,
              size_aliases: Sequence[str] = (), corpus: bool = True) -> argparse.ArgumentParser:
    """The options every bench shares; add the bench's own, then call :func:`parse`.

    ``size`` is the default corpus size in ``unit`` (0 = all of it; None = the bench has no size),
    ``quick`` the size ``--quick`` caps it to."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if size is not None:
        parser.add_argument("--size", *size_aliases, dest="size", type=int, default=size, metavar="N",
                            help=f"{unit} to score (default {size:,}{' = all' if size == 0 else ''})")
    what = f"{quick:,} {unit}, " if size is not None else ""
    parser.add_argument("--quick", action="store_const", const=quick,
                        help=f"a quick check that the bench works: {what}one run per side")
    parser.add_argument("--repeats", type=int, default=repeats,
                        help=f"runs per side; the table shows the median (default {repeats})")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default=None,
                        help="what the times count: wall time, or this process's CPU time (steadier on a loaded "
                             "machine); default: the bench's own")
    parser.add_argument("--memory", choices=MEMORY_MODES, default="rss",
                        help="rss: peak RSS during the timed runs (default); tracemalloc: one extra traced run "
                             "per side; off")
    parser.add_argument("--cache", choices=CACHE_MODES, default="warm",
                        help="warm: a run finds what the last one left in the CPU caches (default); cold: the caches "
                             "are evicted before each run of either side (a 128 MiB write)")
    if corpus:
        parser.add_argument("--corpus", type=Path, default=corpora_dir(),
                            help="folder of the real corpora (default ../shared/corpora or $ASSAY_CORPORA)")
    return parser


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; ``--quick`` caps the size (0 = all becomes the quick size) and makes it one run per side."""
    args = parser.parse_args(argv)
    _cache["mode"] = args.cache
    if args.quick is not None:
        if getattr(args, "size", None) is not None:
            args.size = min(args.size, args.quick) if args.size else args.quick
        args.repeats = 1
    return args
