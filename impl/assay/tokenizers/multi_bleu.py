"""``multi-bleu``: the tokens multi-bleu.perl scores (Moses ``scripts/generic/multi-bleu.perl``).

No rewriting at all. multi-bleu.perl reads bytes without decoding them and splits each line with
Perl ``split ' '``, i.e. on runs of ASCII whitespace only: space, ``\\t``, ``\\n``, ``\\v``
(``\\x0b``, checked with ``perl -e``: Perl >= 5.18 counts it), ``\\f`` and ``\\r``, with no
empty leading field (checked by running multi-bleu.perl: leading spaces add no token). Everything
else stays inside tokens, so NBSP, thin space, U+3000 and U+001C-U+001F do **not** split
(research case G29: raw multi-bleu BLEU 0 where sacrebleu ``none`` gives 100).

Lowercasing: multi-bleu.perl's ``-lc`` is byte ``lc``, i.e. ASCII only (``lowercase='ascii'``;
``ÉCOLE`` -> ``École``, research case G28). ``lowercase='perl'`` (or ``'unicode'``: a Perl tool
has no other Unicode lowercasing) is Perl ``lc`` on decoded text, as multi-bleu-detok.perl's
``-lc`` does (no final-sigma rule, see :func:`assay.tokenizers.base.perl_lc`), before splitting. Lines are taken as given: reading a file
must split it on ``\\n`` only (``str.splitlines`` would also split on U+001C-U+001E, U+0085 and
U+2028/9, which multi-bleu.perl keeps inside a line).

Compiled twin: the ``ASCII`` split of ``assay.tokenizers._base_c`` (``tokenize_lines``, ``id_encoder``).
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Optional, Sequence

from assay.tokenizers.base import (SPLIT_ASCII, IdEncoder, Lowercase, Tokenizer, ascii_split, distinct_batch,
                                   lowercase_text, perl_lc, split_id_encoder, split_tokenize_lines)


def _lower(text: str, lowercase: Lowercase) -> str:
    return perl_lc(text) if lowercase in ("unicode", "perl") else lowercase_text(text, lowercase)


class TokenizerMultiBleu(Tokenizer):
    name = "multi-bleu"
    signature_name = "multi-bleu"

    def tokenize(self, line: str) -> str:
        return line

    def split(self, text: str) -> list[str]:
        return ascii_split(text)

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return ascii_split(_lower(line, lowercase))

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        out = split_tokenize_lines(lines, _lowercaser(lowercase), SPLIT_ASCII)
        if out is not None:
            return out
        return distinct_batch(lines, lambda distinct: [ascii_split(_lower(line, lowercase)) for line in distinct])

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        return split_id_encoder(_lowercaser(lowercase), SPLIT_ASCII, (self.name, lowercase))


def _lowercaser(lowercase: Lowercase) -> Optional[Callable[[str], str]]:
    """:func:`_lower` as a one-argument function (None: no lowercasing)."""
    return None if lowercase is None else partial(_lower, lowercase=lowercase)
