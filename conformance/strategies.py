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


@st.composite
def captions(draw: st.DrawFn, words: list[str], max_images: int = 8
             ) -> tuple[list[str], list[list[str | None]]]:
    """COCO-shaped corpora over ``words``: 1..max_images hypotheses and four reference streams, each
    image with 1-4 references (the missing ones None)."""
    n = draw(st.integers(1, max_images))
    caption = st.lists(st.sampled_from(words), max_size=8).map(" ".join)
    hyps = [draw(caption) for _ in range(n)]
    counts = [draw(st.integers(1, 4)) for _ in range(n)]
    return hyps, [[draw(caption) if j < c else None for c in counts] for j in range(4)]
