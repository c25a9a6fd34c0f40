"""``none``: no rewriting; tokens are Python ``str.split()`` of the segment (sacrebleu ``tokenize='none'``).

Compiled twin: the ``PYTHON`` split of ``assay.tokenizers._base_c`` (``tokenize_lines``, ``id_encoder``).
"""
from __future__ import annotations

from typing import Optional, Sequence

from assay.tokenizers.base import (SPLIT_PYTHON, IdEncoder, Lowercase, Tokenizer, lowercaser, split_id_encoder,
                                   split_tokenize_lines)


class NoneTokenizer(Tokenizer):
    name = "none"
    signature_name = "none"

    def tokenize(self, line: str) -> str:
        return line

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        out = split_tokenize_lines(lines, lowercaser(lowercase), SPLIT_PYTHON)
        return super().tokenize_lines(lines, lowercase) if out is None else out

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        return split_id_encoder(lowercaser(lowercase), SPLIT_PYTHON, (self.name, lowercase))
