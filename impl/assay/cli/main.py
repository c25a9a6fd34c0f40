"""The ``assay`` command line: one entry point, one module per command.

    assay score METRIC -i HYP -r REF [REF …] [--profile NAME] [--set KNOB=VALUE …]
                [--sentence] [--format text|json] [--width N] [--encoding E]  (cli/score.py)
    assay score coco --annotations A.json --results R.json [--subset] [--per-image] […]   (cli/coco.py)
    assay significance METRIC[,METRIC…] -i BASELINE [SYSTEM …] -r REF [REF …]
                (--paired-bs | --paired-ar | --confidence) […]                (cli/significance.py)
    assay compare | report | audit | conform …   (cli/compare.py, report.py, audit.py, conform.py)
    assay profiles [METRIC] / assay knobs METRIC                              (cli/profiles.py)

Each command module adds its sub-parser and sets ``handler=<function(args) -> exit code>``.
An error prints one line ``assay: error: …`` (escaped: :func:`assay.core.terminal.escape`) and
exits with its class's ``exit_code`` (:mod:`assay.core.errors`: 2 usage/input/knob/missing
dependency, 4 the reproduced tool's own failure); argparse's usage errors exit 2; Ctrl-C prints
``assay: interrupted`` and exits 130; ``assay conform`` exits with the number of failed and errored
cases (capped at 100); a closed stdout is not an error. No traceback in any of these.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import NoReturn, Sequence

from assay._version import __version__
from assay.cli import audit, compare, conform, profiles, report, score, significance
from assay.core.errors import EXIT_INTERRUPTED, AssayError
from assay.core.terminal import escape


class Parser(argparse.ArgumentParser):
    """argparse, with its error messages (which quote what the user typed) escaped for the terminal."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {escape(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="assay", description="Reference-conformant text-generation metrics.")
    parser.add_argument("--version", action="version", version=f"assay {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    score.add_parser(sub)
    significance.add_parser(sub)
    for command in (compare, report, audit, conform):
        command.add_parser(sub)
    profiles.add_parsers(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.handler(args)
    except AssayError as exc:
        print(f"assay: error: {escape(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        _ignore_further_interrupts()
        print("assay: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:   # writing an output (disk full, a path that changed under us, ...)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"assay: error: {escape(where)}{escape(exc.strerror or exc)}", file=sys.stderr)
        return AssayError.exit_code


def _ignore_further_interrupts() -> None:
    """A second Ctrl-C must not interrupt the goodbye (only the main thread may set a handler)."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        pass


def _silence_stdout() -> None:
    """The reader of stdout went away (``assay … | head``): no 'Exception ignored' when Python flushes it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
