"""Reading segment files: strict UTF-8 with the failing line named, no silent truncation, and what a
user should hear about (a byte-order mark, control characters) recorded for the command line to say.

Encodings (``--encoding``): ``utf-8`` (default) keeps a leading UTF-8 byte-order mark (U+FEFF) as
text, so it is scored as part of segment 1 exactly as sacrebleu does (it opens files as ``utf-8``,
not ``utf-8-sig``); ``utf-8-sig`` strips it. Either way :attr:`SegmentFile.bom` records that the
file began with one.
"""
from __future__ import annotations

import codecs
import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from assay.core.errors import InputError

ENCODINGS = ("utf-8", "utf-8-sig")
"""What ``read_segments`` decodes: UTF-8 keeping a byte-order mark (sacrebleu's reading), or stripping it."""

# C0 control characters that are neither a tab nor a line terminator: a lone CR (one not ending its
# line, since a CR before LF or at the end of the data is the CRLF terminator that reading strips).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]|\r(?!\n|\\Z)")

_NAMES = {0: "NUL", 0x1b: "ESC", 0x0d: "CR", 0x0b: "VT", 0x0c: "FF", 0x08: "BS", 0x07: "BEL", 0x7f: "DEL"}


@dataclass(frozen=True)
class ControlChar:
    """The first C0 control character of a file (other than tab and line terminators): where, what."""

    line: int
    column: int
    char: str
    count: int

    @property
    def label(self) -> str:
        code = ord(self.char)
        name = _NAMES.get(code)
        return f"U+{code:04X}" + (f" {name}" if name else "")


@dataclass(frozen=True)
class SegmentFile:
    """The lines of one file (without line terminators) and whether its last line was terminated.

    ``bom``: the file began with a UTF-8 byte-order mark; ``bom_stripped``: it was removed
    (``encoding="utf-8-sig"``), else it is the first character of segment 1. ``control``: the first
    control character inside a segment (NUL, ESC, a lone CR, ...), if any: it is scored as text."""

    path: str
    lines: list[str]
    terminated: bool
    bom: bool = False
    bom_stripped: bool = False
    control: ControlChar | None = None

    def chopped(self) -> list[str]:
        """multi-bleu-detok's ``chop``: an unterminated last line loses its last character."""
        if self.terminated or not self.lines:
            return self.lines
        return self.lines[:-1] + [self.lines[-1][:-1]]


@contextmanager
def reading(path: str | Path) -> Iterator[None]:
    """Turn the operating system's refusals to read ``path`` into an :class:`InputError` naming it."""
    name = str(path)
    try:
        yield
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None


def read_bytes(path: str | Path) -> bytes:
    """The bytes of a file (``-``: standard input); a missing, directory or unreadable path is an
    :class:`InputError` naming it."""
    with reading(path):
        return Path(path).read_bytes() if str(path) != "-" else sys.stdin.buffer.read()


def decode_utf8(data: bytes, name: str) -> str:
    """Strict UTF-8; undecodable input names ``file:line``, the byte, its column and byte offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"{name}:{line}: invalid UTF-8 (byte 0x{data[exc.start]:02x} at column {col}, "
                         f"byte offset {exc.start})") from None


def read_utf8(path: str | Path) -> str:
    """A whole UTF-8 text file (a binary file is an :class:`InputError` naming file, line and byte offset)."""
    return decode_utf8(read_bytes(path), str(path))


def first_control(text: str) -> ControlChar | None:
    """The first C0 control character of ``text`` that is not a tab or part of a line terminator."""
    match = _CONTROL.search(text)
    if match is None:
        return None
    start = match.start()
    line_start = text.rfind("\n", 0, start) + 1
    count = sum(1 for _ in _CONTROL.finditer(text, start))
    return ControlChar(text.count("\n", 0, start) + 1, start - line_start + 1, match.group(), count)


def read_segments(path: str | Path, *, allow_empty: bool = False, encoding: str = "utf-8") -> SegmentFile:
    """Read one segment per line; ``\\r\\n`` counts as one terminator; only ``\\n`` splits lines
    (U+001C-U+001F, U+0085, U+2028 stay inside their line, as in sacrebleu's line reading).

    ``encoding`` is ``utf-8`` (a leading byte-order mark stays in segment 1, as in sacrebleu) or
    ``utf-8-sig`` (it is stripped)."""
    if encoding not in ENCODINGS:
        raise InputError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    name = str(path)
    data = read_bytes(path)
    text = decode_utf8(data, name)
    bom = data.startswith(codecs.BOM_UTF8)
    stripped = bom and encoding == "utf-8-sig"
    if stripped:
        text = text[1:]
    if not text:
        if allow_empty:
            return SegmentFile(name, [], True, bom, stripped)
        raise InputError(f"{name}: the file is empty")
    terminated = text.endswith("\n")
    lines = text.split("\n")
    if terminated:
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    return SegmentFile(name, lines, terminated, bom, stripped, first_control(text))


def check_aligned(hyp: SegmentFile, refs: list[SegmentFile]) -> None:
    """Every reference file must have as many lines as the hypothesis file."""
    for ref in refs:
        if len(ref.lines) != len(hyp.lines):
            raise InputError(f"line counts differ: {hyp.path} has {len(hyp.lines)} lines but {ref.path} has "
                             f"{len(ref.lines)}")
