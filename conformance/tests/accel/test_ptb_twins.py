"""The PTB tokenizer's compiled twin (``assay.tokenizers._ptb_c.plain_lines``) equals the pure
``plain_lines_py`` exactly, and ``coco_tokenize_lines`` gives the same strings on both paths."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tokenizers import ptb

PIECES = ["a", "dog", "Dog", "U.S.", "e.g.", "No.", "5", "3.5", "1/2", "...", ".", ",", "(", ")", "\"", "'s", "don't",
          "Inc.", "The", "<b>", "&amp;", "caf\u00e9", "\u201cx\u201d", "--", "a.m.", "ph.d.", "12:30", ":-)", "#tag"]
BLANKS = [" ", " ", " ", "  ", "\t", "\u00a0", "\x0b", "\u3000", ""]


@st.composite
def lines(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.sampled_from(PIECES), max_size=8))
    out = draw(st.sampled_from(BLANKS)) if draw(st.booleans()) else ""
    for p in parts:
        out += p + draw(st.sampled_from(BLANKS))
    return out


LINES = st.lists(st.one_of(lines(), st.text(max_size=12)), max_size=8)


@given(LINES)
@settings(deadline=None)
def test_plain_lines(twin, batch):
    mod = twin("assay.tokenizers._ptb_c")
    lexer = ptb._Lexer()
    pure = ptb.plain_lines_py(batch, lexer.pieces, lexer.piece)
    lexer = ptb._Lexer()
    assert mod.plain_lines(batch, lexer.pieces, lexer.piece) == pure


@given(LINES)
@settings(deadline=None)
def test_coco_tokenize_lines(twin, batch):
    mod = twin("assay.tokenizers._ptb_c")
    saved = ptb._compiled
    try:
        ptb._compiled, ptb._LEXER = None, None
        pure = ptb.coco_tokenize_lines(batch)
        ptb._compiled, ptb._LEXER = mod, None
        assert ptb.coco_tokenize_lines(batch) == pure
    finally:
        ptb._compiled, ptb._LEXER = saved, None
