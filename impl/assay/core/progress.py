"""One progress bar per job, on stderr, drawn by rich (never a bar of assay's own).

Every long command (``compare``, ``audit``, ``conform``, ``report``, ``report --corpora``, the
METEOR 1.5 paraphrase index build, ``--engine dask``) follows its work with one :class:`ProgressBar`:
``add(n)`` declares ``n`` more units of work (the total may grow while the work is discovered),
``step(label)`` marks one done, ``close(message)`` ends the bar. rich shows the fraction done,
the time elapsed and an estimate of the time left.

The bar is drawn only when stderr is a terminal, and never under ``--quiet`` (:func:`set_quiet`,
set once by the command line) or ``enabled=False``; otherwise every call is a no-op, so a job
can always report progress without asking whether anyone is watching. rich is imported only when
a bar is actually drawn (start-up stays lazy).
"""
from __future__ import annotations

import sys
from typing import Any, Protocol, TextIO

_QUIET = False
#: the bars drawn now, outermost first: a bar started while one is drawn (the METEOR 1.5 index built
#: inside ``assay report``) is shown as the outer bar's label instead of a second bar
_LIVE: list["ProgressBar"] = []


def set_quiet(quiet: bool) -> None:
    """Turn every bar of this process off (``--quiet``) or back on."""
    global _QUIET
    _QUIET = bool(quiet)


def is_quiet() -> bool:
    """Whether ``--quiet`` turned progress off for this process."""
    return _QUIET


class Progress(Protocol):
    """What follows a job: ``add(n)`` units more, ``step()`` one done, ``close()`` at the end."""

    def add(self, n: int) -> None: ...

    def step(self, label: str = "") -> None: ...

    def close(self, message: str = "") -> None: ...


class ProgressBar:
    """A rich progress bar over a whole job (see the module docstring).

    ``total`` is the number of units known at the start (``add`` grows it); ``description`` names
    the job ("compare", "audit"); ``enabled`` forces the bar on or off (``None``: on when
    ``stream`` is a terminal and ``--quiet`` was not given).

    >>> bar = ProgressBar(3, enabled=False)
    >>> for name in ("a", "b", "c"):
    ...     bar.step(name)
    >>> bar.close()
    >>> bar.done
    3
    """

    def __init__(self, total: int = 0, stream: TextIO | None = None, enabled: bool | None = None,
                 description: str = "assay", width: int | None = None) -> None:
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = _isatty(self.stream)
        self.enabled = bool(enabled) and not _QUIET      # --quiet wins over everything
        self.total, self.done = int(total), 0
        self.description = description
        self._rich: Any = None
        self._task: Any = None
        self._outer = _LIVE[-1] if self.enabled and _LIVE else None
        if self.enabled and self._outer is None:
            self._start(width)
            _LIVE.append(self)

    def _start(self, width: int | None) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        console = Console(file=self.stream, stderr=self.stream is sys.stderr, force_terminal=True,
                          highlight=False)
        self._rich = RichProgress(TextColumn("{task.description}"), BarColumn(bar_width=width),
                                  MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("left"),
                                  TimeRemainingColumn(), TextColumn("{task.fields[label]}"),
                                  console=console, transient=True)
        self._rich.start()
        self._task = self._rich.add_task(self.description, total=self.total or None, label="")

    def add(self, n: int) -> None:
        """``n`` more units of work (the total grows)."""
        self.total += int(n)
        if self._rich is not None:
            self._rich.update(self._task, total=self.total or None)

    def step(self, label: str = "", n: int = 1) -> None:
        """``n`` units done; ``label`` says which (shown beside the bar, cut to 40 characters)."""
        self.done += n
        if self._outer is not None:
            share = f" {100 * self.done // self.total}%" if self.total else ""
            self._outer.relabel(f"{self.description}{share}")
        if self._rich is not None:
            from assay.core.terminal import escape

            if self.done > self.total:
                self.total = self.done
                self._rich.update(self._task, total=self.total)
            self._rich.update(self._task, advance=n, label=escape(label)[:40])

    def relabel(self, label: str) -> None:
        """Show ``label`` beside the bar without a step (a nested job's own progress)."""
        if self._rich is not None:
            from assay.core.terminal import escape

            self._rich.update(self._task, label=escape(label)[:40])

    def close(self, message: str = "") -> None:
        """End the bar (it disappears); ``message`` is printed on stderr in its place."""
        if self in _LIVE:
            _LIVE.remove(self)
        if self._rich is not None:
            self._rich.stop()
            self._rich = None
        if message and self.enabled:
            self.stream.write(message + "\n")
            self.stream.flush()

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
