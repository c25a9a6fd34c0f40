"""The tokenizer interface shared by every metric family.

A tokenizer turns raw segments into token lists. It owns three things that differ between
reference tools and must not be separated: its rewriting rules, where lowercasing happens
relative to them, and how the result is split into tokens (Python ``str.split()`` splits
U+001C-U+001F and all Unicode spaces; Perl's ``split`` on bytes splits ASCII whitespace only).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Literal, Optional, Sequence

if TYPE_CHECKING:
    import numpy as np

Lowercase = Literal["unicode", "perl", "ascii"] | None

IdEncoder = Callable[[Sequence[str]], "tuple[np.ndarray, np.ndarray]"]
"""``lines -> (ids, lengths)``: the int64 ids of every token of every line (one table shared by
the encoder's calls, ids in first-seen order) and each line's token count
(:meth:`Tokenizer.id_encoder`)."""

_ASCII_UPPER = str.maketrans({chr(c): chr(c + 32) for c in range(ord("A"), ord("Z") + 1)})


def lowercase_text(text: str, mode: Lowercase) -> str:
    """Unicode ``str.lower()`` (sacrebleu) or ASCII-only (Perl ``tr/A-Z/a-z/``, byte ``lc``).

    Perl's ``lc`` on decoded text is *not* quite ``str.lower()``: see :func:`perl_lc`.
    """
    if mode is None:
        return text
    if mode == "unicode":
        return text.lower()
    if mode == "perl":
        return perl_lc(text)
    if mode == "ascii":
        return text.translate(_ASCII_UPPER)
    raise ValueError(f"unknown lowercase mode {mode!r}")


def perl_lc(text: str) -> str:
    """Perl ``lc`` on a decoded (UTF-8) string.

    Checked by running perl 5.36 on every code point: ``lc`` equals Python's ``str.lower()``
    character by character, but Perl has no Final_Sigma context rule, so ``Σ`` always becomes
    ``σ`` (Python gives ``ς`` at the end of a word: ``'ΟΔΟΣ'.lower() == 'οδος'``, Perl ``lc``
    gives ``'οδοσ'``; mteval ``--international-tokenization`` confirmed). Turning every ``Σ``
    into ``σ`` first leaves the context of every other character unchanged (both are cased).
    """
    if "\u03a3" in text:
        text = text.replace("\u03a3", "\u03c3")
    return text.lower()


# Characters Perl's ``\s`` matches on decoded text (perl 5.36, all code points probed):
# Python's ``str.isspace()`` set minus U+001C-U+001F.
PERL_SPACE_CHARS = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
# Perl ``\s`` / ``split ' '`` on undecoded bytes (multi-bleu.perl): ASCII whitespace, \v included.
ASCII_SPACE_CHARS = "\t\n\x0b\x0c\r "

# Python ``str.split()`` also splits on these; Perl's ``\s`` does not. They are the only difference.
PY_ONLY_SPACE_CHARS = "\x1c\x1d\x1e\x1f"
_PERL_SPACE_RUN = re.compile("[" + re.escape(PERL_SPACE_CHARS) + "]+")


def perl_split(text: str) -> list[str]:
    """Perl ``split ' ', $text`` on a decoded string: split on Perl ``\\s`` runs, no empty fields.

    Same as ``str.split()`` except that U+001C-U+001F stay inside tokens.
    """
    if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
        return [t for t in _PERL_SPACE_RUN.split(text) if t]
    return text.split()


def perl_collapse(text: str) -> str:
    """Every run of Perl ``\\s`` (decoded text) replaced by one space; nothing trimmed."""
    return _PERL_SPACE_RUN.sub(" ", text)


_ASCII_SPACE_TABLE = str.maketrans({c: " " for c in "\t\n\x0b\x0c\r"})


def ascii_split(text: str) -> list[str]:
    """Perl ``split ' '`` on undecoded bytes: only ``[ \\t\\n\\v\\f\\r]`` separate tokens."""
    return [t for t in text.translate(_ASCII_SPACE_TABLE).split(" ") if t]


def choose_separator(lines: Sequence[str], candidates: str, glue: str = "{}") -> tuple[str, str] | None:
    """Join ``lines`` with a separator character that occurs in none of them.

    Returns ``(sep, joined)`` where ``joined = glue.format(sep).join(lines)``, or ``None`` when
    every candidate occurs in the text (callers then fall back to per-line processing).
    """
    n = len(lines)
    for sep in candidates:
        joined = glue.format(sep).join(lines)
        if joined.count(sep) == n - 1:
            return sep, joined
    return None


def distinct_batch(lines: Sequence[str], batch: Callable[[list[str]], list[list[str]]]) -> list[list[str]]:
    """``batch(lines)``, computed on the distinct lines only when at most half of them are
    distinct (a reference repeated against several systems; below that the bookkeeping costs
    more than it saves). Every returned list is a fresh object, so callers may mutate them.
    Nothing is kept after the call."""
    lines = list(lines)
    distinct = list(dict.fromkeys(lines))
    if len(distinct) * 2 > len(lines):
        return batch(lines)
    table = dict(zip(distinct, batch(distinct)))
    return [table[line].copy() for line in lines]


class Tokenizer:
    """Base class: subclasses set ``name`` and ``signature_name`` and implement ``tokenize``.

    - ``tokenize(line)``: the bare tokenizer call, the string the reference tool's tokenizer
      returns (sacrebleu: ``Tokenizer13a()(line)``; mteval: the tokens of ``-c``);
    - ``tokenize_segment(line, lowercase)``: the tokens the tool's *metric* scores, with the
      tool's own lowercasing point and pre-processing (sacrebleu's BLEU lowercases, then
      ``rstrip()``s, then tokenises; mteval lowercases between its rewrite steps), split the
      tool's way;
    - ``tokenize_lines(lines, lowercase)``: ``tokenize_segment`` for a whole corpus, usually in one
      pass; it must equal the per-segment results exactly (property-tested);
    - ``id_encoder(lowercase)``: optionally, text straight to token ids (see the method).
    """

    name: str = ""
    signature_name: str = ""

    def tokenize(self, line: str) -> str:
        raise NotImplementedError

    def split(self, text: str) -> list[str]:
        """Python ``str.split()``: every Unicode whitespace, U+001C-U+001F included."""
        return text.split()

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        """The reference per-segment pipeline: lowercase, tokenise, split.

        ``tokenize_lines`` must return exactly ``[tokenize_segment(l, lowercase) for l in lines]``;
        subclasses that batch a corpus keep this method as the readable definition.
        """
        return self.split(self.tokenize(lowercase_text(line, lowercase)))

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        return [self.tokenize_segment(line, lowercase) for line in lines]

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """A function ``lines -> (ids, lengths)`` equal to ``tokenize_lines(lines, lowercase)``
        followed by :func:`assay.text.ngrams.encode` into one vocabulary shared by its calls, or
        None when the tokenizer has none (the default: callers tokenise and intern). A tokenizer
        with a compiled twin overrides it to skip making a ``str`` per token (13a)."""
        return None

    def __call__(self, line: str) -> str:
        return self.tokenize(line)

    def __repr__(self) -> str:
        return f"<tokenizer {self.name}>"
