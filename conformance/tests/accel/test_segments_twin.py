"""``assay.text._segments_c.has_none`` (a scan of a list's item pointers) equals
:func:`assay.text.segments.has_missing_py` (``any(s is None for s in stream)``), on lists of any
items, including one whose ``__eq__`` claims to equal ``None`` (only ``None`` itself is missing)."""
from __future__ import annotations

from typing import Any, Callable
from types import ModuleType

from hypothesis import given
from hypothesis import strategies as st

from assay.text import segments


class EqualsEverything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


ITEMS = st.one_of(st.text(max_size=5), st.none(), st.lists(st.text(max_size=3), max_size=2),
                  st.just(EqualsEverything()), st.integers())


@given(st.lists(ITEMS, max_size=12))
def test_has_none_equals_the_pure_scan(twin: Callable[[str], ModuleType], items: list[Any]) -> None:
    mod = twin("assay.text._segments_c")
    assert mod.has_none(items) is segments.has_missing_py(items)
    assert segments.has_missing(items) is segments.has_missing_py(items)
    assert segments.has_missing(tuple(items)) is segments.has_missing_py(items)   # not a list: the pure scan


def test_has_missing_finds_none_anywhere() -> None:
    stream: list[Any] = ["a"] * 1000
    assert not segments.has_missing(stream) and not segments.has_missing([])
    for k in (0, 500, 999):
        assert segments.has_missing(stream[:k] + [None] + stream[k + 1:])
    assert not segments.has_missing([EqualsEverything()])
