"""The explorer's one-pass marks (:func:`assay.jobs.report.segments.pair_marks`) equal
:func:`~assay.jobs.report.segments.marks` in both directions: the hypothesis against its present
references, each reference against the hypothesis."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.jobs.report.segments import marks, pair_marks

_TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "ü", ""]), max_size=14)


@settings(max_examples=400, deadline=None)
@given(_TOKENS, st.lists(st.one_of(st.none(), _TOKENS), min_size=1, max_size=4), st.integers(1, 5))
def test_pair_marks_equal_marks_both_ways(hyp: list[str], refs: list[list[str] | None], max_n: int) -> None:
    got_hyp, got_refs = pair_marks(hyp, refs, max_n)
    assert got_hyp == marks(hyp, [r for r in refs if r is not None], max_n)
    assert got_refs == [None if r is None else marks(r, [hyp], max_n) for r in refs]


def test_pair_marks_example() -> None:
    hyp = "the cat sat on the mat".split()
    assert pair_marks(hyp, ["a cat sat on a mat".split(), None]) == ("033301", ["033301", None])
    assert pair_marks(["x"], [["y"], ["x", "z"]]) == ("1", ["0", "10"])
