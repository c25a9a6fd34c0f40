"""Hypothesis strategies for corpora: small vocabularies so n-grams match, tricky characters."""
from __future__ import annotations

from hypothesis import strategies as st

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "The", "Cat", "über", "école", "猫", "сидит",
         "3.5", "1,000", "don't", "it's", "e.g.", "(a)", "-", ",", ".", "!", "&amp;", "“x”", "—", "😀"]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\u00a0", "\u3000"]


@st.composite
def segment(draw: st.DrawFn, max_tokens: int = 12) -> str:
    toks = draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=max_tokens))
    out = ""
    for i, t in enumerate(toks):
        out += (draw(st.sampled_from(SEPARATORS)) if i else "") + t
    return out


@st.composite
def corpus(draw: st.DrawFn, max_segments: int = 5, max_refs: int = 3) -> tuple[list[str], list[list[str]]]:
    """(hyps, reference streams) with 1..max_segments segments and 1..max_refs references."""
    n = draw(st.integers(1, max_segments))
    r = draw(st.integers(1, max_refs))
    hyps = [draw(segment()) for _ in range(n)]
    refs = [[draw(segment()) for _ in range(n)] for _ in range(r)]
    return hyps, refs
