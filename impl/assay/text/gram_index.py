"""A corpus's reference n-grams under one numbering, growing chunk by chunk (CIDEr's document frequencies).

A chunk's first pass codes its n-grams its own way (:func:`~assay.text.ngram_codes.code_ngrams`: order-1
codes are token ids; an order-n code is the pair (order n-1 code of its prefix, id of its last token))
and gives each a value (a document frequency): :class:`LocalGrams`. A :class:`GramIndex` holds the
n-grams of many chunks under one numbering: token ids from one vocabulary and, per order n >= 2, a
hash index from the pair (prefix id, last token id) to a dense id (:class:`PairIndexPy`, the
specification; its compiled twin ``_gram_index_c.PairIndex``, which the compiled n-gram coder
``_ngram_codes_c`` numbers its codes with too), with the sum of the values of each.
Adding a chunk costs one hash insertion per distinct n-gram of the chunk, whatever the index
already holds; looking a chunk's n-grams up costs one probe per distinct n-gram. (An
:class:`~assay.text.ngram_table.NgramTable` keeps sorted keys instead: merging re-sorts the union,
looking up is a binary search.)

Ids are numbered in order of first insertion on both paths, so the compiled and the pure index hold
the same ids (conformance/tests/accel/test_gram_index.py). Every n-gram of an index has a value > 0
and its prefix is in the index. Memory: per distinct n-gram an int64 value, the pair (8 bytes) and
two to four hash slots (12 bytes each), plus the vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from assay.core import accel
from assay.text.ngram_table import NgramTable

try:
    from assay.text import _gram_index_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

_EMPTY = np.zeros(0, dtype=np.int32)


@dataclass(frozen=True, eq=False)     # equal n-grams: compare their table()s
class LocalGrams:
    """The n-grams of one chunk in the chunk's own coding, one int64 value each.

    ``tokens[i]``: the token of id i (order-1 codes are token ids); for order n >= 2, code c is the
    pair (``prefix[n-1][c]``, an order n-1 code; ``last[n-1][c]``, a token id); ``values[n-1][c]``
    its value. A code whose value is 0 is not an n-gram of the chunk's table (a hypothesis-only
    n-gram); a value > 0 implies a value > 0 for the prefix (counts and document frequencies do)."""

    tokens: Sequence[str]
    prefix: Sequence[np.ndarray]
    last: Sequence[np.ndarray]
    values: Sequence[np.ndarray]

    @property
    def max_order(self) -> int:
        return len(self.values)

    def table(self) -> NgramTable:
        """The same n-grams as a sorted :class:`NgramTable` (built on first use)."""
        return NgramTable.from_codes(self.tokens, self.prefix, self.last, self.values)


class PairIndexPy:
    """(prefix, last) -> id, ids 0, 1, 2, ... in order of first insertion (a dict): the specification of
    the compiled ``PairIndex``."""

    def __init__(self) -> None:
        self._ids: dict[tuple[int, int], int] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def insert(self, prefix: np.ndarray, last: np.ndarray) -> np.ndarray:
        """The id of each pair, new pairs numbered as they come (pairs must be non-negative)."""
        if len(prefix) != len(last):
            raise ValueError("prefix and last differ in length")
        ids = self._ids
        out = np.empty(len(prefix), dtype=np.int32)
        for i, pair in enumerate(zip(np.asarray(prefix).tolist(), np.asarray(last).tolist())):
            if pair[0] < 0 or pair[1] < 0:
                raise ValueError(f"pair {i}: {pair} is negative")
            out[i] = ids.setdefault(pair, len(ids))
        return out

    def find(self, prefix: np.ndarray, last: np.ndarray) -> np.ndarray:
        """The id of each pair; -1 where it is absent or either half is negative."""
        if len(prefix) != len(last):
            raise ValueError("prefix and last differ in length")
        get = self._ids.get
        pairs = zip(np.asarray(prefix).tolist(), np.asarray(last).tolist())
        return np.fromiter((get(p, -1) for p in pairs), dtype=np.int32, count=len(prefix))

    def pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """``(prefix, last)``: the pair of every id, in id order."""
        both = np.array(list(self._ids), dtype=np.int32).reshape(-1, 2)
        return both[:, 0].copy(), both[:, 1].copy()

    @property
    def nbytes(self) -> int:
        """Bytes the pairs would take packed (the dict's own overhead not counted)."""
        return 8 * len(self._ids)


def pair_index() -> Any:
    """A new, empty pair index: the compiled twin when it is built, else :class:`PairIndexPy`."""
    return PairIndexPy() if _compiled is None else _compiled.PairIndex()


class GramIndex:
    """The n-grams of orders 1..``max_order`` of many chunks under one numbering, with the sum of each
    one's values over the chunks (:meth:`add`). Pickles as its :meth:`export`."""

    def __init__(self, max_order: int) -> None:
        self.max_order = max_order
        self._vocab: dict[str, int] = {}
        self._pairs = [pair_index() for _ in range(max(max_order - 1, 0))]
        self._values = [np.zeros(0, dtype=np.int64) for _ in range(max_order)]   # capacity >= size
        self._sizes = [0] * max_order

    @classmethod
    def of(cls, grams: LocalGrams) -> "GramIndex":
        index = cls(grams.max_order)
        index.add(grams)
        return index

    # ------------------------------------------------------------------ growing
    def add(self, grams: LocalGrams) -> None:
        """Add the values of ``grams``' n-grams (those whose value is > 0) to this index's, inserting the
        n-grams it lacks. Distinct codes of a chunk are distinct n-grams, so each id is added once."""
        if grams.max_order > self.max_order:
            raise ValueError(f"n-grams of order {grams.max_order} added to an index of order {self.max_order}")
        if not grams.max_order:
            return
        first = np.asarray(grams.values[0])
        kept = np.flatnonzero(first > 0)
        vocab = self._vocab
        tokens = grams.tokens
        new_id = vocab.setdefault
        ids = np.fromiter((new_id(tokens[i], len(vocab)) for i in kept.tolist()), dtype=np.int32, count=len(kept))
        token_id = np.full(len(tokens), -1, dtype=np.int32)
        token_id[kept] = ids
        self._bump(0, len(vocab), ids, first[kept])
        codes = token_id
        for n in range(2, grams.max_order + 1):
            values = np.asarray(grams.values[n - 1])
            kept = np.flatnonzero(values > 0)
            pre = codes[np.asarray(grams.prefix[n - 1])[kept]]
            end = token_id[np.asarray(grams.last[n - 1])[kept]]
            if len(kept) and (pre.min() < 0 or end.min() < 0):
                raise ValueError(f"an n-gram of order {n} has a value but its prefix or last token has none")
            pairs = self._pairs[n - 2]
            ids = pairs.insert(pre, end)
            self._bump(n - 1, len(pairs), ids, values[kept])
            codes = np.full(len(values), -1, dtype=np.int32)
            codes[kept] = ids

    def _bump(self, k: int, size: int, ids: np.ndarray, values: np.ndarray) -> None:
        """``values[k][ids] += values`` (``ids`` distinct), order k+1 holding ``size`` n-grams."""
        held = self._values[k]
        if size > len(held):
            grown = np.zeros(max(size, 2 * len(held), 1024), dtype=np.int64)
            grown[:len(held)] = held
            self._values[k] = held = grown
        held[ids] += values
        self._sizes[k] = size

    # ------------------------------------------------------------------ reading
    def lookup(self, tokens: Sequence[str], prefix: Sequence[np.ndarray], last: Sequence[np.ndarray],
               max_order: int) -> list[np.ndarray]:
        """The value of every local code of a chunk (its tokens and code pairs as in :class:`LocalGrams`;
        0 where the index lacks the n-gram), orders 1..``max_order``."""
        get = self._vocab.get
        token_id = np.fromiter((get(t, -1) for t in tokens), dtype=np.int32, count=len(tokens))
        values = self.values
        out = [_values_at(values[0] if values else None, token_id)]
        codes = token_id
        for n in range(2, max_order + 1):
            if n > self.max_order:
                out.append(np.zeros(len(prefix[n - 1]), dtype=np.int64))
                codes = np.full(len(prefix[n - 1]), -1, dtype=np.int32)
                continue
            codes = self._pairs[n - 2].find(codes[np.asarray(prefix[n - 1], dtype=np.intp)],
                                            token_id[np.asarray(last[n - 1], dtype=np.intp)])
            out.append(_values_at(values[n - 1], codes))
        return out

    @property
    def values(self) -> list[np.ndarray]:
        """Per order, the value of every id (views)."""
        return [held[:size] for held, size in zip(self._values, self._sizes)]

    @property
    def tokens(self) -> list[str]:
        """The token of every order-1 id."""
        return list(self._vocab)

    def export(self) -> LocalGrams:
        """The index's n-grams as :class:`LocalGrams` in its own numbering (``GramIndex.of`` of it is an
        equal index, with the same ids)."""
        pairs = [p.pairs() for p in self._pairs]
        return LocalGrams(self.tokens, [_EMPTY] + [p for p, _ in pairs], [_EMPTY] + [t for _, t in pairs],
                          [v.copy() for v in self.values])

    def strings(self) -> list[list[str]]:
        """Per order, ``"w1 w2 .. wn"`` of every id."""
        return self._decode(lambda token: token, lambda prev, token: prev + " " + token)

    def as_dict(self) -> dict[tuple[str, ...], int]:
        """``{(w1, .., wn): value}`` (tests and small tables)."""
        grams = self._decode(lambda token: (token,), lambda prev, token: prev + (token,))
        return {g: v for level, values in zip(grams, self.values) for g, v in zip(level, values.tolist())}

    def _decode(self, leaf: Any, join: Any) -> list[list[Any]]:
        tokens = self.tokens
        out = [[leaf(t) for t in tokens]]
        for pairs in self._pairs:
            prev = out[-1]
            pre, end = pairs.pairs()
            out.append([join(prev[p], tokens[t]) for p, t in zip(pre.tolist(), end.tolist())])
        return out

    def __len__(self) -> int:
        """The number of distinct n-grams of every order."""
        return sum(self._sizes)

    @property
    def nbytes(self) -> int:
        """Bytes of the values and the pair indexes (the vocabulary's strings not included)."""
        return sum(v.nbytes for v in self._values) + sum(p.nbytes for p in self._pairs)

    def __eq__(self, other: object) -> bool:
        """The same n-grams with the same values (whatever the numbering); also against an NgramTable."""
        if not isinstance(other, (GramIndex, NgramTable)):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None     # type: ignore[assignment]

    def __getstate__(self) -> dict[str, Any]:
        grams = self.export()
        return {"max_order": self.max_order, "tokens": list(grams.tokens), "prefix": list(grams.prefix),
                "last": list(grams.last), "values": list(grams.values)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["max_order"])     # type: ignore[misc]
        self.add(LocalGrams(state["tokens"], state["prefix"], state["last"], state["values"]))


def _values_at(values: np.ndarray | None, ids: np.ndarray) -> np.ndarray:
    """``values[ids]``, 0 where an id is -1."""
    if values is None or not len(values):
        return np.zeros(len(ids), dtype=np.int64)
    return np.where(ids >= 0, values[np.maximum(ids, 0)], 0)
