"""Text bound for a terminal, made inert: what assay echoes from user input (file names, profile
names, knob values, an implementation's stderr) never reaches stdout/stderr raw.

A control character (C0, DEL, C1: ``ESC`` starts every ANSI escape sequence, so escaping it defuses
colours, cursor moves and OSC 8 links), a bidirectional override or isolate (U+202A..U+202E,
U+2066..U+2069, the "Trojan Source" characters), a bidirectional mark (U+200E, U+200F, U+061C) or a
line/paragraph separator (U+2028, U+2029) is shown as a Python-style escape: ``\\x1b``, ``\\u202e``.
Everything else, backslashes included, is shown as it is (paths stay readable).
"""
from __future__ import annotations

import re

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape(text: object, keep: str = "") -> str:
    """``str(text)`` with every unsafe character escaped, except those in ``keep`` (e.g. ``"\\n"``
    for a multi-line report whose line breaks are assay's own)."""
    s = str(text)
    if keep:
        return _UNSAFE.sub(lambda m: m.group() if m.group() in keep else _shown(m), s)
    return _UNSAFE.sub(_shown, s)
