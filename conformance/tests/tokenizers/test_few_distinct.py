"""``assay.tokenizers.base.few_distinct``: which batches are computed on their distinct lines only.

Only speed depends on it (a caller computes on the distinct lines and gathers, or on every line), so
the checks are that an answer is always exact (None, or the distinct lines in first-seen order,
never when more than half are distinct) and that the cases it exists for are found: a reference
stream repeated against several systems, at any period, and a long batch of distinct lines is not
hashed line by line."""
from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from assay.tokenizers import base


@given(st.lists(st.sampled_from(["a", "b", "c b", "", "d", "é"]) | st.text(max_size=3), max_size=40),
       st.integers(1, 4))
@settings(deadline=None)
def test_answer_is_exact(lines: list[str], copies: int) -> None:
    batch = lines * copies
    got = base.few_distinct(batch)
    distinct = list(dict.fromkeys(batch))
    if len(distinct) * 2 <= len(batch):
        assert got == distinct          # short batches are judged exactly
    else:
        assert got is None


def test_long_batches() -> None:
    for period in (700, 5000, 9973):                 # a stream repeated against 3 systems, any period
        stream = [f"reference {i}" for i in range(period)]
        assert base.few_distinct(stream * 3) == stream
    distinct = [f"caption {i}" for i in range(50_000)]
    with mock.patch.object(base, "dict") as never:   # a mostly distinct batch: judged on the sample
        assert base.few_distinct(distinct) is None
    never.fromkeys.assert_not_called()
    half = distinct[:30_000] + distinct[:20_000]     # 60 % distinct: every line read, None
    assert base.few_distinct(half) is None
