"""The ``assay`` command line: one entry point, one module per command.

    assay score METRIC -i HYP -r REF [REF …] [--profile NAME] [--set KNOB=VALUE …]
                [--sentence] [--format text|json] [--width N] [--encoding E]  (cli/score.py)
    assay score coco --annotations A.json --results R.json [--subset] [--per-image] […]   (cli/coco.py)
    assay significance METRIC[,METRIC…] -i BASELINE [SYSTEM …] -r REF [REF …]
                (--paired-bs | --paired-ar | --confidence) […]                (cli/significance.py)
    assay compare | report | audit | conform …   (cli/compare.py, report.py, audit.py, conform.py)
    assay profiles [METRIC] / assay knobs METRIC                              (cli/profiles.py)
    assay completion bash|zsh|fish                                            (cli/completion.py)

``-q``/``--quiet`` (before the command) turns every progress bar off (:func:`assay.core.progress.set_quiet`);
bars are drawn only when stderr is a terminal anyway.

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
from typing import Any, NoReturn, Sequence

from importlib import import_module

from assay._version import __version__
from assay.core import accel
from assay.core.errors import EXIT_INTERRUPTED, AssayError
from assay.core.progress import set_quiet
from assay.core.terminal import escape


class Parser(argparse.ArgumentParser):
    """argparse, with its error messages (which quote what the user typed) escaped for the terminal."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {escape(message)}\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:  # type: ignore[override]
        """As argparse, but an unknown option is reported by the command it was given to (that
        command's usage, ``assay score: error: unrecognized arguments: --bogus``), not by ``assay``."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            commands = next((a.choices for a in self._actions if isinstance(a, argparse._SubParsersAction)), {})
            owner = commands.get(getattr(parsed, "command", None), self)
            owner.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed


#: every command, in the order ``assay --help`` lists them: (names it adds, its module). A module's
#: ``add_parser(sub)`` (``add_parsers`` for several names) adds its sub-parser(s).
COMMANDS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("score",), "assay.cli.score"),
    (("significance",), "assay.cli.significance"),
    (("sacrebleu",), "assay.cli.sacrebleu"),
    (("compare",), "assay.cli.compare"),
    (("report",), "assay.cli.report"),
    (("audit",), "assay.cli.audit"),
    (("conform",), "assay.cli.conform"),
    (("profiles", "knobs"), "assay.cli.profiles"),
    (("completion",), "assay.cli.completion"),
)


def _selected(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (its first word that is not an option), if it is one of ours."""
    first = next((a for a in argv if not a.startswith("-")), None)
    return first if any(first in names for names, _ in COMMANDS) else None


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given ``argv``, only the named command's module is imported (its jobs, numpy
    and the rest load only when used: ``assay score`` starts as fast as the score path needs).
    Without a command (``assay --help``, a typo), every command's parser is built."""
    parser = Parser(prog="assay", description="Reference-conformant text-generation metrics.")
    parser.add_argument("--version", action="version", version=f"assay {__version__}; {accel.status()}")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bars (they are drawn only when stderr is a terminal)")
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = _selected(argv) if argv is not None else None
    for names, module_name in COMMANDS:
        if chosen is not None and chosen not in names:
            for name in names:   # a placeholder keeps the command listed and its usage valid
                sub.add_parser(name, add_help=False)
            continue
        module = import_module(module_name)
        (module.add_parsers if len(names) > 1 else module.add_parser)(sub)
    for command in sub.choices.values():   # -q also after the command (``assay compare … -q``)
        if "-q" not in command._option_string_actions and "--quiet" not in command._option_string_actions:
            command.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                                 help="no progress bars (as assay -q)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        if "_ARGCOMPLETE" in os.environ and argv is None:   # a shell asks for completions (cli/completion.py)
            from assay.cli.completion import complete
            complete(build_parser)
        args = build_parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
        set_quiet(args.quiet)
        return args.handler(args)
    except AssayError as exc:
        print(f"assay: error: {escape(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        previous = _ignore_further_interrupts()
        print("assay: interrupted", file=sys.stderr)
        if argv is not None and previous is not None:
            # called as a library (tests, the pytest plugin): give the host its handler back, or every
            # process it starts afterwards would inherit an ignored SIGINT
            signal.signal(signal.SIGINT, previous)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except OSError as exc:   # writing an output (disk full, a path that changed under us, ...)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"assay: error: {escape(where)}{escape(exc.strerror or exc)}", file=sys.stderr)
        return AssayError.exit_code


def _ignore_further_interrupts() -> Any:
    """A second Ctrl-C must not interrupt the goodbye (only the main thread may set a handler);
    returns the handler it replaced (None when it could not)."""
    try:
        return signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        return None


def _silence_stdout() -> None:
    """The reader of stdout went away (``assay … | head``): no 'Exception ignored' when Python flushes it."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
