"""Compiled twin of :class:`assay.text.gram_index.PairIndexPy` (same ids, in the same order).

:class:`PairIndex`: an open-addressing hash table from the pair (prefix id, last token id), both
non-negative int32, packed into one uint64 key, to a dense id numbered in order of first insertion;
load at most 1/2, doubled when full. Batches go in and come out as numpy arrays.
"""
from libc.stdint cimport int32_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.mem cimport PyMem_Free, PyMem_Malloc

import numpy as np

from assay.text._buffers cimport grow


cdef inline uint64_t _slot(uint64_t key, int shift) noexcept nogil:
    return (key * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift


cdef inline uint64_t _key(int32_t p, int32_t t) noexcept:
    """The pair packed into one key (both halves non-negative)."""
    return (<uint64_t><uint32_t>p << 32) | <uint64_t><uint32_t>t


cdef object _ids_of(PairIndex index, const int32_t[::1] prefix, const int32_t[::1] last, bint insert):
    """The id of each pair (``prefix[i]``, ``last[i]``) in ``index``: inserted as new when absent (``insert``;
    a negative half is an error), else looked up (-1 where absent or a half is negative)."""
    cdef Py_ssize_t i
    if last.shape[0] != prefix.shape[0]:
        raise ValueError("prefix and last differ in length")
    out = np.empty(prefix.shape[0], dtype=np.int32)
    cdef int32_t[::1] view = out
    for i in range(prefix.shape[0]):
        if prefix[i] < 0 or last[i] < 0:
            if insert:
                raise ValueError(f"pair {i}: ({prefix[i]}, {last[i]}) is negative")
            view[i] = -1
        else:
            view[i] = index._insert(prefix[i], last[i]) if insert else index._find(prefix[i], last[i])
    return out


cdef class PairIndex:
    """(prefix, last) -> id, ids 0, 1, 2, ... in order of first insertion (its fields: the .pxd)."""

    def __cinit__(self, Py_ssize_t expected=0):
        """``expected``: how many pairs to make room for at once (the index grows past them)."""
        cdef Py_ssize_t slots = 1024
        self.slots, self.shift, self.count = 0, 64, 0
        self.keys, self.ids, self.prefix, self.last = NULL, NULL, NULL, NULL
        self.prefix_cap = self.last_cap = 0
        while slots < 2 * expected:
            slots *= 2
        self._rehash(slots)

    def __dealloc__(self):
        PyMem_Free(self.keys)
        PyMem_Free(self.ids)
        PyMem_Free(self.prefix)
        PyMem_Free(self.last)

    def __len__(self):
        return self.count

    cdef int _rehash(self, Py_ssize_t slots) except -1:
        """Move every entry into a table of ``slots`` (a power of two) slots."""
        cdef uint64_t* old_keys = self.keys
        cdef int32_t* old_ids = self.ids
        cdef Py_ssize_t old_slots = self.slots, i
        cdef uint64_t s, mask = <uint64_t>(slots - 1)
        cdef int shift = 64
        cdef uint64_t* keys
        cdef int32_t* ids
        while (<Py_ssize_t>1 << (64 - shift)) < slots:
            shift -= 1
        keys = <uint64_t*>PyMem_Malloc(slots * sizeof(uint64_t))
        ids = <int32_t*>PyMem_Malloc(slots * sizeof(int32_t))
        if keys == NULL or ids == NULL:
            PyMem_Free(keys)
            PyMem_Free(ids)
            raise MemoryError()
        memset(ids, 0xFF, slots * sizeof(int32_t))
        for i in range(old_slots):
            if old_ids[i] >= 0:
                s = _slot(old_keys[i], shift)
                while ids[s] >= 0:
                    s = (s + 1) & mask
                keys[s] = old_keys[i]
                ids[s] = old_ids[i]
        PyMem_Free(old_keys)
        PyMem_Free(old_ids)
        self.keys, self.ids, self.slots, self.shift = keys, ids, slots, shift
        return 0

    cdef uint64_t _probe(self, uint64_t key) noexcept:
        """The slot holding ``key``, or the empty slot where it would go."""
        cdef uint64_t mask = <uint64_t>(self.slots - 1)
        cdef uint64_t s = _slot(key, self.shift)
        while self.ids[s] >= 0 and self.keys[s] != key:
            s = (s + 1) & mask
        return s

    cdef int32_t _find(self, int32_t p, int32_t t) noexcept:
        return self.ids[self._probe(_key(p, t))]

    cdef int32_t _insert(self, int32_t p, int32_t t) except -2:
        cdef uint64_t key = _key(p, t)
        cdef uint64_t s = self._probe(key)
        cdef int32_t v = self.ids[s]
        if v >= 0:
            return v
        if self.count >= 2 ** 31 - 1:
            raise OverflowError("more than 2**31 - 1 distinct n-grams of one order")
        if 2 * (self.count + 1) > self.slots:
            self._rehash(2 * self.slots)
            s = self._probe(key)
        self.prefix = <int32_t*>grow(self.prefix, (self.count + 1) * sizeof(int32_t), &self.prefix_cap)
        self.last = <int32_t*>grow(self.last, (self.count + 1) * sizeof(int32_t), &self.last_cap)
        v = <int32_t>self.count
        self.keys[s] = key
        self.ids[s] = v
        self.prefix[v] = p
        self.last[v] = t
        self.count += 1
        return v

    def insert(self, const int32_t[::1] prefix, const int32_t[::1] last):
        """The id of each pair, new pairs numbered as they come (pairs must be non-negative)."""
        return _ids_of(self, prefix, last, True)

    def find(self, const int32_t[::1] prefix, const int32_t[::1] last):
        """The id of each pair; -1 where it is absent or either half is negative."""
        return _ids_of(self, prefix, last, False)

    def pairs(self):
        """``(prefix, last)``: the pair of every id, in id order (int32 copies)."""
        p = np.empty(self.count, dtype=np.int32)
        t = np.empty(self.count, dtype=np.int32)
        cdef int32_t[::1] pv = p
        cdef int32_t[::1] tv = t
        if self.count:
            memcpy(&pv[0], self.prefix, self.count * sizeof(int32_t))
            memcpy(&tv[0], self.last, self.count * sizeof(int32_t))
        return p, t

    @property
    def nbytes(self):
        """Bytes held: the slots (12 each) and the pairs (8 per id, capacity included)."""
        return self.slots * 12 + self.prefix_cap + self.last_cap
