"""Compiled twin of :func:`assay.metrics.rouge.space_lcs.space_lcs_py` (the same integers).

Each caption is split on U+0020 in place: a token is a span of the string's code units (every kind
of ``str``), with its length and an FNV-1a hash of its code points; two tokens are equal when their
hashes, lengths and code points are. The hypothesis's distinct tokens go into a small
open-addressing table with their match masks; a reference token finds its mask there (none: no
match); the LCS runs the bit-parallel recurrence over ``ceil(limit / 64)`` 64-bit words (the addition
carries from word to word).
"""
import numpy as np

from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcmp, memset


cdef extern from "Python.h":
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int kind, void* data, Py_ssize_t index) nogil


ctypedef fused code_unit:         # a str's storage: 1, 2 or 4 bytes per code point
    uint8_t
    uint16_t
    uint32_t


cdef inline Py_ssize_t _split_units(const code_unit* data, Py_ssize_t length, Py_ssize_t limit, Py_ssize_t* start,
                                    Py_ssize_t* size, uint64_t* hashes) noexcept:
    """:func:`_split` over the code points ``data[:length]`` (one compiled loop per width)."""
    cdef Py_ssize_t j, n = 0, begin = 0
    cdef uint64_t h = 1469598103934665603ULL
    cdef Py_UCS4 c
    for j in range(length + 1):
        c = data[j] if j < length else 32
        if c == 32:
            if n == limit:
                return -1
            start[n] = begin
            size[n] = j - begin
            hashes[n] = h
            n += 1
            begin = j + 1
            h = 1469598103934665603ULL
        else:
            h = (h ^ <uint64_t>c) * 1099511628211ULL
    return n


cdef Py_ssize_t _split(object text, Py_ssize_t limit, Py_ssize_t* start, Py_ssize_t* size, uint64_t* hashes,
                       int* kind, void** data):
    """Tokens of ``text.split(" ")`` into the arrays, ``text``'s kind and data into ``kind``/``data``;
    their number, -1 past ``limit``, -2 when ``text`` is not a ``str``."""
    if type(text) is not str:
        return -2
    kind[0] = PyUnicode_KIND(text)
    data[0] = PyUnicode_DATA(text)
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text)
    if kind[0] == 1:                      # latin-1 strings: the bytes themselves
        return _split_units(<const uint8_t*>data[0], length, limit, start, size, hashes)
    if kind[0] == 2:
        return _split_units(<const uint16_t*>data[0], length, limit, start, size, hashes)
    return _split_units(<const uint32_t*>data[0], length, limit, start, size, hashes)


cdef bint _same(int ka, void* da, Py_ssize_t sa, int kb, void* db, Py_ssize_t sb, Py_ssize_t n):
    cdef Py_ssize_t j
    if ka == kb:
        return memcmp(<char*>da + sa * ka, <char*>db + sb * kb, n * ka) == 0
    for j in range(n):
        if PyUnicode_READ(ka, da, sa + j) != PyUnicode_READ(kb, db, sb + j):
            return False
    return True


def space_lcs(list hyps, list refs, Py_ssize_t limit):
    """``(hits, ref_len, peer_len, n_refs)``; None when a text has more than ``limit`` tokens; the
    0-based index of the first document without a reference (an int) when there is one; False when
    a text is not a ``str`` (the caller runs the pure function). ``refs[k][i]`` must exist."""
    cdef Py_ssize_t n = len(hyps), width = len(refs), i, k, j, w, t, m, mr, words, pairs = 0, count
    cdef Py_ssize_t* hs = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* hz = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef uint64_t* hh = <uint64_t*>malloc((limit + 1) * sizeof(uint64_t))
    cdef Py_ssize_t* rs = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* rz = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef uint64_t* rh = <uint64_t*>malloc((limit + 1) * sizeof(uint64_t))
    cdef Py_ssize_t n_words = limit // 64 + 1
    cdef uint64_t* v = <uint64_t*>malloc(n_words * sizeof(uint64_t))
    cdef uint64_t* u = <uint64_t*>malloc(n_words * sizeof(uint64_t))
    cdef uint64_t top, s, carry, x, nz, t_carry
    cdef int hk, rk
    cdef void* hd
    cdef void* rd
    cdef int64_t lcs
    # the hypothesis's distinct tokens: open addressing on their hashes (slots -> distinct token d,
    # -1 empty), d's first position and its match mask over the hypothesis
    cdef Py_ssize_t n_slots = 1, slot, d, nd, nu
    while n_slots < 2 * (limit + 1):
        n_slots *= 2
    cdef Py_ssize_t* slots = <Py_ssize_t*>malloc(n_slots * sizeof(Py_ssize_t))
    cdef Py_ssize_t* used = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef Py_ssize_t* rep = <Py_ssize_t*>malloc((limit + 1) * sizeof(Py_ssize_t))
    cdef uint64_t* masks = <uint64_t*>malloc((limit + 1) * n_words * sizeof(uint64_t))
    if not (hs and hz and hh and rs and rz and rh and v and u and slots and used and rep and masks):
        free(hs); free(hz); free(hh); free(rs); free(rz); free(rh); free(v); free(u)
        free(slots); free(used); free(rep); free(masks)
        raise MemoryError()
    for slot in range(n_slots):
        slots[slot] = -1
    hits_a = np.empty(n * width, dtype=np.float64)
    ref_a = np.empty(n * width, dtype=np.float64)
    peer_a = np.empty(n * width, dtype=np.float64)
    nref_a = np.empty(n, dtype=np.int64)
    cdef double[::1] hits = hits_a, ref_len = ref_a, peer_len = peer_a
    cdef int64_t[::1] n_refs = nref_a
    try:
        for i in range(n):
            h = hyps[i]          # held by the list: its data stays valid
            m = _split(h, limit, hs, hz, hh, &hk, &hd)
            if m < 0:
                return False if m == -2 else None
            words = (m + 63) // 64
            top = (~0ULL) if m % 64 == 0 else ((1ULL << (m % 64)) - 1)
            nd = 0
            nu = 0
            for j in range(m):
                slot = <Py_ssize_t>(hh[j] & <uint64_t>(n_slots - 1))
                while slots[slot] >= 0:
                    d = slots[slot]
                    if hh[rep[d]] == hh[j] and hz[rep[d]] == hz[j] and _same(hk, hd, hs[rep[d]], hk, hd, hs[j], hz[j]):
                        break
                    slot = (slot + 1) & (n_slots - 1)
                if slots[slot] < 0:
                    d = nd
                    nd += 1
                    slots[slot] = d
                    used[nu] = slot
                    nu += 1
                    rep[d] = j
                    memset(masks + d * n_words, 0, words * sizeof(uint64_t))
                else:
                    d = slots[slot]
                masks[d * n_words + (j >> 6)] |= 1ULL << (j & 63)
            count = 0
            for k in range(width):
                stream = <list>refs[k]
                r = stream[i]
                if r is None:
                    continue
                mr = _split(r, limit, rs, rz, rh, &rk, &rd)
                if mr < 0:
                    return False if mr == -2 else None
                for w in range(words):
                    v[w] = ~0ULL
                v[words - 1] = top
                for t in range(mr):
                    slot = <Py_ssize_t>(rh[t] & <uint64_t>(n_slots - 1))
                    d = -1
                    while slots[slot] >= 0:
                        j = rep[slots[slot]]
                        if hh[j] == rh[t] and hz[j] == rz[t] and _same(hk, hd, hs[j], rk, rd, rs[t], rz[t]):
                            d = slots[slot]
                            break
                        slot = (slot + 1) & (n_slots - 1)
                    if d < 0:
                        continue
                    nz = 0
                    for w in range(words):
                        u[w] = masks[d * n_words + w] & v[w]
                        nz |= u[w]
                    if nz:
                        carry = 0
                        for w in range(words):
                            x = v[w]
                            s = x + u[w]
                            t_carry = s < x
                            s = s + carry
                            carry = t_carry | (s < carry)
                            v[w] = s | (x ^ u[w])
                        v[words - 1] &= top
                lcs = m
                for w in range(words):
                    lcs -= __builtin_popcountll(v[w])
                hits[pairs] = <double>lcs
                ref_len[pairs] = <double>mr
                peer_len[pairs] = <double>m
                pairs += 1
                count += 1
            for k in range(nu):
                slots[used[k]] = -1
            if count == 0:
                return i
            n_refs[i] = count
    finally:
        free(hs); free(hz); free(hh); free(rs); free(rz); free(rh); free(v); free(u)
        free(slots); free(used); free(rep); free(masks)
    return hits_a[:pairs].copy(), ref_a[:pairs].copy(), peer_a[:pairs].copy(), nref_a


cdef extern int __builtin_popcountll(unsigned long long) nogil
