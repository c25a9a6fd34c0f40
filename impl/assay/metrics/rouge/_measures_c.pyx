"""Compiled twin of the n-gram and skip-bigram counts of :class:`assay.metrics.rouge.measures.PairBatch`.

Every n-gram (ROUGE-N) and skip-bigram / SU unigram (ROUGE-S, ROUGE-SU) of a document is one
int64 *key*, equal for equal items across the corpus (:func:`gram_keys`, :func:`skip_keys`):

- a unigram (ROUGE-1, an SU unigram) is its token id; a bigram and a skip-bigram ``(a, b)`` are
  packed as ``a << 32 | b``; ROUGE-SU's hits are those of its skip-bigrams plus those of its
  unigrams (disjoint items: the clipped sums add);
- an n-gram of n >= 3 is interned one order at a time: (id of its (n-1)-gram, its last token)
  through an open-addressing table (:class:`PairIds`), ids 0, 1, ... first seen.

A pair's clipped hits ``sum_g min(count_hyp(g), count_ref(g))`` (:func:`clipped_hits`): the
reference's keys are counted, then each hypothesis key with a count left is a hit and takes 1.
The counts live in a table indexed by key when the keys are small (token ids), else in a small
hash table local to the pair (one document's items, so it stays in cache whatever the corpus
size); a pair costs its number of items.
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free

import numpy as np


cdef struct Slot:
    uint64_t key
    int64_t val             # -1: empty


cdef class PairIds:
    """Open-addressing hash table: packed (a, b) pairs of ids < 2**32 -> dense ids 0, 1, ... (first
    seen). Key and id share a 16-byte slot (one cache line visit per probe); the table starts
    small and doubles at half load, so its size follows the distinct pairs, not the items."""

    cdef Slot* slots
    cdef Py_ssize_t mask      # slots - 1 (a power of two minus one)
    cdef Py_ssize_t size

    def __cinit__(self):
        self._alloc(1024)

    cdef int _alloc(self, Py_ssize_t n_slots) except -1:
        self.slots = <Slot*>PyMem_Malloc(n_slots * sizeof(Slot))
        if self.slots == NULL:
            raise MemoryError()
        memset(self.slots, 0xFF, n_slots * sizeof(Slot))
        self.mask = n_slots - 1
        return 0

    def __dealloc__(self):
        PyMem_Free(self.slots)

    cdef int _grow(self) except -1:
        cdef Slot* old = self.slots
        cdef Py_ssize_t old_n = self.mask + 1, i, j
        self._alloc(2 * old_n)
        for i in range(old_n):
            if old[i].val >= 0:
                j = <Py_ssize_t>(_mix(old[i].key) & <uint64_t>self.mask)
                while self.slots[j].val >= 0:
                    j = (j + 1) & self.mask
                self.slots[j] = old[i]
        PyMem_Free(old)
        return 0

    cdef inline int64_t get(self, uint64_t a, uint64_t b) except -1:
        """The id of (a, b), a new one if unseen."""
        cdef uint64_t key = (a << 32) | b
        cdef Py_ssize_t j = <Py_ssize_t>(_mix(key) & <uint64_t>self.mask)
        cdef Slot* slot
        while True:
            slot = &self.slots[j]
            if slot.val < 0:
                break
            if slot.key == key:
                return slot.val
            j = (j + 1) & self.mask
        slot.key = key
        slot.val = self.size
        self.size += 1
        if 2 * self.size > self.mask:
            self._grow()
        return self.size - 1


cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    """splitmix64's finaliser: a well-spread hash of a packed key."""
    x ^= x >> 30
    x *= 0xBF58476D1CE4E5B9ULL
    x ^= x >> 27
    x *= 0x94D049BB133111EBULL
    x ^= x >> 31
    return x


def gram_keys(const int64_t[::1] tokens, const int64_t[::1] doc_start, const int64_t[::1] doc_len, int n):
    """The keys of the n-grams of every document (n-grams do not cross documents), documents in
    order, and the number of n-grams per document: ``(keys int64, per_doc int64)``."""
    cdef Py_ssize_t n_docs = doc_start.shape[0], d, p, s, k, total = 0, q
    per_doc = np.zeros(n_docs, dtype=np.int64)
    cdef int64_t[::1] count = per_doc
    for d in range(n_docs):
        count[d] = doc_len[d] - n + 1 if doc_len[d] >= n else 0
        total += count[d]
    keys = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] out = keys
    cdef PairIds table
    q = 0
    for d in range(n_docs):          # unigrams: the token; bigrams and longer: (token, next token)
        s = doc_start[d]
        for p in range(count[d]):
            out[q] = tokens[s + p] if n == 1 else (tokens[s + p] << 32) | tokens[s + p + 1]
            q += 1
    if n >= 3:                       # the packed bigrams become ids < 2**31
        table = PairIds()
        for q in range(total):
            out[q] = table.get(<uint64_t>out[q] >> 32, <uint64_t>out[q] & 0xFFFFFFFF)
    for k in range(2, n):            # order k + 1: (id of the order-k gram, its next token)
        table = PairIds()
        q = 0
        for d in range(n_docs):
            s = doc_start[d]
            for p in range(count[d]):
                out[q] = table.get(<uint64_t>out[q], <uint64_t>tokens[s + p + k])
                q += 1
    return keys, per_doc


def skip_keys(const int64_t[::1] tokens, const int64_t[::1] doc_start, const int64_t[::1] doc_len, Py_ssize_t gap):
    """The keys ``a << 32 | b`` of the skip-bigrams (positions i < j with at most ``gap`` tokens
    between; ``gap < 0``: any) of every document: ``(keys, per_doc)``."""
    cdef Py_ssize_t n_docs = doc_start.shape[0], d, p, s, ln, span, dist, total = 0, q
    per_doc = np.zeros(n_docs, dtype=np.int64)
    cdef int64_t[::1] count = per_doc
    for d in range(n_docs):
        ln = doc_len[d]
        span = ln - 1 if gap < 0 else min(gap + 1, ln - 1)
        for dist in range(1, span + 1):
            count[d] += ln - dist
        total += count[d]
    keys = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] out = keys
    q = 0
    for d in range(n_docs):
        s = doc_start[d]
        ln = doc_len[d]
        span = ln - 1 if gap < 0 else min(gap + 1, ln - 1)
        for dist in range(1, span + 1):
            for p in range(ln - dist):
                out[q] = (tokens[s + p] << 32) | tokens[s + p + dist]
                q += 1
    return keys, per_doc


def unigram_keys(const int64_t[::1] tokens, const int64_t[::1] doc_start, const int64_t[::1] doc_len,
                 bint skip_last):
    """ROUGE-SU's unigrams of every document (its token ids), without the last position when
    ``skip_last`` (ROUGE-1.5.5): ``(keys, per_doc)``."""
    cdef Py_ssize_t n_docs = doc_start.shape[0], d, p, total = 0, q = 0
    per_doc = np.zeros(n_docs, dtype=np.int64)
    cdef int64_t[::1] count = per_doc
    for d in range(n_docs):
        count[d] = doc_len[d] - 1 if (skip_last and doc_len[d] > 0) else doc_len[d]
        total += count[d]
    keys = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] out = keys
    for d in range(n_docs):
        for p in range(count[d]):
            out[q] = tokens[doc_start[d] + p]
            q += 1
    return keys, per_doc


cdef struct Count:
    int64_t key             # -1: empty
    int64_t left


def clipped_hits(const int64_t[::1] keys, const int64_t[::1] per_doc, const int64_t[::1] pair_h,
                 const int64_t[::1] pair_r):
    """``sum_g min(count_hyp(g), count_ref(g))`` of every pair over the keys of :func:`gram_keys`,
    :func:`skip_keys` or :func:`unigram_keys` (``per_doc``: keys per document, documents stored in
    order). float64. Keys below a small bound (token ids) are counted in a table indexed by key,
    others in a hash table local to the pair."""
    cdef Py_ssize_t n_docs = per_doc.shape[0], n_pairs = pair_h.shape[0], d, k, p, hs, rs, hits, size
    cdef Py_ssize_t cap = 0, mask, j, n_keys = keys.shape[0]
    cdef int shift
    cdef int64_t g, top = -1
    cdef Count* table = NULL
    cdef int32_t* dense = NULL
    start_arr = np.zeros(n_docs + 1, dtype=np.int64)
    cdef int64_t[::1] start = start_arr
    for d in range(n_docs):
        start[d + 1] = start[d] + per_doc[d]
    out = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] res = out
    for p in range(n_keys):
        if keys[p] > top:
            top = keys[p]
    try:
        if top < 4 * n_keys + 65536:          # token ids: one counter per key, kept at 0 between pairs
            dense = <int32_t*>PyMem_Malloc((top + 1) * sizeof(int32_t))
            if dense == NULL:
                raise MemoryError()
            memset(dense, 0, (top + 1) * sizeof(int32_t))
        for k in range(n_pairs):
            if (k & 1023) == 0:
                PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
            hs = pair_h[k]
            rs = pair_r[k]
            if per_doc[hs] == 0 or per_doc[rs] == 0:
                continue
            hits = 0
            if dense != NULL:
                for p in range(start[rs], start[rs + 1]):
                    dense[keys[p]] += 1
                for p in range(start[hs], start[hs + 1]):
                    g = keys[p]
                    if dense[g] > 0:
                        dense[g] -= 1
                        hits += 1
                for p in range(start[rs], start[rs + 1]):
                    dense[keys[p]] = 0
                res[k] = hits
                continue
            size = 16
            shift = 60
            while size < 2 * per_doc[rs]:
                size <<= 1
                shift -= 1
            if size > cap:
                PyMem_Free(table)
                table = <Count*>PyMem_Malloc(size * sizeof(Count))
                if table == NULL:
                    raise MemoryError()
                cap = size
            memset(table, 0xFF, size * sizeof(Count))
            mask = size - 1
            for p in range(start[rs], start[rs + 1]):      # the reference's counts
                g = keys[p]
                j = <Py_ssize_t>((<uint64_t>g * 0x9E3779B97F4A7C15ULL) >> shift)
                while table[j].key != g and table[j].key != -1:
                    j = (j + 1) & mask
                if table[j].key == -1:
                    table[j].key = g
                    table[j].left = 1
                else:
                    table[j].left += 1
            for p in range(start[hs], start[hs + 1]):      # each hypothesis item takes one if left
                g = keys[p]
                j = <Py_ssize_t>((<uint64_t>g * 0x9E3779B97F4A7C15ULL) >> shift)
                while table[j].key != g and table[j].key != -1:
                    j = (j + 1) & mask
                if table[j].key == g and table[j].left > 0:
                    table[j].left -= 1
                    hits += 1
            res[k] = hits
    finally:
        PyMem_Free(table)
        PyMem_Free(dense)
    return out
