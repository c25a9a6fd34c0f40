"""Peak memory of one benchmark run (see conformance/bench/harness.py for how it is reported).

Modes: ``rss`` (default) measures during the timed runs, at no cost in time: the peak resident set
size above the RSS at the run's start, from Linux's high-water mark ``VmHWM`` (``/proc/self/status``),
reset before the run by writing ``5`` to ``/proc/self/clear_refs`` once ``gc.collect()`` and glibc's
``malloc_trim(0)`` have handed freed heap pages back (Python's small-object arenas may still hold some,
so a run that only reuses them shows less). Child processes (a JVM, Perl) are not in the process's RSS;
the largest child's peak RSS (``getrusage(RUSAGE_CHILDREN).ru_maxrss``) is reported when a run started a
larger child than any before. Where ``VmHWM`` cannot be reset, the growth of ``getrusage(RUSAGE_SELF)
.ru_maxrss`` stands in (a lower bound). ``tracemalloc`` traces one extra, untimed run (exact for Python
and numpy allocations, blind to C libraries' own); ``off`` measures nothing.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import re
import resource
import sys
import tracemalloc
from pathlib import Path
from typing import Any, Callable

MEMORY_MODES = ("rss", "tracemalloc", "off")


def _status_kib(field_name: str) -> int | None:
    try:
        text = Path("/proc/self/status").read_text(encoding="ascii")
    except OSError:
        return None
    match = re.search(rf"^{field_name}:\s+(\d+) kB", text, re.M)
    return int(match.group(1)) if match else None


def _reset_high_water_mark() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
            handle.write("5")
    except OSError:
        return False
    return True


def _load_malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim  # type: ignore[no-any-return]
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _load_malloc_trim()


def release_free_memory() -> None:
    """Collect garbage and hand freed heap pages back to the OS (glibc ``malloc_trim(0)``), so that a
    run's RSS growth is not hidden by memory an earlier run freed but the allocator kept resident."""
    gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


def _maxrss_bytes(who: int) -> int:
    """``ru_maxrss`` in bytes (Linux reports KiB, macOS bytes)."""
    value = resource.getrusage(who).ru_maxrss
    return value if sys.platform == "darwin" else value * 1024


class PeakMemory:
    """How a bench measures a run's peak memory (``mode`` = ``rss``, ``tracemalloc`` or ``off``).

    ``rss``: during the timed runs, the peak RSS above the RSS at the run's start (see the module
    docstring), at no cost in time. ``tracemalloc``: one extra, untimed run per side under
    :mod:`tracemalloc` (its peak: bytes allocated through Python's allocators, numpy's buffers
    included, C libraries' own allocations not), since tracing slows the code it traces.
    """

    def __init__(self, mode: str = "rss") -> None:
        if mode not in MEMORY_MODES:
            raise ValueError(f"memory mode must be one of {MEMORY_MODES}, got {mode!r}")
        self.mode = mode
        self.exact = mode == "rss" and _reset_high_water_mark() and _status_kib("VmHWM") is not None
        trim = ", freed heap first returned to the OS by malloc_trim" if _MALLOC_TRIM is not None else ""
        if mode == "tracemalloc":
            self.method = ("tracemalloc peak of one extra, untimed run per side (Python allocators, numpy "
                           "included; not C libraries' own allocations)")
        elif mode == "off":
            self.method = "not measured (--memory off)"
        elif self.exact:
            self.method = ("peak RSS above the run's starting RSS (VmHWM of /proc/self/status, reset through "
                           f"/proc/self/clear_refs before each run{trim})")
        else:
            self.method = ("growth of the process's peak RSS during the run (resource.getrusage ru_maxrss; a "
                           "lower bound: 0 when the run stays under an earlier peak)")
        self._base = 0
        self._children = 0

    def start(self) -> None:
        self._children = _maxrss_bytes(resource.RUSAGE_CHILDREN)
        if self.exact:
            _reset_high_water_mark()
            self._base = (_status_kib("VmRSS") or 0) * 1024
        else:
            self._base = _maxrss_bytes(resource.RUSAGE_SELF)

    def stop(self) -> tuple[int | None, int | None]:
        """(peak bytes above the start or None when not measured during timed runs,
        the largest child's peak RSS if a child larger than any before ran, else None)."""
        children = _maxrss_bytes(resource.RUSAGE_CHILDREN)
        child = children if children > self._children else None
        if self.mode != "rss":
            return None, child
        peak = (_status_kib("VmHWM") or 0) * 1024 if self.exact else _maxrss_bytes(resource.RUSAGE_SELF)
        return max(0, peak - self._base), child

    def traced_peak(self, fn: Callable[[], Any]) -> int:
        """tracemalloc's peak over one untimed call of ``fn``."""
        release_free_memory()
        tracemalloc.start()
        try:
            fn()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
