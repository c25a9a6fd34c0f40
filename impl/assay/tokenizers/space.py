"""``space``: Python ``str.split(' ')`` — split on single spaces only, keeping empty tokens.

This is how d2l's ``bleu(pred_seq, label_seq, k)`` tokenises its string arguments: an empty
string is one (empty) token, and two spaces in a row make an empty token between them.

Compiled twin: the ``SPACE`` split of ``assay.tokenizers._base_c`` (``tokenize_lines``, ``id_encoder``).
"""
from __future__ import annotations

from typing import Optional, Sequence

from assay.tokenizers.base import (SPLIT_SPACE, IdEncoder, Lowercase, Tokenizer, lowercaser, split_id_encoder,
                                   split_tokenize_lines)


class TokenizerSpace(Tokenizer):
    name = "space"
    signature_name = "space"

    def tokenize(self, line: str) -> str:
        return line

    def split(self, text: str) -> list[str]:
        return text.split(" ")

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        out = split_tokenize_lines(lines, lowercaser(lowercase), SPLIT_SPACE)
        return super().tokenize_lines(lines, lowercase) if out is None else out

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        return split_id_encoder(lowercaser(lowercase), SPLIT_SPACE, (self.name, lowercase))
