# cython: language_level=3
"""Compiled twin of :mod:`assay.metrics.chrf.counts` (the pure module is the specification).

Matching is done one segment at a time, in memory proportional to that segment: the symbols of
the hypothesis and of every reference of the segment are laid end to end (``bounds`` marks the
sides), and for each order n every n-gram gets a segment-local code from its key (code of its
(n-1)-gram prefix, order-1 code of its last symbol): a direct-mapped table indexed by the key while
(prefix codes x hypothesis alphabet) stays small, else an open-addressing hash table. Counting the
codes per side gives ``m_k = sum_g min(count_hyp(g), count_ref_k(g))``. Only hypothesis n-grams
get codes (a reference n-gram the hypothesis lacks cannot match), and, as in the pure path, an
n-gram is only looked at when its (n-1)-gram prefix occurs in the hypothesis and in some reference.

:func:`text_counts` also does the text stage in C (whitespace deletion for characters; chrF++'s
``str.split`` words with one trailing, else leading, ASCII punctuation split off): the word ids are
segment-local (interned by content per segment), which changes no match count.
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcmp, memset
from cpython.unicode cimport Py_UNICODE_ISSPACE

import numpy as np

cdef extern from *:
    """
    #define ASSAY_CHRF_GOLDEN 0x9E3779B97F4A7C15ULL  /* 2**64 / golden ratio: Fibonacci hashing */
    """
    uint64_t ASSAY_CHRF_GOLDEN


cdef struct _Slot:
    int64_t key
    int32_t code
    uint32_t stamp            # the slot is filled when it equals the table's current stamp


cdef struct _Cell:
    int32_t code
    uint32_t stamp


cdef enum:
    # the largest direct-mapped table (cells, 256 KiB): (prefix code, last symbol) indexes it, no hashing
    DIRECT_CELLS = 1 << 15


cdef inline bint _ascii_punct(Py_UCS4 c) nogil:
    """``c in string.punctuation``."""
    return (33 <= c <= 47) or (58 <= c <= 64) or (91 <= c <= 96) or (123 <= c <= 126)


cdef void *_grow(void *ptr, Py_ssize_t n, size_t size) except NULL:
    cdef void *out = realloc(ptr, (n if n > 0 else 1) * size)
    if out == NULL:
        raise MemoryError()
    return out


cdef class _Matcher:
    """Reusable buffers for matching one segment (grown to the largest segment seen).

    Only hypothesis n-grams are entered in the tables; a reference n-gram is looked up, and
    dropped (with every longer n-gram starting there) when the hypothesis does not have it.
    """

    cdef Py_ssize_t cap, tcap, cnt_cap, side_cap
    cdef int64_t *sym          # symbols of the segment, sides end to end
    cdef int32_t *dense        # order-1 code of every position (-1: not in the hypothesis)
    cdef int32_t *pos          # live positions, grouped by side
    cdef int32_t *code         # their n-gram code at the current order
    cdef int32_t *cnt          # counts per (code, side)
    cdef unsigned char *ok     # code occurs in the hypothesis and in some reference
    cdef Py_ssize_t *live      # live[sd]:live[sd + 1] = the live positions of side sd
    cdef int64_t *acc          # m per reference side
    cdef _Slot *table          # open addressing, linear probing
    cdef uint32_t stamp
    cdef uint64_t mask
    cdef int shift
    cdef int32_t n_codes
    cdef _Cell *direct         # direct-mapped table: prefix code * alphabet + last symbol -> code
    cdef Py_ssize_t dcap
    cdef uint32_t dstamp

    def __dealloc__(self):
        free(self.direct)
        free(self.sym); free(self.dense); free(self.pos); free(self.code); free(self.cnt); free(self.ok)
        free(self.live); free(self.acc); free(self.table)

    cdef int reserve(self, Py_ssize_t n) except -1:
        """Room for ``n`` symbols in the segment."""
        if n <= self.cap:
            return 0
        if n >= 0x7FFFFFFF:
            raise OverflowError("a segment of 2**31 or more symbols")
        n = max(n, 2 * self.cap, 64)
        self.sym = <int64_t *> _grow(self.sym, n, sizeof(int64_t))
        self.dense = <int32_t *> _grow(self.dense, n, sizeof(int32_t))
        self.pos = <int32_t *> _grow(self.pos, n, sizeof(int32_t))
        self.code = <int32_t *> _grow(self.code, n, sizeof(int32_t))
        self.ok = <unsigned char *> _grow(self.ok, n, sizeof(unsigned char))
        self.cap = n
        return 0

    cdef int sides(self, int n_sides) except -1:
        """Room for ``n_sides`` sides."""
        if n_sides + 1 > self.side_cap:
            self.live = <Py_ssize_t *> _grow(self.live, n_sides + 1, sizeof(Py_ssize_t))
            self.acc = <int64_t *> _grow(self.acc, n_sides + 1, sizeof(int64_t))
            self.side_cap = n_sides + 1
        return 0

    cdef int _table(self, Py_ssize_t n, int n_sides) except -1:
        """A fresh (empty) hash table for up to ``n`` keys, and room for their counts."""
        cdef Py_ssize_t size = 16
        cdef int bits = 4
        while size < 2 * n:
            size <<= 1
            bits += 1
        if size > self.tcap:
            self.table = <_Slot *> _grow(self.table, size, sizeof(_Slot))
            memset(self.table, 0, size * sizeof(_Slot))
            self.tcap = size
            self.stamp = 0
        if n * n_sides > self.cnt_cap:
            self.cnt_cap = max(n * n_sides, 2 * self.cnt_cap)
            self.cnt = <int32_t *> _grow(self.cnt, self.cnt_cap, sizeof(int32_t))
        self.stamp += 1
        if self.stamp == 0:       # wrapped: clear every stamp once
            memset(self.table, 0, self.tcap * sizeof(_Slot))
            self.stamp = 1
        self.mask = <uint64_t> (size - 1)
        self.shift = 64 - bits
        self.n_codes = 0
        return 0

    cdef int _direct(self, Py_ssize_t size) except -1:
        """A fresh (empty) direct-mapped table of ``size`` cells."""
        if size > self.dcap:
            self.direct = <_Cell *> _grow(self.direct, size, sizeof(_Cell))
            memset(self.direct, 0, size * sizeof(_Cell))
            self.dcap = size
            self.dstamp = 0
        self.dstamp += 1
        if self.dstamp == 0:
            memset(self.direct, 0, self.dcap * sizeof(_Cell))
            self.dstamp = 1
        return 0

    cdef inline int32_t _new_code(self, int n_sides) noexcept nogil:
        """The next code of the current order, its counts zeroed."""
        cdef int32_t c = self.n_codes
        self.n_codes = c + 1
        memset(&self.cnt[<Py_ssize_t> c * n_sides], 0, n_sides * sizeof(int32_t))
        return c

    cdef inline int32_t _insert(self, int64_t key, int n_sides) noexcept nogil:
        """Code of ``key`` in the current table (a new code, with zeroed counts, if unseen)."""
        cdef uint64_t h = ((<uint64_t> key) * ASSAY_CHRF_GOLDEN) >> self.shift
        cdef _Slot *slot
        while True:
            slot = &self.table[h]
            if slot.stamp != self.stamp:
                slot.stamp = self.stamp
                slot.key = key
                slot.code = self._new_code(n_sides)
                return slot.code
            if slot.key == key:
                return slot.code
            h = (h + 1) & self.mask

    cdef inline int32_t _find(self, int64_t key) noexcept nogil:
        """Code of ``key`` in the current table, -1 if absent."""
        cdef uint64_t h = ((<uint64_t> key) * ASSAY_CHRF_GOLDEN) >> self.shift
        cdef _Slot *slot
        while True:
            slot = &self.table[h]
            if slot.stamp != self.stamp:
                return -1
            if slot.key == key:
                return slot.code
            h = (h + 1) & self.mask

    cdef int match(self, const Py_ssize_t *bounds, int n_sides, int max_order,
                   double[:, :, ::1] out, Py_ssize_t seg) except -1:
        """``out[k-1, seg, n-1] = m`` of reference side k, for the symbols ``sym[bounds[0]:bounds[n_sides]]``."""
        cdef Py_ssize_t total = bounds[n_sides]
        cdef Py_ssize_t i, j, p, c0, lo, hi, end
        cdef int32_t c, d, h, r, sd, n, k
        cdef bint any_ref, direct
        cdef int32_t alpha
        cdef _Cell *cell
        if bounds[1] == bounds[0] or total == bounds[1] or max_order <= 0:
            return 0           # an empty side matches nothing
        self.sides(n_sides)
        # order 1: the hypothesis symbols get codes; a reference symbol without one is dead
        self._table(bounds[1], n_sides)
        j = 0
        for p in range(bounds[0], bounds[1]):
            c = self._insert(self.sym[p], n_sides)
            self.dense[p] = c
            self.cnt[<Py_ssize_t> c * n_sides] += 1
            self.pos[j] = <int32_t> p
            self.code[j] = c
            j += 1
        self.live[0] = 0
        for sd in range(1, n_sides):
            self.live[sd] = j
            for p in range(bounds[sd], bounds[sd + 1]):
                c = self._find(self.sym[p])
                self.dense[p] = c
                if c >= 0:
                    self.cnt[<Py_ssize_t> c * n_sides + sd] += 1
                    self.pos[j] = <int32_t> p
                    self.code[j] = c
                    j += 1
        self.live[n_sides] = j
        alpha = self.n_codes         # the hypothesis alphabet: order-1 codes are below it
        n = 1
        while True:
            # m per reference, and which codes can extend to a match at the next order
            for k in range(1, n_sides):
                self.acc[k] = 0
            for c in range(self.n_codes):
                c0 = <Py_ssize_t> c * n_sides
                h = self.cnt[c0]
                any_ref = False
                for k in range(1, n_sides):
                    r = self.cnt[c0 + k]
                    if r > 0:
                        self.acc[k] += h if h < r else r
                        any_ref = True
                self.ok[c] = any_ref
            for k in range(1, n_sides):
                out[k - 1, seg, n - 1] = <double> self.acc[k]
            if n == max_order:
                return 0
            # order n + 1: a live position whose n-gram is matchable and whose (n+1)-gram fits its side
            n += 1
            # codes of (prefix code, last symbol): a direct-mapped table while it is small, else hashing
            direct = <Py_ssize_t> self.n_codes * alpha <= DIRECT_CELLS
            if direct:
                self._direct(<Py_ssize_t> self.n_codes * alpha)
            self._table(self.live[1], n_sides)
            j = 0
            for sd in range(n_sides):
                lo = self.live[sd]
                hi = self.live[sd + 1]
                self.live[sd] = j
                end = bounds[sd + 1] - n            # last start of an n-gram in this side
                for i in range(lo, hi):
                    p = self.pos[i]
                    if p > end or not self.ok[self.code[i]]:
                        continue
                    d = self.dense[p + n - 1]
                    if d < 0:
                        continue
                    if direct:
                        cell = &self.direct[<Py_ssize_t> self.code[i] * alpha + d]
                        if cell.stamp == self.dstamp:
                            c = cell.code
                        elif sd == 0:
                            cell.stamp = self.dstamp
                            cell.code = c = self._new_code(n_sides)
                        else:
                            continue
                    elif sd == 0:
                        c = self._insert(<int64_t> self.code[i] * total + d, n_sides)
                    else:
                        c = self._find(<int64_t> self.code[i] * total + d)
                        if c < 0:
                            continue
                    self.cnt[<Py_ssize_t> c * n_sides + sd] += 1
                    self.pos[j] = <int32_t> p
                    self.code[j] = c
                    j += 1
            self.live[n_sides] = j
            if self.live[1] == 0 or j == self.live[1]:
                return 0       # no hypothesis n-gram, or no reference one: m = 0 from here on


def pair_matches(const int64_t[::1] hyp_ids, const int64_t[::1] hyp_offsets, list ref_ids, list ref_offsets,
                 int max_order):
    """:func:`assay.metrics.chrf.counts.pair_matches` on the arrays of the ``Encoded`` sides."""
    cdef Py_ssize_t n_seg = hyp_offsets.shape[0] - 1
    cdef int n_refs = len(ref_ids)
    cdef int n_sides = n_refs + 1
    cdef int sd
    cdef Py_ssize_t s, p, t, lo, hi
    out = np.zeros((n_refs, max(n_seg, 0), max(max_order, 0)))
    if n_refs == 0 or max_order <= 0 or n_seg <= 0:
        return out
    cdef double[:, :, ::1] out_v = out
    cdef list ids_v = [hyp_ids] + [np.ascontiguousarray(r, dtype=np.int64) for r in ref_ids]
    cdef list offs_v = [hyp_offsets] + [np.ascontiguousarray(r, dtype=np.int64) for r in ref_offsets]
    cdef const int64_t[::1] ids
    cdef const int64_t[::1] offs
    cdef Py_ssize_t[::1] bounds = np.zeros(n_sides + 1, dtype=np.intp)
    cdef _Matcher matcher = _Matcher()
    for s in range(n_seg):
        if (s & 1023) == 0:
            PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
        t = 0
        for sd in range(n_sides):
            ids = ids_v[sd]
            offs = offs_v[sd]
            lo = offs[s]
            hi = offs[s + 1]
            bounds[sd] = t
            matcher.reserve(t + hi - lo)
            for p in range(lo, hi):
                matcher.sym[t] = ids[p]
                t += 1
        bounds[n_sides] = t
        matcher.match(&bounds[0], n_sides, max_order, out_v, s)
    return out


cdef class _Words:
    """chrF++'s words of one segment, interned by content (segment-local ids)."""

    cdef Py_UCS4 *txt          # code points of the segment's texts, end to end
    cdef Py_ssize_t txt_cap, txt_len
    cdef int64_t *wstart       # table: token start in txt, length, id, hash, stamp
    cdef int32_t *wlen
    cdef int32_t *wid
    cdef uint64_t *whash
    cdef uint32_t *wstamp
    cdef Py_ssize_t tcap
    cdef uint32_t stamp
    cdef uint64_t mask
    cdef int32_t n_ids

    def __dealloc__(self):
        free(self.txt); free(self.wstart); free(self.wlen); free(self.wid); free(self.whash); free(self.wstamp)

    cdef int start(self, Py_ssize_t max_tokens) except -1:
        """A new segment of at most ``max_tokens`` words."""
        cdef Py_ssize_t size = 16
        while size < 2 * max_tokens:
            size <<= 1
        if size > self.tcap:
            self.wstart = <int64_t *> _grow(self.wstart, size, sizeof(int64_t))
            self.wlen = <int32_t *> _grow(self.wlen, size, sizeof(int32_t))
            self.wid = <int32_t *> _grow(self.wid, size, sizeof(int32_t))
            self.whash = <uint64_t *> _grow(self.whash, size, sizeof(uint64_t))
            self.wstamp = <uint32_t *> _grow(self.wstamp, size, sizeof(uint32_t))
            memset(self.wstamp, 0, size * sizeof(uint32_t))
            self.tcap = size
            self.stamp = 0
        self.stamp += 1
        if self.stamp == 0:
            memset(self.wstamp, 0, self.tcap * sizeof(uint32_t))
            self.stamp = 1
        self.mask = <uint64_t> (size - 1)
        self.txt_len = 0
        self.n_ids = 0
        return 0

    cdef int reserve_text(self, Py_ssize_t n) except -1:
        if self.txt_len + n > self.txt_cap:
            self.txt_cap = max(self.txt_len + n, 2 * self.txt_cap, 256)
            self.txt = <Py_UCS4 *> _grow(self.txt, self.txt_cap, sizeof(Py_UCS4))
        return 0

    cdef inline int32_t intern(self, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
        """Id of the word ``txt[a:b]``."""
        cdef uint64_t hv = 14695981039346656037ULL
        cdef Py_ssize_t i
        cdef int32_t length = <int32_t> (b - a)
        for i in range(a, b):
            hv = (hv ^ <uint64_t> self.txt[i]) * 1099511628211ULL
        hv ^= hv >> 29
        cdef uint64_t h = hv & self.mask
        while True:
            if self.wstamp[h] != self.stamp:
                self.wstamp[h] = self.stamp
                self.whash[h] = hv
                self.wstart[h] = a
                self.wlen[h] = length
                self.wid[h] = self.n_ids
                self.n_ids += 1
                return self.wid[h]
            if (self.whash[h] == hv and self.wlen[h] == length
                    and memcmp(&self.txt[self.wstart[h]], &self.txt[a], length * sizeof(Py_UCS4)) == 0):
                return self.wid[h]
            h = (h + 1) & self.mask


cdef Py_ssize_t _chars(str text, int64_t *dest, bint keep_space, int space_set) except -1:
    """The code points n-grams are taken from (:func:`.text.char_text`), written to ``dest``; their count.
    ``space_set`` indexes :data:`.knobs.WHITESPACE_SETS`: 0 isspace, 1 white_space, 2 space."""
    cdef Py_UCS4 ch
    cdef Py_ssize_t t = 0, a = 0, b = len(text), i
    if space_set == 2 and not keep_space:       # strip() the ends, then delete U+0020 only
        while a < b and Py_UNICODE_ISSPACE(text[a]):
            a += 1
        while b > a and Py_UNICODE_ISSPACE(text[b - 1]):
            b -= 1
        for i in range(a, b):
            ch = text[i]
            if ch != 0x20:
                dest[t] = ch
                t += 1
        return t
    for ch in text:
        if keep_space or not Py_UNICODE_ISSPACE(ch) or (space_set == 1 and 0x1c <= ch <= 0x1f):
            dest[t] = ch
            t += 1
    return t


cdef Py_ssize_t _words(str text, _Words words, int64_t *dest) except -1:
    """The ids of chrF++'s words (:func:`.text.word_tokens`), written to ``dest``; their count."""
    cdef Py_UCS4 ch
    cdef Py_ssize_t base = words.txt_len
    cdef Py_ssize_t end, i, a, t = 0
    words.reserve_text(len(text))
    for ch in text:
        words.txt[words.txt_len] = ch
        words.txt_len += 1
    end = words.txt_len
    i = base
    while True:
        while i < end and Py_UNICODE_ISSPACE(words.txt[i]):
            i += 1
        if i >= end:
            return t
        a = i
        while i < end and not Py_UNICODE_ISSPACE(words.txt[i]):
            i += 1
        if i - a > 1 and _ascii_punct(words.txt[i - 1]):
            dest[t] = words.intern(a, i - 1)
            dest[t + 1] = words.intern(i - 1, i)
            t += 2
        elif i - a > 1 and _ascii_punct(words.txt[a]):
            dest[t] = words.intern(a, a + 1)
            dest[t + 1] = words.intern(a + 1, i)
            t += 2
        else:
            dest[t] = words.intern(a, i)
            t += 1


def text_counts(list hyps, list streams, bint words, int max_order, bint whitespace, int space_set):
    """:func:`assay.metrics.chrf.counts.text_counts`: (hyp lengths, ref lengths, matches) from the texts."""
    cdef Py_ssize_t n_seg = len(hyps)
    cdef int n_refs = len(streams)
    cdef int n_sides = n_refs + 1
    cdef int sd
    cdef Py_ssize_t s, t, size, n
    cdef object text
    cdef str piece
    cdef list pieces = [None] * n_sides
    hyp_len = np.zeros(n_seg, dtype=np.int64)
    ref_len = np.zeros((n_refs, n_seg), dtype=np.int64)
    out = np.zeros((n_refs, n_seg, max(max_order, 0)))
    cdef int64_t[::1] hyp_len_v = hyp_len
    cdef int64_t[:, ::1] ref_len_v = ref_len
    cdef double[:, :, ::1] out_v = out
    cdef Py_ssize_t[::1] bounds = np.zeros(n_sides + 1, dtype=np.intp)
    cdef list sides = [hyps] + [st if type(st) is list else list(st) for st in streams]
    cdef _Matcher matcher = _Matcher()
    cdef _Words vocab = _Words()
    for st in sides:
        if len(st) != n_seg:
            raise ValueError("every reference stream needs one entry per hypothesis")
    for s in range(n_seg):
        if (s & 1023) == 0:
            PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
        size = 0
        for sd in range(n_sides):
            text = (<list> sides[sd])[s]
            if text is None:
                text = ""
            elif type(text) is not str:
                text = str.__str__(text)      # a str subclass: its characters, as an exact str
            pieces[sd] = text
            size += len(<str> text)
        matcher.reserve(size)
        if words:
            vocab.start(size)
        t = 0
        for sd in range(n_sides):
            piece = <str> pieces[sd]
            bounds[sd] = t
            if words:
                n = _words(piece, vocab, &matcher.sym[t])
            else:
                n = _chars(piece, &matcher.sym[t], whitespace, space_set)
            t += n
            if sd == 0:
                hyp_len_v[s] = n
            else:
                ref_len_v[sd - 1, s] = n
        bounds[n_sides] = t
        if n_refs and max_order > 0:
            matcher.match(&bounds[0], n_sides, max_order, out_v, s)
    return hyp_len, ref_len, out
