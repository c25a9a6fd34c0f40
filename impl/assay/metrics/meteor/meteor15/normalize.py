"""METEOR 1.5 ``-norm``: Moses-style English tokenisation of the cased text, then lowercasing.

Behaviour reproduced (clean-room behavioural specification, checked on the jar's ``-writeAlignments``
tokens). Every substitution is one left-to-right pass whose context characters are consumed (a
character used as context cannot be the context of the next match: ``7-9-12`` → ``7 9-12``).
Character classes are the jar's own code-point lists, not Unicode categories: *alpha* is ASCII
letters, U+00C0–U+017E without × ÷, Cyrillic U+0400–U+0527, U+A640–U+A697 and U+1D00–U+1D7F;
*alnum* adds ASCII digits only; *space* is ASCII whitespace.

1. every character that is not alnum, space, ``. ' ` , -`` or ``‘ ’`` is split off (one token per
   CJK/Greek/symbol character: ``丨Beijing`` → ``丨 Beijing``);
2. runs of two or more periods become one token (escaped as ``DOT…MULTI`` until step 9, so the
   literal ``DOTMULTI`` comes out as ``.``, as in the jar);
3. commas: split when both neighbours are non-digits, then digit/non-digit, then non-digit/digit
   (ASCII digits; consumed context leaves ``a , b,c`` of ``a,b,c``);
4. `` ` ‘ ’`` → ``'``; ``“ ” ''`` → `` " `` (``„`` and ``´`` stay tokens of their own);
5. en dash → ``-``; ``--`` → ``-`` (non-overlapping);
6. a hyphen between an alnum (or ``.``) and an alnum becomes a space (``state-of-the-art`` → 4 words,
   ``U.S.-led`` → ``U.S. led``; ``" -economic`` and ``highlights-`` keep theirs);
7. English apostrophes (``doesn't`` → ``doesn 't``, ``James'`` → ``James '``, ``1990's`` → ``1990 's``);
8. a word ending in one period: if the rest has a period and an alpha character, every period is
   removed (``U.S.`` → ``US``, ``3.5km.`` → ``35km``); kept if the rest is a nonbreaking prefix (``Mr``,
   case-sensitive, from the jar's ``nonbreaking/english.prefixes``) or the next word starts with an
   ASCII lowercase letter; kept for a numeric-only prefix (``No``) before an ASCII digit; else split off;
9. the period runs are restored; runs of the jar's whitespace set (incl. no-break and ideographic
   spaces) collapse; the line is lowercased (Unicode, after all of the above: the prefix and next-word
   tests see the original case).
"""
from __future__ import annotations

import re
from typing import Mapping

from assay.core import accel

try:
    from assay.metrics.meteor.meteor15 import _normalize_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

_ALPHA = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017e\u0400-\u0527\ua640-\ua66e\ua67e-\ua697\u1d00-\u1d7f"
_ALNUM = _ALPHA + "0-9"
_SPACE = " \t\n\x0b\f\r"
_SPECIAL = re.compile(f"([^{_ALNUM}{_SPACE}.'`,\\-\u2018\u2019])")
_MULTIDOT = re.compile(r"\.([.]+)")
_COMMAS = (re.compile(r"([^0-9]),([^0-9])"), re.compile(r"([0-9]),([^0-9])"), re.compile(r"([^0-9]),([0-9])"))
_HYPHEN = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_APOS = (
    (re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([^{_ALNUM}])'([{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([{_ALPHA}])"), r"\1 '\2"),
    (re.compile(r"([0-9])'(s)"), r"\1 '\2"),
)
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_WORD_SPLIT = re.compile(r"[ \t\n\r\f]+")
_COLLAPSE = re.compile("[ \u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_JAVA_TRIM = "".join(chr(c) for c in range(33))     # String.trim(): every character up to U+0020


def _escape_dots(t: str) -> str:
    """Runs of 2+ periods as ``DOTDOT…MULTI`` words (space before, and after when a non-dot follows)."""
    t = _MULTIDOT.sub(r" DOTMULTI\1", t)
    while "DOTMULTI." in t:
        t = re.sub(r"DOTMULTI\.([^.])", r"DOTDOTMULTI \1", t)
        t = t.replace("DOTMULTI.", "DOTDOTMULTI")
    return t


def _restore_dots(t: str) -> str:
    while "DOTDOTMULTI" in t:
        t = t.replace("DOTDOTMULTI", "DOTMULTI.")
    return t.replace("DOTMULTI", ".")


def _final_periods(words: list[str], prefixes: Mapping[str, int]) -> list[str]:
    """Rule 8 on every word ending in one period (the others pass unchanged)."""
    ends = [i for i, w in enumerate(words) if w[-1] == "." and len(w) > 1]
    if not ends:
        return words
    out = list(words)
    last = len(words) - 1
    for i in reversed(ends):        # from the end, so a split does not shift the positions still to come
        word = words[i]
        pre = word[:-1]
        nxt = words[i + 1] if i < last else ""
        kind = prefixes.get(pre, 0)
        if "." in pre and _HAS_ALPHA.search(pre):
            out[i] = word.replace(".", "")
        elif kind == 1 or "a" <= nxt[:1] <= "z":
            pass
        elif kind == 2 and "0" <= nxt[:1] <= "9":
            pass
        else:
            out[i:i + 1] = [pre, "."]
    return out


def tokenize(text: str, prefixes: Mapping[str, int]) -> list[str]:
    """The jar's ``-norm`` tokens of one line: :func:`tokenize_py`, compiled when the twin is built."""
    if _compiled is not None:
        t = _compiled.normalized(text, prefixes)
        if t is not None:
            return _words(t)
    return tokenize_py(text, prefixes)


def tokenize_py(text: str, prefixes: Mapping[str, int]) -> list[str]:
    """The jar's ``-norm`` tokens of one line (see the module docstring for the rules).

    A pass whose pattern needs a character the line does not hold is skipped (it would change
    nothing)."""
    t = _SPECIAL.sub(r" \1 ", f" {text} ")
    if ".." in t or "DOTMULTI" in t:
        t = _escape_dots(t)
    if "," in t:
        for pat in _COMMAS:
            t = pat.sub(r"\1 , \2", t)
    t = t.replace("`", "'").replace("\u2018", "'").replace("\u2019", "'")
    t = t.replace("\u201c", ' " ').replace("\u201d", ' " ').replace("''", ' " ')
    t = t.replace("\u2013", "-").replace("--", "-")
    if "-" in t:
        t = _HYPHEN.sub(r"\1 \2", t)
    if "'" in t:
        for pat, rep in _APOS:
            t = pat.sub(rep, t)
    words = [w for w in _WORD_SPLIT.split(t) if w]
    t = " ".join(_final_periods(words, prefixes))
    if "DOTMULTI" in t:
        t = _restore_dots(t)
    if not t.isascii():
        t = _COLLAPSE.sub(" ", t)
    return _words(t)


def _words(t: str) -> list[str]:
    """Trimmed, lowercased, split on spaces (the line holds no other separator by now)."""
    return [w for w in t.strip(_JAVA_TRIM).lower().split(" ") if w]
