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
import gc
import os
import sys
from typing import Any, NoReturn, Sequence

from importlib import import_module

from assay._version import __version__
from assay.core.errors import EXIT_INTERRUPTED, AssayError
from assay.core.gcpause import collector_paused
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


class _Version(argparse._VersionAction):
    """``--version``: assay's version and which path the hot loops take (:func:`assay.core.accel.status`,
    which looks for the compiled twins on disk: done when asked, not each time a parser is built)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from assay.core import accel

        self.version = f"assay {__version__}; {accel.status()}"
        super().__call__(parser, namespace, values, option_string)


#: every command, in the order ``assay --help`` lists them: (names it adds, its module). A module's
#: ``add_parser(sub)`` (``add_parsers`` for several names) adds its sub-parser(s); its ``HELP`` maps
#: each name to the line ``assay --help`` shows.
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
    """The parser. Given ``argv``, only the named command's module is imported and its parser built (the
    other commands are placeholders that keep them listed and the usage valid; their modules, jobs, numpy
    and the rest load only when used: ``assay score`` starts as fast as the score path needs); without a
    command (``assay --help``, a typo) no command's parser is built, the placeholders show each module's
    ``HELP`` line. Without ``argv`` (tests, tools that walk the whole parser) every parser is built."""
    parser = Parser(prog="assay", description="Reference-conformant text-generation metrics.")
    parser.add_argument("--version", action=_Version, version="")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bars (they are drawn only when stderr is a terminal)")
    sub = parser.add_subparsers(dest="command", required=True)
    chosen = _selected(argv) if argv is not None else None
    built: list[str] = []
    for names, module_name in COMMANDS:
        if argv is not None and chosen not in names:
            helps = import_module(module_name).HELP if chosen is None else {}
            for name in names:   # a placeholder (never parses: the command named is built)
                sub.add_parser(name, add_help=False, **({"help": helps[name]} if helps else {}))
            continue
        module = import_module(module_name)
        (module.add_parsers if len(names) > 1 else module.add_parser)(sub)
        built += names
    for command in (sub.choices[name] for name in built):   # -q also after the command (``assay compare … -q``)
        if "-q" not in command._option_string_actions and "--quiet" not in command._option_string_actions:
            command.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                                 help="no progress bars (as assay -q)")
    return parser


#: commands that multiply no matrices (resampling does, ``counts @ rows`` in :mod:`assay.jobs.significance`,
#: and ``conform`` runs other code): their numpy starts with one BLAS thread (:func:`_single_blas_thread`)
_NO_BLAS = frozenset({"score", "profiles", "knobs"})

#: the variables that set OpenBLAS's thread count, in the order it reads them
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _single_blas_thread(command: str) -> None:
    """Import numpy with one OpenBLAS thread when the command needs no BLAS (:data:`_NO_BLAS`; called
    once its arguments are parsed, before it runs: ``assay score --help`` imports no numpy).

    Starting OpenBLAS's pool of threads is half the time of ``import numpy`` (0.06 of 0.12 s here,
    and twice the CPU), which is most of a short ``assay score``'s run. ``OPENBLAS_NUM_THREADS=1`` is
    set only while numpy loads (OpenBLAS reads it then, once), so a process the command starts (a Dask
    worker) inherits the environment the user gave; a thread count the user set is kept. Only for the
    command line itself (:func:`main` called without ``argv``): a host process keeps its own BLAS."""
    if command not in _NO_BLAS or "numpy" in sys.modules or any(v in os.environ for v in _BLAS_THREADS):
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import_module("numpy")
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def main(argv: Sequence[str] | None = None) -> int:
    """The ``assay`` command: ``argv`` (default ``sys.argv[1:]``) parsed and run; returns the exit code.

    As the command line itself (no ``argv``: this process is the command) start-up runs with the
    cyclic garbage collector paused (:func:`assay.core.gcpause.collector_paused`: importing numpy and
    the command's modules makes ~10^5 long-lived objects and no garbage), then every object alive is
    frozen (``gc.freeze``: the command's own collections skip the modules, classes and functions),
    and again at the end, so the collections of the interpreter's shutdown have nothing to traverse:
    together about a tenth of a short ``assay score``. A host calling :func:`main` keeps its collector
    as it was."""
    command_line = argv is None
    try:
        if "_ARGCOMPLETE" in os.environ and command_line:   # a shell asks for completions (cli/completion.py)
            from assay.cli.completion import complete
            complete(build_parser)
        if command_line:
            with collector_paused():
                args = build_parser(sys.argv[1:]).parse_args(argv)
                _single_blas_thread(args.command)
            gc.freeze()
        else:
            args = build_parser(argv).parse_args(argv)
        set_quiet(args.quiet)
        return args.handler(args)
    except AssayError as exc:
        print(f"assay: error: {escape(exc)}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        previous = _ignore_further_interrupts()
        print("assay: interrupted", file=sys.stderr)
        if argv is not None and previous is not None:
            import signal

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
    finally:
        if command_line:
            gc.freeze()


def _ignore_further_interrupts() -> Any:
    """A second Ctrl-C must not interrupt the goodbye (only the main thread may set a handler);
    returns the handler it replaced (None when it could not)."""
    import signal   # here: only an interrupted command needs it

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
