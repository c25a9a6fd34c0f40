"""``13a``: sacrebleu's default tokenizer (mteval-v13a's tokenizer without its lowercasing).

Rules, in order, on one segment:

1. remove every literal ``<skipped>`` (one left-to-right pass: ``<skip<skipped>ped>`` leaves
   ``<skipped>``, which is then split as punctuation);
2. ``-\\n`` -> ``''`` (line-break hyphen join), then ``\\n`` -> ``' '``;
3. if the segment contains ``&``: ``&quot;`` -> ``"``, ``&amp;`` -> ``&``, ``&lt;`` -> ``<``,
   ``&gt;`` -> ``>``, in that order (so ``&amp;lt;`` becomes ``<`` but ``&amp;quot;`` stays
   ``&quot;``); no other entity (``&apos;``, ``&#39;``, ``&nbsp;``) is touched;
4. pad with one space on each side, then four regex passes (``re``, non-overlapping, left to right):
   a. every ASCII punctuation/symbol character except ``' - . ,`` gets spaces around it;
   b. ``([^0-9])([.,])`` -> ``\\1 \\2 `` (a period/comma not preceded by a digit);
   c. ``([.,])([^0-9])`` -> `` \\1 \\2`` (not followed by a digit);
   d. ``([0-9])(-)`` -> ``\\1 \\2 `` (a hyphen after a digit);
   so ``1,000.50`` stays whole, sentence-final ``2019.`` is split, ``state-of-the-art`` is not;
5. collapse whitespace (Python ``\\s``, i.e. ``str.isspace``) to single spaces and strip.

Tokens are Python ``str.split()`` of the result. Quirk reproduced: Python's whitespace includes
U+001C-U+001F, so ``a\\x1cb`` is two tokens here but one token in mteval-v13a.pl (Perl ``\\s``
excludes them; see :mod:`assay.tokenizers.mteval`). sacrebleu's BLEU calls ``rstrip()`` on each
segment before tokenising (after lowercasing); ``tokenize_segment``/``tokenize_lines`` do the same,
``tokenize`` does not (it is the bare tokenizer call). The rstrip matters: ``'a-\\n'`` gives
``['a-']`` through the metric but ``['a']`` through the bare tokenizer.

``tokenize_lines`` processes a whole corpus in one pass: lines are joined with `` <SEP> `` where
SEP is a control character absent from the corpus (U+0000-U+0008, U+000E-U+001B, U+007F: not
whitespace, not matched by any rule, unchanged by lowercasing), each regex runs once over the
big string, and the result is cut at SEP. Because every segment is padded by spaces, no rule
can match across a separator, so the result equals per-line processing (tested with hypothesis).
"""
from __future__ import annotations

import re
from typing import Sequence

from .base import Lowercase, Tokenizer, choose_separator, lowercase_text

# rule 4a: ASCII punctuation and symbols except apostrophe, hyphen, period and comma
_RE_PUNCT = re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])")
_RE_PERIOD_COMMA_AFTER_NON_DIGIT = re.compile(r"([^0-9])([\.,])")
_RE_PERIOD_COMMA_BEFORE_NON_DIGIT = re.compile(r"([\.,])([^0-9])")
_RE_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")

# Separator candidates for batch processing (see module docstring).
BATCH_SEPARATORS = "".join(chr(c) for c in [*range(0x00, 0x09), *range(0x0E, 0x1C), 0x7F])


def apply_13a_regexes(padded: str) -> str:
    """Rule 4 (a-d) on a string that is already padded with spaces (shared with ``zh``, ``mteval``)."""
    text = _RE_PUNCT.sub(r" \1 ", padded)
    text = _RE_PERIOD_COMMA_AFTER_NON_DIGIT.sub(r"\1 \2 ", text)
    text = _RE_PERIOD_COMMA_BEFORE_NON_DIGIT.sub(r" \1 \2", text)
    return _RE_DASH_AFTER_DIGIT.sub(r"\1 \2 ", text)


def strip_skipped_and_join(text: str) -> str:
    """Rules 1-2: drop ``<skipped>``, join ``-\\n``, turn ``\\n`` into a space."""
    if "<skipped>" in text:
        text = text.replace("<skipped>", "")
    if "\n" in text:
        text = text.replace("-\n", "").replace("\n", " ")
    return text


def unescape_13a(text: str) -> str:
    """Rule 3: the four entities, in sacrebleu/mteval order, only when ``&`` occurs."""
    if "&" in text:
        text = (text.replace("&quot;", '"').replace("&amp;", "&")
                .replace("&lt;", "<").replace("&gt;", ">"))
    return text


class Tokenizer13a(Tokenizer):
    name = "13a"
    signature_name = "13a"

    def tokenize(self, line: str) -> str:
        text = unescape_13a(strip_skipped_and_join(line))
        return " ".join(apply_13a_regexes(f" {text} ").split())

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return self.tokenize(lowercase_text(line, lowercase).rstrip()).split()

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        if not lines:
            return []
        stripped = [line.rstrip() for line in lines]
        found = choose_separator(stripped, BATCH_SEPARATORS, " {} ")
        if found is None:  # every candidate occurs in the corpus: fall back to one line at a time
            return [self.tokenize_segment(line, lowercase) for line in lines]
        sep, text = found
        # Lowercasing the joined text is safe: ' SEP ' ends every case context (Final_Sigma).
        text = unescape_13a(strip_skipped_and_join(lowercase_text(text, lowercase)))
        text = apply_13a_regexes(f" {text} ")
        return [piece.split() for piece in text.split(sep)]
