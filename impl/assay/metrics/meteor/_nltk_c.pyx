"""Compiled twin of the alignment of :mod:`assay.metrics.meteor.nltk_rows` (``algorithm=nltk``),
one hypothesis/reference pair (a *unit*) at a time, equal to the pure path exactly.

:func:`word_ids` interns the tokens (lowercased when asked). :func:`exact_pass` and :func:`stem_pass`
run the first two stages on word ids: hypothesis positions from the last, each taking the highest
unused reference position with an equal id (exact), then with an equal stem id among the leftovers
(stem; the stems of the exact stage's leftover words are computed in between, in one batch). Equal
ids are found through a per-unit open-addressing table whose entries are stacks of reference
positions (the highest on top), so a unit costs O(H + R). :func:`stem_pass` returns the pairs and
the stage-3 leftovers (positions ascending, with their stage-3 word ids).

:func:`synonym_score` runs the synonym stage on those leftovers given the synonym relation (sorted
keys ``h * n + r`` of related stage-3 word ids, built in Python from WordNet): hypothesis from the
last, each taking the highest unused related reference position. It then counts chunks over every
pair in hypothesis order (stable: a word matched twice keeps its stem pair first) and computes
:func:`nltk_rows.meteor_value` with the same floating-point operations (0.0 where NLTK divides by
zero). :func:`scores` computes it for pairs already aligned (a new alpha, beta or gamma).
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.math cimport pow

import numpy as np


def word_ids(list token_lists, bint lowercase):
    """:func:`nltk_rows._word_ids` in one pass: every token's id (its lowercased form's first-seen
    rank), without a flat copy of the tokens. Each distinct raw token is looked at (type check,
    lowercasing) once. ``(None, ...)`` when a token is unhashable or not a string."""
    cdef dict raw = {}, index = {}
    cdef list words = []
    cdef Py_ssize_t total = 0, k = 0
    cdef object seg, tok, got, low
    for seg in token_lists:
        total += len(seg)
    ids_a = np.empty(total, dtype=np.int64)
    cdef int64_t[::1] ids = ids_a
    for seg in token_lists:
        for tok in seg:
            try:
                got = raw.get(tok)
            except TypeError:                # unhashable token
                return None, np.empty(0, dtype=np.int64)
            if got is None:
                if not isinstance(tok, str):
                    return None, ids_a
                low = tok.lower() if lowercase else tok
                got = index.get(low)
                if got is None:
                    got = index[low] = len(words)
                    words.append(low)
                raw[tok] = got
            ids[k] = <int64_t>got
            k += 1
    return words, ids_a


cdef void* _grow(void* p, Py_ssize_t nbytes) except NULL:
    cdef void* q = realloc(p, nbytes if nbytes > 0 else 1)
    if q == NULL:
        raise MemoryError()
    return q


cdef class _Work:
    """Per-unit buffers, grown on demand: the key table and position scratch arrays."""

    cdef int64_t* keys           # open addressing: key of the slot
    cdef int32_t* head           # top of its stack of positions (−2: emptied), −1 = empty slot
    cdef int32_t n_slots
    cdef int32_t* filled         # slots filled by the current stage (to reset them)
    cdef int32_t* below          # next position down each stack
    cdef char* used
    cdef int64_t* kh             # keys of the stage's hypothesis / reference positions
    cdef int64_t* kr
    cdef int32_t* pos_h          # positions of a stage's input, its leftovers
    cdef int32_t* pos_r
    cdef int32_t* left_h
    cdef int32_t* left_r
    cdef int32_t* left_h2
    cdef int32_t* left_r2
    cdef int32_t* ph             # the unit's pairs, in the order they are made
    cdef int32_t* pr
    cdef int32_t* count          # pairs per hypothesis position (the stable order by position)
    cdef int32_t* oh
    cdef int32_t* orr
    cdef Py_ssize_t cap

    def __cinit__(self):
        self.reserve(64)

    def __dealloc__(self):
        free(self.keys)
        free(self.head)
        free(self.filled)
        free(self.below)
        free(self.used)
        free(self.kh)
        free(self.kr)
        free(self.pos_h)
        free(self.pos_r)
        free(self.left_h)
        free(self.left_r)
        free(self.left_h2)
        free(self.left_r2)
        free(self.ph)
        free(self.pr)
        free(self.count)
        free(self.oh)
        free(self.orr)

    cdef int reserve(self, Py_ssize_t n) except -1:
        """Room for a unit whose sides have at most ``n`` positions (pairs: up to 2n)."""
        cdef int32_t slots = 16, k
        if n + 1 > self.cap:
            n = max(n + 1, 2 * self.cap)
            self.filled = <int32_t*>_grow(self.filled, n * sizeof(int32_t))
            self.below = <int32_t*>_grow(self.below, n * sizeof(int32_t))
            self.used = <char*>_grow(self.used, n)
            self.kh = <int64_t*>_grow(self.kh, n * sizeof(int64_t))
            self.kr = <int64_t*>_grow(self.kr, n * sizeof(int64_t))
            self.pos_h = <int32_t*>_grow(self.pos_h, n * sizeof(int32_t))
            self.pos_r = <int32_t*>_grow(self.pos_r, n * sizeof(int32_t))
            self.left_h = <int32_t*>_grow(self.left_h, n * sizeof(int32_t))
            self.left_r = <int32_t*>_grow(self.left_r, n * sizeof(int32_t))
            self.left_h2 = <int32_t*>_grow(self.left_h2, n * sizeof(int32_t))
            self.left_r2 = <int32_t*>_grow(self.left_r2, n * sizeof(int32_t))
            self.ph = <int32_t*>_grow(self.ph, 2 * n * sizeof(int32_t))
            self.pr = <int32_t*>_grow(self.pr, 2 * n * sizeof(int32_t))
            self.count = <int32_t*>_grow(self.count, (n + 1) * sizeof(int32_t))
            self.oh = <int32_t*>_grow(self.oh, 2 * n * sizeof(int32_t))
            self.orr = <int32_t*>_grow(self.orr, 2 * n * sizeof(int32_t))
            self.cap = n
        while slots < 2 * self.cap:
            slots *= 2
        if slots > self.n_slots:
            self.keys = <int64_t*>_grow(self.keys, slots * sizeof(int64_t))
            self.head = <int32_t*>_grow(self.head, slots * sizeof(int32_t))
            self.n_slots = slots
            for k in range(slots):
                self.head[k] = -1
        return 0

    cdef inline int32_t slot(self, int64_t key) noexcept nogil:
        cdef int32_t mask = self.n_slots - 1
        cdef int32_t s = <int32_t>((<uint64_t>key * <uint64_t>0x9E3779B97F4A7C15ULL) >> 40) & mask
        while self.head[s] != -1 and self.keys[s] != key:
            s = (s + 1) & mask
        return s

    cdef Py_ssize_t equal_stage(self, Py_ssize_t nh, Py_ssize_t nr, Py_ssize_t n_pairs,
                                Py_ssize_t* n_h_left, Py_ssize_t* n_r_left) noexcept nogil:
        """One equality stage on ``pos_h``/``kh`` (``nh`` positions, ascending) and ``pos_r``/``kr``:
        hypothesis from the last, each takes the highest unused reference position with its key.
        Pairs are appended to ``ph``/``pr`` from ``n_pairs``; leftovers (ascending positions) go to
        ``left_h``/``left_r``. Returns the number of pairs."""
        cdef Py_ssize_t i, k, o = 0, n_filled = 0
        cdef int32_t s, top
        for k in range(nr):
            self.used[k] = 0
            s = self.slot(self.kr[k])
            if self.head[s] == -1:
                self.keys[s] = self.kr[k]
                self.filled[n_filled] = s
                n_filled += 1
                self.below[k] = -1
            else:
                self.below[k] = self.head[s]
            self.head[s] = <int32_t>k
        for i in range(nh - 1, -1, -1):
            s = self.slot(self.kh[i])
            top = self.head[s]
            if top >= 0:
                self.head[s] = self.below[top] if self.below[top] >= 0 else -2
                self.used[top] = 1
                self.ph[n_pairs] = self.pos_h[i]
                self.pr[n_pairs] = self.pos_r[top]
                n_pairs += 1
            else:
                self.left_h[o] = self.pos_h[i]
                o += 1
        for i in range(o // 2):
            self.left_h[i], self.left_h[o - 1 - i] = self.left_h[o - 1 - i], self.left_h[i]
        n_h_left[0] = o
        o = 0
        for k in range(nr):
            if not self.used[k]:
                self.left_r[o] = self.pos_r[k]
                o += 1
        n_r_left[0] = o
        for k in range(n_filled):
            self.head[self.filled[k]] = -1
        return n_pairs


cdef _Work _work = _Work()


def exact_pass(const int64_t[::1] hw, const int64_t[::1] h_off, const int64_t[::1] rw, const int64_t[::1] r_off):
    """Stage 1 of every unit ``u`` (hypothesis ``hw[h_off[u]:h_off[u+1]]``, reference
    ``rw[r_off[u]:r_off[u+1]]``): equal word ids.

    Returns ``(ph, pr, pair_off, lh, lh_off, lr, lr_off)``: the pairs (positions in the unit, in the
    order made) and the leftovers (ascending positions), only for units with leftovers on both
    sides (the others have no later stage)."""
    cdef _Work w = _work
    cdef Py_ssize_t U = r_off.shape[0] - 1, u, k, H, R, np_, nh1, nr1, nlh = 0, nlr = 0
    cdef const int64_t* hu
    cdef const int64_t* ru
    ph_a = np.empty(hw.shape[0], dtype=np.int32)
    pr_a = np.empty(hw.shape[0], dtype=np.int32)
    pair_off_a = np.zeros(U + 1, dtype=np.int64)
    lh_a = np.empty(hw.shape[0], dtype=np.int32)
    lh_off_a = np.zeros(U + 1, dtype=np.int64)
    lr_a = np.empty(rw.shape[0], dtype=np.int32)
    lr_off_a = np.zeros(U + 1, dtype=np.int64)
    cdef int32_t[::1] ph = ph_a, pr = pr_a, lh = lh_a, lr = lr_a
    cdef int64_t[::1] pair_off = pair_off_a, lh_off = lh_off_a, lr_off = lr_off_a
    for u in range(U):
        H = h_off[u + 1] - h_off[u]
        R = r_off[u + 1] - r_off[u]
        hu = &hw[h_off[u]] if H else NULL
        ru = &rw[r_off[u]] if R else NULL
        w.reserve(H if H > R else R)
        for k in range(H):
            w.pos_h[k] = <int32_t>k
            w.kh[k] = hu[k]
        for k in range(R):
            w.pos_r[k] = <int32_t>k
            w.kr[k] = ru[k]
        np_ = w.equal_stage(H, R, 0, &nh1, &nr1)
        for k in range(np_):
            ph[pair_off[u] + k] = w.ph[k]
            pr[pair_off[u] + k] = w.pr[k]
        pair_off[u + 1] = pair_off[u] + np_
        if nh1 and nr1:
            for k in range(nh1):
                lh[nlh + k] = w.left_h[k]
            for k in range(nr1):
                lr[nlr + k] = w.left_r[k]
            nlh += nh1
            nlr += nr1
        lh_off[u + 1] = nlh
        lr_off[u + 1] = nlr
    return ph_a, pr_a, pair_off_a, lh_a[:nlh], lh_off_a, lr_a[:nlr], lr_off_a


def stem_pass(const int64_t[::1] hw, const int64_t[::1] h_off, const int64_t[::1] rw, const int64_t[::1] r_off,
              const int32_t[::1] ph, const int32_t[::1] pr, const int64_t[::1] pair_off,
              const int32_t[::1] lh, const int64_t[::1] lh_off, const int32_t[::1] lr, const int64_t[::1] lr_off,
              const int64_t[::1] stem_of, bint stem, bint after_exact):
    """Stage 2 on :func:`exact_pass`'s leftovers (when ``stem``): equal stem ids ``stem_of[word]``
    (known for every leftover word). Returns ``(ph, pr, pair_off, lh, lhs, lh_off, lr, lrs,
    lr_off)``: every pair so far (exact ones first) and the stage-3 leftovers with their stage-3 ids
    (stems, or the words with ``after_exact`` / without the stem stage), only for units with
    leftovers on both sides."""
    cdef _Work w = _work
    cdef Py_ssize_t U = r_off.shape[0] - 1, u, k, n0, np_, nh1, nr1, nh2, nr2, nlh = 0, nlr = 0, npairs = 0
    cdef const int64_t* hu
    cdef const int64_t* ru
    cdef const int32_t* sh
    cdef const int32_t* sr
    cdef bint words
    ph_a = np.empty(hw.shape[0], dtype=np.int32)
    pr_a = np.empty(hw.shape[0], dtype=np.int32)
    pair_off_a = np.zeros(U + 1, dtype=np.int64)
    lh_a = np.empty(lh.shape[0], dtype=np.int32)
    lhs_a = np.empty(lh.shape[0], dtype=np.int64)
    lh_off_a = np.zeros(U + 1, dtype=np.int64)
    lr_a = np.empty(lr.shape[0], dtype=np.int32)
    lrs_a = np.empty(lr.shape[0], dtype=np.int64)
    lr_off_a = np.zeros(U + 1, dtype=np.int64)
    cdef int32_t[::1] oph = ph_a, opr = pr_a, olh = lh_a, olr = lr_a
    cdef int64_t[::1] opair_off = pair_off_a, olh_off = lh_off_a, olr_off = lr_off_a, lhs = lhs_a, lrs = lrs_a
    for u in range(U):
        n0 = pair_off[u + 1] - pair_off[u]
        for k in range(n0):
            oph[npairs + k] = ph[pair_off[u] + k]
            opr[npairs + k] = pr[pair_off[u] + k]
        npairs += n0
        nh1 = lh_off[u + 1] - lh_off[u]
        nr1 = lr_off[u + 1] - lr_off[u]
        if nh1 == 0 or nr1 == 0:
            opair_off[u + 1] = npairs
            olh_off[u + 1] = nlh
            olr_off[u + 1] = nlr
            continue
        hu = &hw[h_off[u]]
        ru = &rw[r_off[u]]
        sh, sr = &lh[lh_off[u]], &lr[lr_off[u]]     # stage-3 input: the exact leftovers, as words ...
        nh2, nr2 = nh1, nr1
        words = True
        if stem:
            w.reserve(nh1 if nh1 > nr1 else nr1)
            for k in range(nh1):
                w.pos_h[k] = sh[k]
                w.kh[k] = stem_of[hu[sh[k]]]
            for k in range(nr1):
                w.pos_r[k] = sr[k]
                w.kr[k] = stem_of[ru[sr[k]]]
            np_ = w.equal_stage(nh1, nr1, 0, &nh2, &nr2)
            for k in range(np_):
                oph[npairs + k] = w.ph[k]
                opr[npairs + k] = w.pr[k]
            npairs += np_
            if after_exact:                  # ... or the exact leftovers (NLTK 3.5) ...
                nh2, nr2 = nh1, nr1
            else:                            # ... or the stem leftovers, as stems
                sh, sr = w.left_h, w.left_r
                words = False
        opair_off[u + 1] = npairs
        if nh2 and nr2:
            for k in range(nh2):
                olh[nlh] = sh[k]
                lhs[nlh] = hu[sh[k]] if words else stem_of[hu[sh[k]]]
                nlh += 1
            for k in range(nr2):
                olr[nlr] = sr[k]
                lrs[nlr] = ru[sr[k]] if words else stem_of[ru[sr[k]]]
                nlr += 1
        olh_off[u + 1] = nlh
        olr_off[u + 1] = nlr
    return ph_a, pr_a, pair_off_a, lh_a[:nlh], lhs_a[:nlh], lh_off_a, lr_a[:nlr], lrs_a[:nlr], lr_off_a


cdef inline bint _related(const int64_t* rel, Py_ssize_t n, int64_t key) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if rel[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo < n and rel[lo] == key


cdef double _value(double hyp_len, double ref_len, double matches, double chunks, double alpha, double beta,
                   double gamma) noexcept nogil:
    """:func:`nltk_rows.meteor_value` (0.0 wherever NLTK's arithmetic divides by zero)."""
    cdef double precision, recall, den, fmean, frag, penalty
    if hyp_len == 0 or ref_len == 0:
        return 0.0
    precision = matches / hyp_len
    recall = matches / ref_len
    den = alpha * precision + (1 - alpha) * recall
    if den == 0:
        return 0.0
    fmean = (precision * recall) / den
    if matches == 0:
        return 0.0
    frag = chunks / matches
    penalty = gamma * pow(frag, beta)
    return (1 - penalty) * fmean


def scores(const double[::1] hyp_len, const double[::1] ref_len, const double[::1] matches,
           const double[::1] chunks, double alpha, double beta, double gamma):
    """:func:`nltk_rows.meteor_value` of every pair (element ``u`` of the four arrays), float64."""
    cdef Py_ssize_t u, n = hyp_len.shape[0]
    if ref_len.shape[0] != n or matches.shape[0] != n or chunks.shape[0] != n:
        raise ValueError("scores: the four arrays must have one length")
    values_a = np.empty(n, dtype=np.float64)
    cdef double[::1] values = values_a
    with nogil:
        for u in range(n):
            values[u] = _value(hyp_len[u], ref_len[u], matches[u], chunks[u], alpha, beta, gamma)
    return values_a


def synonym_score(const int32_t[::1] ph, const int32_t[::1] pr, const int64_t[::1] pair_off,
                  const int32_t[::1] lh, const int64_t[::1] lhs, const int64_t[::1] lh_off,
                  const int32_t[::1] lr, const int64_t[::1] lrs, const int64_t[::1] lr_off,
                  const int64_t[::1] rel, int64_t n_words, const int64_t[::1] h_len, const int64_t[::1] r_len,
                  double alpha, double beta, double gamma):
    """The synonym stage (relation ``rel``: sorted ``h * n_words + r``; empty: no stage), then
    (matches, chunks, score) of every unit."""
    cdef _Work w = _work
    cdef Py_ssize_t U = pair_off.shape[0] - 1, u, k, t, n, a, b, m, H
    cdef int64_t base
    cdef int32_t h0, r0
    cdef Py_ssize_t chunks
    # words in some related pair: the others are skipped
    h_any_a = np.zeros(n_words, dtype=np.uint8)
    r_any_a = np.zeros(n_words, dtype=np.uint8)
    if rel.shape[0]:
        h_any_a[np.asarray(rel) // n_words] = 1
        r_any_a[np.asarray(rel) % n_words] = 1
    cdef const uint8_t[::1] h_any = h_any_a, r_any = r_any_a
    matches_a = np.zeros(U, dtype=np.int64)
    chunks_a = np.zeros(U, dtype=np.int64)
    values_a = np.zeros(U, dtype=np.float64)
    cdef int64_t[::1] matches = matches_a, chunk_out = chunks_a
    cdef double[::1] values = values_a
    for u in range(U):
        H = h_len[u]
        n = pair_off[u + 1] - pair_off[u]
        w.reserve(H + (lr_off[u + 1] - lr_off[u]) + n)
        for k in range(n):
            w.ph[k] = ph[pair_off[u] + k]
            w.pr[k] = pr[pair_off[u] + k]
        if rel.shape[0]:
            a = lr_off[u + 1] - lr_off[u]
            for k in range(a):
                w.used[k] = not r_any[lrs[lr_off[u] + k]]
            for t in range(lh_off[u + 1] - 1, lh_off[u] - 1, -1):
                if not h_any[lhs[t]]:
                    continue
                base = lhs[t] * n_words
                for k in range(a - 1, -1, -1):
                    if not w.used[k] and _related(&rel[0], rel.shape[0], base + lrs[lr_off[u] + k]):
                        w.used[k] = 1
                        w.ph[n] = lh[t]
                        w.pr[n] = lr[lr_off[u] + k]
                        n += 1
                        break
        matches[u] = n
        if n:
            # pairs in hypothesis order, stable (counting sort by position)
            for k in range(H + 1):
                w.count[k] = 0
            for k in range(n):
                w.count[w.ph[k] + 1] += 1
            for k in range(H):
                w.count[k + 1] += w.count[k]
            for k in range(n):
                m = w.count[w.ph[k]]
                w.oh[m] = w.ph[k]
                w.orr[m] = w.pr[k]
                w.count[w.ph[k]] = m + 1
            chunks = 1
            h0, r0 = w.oh[0], w.orr[0]
            for k in range(1, n):
                if w.oh[k] != h0 + 1 or w.orr[k] != r0 + 1:
                    chunks += 1
                h0, r0 = w.oh[k], w.orr[k]
            chunk_out[u] = chunks
        values[u] = _value(<double>H, <double>r_len[u], <double>n, <double>chunk_out[u], alpha, beta, gamma)
    return matches_a, chunks_a, values_a
