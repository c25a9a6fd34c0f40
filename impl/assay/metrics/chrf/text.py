"""chrF's text stage: the strings character n-grams are taken from, and chrF++'s word tokens.

- Input: strings; token lists only with ``token_lists=join`` (NLTK joins them with one space).
- Character n-grams: unless ``whitespace``, whitespace is deleted first. ``whitespace_set``:
  ``isspace`` = the ``str.isspace`` characters, as ``str.split`` (sacrebleu, NLTK 3.5);
  ``white_space`` = the Unicode White_Space property, which leaves U+001C..U+001F (NLTK 3.10's
  regex ``\\s``); ``space`` = ``str.isspace`` characters at both ends (``str.strip``) and U+0020
  inside (torchmetrics: a tab or no-break space between words stays a character).
- chrF++ words: ``str.split``, then a token longer than one character loses **one** trailing
  ASCII punctuation character into its own token, else one leading one (sacrebleu #124:
  ``(hi)`` -> ``(hi``, ``)``).
"""
from __future__ import annotations

import re
import string
from typing import Any, Sequence

import numpy as np

from assay.core.errors import InputError
from assay.core.knobs import Config
from assay.text.ngrams import Encoded

UNICODE_SPACE = "".join(chr(c) for c in range(0x3000 + 1) if chr(c).isspace())   # all 29 are <= U+3000
#: the Unicode White_Space property: str.isspace minus U+001C..U+001F (NLTK 3.10's regex \s)
WHITE_SPACE = "".join(c for c in UNICODE_SPACE if c not in "\x1c\x1d\x1e\x1f")
_WHITE_SPACE_RUN = re.compile("[" + re.escape(WHITE_SPACE) + "]+")
_PUNCT = frozenset(string.punctuation)   # ASCII only: '«oui»' and 'word—' stay whole


def segment_text(seg: Any, i: int, what: str, config: Config) -> str:
    """The string of one segment (``what`` and ``i`` name it in errors)."""
    if isinstance(seg, str):
        return seg
    if isinstance(seg, (list, tuple)) and config.token_lists == "join":
        return " ".join(seg)       # NLTK: a token list becomes one space-joined string
    if isinstance(seg, (list, tuple)):
        raise InputError(f"{what} {i + 1}: chrF (profile knob token_lists=error) takes strings, not token lists")
    raise InputError(f"{what} {i + 1}: expected a string, got {type(seg).__name__}")


def char_text(text: str, config: Config) -> str:
    """The characters n-grams are taken from: whitespace deleted unless ``whitespace``."""
    if config.whitespace:
        return text
    if config.whitespace_set == "white_space":
        return _WHITE_SPACE_RUN.sub("", text)
    if config.whitespace_set == "space":
        return text.strip().replace(" ", "")
    return "".join(text.split())


def word_tokens(text: str) -> list[str]:
    """chrF++ words: whitespace split, then one trailing (else one leading) ASCII punctuation split off."""
    out: list[str] = []
    for w in text.split():
        if len(w) > 1:
            if w[-1] in _PUNCT:
                out += (w[:-1], w[-1])
                continue
            if w[0] in _PUNCT:
                out += (w[0], w[1:])
                continue
        out.append(w)
    return out


def encode_chars(texts: Sequence[str]) -> Encoded:
    """Code points of every text, concatenated, with segment offsets."""
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    raw = "".join(texts).encode("utf-32-le", "surrogatepass")
    ids = np.frombuffer(raw, dtype="<u4").astype(np.int64)
    return Encoded(ids, offsets)
