"""Errors that assay reports to users: one message, exit code 2, never a traceback."""
from __future__ import annotations


class AssayError(Exception):
    """Base class: a user-facing error with a clear message (CLI exit code 2)."""

    exit_code = 2


class InputError(AssayError):
    """Bad input text: wrong line counts, invalid UTF-8, empty files, wrong orientation."""


class KnobError(AssayError):
    """Unknown profile or knob, bad knob value, or an invalid knob combination."""


class ToolBehaviourError(AssayError):
    """The reproduced tool itself fails on this input (e.g. NLTK NIST's ZeroDivisionError).

    ``tool_error`` names what the tool raises, so fixtures can record crashes as data.
    """

    def __init__(self, message: str, tool_error: str):
        super().__init__(message)
        self.tool_error = tool_error


class MissingDependencyError(AssayError):
    """An optional dependency (e.g. MeCab for ``ja-mecab``) is not installed."""
