"""``none``: no rewriting; tokens are Python ``str.split()`` of the segment (sacrebleu ``tokenize='none'``)."""
from __future__ import annotations

from assay.tokenizers.base import Tokenizer


class NoneTokenizer(Tokenizer):
    name = "none"
    signature_name = "none"

    def tokenize(self, line: str) -> str:
        return line
