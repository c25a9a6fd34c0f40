"""``assay.core._items_c`` (scans of a list's item pointers) equals the pure checks of
:mod:`assay.core.items` on lists of any items: ``has_none`` (only ``None`` itself is missing, not an
object whose ``__eq__`` claims to equal it) and ``only_strings`` (exactly ``str``: a subclass is not,
``None`` only when allowed)."""
from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from hypothesis import given
from hypothesis import strategies as st

from assay.core import items


class EqualsEverything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class Text(str):
    """A ``str`` subclass."""


ITEMS = st.one_of(st.text(max_size=5), st.none(), st.lists(st.text(max_size=3), max_size=2),
                  st.just(EqualsEverything()), st.integers(), st.text(max_size=3).map(Text), st.binary(max_size=3))
STRINGS = st.one_of(st.text(max_size=5), st.none())


@given(st.lists(st.one_of(ITEMS, STRINGS), max_size=12), st.booleans())
def test_twins_equal_the_pure_checks(twin: Callable[[str], ModuleType], values: list[Any], none_ok: bool) -> None:
    mod = twin("assay.core._items_c")
    assert mod.has_none(values) is items.has_none_py(values)
    assert mod.only_strings(values, none_ok) is items.only_strings_py(values, none_ok)
    for seq in (values, tuple(values)):     # a tuple takes the pure path
        assert items.has_none(seq) is items.has_none_py(values)
        assert items.only_strings(seq, none_ok) is items.only_strings_py(values, none_ok)


def test_the_checks_by_example() -> None:
    stream: list[Any] = ["a"] * 1000
    assert not items.has_none(stream) and not items.has_none([]) and items.only_strings([])
    assert items.only_strings(stream) and items.only_strings(stream, none_ok=True)
    for k in (0, 500, 999):
        with_none = stream[:k] + [None] + stream[k + 1:]
        assert items.has_none(with_none)
        assert not items.only_strings(with_none) and items.only_strings(with_none, none_ok=True)
        assert not items.only_strings(stream[:k] + [Text("a")] + stream[k + 1:], none_ok=True)
    assert not items.has_none([EqualsEverything()])


def test_presence() -> None:
    """Every reference present when no stream holds None; else exactly the entries that are not None."""
    assert items.presence([["a", "b"], ["c", "d"]], 2).tolist() == [[True, True], [True, True]]
    assert items.presence([["a", None], [None, ["x"]]], 2).tolist() == [[True, False], [False, True]]
    assert items.presence([], 3).shape == (0, 3)
