# cython: language_level=3
"""Compiled twin of :func:`assay.metrics.ter.shifts.ter_edits_py` (the pure module is the specification).

The same search (rounds of: beam table of the current hypothesis, trace-back alignment, shift
candidates in the specification's order, gains, best shift), in C on dense token ids:

- the beam table is stored by bands (int32, ``INF`` = unreachable, clamped), like
  :class:`assay.metrics.ter.beam.Scorer`'s rows, and always used (the pure path's bit rows are
  a shortcut to the same numbers);
- a candidate is scored on its changed rows only: from the current table's row before its first
  moved word to the row after its last, then closed with the current hypothesis's *suffix* table
  ``B[i][j]`` (the fewest edits from cell ``(i, j)`` to the last cell through the beam; the words
  after the shift are the same): every path crosses row ``i``, so the distance is
  ``min_j D'[i][j] + B[i][j]``;
- error counts come from prefix sums, reference positions of a word from a linked list;
- the round that exhausts the candidate budget is not scored (it makes no shift).

Every buffer is allocated with ``PyMem_Malloc`` (visible to ``tracemalloc``) and is linear in the
segment length: each of the two tables holds :func:`assay.metrics.ter.limits.table_cells` cells.
"""
from libc.stdint cimport int32_t
from libc.math cimport ceil, floor
from cpython.mem cimport PyMem_Free, PyMem_Malloc

from assay.text._buffers cimport grow

cdef enum:
    INF = 0x3FFFFFFF       # unreachable; every finite distance is far below


cdef void *_alloc(Py_ssize_t n, size_t size) except NULL:
    cdef void *out = PyMem_Malloc((n if n > 0 else 1) * size)
    if out == NULL:
        raise MemoryError()
    return out


cdef inline void _step(const int32_t *prev, Py_ssize_t plo, Py_ssize_t phi, int32_t *cur,
                       Py_ssize_t lo, Py_ssize_t hi, int32_t w, const int32_t *refpad) noexcept nogil:
    """Row ``i`` (columns ``[lo, hi)``) from row ``i - 1`` (columns ``[plo, phi)``, ``plo <= lo``)."""
    cdef Py_ssize_t j, mid
    cdef int32_t d, u, v, left = INF
    d = prev[lo - 1 - plo] if plo <= lo - 1 < phi else INF      # D[i-1][j-1]
    mid = hi if hi < phi else phi
    j = lo
    while j < mid:
        u = prev[j - plo]
        v = d + (w != refpad[j])
        if u + 1 < v:
            v = u + 1
        if left + 1 < v:
            v = left + 1
        if v > INF:
            v = INF
        cur[j - lo] = v
        left = v
        d = u
        j += 1
    while j < hi:                                               # beyond the previous band
        v = d + (w != refpad[j])
        if left + 1 < v:
            v = left + 1
        if v > INF:
            v = INF
        cur[j - lo] = v
        left = v
        d = INF
        j += 1


cdef inline void _back_step(const int32_t *nxt, Py_ssize_t nlo, Py_ssize_t nhi, int32_t *cur,
                            Py_ssize_t lo, Py_ssize_t hi, int32_t w, const int32_t *refpad) noexcept nogil:
    """Suffix row ``i`` (columns ``[lo, hi)``) from suffix row ``i + 1`` (columns ``[nlo, nhi)``):
    ``B[i][j]`` = the fewest edits from cell ``(i, j)`` to the last cell through the beam."""
    cdef Py_ssize_t j = hi - 1
    cdef int32_t dn, dg, v, right = INF
    dg = nxt[hi - nlo] if nlo <= hi < nhi else INF              # B[i+1][j+1]
    while j >= lo:
        dn = nxt[j - nlo] if nlo <= j < nhi else INF            # B[i+1][j]
        v = dg + (w != refpad[j + 1])
        if dn + 1 < v:
            v = dn + 1
        if right + 1 < v:
            v = right + 1
        if v > INF:
            v = INF
        cur[j - lo] = v
        right = v
        dg = dn
        j -= 1


cdef inline Py_ssize_t _source(Py_ssize_t p, Py_ssize_t start, Py_ssize_t length, Py_ssize_t t) noexcept nogil:
    """Index in the current hypothesis of word ``p`` of the shifted one (block to index ``t``)."""
    if t <= p < t + length:
        return start + p - t
    if p >= t:
        p -= length
    return p if p < start else p + length


cdef class _Search:
    """Buffers and state of one hypothesis/reference search (all linear in the lengths)."""

    cdef Py_ssize_t n_h, n_r, n_cells, max_width, n_cand
    cdef size_t cand_bytes     # bytes allocated for cand
    cdef int32_t *hyp          # current hypothesis (dense ids; -1 = not in the reference)
    cdef int32_t *nxt          # next hypothesis (a shift applied)
    cdef int32_t *refpad       # refpad[j] = ref[j-1]; refpad[0] = refpad[n_r + 1] = -2
    cdef Py_ssize_t *lo        # band of row i: columns [lo[i], hi[i]) stored from off[i]
    cdef Py_ssize_t *hi
    cdef Py_ssize_t *off
    cdef int32_t *table        # D[i][j]: prefix distances
    cdef int32_t *back         # B[i][j]: suffix distances, same layout
    cdef int32_t *row_a        # a candidate's rows
    cdef int32_t *row_b
    cdef int32_t *align        # reference position -> hypothesis position
    cdef int32_t *hcum         # hypothesis errors before position i
    cdef int32_t *rcum         # reference errors before position j
    cdef signed char *steps    # trace-back steps
    cdef int32_t *head         # first reference position of a word id
    cdef int32_t *link         # next reference position of the same word
    cdef int32_t *cand         # (length, start, target) triples

    def __cinit__(self, Py_ssize_t n_h, Py_ssize_t n_r, Py_ssize_t n_vocab):
        self.n_h, self.n_r = n_h, n_r
        self.hyp = <int32_t *> _alloc(n_h, sizeof(int32_t))
        self.nxt = <int32_t *> _alloc(n_h, sizeof(int32_t))
        self.refpad = <int32_t *> _alloc(n_r + 2, sizeof(int32_t))
        self.lo = <Py_ssize_t *> _alloc(n_h + 1, sizeof(Py_ssize_t))
        self.hi = <Py_ssize_t *> _alloc(n_h + 1, sizeof(Py_ssize_t))
        self.off = <Py_ssize_t *> _alloc(n_h + 2, sizeof(Py_ssize_t))
        self.align = <int32_t *> _alloc(n_r, sizeof(int32_t))
        self.hcum = <int32_t *> _alloc(n_h + 1, sizeof(int32_t))
        self.rcum = <int32_t *> _alloc(n_r + 1, sizeof(int32_t))
        self.steps = <signed char *> _alloc(n_h + n_r, sizeof(signed char))
        self.head = <int32_t *> _alloc(n_vocab, sizeof(int32_t))
        self.link = <int32_t *> _alloc(n_r, sizeof(int32_t))
        self.cand_bytes = 0
        self.cand = <int32_t *> grow(NULL, 3 * 64 * sizeof(int32_t), &self.cand_bytes)

    def __dealloc__(self):
        PyMem_Free(self.hyp)
        PyMem_Free(self.nxt)
        PyMem_Free(self.refpad)
        PyMem_Free(self.lo)
        PyMem_Free(self.hi)
        PyMem_Free(self.off)
        PyMem_Free(self.table)
        PyMem_Free(self.back)
        PyMem_Free(self.row_a)
        PyMem_Free(self.row_b)
        PyMem_Free(self.align)
        PyMem_Free(self.hcum)
        PyMem_Free(self.rcum)
        PyMem_Free(self.steps)
        PyMem_Free(self.head)
        PyMem_Free(self.link)
        PyMem_Free(self.cand)

    cdef int bands(self, Py_ssize_t width) except -1:
        """The beam bounds of :func:`assay.metrics.ter.beam.beam_bounds` (same float arithmetic)."""
        cdef double ratio = <double> self.n_r / <double> self.n_h
        cdef Py_ssize_t beam = width, i, diag
        if ratio / 2 > <double> width:
            beam = <Py_ssize_t> ceil(ratio / 2 + <double> width)
        self.lo[0], self.hi[0], self.off[0] = 0, self.n_r + 1, 0
        self.max_width = 1
        for i in range(1, self.n_h + 1):
            diag = <Py_ssize_t> floor(<double> i * ratio)
            self.lo[i] = diag - beam if diag > beam else 0
            if i == self.n_h or diag + beam > self.n_r + 1:
                self.hi[i] = self.n_r + 1
            else:
                self.hi[i] = diag + beam
            if self.hi[i] - self.lo[i] > self.max_width:
                self.max_width = self.hi[i] - self.lo[i]
        for i in range(self.n_h + 1):
            self.off[i + 1] = self.off[i] + self.hi[i] - self.lo[i]
        self.n_cells = self.off[self.n_h + 1]
        self.table = <int32_t *> _alloc(self.n_cells, sizeof(int32_t))
        self.back = <int32_t *> _alloc(self.n_cells, sizeof(int32_t))
        self.row_a = <int32_t *> _alloc(self.max_width, sizeof(int32_t))
        self.row_b = <int32_t *> _alloc(self.max_width, sizeof(int32_t))
        return 0

    cdef int32_t fill(self) noexcept nogil:
        """The (prefix) table of the current hypothesis; returns its distance."""
        cdef Py_ssize_t i, j, n = self.n_h
        for j in range(self.n_r + 1):
            self.table[j] = <int32_t> j
        for i in range(1, n + 1):
            _step(self.table + self.off[i - 1], self.lo[i - 1], self.hi[i - 1], self.table + self.off[i],
                  self.lo[i], self.hi[i], self.hyp[i - 1], self.refpad)
        return self.table[self.off[n + 1] - 1]

    cdef void fill_suffix(self) noexcept nogil:
        """The suffix table of the current hypothesis (to close candidates)."""
        cdef Py_ssize_t i, j, n = self.n_h
        for j in range(self.lo[n], self.hi[n]):
            self.back[self.off[n] + j - self.lo[n]] = <int32_t> (self.n_r - j)
        for i in range(n - 1, -1, -1):
            _back_step(self.back + self.off[i + 1], self.lo[i + 1], self.hi[i + 1], self.back + self.off[i],
                       self.lo[i], self.hi[i], self.hyp[i], self.refpad)

    cdef inline int32_t value(self, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
        if self.lo[i] <= j < self.hi[i]:
            return self.table[self.off[i] + j - self.lo[i]]
        return INF

    cdef void trace(self) noexcept nogil:
        """``align`` and the error prefix sums, as :func:`assay.metrics.ter.shifts._alignment`."""
        cdef Py_ssize_t i = self.n_h, j = self.n_r, n = 0, hp = -1, rp = -1, k
        cdef int32_t v = self.value(i, j), diag, up, mismatch
        cdef signed char step
        while i > 0 or j > 0:
            if i > 0 and j > 0:
                mismatch = self.hyp[i - 1] != self.refpad[j]
                diag = self.value(i - 1, j - 1)
                if diag + mismatch == v:
                    self.steps[n] = mismatch
                    n += 1
                    i -= 1
                    j -= 1
                    v = diag
                    continue
            if i > 0:
                up = self.value(i - 1, j)
                if up + 1 == v:
                    self.steps[n] = 2
                    n += 1
                    i -= 1
                    v = up
                    continue
            self.steps[n] = 3
            n += 1
            j -= 1
            v = self.value(i, j)
        self.hcum[0] = 0
        self.rcum[0] = 0
        for k in range(n - 1, -1, -1):
            step = self.steps[k]
            if step <= 1:
                hp += 1
                rp += 1
                self.align[rp] = <int32_t> hp
                self.hcum[hp + 1] = self.hcum[hp] + step
                self.rcum[rp + 1] = self.rcum[rp] + step
            elif step == 2:
                hp += 1
                self.hcum[hp + 1] = self.hcum[hp] + 1
            else:
                rp += 1
                self.rcum[rp + 1] = self.rcum[rp] + 1
                self.align[rp] = <int32_t> hp

    cdef int push(self, Py_ssize_t length, Py_ssize_t start, Py_ssize_t target) except -1:
        self.cand = <int32_t *> grow(self.cand, 3 * (self.n_cand + 1) * sizeof(int32_t), &self.cand_bytes)
        self.cand[3 * self.n_cand] = <int32_t> length
        self.cand[3 * self.n_cand + 1] = <int32_t> start
        self.cand[3 * self.n_cand + 2] = <int32_t> target
        self.n_cand += 1
        return 0

    cdef int candidates(self, Py_ssize_t budget, Py_ssize_t max_size, Py_ssize_t max_dist) except -1:
        """This round's candidates, as :func:`assay.metrics.ter.shifts._candidates`."""
        cdef Py_ssize_t sh, sr, length, k, target, prev_target, w
        self.n_cand = 0
        for sh in range(self.n_h):
            w = self.hyp[sh]
            sr = self.head[w] if w >= 0 else -1
            while sr >= 0 and sr < sh - max_dist:
                sr = self.link[sr]
            while sr >= 0 and sr <= sh + max_dist:
                length = 0
                while (length < max_size and sh + length < self.n_h and sr + length < self.n_r
                       and self.hyp[sh + length] == self.refpad[sr + length + 1]):
                    length += 1
                    if self.hcum[sh + length] == self.hcum[sh] or self.rcum[sr + length] == self.rcum[sr]:
                        continue
                    if sh <= self.align[sr] < sh + length:
                        continue
                    prev_target = -1
                    for k in range(-1, length):
                        target = 0 if sr + k == -1 else self.align[sr + k] + 1
                        if target == prev_target:
                            continue
                        prev_target = target
                        self.push(length, sh, target)
                    if self.n_cand >= budget:
                        return 0
                sr = self.link[sr]
        return 0

    cdef int32_t distance(self, Py_ssize_t length, Py_ssize_t start, Py_ssize_t target, int32_t cost) noexcept nogil:
        """Beam distance of the current hypothesis with the shift applied: its rows from the one
        before its first moved word to the one after its last, closed with the suffix table."""
        cdef Py_ssize_t t, first, end, i, k
        cdef int32_t *prev
        cdef int32_t *cur
        cdef int32_t *swap
        cdef int32_t *suffix
        cdef long long total, best = 2 * <long long> INF
        t = target - length if target > start + length else target
        if t > self.n_h - length:
            t = self.n_h - length
        if t == start:
            return cost
        first = start if start < t else t
        end = (start if start > t else t) + length
        prev = self.table + self.off[first]
        cur = self.row_a
        for i in range(first + 1, end + 1):
            _step(prev, self.lo[i - 1], self.hi[i - 1], cur, self.lo[i], self.hi[i],
                  self.hyp[_source(i - 1, start, length, t)], self.refpad)
            prev = cur
            cur = self.row_b if cur == self.row_a else self.row_a
        suffix = self.back + self.off[end]
        for k in range(self.hi[end] - self.lo[end]):
            total = <long long> prev[k] + suffix[k]
            if total < best:
                best = total
        return <int32_t> best

    cdef void apply(self, Py_ssize_t length, Py_ssize_t start, Py_ssize_t target) noexcept nogil:
        """Make the shift: the hypothesis becomes :func:`assay.metrics.ter.shifts.shifted`'s."""
        cdef Py_ssize_t t, p
        cdef int32_t *swap
        t = target - length if target > start + length else target
        if t > self.n_h - length:
            t = self.n_h - length
        for p in range(self.n_h):
            self.nxt[p] = self.hyp[_source(p, start, length, t)]
        swap = self.hyp
        self.hyp = self.nxt
        self.nxt = swap


def ter_edits(hyp, ref, Py_ssize_t max_shift_size, Py_ssize_t max_shift_dist, Py_ssize_t beam_width,
              Py_ssize_t max_candidates):
    """Shifts + beam edit distance of the shifted ``hyp`` against ``ref`` (any hashable tokens;
    the limits of :class:`assay.metrics.ter.limits.Limits`)."""
    cdef Py_ssize_t n_h = len(hyp), n_r = len(ref), j, c, best, budget = max_candidates
    cdef Py_ssize_t shifts = 0, length, start, target, b_len = 0, b_start = 0, b_target = 0
    cdef int32_t cost, gain, b_gain = 0
    cdef _Search s
    if n_r == 0:
        return n_h
    if n_h == 0:
        return n_r
    vocab = {}
    for tok in ref:
        vocab.setdefault(tok, len(vocab))
    s = _Search(n_h, n_r, len(vocab))
    s.refpad[0] = -2
    s.refpad[n_r + 1] = -2
    for j in range(len(vocab)):
        s.head[j] = -1
    j = 0
    for tok in ref:
        s.refpad[j + 1] = vocab[tok]
        j += 1
    for j in range(n_r - 1, -1, -1):          # linked lists of positions, ascending
        s.link[j] = s.head[s.refpad[j + 1]]
        s.head[s.refpad[j + 1]] = <int32_t> j
    j = 0
    for tok in hyp:
        s.hyp[j] = vocab.get(tok, -1)
        j += 1
    s.bands(beam_width)
    while True:
        cost = s.fill()
        if cost == 0:
            return shifts
        if budget <= 0:
            return shifts + cost
        s.trace()
        s.candidates(budget, max_shift_size, max_shift_dist)
        budget -= s.n_cand
        if s.n_cand == 0 or budget <= 0:      # the round that exhausts the budget makes no shift
            return shifts + cost
        s.fill_suffix()
        best = -1
        for c in range(s.n_cand):
            length, start, target = s.cand[3 * c], s.cand[3 * c + 1], s.cand[3 * c + 2]
            gain = cost - s.distance(length, start, target, cost)
            if best < 0 or gain > b_gain or (gain == b_gain and (
                    length > b_len or (length == b_len and (
                        start < b_start or (start == b_start and target < b_target))))):
                best, b_gain, b_len, b_start, b_target = c, gain, length, start, target
        if b_gain <= 0:
            return shifts + cost
        shifts += 1
        s.apply(b_len, b_start, b_target)
