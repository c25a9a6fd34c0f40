"""A PTB wrapper batch tokenised in parts (what CIDEr does on a large corpus,
:func:`assay.metrics.cider.tokens.caption_parts`): each part with the caption after it as its last
line, that line's output dropped, gives the batch's output, because a caption's tokens depend on
the next line at most (a sentence-final abbreviation before a capital, ``No.`` before a number);
the exception, a line break inside a caption (KD-PTB-02), is what :func:`has_line_breaks` finds.
Checked on both paths (the compiled twin and ``ASSAY_PURE=1``)."""
from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from assay.tokenizers.ptb import coco_encode_lines, coco_tokenize_lines, has_line_breaks

WORDS = ["a", "dog", "The", "He", "Inc.", "Calif.", "U.S.", "A.", "No.", "5", "3", "1/2", '"', "(", ")", "...",
         ".", "we'll", "don't", "Mr.", "&quot;", "555-1212", "#tag", "", "-LRB-"]
CAPTION = st.lists(st.sampled_from(WORDS), max_size=7).map(" ".join)


def _parts(captions: list[str], cuts: list[int]) -> list[str]:
    edges = [0] + sorted(set(cuts)) + [len(captions)]
    out: list[str] = []
    for a, b in zip(edges[:-1], edges[1:]):
        if b > a:
            ahead = b < len(captions)
            got = coco_tokenize_lines(captions[a:b + 1] if ahead else captions[a:b])
            out += got[:-1] if ahead else got
    return out


@given(st.lists(CAPTION, min_size=1, max_size=12), st.lists(st.integers(0, 12), max_size=4))
@example(["a dog we'll", "the cat"], [])        # each of these needs the line ahead
@example(["see A.", "The cat"], [])
@example(["No.", "5 dogs"], [])
@settings(deadline=None, max_examples=200)
def test_a_batch_in_parts_with_one_line_ahead(captions: list[str], cuts: list[int]) -> None:
    whole = coco_tokenize_lines(captions)
    assert _parts(captions, [c for c in cuts if c <= len(captions)]) == whole
    for cut in range(1, len(captions)):            # every single cut
        assert _parts(captions, [cut]) == whole


@given(st.lists(CAPTION, min_size=2, max_size=12), st.integers(1, 11))
@settings(deadline=None, max_examples=100)
def test_encoded_parts_hold_the_batch_tokens(captions: list[str], cut: int) -> None:
    """The ids path (the compiled twin's, when built) agrees on the parts too."""
    cut = min(cut, len(captions) - 1)
    whole = coco_tokenize_lines(captions)
    vocab: dict[str, int] = {}
    got = coco_encode_lines(captions[:cut + 1], vocab)
    if got is None:                      # the pure path: the specification is the strings
        return
    ids, offsets = got
    tokens = list(vocab)
    first = [" ".join(tokens[i] for i in ids[offsets[k]:offsets[k + 1]]) for k in range(cut)]
    assert first == [" ".join(s.split()) for s in whole[:cut]]


def test_line_breaks_are_found() -> None:
    assert not has_line_breaks(["a dog", "two cats\nsit", ""])
    assert not has_line_breaks([])
    for br in ("\r", "\u2028", "\u2029"):
        assert has_line_breaks(["a dog"] * 70_000 + [f"a{br}cat"])
    assert has_line_breaks([["token", "list"], "a\rb"])
    assert not has_line_breaks([["a\rb"], "plain"])       # token lists are never PTB-tokenised
