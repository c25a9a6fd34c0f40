"""Errors that assay reports to users: one message, never a traceback, and the command line's exit code.

Exit codes of the ``assay`` command (README "Exit codes"); each error class carries its own as
``exit_code``, which ``assay.cli.main`` returns:

====  =========================================================================================
0     success
1-100 ``assay conform`` only: the number of failed and errored cases, capped at 100
2     usage error (argparse), bad input (:class:`InputError`), bad profile/knob/value
      (:class:`KnobError`), a missing optional dependency (:class:`MissingDependencyError`);
      ``assay conform`` whose selection has no case, or whose every case was skipped
4     the reproduced tool's own failure on this input (:class:`ToolBehaviourError`)
130   interrupted (Ctrl-C, ``KeyboardInterrupt``): :data:`EXIT_INTERRUPTED`
====  =========================================================================================
"""
from __future__ import annotations

#: Ctrl-C: 128 + SIGINT, as shells report a process that SIGINT ended.
EXIT_INTERRUPTED = 130


class AssayError(Exception):
    """Base class: a user-facing error with a clear message (CLI exit code :attr:`exit_code`)."""

    exit_code = 2


class InputError(AssayError):
    """Bad input text or files: wrong line counts, invalid UTF-8, empty files, wrong orientation,
    a path of the wrong kind (exit code 2)."""

    exit_code = 2


class UnchunkableInput(InputError):
    """The text shows that a configuration scored chunk by chunk with one segment of lookahead
    (``MetricFamily.chunks_with_lookahead``) needs the whole corpus at once: a PTB caption holding a
    line break other than ``\\n`` shifts the pairing of every later caption (KD-PTB-02). The
    single-process engine catches it and scores the corpus whole; sharded engines report it (exit 2)."""

    exit_code = 2


class KnobError(AssayError):
    """Unknown profile or knob, bad knob value, or an invalid knob combination (exit code 2)."""

    exit_code = 2


class ToolBehaviourError(AssayError):
    """The reproduced tool itself fails on this input (e.g. NLTK NIST's ZeroDivisionError); exit code 4.

    ``tool_error`` names what the tool raises, so fixtures can record crashes as data.
    """

    exit_code = 4

    def __init__(self, message: str, tool_error: str):
        super().__init__(message)
        self.tool_error = tool_error


class MissingDependencyError(AssayError):
    """An optional dependency (e.g. MeCab for ``ja-mecab``) is not installed (exit code 2)."""

    exit_code = 2
