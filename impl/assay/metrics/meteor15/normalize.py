"""METEOR 1.5 ``-norm``: Moses-style English tokenisation of the cased text, then lowercasing.

Reproduced black-box from the jar (``-writeAlignments`` prints the normalised tokens):

1. typographic characters: ``’ ‘ ´`` → ``'``, ``“ ” „`` → ``"``, backtick → ``'``, ``''`` → ``"``,
   en dash → `` - ``; ``--`` → ``-`` (left to right, so ``----`` → ``--``);
2. a hyphen with a non-space, non-hyphen character on both sides becomes a space
   (``state-of-the-art`` → 4 words, ``U.S.-led`` → ``U.S. led``; ``-word-`` and ``a--b`` stay);
3. every character that is not a letter/digit, whitespace, ``.``, ``'``, ``,`` or ``-`` is split off;
4. runs of two or more periods stay together as one token;
5. a comma is split off unless it has a digit on both sides (``1,000`` stays);
6. English apostrophes: ``doesn't`` → ``doesn 't``, ``James'`` → ``James '``, ``'tis`` → ``' tis``,
   ``90's`` → ``90 's``, ``5'6`` → ``5 ' 6``;
7. a word ending in one period keeps it when the rest contains a period and a letter (``U.S.``), is a
   nonbreaking prefix (``Mr``, case-sensitive, from the jar's ``nonbreaking/english.prefixes``), or is
   followed by a word starting with a lowercase letter; a numeric-only prefix (``No``) keeps it
   before a word starting with a digit; otherwise the period is split off;
8. a token of letter groups each followed by a period, at least two of them (``U.S.A.``, ``Ph.D.``,
   ``e.g.``), loses its periods;
9. lowercasing (after all of the above: the prefix and next-word tests see the original case).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

_TYPO = str.maketrans({"’": "'", "‘": "'", "´": "'", "“": '"', "”": '"', "„": '"', "`": "'"})
_HYPHEN = re.compile(r"(?<=[^\s-])-(?=[^\s-])")
_SPECIAL = re.compile(r"([^\w\s.',-]|_)")
_MULTIDOT = re.compile(r"\.{2,}")
_COMMA1 = re.compile(r"(?<=\D),(?=\D)|(?<=\d),(?=\D)|(?<=\D),(?=\d)")
_ALPHA = r"[^\W\d_]"
_APOS = (
    (re.compile(r"([^\w]|\d|_)'([^\w]|\d|_)"), r"\1 ' \2"),          # non-alpha ' non-alpha
    (re.compile(rf"([^\w]|_)'({_ALPHA})"), r"\1 ' \2"),                # non-alnum ' alpha
    (re.compile(rf"({_ALPHA})'([^\w]|\d|_)"), r"\1 ' \2"),             # alpha ' non-alpha
    (re.compile(rf"({_ALPHA})'({_ALPHA})"), r"\1 '\2"),                # alpha ' alpha
    (re.compile(r"(\d)'(s)"), r"\1 '\2"),                              # 1990's
)
_ACRONYM = re.compile(rf"(?:{_ALPHA}+\.){{2,}}")
_PLACEHOLDER = "\x00"


def _split_periods(words: list[str], prefixes: Mapping[str, int]) -> list[str]:
    out: list[str] = []
    last = len(words) - 1
    for i, word in enumerate(words):
        if len(word) > 1 and word.endswith(".") and not word.endswith(".."):
            pre = word[:-1]
            nxt = words[i + 1] if i < last else ""
            kind = prefixes.get(pre, 0)
            if ("." in pre and re.search(_ALPHA, pre)) or kind == 1 or (nxt[:1].islower()):
                pass
            elif kind == 2 and nxt[:1].isdigit():
                pass
            else:
                out.append(pre)
                out.append(".")
                continue
        out.append(word)
    return out


def tokenize(text: str, prefixes: Mapping[str, int]) -> list[str]:
    """The jar's ``-norm`` tokens of one line (see the module docstring for the rules)."""
    t = text.translate(_TYPO).replace("''", '"').replace("–", " - ")
    t = t.replace("--", "-")
    t = _HYPHEN.sub(" ", t)
    t = _SPECIAL.sub(r" \1 ", t)
    dots: list[str] = []

    def _hold(m: re.Match[str]) -> str:
        dots.append(m.group(0))
        return f" {_PLACEHOLDER}{len(dots) - 1}{_PLACEHOLDER} "
    t = _MULTIDOT.sub(_hold, t)
    t = _COMMA1.sub(" , ", f" {t} ")
    for pat, rep in _APOS:
        t = pat.sub(rep, t)
    words = _split_periods(t.split(), prefixes)
    out: list[str] = []
    for w in words:
        if _PLACEHOLDER in w:
            w = re.sub(f"{_PLACEHOLDER}(\\d+){_PLACEHOLDER}", lambda m: dots[int(m.group(1))], w)
        elif w.endswith(".") and _ACRONYM.fullmatch(w):
            w = w.replace(".", "")
        out.append(w.lower())
    return out


@lru_cache(maxsize=4)
def _cached(prefixes_items: tuple[tuple[str, int], ...]) -> dict[str, int]:
    return dict(prefixes_items)
