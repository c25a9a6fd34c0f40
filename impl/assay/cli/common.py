"""What several commands share: ``--set KNOB=VALUE`` settings, ``--width`` and ``--encoding``, the
up-front checks of every file-taking option, reading aligned input files, and warnings.

Every path option is checked before any work starts, so a wrong path costs no time and reads as
one line naming the option and the path (``--junit out: is a directory, expected a file to write``).
Warnings (a byte-order mark, control characters in a segment) go to stderr once per file, escaped
(:func:`assay.core.terminal.escape`), as ``assay: warning: …``.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from assay.core.domains import Number, integer
from assay.core.errors import InputError, KnobError
from assay.core.io import ENCODINGS, SegmentFile, check_aligned, read_segments, read_utf8
from assay.core.terminal import escape

if TYPE_CHECKING:
    from assay.engine.stream import FileNotes

"""``-w/--width``: decimals in text output."""


def parse_knob_settings(items: Sequence[str]) -> dict[str, Any]:
    """``["KNOB=VALUE", …]`` -> ``{KNOB: "VALUE"}`` (the values are parsed by each knob)."""
    settings: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise KnobError(f"--set expects KNOB=VALUE, got {item!r}")
        settings[name.strip()] = value.strip()
    return settings


# ----------------------------------------------------------------------------- options
def bounded(domain: Number) -> Callable[[str], Any]:
    """An argparse ``type`` for a numeric option: the text parsed (an integer when ``domain`` is one)
    and checked against ``domain``; a bad value is argparse's usage error (exit 2) naming the domain."""
    def parse(text: str) -> Any:
        try:
            value: Any = int(text) if domain.integer else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {domain.describe()}, got {text!r}") from None
        try:
            domain.check(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{exc}, got {text}") from None
        return value
    parse.__name__ = "integer" if domain.integer else "number"    # argparse names the type in messages
    return parse


def width_value(text: str) -> Any:
    """argparse ``type`` of ``-w/--width``: an integer in :data:`assay.engine.api.WIDTH` (else a usage
    error, exit 2); the engine is imported only when a width is given."""
    from assay.engine.api import WIDTH

    return bounded(WIDTH)(text)


width_value.__name__ = "integer"    # as bounded() names it: argparse names the type in messages

COUNT = integer(0)
"""How many items a listing shows (``--top``, ``--max-matches``, ``--max-listed``): any size only lists all."""


def add_width(parser: Any, help: str) -> None:
    parser.add_argument("-w", "--width", type=width_value, metavar="N", help=f"{help}; 0 to 17")


def add_encoding(parser: Any) -> None:
    parser.add_argument("--encoding", choices=ENCODINGS, default="utf-8",
                        help="how segment files are decoded: utf-8 (default) keeps a leading byte-order mark "
                             "in segment 1, as sacrebleu does; utf-8-sig strips it")


# ----------------------------------------------------------------------------- paths
def input_file(option: str, path: Any, *, stdin: bool = False) -> None:
    """``path`` (given to ``option``) exists, is not a directory and is readable (``-`` = stdin if allowed)."""
    name = os.fspath(path)
    if stdin and name == "-":
        return
    p = Path(name)
    if not p.exists():
        raise InputError(f"{option} {name}: no such file")
    if p.is_dir():
        raise InputError(f"{option} {name}: is a directory, expected a file")
    if not os.access(p, os.R_OK):
        raise InputError(f"{option} {name}: not readable (permission denied)")


def input_dir(option: str, path: Any) -> None:
    """``path`` exists, is a directory and can be listed."""
    name = os.fspath(path)
    p = Path(name)
    if not p.exists():
        raise InputError(f"{option} {name}: no such directory")
    if not p.is_dir():
        raise InputError(f"{option} {name}: not a directory")
    if not os.access(p, os.R_OK | os.X_OK):
        raise InputError(f"{option} {name}: directory not readable (permission denied)")


def _writable_ancestor(option: str, name: str, p: Path, *, parents: bool) -> None:
    """The directory that will hold ``p`` exists (or, with ``parents``, can be created) and is writable."""
    parent = p.absolute().parent
    if not parents and not parent.is_dir():
        raise InputError(f"{option} {name}: directory {parent} does not exist")
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise InputError(f"{option} {name}: {parent} is a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"{option} {name}: directory {parent} not writable (permission denied)")


def output_file(option: str, path: Any, *, parents: bool = False) -> None:
    """A file can be written at ``path``: not a directory; writable if it exists; its directory
    exists (``parents``: is created by the command, so only the nearest existing ancestor counts)."""
    name = os.fspath(path)
    p = Path(name)
    if p.is_dir():
        raise InputError(f"{option} {name}: is a directory, expected a file to write")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise InputError(f"{option} {name}: file not writable (permission denied)")
        return
    _writable_ancestor(option, name, p, parents=parents)


def output_dir(option: str, path: Any) -> None:
    """A directory can be written at ``path``: it is one (writable), or it can be created."""
    name = os.fspath(path)
    p = Path(name)
    if p.exists():
        if not p.is_dir():
            raise InputError(f"{option} {name}: exists and is not a directory (an output directory is expected)")
        if not os.access(p, os.W_OK | os.X_OK):
            raise InputError(f"{option} {name}: directory not writable (permission denied)")
        return
    _writable_ancestor(option, name, p, parents=True)


def text_file(option: str, path: Any) -> str:
    """A small UTF-8 text file given to ``option`` (a list or table), checked and read."""
    input_file(option, path)
    return read_utf8(path)


# ----------------------------------------------------------------------------- warnings and input
_warned: set[tuple[str, str]] = set()


def warn(message: str, key: tuple[str, str] | None = None) -> None:
    """``assay: warning: MESSAGE`` on stderr, escaped; once per ``key`` in this process."""
    if key is not None:
        if key in _warned:
            return
        _warned.add(key)
    print(f"assay: warning: {escape(message)}", file=sys.stderr)


def report_notes(seg: "SegmentFile | FileNotes") -> None:
    """Say what a reader should know about a file: a byte-order mark scored as text, control characters."""
    where = os.path.abspath(seg.path)
    if seg.bom and not seg.bom_stripped:
        warn(f"{seg.path} starts with a UTF-8 byte-order mark (U+FEFF); it is scored as part of segment 1, "
             "as sacrebleu does; pass --encoding utf-8-sig to strip it", (where, "bom"))
    if seg.control is not None:
        c = seg.control
        more = f"; {c.count} in the file" if c.count > 1 else ""
        warn(f"{seg.path}:{c.line}: segment {c.line} contains the control character {c.label} "
             f"(column {c.column}{more}); it is scored as part of the segment's text", (where, "control"))


def read_file(path: Any, encoding: str = "utf-8") -> SegmentFile:
    """One segment file, its warnings reported."""
    seg = read_segments(path, encoding=encoding)
    report_notes(seg)
    return seg


def read_aligned(hyp_path: Any, ref_paths: Sequence[Any], encoding: str = "utf-8"
                 ) -> tuple[SegmentFile, list[SegmentFile]]:
    """The hypothesis file and the reference files, checked to have one line per segment each."""
    hyp = read_file(hyp_path, encoding)
    refs = [read_file(path, encoding) for path in ref_paths]
    check_aligned(hyp, refs)
    return hyp, refs
