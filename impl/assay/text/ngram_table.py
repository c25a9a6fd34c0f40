"""A corpus's reference n-grams keyed by integers: the first pass of a corpus-pass family.

Shared by NIST (information weights) and CIDEr (document frequencies), in ``text/`` because families
may not import each other.

An n-gram of order n is the pair (code of its (n-1)-gram prefix, id of its last token). A table
holds, per order, the *sorted* packed keys ``prefix * V + last`` (V = the table's vocabulary size;
order 1: the token id itself), so the code of an n-gram is the rank of its key, and one integer
value per n-gram (a count, a document frequency). Every prefix of an n-gram of the table is in the
table (tables are built from text, and merged, only so).

The vocabulary travels with the table (its tokens in id order), so tables of chunks that each
interned their own tokens merge exactly: remap the ids, re-key order by order (the prefix codes
change), add the values of equal keys. Merging is associative and commutative up to the numbering
of codes, which nothing reads. Memory: 16 bytes per distinct n-gram (an int64 key and an int64
value) plus the vocabulary's strings.

A table made from a chunk's own codes (:meth:`NgramTable.from_codes`) is built lazily: a corpus
scored whole never pays the sort of its n-grams unless the context is used again (chunks, shards,
pickling).
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

Codes = Sequence[np.ndarray]


class NgramTable:
    """Per order: sorted int64 keys ``prefix_code * V + last_id`` and one int64 value per key."""

    def __init__(self, vocab: Sequence[str], keys: Sequence[np.ndarray], values: Sequence[np.ndarray]):
        self._vocab = list(vocab)
        self._keys = [np.asarray(k, dtype=np.int64) for k in keys]
        self._values = [np.asarray(v, dtype=np.int64) for v in values]
        self._pending: tuple[Any, ...] | None = None
        self._index: dict[str, int] | None = None

    @classmethod
    def from_codes(cls, tokens: Sequence[str], prefix: Codes, last: Codes, values: Codes) -> "NgramTable":
        """The table of the local codes of one chunk whose ``values`` are > 0 (built on first use).

        ``tokens[i]``: the token of local id i; order-1 codes are token ids; for order n >= 2,
        ``prefix[n-1][c]``/``last[n-1][c]``: the order n-1 code and the token id of local code c.
        A value > 0 must imply a value > 0 for the prefix (counts and document frequencies do)."""
        table = cls([], [], [])
        table._pending = (list(tokens), list(prefix), list(last), list(values))
        return table

    # ------------------------------------------------------------------ contents
    @property
    def vocab(self) -> list[str]:
        self._build()
        return self._vocab

    @property
    def keys(self) -> list[np.ndarray]:
        self._build()
        return self._keys

    @property
    def values(self) -> list[np.ndarray]:
        self._build()
        return self._values

    @property
    def max_order(self) -> int:
        return len(self._pending[3]) if self._pending is not None else len(self._keys)

    def __len__(self) -> int:
        """The number of distinct n-grams of every order."""
        return sum(len(k) for k in self.keys)

    @property
    def nbytes(self) -> int:
        """Bytes of the key and value arrays (the vocabulary's strings not included)."""
        return sum(k.nbytes + v.nbytes for k, v in zip(self.keys, self.values))

    def prefix_values(self, n: int) -> np.ndarray:
        """The value of the (n-1)-gram prefix of every n-gram of order ``n`` >= 2 (code order)."""
        return self.values[n - 2][self.keys[n - 1] // max(len(self.vocab), 1)]

    def strings(self) -> list[list[str]]:
        """Per order, ``"w1 w2 .. wn"`` of every code."""
        return self._decode(lambda tok: tok, lambda prev, tok: prev + " " + tok)

    def as_dict(self) -> dict[tuple[str, ...], int]:
        """``{(w1, .., wn): value}`` (tests and small tables)."""
        out: dict[tuple[str, ...], int] = {}
        for grams, values in zip(self._decode(lambda tok: (tok,), lambda prev, tok: prev + (tok,)), self.values):
            out.update(zip(grams, values.tolist()))
        return out

    def _decode(self, leaf: Any, join: Any) -> list[list[Any]]:
        vocab = self.vocab
        size = max(len(vocab), 1)
        out = [[leaf(t) for t in vocab]]
        for keys in self.keys[1:]:
            prev = out[-1]
            out.append([join(prev[p], vocab[t]) for p, t in zip((keys // size).tolist(), (keys % size).tolist())])
        return out

    # ------------------------------------------------------------------ lookups
    def locate(self, tokens: Sequence[str], prefix: Codes, last: Codes, max_order: int) -> list[np.ndarray]:
        """The table code of every local code (-1 where the table lacks the n-gram), orders 1..max_order.

        Same local coding as :meth:`from_codes` (order-1 codes = ids of ``tokens``)."""
        self._build()
        if self._index is None:
            self._index = {tok: i for i, tok in enumerate(self._vocab)}
        get = self._index.get
        ids = np.fromiter((get(t, -1) for t in tokens), dtype=np.int64, count=len(tokens))
        out = [ids]
        size = max(len(self._vocab), 1)
        for n in range(2, max_order + 1):
            if n > len(self._keys):
                out.append(np.full(len(prefix[n - 1]), -1, dtype=np.int64))
                continue
            p = _gather(out[-1], prefix[n - 1])
            t = _gather(ids, last[n - 1])
            ok = (p >= 0) & (t >= 0)
            code = np.full(len(p), -1, dtype=np.int64)
            keys = self._keys[n - 1]
            if ok.any() and len(keys):
                query = p[ok] * size + t[ok]
                pos = np.searchsorted(keys, query)
                pos_c = np.minimum(pos, len(keys) - 1)
                code[np.flatnonzero(ok)] = np.where(keys[pos_c] == query, pos_c, -1)
            out.append(code)
        return out

    def lookup(self, tokens: Sequence[str], prefix: Codes, last: Codes, max_order: int) -> list[np.ndarray]:
        """The value of every local code (0 where the table lacks the n-gram)."""
        values = self.values
        return [np.where(code >= 0, values[n][code], 0) if n < len(values) and len(values[n])
                else np.zeros(len(code), dtype=np.int64)
                for n, code in enumerate(self.locate(tokens, prefix, last, max_order))]

    # ------------------------------------------------------------------ building and merging
    def _build(self) -> None:
        if self._pending is None:
            return
        tokens, prefix, last, values = self._pending
        keep = np.flatnonzero(np.asarray(values[0]) > 0)
        size = len(keep)
        id_map = np.full(len(tokens), -1, dtype=np.int64)
        id_map[keep] = np.arange(size)
        vocab = [tokens[i] for i in keep.tolist()]
        keys = [np.arange(size, dtype=np.int64)]
        vals = [np.asarray(values[0], dtype=np.int64)[keep]]
        code_map = id_map
        for n in range(2, len(values) + 1):
            v = np.asarray(values[n - 1])
            kept = np.flatnonzero(v > 0)
            key = code_map[prefix[n - 1][kept]] * max(size, 1) + id_map[last[n - 1][kept]]
            order = np.argsort(key, kind="stable")
            keys.append(key[order])
            vals.append(v[kept][order].astype(np.int64))
            code_map = np.full(len(v), -1, dtype=np.int64)
            code_map[kept[order]] = np.arange(len(kept))
        self._vocab, self._keys, self._values = vocab, keys, vals
        self._pending = None

    def __getstate__(self) -> dict[str, Any]:
        self._build()
        return {"vocab": self._vocab, "keys": self._keys, "values": self._values}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["vocab"], state["keys"], state["values"])

    def __eq__(self, other: object) -> bool:
        """The same n-grams with the same values (whatever the numbering)."""
        if not isinstance(other, NgramTable):
            return NotImplemented
        return self.as_dict() == other.as_dict()


def merge_tables(tables: Sequence[NgramTable]) -> NgramTable:
    """The table of the concatenated chunks: the union of the n-grams, values added (no table: an
    empty one)."""
    tables = [t for t in tables if t.max_order]
    if len(tables) <= 1:
        return tables[0] if tables else NgramTable([], [], [])
    index: dict[str, int] = {}
    id_maps = []
    for t in tables:
        id_maps.append(np.fromiter((index.setdefault(tok, len(index)) for tok in t.vocab), dtype=np.int64,
                                   count=len(t.vocab)))
    size = len(index)
    vocab = list(index)
    max_order = max(t.max_order for t in tables)
    keys = [np.arange(size, dtype=np.int64)]
    values = [_add_by(np.concatenate(id_maps), np.concatenate([t.values[0] for t in tables]), size)]
    code_maps = list(id_maps)
    for n in range(2, max_order + 1):
        parts_k, parts_v = [], []
        for t, ids, codes in zip(tables, id_maps, code_maps):
            if n > t.max_order:
                parts_k.append(np.zeros(0, np.int64))
                parts_v.append(np.zeros(0, np.int64))
                continue
            old = t.keys[n - 1]
            old_size = max(len(t.vocab), 1)
            parts_k.append(codes[old // old_size] * max(size, 1) + ids[old % old_size])
            parts_v.append(t.values[n - 1])
        lengths = [len(k) for k in parts_k]
        uniq, inverse = np.unique(np.concatenate(parts_k), return_inverse=True)
        inverse = inverse.reshape(-1)
        keys.append(uniq)
        values.append(_add_by(inverse, np.concatenate(parts_v), len(uniq)))
        bounds = np.cumsum([0] + lengths)
        code_maps = [inverse[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
    return NgramTable(vocab, keys, values)


def _add_by(index: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``out[index[i]] += values[i]`` in int64 (bincount's float64 sums are exact below 2**53)."""
    return np.bincount(index, weights=values, minlength=size).astype(np.int64)


def _gather(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[index]``, -1 where the index is out of range (codes of an order without n-grams)."""
    index = np.asarray(index, dtype=np.int64)
    inside = index < len(values)
    if inside.all():
        return values[index]
    return np.where(inside, values[np.where(inside, index, 0)] if len(values) else -1, -1)
