"""Reading segment files: strict UTF-8 with the failing line named, no silent truncation."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from assay.core.errors import InputError


@dataclass(frozen=True)
class SegmentFile:
    """The lines of one file (without line terminators) and whether its last line was terminated."""

    path: str
    lines: list[str]
    terminated: bool

    def chopped(self) -> list[str]:
        """multi-bleu-detok's ``chop``: an unterminated last line loses its last character."""
        if self.terminated or not self.lines:
            return self.lines
        return self.lines[:-1] + [self.lines[-1][:-1]]


def read_segments(path: str | Path, *, allow_empty: bool = False) -> SegmentFile:
    """Read one segment per line; ``\\r\\n`` counts as one terminator; only ``\\n`` splits lines
    (U+001C-U+001F, U+0085, U+2028 stay inside their line, as in sacrebleu's line reading)."""
    name = str(path)
    try:
        data = Path(path).read_bytes() if name != "-" else _stdin_bytes()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"{name}:{line}: invalid UTF-8 (byte 0x{data[exc.start]:02x} at column {col})") from None
    if not text:
        if allow_empty:
            return SegmentFile(name, [], True)
        raise InputError(f"{name}: the file is empty")
    terminated = text.endswith("\n")
    lines = text.split("\n")
    if terminated:
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return SegmentFile(name, lines, terminated)


def _stdin_bytes() -> bytes:
    import sys
    return sys.stdin.buffer.read()


def check_aligned(hyp: SegmentFile, refs: list[SegmentFile]) -> None:
    """Every reference file must have as many lines as the hypothesis file."""
    for ref in refs:
        if len(ref.lines) != len(hyp.lines):
            raise InputError(f"line counts differ: {hyp.path} has {len(hyp.lines)} lines but {ref.path} has "
                             f"{len(ref.lines)}")
