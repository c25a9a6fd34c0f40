"""A one-line progress bar on stderr (only on a terminal, unless forced)."""
from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """``step(label)`` advances by one; ``total`` may grow while the work is discovered."""

    def __init__(self, total: int = 0, stream: TextIO | None = None, enabled: bool | None = None, width: int = 30):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total, self.done, self.width = total, 0, width
        self.started = time.perf_counter()

    def add(self, n: int) -> None:
        self.total += n

    def step(self, label: str = "") -> None:
        self.done += 1
        if not self.enabled:
            return
        total = max(self.total, self.done)
        filled = int(self.width * self.done / total) if total else self.width
        elapsed = time.perf_counter() - self.started
        line = f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{total} {elapsed:5.1f}s {label[:40]:<40}"
        self.stream.write(line)
        self.stream.flush()

    def close(self, message: str = "") -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            if message:
                self.stream.write(message + "\n")
            self.stream.flush()
