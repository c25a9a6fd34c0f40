"""``tercom``: the text normalisation TER scores (tercom 0.7.25 as sacrebleu's TER reproduces it).

Four switches (sacrebleu ``TER(normalized, no_punct, asian_support, case_sensitive)``), applied
in this order (each established black-box against sacrebleu 2.6.0 and 1.5.1):

1. ``case_sensitive=False`` (the default): Python ``str.lower()`` on the raw segment, *before*
   the rules below (so ``&QUOT;`` becomes ``"`` and ``IT'S`` becomes ``it 's`` when normalising).
2. ``normalized=True``: tercom's rules on the segment padded with one space at each end:
   ``\\n-`` removed (hyphenated line joins), ``\\n`` -> space, entities ``&quot; &amp; &lt; &gt;``
   unescaped in that order (``<skipped>`` is *not* removed, unlike mteval: it becomes
   ``< skipped >``); every ASCII punctuation character except ``' - , .`` is surrounded by spaces;
   ``'s`` before a space is split off; ``.`` and ``,`` are split from a preceding non-digit and
   from a following non-digit (``3.5`` and ``1,000`` survive, ``5.`` and ``.5`` do not); a ``-``
   after a digit is split off (``10-20`` -> ``10 - 20``, ``a-b`` stays).
   With ``asian_support=True`` every CJK character of :data:`ASIAN_CHARS` (ideographs, radicals,
   CJK and full-width punctuation) is then surrounded by spaces; kana and Hangul are not.
3. ``no_punct=True``: ``. , ? : ; ! " ( )`` deleted (``'``, ``-``, ``&``, ``$``, ``%`` stay); with
   ``asian_support=True`` also the CJK/full-width punctuation of :data:`ASIAN_PUNCT`.
4. Tokens: Python ``str.split()`` (every Unicode space and U+001C-U+001F separate tokens).

``asian_support`` without ``normalized`` only widens ``no_punct``.
"""
from __future__ import annotations

import re
from typing import Sequence

from assay.tokenizers.base import Lowercase, Tokenizer, distinct_batch

#: characters padded with spaces by ``asian_support`` (probed on every code point, 3 contexts)
ASIAN_CHARS = ("\u2e80-\u2eff\u3001-\u3002\u3008-\u3011\u3014-\u301f\u30fb\u31c0-\u31ef"
               "\u3200-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff01-\uff02\uff08-\uff09"
               "\uff0c\uff0e\uff1a-\uff1b\uff1f\uff61-\uff65")
#: ASCII punctuation that ``no_punct`` deletes
ASCII_PUNCT = '.,?:;!"()'
#: CJK / full-width punctuation that ``no_punct`` also deletes with ``asian_support``
ASIAN_PUNCT = ("\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb"
               "\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09")

# ASCII punctuation padded by the normalisation: everything printable but letters, digits, ' - , .
_PAD_PUNCT = re.compile(r"([!-&(-+/:-@\[-`{-~])")
_POSSESSIVE = re.compile(r"'s ")
_DOT_AFTER_NON_DIGIT = re.compile(r"([^0-9])([.,])")
_DOT_BEFORE_NON_DIGIT = re.compile(r"([.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")
_ASIAN = re.compile(f"([{ASIAN_CHARS}])")
_NO_PUNCT = re.compile(f"[{re.escape(ASCII_PUNCT)}]")
_NO_PUNCT_ASIAN = re.compile(f"[{re.escape(ASCII_PUNCT)}{ASIAN_PUNCT}]")
_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))


def tercom_normalize(text: str, asian_support: bool = False) -> str:
    """Step 2 (tercom's ``normalized`` rules); the result still needs splitting."""
    text = text.replace("\n-", "").replace("\n", " ")
    if "&" in text:
        for entity, char in _ENTITIES:
            text = text.replace(entity, char)
    text = _PAD_PUNCT.sub(r" \1 ", f" {text} ")
    if "'s" in text:
        text = _POSSESSIVE.sub(" 's ", text)
    if "." in text or "," in text:
        text = _DOT_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
        text = _DOT_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    if "-" in text:
        text = _DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)
    if asian_support:
        text = _ASIAN.sub(r" \1 ", text)
    return text


class TokenizerTercom(Tokenizer):
    """The tercom normalisation with its four switches (see the module docstring)."""

    name = "tercom"
    signature_name = "tercom"

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False):
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self._punct = (_NO_PUNCT_ASIAN if asian_support else _NO_PUNCT) if no_punct else None

    def tokenize(self, line: str) -> str:
        """The string sacrebleu's ``TercomTokenizer(...)(line)`` returns (tokens joined by spaces)."""
        return " ".join(self.tokenize_segment(line))

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        text = line if self.case_sensitive else line.lower()
        if self.normalized:
            text = tercom_normalize(text, self.asian_support)
        if self._punct is not None:
            text = self._punct.sub("", text)
        return text.split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        return distinct_batch(lines, lambda distinct: [self.tokenize_segment(line) for line in distinct])
