"""Compiled twin of :mod:`assay.metrics.cider.vectors` (same results, bit for bit).

- n-gram codes come from :mod:`assay.text.ngram_codes` (its twin ``assay.text._ngram_codes_c``, shared
  with the other corpus-pass family).
- :func:`image_df_into`: per code, the last image counted (an n-gram is counted once per image).
- :func:`cider_sums_into`: image by image and order by order, counters indexed by code (reset
  after each caption) and the list of a caption's distinct codes in order of first occurrence; the
  floating-point operations are those of ``cider_sums_py``, in the same order.
- :func:`split_encode`: ``str.split()`` (``Py_UNICODE_ISSPACE``, as CPython's split) and interning in
  one pass, without the token lists.
"""
import numpy as np

from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.object cimport PyObject
from cpython.unicode cimport Py_UNICODE_ISSPACE, PyUnicode_CheckExact
from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t, uint64_t
from cpython.mem cimport PyMem_Free
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from assay.text._buffers cimport grow
from assay.text._code_counts cimport count_codes


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)


# open addressing over latin-1 token bytes -> id (the tokens of one-byte-kind strings)
cdef struct Table:
    Py_ssize_t cap, used, arena_used, arena_cap
    uint64_t* hashes
    int64_t* ids          # -1: empty slot
    Py_ssize_t* start     # the token's bytes: arena[start : start + size]
    Py_ssize_t* size
    unsigned char* arena


cdef inline uint64_t _hash(const unsigned char* b, Py_ssize_t n) noexcept:
    cdef uint64_t h = 1469598103934665603ULL
    cdef Py_ssize_t j
    for j in range(n):
        h = (h ^ b[j]) * 1099511628211ULL
    return h


cdef int _table_init(Table* t, Py_ssize_t cap) except -1:
    t.cap, t.used, t.arena_used, t.arena_cap = cap, 0, 0, 1 << 16
    t.hashes = <uint64_t*>malloc(cap * sizeof(uint64_t))
    t.ids = <int64_t*>malloc(cap * sizeof(int64_t))
    t.start = <Py_ssize_t*>malloc(cap * sizeof(Py_ssize_t))
    t.size = <Py_ssize_t*>malloc(cap * sizeof(Py_ssize_t))
    t.arena = <unsigned char*>malloc(t.arena_cap)
    if t.hashes == NULL or t.ids == NULL or t.start == NULL or t.size == NULL or t.arena == NULL:
        raise MemoryError()
    memset(t.ids, 0xFF, cap * sizeof(int64_t))
    return 0


cdef void _table_free(Table* t) noexcept:
    free(t.hashes); free(t.ids); free(t.start); free(t.size); free(t.arena)


cdef Py_ssize_t _find(Table* t, const unsigned char* b, Py_ssize_t n, uint64_t h) noexcept:
    """The slot of the token ``b[:n]`` (its id, or -1: the empty slot where it would go)."""
    cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>(t.cap - 1))
    while t.ids[slot] >= 0:
        if t.hashes[slot] == h and t.size[slot] == n and memcmp(t.arena + t.start[slot], b, n) == 0:
            return slot
        slot = (slot + 1) & (t.cap - 1)
    return slot


cdef int _insert(Table* t, const unsigned char* b, Py_ssize_t n, uint64_t h, int64_t tid) except -1:
    cdef Py_ssize_t slot, k, old_cap
    cdef uint64_t* old_h
    cdef int64_t* old_i
    cdef Py_ssize_t* old_s
    cdef Py_ssize_t* old_z
    cdef unsigned char* grown
    if (t.used + 1) * 2 > t.cap:                 # keep the load at most 1/2: rehash into twice the slots
        old_cap, old_h, old_i, old_s, old_z = t.cap, t.hashes, t.ids, t.start, t.size
        t.cap = old_cap * 2
        t.hashes = <uint64_t*>malloc(t.cap * sizeof(uint64_t))
        t.ids = <int64_t*>malloc(t.cap * sizeof(int64_t))
        t.start = <Py_ssize_t*>malloc(t.cap * sizeof(Py_ssize_t))
        t.size = <Py_ssize_t*>malloc(t.cap * sizeof(Py_ssize_t))
        if t.hashes == NULL or t.ids == NULL or t.start == NULL or t.size == NULL:
            raise MemoryError()
        memset(t.ids, 0xFF, t.cap * sizeof(int64_t))
        for k in range(old_cap):
            if old_i[k] >= 0:
                slot = <Py_ssize_t>(old_h[k] & <uint64_t>(t.cap - 1))
                while t.ids[slot] >= 0:
                    slot = (slot + 1) & (t.cap - 1)
                t.hashes[slot], t.ids[slot], t.start[slot], t.size[slot] = old_h[k], old_i[k], old_s[k], old_z[k]
        free(old_h); free(old_i); free(old_s); free(old_z)
    while t.arena_used + n > t.arena_cap:
        t.arena_cap *= 2
        grown = <unsigned char*>realloc(t.arena, t.arena_cap)
        if grown == NULL:
            raise MemoryError()
        t.arena = grown
    memcpy(t.arena + t.arena_used, b, n)
    slot = _find(t, b, n, h)
    t.hashes[slot], t.ids[slot], t.start[slot], t.size[slot] = h, tid, t.arena_used, n
    t.arena_used += n
    t.used += 1
    return 0


# a growing buffer of token ids
cdef struct Ids:
    int64_t* data
    Py_ssize_t count
    size_t cap          # bytes allocated


cdef inline int _push(Ids* buf, int64_t tid) except -1:
    """Append ``tid`` (the buffer at least doubles when it is full: :func:`assay.text._buffers.grow`)."""
    buf.data = <int64_t*>grow(buf.data, (buf.count + 1) * sizeof(int64_t), &buf.cap)
    buf.data[buf.count] = tid
    buf.count += 1
    return 0


cdef inline int64_t _vocab_id(dict vocab, object tok) except -1:
    """``tok``'s id in ``vocab``; a new token gets ``len(vocab)``."""
    cdef PyObject* found = PyDict_GetItem(vocab, tok)
    cdef int64_t tid
    if found == NULL:
        tid = len(vocab)
        PyDict_SetItem(vocab, tok, tid)
        return tid
    return <int64_t>(<object>found)


cdef bint _space_table[256]
for _c in range(256):
    _space_table[_c] = Py_UNICODE_ISSPACE(_c)


def split_encode(list strings, dict vocab):
    """``(ids, offsets)`` of the whitespace-separated tokens of ``strings`` (new tokens get ``len(vocab)``),
    or None at the first item that is not exactly a ``str`` (the type is read with the text, so the
    caller needs no pass of its own over the captions; ``vocab`` then holds the tokens before it, in
    the order a pure pass over the whole list would add them).

    Tokens of one-byte-kind strings (ASCII and latin-1) are looked up by their bytes in a hash table
    seeded from ``vocab`` (a token's string is made only when it is new); tokens of wider strings go
    through ``vocab`` itself. ``vocab`` ends the same either way: every token, numbered in order of
    first occurrence."""
    cdef Py_ssize_t n = len(strings), i, j, start, length
    cdef object text
    cdef Ids buf
    cdef int64_t tid
    cdef int64_t[::1] view
    cdef int kind
    cdef const unsigned char* b
    cdef uint64_t h
    cdef Py_ssize_t slot
    cdef Table table
    buf.count = 0
    buf.cap = 0
    buf.data = <int64_t*>grow(NULL, (1 << 12) * sizeof(int64_t), &buf.cap)
    table.hashes = NULL; table.ids = NULL; table.start = NULL; table.size = NULL; table.arena = NULL
    offsets = np.zeros(n + 1, dtype=np.int64)
    cdef int64_t[::1] off = offsets
    try:
        _table_init(&table, 1 << 12)
        for key, value in vocab.items():           # tokens known before: the table knows them too
            if type(key) is str and PyUnicode_KIND(key) == 1:
                b = <const unsigned char*>PyUnicode_DATA(key)
                length = PyUnicode_GET_LENGTH(key)
                h = _hash(b, length)
                if table.ids[_find(&table, b, length, h)] < 0:
                    _insert(&table, b, length, h, <int64_t>value)
        for i in range(n):
            text = strings[i]
            if not PyUnicode_CheckExact(text):
                return None
            length = PyUnicode_GET_LENGTH(text)
            kind = PyUnicode_KIND(text)
            if kind == 1:
                b = <const unsigned char*>PyUnicode_DATA(text)
                j = 0
                while j < length:
                    while j < length and _space_table[b[j]]:
                        j += 1
                    if j == length:
                        break
                    start = j
                    while j < length and not _space_table[b[j]]:
                        j += 1
                    h = _hash(b + start, j - start)
                    slot = _find(&table, b + start, j - start, h)
                    tid = table.ids[slot]
                    if tid < 0:
                        tid = _vocab_id(vocab, PyUnicode_FromKindAndData(1, b + start, j - start))
                        _insert(&table, b + start, j - start, h, tid)
                    _push(&buf, tid)
                off[i + 1] = buf.count
                continue
            j = 0
            while j < length:
                while j < length and Py_UNICODE_ISSPACE(text[j]):
                    j += 1
                if j == length:
                    break
                start = j
                while j < length and not Py_UNICODE_ISSPACE(text[j]):
                    j += 1
                _push(&buf, _vocab_id(vocab, text[start:j]))
            off[i + 1] = buf.count
        ids = np.empty(buf.count, dtype=np.int64)
        view = ids
        if buf.count:
            memcpy(&view[0], buf.data, buf.count * sizeof(int64_t))
    finally:
        PyMem_Free(buf.data)
        _table_free(&table)
    return ids, offsets


def image_df_into(const int32_t[:, ::1] codes, const int64_t[::1] offsets, Py_ssize_t first_ref,
                  const int64_t[::1] owner, list out):
    """``out[n-1][code]`` += 1 for each image whose references (captions ``first_ref + k`` of image
    ``owner[k]``) contain the n-gram."""
    cdef Py_ssize_t n_refs = owner.shape[0], k, p, end, n_c
    cdef int n
    cdef int32_t c
    cdef int64_t img
    cdef int64_t[::1] df
    cdef int64_t* seen
    for n in range(len(out)):
        df = out[n]
        n_c = df.shape[0]
        seen = <int64_t*>malloc(max(n_c, 1) * sizeof(int64_t))
        if seen == NULL:
            raise MemoryError()
        memset(seen, 0xFF, max(n_c, 1) * sizeof(int64_t))
        for k in range(n_refs):
            img = owner[k]
            end = offsets[first_ref + k + 1]
            for p in range(offsets[first_ref + k], end):
                c = codes[n, p]
                if c < 0:
                    break
                if seen[c] != img:
                    seen[c] = img
                    df[c] += 1
        free(seen)


def cider_sums_into(const int32_t[:, ::1] codes, const int64_t[::1] offsets, Py_ssize_t n_img,
                    const int64_t[::1] ref_start, const double[::1] idf, const int64_t[::1] bases,
                    Py_ssize_t max_codes, Py_ssize_t longest, const double[::1] penalty, bint clipping,
                    double[:, ::1] sums):
    """``sums[i, n-1] = sum_j sim_n(h_i, r_ij)`` (see ``cider_sums_py``)."""
    cdef int max_order = codes.shape[0], n
    cdef Py_ssize_t i, j, k, p, end, n_h, n_r, cap
    cdef int32_t c
    cdef int64_t base
    cdef double s, w, wr, wh, norm_h, norm_r, val, total
    cdef int32_t* h_cnt = <int32_t*>calloc(max(max_codes, 1), sizeof(int32_t))
    cdef int32_t* r_cnt = <int32_t*>calloc(max(max_codes, 1), sizeof(int32_t))
    cdef int32_t* h_list = <int32_t*>malloc(max(longest, 1) * sizeof(int32_t))
    cdef int32_t* r_list = <int32_t*>malloc(max(longest, 1) * sizeof(int32_t))
    cdef double* h_w = <double*>malloc(max(longest, 1) * sizeof(double))
    if h_cnt == NULL or r_cnt == NULL or h_list == NULL or r_list == NULL or h_w == NULL:
        free(h_cnt); free(r_cnt); free(h_list); free(r_list); free(h_w)
        raise MemoryError()
    try:
        for i in range(n_img):
            for n in range(max_order):
                base = bases[n]
                n_h = count_codes(&codes[n, 0], offsets[i], offsets[i + 1], h_cnt, h_list, NULL)
                s = 0.0
                for k in range(n_h):
                    c = h_list[k]
                    w = <double>h_cnt[c] * idf[base + c]
                    h_w[k] = w
                    s += w * w
                norm_h = sqrt(s)
                total = 0.0
                for j in range(ref_start[i], ref_start[i + 1]):
                    cap = n_img + j
                    n_r = count_codes(&codes[n, 0], offsets[cap], offsets[cap + 1], r_cnt, r_list, NULL)
                    s = 0.0
                    for k in range(n_r):
                        c = r_list[k]
                        w = <double>r_cnt[c] * idf[base + c]
                        s += w * w
                    norm_r = sqrt(s)
                    val = 0.0
                    for k in range(n_h):
                        c = h_list[k]
                        wr = <double>r_cnt[c] * idf[base + c]
                        wh = h_w[k]
                        if clipping and wr < wh:
                            wh = wr
                        val += wh * wr
                    if norm_h != 0 and norm_r != 0:
                        val /= norm_h * norm_r
                    val *= penalty[j]
                    total += val
                    for k in range(n_r):
                        r_cnt[r_list[k]] = 0
                sums[i, n] = total
                for k in range(n_h):
                    h_cnt[h_list[k]] = 0
    finally:
        free(h_cnt); free(r_cnt); free(h_list); free(r_list); free(h_w)
