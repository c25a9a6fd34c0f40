"""Fuzz the clean-room PTB tokenizer (:mod:`assay.tokenizers.ptb`, pycocoevalcap's PTBTokenizer).

Documented shapes: ``ptb_tokenize`` gives the jar's tokens (spaces inside a token become U+00A0, so
no token holds a space or a line break); ``ptb_tokenize_lines`` one token list per physical line
(``\\n``, ``\\r``, U+2028, U+2029 start lines); ``coco_tokenize`` one line of space-separated
tokens without the wrapper's punctuation; ``coco_tokenize_lines`` one string per caption.
"""
from __future__ import annotations

import re

from assay.tokenizers.ptb import (COCO_PUNCTUATION, LINE_BREAKS, coco_tokenize, coco_tokenize_lines,
                                  ptb_tokenize, ptb_tokenize_lines)
from conformance.fuzz.common import Draw, assay_errors_only, char_in, check_tokens

SEEDS = [b"", b"\x02\x40He said \"don't\" -- Inc. The U.S. No. 5 (3 1/2) ...", b"\x02\x02\x30" + bytes(range(0xd0, 0x100)),
         b"\x03\x30" + bytes(range(0, 48))]
_BREAK_OR_SPACE = char_in(" \n" + LINE_BREAKS)
_LINE_SPLIT = re.compile("[\n%s]" % LINE_BREAKS)


def one_input(data: bytes) -> None:
    draw = Draw(data)
    text = draw.text()
    following = draw.pick((None, draw.text(32)))
    captions = draw.lines()
    with assay_errors_only():
        tokens = ptb_tokenize(text, following)
        check_tokens(tokens, f"ptb_tokenize({text!r}, {following!r})", _BREAK_OR_SPACE)
        line = coco_tokenize(text, following)
        assert isinstance(line, str) and not any(_BREAK_OR_SPACE(c) and c != " " for c in line), repr(line)
        assert not set(line.split(" ")) & COCO_PUNCTUATION, repr(line)
        per_line = ptb_tokenize_lines(captions)
        physical = [part for c in captions for part in _LINE_SPLIT.split(c)] if captions else []
        assert len(per_line) == len(physical), (captions, per_line)
        for k, toks in enumerate(per_line):
            check_tokens(toks, f"ptb_tokenize_lines({captions!r})[{k}]", _BREAK_OR_SPACE)
        out = coco_tokenize_lines(captions)
        assert len(out) == len(captions) and all(isinstance(s, str) for s in out), (captions, out)
