"""``space``: Python ``str.split(' ')`` — split on single spaces only, keeping empty tokens.

This is how d2l's ``bleu(pred_seq, label_seq, k)`` tokenises its string arguments: an empty
string is one (empty) token, and two spaces in a row make an empty token between them.
"""
from __future__ import annotations

from assay.tokenizers.base import Tokenizer


class TokenizerSpace(Tokenizer):
    name = "space"
    signature_name = "space"

    def tokenize(self, line: str) -> str:
        return line

    def split(self, text: str) -> list[str]:
        return text.split(" ")
