"""Compiled twin of :mod:`assay.metrics.nist.matches` (same results, bit for bit).

- n-gram codes come from :mod:`assay.text.ngram_codes` (its twin ``assay.text._ngram_codes_c``, shared
  with the other corpus-pass family).
- :func:`log2_ratios_into`: ``log(num / den) / log(2)`` with the C library's ``log``, which is what
  ``math.log(num / den, 2)`` computes.
- :func:`nist_sums_into`: segment by segment and order by order, counters indexed by code (reset
  after each segment): the hypothesis's distinct n-grams in order of first occurrence, each
  reference's counts of them, the counts over the segment's references (this order's and the
  previous order's, for the prefixes); the floating-point operations are those of
  ``nist_sums_py``, in the same order.
- :class:`RefCounts`: the first pass, counting reference n-grams in hash tables keyed by the pair
  (prefix code, last id) (:class:`Finder`: a context's n-grams by code; :class:`TableFinder`: the
  same over an unpickled table's sorted keys); :func:`context_sums_into`: ``nist_sums_into`` under a
  context, from the token lists: segment-local token ids and n-gram codes, and context lookups for
  the matched tokens and n-grams only.
- :func:`sentence_values_into`: ``family.nist_from_sums``'s value of every row;
  :func:`lengths_into`: ``matches.segment_lengths_py``.
"""
import numpy as np

from cpython.dict cimport PyDict_GetItem
from cpython.object cimport Py_EQ, PyObject, PyObject_Hash, PyObject_RichCompareBool
from libc.math cimport exp, log, pow
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from assay.text._code_counts cimport count_codes


# ----------------------------------------------------------------------------- the matched sums
cdef struct Sums:
    # one (segment, order)'s matched information (corpus weights) and its segment-weighted twin:
    # over the union of the references (a count clipped by the best reference's count) or per
    # reference (clipped by that reference's), and where :func:`_sums_store` writes them
    bint by_union
    Py_ssize_t n_refs
    double sum_i
    double sum_s
    double* ref_i           # per reference (n_refs; not by_union)
    double* ref_s
    double* info            # info_out's data: [s, n] (by_union) or [n, r, s]
    double* seg             # seg_out's data, the same shape
    Py_ssize_t i_st0        # their strides in doubles (the last axis: 1)
    Py_ssize_t i_st1
    Py_ssize_t s_st0
    Py_ssize_t s_st1


cdef int _sums_init(Sums* a, bint by_union, Py_ssize_t n_refs, double* ref_i, double* ref_s, object info_out,
                    object seg_out) except -1:
    """Bind ``a`` to the outputs (by_union: two ``[n_seg, order]`` arrays, else ``[order, n_refs,
    n_seg]``; C-contiguous float64, checked here) and the per-reference buffers."""
    cdef double[:, ::1] u_info, u_seg
    cdef double[:, :, ::1] r_info, r_seg
    a.by_union = by_union
    a.n_refs = n_refs
    a.ref_i = ref_i
    a.ref_s = ref_s
    a.info = NULL
    a.seg = NULL
    a.i_st1 = a.s_st1 = 0
    if by_union:
        u_info = info_out
        u_seg = seg_out
        a.i_st0 = u_info.strides[0] // sizeof(double)
        a.s_st0 = u_seg.strides[0] // sizeof(double)
        if u_info.shape[0] and u_info.shape[1]:
            a.info = &u_info[0, 0]
        if u_seg.shape[0] and u_seg.shape[1]:
            a.seg = &u_seg[0, 0]
    else:
        r_info = info_out
        r_seg = seg_out
        a.i_st0 = r_info.strides[0] // sizeof(double)
        a.i_st1 = r_info.strides[1] // sizeof(double)
        a.s_st0 = r_seg.strides[0] // sizeof(double)
        a.s_st1 = r_seg.strides[1] // sizeof(double)
        if r_info.shape[0] and r_info.shape[1] and r_info.shape[2]:
            a.info = &r_info[0, 0, 0]
        if r_seg.shape[0] and r_seg.shape[1] and r_seg.shape[2]:
            a.seg = &r_seg[0, 0, 0]
    return 0


cdef inline void _sums_reset(Sums* a) noexcept nogil:
    cdef Py_ssize_t r
    a.sum_i = 0.0
    a.sum_s = 0.0
    for r in range(a.n_refs):
        a.ref_i[r] = 0.0
        a.ref_s[r] = 0.0


cdef inline void _sums_add(Sums* a, const int32_t* in_ref, Py_ssize_t stride, int32_t hc, double w_corpus,
                           double w_seg) noexcept nogil:
    """Add an n-gram of count ``hc`` in the hypothesis, ``in_ref[r * stride]`` in reference r, clipped."""
    cdef Py_ssize_t r
    cdef int32_t clipped, best
    if a.by_union:
        best = 0
        for r in range(a.n_refs):
            if in_ref[r * stride] > best:
                best = in_ref[r * stride]
        clipped = hc if hc < best else best
        if clipped > 0:
            a.sum_i += w_corpus * <double>clipped
            a.sum_s += w_seg * <double>clipped
    else:
        for r in range(a.n_refs):
            clipped = in_ref[r * stride]
            if hc < clipped:
                clipped = hc
            if clipped > 0:
                a.ref_i[r] += w_corpus * <double>clipped
                a.ref_s[r] += w_seg * <double>clipped


cdef inline void _sums_store(const Sums* a, Py_ssize_t s, Py_ssize_t n) noexcept nogil:
    """Write the sums of segment ``s``, order ``n + 1`` to the outputs."""
    cdef Py_ssize_t r
    if a.by_union:
        a.info[s * a.i_st0 + n] = a.sum_i
        a.seg[s * a.s_st0 + n] = a.sum_s
    else:
        for r in range(a.n_refs):
            a.info[n * a.i_st0 + r * a.i_st1 + s] = a.ref_i[r]
            a.seg[n * a.s_st0 + r * a.s_st1 + s] = a.ref_s[r]


def log2_ratios_into(const int64_t[::1] num, const int64_t[::1] den, double ln2, double[::1] out):
    """``out[i] = log(num[i] / den[i]) / ln2`` where ``den[i] > 0`` (else left as it is)."""
    cdef Py_ssize_t i
    for i in range(num.shape[0]):
        if den[i] > 0:
            out[i] = log(<double>num[i] / <double>den[i]) / ln2


def nist_sums_into(const int32_t[:, ::1] codes, const int64_t[::1] offsets, Py_ssize_t n_seg, Py_ssize_t n_refs,
                   const double[::1] info, const int64_t[::1] bases, const int32_t[::1] prefix,
                   const int64_t[::1] prefix_bases, const double[::1] seg_words, double ln2, bint union,
                   Py_ssize_t max_codes, Py_ssize_t longest, double[:, ::1] total, object info_out, object seg_out):
    """Fill ``total`` and the matched information (see ``nist_sums_py``)."""
    cdef int max_order = codes.shape[0], n, cur, prv
    cdef Py_ssize_t s, r, k, p, cap, n_h, n_r, n_s, slots = max(max_codes, 1), width = max(longest, 1)
    cdef int32_t c
    cdef Py_ssize_t count
    cdef double w_corpus, w_seg, numer
    cdef Sums sums
    cdef int32_t* h_cnt = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* r_cnt = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* seg_a = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* seg_b = <int32_t*>calloc(slots, sizeof(int32_t))
    cdef int32_t* h_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* r_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* s_list_a = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef int32_t* s_list_b = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef int32_t* in_ref = <int32_t*>malloc(width * max(n_refs, 1) * sizeof(int32_t))
    cdef double* ref_i = <double*>malloc(max(n_refs, 1) * sizeof(double))
    cdef double* ref_s = <double*>malloc(max(n_refs, 1) * sizeof(double))
    cdef int32_t* seg_cnt[2]
    cdef int32_t* seg_list[2]
    cdef Py_ssize_t seg_n[2]
    seg_cnt[0] = seg_a
    seg_cnt[1] = seg_b
    seg_list[0] = s_list_a
    seg_list[1] = s_list_b
    try:
        if (h_cnt == NULL or r_cnt == NULL or seg_a == NULL or seg_b == NULL or h_list == NULL or r_list == NULL
                or s_list_a == NULL or s_list_b == NULL or in_ref == NULL or ref_i == NULL or ref_s == NULL):
            raise MemoryError()
        _sums_init(&sums, union, n_refs, ref_i, ref_s, info_out, seg_out)
        for s in range(n_seg):
            seg_n[0] = 0
            seg_n[1] = 0
            for n in range(max_order):
                cur = n & 1
                prv = 1 - cur
                # the hypothesis's distinct n-grams, in order of first occurrence
                n_h = count_codes(&codes[n, 0], offsets[s], offsets[s + 1], h_cnt, h_list, &count)
                total[s, n] = <double>count
                # each reference's counts of them, and the counts over the segment's references
                n_s = 0
                for r in range(n_refs):
                    cap = (r + 1) * n_seg + s
                    n_r = count_codes(&codes[n, 0], offsets[cap], offsets[cap + 1], r_cnt, r_list, NULL)
                    for k in range(n_h):
                        in_ref[r * n_h + k] = r_cnt[h_list[k]]
                    for k in range(n_r):
                        c = r_list[k]
                        if seg_cnt[cur][c] == 0:
                            seg_list[cur][n_s] = c
                            n_s += 1
                        seg_cnt[cur][c] += r_cnt[c]
                        r_cnt[c] = 0
                seg_n[cur] = n_s
                # the weighted sums, in the hypothesis's order
                _sums_reset(&sums)
                for k in range(n_h):
                    c = h_list[k]
                    if seg_cnt[cur][c] == 0:    # in no reference of the segment: adds nothing
                        continue
                    w_corpus = info[bases[n] + c]
                    if n == 0:
                        numer = <double>(<int64_t>seg_words[s])
                    else:
                        numer = <double>seg_cnt[prv][prefix[prefix_bases[n] + c]]
                    w_seg = log(numer / <double>seg_cnt[cur][c]) / ln2
                    _sums_add(&sums, in_ref + k, n_h, h_cnt[c], w_corpus, w_seg)
                _sums_store(&sums, s, n)
                for k in range(n_h):
                    h_cnt[h_list[k]] = 0
                if n > 0:          # the previous order's segment counts are no longer needed
                    for k in range(seg_n[prv]):
                        seg_cnt[prv][seg_list[prv][k]] = 0
                    seg_n[prv] = 0
            for k in range(seg_n[(max_order - 1) & 1]):
                seg_cnt[(max_order - 1) & 1][seg_list[(max_order - 1) & 1][k]] = 0
    finally:
        free(h_cnt); free(r_cnt); free(seg_a); free(seg_b); free(h_list); free(r_list)
        free(s_list_a); free(s_list_b); free(in_ref); free(ref_i); free(ref_s)


def sentence_values_into(const double[:, ::1] rows, Py_ssize_t c_info, Py_ssize_t c_total, Py_ssize_t c_pen_sys,
                         Py_ssize_t c_pen_ref, int n_orders, double beta, bint zero_order, double[::1] values,
                         unsigned char[::1] bad):
    """Each row's NIST value, the floating-point operations of ``family.nist_from_sums`` in its order
    (libm ``log``/``exp``/``pow`` as ``math.log``/``math.exp``/``float ** 2``); ``bad[i] = 1`` where
    that function raises (``empty_order=error``: an order without n-grams, or a reference length 0)."""
    cdef Py_ssize_t i, k
    cdef double precision, t, ratio, penalty, pen_ref, pen_sys
    for i in range(rows.shape[0]):
        precision = 0.0
        bad[i] = 0
        for k in range(n_orders):
            t = rows[i, c_total + k]
            if t == 0:
                if not zero_order:
                    bad[i] = 1
                t = 1.0
            precision += rows[i, c_info + k] / t
        pen_sys = rows[i, c_pen_sys]
        pen_ref = rows[i, c_pen_ref]
        if pen_ref == 0:
            if not zero_order:
                bad[i] = 1
            ratio = (1.0 / 0.0) if pen_sys > 0 else 0.0
        else:
            ratio = pen_sys / pen_ref
        if 0 < ratio < 1:
            penalty = exp(beta * pow(log(ratio), 2.0))
        else:
            penalty = ratio if ratio < 1.0 else 1.0
            if penalty < 0.0:
                penalty = 0.0
        values[i] = precision * penalty


# ----------------------------------------------------------------------------- codes under a corpus context
cdef struct Slot:
    int64_t key
    int64_t val


cdef struct Order:
    # one order's n-grams: an open-addressing hash of packed keys -> code (load <= 1/2), and per code
    # (when counting) its prefix code, last token id and count
    Slot* tab
    uint64_t mask
    int shift
    Py_ssize_t n
    Py_ssize_t cap
    int32_t* prefix
    int32_t* last
    int64_t* count


cdef extern from *:
    """
    #define ASSAY_PREFETCH(p) __builtin_prefetch((const void*)(p))
    """
    void ASSAY_PREFETCH(const void* p) noexcept nogil


cdef inline uint64_t _hash(int64_t key, int shift) noexcept nogil:
    return (<uint64_t>key * <uint64_t>0x9E3779B97F4A7C15ULL) >> shift


cdef enum:
    AHEAD = 8   # positions whose hash slot is prefetched ahead of its lookup


cdef int _order_init(Order* o, Py_ssize_t expected, bint per_code) except -1:
    cdef Py_ssize_t slots = 16
    cdef int shift = 60
    while slots < 2 * expected:
        slots *= 2
        shift -= 1
    o.tab = <Slot*>malloc(slots * sizeof(Slot))
    if o.tab == NULL:
        raise MemoryError()
    memset(o.tab, 0xFF, slots * sizeof(Slot))
    o.mask = <uint64_t>(slots - 1)
    o.shift = shift
    o.n = 0
    o.cap = 0
    o.prefix = NULL
    o.last = NULL
    o.count = NULL
    if per_code:
        _order_reserve(o, max(expected, 16))
    return 0


cdef void _order_free(Order* o) noexcept:
    free(o.tab)
    free(o.prefix)
    free(o.last)
    free(o.count)
    o.tab = NULL
    o.prefix = NULL
    o.last = NULL
    o.count = NULL


cdef int _order_reserve(Order* o, Py_ssize_t cap) except -1:
    cdef int32_t* prefix
    cdef int32_t* last
    cdef int64_t* count
    if cap <= o.cap:
        return 0
    prefix = <int32_t*>realloc(o.prefix, cap * sizeof(int32_t))
    if prefix != NULL:
        o.prefix = prefix
    last = <int32_t*>realloc(o.last, cap * sizeof(int32_t))
    if last != NULL:
        o.last = last
    count = <int64_t*>realloc(o.count, cap * sizeof(int64_t))
    if count != NULL:
        o.count = count
    if prefix == NULL or last == NULL or count == NULL:
        raise MemoryError()
    memset(o.count + o.cap, 0, (cap - o.cap) * sizeof(int64_t))
    o.cap = cap
    return 0


cdef inline int64_t _order_find(const Order* o, int64_t key) noexcept nogil:
    cdef uint64_t s = _hash(key, o.shift)
    while o.tab[s].val >= 0:
        if o.tab[s].key == key:
            return o.tab[s].val
        s = (s + 1) & o.mask
    return -1


cdef int _order_grow(Order* o) except -1:
    cdef uint64_t old_mask = o.mask, i, s
    cdef Slot* old = o.tab
    cdef uint64_t slots = 2 * (old_mask + 1)
    o.tab = <Slot*>malloc(slots * sizeof(Slot))
    if o.tab == NULL:
        o.tab = old
        raise MemoryError()
    memset(o.tab, 0xFF, slots * sizeof(Slot))
    o.mask = slots - 1
    o.shift -= 1
    for i in range(old_mask + 1):
        if old[i].val >= 0:
            s = _hash(old[i].key, o.shift)
            while o.tab[s].val >= 0:
                s = (s + 1) & o.mask
            o.tab[s] = old[i]
    free(old)
    return 0


cdef inline int64_t _order_code(Order* o, int32_t prefix, int32_t last) except -1:
    """The code of (prefix, last), a new one (count 0) if it is not in the table yet."""
    cdef int64_t key = (<int64_t>prefix << 32) | <int64_t>last
    cdef uint64_t s = _hash(key, o.shift)
    while o.tab[s].val >= 0:
        if o.tab[s].key == key:
            return o.tab[s].val
        s = (s + 1) & o.mask
    if 2 * (o.n + 1) > <Py_ssize_t>(o.mask + 1):
        _order_grow(o)
        return _order_code(o, prefix, last)
    if o.n == o.cap:
        _order_reserve(o, 2 * o.cap)
    o.tab[s].key = key
    o.tab[s].val = o.n
    o.prefix[o.n] = prefix
    o.last[o.n] = last
    o.n += 1
    return o.n - 1


cdef object _array(const void* data, Py_ssize_t n, object dtype):
    """A new numpy array of ``n`` items of ``dtype``, copied from ``data``."""
    out = np.empty(n, dtype=dtype)
    cdef unsigned char[::1] raw = out.view(np.uint8)
    if n:
        memcpy(&raw[0], data, raw.shape[0])
    return out


cdef class Finder:
    """The n-grams of a corpus context by code: ``find(n, prefix code, last id)`` -> code or -1."""

    cdef Order* orders
    cdef int n_orders
    cdef int64_t radix          # packed key = prefix * radix + last

    cdef inline int64_t find(self, int n, int64_t prefix, int64_t last) noexcept nogil:
        return _order_find(&self.orders[n], prefix * self.radix + last)

    cdef inline void prefetch(self, int n, int64_t prefix, int64_t last) noexcept nogil:
        ASSAY_PREFETCH(&self.orders[n].tab[_hash(prefix * self.radix + last, self.orders[n].shift)])

    def sizes(self):
        """The number of codes of each order (order 1: the vocabulary)."""
        return [int(self.orders[n].n) for n in range(self.n_orders)]

    def __dealloc__(self):
        cdef int n
        if self.orders != NULL:
            for n in range(self.n_orders):
                _order_free(&self.orders[n])
            free(self.orders)


cdef class TableFinder(Finder):
    """A finished table's sorted keys ``prefix * V + last`` of each order, their ranks as codes."""

    def __cinit__(self, list keys, Py_ssize_t vocab_size, int max_order):
        cdef int n
        cdef Py_ssize_t i
        cdef uint64_t s
        cdef const int64_t[::1] k
        self.n_orders = max_order
        self.radix = max(vocab_size, 1)
        self.orders = <Order*>calloc(max(max_order, 1), sizeof(Order))
        if self.orders == NULL:
            raise MemoryError()
        for n in range(max_order):
            k = keys[n]
            _order_init(&self.orders[n], k.shape[0] if n else 0, False)
            self.orders[n].n = k.shape[0] if n else vocab_size
            if n == 0:
                continue
            for i in range(k.shape[0]):
                s = _hash(k[i], self.orders[n].shift)
                while self.orders[n].tab[s].val >= 0:
                    s = (s + 1) & self.orders[n].mask
                self.orders[n].tab[s].key = k[i]
                self.orders[n].tab[s].val = i


cdef class RefCounts(Finder):
    """The first pass's reference n-gram counts, built in one pass over the tokens.

    ``index`` maps a token to its id (``tokens`` in id order); order 1's codes are the ids, order n's
    the pairs (order n-1 code, last id) in order of first occurrence, each with its count. Parts of
    chunks merge by remapping the other's ids and codes (:meth:`merge`), so merging is the sum of the
    counts whatever the order; :meth:`arrays` gives ``NgramTable.from_codes``'s inputs."""

    cdef public dict index
    cdef public list tokens
    cdef public int64_t ref_words
    cdef int32_t* buf
    cdef Py_ssize_t buf_cap

    def __cinit__(self, int max_order, Py_ssize_t expected=1024):
        cdef int n
        self.n_orders = max_order
        self.radix = <int64_t>1 << 32
        self.index = {}
        self.tokens = []
        self.ref_words = 0
        self.buf = NULL
        self.buf_cap = 0
        self.orders = <Order*>calloc(max(max_order, 1), sizeof(Order))
        if self.orders == NULL:
            raise MemoryError()
        for n in range(max_order):
            _order_init(&self.orders[n], expected if n else 0, True)

    def __dealloc__(self):
        free(self.buf)

    cdef int _reserve_buf(self, Py_ssize_t size) except -1:
        cdef int32_t* grown
        if size > self.buf_cap:
            grown = <int32_t*>realloc(self.buf, size * sizeof(int32_t))
            if grown == NULL:
                raise MemoryError()
            self.buf = grown
            self.buf_cap = size
        return 0

    cdef Py_ssize_t _ids(self, object toks, int32_t* ids, int32_t* copy, Py_ssize_t k) except -1:
        """The ids of ``toks`` into ``ids[k..]`` and ``copy[k..]`` (new tokens get the next ids);
        returns the next position."""
        cdef PyObject* found
        cdef int32_t tid
        cdef Order* uni = &self.orders[0]
        for tok in toks:
            found = PyDict_GetItem(self.index, tok)
            if found == NULL:
                if uni.n >= 2147483647:
                    raise OverflowError("more than 2**31 - 1 distinct tokens")
                self.index[tok] = uni.n
                self.tokens.append(tok)
                if uni.n == uni.cap:
                    _order_reserve(uni, max(2 * uni.cap, 1024))
                tid = <int32_t>uni.n
                uni.n += 1
            else:
                tid = <int32_t>(<object>found)
            ids[k] = tid
            copy[k] = tid
            k += 1
        return k

    def add(self, object token_lists, int64_t[::1] out=None, Py_ssize_t at=0):
        """Count every n-gram of every token list (None: a missing reference, nothing): the lists'
        ids first, then one order at a time over all of them (one hash table in use at a time, its
        slots prefetched a few positions ahead). With ``out``, the ids are also written to
        ``out[at..]`` (flattened); returns the position after them."""
        cdef Py_ssize_t p, start, end, total = 0, k = 0, s, n_lists
        cdef int n
        cdef int64_t code
        cdef Order* o
        cdef int32_t* ids
        cdef int32_t* codes
        lists = [t for t in token_lists if t]
        n_lists = len(lists)
        bounds = np.zeros(n_lists + 1, dtype=np.int64)
        cdef int64_t[::1] b = bounds
        for s in range(n_lists):
            total += len(lists[s])
            b[s + 1] = total
        if total == 0:
            return at
        self._reserve_buf(2 * total)
        try:
            ids = self.buf
            codes = self.buf + total          # the code of the n-gram at p, order after order
            for toks in lists:
                k = self._ids(toks, ids, codes, k)
            self.ref_words += total
            if out is not None:
                for p in range(total):
                    out[at + p] = ids[p]
            o = &self.orders[0]
            for p in range(total):
                o.count[ids[p]] += 1
            for n in range(1, self.n_orders):
                o = &self.orders[n]
                for s in range(n_lists):
                    start = b[s]
                    end = b[s + 1] - n
                    for p in range(start, end):
                        if p + AHEAD < end:
                            ASSAY_PREFETCH(&o.tab[_hash((<int64_t>codes[p + AHEAD] << 32) | ids[p + AHEAD + n],
                                                        o.shift)])
                        code = _order_code(o, codes[p], ids[p + n])
                        codes[p] = <int32_t>code
                        o.count[code] += 1
        finally:       # the buffer is transient: a context keeps only the counts
            free(self.buf)
            self.buf = NULL
            self.buf_cap = 0
        return at + total

    def merge(self, RefCounts other):
        """Add ``other``'s counts (its tokens and n-grams remapped to this table's ids and codes)."""
        cdef Py_ssize_t i, m
        cdef int n
        cdef int64_t code
        cdef Order* o
        cdef const Order* src
        if other.n_orders != self.n_orders:
            raise ValueError("NIST parts of different max_ngram_order")
        uni = &self.orders[0]
        src = &other.orders[0]
        ids = np.empty(src.n, dtype=np.int32)
        cdef int32_t[::1] id_map = ids
        cdef PyObject* found
        i = 0
        for tok in other.tokens:
            found = PyDict_GetItem(self.index, tok)
            if found == NULL:
                self.index[tok] = uni.n
                self.tokens.append(tok)
                if uni.n == uni.cap:
                    _order_reserve(uni, max(2 * uni.cap, 1024))
                id_map[i] = <int32_t>uni.n
                uni.n += 1
            else:
                id_map[i] = <int32_t>(<object>found)
            i += 1
        for i in range(src.n):
            uni.count[id_map[i]] += src.count[i]
        prev = ids
        cdef int32_t[::1] prev_map = prev
        cdef int32_t[::1] code_map
        for n in range(1, self.n_orders):
            o = &self.orders[n]
            src = &other.orders[n]
            cur = np.empty(max(src.n, 1), dtype=np.int32)
            code_map = cur
            for i in range(src.n):
                code = _order_code(o, prev_map[src.prefix[i]], id_map[src.last[i]])
                o.count[code] += src.count[i]
                code_map[i] = <int32_t>code
            prev_map = code_map
        self.ref_words += other.ref_words
        return None

    def copy(self):
        """An independent copy (merging into it leaves this one as it is)."""
        cdef RefCounts out = RefCounts(self.n_orders, 16)
        cdef int n
        cdef Order* o
        cdef const Order* src
        out.index = self.index.copy()
        out.tokens = list(self.tokens)
        out.ref_words = self.ref_words
        for n in range(self.n_orders):
            o = &out.orders[n]
            src = &self.orders[n]
            free(o.tab)
            o.tab = <Slot*>malloc((src.mask + 1) * sizeof(Slot))
            if o.tab == NULL:
                raise MemoryError()
            memcpy(o.tab, src.tab, (src.mask + 1) * sizeof(Slot))
            o.mask = src.mask
            o.shift = src.shift
            _order_reserve(o, max(src.n, 16))
            if src.n:
                memcpy(o.prefix, src.prefix, src.n * sizeof(int32_t))
                memcpy(o.last, src.last, src.n * sizeof(int32_t))
                memcpy(o.count, src.count, src.n * sizeof(int64_t))
            o.n = src.n
        return out

    def arrays(self):
        """``(prefix, last, counts)`` per order as numpy arrays (order 1: empty prefix and last; the
        counts of the ids), the inputs of ``NgramTable.from_codes`` with :attr:`tokens`."""
        empty = np.zeros(0, dtype=np.int32)
        prefix, last = [empty], [empty]
        counts = [_array(self.orders[0].count, self.orders[0].n, np.int64)]
        cdef int n
        for n in range(1, self.n_orders):
            prefix.append(_array(self.orders[n].prefix, self.orders[n].n, np.int32))
            last.append(_array(self.orders[n].last, self.orders[n].n, np.int32))
            counts.append(_array(self.orders[n].count, self.orders[n].n, np.int64))
        return prefix, last, counts

    def __len__(self):
        cdef Py_ssize_t total = 0
        cdef int n
        for n in range(self.n_orders):
            total += self.orders[n].n
        return total

    def __reduce__(self):
        raise TypeError("RefCounts is not pickled: pickle the NgramTable of its part")


cdef enum:
    DEAD = -3       # a reference n-gram not in the hypothesis (nor is any n-gram extending it)


cdef struct TokSlot:
    PyObject* obj       # a token of the segment's hypothesis (borrowed: its list holds it); NULL: empty
    Py_hash_t hash
    int32_t id


cdef inline int64_t _local_find(const Slot* tab, uint64_t mask, int shift, int64_t key) noexcept nogil:
    cdef uint64_t s = _hash(key, shift)
    while tab[s].val >= 0:
        if tab[s].key == key:
            return tab[s].val
        s = (s + 1) & mask
    return -1


def context_sums_into(list hyp_toks, list ref_toks, dict index, Py_ssize_t n_seg, Py_ssize_t n_refs,
                      Finder finder, const double[::1] info, const int64_t[::1] bases, int64_t ref_words,
                      const double[::1] seg_words, double ln2, bint union, Py_ssize_t longest,
                      double[:, ::1] total, object info_out, object seg_out):
    """``nist_sums_into`` under a corpus context (``index``: token -> the context's id), the same sums
    in the same order, from the token lists (``ref_toks``: the streams; None: a missing reference).
    Segment by segment, the hypothesis's tokens get local ids from a small hash table (Python hash
    and equality, as a dict) and its n-grams local codes from another (the pair (local code of the
    prefix, last local id), unique over the orders); the references' tokens and n-grams are looked
    up there, a reference n-gram is looked up there while its prefix is in the hypothesis (an n-gram
    whose prefix is not cannot be); only the matched n-grams are looked up in the context, for their
    corpus weights: ``info`` by the finder's codes (``bases[n]``: where order n+1 starts), or when
    ``info`` is empty (compiled counts) ``log2_ratios_into``'s ``log(num / den) / ln2`` of the
    finder's counts (``ref_words`` for the unigrams' numerator) for the matched n-grams only (and
    only a matched token is looked up in ``index``). Returns True, with the outputs incomplete, when
    a matched token or n-gram is not in the context (a context of another corpus: the caller takes
    the general path)."""
    cdef int max_order = total.shape[1], n, shift
    cdef Py_ssize_t s, r, k, p, q, n_h, n_r, L_h, L_r, rb, n_local, n_tok, width = max(longest, 1)
    cdef Py_hash_t hv
    cdef PyObject* found_obj
    cdef uint64_t tmask, ts
    cdef int tshift
    cdef bint counted = info.shape[0] == 0
    cdef Py_ssize_t n_codes = max(max_order, 1) * width + 1, slots = 16
    cdef int64_t key, found, last, pc, gid
    cdef int32_t c, rc
    cdef uint64_t mask, sl
    cdef double w_corpus, w_seg, numer
    cdef Sums sums
    if finder.n_orders < max_order:
        raise ValueError("the NIST context has fewer orders than asked for")
    if counted and max_order and finder.orders[0].count == NULL:
        raise ValueError("no weights: a table's finder needs its info")
    while slots < 2 * n_codes:
        slots *= 2
    cdef Py_ssize_t nr1 = max(n_refs, 1)
    cdef Slot* ltab = <Slot*>malloc(slots * sizeof(Slot))
    cdef Py_ssize_t tslots = 16
    while tslots < 2 * (width + 1):
        tslots *= 2
    cdef TokSlot* ttab = <TokSlot*>malloc(tslots * sizeof(TokSlot))
    cdef PyObject** tok_obj = <PyObject**>malloc(width * sizeof(PyObject*))
    cdef int64_t* tok_gid = <int64_t*>malloc(width * sizeof(int64_t))
    cdef uint64_t* tslot_of = <uint64_t*>malloc(width * sizeof(uint64_t))
    cdef int32_t* h_tok = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* r_tok = <int32_t*>malloc(width * nr1 * sizeof(int32_t))
    cdef Py_ssize_t* r_len = <Py_ssize_t*>malloc(nr1 * sizeof(Py_ssize_t))
    cdef int32_t* h_cnt = <int32_t*>calloc(n_codes, sizeof(int32_t))
    cdef int32_t* r_cnt = <int32_t*>calloc(n_codes, sizeof(int32_t))
    cdef int32_t* seg_cnt = <int32_t*>calloc(n_codes, sizeof(int32_t))
    cdef int32_t* pref = <int32_t*>malloc(n_codes * sizeof(int32_t))
    cdef int32_t* last_id = <int32_t*>malloc(n_codes * sizeof(int32_t))
    cdef int64_t* glob = <int64_t*>malloc(n_codes * sizeof(int64_t))
    cdef uint64_t* slot_of = <uint64_t*>malloc(n_codes * sizeof(uint64_t))
    cdef int32_t* h_code = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* h_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* r_list = <int32_t*>malloc(width * sizeof(int32_t))
    cdef int32_t* r_code = <int32_t*>malloc(width * nr1 * sizeof(int32_t))
    cdef int32_t* in_ref = <int32_t*>malloc(width * nr1 * sizeof(int32_t))
    cdef double* ref_i = <double*>malloc(nr1 * sizeof(double))
    cdef double* ref_s = <double*>malloc(nr1 * sizeof(double))
    cdef bint missing = False
    try:
        if (ltab == NULL or ttab == NULL or tok_obj == NULL or tok_gid == NULL or tslot_of == NULL or h_tok == NULL
                or r_tok == NULL or r_len == NULL or h_cnt == NULL or r_cnt == NULL or seg_cnt == NULL
                or pref == NULL or last_id == NULL or glob == NULL or slot_of == NULL or h_code == NULL
                or h_list == NULL or r_list == NULL or r_code == NULL or in_ref == NULL or ref_i == NULL
                or ref_s == NULL):
            raise MemoryError()
        _sums_init(&sums, union, n_refs, ref_i, ref_s, info_out, seg_out)
        memset(ltab, 0xFF, slots * sizeof(Slot))
        memset(ttab, 0, tslots * sizeof(TokSlot))
        for s in range(n_seg):
            hyp = hyp_toks[s]
            L_h = len(hyp)
            # the hypothesis's tokens: local ids by hash and equality (a dict's semantics)
            tmask = 15
            tshift = 60
            while <Py_ssize_t>(tmask + 1) < 2 * (L_h + 1):
                tmask = 2 * tmask + 1
                tshift -= 1
            n_tok = 0
            p = 0
            for tok in hyp:
                hv = PyObject_Hash(tok)
                ts = _hash(<int64_t>hv, tshift)
                while ttab[ts].obj != NULL:
                    if ttab[ts].hash == hv and (ttab[ts].obj == <PyObject*>tok
                                                or PyObject_RichCompareBool(<object>ttab[ts].obj, tok, Py_EQ) == 1):
                        break
                    ts = (ts + 1) & tmask
                if ttab[ts].obj == NULL:
                    ttab[ts].obj = <PyObject*>tok
                    ttab[ts].hash = hv
                    ttab[ts].id = <int32_t>n_tok
                    tok_obj[n_tok] = <PyObject*>tok
                    tok_gid[n_tok] = -2
                    tslot_of[n_tok] = ts
                    n_tok += 1
                h_tok[p] = ttab[ts].id
                p += 1
            # the references' tokens: the hypothesis's local id, or -1
            for r in range(n_refs):
                ref = (<list>ref_toks[r])[s]
                r_len[r] = 0 if ref is None else len(ref)
                if ref is None:
                    continue
                q = 0
                rb = r * width
                for tok in ref:
                    hv = PyObject_Hash(tok)
                    ts = _hash(<int64_t>hv, tshift)
                    r_tok[rb + q] = -1
                    while ttab[ts].obj != NULL:
                        if ttab[ts].hash == hv and (ttab[ts].obj == <PyObject*>tok
                                                    or PyObject_RichCompareBool(<object>ttab[ts].obj, tok, Py_EQ) == 1):
                            r_tok[rb + q] = ttab[ts].id
                            break
                        ts = (ts + 1) & tmask
                    q += 1
            # this segment's table: at least twice as many slots as it can get codes
            mask = 15
            shift = 60
            while <Py_ssize_t>(mask + 1) < 2 * (max_order * L_h + 1):
                mask = 2 * mask + 1
                shift -= 1
            n_local = 0
            for n in range(max_order):
                # the hypothesis's n-grams: local codes, and the distinct ones in order of first occurrence
                n_h = 0
                for p in range(L_h - n):
                    if n == 0:
                        pc = -1
                    else:
                        pc = h_code[p]
                    last = h_tok[p + n]
                    key = ((pc + 1) << 32) | last
                    sl = _hash(key, shift)
                    while ltab[sl].val >= 0 and ltab[sl].key != key:
                        sl = (sl + 1) & mask
                    if ltab[sl].val < 0:        # a new n-gram of the hypothesis
                        ltab[sl].key = key
                        ltab[sl].val = n_local
                        slot_of[n_local] = sl
                        pref[n_local] = <int32_t>pc
                        last_id[n_local] = <int32_t>last
                        n_local += 1
                    c = <int32_t>ltab[sl].val
                    h_code[p] = c
                    if h_cnt[c] == 0:
                        h_list[n_h] = c
                        n_h += 1
                    h_cnt[c] += 1
                total[s, n] = <double>(L_h - n if L_h > n else 0)
                # each reference's counts of them, and the counts over the segment's references
                for r in range(n_refs):
                    L_r = r_len[r]
                    rb = r * width
                    n_r = 0
                    for q in range(L_r - n):
                        if n == 0:
                            pc = -1
                        else:
                            pc = r_code[rb + q]
                            if pc == DEAD:
                                continue
                        found = -1 if r_tok[rb + q + n] < 0 else _local_find(ltab, mask, shift,
                                                                             ((pc + 1) << 32) | r_tok[rb + q + n])
                        if found < 0:
                            r_code[rb + q] = DEAD
                            continue
                        rc = <int32_t>found
                        r_code[rb + q] = rc
                        if r_cnt[rc] == 0:
                            r_list[n_r] = rc
                            n_r += 1
                        r_cnt[rc] += 1
                    for q in range(max(L_r - n, 0), L_r):
                        r_code[rb + q] = DEAD
                    for k in range(n_h):
                        in_ref[r * n_h + k] = r_cnt[h_list[k]]
                    for k in range(n_r):
                        c = r_list[k]
                        seg_cnt[c] += r_cnt[c]
                        r_cnt[c] = 0
                # the weighted sums, in the hypothesis's order
                _sums_reset(&sums)
                for k in range(n_h):
                    c = h_list[k]
                    if seg_cnt[c] == 0:    # in no reference of the segment: adds nothing
                        continue
                    gid = tok_gid[last_id[c]]
                    if gid == -2:          # the token's id in the context (once per segment)
                        found_obj = PyDict_GetItem(index, <object>tok_obj[last_id[c]])
                        gid = -1 if found_obj == NULL else <int64_t>(<object>found_obj)
                        tok_gid[last_id[c]] = gid
                    if gid < 0:
                        missing = True
                        break
                    if n == 0:
                        glob[c] = gid
                        numer = <double>(<int64_t>seg_words[s])
                    else:
                        glob[c] = finder.find(n, glob[pref[c]], gid)
                        if glob[c] < 0:
                            missing = True
                            break
                        numer = <double>seg_cnt[pref[c]]
                    if not counted:
                        w_corpus = info[bases[n] + glob[c]]
                    elif n == 0:
                        w_corpus = log(<double>ref_words / <double>finder.orders[0].count[glob[c]]) / ln2
                    else:
                        w_corpus = log(<double>finder.orders[n - 1].count[glob[pref[c]]]
                                       / <double>finder.orders[n].count[glob[c]]) / ln2
                    w_seg = log(numer / <double>seg_cnt[c]) / ln2
                    _sums_add(&sums, in_ref + k, n_h, h_cnt[c], w_corpus, w_seg)
                if missing:
                    break
                _sums_store(&sums, s, n)
            # clear this segment's tables and counters
            for k in range(n_tok):
                ttab[tslot_of[k]].obj = NULL
            for k in range(n_local):
                ltab[slot_of[k]].val = -1
                ltab[slot_of[k]].key = -1
            if n_local:
                memset(h_cnt, 0, n_local * sizeof(int32_t))
                memset(seg_cnt, 0, n_local * sizeof(int32_t))
            if missing:
                break
        return missing
    finally:
        free(ttab); free(tok_obj); free(tok_gid); free(tslot_of); free(h_tok); free(r_tok); free(r_len)
        free(ltab); free(h_cnt); free(r_cnt); free(seg_cnt); free(pref); free(last_id); free(glob); free(slot_of)
        free(h_code); free(h_list); free(r_list); free(r_code); free(in_ref); free(ref_i); free(ref_s)


def lengths_into(object hyp_toks, object ref_toks, int64_t[::1] lengths, unsigned char[:, ::1] present):
    """``lengths``: the token count of every hypothesis, then of every reference stream's
    references (a missing one, None: 0); ``present[r, s]``: whether stream r has segment s."""
    cdef Py_ssize_t k = 0, r = 0, s
    for toks in hyp_toks:
        lengths[k] = len(toks)
        k += 1
    for stream in ref_toks:
        s = 0
        for toks in stream:
            if toks is None:
                lengths[k] = 0
                present[r, s] = 0
            else:
                lengths[k] = len(toks)
                present[r, s] = 1
            k += 1
            s += 1
        r += 1
