"""Reading segment files in chunks: memory follows the chunk, not the file.

The same contract as :func:`assay.core.io.read_segments` (strict UTF-8 with the failing line and byte
offset named, ``\\r\\n`` one terminator, only ``\\n`` splits lines, a byte-order mark kept or stripped
by ``encoding``, control characters recorded), without ever holding the whole file as text:

1. :func:`survey` reads the file's bytes once in blocks, counting lines and noting whether the last
   line is terminated and whether it starts with a byte-order mark (``-``, standard input, cannot be
   read twice and is not surveyed: callers read it whole);
2. :func:`iter_chunks` reads it again, decoding block by block (blocks end at a line end), and yields
   ``(first_line_number, lines)`` with at most ``chunk_lines`` lines each.

An empty file, or an unterminated last line that a tool chops (multi-bleu-detok), is known from the
survey before any text is scored, so line-count mismatches fail before the work starts.

A path ending in ``.gz`` is read through gzip (the same contract applies to the decompressed bytes; a
file that is not valid gzip is an :class:`InputError` naming it). :func:`expand_shards` turns one
command-line argument into the files of a sharded corpus: a glob (``out/part-*.txt``), matched in
sorted order, or a plain path.
"""
from __future__ import annotations

import codecs
import glob
import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterator

from assay.core.errors import InputError
from assay.core.io import ENCODINGS, ControlChar, first_control, reading

#: bytes read at a time (a block is extended to its last line end)
BLOCK_BYTES = 1 << 20
#: lines per yielded chunk by default (the scoring engine's unit of work)
CHUNK_LINES = 20_000


@dataclass(frozen=True)
class FileSurvey:
    """What one pass over a file's bytes tells before it is decoded."""

    path: str
    n_lines: int
    terminated: bool
    bom: bool
    n_bytes: int


def is_gzip(path: str | Path) -> bool:
    """Whether ``path`` is read through gzip (its name ends in ``.gz``)."""
    return str(path).endswith(".gz")


def _open(path: str | Path) -> BinaryIO:
    with reading(path):
        return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")   # type: ignore[return-value]


def _blocks(path: str | Path) -> Iterator[bytes]:
    """The file's (decompressed) bytes, :data:`BLOCK_BYTES` at a time; a broken gzip stream is an
    :class:`InputError` naming the file."""
    handle = _open(path)
    try:
        while True:
            try:
                block = handle.read(BLOCK_BYTES)
            except (OSError, EOFError, zlib.error) as exc:
                if not is_gzip(path):
                    raise InputError(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
                raise InputError(f"{path}: not a valid gzip file ({exc})") from None
            if not block:
                return
            yield block
    finally:
        handle.close()


def expand_shards(option: str, pattern: str) -> list[str]:
    """The files one argument names: itself if it is ``-`` or an existing path or has no glob
    characters (a missing file is reported by whoever opens it), else the glob's matches in sorted
    order; a glob that matches nothing is an :class:`InputError` naming ``option``."""
    if pattern == "-" or Path(pattern).exists() or not any(c in pattern for c in "*?["):
        return [pattern]
    matches = sorted(glob.glob(pattern))
    if not matches:
        raise InputError(f"{option} {pattern}: no file matches")
    return matches


def survey(path: str | Path, *, encoding: str = "utf-8", allow_empty: bool = False) -> FileSurvey:
    """Count the lines of a file (as :func:`read_segments` would split it) in one pass over its bytes."""
    if encoding not in ENCODINGS:
        raise InputError(f"encoding must be one of {', '.join(ENCODINGS)}, got {encoding!r}")
    newlines, size, last, head = 0, 0, b"", b""
    for block in _blocks(path):
        if len(head) < 3:
            head = (head + block)[:3]
        newlines += block.count(b"\n")
        size += len(block)
        last = block[-1:]
    bom = head.startswith(codecs.BOM_UTF8)
    text_bytes = size - (3 if bom and encoding == "utf-8-sig" else 0)
    if text_bytes == 0:
        if allow_empty:
            return FileSurvey(str(path), 0, True, bom, size)
        raise InputError(f"{path}: the file is empty")
    terminated = last == b"\n"
    return FileSurvey(str(path), newlines + (0 if terminated else 1), terminated, bom, size)


class ControlTally:
    """The first control character over all chunks of a file, and how many there are."""

    def __init__(self) -> None:
        self.first: ControlChar | None = None
        self.count = 0

    def add(self, text: str, line_offset: int) -> None:
        found = first_control(text)
        if found is None:
            return
        if self.first is None:
            self.first = ControlChar(found.line + line_offset, found.column, found.char, found.count)
        self.count += found.count

    def result(self) -> ControlChar | None:
        if self.first is None:
            return None
        f = self.first
        return ControlChar(f.line, f.column, f.char, self.count)


def _decode(block: bytes, name: str, line_offset: int, byte_offset: int) -> str:
    try:
        return block.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = line_offset + block.count(b"\n", 0, exc.start) + 1
        col = exc.start - (block.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(f"{name}:{line}: invalid UTF-8 (byte 0x{block[exc.start]:02x} at column {col}, "
                         f"byte offset {byte_offset + exc.start})") from None


def iter_chunks(path: str | Path, *, encoding: str = "utf-8", chunk_lines: int = CHUNK_LINES,
                controls: ControlTally | None = None) -> Iterator[tuple[int, list[str]]]:
    """``(number of the first line, lines)`` for consecutive chunks of the file, each at most
    ``chunk_lines`` lines, the lines split and stripped exactly as :func:`read_segments` does."""
    name = str(path)
    pending: list[str] = []
    first_line = 1              # number of pending[0]
    lines_read = 0              # lines decoded so far
    byte_offset = 0
    carry = b""
    first_block = True
    blocks = _blocks(path)
    while True:
        block = next(blocks, b"")
        data = carry + block
        if not block:
            cut = len(data)
        else:
            cut = data.rfind(b"\n") + 1
            if cut == 0:         # no line end yet: read on
                carry = data
                continue
        piece, carry = data[:cut], data[cut:]
        if first_block and piece.startswith(codecs.BOM_UTF8) and encoding == "utf-8-sig":
            piece, byte_offset = piece[3:], 3
        first_block = False
        if piece:
            text = _decode(piece, name, lines_read, byte_offset)
            byte_offset += len(piece)
            if controls is not None:
                controls.add(text, lines_read)
            lines = text.split("\n")
            if text.endswith("\n"):
                lines.pop()
            lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
            lines_read += len(lines)
            pending.extend(lines)
            while len(pending) >= chunk_lines:
                yield first_line, pending[:chunk_lines]
                del pending[:chunk_lines]
                first_line += chunk_lines
        if not block:
            break
    if pending:
        yield first_line, pending
