"""The matched n-gram marks of the segment explorer (:func:`assay.jobs.report.segments.marks`) equal
their definition: per token, the largest n <= max_n of a window of n tokens that covers it and occurs
in one of the other token lists (0: none), checked window by window."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.jobs.report.segments import marks

words = st.lists(st.sampled_from("abcd"), max_size=12)


def definition(tokens: list[str], others: list[list[str]], max_n: int) -> str:
    level = [0] * len(tokens)
    for n in range(1, max_n + 1):
        for i in range(len(tokens) - n + 1):
            window = tokens[i:i + n]
            if any(o[j:j + n] == window for o in others for j in range(len(o) - n + 1)):
                for k in range(i, i + n):
                    level[k] = max(level[k], n)
    return "".join(map(str, level))


@settings(deadline=None, max_examples=400)
@given(words, st.lists(words, max_size=3), st.integers(1, 6))
def test_marks_equal_the_definition(tokens: list[str], others: list[list[str]], max_n: int) -> None:
    assert marks(tokens, others, max_n) == definition(tokens, others, max_n)
