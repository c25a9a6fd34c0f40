"""Compiled twin of :mod:`assay.text.ngram_codes` (the pure module is the specification).

:func:`code_ngrams_into`: order 1 codes are the token ids; for each order n >= 2 an open-addressing
table maps the packed pair (code of the (n-1)-gram prefix, id of the last token) to a dense code, in
order of first occurrence. Used by NIST (information weights) and CIDEr (document frequencies).
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

import numpy as np


cdef inline uint64_t _slot(uint64_t key, int shift) noexcept nogil:
    return (key * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift


cdef object _int32_array(const int32_t* data, Py_ssize_t n):
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] view = out
    if n:
        memcpy(&view[0], data, n * sizeof(int32_t))
    return out


cdef class _Table:
    """Packed key -> code, growing at load 1/2; codes in order of insertion, with their prefix and last id."""

    cdef uint64_t* keys
    cdef int32_t* vals
    cdef int shift
    cdef Py_ssize_t slots, count, cap
    cdef int32_t* prefix
    cdef int32_t* last

    def __cinit__(self, Py_ssize_t expected):
        self.slots = 1024
        self.shift = 54
        while self.slots < 2 * expected and self.slots < (<Py_ssize_t>1 << 40):
            self.slots *= 2
            self.shift -= 1
        self.keys = <uint64_t*>malloc(self.slots * sizeof(uint64_t))
        self.vals = <int32_t*>malloc(self.slots * sizeof(int32_t))
        self.cap = max(expected, 16)
        self.prefix = <int32_t*>malloc(self.cap * sizeof(int32_t))
        self.last = <int32_t*>malloc(self.cap * sizeof(int32_t))
        self.count = 0
        if self.keys == NULL or self.vals == NULL or self.prefix == NULL or self.last == NULL:
            raise MemoryError()
        memset(self.vals, 0xFF, self.slots * sizeof(int32_t))

    def __dealloc__(self):
        free(self.keys)
        free(self.vals)
        free(self.prefix)
        free(self.last)

    cdef int _grow(self) except -1:
        cdef Py_ssize_t old_slots = self.slots, i
        cdef uint64_t* old_keys = self.keys
        cdef int32_t* old_vals = self.vals
        cdef uint64_t s, mask
        self.slots *= 2
        self.shift -= 1
        self.keys = <uint64_t*>malloc(self.slots * sizeof(uint64_t))
        self.vals = <int32_t*>malloc(self.slots * sizeof(int32_t))
        if self.keys == NULL or self.vals == NULL:
            free(old_keys)
            free(old_vals)
            raise MemoryError()
        memset(self.vals, 0xFF, self.slots * sizeof(int32_t))
        mask = <uint64_t>(self.slots - 1)
        for i in range(old_slots):
            if old_vals[i] >= 0:
                s = _slot(old_keys[i], self.shift)
                while self.vals[s] >= 0:
                    s = (s + 1) & mask
                self.keys[s] = old_keys[i]
                self.vals[s] = old_vals[i]
        free(old_keys)
        free(old_vals)
        return 0

    cdef int32_t code(self, int32_t prefix, int32_t last, uint64_t vocab) except -2:
        cdef uint64_t key = <uint64_t>prefix * vocab + <uint64_t>last
        cdef uint64_t mask = <uint64_t>(self.slots - 1)
        cdef uint64_t s = _slot(key, self.shift)
        cdef int32_t v
        while True:
            v = self.vals[s]
            if v < 0:
                break
            if self.keys[s] == key:
                return v
            s = (s + 1) & mask
        if 2 * (self.count + 1) > self.slots:
            self._grow()
            return self.code(prefix, last, vocab)
        if self.count == self.cap:
            self.cap *= 2
            self.prefix = <int32_t*>realloc(self.prefix, self.cap * sizeof(int32_t))
            self.last = <int32_t*>realloc(self.last, self.cap * sizeof(int32_t))
            if self.prefix == NULL or self.last == NULL:
                raise MemoryError()
        v = <int32_t>self.count
        self.keys[s] = key
        self.vals[s] = v
        self.prefix[v] = prefix
        self.last[v] = last
        self.count += 1
        return v


def code_ngrams_into(const int64_t[::1] ids, const int64_t[::1] offsets, int max_order, int64_t vocab_size,
                     int32_t[:, ::1] codes):
    """Fill ``codes[n-1, p]`` (-1 past a caption's end); return ``(prefix, last, n_codes)`` per order."""
    cdef Py_ssize_t n_pos = ids.shape[0], n_caps = offsets.shape[0] - 1
    cdef Py_ssize_t c, p, start, end
    cdef int n
    cdef _Table table
    cdef uint64_t vocab = <uint64_t>max(vocab_size, 1)
    empty = np.zeros(0, dtype=np.int32)
    prefix, last, n_codes = [empty], [empty], [int(vocab_size)]
    if max_order < 1:
        return prefix, last, n_codes
    for p in range(n_pos):
        codes[0, p] = <int32_t>ids[p]
    cdef Py_ssize_t expected = vocab_size
    for n in range(2, max_order + 1):
        table = _Table(min(n_pos, max(2 * expected, 1 << 16)))   # orders grow: sized from the last one
        for c in range(n_caps):
            start = offsets[c]
            end = offsets[c + 1]
            for p in range(start, end - n + 1):
                codes[n - 1, p] = table.code(codes[n - 2, p], <int32_t>ids[p + n - 1], vocab)
            for p in range(max(start, end - n + 1), end):
                codes[n - 1, p] = -1
        expected = table.count
        prefix.append(_int32_array(table.prefix, table.count))
        last.append(_int32_array(table.last, table.count))
        n_codes.append(int(table.count))
    return prefix, last, n_codes
