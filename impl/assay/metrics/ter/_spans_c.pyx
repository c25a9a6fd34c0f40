# cython: language_level=3
"""Compiled twin of :func:`assay.metrics.ter.spans.span_edits_py` (the pure module is the specification).

The same greedy search (rounds of: Levenshtein table of the current hypothesis, every maximal
common run as a candidate, the largest gain, ties to the greatest shifted hypothesis), in C on
dense token ids:

- hypothesis tokens get ids in their sorted order (``sorted(set(hyp))``), so comparing id
  sequences compares the shifted token lists as Python does (only hypothesis tokens are ever
  compared: a shift permutes them); reference-only tokens get ids after them;
- the current hypothesis's full table (``(n_hyp + 1) * (n_ref + 1)`` int32 cells, bounded by the
  caller) is kept, and a candidate is scored from its row before the first moved word with two
  rolling rows (the pure path runs bit-parallel rows from the same place: same numbers);
- the work is counted exactly as the specification counts it (rows times ``n_ref + 1`` per
  round, checked before the round is scored); over ``bound`` the search stops and returns
  ``-cells`` (the caller raises the error naming the segment).
"""
from libc.stdint cimport int32_t, int64_t
from cpython.mem cimport PyMem_Free, PyMem_Malloc


cdef void *_alloc(Py_ssize_t n, size_t size) except NULL:
    cdef void *out = PyMem_Malloc((n if n > 0 else 1) * size)
    if out == NULL:
        raise MemoryError()
    return out


cdef inline void _move(const int32_t *words, Py_ssize_t n, Py_ssize_t start, Py_ssize_t dest, Py_ssize_t length,
                       int32_t *out) noexcept nogil:
    """``words`` with ``words[start:start+length]`` taken out and inserted at index ``dest`` of the rest."""
    cdef Py_ssize_t k, p = 0, rest = n - length
    if dest > rest:
        dest = rest
    k = 0
    while k < dest:                       # rest[:dest]
        out[p] = words[k if k < start else k + length]
        p += 1
        k += 1
    k = 0
    while k < length:
        out[p] = words[start + k]
        p += 1
        k += 1
    k = dest
    while k < rest:                       # rest[dest:]
        out[p] = words[k if k < start else k + length]
        p += 1
        k += 1


cdef void _table(const int32_t *words, Py_ssize_t n_h, const int32_t *ref, Py_ssize_t n_r,
                 int32_t *table) noexcept nogil:
    """The full Levenshtein table of ``words`` against ``ref`` (row ``i`` at ``table + i * (n_r + 1)``)."""
    cdef Py_ssize_t i, j, w = n_r + 1
    cdef int32_t v
    for j in range(w):
        table[j] = <int32_t>j
    for i in range(1, n_h + 1):
        table[i * w] = <int32_t>i
        for j in range(1, w):
            v = table[(i - 1) * w + j - 1] + (words[i - 1] != ref[j - 1])
            if table[(i - 1) * w + j] + 1 < v:
                v = table[(i - 1) * w + j] + 1
            if table[i * w + j - 1] + 1 < v:
                v = table[i * w + j - 1] + 1
            table[i * w + j] = v


cdef int32_t _distance_from(const int32_t *moved, Py_ssize_t n_h, const int32_t *ref, Py_ssize_t n_r,
                            const int32_t *row, Py_ssize_t first, int32_t *prev, int32_t *cur) noexcept nogil:
    """Levenshtein distance of ``moved`` (equal to the table's words before ``first``) from table row ``first``."""
    cdef Py_ssize_t i, j, w = n_r + 1
    cdef int32_t v
    cdef int32_t *tmp
    for j in range(w):
        prev[j] = row[j]
    for i in range(first + 1, n_h + 1):
        cur[0] = <int32_t>i
        for j in range(1, w):
            v = prev[j - 1] + (moved[i - 1] != ref[j - 1])
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            cur[j] = v
        tmp = prev
        prev = cur
        cur = tmp
    return prev[n_r]


cdef inline int _greater(const int32_t *a, const int32_t *b, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t k
    for k in range(n):
        if a[k] != b[k]:
            return a[k] > b[k]
    return 0


def span_edits(list hyp, list ref, long long bound):
    """Shifts + Levenshtein distance (:func:`assay.metrics.ter.spans.span_edits_py`), or ``-cells``
    when the search would fill more than ``bound`` cells."""
    cdef Py_ssize_t n_h = len(hyp), n_r = len(ref)
    if n_h == 0 or n_r == 0:
        return n_h + n_r
    ids = {tok: k for k, tok in enumerate(sorted(set(hyp)))}
    cdef Py_ssize_t i, j, length, first, w = n_r + 1
    cdef int32_t *words = <int32_t *>_alloc(n_h, sizeof(int32_t))
    cdef int32_t *refs = <int32_t *>_alloc(n_r, sizeof(int32_t))
    cdef int32_t *moved = <int32_t *>_alloc(n_h, sizeof(int32_t))
    cdef int32_t *best_words = <int32_t *>_alloc(n_h, sizeof(int32_t))
    cdef int32_t *prev = <int32_t *>_alloc(w, sizeof(int32_t))
    cdef int32_t *cur = <int32_t *>_alloc(w, sizeof(int32_t))
    cdef int32_t *table = NULL
    cdef int32_t cost, gain, best_gain
    cdef int64_t rows, spent = 0
    cdef long long shifts = 0
    try:
        for i in range(n_h):
            words[i] = ids[hyp[i]]
        for j in range(n_r):
            refs[j] = ids.setdefault(ref[j], len(ids))
        table = <int32_t *>_alloc((n_h + 1) * w, sizeof(int32_t))
        with nogil:
            while True:
                _table(words, n_h, refs, n_r, table)
                cost = table[n_h * w + n_r]
                if cost == 0:
                    break
                rows = 0
                for i in range(n_h):
                    for j in range(n_r):
                        if words[i] == refs[j]:
                            rows += n_h - (i if i < j else j)
                spent += rows * w
                if spent > bound:
                    break
                best_gain = 0
                for i in range(n_h):
                    for j in range(n_r):
                        if words[i] != refs[j]:
                            continue
                        length = 1
                        while i + length < n_h and j + length < n_r and words[i + length] == refs[j + length]:
                            length += 1
                        first = i if i < j else j
                        _move(words, n_h, i, j, length, moved)
                        gain = cost - _distance_from(moved, n_h, refs, n_r, table + first * w, first, prev, cur)
                        if gain > best_gain or (gain == best_gain and gain > 0
                                                and _greater(moved, best_words, n_h)):
                            best_gain = gain
                            for length in range(n_h):
                                best_words[length] = moved[length]
                if best_gain <= 0:
                    break
                for i in range(n_h):
                    words[i] = best_words[i]
                shifts += 1
        if spent > bound:
            return -spent
        return shifts + cost
    finally:
        PyMem_Free(words)
        PyMem_Free(refs)
        PyMem_Free(moved)
        PyMem_Free(best_words)
        PyMem_Free(prev)
        PyMem_Free(cur)
        PyMem_Free(table)
