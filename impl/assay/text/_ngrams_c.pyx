"""Compiled twin of :mod:`assay.text.ngrams`: token interning and clipped n-gram matches.

:func:`encode_into` interns tokens into the caller's dict (new tokens get ``len(vocab)``, in
first-seen order, as :func:`assay.text.ngrams.encode_py`).

:func:`clipped_matches_into` computes ``correct[s, n-1] = sum_g min(count_hyp(g), max_r count_r(g))``
one segment at a time, so memory is proportional to the longest segment:

- unigrams are counted in vocabulary-sized arrays indexed by token id (reset after each segment);
- per order n >= 2, every hypothesis n-gram gets a segment-local code through an open-addressing
  hash table keyed on the packed pair (code of its (n-1)-gram prefix, id of its last token);
- each reference's n-grams are *looked up* in that table (an n-gram absent from the hypothesis
  cannot match), counted, and the per-code maximum over references kept;
- ``correct = sum_code min(hyp count, max ref count)``;
- an n-gram whose prefix was not matched (clipped count 0) cannot match either: only the
  positions whose n-gram matched are kept, in a compact list per side, for order n+1 (the same
  pruning as the pure version; compact lists instead of flags, so no branch per dead position).

:func:`token_matches_into` does the same straight from token lists (the twin of
:func:`assay.text.ngrams.token_matches`): each segment's tokens get segment-local ids from a small
hash table (:class:`_Interner`) instead of ids from a corpus-wide dict, whose lookups miss the cache
on a large vocabulary; the clipped counts are the same, since clipping compares the tokens of one
segment only.
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcmp, memset
from cpython.dict cimport PyDict_GetItem, PyDict_SetItem
from cpython.list cimport PyList_CheckExact
from cpython.object cimport PyObject, PyObject_Hash
from cpython.sequence cimport PySequence_Fast_GET_SIZE, PySequence_Fast_ITEMS
from cpython.tuple cimport PyTuple_CheckExact
from cpython.unicode cimport PyUnicode_GET_LENGTH

cdef extern from "Python.h":
    int PyUnicode_1BYTE_KIND
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    bint PyUnicode_CheckExact(object o)


def encode_into(object token_lists, dict vocab, int64_t[::1] ids):
    """Fill ``ids`` with the id of every token of ``token_lists`` (flattened), growing ``vocab``."""
    cdef Py_ssize_t k = 0
    cdef PyObject* found
    cdef object tid
    for toks in token_lists:
        for tok in toks:
            found = PyDict_GetItem(vocab, tok)
            if found == NULL:
                tid = len(vocab)
                PyDict_SetItem(vocab, tok, tid)
                ids[k] = len(vocab) - 1
            else:
                ids[k] = <int64_t>(<object>found)
            k += 1


cdef struct Segment:
    const int64_t* ids
    Py_ssize_t length


cdef class _Work:
    """Buffers: per-token-id unigram counters (vocabulary-sized, zero between segments) and, for
    orders >= 2, a hash table, counters and position lists sized for the longest segment so far."""

    cdef int32_t* uni_hyp        # token id -> hypothesis count; after clipping -1 = matched, -2 = not
    cdef int32_t* uni_max        # token id -> max reference count
    cdef int32_t* uni_tmp        # token id -> count in the current reference
    cdef uint64_t* keys          # hash table: packed (prefix code, id) keys
    cdef int32_t* vals           # ... their codes, -1 = empty slot
    cdef Py_ssize_t cap_slots
    cdef int32_t* used           # slots filled at this order (to reset them)
    cdef int32_t* hyp_cnt        # code -> hypothesis count, then the clipped count
    cdef int32_t* ref_max        # code -> max reference count
    cdef int32_t* tmp            # code -> count in the current reference
    cdef int32_t* pos            # live positions (every side, side after side)
    cdef int32_t* code           # ... and the code of the n-gram (order n-1, then n) starting there
    cdef Py_ssize_t cap_hyp, cap_all, cap_vocab

    def __cinit__(self, Py_ssize_t vocab_size):
        self.cap_vocab = max(vocab_size, 1)
        self.uni_hyp = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        self.uni_max = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        self.uni_tmp = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        self.keys = NULL
        self.vals = NULL
        self.used = NULL
        self.hyp_cnt = NULL
        self.ref_max = NULL
        self.tmp = NULL
        self.pos = NULL
        self.code = NULL
        self.cap_slots = 0
        self.cap_hyp = 0
        self.cap_all = 0
        if self.uni_hyp == NULL or self.uni_max == NULL or self.uni_tmp == NULL:
            raise MemoryError()

    def __dealloc__(self):
        self._free_hyp()
        free(self.pos)
        free(self.code)
        free(self.uni_hyp)
        free(self.uni_max)
        free(self.uni_tmp)

    cdef void _free_hyp(self) noexcept:
        free(self.keys)
        free(self.vals)
        free(self.used)
        free(self.hyp_cnt)
        free(self.ref_max)
        free(self.tmp)

    cdef int reserve_vocab(self, Py_ssize_t vocab_size) except -1:
        """Unigram counters for ids below ``vocab_size`` (zero, as they are between segments)."""
        if vocab_size <= self.cap_vocab:
            return 0
        free(self.uni_hyp)
        free(self.uni_max)
        free(self.uni_tmp)
        self.cap_vocab = max(vocab_size, 2 * self.cap_vocab)
        self.uni_hyp = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        self.uni_max = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        self.uni_tmp = <int32_t*>calloc(self.cap_vocab, sizeof(int32_t))
        if self.uni_hyp == NULL or self.uni_max == NULL or self.uni_tmp == NULL:
            raise MemoryError()
        return 0

    cdef int reserve(self, Py_ssize_t hyp_len, Py_ssize_t all_len) except -1:
        cdef Py_ssize_t slots = 16
        if hyp_len > self.cap_hyp:
            self._free_hyp()
            self.cap_hyp = max(hyp_len, 2 * self.cap_hyp)
            while slots < 2 * self.cap_hyp:
                slots *= 2
            self.cap_slots = slots
            self.keys = <uint64_t*>malloc(slots * sizeof(uint64_t))
            self.vals = <int32_t*>malloc(slots * sizeof(int32_t))
            self.used = <int32_t*>malloc(self.cap_hyp * sizeof(int32_t))
            self.hyp_cnt = <int32_t*>malloc(self.cap_hyp * sizeof(int32_t))
            self.ref_max = <int32_t*>malloc(self.cap_hyp * sizeof(int32_t))
            self.tmp = <int32_t*>malloc(self.cap_hyp * sizeof(int32_t))
            if (self.keys == NULL or self.vals == NULL or self.used == NULL or self.hyp_cnt == NULL
                    or self.ref_max == NULL or self.tmp == NULL):
                raise MemoryError()
            memset(self.vals, 0xFF, slots * sizeof(int32_t))
        if all_len > self.cap_all:
            free(self.pos)
            free(self.code)
            self.cap_all = max(all_len, 2 * self.cap_all)
            self.pos = <int32_t*>malloc(self.cap_all * sizeof(int32_t))
            self.code = <int32_t*>malloc(self.cap_all * sizeof(int32_t))
            if self.pos == NULL or self.code == NULL:
                raise MemoryError()
        return 0


cdef inline Py_ssize_t _slot(uint64_t key, Py_ssize_t mask) noexcept:
    key ^= key >> 31
    key *= 0x9E3779B97F4A7C15ULL
    key ^= key >> 29
    return <Py_ssize_t>(key & <uint64_t>mask)


cdef int64_t _unigrams(_Work w, const Segment* sides, Py_ssize_t n_sides, Py_ssize_t* live) noexcept:
    """Order 1 with counters indexed by token id. Leaves in ``w.pos``/``w.code`` the positions
    whose unigram matched and that start a bigram, with their token id (the prefix code of
    order 2), side after side (``live[k]`` of them for side k)."""
    cdef Py_ssize_t k, p, n_live
    cdef int64_t total = 0, t
    cdef int32_t clip, c
    cdef const int64_t* ids = sides[0].ids
    cdef int32_t* cnt = w.uni_hyp
    cdef int32_t* rmax = w.uni_max
    cdef int32_t* tmp = w.uni_tmp
    cdef int32_t* pos = w.pos
    cdef int32_t* code = w.code
    for p in range(sides[0].length):
        cnt[ids[p]] += 1
    for k in range(1, n_sides):
        ids = sides[k].ids
        if n_sides == 2:                          # one reference: its counts are the maximum
            for p in range(sides[k].length):
                t = ids[p]
                rmax[t] += cnt[t] != 0
        else:
            for p in range(sides[k].length):
                t = ids[p]
                tmp[t] += cnt[t] != 0
            for p in range(sides[k].length):
                t = ids[p]
                if tmp[t] > rmax[t]:
                    rmax[t] = tmp[t]
                tmp[t] = 0
    ids = sides[0].ids
    for p in range(sides[0].length):              # clip once per distinct token; mark it -1/-2
        t = ids[p]
        c = cnt[t]
        if c > 0:
            clip = c if c < rmax[t] else rmax[t]
            total += clip
            cnt[t] = -1 if clip > 0 else -2
    for k in range(n_sides):                      # the live positions (those that start a bigram)
        ids = sides[k].ids
        n_live = 0
        for p in range(sides[k].length - 1):
            t = ids[p]
            pos[n_live] = <int32_t>p
            code[n_live] = <int32_t>t
            n_live += cnt[t] == -1
        live[k] = n_live
        pos += n_live
        code += n_live
    ids = sides[0].ids
    for p in range(sides[0].length):              # leave the counters zero for the next segment
        cnt[ids[p]] = 0
        rmax[ids[p]] = 0
    return total


cdef int _segment(_Work w, const Segment* sides, Py_ssize_t n_sides, int max_order, double* row,
                  Py_ssize_t* live) except -1:
    """One segment: fills ``row[0:max_order]`` (already zero)."""
    cdef Py_ssize_t hyp_len = sides[0].length, all_len = 0, k, i, j, n_live, n_used, mask, slots = 16, out
    cdef int n
    cdef int32_t m, c, p
    cdef int64_t total
    cdef uint64_t key
    cdef const int64_t* ids
    cdef int32_t* pos
    cdef int32_t* code
    cdef int32_t* counts
    cdef int32_t* new_pos
    cdef int32_t* new_code
    for k in range(n_sides):
        all_len += sides[k].length
    w.reserve(hyp_len, all_len)
    while slots < 2 * hyp_len:
        slots *= 2
    mask = slots - 1
    total = _unigrams(w, sides, n_sides, live)
    row[0] = <double>total
    for n in range(2, max_order + 1):
        if total == 0 or live[0] == 0:
            break
        # the hypothesis: a code for every n-gram whose prefix matched
        m = 0
        n_used = 0
        ids = sides[0].ids
        pos = w.pos
        code = w.code
        for i in range(live[0]):
            key = (<uint64_t>code[i] << 32) | <uint64_t>ids[pos[i] + n - 1]
            j = _slot(key, mask)
            while True:
                c = w.vals[j]
                if c < 0:
                    c = m
                    m += 1
                    w.vals[j] = c
                    w.keys[j] = key
                    w.used[n_used] = <int32_t>j
                    n_used += 1
                    w.hyp_cnt[c] = 0
                    w.ref_max[c] = 0
                    w.tmp[c] = 0
                    break
                if w.keys[j] == key:
                    break
                j = (j + 1) & mask
            w.hyp_cnt[c] += 1
            code[i] = c
        # the references: look up (an n-gram absent from the hypothesis cannot match) and count
        counts = w.ref_max if n_sides == 2 else w.tmp
        for k in range(1, n_sides):
            pos += live[k - 1]
            code += live[k - 1]
            ids = sides[k].ids
            for i in range(live[k]):
                key = (<uint64_t>code[i] << 32) | <uint64_t>ids[pos[i] + n - 1]
                j = _slot(key, mask)
                while True:
                    c = w.vals[j]
                    if c < 0 or w.keys[j] == key:
                        break
                    j = (j + 1) & mask
                code[i] = c
                if c >= 0:
                    counts[c] += 1
            if n_sides > 2:
                for c in range(m):
                    if w.tmp[c] > w.ref_max[c]:
                        w.ref_max[c] = w.tmp[c]
                    w.tmp[c] = 0
        for i in range(n_used):
            w.vals[w.used[i]] = -1
        # clip; an n-gram that clipped to 0 is dead for every higher order
        total = 0
        for c in range(m):
            if w.ref_max[c] < w.hyp_cnt[c]:
                w.hyp_cnt[c] = w.ref_max[c]
            total += w.hyp_cnt[c]
        row[n - 1] = <double>total
        if total == 0 or n == max_order:
            break
        # keep the positions whose n-gram matched and that start an (n+1)-gram
        new_pos = w.pos
        new_code = w.code
        pos = w.pos
        code = w.code
        for k in range(n_sides):
            n_live = 0
            for i in range(live[k]):
                p = pos[i]
                c = code[i]
                new_pos[n_live] = p
                new_code[n_live] = c
                n_live += c >= 0 and w.hyp_cnt[c] > 0 and p + n < sides[k].length
            pos += live[k]
            code += live[k]
            new_pos += n_live
            new_code += n_live
            live[k] = n_live
    return 0


def clipped_matches_into(list ids, list offsets, int max_order, Py_ssize_t vocab_size, double[:, ::1] correct):
    """``correct[s, n-1]`` (zero on entry) for every segment s and order n; ``ids[k]``/``offsets[k]``
    are side k's flat int64 ids (``0 <= id < vocab_size``) and int64 segment offsets (side 0 the
    hypotheses)."""
    cdef Py_ssize_t n_sides = len(ids), n_seg = correct.shape[0], s, k
    cdef Segment* segs = <Segment*>malloc(max(n_sides, 1) * sizeof(Segment))
    cdef Py_ssize_t* live = <Py_ssize_t*>malloc(max(n_sides, 1) * sizeof(Py_ssize_t))
    cdef const int64_t** id_ptr = <const int64_t**>malloc(max(n_sides, 1) * sizeof(int64_t*))
    cdef const int64_t** off_ptr = <const int64_t**>malloc(max(n_sides, 1) * sizeof(int64_t*))
    cdef const int64_t[::1] view
    cdef _Work w
    cdef list keep = []
    try:
        if segs == NULL or live == NULL or id_ptr == NULL or off_ptr == NULL:
            raise MemoryError()
        if max_order < 1:
            return
        w = _Work(vocab_size)
        for k in range(n_sides):
            view = ids[k]
            keep.append(view)
            id_ptr[k] = &view[0] if view.shape[0] else NULL
            view = offsets[k]
            keep.append(view)
            off_ptr[k] = &view[0]
        for s in range(n_seg):
            if (s & 1023) == 0:
                PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
            for k in range(n_sides):
                segs[k].ids = id_ptr[k] + off_ptr[k][s] if id_ptr[k] != NULL else NULL
                segs[k].length = off_ptr[k][s + 1] - off_ptr[k][s]
            if segs[0].length:
                _segment(w, segs, n_sides, max_order, &correct[s, 0], live)
    finally:
        free(segs)
        free(live)
        free(id_ptr)
        free(off_ptr)


# ----------------------------------------------------------------------------- token lists
cdef struct LocalSlot:
    uint64_t key          # the code points packed 8 bits each, or (tag & LONG) the str's hash
    uint32_t tag          # the token's length, | LONG when the key is a hash
    int32_t id            # segment-local id; -1 = empty
    PyObject* token       # the first token seen with this key (borrowed; compared when tag & LONG)


cdef uint32_t LONG = 0x80000000U


cdef class _Interner:
    """Segment-local token ids (0, 1, ... in first-seen order) for exact ``str`` tokens, in an
    open-addressing table sized for the segment, so that it stays in the first-level cache: a token
    of at most 8 code points below U+0100 is keyed on its code points packed into 64 bits (one
    integer comparison), any other on its hash, confirmed by comparing the code points."""

    cdef LocalSlot* slots
    cdef int32_t* used            # slots filled in this segment (to reset them)
    cdef Py_ssize_t cap, n_ids    # cap: slots, a power of two

    def __cinit__(self):
        self.slots = NULL
        self.used = NULL
        self.cap = 0
        self.n_ids = 0

    def __dealloc__(self):
        free(self.slots)
        free(self.used)

    cdef int reserve(self, Py_ssize_t n_tokens) except -1:
        """Room for a segment of ``n_tokens`` tokens (the table is empty between segments)."""
        cdef Py_ssize_t cap = 16, j
        if 2 * n_tokens <= self.cap:
            return 0
        while cap < 2 * n_tokens:
            cap *= 2
        free(self.slots)
        free(self.used)
        self.slots = <LocalSlot*>malloc(cap * sizeof(LocalSlot))
        self.used = <int32_t*>malloc(cap * sizeof(int32_t))
        if self.slots == NULL or self.used == NULL:
            self.cap = 0
            raise MemoryError()
        self.cap = cap
        for j in range(cap):
            self.slots[j].id = -1
        return 0

    cdef int64_t intern(self, PyObject* token) except -2:
        """The local id of ``token``; -1 when it is not an exact ``str`` (the caller falls back)."""
        cdef object tok = <object>token
        cdef Py_ssize_t n, j, k
        cdef int kind
        cdef const unsigned char* b
        cdef uint64_t key = 0
        cdef uint32_t tag
        cdef LocalSlot* slot
        if not PyUnicode_CheckExact(tok):
            return -1
        n = PyUnicode_GET_LENGTH(tok)
        kind = PyUnicode_KIND(tok)
        if kind == PyUnicode_1BYTE_KIND and n <= 8:
            b = <const unsigned char*>PyUnicode_DATA(tok)
            for k in range(n):
                key = (key << 8) | <uint64_t>b[k]
            tag = <uint32_t>n
        else:
            if n >= LONG:
                raise MemoryError("a token of 2**31 code points or more")
            key = <uint64_t>PyObject_Hash(tok)
            tag = <uint32_t>n | LONG
        j = _slot(key ^ tag, self.cap - 1)
        while True:
            slot = &self.slots[j]
            if slot.id < 0:
                slot.key = key
                slot.tag = tag
                slot.token = token
                slot.id = <int32_t>self.n_ids
                self.used[self.n_ids] = <int32_t>j
                self.n_ids += 1
                return slot.id
            if slot.key == key and slot.tag == tag and (
                    not (tag & LONG) or slot.token == token or _same_text(slot.token, token, kind, n)):
                return slot.id
            j = (j + 1) & (self.cap - 1)

    cdef void clear(self) noexcept:
        cdef Py_ssize_t i
        for i in range(self.n_ids):
            self.slots[self.used[i]].id = -1
        self.n_ids = 0


cdef inline bint _same_text(PyObject* a, PyObject* b, int kind, Py_ssize_t n) noexcept:
    """Two exact ``str`` of length ``n``, ``b`` of ``kind``: equal code points (``a == b``)."""
    return (PyUnicode_KIND(<object>a) == kind
            and memcmp(PyUnicode_DATA(<object>a), PyUnicode_DATA(<object>b), n * kind) == 0)


cdef Py_ssize_t _token_count(object seg) except -2:
    """The number of tokens of a segment: a list or tuple (exactly), None = empty; -1 = another type."""
    if seg is None:
        return 0
    if PyList_CheckExact(seg) or PyTuple_CheckExact(seg):
        return PySequence_Fast_GET_SIZE(seg)
    return -1


def token_matches_into(list hyps, list refs, int max_order, double[:, ::1] correct):
    """``correct[s, n-1]`` (zero on entry) of token lists, as :func:`clipped_matches_into` of the
    tokens interned into one vocabulary (``hyps[s]``: segment s's hypothesis tokens; ``refs[k][s]``
    reference k's, None = missing). Tokens are interned per segment (:class:`_Interner`): clipping
    compares tokens of one segment only, so local ids give the same counts, and every table stays
    small. Returns False, with ``correct`` partly filled, when a segment is not a list or tuple or a
    token is not an exact ``str``: the caller then interns with a dict (any hashable token)."""
    cdef Py_ssize_t n_sides = 1 + len(refs), n_seg = correct.shape[0], s, k, t, m, all_len, cap = 0
    cdef Segment* segs = <Segment*>malloc(n_sides * sizeof(Segment))
    cdef Py_ssize_t* live = <Py_ssize_t*>malloc(n_sides * sizeof(Py_ssize_t))
    cdef Py_ssize_t* counts = <Py_ssize_t*>malloc(n_sides * sizeof(Py_ssize_t))
    cdef int64_t* ids = NULL
    cdef int64_t tid
    cdef PyObject** items
    cdef void* p
    cdef list sides = [hyps] + refs
    cdef object seg
    cdef _Work w = _Work(1)
    cdef _Interner table = _Interner()
    try:
        if segs == NULL or live == NULL or counts == NULL:
            raise MemoryError()
        for k in range(n_sides):
            if len(sides[k]) < n_seg:
                raise ValueError("every side needs a segment per row of correct")
        if max_order < 1:
            return True
        for s in range(n_seg):
            if (s & 1023) == 0:
                PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
            all_len = 0
            for k in range(n_sides):
                m = _token_count(sides[k][s])
                if m < 0:
                    return False
                counts[k] = m
                all_len += m
            if counts[0] == 0:
                continue
            if all_len > cap:
                cap = max(all_len, 2 * cap)
                p = realloc(ids, cap * sizeof(int64_t))
                if p == NULL:
                    raise MemoryError()
                ids = <int64_t*>p
            table.reserve(all_len)
            all_len = 0
            for k in range(n_sides):
                segs[k].ids = ids + all_len
                segs[k].length = counts[k]
                if counts[k]:
                    seg = sides[k][s]
                    items = PySequence_Fast_ITEMS(seg)
                    for t in range(counts[k]):
                        tid = table.intern(items[t])
                        if tid < 0:
                            table.clear()
                            return False
                        ids[all_len + t] = tid
                all_len += counts[k]
            w.reserve_vocab(table.n_ids)
            table.clear()
            _segment(w, segs, n_sides, max_order, &correct[s, 0], live)
        return True
    finally:
        free(segs)
        free(live)
        free(counts)
        free(ids)
