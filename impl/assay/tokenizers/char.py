"""``char``: sacrebleu's character tokenizer.

``tokenize`` returns ``' '.join(line)``: every character, whitespace included, separated by one
space (sacrebleu 2.6.0, checked by running it). Tokens are ``str.split()`` of that, so every
whitespace character (Python's set: U+001C-U+001F, NBSP, U+3000 … included) disappears and the
character n-grams cross word boundaries (``"ab cd"`` -> ``a b c d``). No stripping, no
lowercasing of its own; sacrebleu's ``rstrip()`` before tokenising changes nothing here.
"""
from __future__ import annotations

from typing import Optional, Sequence

from assay.tokenizers.base import (SPLIT_CHAR, IdEncoder, Lowercase, Tokenizer, distinct_batch, lowercase_text,
                                   lowercaser, split_id_encoder, split_tokenize_lines)


class TokenizerChar(Tokenizer):
    name = "char"
    signature_name = "char"

    def tokenize(self, line: str) -> str:
        return " ".join(line)

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        # the non-whitespace characters, in order: same as ' '.join(line).split()
        return list("".join(lowercase_text(line, lowercase).split()))

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        out = split_tokenize_lines(lines, lowercaser(lowercase), SPLIT_CHAR)
        return distinct_batch(lines, lambda distinct: self._batch(distinct, lowercase)) if out is None else out

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        return split_id_encoder(lowercaser(lowercase), SPLIT_CHAR, (self.name, lowercase))

    @staticmethod
    def _batch(lines: list[str], lowercase: Lowercase) -> list[list[str]]:
        if lowercase is not None:
            lines = [lowercase_text(line, lowercase) for line in lines]
        return [list("".join(line.split())) for line in lines]
