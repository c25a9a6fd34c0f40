"""Compiled twin of :mod:`assay.metrics.rouge.lcs` and of the LCS counts of
:class:`assay.metrics.rouge.measures.PairBatch` (ROUGE-L, ROUGE-Lsum, ROUGE-W).

Same algorithms as the pure modules, one (reference, hypothesis) pair at a time in C:

- LCS length and the tools' backtrack positions: the bit-parallel rows of Allison & Dix / Hyyro
  (``U = V & match[c]; V = (V + U) | (V - U)``, and ``V - U = V ^ U`` as U is a subset of V).
  A reference of at most 64 tokens is one machine word with a match-mask table indexed by token
  id (up to 256 tokens, for the LCS length, a few words per token id); a longer one is
  ``ceil(m / 64)`` words with carries, a row's match mask set from the token's sorted positions,
  or kept dense for the fewer than 64 tokens with more positions than the reference has words
  (so memory stays linear in m: no mask per distinct token).
- The backtrack (``lcs.positions_from_masks``): in row j, from reference index i, the highest
  position p < i that is a match of ``hyp[j-1]`` (taken: i = p) or an increment of the row
  (i = p + 1); nothing there ends the walk. It needs the rows in reverse order: all of them are
  kept when they fit ``ROW_BUDGET`` words, otherwise only every K-th row (K ~ sqrt(n)) and each
  block of K rows is recomputed from its checkpoint when the walk reaches it (twice the forward
  work, memory O(sqrt(n) * m / 64) words).
- ROUGE-W's weighted LCS (``lcs.wlcs_positions``): the same float64 additions and ``>=`` ties
  row by row (its gains come from Python's float power, :func:`assay.metrics.rouge.lcs.wlcs_weights`);
  the backtrack's rows are kept, or checkpointed the same way above ``CELL_BUDGET`` cells
  (O(sqrt(m) * n) cells: the weighted table has no bit-parallel form).

Store-level functions take :class:`~assay.metrics.rouge.measures.Store` arrays (int64 token ids
in ``[0, vocab)``) and the pairs' document indices, and return one value per pair, equal to the
per-pair pure functions (``lcs_counts``, ``union_lcs_hits``, ``union_wlcs_hits``).
"""
from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport int32_t, int64_t, uint64_t, uint8_t
from libc.string cimport memset, memcpy
from libc.math cimport sqrt
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from assay.text._buffers cimport grow as _grow

import numpy as np

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

#: rows of the bit-parallel LCS kept whole up to this many 64-bit words, checkpointed beyond
ROW_BUDGET = 1 << 16
#: cells of the weighted-LCS table kept whole up to this many, checkpointed beyond
CELL_BUDGET = 1 << 16
cdef Py_ssize_t _ROW_BUDGET = ROW_BUDGET
cdef Py_ssize_t _CELL_BUDGET = CELL_BUDGET
cdef uint64_t ONES = 0xFFFFFFFFFFFFFFFFULL
cdef enum:
    SMALL_WORDS = 4         # LCS lengths of sequences up to 256 tokens: dense per-token masks


def set_budgets(Py_ssize_t row_words, Py_ssize_t cells):
    """Set ``ROW_BUDGET`` and ``CELL_BUDGET`` (tests use tiny ones to run the checkpointed
    backtracks on short inputs); returns the previous pair."""
    global _ROW_BUDGET, _CELL_BUDGET
    old = (_ROW_BUDGET, _CELL_BUDGET)
    _ROW_BUDGET, _CELL_BUDGET = row_words, cells
    return old


cdef inline uint64_t low_bits(Py_ssize_t k) nogil:
    """Bits 0 .. k-1 (k <= 64)."""
    return ONES if k >= 64 else ((<uint64_t>1) << k) - 1


cdef inline int top_bit(uint64_t x) nogil:
    return 63 - __builtin_clzll(x)


cdef class Work:
    """Scratch memory of the kernels: token-indexed tables (sized by the vocabulary, kept clean
    between uses) and buffers grown to the longest sequence seen."""

    cdef Py_ssize_t vocab
    cdef uint64_t* mask1        # token -> match mask in a reference of <= 64 tokens
    cdef uint64_t* mask4        # token -> SMALL_WORDS words of match mask (references of <= 256 tokens), lazy
    cdef int32_t* slot          # token -> distinct-token slot of a long reference, -1 = absent
    cdef int32_t* cnt_h         # unigram counts (clipping), kept at 0 between pairs
    cdef int32_t* cnt_r
    cdef int32_t* cnt_u
    cdef uint8_t* mark
    # long-reference match positions: slot k's positions are pos[off[k]:off[k+1]], ascending
    cdef int32_t* pos
    cdef int32_t* off
    cdef int32_t* fill
    cdef int64_t* slot_tok
    cdef Py_ssize_t n_slots
    # frequent tokens of a long reference (more positions than words): dense masks, dense[k] = row
    cdef int32_t* dense
    cdef uint64_t* dmask
    cdef size_t cap_pos, cap_off, cap_fill, cap_slot_tok, cap_dense, cap_dmask
    # bit-parallel rows
    cdef uint64_t* v
    cdef uint64_t* u
    cdef uint64_t* rows
    cdef uint64_t* cps
    cdef size_t cap_v, cap_u, cap_rows, cap_cps
    # weighted LCS rows
    cdef double* c_rows
    cdef int32_t* w_rows
    cdef double* c_cps
    cdef int32_t* w_cps
    cdef double* c_roll
    cdef int32_t* w_roll
    cdef size_t cap_c_rows, cap_w_rows, cap_c_cps, cap_w_cps, cap_c_roll, cap_w_roll
    # union of chosen positions, touched tokens
    cdef uint64_t* union
    cdef int64_t* touched
    cdef size_t cap_union, cap_touched

    def __cinit__(self, Py_ssize_t vocab):
        self.vocab = vocab if vocab > 0 else 1
        self.mask1 = <uint64_t*>PyMem_Malloc(self.vocab * sizeof(uint64_t))
        self.slot = <int32_t*>PyMem_Malloc(self.vocab * sizeof(int32_t))
        self.cnt_h = <int32_t*>PyMem_Malloc(self.vocab * sizeof(int32_t))
        self.cnt_r = <int32_t*>PyMem_Malloc(self.vocab * sizeof(int32_t))
        self.cnt_u = <int32_t*>PyMem_Malloc(self.vocab * sizeof(int32_t))
        self.mark = <uint8_t*>PyMem_Malloc(self.vocab * sizeof(uint8_t))
        if (self.mask1 == NULL or self.slot == NULL or self.cnt_h == NULL or self.cnt_r == NULL
                or self.cnt_u == NULL or self.mark == NULL):
            raise MemoryError()
        memset(self.mask1, 0, self.vocab * sizeof(uint64_t))
        memset(self.slot, 0xFF, self.vocab * sizeof(int32_t))
        memset(self.cnt_h, 0, self.vocab * sizeof(int32_t))
        memset(self.cnt_r, 0, self.vocab * sizeof(int32_t))
        memset(self.cnt_u, 0, self.vocab * sizeof(int32_t))
        memset(self.mark, 0, self.vocab * sizeof(uint8_t))

    def __dealloc__(self):
        PyMem_Free(self.mask1)
        PyMem_Free(self.mask4)
        PyMem_Free(self.slot)
        PyMem_Free(self.cnt_h)
        PyMem_Free(self.cnt_r)
        PyMem_Free(self.cnt_u)
        PyMem_Free(self.mark)
        PyMem_Free(self.pos)
        PyMem_Free(self.off)
        PyMem_Free(self.fill)
        PyMem_Free(self.slot_tok)
        PyMem_Free(self.dense)
        PyMem_Free(self.dmask)
        PyMem_Free(self.v)
        PyMem_Free(self.u)
        PyMem_Free(self.rows)
        PyMem_Free(self.cps)
        PyMem_Free(self.c_rows)
        PyMem_Free(self.w_rows)
        PyMem_Free(self.c_cps)
        PyMem_Free(self.w_cps)
        PyMem_Free(self.c_roll)
        PyMem_Free(self.w_roll)
        PyMem_Free(self.union)
        PyMem_Free(self.touched)

    # ------------------------------------------------------------------ reference side
    cdef int prepare(self, const int64_t* ref, Py_ssize_t m) except -1:
        """Match masks (m <= 64) or sorted positions per distinct token (m > 64) of ``ref``; a token
        with more positions than the reference has words also gets a dense mask (fewer than 64
        such tokens, so at most about m words in all)."""
        cdef Py_ssize_t p, k, s, words, n_dense, q
        cdef int64_t t
        cdef uint64_t* row
        if m <= 64:
            for p in range(m):
                self.mask1[ref[p]] |= (<uint64_t>1) << p
            return 0
        self.pos = <int32_t*>_grow(self.pos, m * sizeof(int32_t), &self.cap_pos)
        self.off = <int32_t*>_grow(self.off, (m + 1) * sizeof(int32_t), &self.cap_off)
        self.fill = <int32_t*>_grow(self.fill, (m + 1) * sizeof(int32_t), &self.cap_fill)
        self.slot_tok = <int64_t*>_grow(self.slot_tok, m * sizeof(int64_t), &self.cap_slot_tok)
        k = 0
        for p in range(m):
            t = ref[p]
            s = self.slot[t]
            if s < 0:
                s = k
                self.slot[t] = <int32_t>k
                self.slot_tok[k] = t
                self.fill[k] = 0
                k += 1
            self.fill[s] += 1
        self.n_slots = k
        self.off[0] = 0
        for s in range(k):
            self.off[s + 1] = self.off[s] + self.fill[s]
            self.fill[s] = self.off[s]
        for p in range(m):
            s = self.slot[ref[p]]
            self.pos[self.fill[s]] = <int32_t>p
            self.fill[s] += 1
        words = (m + 63) >> 6
        self.dense = <int32_t*>_grow(self.dense, k * sizeof(int32_t), &self.cap_dense)
        n_dense = 0
        for s in range(k):
            if self.off[s + 1] - self.off[s] > words:
                self.dense[s] = <int32_t>n_dense
                n_dense += 1
            else:
                self.dense[s] = -1
        if n_dense:
            self.dmask = <uint64_t*>_grow(self.dmask, n_dense * words * sizeof(uint64_t), &self.cap_dmask)
            memset(self.dmask, 0, n_dense * words * sizeof(uint64_t))
            for s in range(k):
                if self.dense[s] >= 0:
                    row = self.dmask + self.dense[s] * words
                    for q in range(self.off[s], self.off[s + 1]):
                        p = self.pos[q]
                        row[p >> 6] |= (<uint64_t>1) << (p & 63)
        return 0

    cdef void release(self, const int64_t* ref, Py_ssize_t m) noexcept nogil:
        """Clean the token-indexed tables :meth:`prepare` filled."""
        cdef Py_ssize_t p
        if m <= 64:
            for p in range(m):
                self.mask1[ref[p]] = 0
        else:
            for p in range(self.n_slots):
                self.slot[self.slot_tok[p]] = -1
            self.n_slots = 0

    # ------------------------------------------------------------------ one multiword row
    cdef void step(self, uint64_t* v, Py_ssize_t words, int64_t c) noexcept nogil:
        """Hyyro's row update for hypothesis token ``c`` on a prepared long reference."""
        cdef int32_t s = self.slot[c]
        cdef Py_ssize_t a, b, q, w, lo, hi
        cdef int32_t p
        cdef uint64_t x, vw, s1, s2, carry, c1
        cdef uint64_t* u = self.u
        cdef bint sparse
        if s < 0:
            return
        a = self.off[s]
        b = self.off[s + 1]
        sparse = self.dense[s] < 0
        if sparse:           # this row's match mask, from the token's positions (cleared below)
            for q in range(a, b):
                p = self.pos[q]
                u[p >> 6] |= (<uint64_t>1) << (p & 63)
        else:
            u = self.dmask + self.dense[s] * words
        lo = self.pos[a] >> 6
        hi = self.pos[b - 1] >> 6
        carry = 0
        w = lo
        while w < words:
            if w > hi and carry == 0:
                break
            vw = v[w]
            x = u[w] & vw
            if sparse:
                u[w] = 0
            s1 = vw + x
            c1 = s1 < vw
            s2 = s1 + carry
            carry = c1 | (s2 < s1)
            v[w] = s2 | (vw ^ x)
            w += 1

    cdef int ensure_words(self, Py_ssize_t words) except -1:
        self.v = <uint64_t*>_grow(self.v, words * sizeof(uint64_t), &self.cap_v)
        cdef size_t before = self.cap_u
        self.u = <uint64_t*>_grow(self.u, words * sizeof(uint64_t), &self.cap_u)
        if self.cap_u != before:
            memset(self.u, 0, self.cap_u)
        return 0

    # ------------------------------------------------------------------ LCS length
    cdef Py_ssize_t lcs_len_small(self, const int64_t* ref, Py_ssize_t m, const int64_t* hyp, Py_ssize_t n) except -1:
        """|LCS| for 64 < m <= 64 * SMALL_WORDS: a dense table of a few words per token, no positions."""
        cdef Py_ssize_t words = (m + 63) >> 6, p, j, w, ones = 0
        cdef uint64_t v[SMALL_WORDS]
        cdef uint64_t x, vw, s1, s2, carry, c1
        cdef const uint64_t* mk
        if self.mask4 == NULL:
            self.mask4 = <uint64_t*>PyMem_Malloc(self.vocab * SMALL_WORDS * sizeof(uint64_t))
            if self.mask4 == NULL:
                raise MemoryError()
            memset(self.mask4, 0, self.vocab * SMALL_WORDS * sizeof(uint64_t))
        for p in range(m):
            self.mask4[ref[p] * SMALL_WORDS + (p >> 6)] |= (<uint64_t>1) << (p & 63)
        for w in range(words):
            v[w] = ONES
        for j in range(n):
            mk = self.mask4 + hyp[j] * SMALL_WORDS
            carry = 0
            for w in range(words):
                vw = v[w]
                x = mk[w] & vw
                s1 = vw + x
                c1 = s1 < vw
                s2 = s1 + carry
                carry = c1 | (s2 < s1)
                v[w] = s2 | (vw ^ x)
        for p in range(m):
            memset(self.mask4 + ref[p] * SMALL_WORDS, 0, SMALL_WORDS * sizeof(uint64_t))
        for w in range(words - 1):
            ones += __builtin_popcountll(v[w])
        ones += __builtin_popcountll(v[words - 1] & low_bits(m - 64 * (words - 1)))
        return m - ones

    cdef Py_ssize_t lcs_len(self, const int64_t* a, Py_ssize_t na, const int64_t* b, Py_ssize_t nb) except -1:
        """|LCS| of two sequences (symmetric: the bits run over the shorter one)."""
        cdef const int64_t* ref
        cdef const int64_t* hyp
        cdef Py_ssize_t m, n, j, w, words, ones
        cdef uint64_t v, x
        if na == 0 or nb == 0:
            return 0
        if na <= nb:
            ref, m, hyp, n = a, na, b, nb
        else:
            ref, m, hyp, n = b, nb, a, na
        if 64 < m <= 64 * SMALL_WORDS:
            return self.lcs_len_small(ref, m, hyp, n)
        self.prepare(ref, m)
        if m <= 64:
            v = ONES
            for j in range(n):
                x = self.mask1[hyp[j]] & v
                if x:
                    v = (v + x) | (v ^ x)
            self.release(ref, m)
            return m - __builtin_popcountll(v & low_bits(m))
        words = (m + 63) >> 6
        self.ensure_words(words)
        for w in range(words):
            self.v[w] = ONES
        for j in range(n):
            self.step(self.v, words, hyp[j])
        self.release(ref, m)
        ones = 0
        for w in range(words - 1):
            ones += __builtin_popcountll(self.v[w])
        ones += __builtin_popcountll(self.v[words - 1] & low_bits(m - 64 * (words - 1)))
        return m - ones

    # ------------------------------------------------------------------ LCS positions
    cdef int positions(self, const int64_t* ref, Py_ssize_t m, const int64_t* hyp, Py_ssize_t n,
                       uint64_t* chosen) except -1:
        """OR the reference positions of the tools' LCS backtrack into ``chosen`` (words of m bits);
        ``ref`` must be prepared (:meth:`prepare`)."""
        cdef Py_ssize_t j, i, p
        cdef uint64_t v, x, stop, match
        cdef uint64_t* rows
        if m == 0 or n == 0:
            return 0
        if m > 64:
            return self.positions_long(ref, m, hyp, n, chosen)
        self.rows = <uint64_t*>_grow(self.rows, (n + 1) * sizeof(uint64_t), &self.cap_rows)
        rows = self.rows
        v = ONES
        rows[0] = v
        for j in range(n):
            x = self.mask1[hyp[j]] & v
            if x:
                v = (v + x) | (v ^ x)
            rows[j + 1] = v
        if v == ONES:          # no common token
            return 0
        i = m
        j = n
        while i > 0 and j > 0:
            match = self.mask1[hyp[j - 1]]
            stop = (match | ~rows[j]) & low_bits(i)
            if stop == 0:
                break
            p = top_bit(stop)
            if (match >> p) & 1:
                chosen[0] |= (<uint64_t>1) << p
                i = p
            else:
                i = p + 1
            j -= 1
        return 0

    cdef int positions_long(self, const int64_t* ref, Py_ssize_t m, const int64_t* hyp, Py_ssize_t n,
                            uint64_t* chosen) except -1:
        cdef Py_ssize_t words = (m + 63) >> 6
        cdef Py_ssize_t k, n_blocks, b, j, jj, start, end, i, w, pm, pd, p, lo_w, a_, b_, mid, loaded
        cdef int32_t s
        cdef uint64_t lim, d
        cdef uint64_t* row
        self.ensure_words(words)
        if (n + 1) * words <= _ROW_BUDGET:
            k = n
        else:
            k = <Py_ssize_t>sqrt(<double>n)
            if k * k < n:
                k += 1
        n_blocks = (n + k - 1) // k
        self.cps = <uint64_t*>_grow(self.cps, n_blocks * words * sizeof(uint64_t), &self.cap_cps)
        self.rows = <uint64_t*>_grow(self.rows, k * words * sizeof(uint64_t), &self.cap_rows)
        # forward: checkpoints before each block; the rows of the last block kept
        for w in range(words):
            self.v[w] = ONES
        start = (n_blocks - 1) * k
        for j in range(n):
            if j % k == 0:
                memcpy(self.cps + (j // k) * words, self.v, words * sizeof(uint64_t))
            self.step(self.v, words, hyp[j])
            if j >= start:
                memcpy(self.rows + (j - start) * words, self.v, words * sizeof(uint64_t))
        i = m
        j = n
        loaded = n_blocks - 1
        while i > 0 and j > 0:
            b = (j - 1) // k
            start = b * k
            if b != loaded:     # recompute the rows of block b from its checkpoint
                end = start + k
                memcpy(self.v, self.cps + b * words, words * sizeof(uint64_t))
                for jj in range(start, end):
                    self.step(self.v, words, hyp[jj])
                    memcpy(self.rows + (jj - start) * words, self.v, words * sizeof(uint64_t))
                loaded = b
            while j > start and i > 0:
                row = self.rows + (j - 1 - start) * words
                # highest match of hyp[j-1] below i: binary search in its sorted positions
                pm = -1
                s = self.slot[hyp[j - 1]]
                if s >= 0:
                    a_ = self.off[s]
                    b_ = self.off[s + 1]
                    while a_ < b_:
                        mid = (a_ + b_) >> 1
                        if self.pos[mid] < i:
                            a_ = mid + 1
                        else:
                            b_ = mid
                    if a_ > self.off[s]:
                        pm = self.pos[a_ - 1]
                # highest increment of the row below i (above pm)
                pd = -1
                w = (i - 1) >> 6
                lo_w = pm >> 6 if pm >= 0 else 0
                lim = low_bits(((i - 1) & 63) + 1)
                while w >= lo_w:
                    d = ~row[w] & lim
                    if d:
                        pd = 64 * w + top_bit(d)
                        break
                    lim = ONES
                    w -= 1
                p = pm if pm >= pd else pd
                if p < 0:
                    return 0
                if p == pm:
                    chosen[p >> 6] |= (<uint64_t>1) << (p & 63)
                    i = p
                else:
                    i = p + 1
                j -= 1
        return 0

    # ------------------------------------------------------------------ weighted LCS
    cdef int wlcs_row(self, int64_t tok, const int64_t* hyp, Py_ssize_t n, const double* gain,
                      const double* cp, const int32_t* wp, double* cr, int32_t* wr) except -1:
        cdef Py_ssize_t j
        cdef double left = 0.0, up
        cdef int32_t k
        cr[0] = 0.0
        wr[0] = 0
        for j in range(1, n + 1):
            if hyp[j - 1] == tok:
                k = wp[j - 1]
                left = cp[j - 1] + gain[k]
                wr[j] = k + 1
            else:
                up = cp[j]
                if up >= left:
                    left = up
                wr[j] = 0
            cr[j] = left
        return 0


    cdef inline double* crow(self, Py_ssize_t r, Py_ssize_t start, Py_ssize_t row_w) noexcept nogil:
        """Forward pass: where row r lives (the block buffer from ``start`` on, else two rolling rows)."""
        if r >= start:
            return self.c_rows + (r - start) * row_w
        return self.c_roll + (r & 1) * row_w

    cdef inline int32_t* wrow(self, Py_ssize_t r, Py_ssize_t start, Py_ssize_t row_w) noexcept nogil:
        if r >= start:
            return self.w_rows + (r - start) * row_w
        return self.w_roll + (r & 1) * row_w

    cdef int wlcs_positions(self, const int64_t* ref, Py_ssize_t m, const int64_t* hyp, Py_ssize_t n,
                            const double* gain, uint64_t* chosen) except -1:
        """OR the reference positions of the weighted LCS (``lcs.wlcs_positions``) into ``chosen``."""
        cdef Py_ssize_t i, j, k, n_blocks, b, start, r, row_w, p, loaded
        cdef bint shared = False
        cdef double* c_rows
        cdef int32_t* w_rows
        if m == 0 or n == 0:
            return 0
        for j in range(n):
            self.mark[hyp[j]] = 1
        for i in range(m):
            if self.mark[ref[i]]:
                shared = True
                break
        for j in range(n):
            self.mark[hyp[j]] = 0
        if not shared:
            return 0
        row_w = n + 1
        if (m + 1) * row_w <= _CELL_BUDGET:
            k = m
        else:
            k = <Py_ssize_t>sqrt(<double>m)
            if k * k < m:
                k += 1
        n_blocks = (m + k - 1) // k
        # block b holds rows b*k .. min(b*k + k, m): its checkpoint row, then up to k rows
        self.c_cps = <double*>_grow(self.c_cps, n_blocks * row_w * sizeof(double), &self.cap_c_cps)
        self.w_cps = <int32_t*>_grow(self.w_cps, n_blocks * row_w * sizeof(int32_t), &self.cap_w_cps)
        self.c_rows = <double*>_grow(self.c_rows, (k + 1) * row_w * sizeof(double), &self.cap_c_rows)
        self.w_rows = <int32_t*>_grow(self.w_rows, (k + 1) * row_w * sizeof(int32_t), &self.cap_w_rows)
        self.c_roll = <double*>_grow(self.c_roll, 2 * row_w * sizeof(double), &self.cap_c_roll)
        self.w_roll = <int32_t*>_grow(self.w_roll, 2 * row_w * sizeof(int32_t), &self.cap_w_roll)
        c_rows = self.c_rows
        w_rows = self.w_rows
        # forward: rows of the last block kept in place, checkpoints at rows b*k
        start = (n_blocks - 1) * k
        memset(self.crow(0, start, row_w), 0, row_w * sizeof(double))
        memset(self.wrow(0, start, row_w), 0, row_w * sizeof(int32_t))
        for i in range(m):
            if i % k == 0:
                memcpy(self.c_cps + (i // k) * row_w, self.crow(i, start, row_w), row_w * sizeof(double))
                memcpy(self.w_cps + (i // k) * row_w, self.wrow(i, start, row_w), row_w * sizeof(int32_t))
            self.wlcs_row(ref[i], hyp, n, gain, self.crow(i, start, row_w), self.wrow(i, start, row_w),
                          self.crow(i + 1, start, row_w), self.wrow(i + 1, start, row_w))
        # backtrack: a match is taken diagonally, else up when C[i-1][j] >= C[i][j-1]
        i = m
        j = n
        loaded = n_blocks - 1
        while i > 0 and j > 0:
            b = (i - 1) // k
            start = b * k
            if b != loaded:           # recompute rows start .. start + k from the checkpoint
                memcpy(c_rows, self.c_cps + b * row_w, row_w * sizeof(double))
                memcpy(w_rows, self.w_cps + b * row_w, row_w * sizeof(int32_t))
                for r in range(start, start + k):
                    self.wlcs_row(ref[r], hyp, n, gain, c_rows + (r - start) * row_w, w_rows + (r - start) * row_w,
                                  c_rows + (r + 1 - start) * row_w, w_rows + (r + 1 - start) * row_w)
                loaded = b
            while i > start and j > 0:
                if ref[i - 1] == hyp[j - 1]:
                    p = i - 1
                    chosen[p >> 6] |= (<uint64_t>1) << (p & 63)
                    i -= 1
                    j -= 1
                elif c_rows[(i - 1 - start) * row_w + j] >= c_rows[(i - start) * row_w + j - 1]:
                    i -= 1
                else:
                    j -= 1
        return 0

    cdef uint64_t* union_words(self, Py_ssize_t words) except NULL:
        """A zeroed bit set of ``words`` words."""
        self.union = <uint64_t*>_grow(self.union, words * sizeof(uint64_t), &self.cap_union)
        memset(self.union, 0, words * sizeof(uint64_t))
        return self.union

    cdef int count(self, int32_t* cnt, const int64_t* toks, Py_ssize_t n, int delta) noexcept nogil:
        cdef Py_ssize_t p
        for p in range(n):
            cnt[toks[p]] += delta
        return 0


# ============================================================================= single pairs
def _dense(a, b):
    """Two sequences of hashable tokens as int64 arrays of small ids (first-seen order), and the bound."""
    ids = {}
    ra = np.fromiter([ids.setdefault(t, len(ids)) for t in a], dtype=np.int64, count=len(a))
    rb = np.fromiter([ids.setdefault(t, len(ids)) for t in b], dtype=np.int64, count=len(b))
    return ra, rb, len(ids)


def lcs_length(ref, hyp):
    """Twin of :func:`assay.metrics.rouge.lcs.lcs_length` (any hashable tokens)."""
    if not len(ref) or not len(hyp):
        return 0
    ra, rb, vocab = _dense(ref, hyp)
    cdef const int64_t[::1] a = ra
    cdef const int64_t[::1] b = rb
    cdef Work w = Work(vocab)
    return w.lcs_len(&a[0], a.shape[0], &b[0], b.shape[0])


cdef object _bits_to_int(const uint64_t* words, Py_ssize_t n_words):
    out = 0
    cdef Py_ssize_t w
    for w in range(n_words - 1, -1, -1):
        out = (out << 64) | words[w]
    return out


def lcs_ref_positions(ref, hyp):
    """Twin of :func:`assay.metrics.rouge.lcs.lcs_ref_positions`: the chosen reference positions as a bit mask."""
    if not len(ref) or not len(hyp):
        return 0
    ra, rb, vocab = _dense(ref, hyp)
    cdef const int64_t[::1] a = ra
    cdef const int64_t[::1] b = rb
    cdef Work w = Work(vocab)
    cdef Py_ssize_t m = a.shape[0]
    cdef Py_ssize_t words = (m + 63) >> 6
    cdef uint64_t* chosen = w.union_words(words)
    w.prepare(&a[0], m)
    w.positions(&a[0], m, &b[0], b.shape[0], chosen)
    w.release(&a[0], m)
    return _bits_to_int(chosen, words)


def wlcs_positions(ref, hyp, const double[::1] gain):
    """Twin of :func:`assay.metrics.rouge.lcs.wlcs_positions_py` (sorted reference positions);
    ``gain``: :func:`assay.metrics.rouge.lcs.wlcs_weights` up to ``min(len(ref), len(hyp))``."""
    if not len(ref) or not len(hyp):
        return []
    ra, rb, vocab = _dense(ref, hyp)
    cdef const int64_t[::1] a = ra
    cdef const int64_t[::1] b = rb
    cdef Py_ssize_t m = a.shape[0]
    if gain.shape[0] < min(m, b.shape[0]):
        raise ValueError("gain must cover run lengths up to min(len(ref), len(hyp)) - 1")
    cdef Work w = Work(vocab)
    cdef Py_ssize_t words = (m + 63) >> 6
    cdef uint64_t* chosen = w.union_words(words)
    w.wlcs_positions(&a[0], m, &b[0], b.shape[0], &gain[0], chosen)
    cdef Py_ssize_t p
    return [p for p in range(m) if (chosen[p >> 6] >> (p & 63)) & 1]


# ============================================================================= store level
cdef Py_ssize_t _bound(const int64_t[::1] tokens, Py_ssize_t vocab):
    cdef Py_ssize_t p
    cdef int64_t top = vocab - 1
    for p in range(tokens.shape[0]):
        if tokens[p] > top:
            top = tokens[p]
        if tokens[p] < 0:
            raise ValueError("token ids must be >= 0")
    return top + 1


def lcs_hits(const int64_t[::1] tokens, const int64_t[::1] doc_start, const int64_t[::1] doc_len,
             const int64_t[::1] pair_h, const int64_t[::1] pair_r, Py_ssize_t vocab):
    """|LCS| of the flat documents of every pair (``PairBatch.lcs``'s hits), int64."""
    cdef Py_ssize_t n_pairs = pair_h.shape[0], k, h, r
    out = np.zeros(n_pairs, dtype=np.int64)
    cdef int64_t[::1] hits = out
    cdef Work w = Work(_bound(tokens, vocab))
    cdef const int64_t* base = &tokens[0] if tokens.shape[0] else NULL
    for k in range(n_pairs):
        if (k & 1023) == 0:
            PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
        h = pair_h[k]
        r = pair_r[k]
        hits[k] = w.lcs_len(base + doc_start[r], doc_len[r], base + doc_start[h], doc_len[h])
    return out


def union_lcs_hits(const int64_t[::1] tokens, const int64_t[::1] seg_start, const int64_t[::1] seg_len,
                   const int64_t[::1] doc_first, const int64_t[::1] doc_count,
                   const int64_t[::1] flat_tokens, const int64_t[::1] flat_start, const int64_t[::1] flat_len,
                   const int64_t[::1] pair_h, const int64_t[::1] pair_r, Py_ssize_t vocab):
    """ROUGE-Lsum hits of every pair (``measures.union_lcs_hits``): per reference sentence the union
    of its LCS positions with each hypothesis sentence, its tokens counted and clipped by the
    unigram counts of the flat documents (``flat_*``). ``tokens``/``seg_*``/``doc_*``: the sentences
    the LCS reads. float64."""
    cdef Py_ssize_t n_pairs = pair_h.shape[0], k, h, r, rs, hs, m, n, words, p, w, n_touched
    cdef int64_t t
    cdef uint64_t bits
    cdef double total
    out = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] hits = out
    cdef Py_ssize_t bound = max(_bound(tokens, vocab), _bound(flat_tokens, vocab))
    cdef Work wk = Work(bound)
    cdef const int64_t* base = &tokens[0] if tokens.shape[0] else NULL
    cdef const int64_t* fbase = &flat_tokens[0] if flat_tokens.shape[0] else NULL
    cdef const int64_t* ref
    cdef uint64_t* union
    cdef Py_ssize_t max_len = 0
    for p in range(seg_len.shape[0]):
        if seg_len[p] > max_len:
            max_len = seg_len[p]
    wk.touched = <int64_t*>_grow(wk.touched, (max_len + 1) * sizeof(int64_t), &wk.cap_touched)
    for k in range(n_pairs):
        if (k & 1023) == 0:
            PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
        h = pair_h[k]
        r = pair_r[k]
        if flat_len[h] == 0 or flat_len[r] == 0:
            continue
        n_touched = 0
        for rs in range(doc_first[r], doc_first[r] + doc_count[r]):
            m = seg_len[rs]
            if m == 0:
                continue
            ref = base + seg_start[rs]
            words = (m + 63) >> 6
            union = wk.union_words(words)
            wk.prepare(ref, m)
            for hs in range(doc_first[h], doc_first[h] + doc_count[h]):
                n = seg_len[hs]
                if n:
                    wk.positions(ref, m, base + seg_start[hs], n, union)
            wk.release(ref, m)
            wk.touched = <int64_t*>_grow(wk.touched, (n_touched + m) * sizeof(int64_t), &wk.cap_touched)
            for w in range(words):
                bits = union[w]
                while bits:
                    p = 64 * w + __builtin_ctzll(bits)
                    bits &= bits - 1
                    t = ref[p]
                    if wk.cnt_u[t] == 0:
                        wk.touched[n_touched] = t
                        n_touched += 1
                    wk.cnt_u[t] += 1
        if n_touched == 0:
            continue
        wk.count(wk.cnt_h, fbase + flat_start[h], flat_len[h], 1)
        wk.count(wk.cnt_r, fbase + flat_start[r], flat_len[r], 1)
        total = 0
        for p in range(n_touched):
            t = wk.touched[p]
            total += min(wk.cnt_u[t], wk.cnt_h[t], wk.cnt_r[t])
            wk.cnt_u[t] = 0
        hits[k] = total
        wk.count(wk.cnt_h, fbase + flat_start[h], flat_len[h], -1)
        wk.count(wk.cnt_r, fbase + flat_start[r], flat_len[r], -1)
    return out


def union_wlcs_hits(const int64_t[::1] tokens, const int64_t[::1] seg_start, const int64_t[::1] seg_len,
                    const int64_t[::1] doc_first, const int64_t[::1] doc_count,
                    const int64_t[::1] flat_tokens, const int64_t[::1] flat_start, const int64_t[::1] flat_len,
                    const int64_t[::1] pair_h, const int64_t[::1] pair_r, Py_ssize_t vocab,
                    const double[::1] gain, const double[::1] f):
    """ROUGE-W weighted hits of every pair (``measures.union_wlcs_hits``, ROUGE-1.5.5's quirks):
    per reference sentence the union of its weighted-LCS positions with each hypothesis sentence;
    in position order a union position is a hit while its token has count left on both sides
    (counts of the flat documents, shared over the document pair); a block of consecutive
    positions ending in a hit adds f(hits since the last addition). ``gain``, ``f``:
    :func:`assay.metrics.rouge.lcs.wlcs_weights` up to the longest sentence. float64."""
    cdef Py_ssize_t n_pairs = pair_h.shape[0], k, h, r, rs, hs, m, n, words, p, w, prev, cnt
    cdef bint last_hit
    cdef int64_t t
    cdef uint64_t bits
    cdef double total
    cdef Py_ssize_t max_len = 0
    for p in range(seg_len.shape[0]):
        if seg_len[p] > max_len:
            max_len = seg_len[p]
    if gain.shape[0] < max_len or f.shape[0] < max_len + 1:
        raise ValueError("gain and f must cover the longest sentence")
    out = np.zeros(n_pairs, dtype=np.float64)
    cdef double[::1] hits = out
    cdef Work wk = Work(max(_bound(tokens, vocab), _bound(flat_tokens, vocab)))
    cdef const int64_t* base = &tokens[0] if tokens.shape[0] else NULL
    cdef const int64_t* fbase = &flat_tokens[0] if flat_tokens.shape[0] else NULL
    cdef const int64_t* ref
    cdef uint64_t* union
    for k in range(n_pairs):
        if (k & 1023) == 0:
            PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
        h = pair_h[k]
        r = pair_r[k]
        wk.count(wk.cnt_h, fbase + flat_start[h], flat_len[h], 1)
        wk.count(wk.cnt_r, fbase + flat_start[r], flat_len[r], 1)
        total = 0.0
        for rs in range(doc_first[r], doc_first[r] + doc_count[r]):
            m = seg_len[rs]
            if m == 0:
                continue
            ref = base + seg_start[rs]
            words = (m + 63) >> 6
            union = wk.union_words(words)
            for hs in range(doc_first[h], doc_first[h] + doc_count[h]):
                n = seg_len[hs]
                if n:
                    wk.wlcs_positions(ref, m, base + seg_start[hs], n, &gain[0], union)
            cnt = 0
            prev = -2
            last_hit = False
            for w in range(words):
                bits = union[w]
                while bits:
                    p = 64 * w + __builtin_ctzll(bits)
                    bits &= bits - 1
                    if p != prev + 1 and prev >= 0 and last_hit:    # a block ended at prev with a hit
                        total += f[cnt]
                        cnt = 0
                    t = ref[p]
                    if wk.cnt_h[t] > 0 and wk.cnt_r[t] > 0:
                        wk.cnt_h[t] -= 1
                        wk.cnt_r[t] -= 1
                        cnt += 1
                        last_hit = True
                    else:
                        last_hit = False
                    prev = p
            if last_hit:
                total += f[cnt]
        hits[k] = total
        # the counts left are what the pair did not use: clear them exactly
        for p in range(flat_len[h]):
            wk.cnt_h[fbase[flat_start[h] + p]] = 0
        for p in range(flat_len[r]):
            wk.cnt_r[fbase[flat_start[r] + p]] = 0
    return out
