"""Compiled twin of :mod:`assay.metrics.meteor.meteor15.best`: METEOR 1.5 candidates, the jar's
alignment search, the statistics and the score, in C, equal bit for bit to the pure path.

One :class:`Aligner` holds the corpus's word table (ids into it; :func:`best.word_table`), the
paraphrase index with its filter (:func:`index_filter`) and the parameters. Per hypothesis/reference
pair:

- candidates (:func:`align.candidates`, same order): exact, stem, synonym on word ids (equal ids,
  equal stem ids with different words, intersecting sorted synset-id lists with different words);
  paraphrase: every phrase of up to 7 words gets ``phrase_hash`` (BLAKE2b with an 8-byte digest,
  RFC 7693, computed here: a word's own hash once per word, longer phrases four at a time in the
  lanes of AVX2 registers where the CPU has them); a phrase passing a bloom filter of the table's
  sources finds its entries through a bucket directory (top bits of the hash -> a short sorted
  run of ``src``); each target is looked up in a small open-addressing table of the other side's
  phrase hashes whose chains keep the starts ascending; a hypothesis's phrases are hashed and
  looked up once for all its references; candidates go into one list per reference position by a
  stable counting sort;
- the search (:func:`align.resolve`): fixed candidates, then the beam over reference positions.
  A state's rank -- larger search total, fewer chunks, smaller distance -- is packed into one
  64-bit key (:func:`_key`); each step keeps only the first ``beam`` children in rank order, a
  child going in after its equals (the pure path's stable sort, then ``[:beam]``), and only those
  are built: hypothesis/reference bitsets copied, the match linked in an arena;
- statistics (:func:`align.alignment_stats`) and score (:func:`score.parts`, the same floating-point
  operations in the same order; ``pow`` is C's, as Python's float ``**``).

Buffers are sized for the longest segment and grown on demand; nothing is quadratic in memory.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from libc.math cimport pow

import numpy as np

cdef extern from *:
    """
    /* BLAKE2b (RFC 7693), unkeyed, 8-byte digest, returned as the little-endian integer of the digest */
    static const uint64_t ASSAY_B2B_IV[8] = {
        0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
        0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL};
    static const unsigned char ASSAY_B2B_SIGMA[12][16] = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
        {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
        {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
        {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
        {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
        {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
        {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
        {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
        {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
        {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};
    #define ASSAY_ROTR64(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
    #define ASSAY_B2B_G(a, b, c, d, x, y) do { \\
        v[a] = v[a] + v[b] + (x); v[d] = ASSAY_ROTR64(v[d] ^ v[a], 32); \\
        v[c] = v[c] + v[d];       v[b] = ASSAY_ROTR64(v[b] ^ v[c], 24); \\
        v[a] = v[a] + v[b] + (y); v[d] = ASSAY_ROTR64(v[d] ^ v[a], 16); \\
        v[c] = v[c] + v[d];       v[b] = ASSAY_ROTR64(v[b] ^ v[c], 63); } while (0)

    #define ASSAY_B2B_ROUND(r) do { \
        ASSAY_B2B_G(0, 4, 8, 12, m[ASSAY_B2B_SIGMA[r][0]], m[ASSAY_B2B_SIGMA[r][1]]); \
        ASSAY_B2B_G(1, 5, 9, 13, m[ASSAY_B2B_SIGMA[r][2]], m[ASSAY_B2B_SIGMA[r][3]]); \
        ASSAY_B2B_G(2, 6, 10, 14, m[ASSAY_B2B_SIGMA[r][4]], m[ASSAY_B2B_SIGMA[r][5]]); \
        ASSAY_B2B_G(3, 7, 11, 15, m[ASSAY_B2B_SIGMA[r][6]], m[ASSAY_B2B_SIGMA[r][7]]); \
        ASSAY_B2B_G(0, 5, 10, 15, m[ASSAY_B2B_SIGMA[r][8]], m[ASSAY_B2B_SIGMA[r][9]]); \
        ASSAY_B2B_G(1, 6, 11, 12, m[ASSAY_B2B_SIGMA[r][10]], m[ASSAY_B2B_SIGMA[r][11]]); \
        ASSAY_B2B_G(2, 7, 8, 13, m[ASSAY_B2B_SIGMA[r][12]], m[ASSAY_B2B_SIGMA[r][13]]); \
        ASSAY_B2B_G(3, 4, 9, 14, m[ASSAY_B2B_SIGMA[r][14]], m[ASSAY_B2B_SIGMA[r][15]]); } while (0)

    static void assay_b2b_compress(uint64_t h[8], const unsigned char *block, uint64_t t, int last) {
        uint64_t v[16], m[16];
        int i;
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(m, block, 128);
    #else
        for (i = 0; i < 16; i++) {
            uint64_t w = 0;
            int k;
            for (k = 7; k >= 0; k--) w = (w << 8) | block[8 * i + k];
            m[i] = w;
        }
    #endif
        for (i = 0; i < 8; i++) { v[i] = h[i]; v[i + 8] = ASSAY_B2B_IV[i]; }
        v[12] ^= t;
        if (last) v[14] = ~v[14];
        ASSAY_B2B_ROUND(0); ASSAY_B2B_ROUND(1); ASSAY_B2B_ROUND(2); ASSAY_B2B_ROUND(3);
        ASSAY_B2B_ROUND(4); ASSAY_B2B_ROUND(5); ASSAY_B2B_ROUND(6); ASSAY_B2B_ROUND(7);
        ASSAY_B2B_ROUND(8); ASSAY_B2B_ROUND(9); ASSAY_B2B_ROUND(10); ASSAY_B2B_ROUND(11);
        for (i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
    }

    static uint64_t assay_blake2b64(const unsigned char *data, size_t len) {
        uint64_t h[8];
        unsigned char block[128];
        size_t off = 0;
        memcpy(h, ASSAY_B2B_IV, sizeof h);
        h[0] ^= 0x01010000ULL ^ 8ULL;              /* depth 1, fanout 1, no key, 8-byte digest */
        while (len - off > 128) {
            assay_b2b_compress(h, data + off, (uint64_t)(off + 128), 0);
            off += 128;
        }
        memcpy(block, data + off, len - off);
        memset(block + (len - off), 0, 128 - (len - off));
        assay_b2b_compress(h, block, (uint64_t)len, 1);
        return h[0];
    }

    /* Four one-block messages at once (AVX2, one message per 64-bit lane): ``blocks`` holds four
       zero-padded 128-byte blocks, ``lens`` their lengths (each <= 128); the same rounds as
       assay_b2b_compress. Compiled for AVX2 only where GCC/Clang target attributes exist; callers
       check assay_have_avx2() first. */
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    #include <immintrin.h>
    #define ASSAY_HAVE_X4 1
    static int assay_have_avx2(void) { __builtin_cpu_init(); return __builtin_cpu_supports("avx2"); }

    __attribute__((target("avx2")))
    static void assay_blake2b64_x4(const unsigned char *blocks, const uint64_t lens[4], uint64_t out[4]) {
        __m256i v[16], m[16];
        const __m256i r16 = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9,
                                             2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);
        const __m256i r24 = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10,
                                             3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
        uint64_t w[4][16];
        int i;
        memcpy(w, blocks, sizeof w);            /* little-endian words (x86) */
        for (i = 0; i < 16; i++) m[i] = _mm256_setr_epi64x(w[0][i], w[1][i], w[2][i], w[3][i]);
        for (i = 0; i < 8; i++) {
            uint64_t hi = ASSAY_B2B_IV[i] ^ (i == 0 ? (0x01010000ULL ^ 8ULL) : 0);
            v[i] = _mm256_set1_epi64x((long long)hi);
            v[i + 8] = _mm256_set1_epi64x((long long)ASSAY_B2B_IV[i]);
        }
        v[12] = _mm256_xor_si256(v[12], _mm256_setr_epi64x(lens[0], lens[1], lens[2], lens[3]));
        v[14] = _mm256_xor_si256(v[14], _mm256_set1_epi64x(-1));
    #define ASSAY_X4_G(a, b, c, d, x, y) do { \
        v[a] = _mm256_add_epi64(_mm256_add_epi64(v[a], v[b]), (x)); \
        v[d] = _mm256_shuffle_epi32(_mm256_xor_si256(v[d], v[a]), _MM_SHUFFLE(2, 3, 0, 1)); \
        v[c] = _mm256_add_epi64(v[c], v[d]); \
        v[b] = _mm256_shuffle_epi8(_mm256_xor_si256(v[b], v[c]), r24); \
        v[a] = _mm256_add_epi64(_mm256_add_epi64(v[a], v[b]), (y)); \
        v[d] = _mm256_shuffle_epi8(_mm256_xor_si256(v[d], v[a]), r16); \
        v[c] = _mm256_add_epi64(v[c], v[d]); \
        v[b] = _mm256_xor_si256(v[b], v[c]); \
        v[b] = _mm256_or_si256(_mm256_srli_epi64(v[b], 63), _mm256_add_epi64(v[b], v[b])); } while (0)
    #define ASSAY_X4_ROUND(r) do { \
        ASSAY_X4_G(0, 4, 8, 12, m[ASSAY_B2B_SIGMA[r][0]], m[ASSAY_B2B_SIGMA[r][1]]); \
        ASSAY_X4_G(1, 5, 9, 13, m[ASSAY_B2B_SIGMA[r][2]], m[ASSAY_B2B_SIGMA[r][3]]); \
        ASSAY_X4_G(2, 6, 10, 14, m[ASSAY_B2B_SIGMA[r][4]], m[ASSAY_B2B_SIGMA[r][5]]); \
        ASSAY_X4_G(3, 7, 11, 15, m[ASSAY_B2B_SIGMA[r][6]], m[ASSAY_B2B_SIGMA[r][7]]); \
        ASSAY_X4_G(0, 5, 10, 15, m[ASSAY_B2B_SIGMA[r][8]], m[ASSAY_B2B_SIGMA[r][9]]); \
        ASSAY_X4_G(1, 6, 11, 12, m[ASSAY_B2B_SIGMA[r][10]], m[ASSAY_B2B_SIGMA[r][11]]); \
        ASSAY_X4_G(2, 7, 8, 13, m[ASSAY_B2B_SIGMA[r][12]], m[ASSAY_B2B_SIGMA[r][13]]); \
        ASSAY_X4_G(3, 4, 9, 14, m[ASSAY_B2B_SIGMA[r][14]], m[ASSAY_B2B_SIGMA[r][15]]); } while (0)
        ASSAY_X4_ROUND(0); ASSAY_X4_ROUND(1); ASSAY_X4_ROUND(2); ASSAY_X4_ROUND(3);
        ASSAY_X4_ROUND(4); ASSAY_X4_ROUND(5); ASSAY_X4_ROUND(6); ASSAY_X4_ROUND(7);
        ASSAY_X4_ROUND(8); ASSAY_X4_ROUND(9); ASSAY_X4_ROUND(10); ASSAY_X4_ROUND(11);
        {   /* h[0] of each lane: IV[0] ^ param ^ v[0] ^ v[8] */
            __m256i h0 = _mm256_xor_si256(_mm256_set1_epi64x((long long)(ASSAY_B2B_IV[0] ^ 0x01010000ULL ^ 8ULL)),
                                          _mm256_xor_si256(v[0], v[8]));
            _mm256_storeu_si256((__m256i *)out, h0);
        }
    }
    #else
    #define ASSAY_HAVE_X4 0
    static int assay_have_avx2(void) { return 0; }
    static void assay_blake2b64_x4(const unsigned char *blocks, const uint64_t lens[4], uint64_t out[4]) {
        int k;
        for (k = 0; k < 4; k++) out[k] = assay_blake2b64(blocks + 128 * k, (size_t)lens[k]);
    }
    #endif
    """
    uint64_t assay_blake2b64(const unsigned char* data, size_t length) nogil
    int assay_have_avx2() nogil
    void assay_blake2b64_x4(const unsigned char* blocks, const uint64_t* lens, uint64_t* out) nogil


DEF MAX_PHRASE = 7


DEF BLOOM_WORDS_LOG2 = 17            # 2^17 words of 64 bits: 1 MiB


def index_filter(const uint64_t[::1] src, int bits):
    """(directory, bloom) of the sorted source hashes ``src``, in one pass.

    The directory: ``src[d[b]:d[b + 1]]`` are the hashes whose top ``bits`` bits are b. The bloom
    filter (blocked, two bits in one 64-bit word chosen by bits 12-28 of the hash; bits 0-11 pick
    the two bits): a phrase whose hash fails it is not a source, and costs no directory read."""
    cdef Py_ssize_t n = src.shape[0], k = 0
    cdef int64_t b, n_buckets = (<int64_t>1) << bits
    cdef int shift = 64 - bits
    cdef uint64_t h
    if n >= 2 ** 31:
        raise OverflowError("paraphrase index too large for 32-bit offsets")
    out = np.empty(n_buckets + 1, dtype=np.int32)
    bloom = np.zeros(1 << BLOOM_WORDS_LOG2, dtype=np.uint64)
    cdef int32_t[::1] d = out
    cdef uint64_t[::1] bl = bloom
    for b in range(n_buckets + 1):
        while k < n and <int64_t>(src[k] >> shift) < b:
            k += 1
        d[b] = <int32_t>k
    for k in range(n):
        h = src[k]
        bl[(h >> 12) & ((1 << BLOOM_WORDS_LOG2) - 1)] |= _bloom_bits(h)
    return out, bloom


cdef inline uint64_t _bloom_bits(uint64_t h) noexcept nogil:
    return ((<uint64_t>1) << (h & 63)) | ((<uint64_t>1) << ((h >> 6) & 63))


cdef bint HAVE_X4 = assay_have_avx2()


def use_simd(bint on):
    """Hash four phrases at a time when ``on`` and the CPU has AVX2 (the default), else one at a
    time; returns whether the four-lane path is in use (for the tests of both paths)."""
    global HAVE_X4
    HAVE_X4 = on and assay_have_avx2()
    return HAVE_X4


def blake2b64(bytes data):
    """``phrase_hash`` of UTF-8 ``data`` (exposed for the equality tests)."""
    return assay_blake2b64(<const unsigned char*>data, len(data))


def blake2b64_batch(list items):
    """``phrase_hash`` of each UTF-8 ``bytes`` in ``items``, four at a time where AVX2 is present and
    they fit one block (exposed for the equality tests)."""
    cdef unsigned char blocks[512]
    cdef uint64_t lens[4]
    cdef uint64_t out[4]
    cdef Py_ssize_t k, j, n = len(items)
    cdef bytes b
    res = [0] * n
    k = 0
    while k < n:
        if HAVE_X4 and k + 4 <= n and all(len(items[k + j]) <= 128 for j in range(4)):
            memset(blocks, 0, 512)
            for j in range(4):
                b = items[k + j]
                memcpy(blocks + 128 * j, <const unsigned char*>b, len(b))
                lens[j] = len(b)
            assay_blake2b64_x4(blocks, lens, out)
            for j in range(4):
                res[k + j] = out[j]
            k += 4
        else:
            b = items[k]
            res[k] = assay_blake2b64(<const unsigned char*>b, len(b))
            k += 1
    return res


cdef struct Cand:
    int32_t h, hl, r, rl, mod
    int32_t gain             # search total added: floor(len·w) per side, w = 1 (exact) or 0.5
    int32_t off              # |r − h|


cdef struct State:
    int64_t total            # search total (the pure path keeps its negative)
    int64_t ch               # chunks closed so far
    int64_t dist             # distance
    int32_t next_ref         # next reference position free of the last placed match
    int32_t open_end         # hypothesis end of the open chunk, −1 if none
    int32_t link             # last placed match (node index), −1 if none


cdef struct Child:
    # a state of the next step, before it is built: its rank, its parent and what it adds
    uint64_t key             # the rank as one number (:func:`_key`)
    int32_t parent           # index of the expanded state
    int32_t cand             # the match placed (index into the lists), −1 if none
    int32_t new_bits         # 1 if the match's words are to be marked used (not a fixed match)
    int32_t next_ref, open_end


cdef struct Node:
    int32_t cand, parent


cdef struct Side:
    # every phrase (start ascending, then length): hash, start, length; chains of equal hashes
    uint64_t* hash
    int32_t* start
    int32_t* n
    int32_t* next            # next phrase with the same hash (start ascending), −1
    int32_t* run_lo          # its entries in the paraphrase index: src[run_lo:run_hi] (empty if none)
    int32_t* run_hi
    int32_t count
    int32_t cap
    uint64_t* slot_hash      # open addressing: hash -> first and last phrase of its chain
    int32_t* slot_head
    int32_t* slot_tail
    int32_t n_slots


# A state's rank (larger search total, then fewer chunks, then a smaller distance) packed into one
# unsigned number that orders the same way: (MAX_TOTAL − total) · 2^44 + chunks · 2^28 + distance.
# A pair whose bounds (total <= H + R, chunks <= R + 1, distance <= the sum of every candidate's
# offset) do not fit the fields is left to the pure path (never for real sentences).
DEF TOTAL_BITS = 20
DEF CHUNK_BITS = 16
DEF DIST_BITS = 28


cdef inline uint64_t _key(int64_t total, int64_t ch, int64_t dist) noexcept nogil:
    return ((<uint64_t>(((<int64_t>1) << TOTAL_BITS) - 1 - total)) << (CHUNK_BITS + DIST_BITS)) \
        | ((<uint64_t>ch) << DIST_BITS) | <uint64_t>dist


cdef inline bint _cand_less(const Cand* a, const Cand* b) noexcept nogil:
    if a.h != b.h:
        return a.h < b.h
    if a.hl != b.hl:
        return a.hl < b.hl
    if a.r != b.r:
        return a.r < b.r
    if a.rl != b.rl:
        return a.rl < b.rl
    return a.mod < b.mod


cdef inline void* _grow(void* p, Py_ssize_t* cap, Py_ssize_t need, Py_ssize_t item) except NULL:
    """``p`` with room for ``need`` items (capacity doubled as needed)."""
    cdef Py_ssize_t c = cap[0]
    cdef void* q
    if need <= c and p != NULL:
        return p
    if c < 16:
        c = 16
    while c < need:
        c *= 2
    q = realloc(p, c * item)
    if q == NULL:
        raise MemoryError()
    cap[0] = c
    return q


cdef void _side_free(Side* s) noexcept nogil:
    free(s.hash)
    free(s.start)
    free(s.n)
    free(s.next)
    free(s.run_lo)
    free(s.run_hi)
    free(s.slot_hash)
    free(s.slot_head)
    free(s.slot_tail)
    memset(s, 0, sizeof(Side))


cdef double _score_of(const double* s, double alpha, double beta, double gamma, double delta,
                      const double* weights) noexcept nogil:
    """:func:`score.parts` ``["score"]`` of the 23 statistics ``s`` (same operations, same order)."""
    cdef int i
    cdef double tl, rl, tfw, rfw, tw, rw, tm = 0.0, rm = 0.0, p, r, fmean, chunks, tmw, rmw, frag, pen, v, w
    tl, rl, tfw, rfw = s[0], s[1], s[2], s[3]
    tw = delta * (tl - tfw) + (1 - delta) * tfw
    rw = delta * (rl - rfw) + (1 - delta) * rfw
    for i in range(4):
        w = weights[i]
        tm += s[4 + 4 * i] * w * delta
        rm += s[5 + 4 * i] * w * delta
    for i in range(4):
        w = weights[i]
        tm += s[6 + 4 * i] * w * (1 - delta)
        rm += s[7 + 4 * i] * w * (1 - delta)
    p = tm / tw if tw > 0 else 0.0
    r = rm / rw if rw > 0 else 0.0
    if p == 0 or r == 0:
        return 0.0
    fmean = 1 / ((1 - alpha) / p + alpha / r)
    chunks, tmw, rmw = s[20], s[21], s[22]
    if tmw == tl and rmw == rl and chunks == 1:
        frag = 0.0
    else:
        frag = chunks / ((tmw + rmw) / 2)
    pen = gamma * pow(frag, beta)
    v = fmean * (1 - pen)
    return 0.0 if 0.0 > v else v


def unit_scores(const double[:, ::1] stats, double alpha, double beta, double gamma, double delta,
                const double[::1] weights):
    """The score of each row of 23 statistics (:func:`score.parts` ``["score"]``)."""
    cdef Py_ssize_t n = stats.shape[0], k
    cdef double w[4]
    for k in range(4):
        w[k] = weights[k]
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] o = out
    for k in range(n):
        o[k] = _score_of(&stats[k, 0], alpha, beta, gamma, delta, w)
    return out


def first_best(const double[::1] values, const int64_t[::1] units):
    """Per segment (its pairs ``units[s]..units[s+1]−1``), the index of its first highest value
    (``value > best``, as the jar)."""
    cdef Py_ssize_t S = units.shape[0] - 1, s, u, b
    out = np.zeros(S, dtype=np.int64)
    cdef int64_t[::1] o = out
    for s in range(S):
        b = units[s]
        for u in range(units[s] + 1, units[s + 1]):
            if values[u] > values[b]:
                b = u
        o[s] = b
    return out


cdef class Aligner:
    """The corpus's words, the paraphrase index and the parameters; :meth:`unit_rows` and :meth:`units`."""

    cdef const unsigned char* blob
    cdef bytes blob_ref
    cdef const int64_t[::1] w_off
    cdef const int64_t[::1] w_stem
    cdef const int64_t[::1] w_syn_off
    cdef const int64_t[::1] w_syn
    cdef const uint8_t[::1] w_fw
    cdef uint64_t* w_hash                  # each word's phrase hash (paraphrase module only)
    cdef uint64_t* syn_mask                # per synset id: hypothesis positions (zero between pairs)
    cdef int64_t* touched                  # the synsets set in syn_mask
    cdef const uint64_t[::1] src
    cdef const uint64_t[::1] dst
    cdef const uint8_t[::1] dst_len
    cdef const int32_t[::1] directory
    cdef const uint64_t[::1] bloom
    cdef int shift
    cdef int64_t[::1] modules
    cdef int beam
    cdef double alpha, beta, gamma, delta
    cdef double weights[4]
    cdef bint para
    # work buffers
    cdef Cand* cands
    cdef Py_ssize_t cap_cands
    cdef Cand* lists                       # candidates grouped by reference start (stable)
    cdef Py_ssize_t cap_lists
    cdef int32_t* list_off
    cdef Py_ssize_t cap_list_off
    cdef int32_t* cover_h
    cdef Py_ssize_t cap_cover_h
    cdef int32_t* cover_r
    cdef Py_ssize_t cap_cover_r
    cdef int32_t* fixed_at
    cdef Py_ssize_t cap_fixed
    cdef State* cur
    cdef Py_ssize_t cap_cur
    cdef State* nxt
    cdef Py_ssize_t cap_nxt
    cdef uint64_t* cur_bits
    cdef Py_ssize_t cap_cur_bits
    cdef uint64_t* nxt_bits
    cdef Py_ssize_t cap_nxt_bits
    cdef Child* pool                       # the children kept at some point of a step
    cdef Py_ssize_t cap_pool
    cdef int32_t n_pool
    cdef int32_t* rank                     # pool indices of the first ``beam`` children, in rank order
    cdef Py_ssize_t cap_rank
    cdef uint64_t* rank_key                # ... and their keys
    cdef Py_ssize_t cap_rank_key
    cdef int32_t n_top
    cdef Node* nodes
    cdef Py_ssize_t cap_nodes
    cdef int32_t n_nodes
    cdef int32_t* chosen                   # indices into lists
    cdef Py_ssize_t cap_chosen
    cdef int32_t n_chosen
    cdef unsigned char* text               # phrase bytes
    cdef unsigned char blocks[512]         # four zero-padded one-block phrases, hashed together
    cdef uint64_t batch_lens[4]
    cdef uint64_t batch_out[4]
    cdef int32_t batch_at[4]               # their phrase indices
    cdef Py_ssize_t cap_text
    cdef Side hyp_side
    cdef Side ref_side
    cdef int64_t stats[23]
    cdef bint too_large                    # the last pair is beyond the key's bounds (see _key)
    cdef public int64_t max_ref            # the longest reference the key's chunk field takes (tests lower it)

    def __init__(self, bytes blob, const int64_t[::1] off, const int64_t[::1] stem, const int64_t[::1] syn_off,
                 const int64_t[::1] syn, const uint8_t[::1] function, const uint64_t[::1] src,
                 const uint64_t[::1] dst, const uint8_t[::1] dst_len, const int32_t[::1] directory,
                 const uint64_t[::1] bloom, int shift,
                 int64_t[::1] modules, int beam, double alpha, double beta, double gamma, double delta,
                 const double[::1] weights):
        cdef Py_ssize_t w, k, n_words
        cdef int64_t n_syn
        self.blob_ref = blob
        self.blob = <const unsigned char*>blob
        self.w_off = off
        self.w_stem = stem
        self.w_syn_off = syn_off
        self.w_syn = syn
        self.w_fw = function
        self.src = src
        self.dst = dst
        self.dst_len = dst_len
        self.directory = directory
        self.bloom = bloom
        self.shift = shift
        self.max_ref = ((<int64_t>1) << CHUNK_BITS) - 3
        self.modules = modules
        self.beam = beam
        self.alpha, self.beta, self.gamma, self.delta = alpha, beta, gamma, delta
        for k in range(4):
            self.weights[k] = weights[k]
        self.para = False
        for k in range(modules.shape[0]):
            if modules[k] == 3:
                self.para = True
        n_words = off.shape[0] - 1
        self.w_hash = <uint64_t*>malloc((n_words + 1) * sizeof(uint64_t))
        n_syn = 1
        for k in range(syn.shape[0]):
            if syn[k] >= n_syn:
                n_syn = syn[k] + 1
        self.syn_mask = <uint64_t*>calloc(n_syn, sizeof(uint64_t))
        self.touched = <int64_t*>malloc((syn.shape[0] + 1) * sizeof(int64_t))
        if self.w_hash == NULL or self.syn_mask == NULL or self.touched == NULL:
            raise MemoryError()
        if self.para:
            for w in range(n_words):
                self.w_hash[w] = assay_blake2b64(self.blob + off[w], off[w + 1] - off[w])

    def __dealloc__(self):
        free(self.w_hash)
        free(self.syn_mask)
        free(self.touched)
        free(self.cands)
        free(self.lists)
        free(self.list_off)
        free(self.cover_h)
        free(self.cover_r)
        free(self.fixed_at)
        free(self.cur)
        free(self.nxt)
        free(self.cur_bits)
        free(self.nxt_bits)
        free(self.pool)
        free(self.rank)
        free(self.rank_key)
        free(self.nodes)
        free(self.chosen)
        free(self.text)
        _side_free(&self.hyp_side)
        _side_free(&self.ref_side)

    # ------------------------------------------------------------------ phrases of one side
    cdef int _phrases(self, Side* side, const int64_t* ids, int32_t L) except -1:
        """Every phrase of ``ids`` (start ascending, then length 1..7) with its hash, and the chains."""
        cdef int32_t i, n, top, e, k, lo, hi, n_batch
        cdef Py_ssize_t need = 0, pos, wlen, cap
        cdef uint64_t h, m
        cdef int32_t slot, mask, n_slots
        for i in range(L):
            need += MAX_PHRASE if L - i > MAX_PHRASE else L - i
        if need > side.cap:
            _side_free(side)
            cap = need
            side.hash = <uint64_t*>malloc(cap * sizeof(uint64_t))
            side.start = <int32_t*>malloc(cap * sizeof(int32_t))
            side.n = <int32_t*>malloc(cap * sizeof(int32_t))
            side.next = <int32_t*>malloc(cap * sizeof(int32_t))
            side.run_lo = <int32_t*>malloc(cap * sizeof(int32_t))
            side.run_hi = <int32_t*>malloc(cap * sizeof(int32_t))
            n_slots = 16
            while n_slots < 2 * cap:
                n_slots *= 2
            side.slot_hash = <uint64_t*>malloc(n_slots * sizeof(uint64_t))
            side.slot_head = <int32_t*>malloc(n_slots * sizeof(int32_t))
            side.slot_tail = <int32_t*>malloc(n_slots * sizeof(int32_t))
            if (side.hash == NULL or side.start == NULL or side.n == NULL or side.next == NULL
                    or side.run_lo == NULL or side.run_hi == NULL
                    or side.slot_hash == NULL or side.slot_head == NULL or side.slot_tail == NULL):
                _side_free(side)
                raise MemoryError()
            side.cap = <int32_t>cap
            side.n_slots = n_slots
        side.count = <int32_t>need
        n_slots = side.n_slots
        mask = n_slots - 1
        for k in range(n_slots):
            side.slot_head[k] = -1
        # hashes: a word's own, else the phrase's bytes (four one-block phrases at a time with AVX2)
        e = 0
        n_batch = 0
        for i in range(L):
            top = MAX_PHRASE if L - i > MAX_PHRASE else L - i
            pos = 0
            for n in range(1, top + 1):
                side.start[e] = i
                side.n[e] = n
                if n == 1:
                    side.hash[e] = self.w_hash[ids[i]]
                else:
                    wlen = self.w_off[ids[i + n - 1] + 1] - self.w_off[ids[i + n - 1]]
                    if n == 2:
                        pos = self.w_off[ids[i] + 1] - self.w_off[ids[i]]
                        self.text = <unsigned char*>_grow(self.text, &self.cap_text, pos + 1 + wlen, 1)
                        memcpy(self.text, self.blob + self.w_off[ids[i]], pos)
                    else:
                        self.text = <unsigned char*>_grow(self.text, &self.cap_text, pos + 1 + wlen, 1)
                    self.text[pos] = 32
                    memcpy(self.text + pos + 1, self.blob + self.w_off[ids[i + n - 1]], wlen)
                    pos += 1 + wlen
                    if HAVE_X4 and pos <= 128:
                        memcpy(self.blocks + 128 * n_batch, self.text, pos)
                        memset(self.blocks + 128 * n_batch + pos, 0, 128 - pos)
                        self.batch_lens[n_batch] = pos
                        self.batch_at[n_batch] = e
                        n_batch += 1
                        if n_batch == 4:
                            assay_blake2b64_x4(self.blocks, self.batch_lens, self.batch_out)
                            for k in range(4):
                                side.hash[self.batch_at[k]] = self.batch_out[k]
                            n_batch = 0
                    else:
                        side.hash[e] = assay_blake2b64(self.text, pos)
                e += 1
        for k in range(n_batch):
            side.hash[self.batch_at[k]] = assay_blake2b64(self.blocks + 128 * k, self.batch_lens[k])
        # chains of equal hashes (start ascending)
        for e in range(side.count):
            h = side.hash[e]
            side.next[e] = -1
            slot = <int32_t>(h & mask)
            while side.slot_head[slot] != -1 and side.slot_hash[slot] != h:
                slot = (slot + 1) & mask
            if side.slot_head[slot] == -1:
                side.slot_hash[slot] = h
                side.slot_head[slot] = e
            else:
                side.next[side.slot_tail[slot]] = e
            side.slot_tail[slot] = e
        # the index entries of every phrase: directory bounds first, then the runs (independent loads)
        for e in range(side.count):
            h = side.hash[e]
            m = _bloom_bits(h)
            if self.bloom[(h >> 12) & ((1 << BLOOM_WORDS_LOG2) - 1)] & m == m:
                side.run_lo[e] = self.directory[h >> self.shift]
                side.run_hi[e] = self.directory[(h >> self.shift) + 1]
            else:
                side.run_lo[e] = side.run_hi[e] = 0
        for e in range(side.count):
            h = side.hash[e]
            lo = side.run_lo[e]
            hi = side.run_hi[e]
            while lo < hi and self.src[lo] < h:
                lo += 1
            k = lo
            while k < hi and self.src[k] == h:
                k += 1
            side.run_lo[e] = lo
            side.run_hi[e] = k
        return 0

    cdef inline int32_t _first_start(self, const Side* side, uint64_t h) noexcept nogil:
        """The first phrase of ``side`` with hash ``h`` (its chain follows ``next``), −1 if none."""
        cdef int32_t mask = side.n_slots - 1
        cdef int32_t slot = <int32_t>(h & mask)
        while side.slot_head[slot] != -1:
            if side.slot_hash[slot] == h:
                return side.slot_head[slot]
            slot = (slot + 1) & mask
        return -1

    # ------------------------------------------------------------------ candidates
    cdef inline int _add(self, Py_ssize_t* n, int32_t h, int32_t hl, int32_t r, int32_t rl, int32_t mod) except -1:
        cdef Cand* c
        self.cands = <Cand*>_grow(self.cands, &self.cap_cands, n[0] + 1, sizeof(Cand))
        c = &self.cands[n[0]]
        c.h, c.hl, c.r, c.rl, c.mod = h, hl, r, rl, mod
        c.gain = hl + rl if mod == 0 else hl // 2 + rl // 2
        c.off = r - h if r >= h else h - r
        n[0] += 1
        return 0

    cdef int _paraphrase_pass(self, Py_ssize_t* n, const Side* src_side, const Side* dst_side,
                              bint src_is_ref) except -1:
        """Candidates of every source phrase's table targets found on the other side (module docstring)."""
        cdef int32_t e, f, t
        cdef int32_t tl
        if src_side.count == 0 or dst_side.count == 0:
            return 0
        for e in range(src_side.count):
            for t in range(src_side.run_lo[e], src_side.run_hi[e]):
                f = self._first_start(dst_side, self.dst[t])
                tl = self.dst_len[t]
                while f != -1:
                    if src_is_ref:
                        self._add(n, dst_side.start[f], tl, src_side.start[e], src_side.n[e], 3)
                    else:
                        self._add(n, src_side.start[e], src_side.n[e], dst_side.start[f], tl, 3)
                    f = dst_side.next[f]
        return 0

    cdef int _synonym_candidates(self, Py_ssize_t* n, const int64_t* hyp, int32_t H, const int64_t* ref,
                                 int32_t R) except -1:
        """The synonym candidates of a hypothesis of at most 64 words: each synset's hypothesis
        positions as a bit mask, then per reference word the union over its synsets (positions
        ascending, words differing)."""
        cdef int32_t i, j, n_touched = 0
        cdef Py_ssize_t k
        cdef int64_t syn
        cdef uint64_t hits
        for i in range(H):
            for k in range(self.w_syn_off[hyp[i]], self.w_syn_off[hyp[i] + 1]):
                syn = self.w_syn[k]
                if self.syn_mask[syn] == 0:
                    self.touched[n_touched] = syn
                    n_touched += 1
                self.syn_mask[syn] |= (<uint64_t>1) << i
        if n_touched:
            for j in range(R):
                hits = 0
                for k in range(self.w_syn_off[ref[j]], self.w_syn_off[ref[j] + 1]):
                    hits |= self.syn_mask[self.w_syn[k]]
                i = 0
                while hits:
                    if hits & 1 and hyp[i] != ref[j]:
                        self._add(n, i, 1, j, 1, 2)
                    hits >>= 1
                    i += 1
            for k in range(n_touched):
                self.syn_mask[self.touched[k]] = 0
        return 0

    cdef bint _synonyms(self, int64_t a, int64_t b) noexcept nogil:
        """Whether the sorted synset lists of words ``a`` and ``b`` meet."""
        cdef Py_ssize_t i = self.w_syn_off[a], ie = self.w_syn_off[a + 1]
        cdef Py_ssize_t j = self.w_syn_off[b], je = self.w_syn_off[b + 1]
        while i < ie and j < je:
            if self.w_syn[i] == self.w_syn[j]:
                return True
            if self.w_syn[i] < self.w_syn[j]:
                i += 1
            else:
                j += 1
        return False

    cdef Py_ssize_t _candidates(self, const int64_t* hyp, int32_t H, const int64_t* ref, int32_t R) except -1:
        """Fill ``lists``/``list_off``: the candidate lists per reference start, in the jar's order."""
        cdef Py_ssize_t n = 0, k, n_mods = self.modules.shape[0]
        cdef int32_t i, j, mod
        cdef bint same = H == R
        if same:
            for i in range(H):
                if hyp[i] != ref[i]:
                    same = False
                    break
        if same and n_mods > 1:
            n_mods = 1
        for k in range(n_mods):
            mod = <int32_t>self.modules[k]
            if mod == 0:
                for j in range(R):
                    for i in range(H):
                        if hyp[i] == ref[j]:
                            self._add(&n, i, 1, j, 1, 0)
            elif mod == 1:
                for j in range(R):
                    for i in range(H):
                        if hyp[i] != ref[j] and self.w_stem[hyp[i]] == self.w_stem[ref[j]]:
                            self._add(&n, i, 1, j, 1, 1)
            elif mod == 2 and H <= 64:
                self._synonym_candidates(&n, hyp, H, ref, R)
            elif mod == 2:
                for j in range(R):
                    if self.w_syn_off[ref[j]] == self.w_syn_off[ref[j] + 1]:
                        continue
                    for i in range(H):
                        if hyp[i] != ref[j] and self._synonyms(hyp[i], ref[j]):
                            self._add(&n, i, 1, j, 1, 2)
            elif mod == 3:
                self._phrases(&self.ref_side, ref, R)
                self._paraphrase_pass(&n, &self.ref_side, &self.hyp_side, True)
                self._paraphrase_pass(&n, &self.hyp_side, &self.ref_side, False)
        # stable counting sort by reference start
        self.list_off = <int32_t*>_grow(self.list_off, &self.cap_list_off, R + 2, sizeof(int32_t))
        self.lists = <Cand*>_grow(self.lists, &self.cap_lists, n + 1, sizeof(Cand))
        memset(self.list_off, 0, (R + 2) * sizeof(int32_t))
        for k in range(n):
            if self.cands[k].r < 0 or self.cands[k].r >= R or self.cands[k].h < 0 or \
                    self.cands[k].h + self.cands[k].hl > H or self.cands[k].r + self.cands[k].rl > R:
                raise IndexError("a paraphrase candidate runs past the end of its segment")
            self.list_off[self.cands[k].r + 2] += 1
        for j in range(R):
            self.list_off[j + 2] += self.list_off[j + 1]
        for k in range(n):
            j = self.cands[k].r
            self.lists[self.list_off[j + 1]] = self.cands[k]
            self.list_off[j + 1] += 1
        return n

    # ------------------------------------------------------------------ search
    cdef inline int32_t _node(self, int32_t cand, int32_t parent) except -1:
        self.nodes = <Node*>_grow(self.nodes, &self.cap_nodes, self.n_nodes + 1, sizeof(Node))
        self.nodes[self.n_nodes].cand = cand
        self.nodes[self.n_nodes].parent = parent
        self.n_nodes += 1
        return self.n_nodes - 1

    cdef inline void _offer(self, uint64_t key, int32_t parent, int32_t cand, int32_t new_bits, int32_t next_ref,
                            int32_t open_end) noexcept:
        """Keep a child if it is among the first ``beam`` of its step so far, after its equals (the
        stable sort's order): into the pool (sized by the caller), its key and pool index into the
        rank-ordered ``rank_key``/``rank`` arrays by insertion from the end."""
        cdef int32_t k
        cdef Child* c
        cdef uint64_t* rank_key = self.rank_key
        cdef int32_t* rank = self.rank
        if self.n_top == self.beam:
            if key >= rank_key[self.beam - 1]:
                return
            k = self.beam - 1           # the last one drops out
        else:
            k = self.n_top
            self.n_top += 1
        while k > 0 and rank_key[k - 1] > key:
            rank_key[k] = rank_key[k - 1]
            rank[k] = rank[k - 1]
            k -= 1
        rank_key[k] = key
        rank[k] = self.n_pool
        c = &self.pool[self.n_pool]
        c.key = key
        c.parent, c.cand, c.new_bits, c.next_ref, c.open_end = parent, cand, new_bits, next_ref, open_end
        self.n_pool += 1

    cdef int _resolve(self, Py_ssize_t n_cands, int32_t H, int32_t R) except -1:
        """``chosen``: the jar's alignment of the lists (:func:`align.resolve`).

        Each step offers every child, in the pure path's creation order, to the rank-ordered first
        ``beam`` (:meth:`_offer`); only those are built (bitsets copied, match linked), already in
        the order the next step expands them."""
        cdef int32_t i, j, k, p, c, e, lo, hi, n_fixed = 0, n_states, best, link
        cdef int32_t wh = (H + 63) // 64, wr = (R + 63) // 64, ws = wh + wr
        cdef const Cand* m
        cdef State* s
        cdef State* t
        cdef const Child* ch
        cdef uint64_t* sb
        cdef uint64_t* tb
        cdef bint ok
        cdef int64_t dist, fch, bch = 0
        self.n_chosen = 0
        self.n_nodes = 0
        self.too_large = False
        self.chosen = <int32_t*>_grow(self.chosen, &self.cap_chosen, R + 1, sizeof(int32_t))
        if n_cands == 0:
            return 0
        self.cover_h = <int32_t*>_grow(self.cover_h, &self.cap_cover_h, H, sizeof(int32_t))
        self.cover_r = <int32_t*>_grow(self.cover_r, &self.cap_cover_r, R, sizeof(int32_t))
        self.fixed_at = <int32_t*>_grow(self.fixed_at, &self.cap_fixed, R, sizeof(int32_t))
        self.rank = <int32_t*>_grow(self.rank, &self.cap_rank, self.beam, sizeof(int32_t))
        self.rank_key = <uint64_t*>_grow(self.rank_key, &self.cap_rank_key, self.beam, sizeof(uint64_t))
        memset(self.cover_h, 0, H * sizeof(int32_t))
        memset(self.cover_r, 0, R * sizeof(int32_t))
        for c in range(n_cands):
            m = &self.lists[c]
            for i in range(m.h, m.h + m.hl):
                self.cover_h[i] += 1
            for j in range(m.r, m.r + m.rl):
                self.cover_r[j] += 1
        # the initial state holds the fixed candidates
        self.cur = <State*>_grow(self.cur, &self.cap_cur, 1, sizeof(State))
        self.cur_bits = <uint64_t*>_grow(self.cur_bits, &self.cap_cur_bits, ws, sizeof(uint64_t))
        memset(self.cur_bits, 0, ws * sizeof(uint64_t))
        for j in range(R):
            self.fixed_at[j] = -1
            if self.list_off[j + 1] - self.list_off[j] == 1:
                m = &self.lists[self.list_off[j]]
                ok = True
                for i in range(m.h, m.h + m.hl):
                    if self.cover_h[i] != 1:
                        ok = False
                for k in range(m.r, m.r + m.rl):
                    if self.cover_r[k] != 1:
                        ok = False
                if ok:
                    self.fixed_at[j] = self.list_off[j]
                    n_fixed += 1
                    for i in range(m.h, m.h + m.hl):
                        self.cur_bits[i >> 6] |= (<uint64_t>1) << (i & 63)
                    for k in range(m.r, m.r + m.rl):
                        self.cur_bits[wh + (k >> 6)] |= (<uint64_t>1) << (k & 63)
        if n_cands == n_fixed:          # no choice left
            for j in range(R):
                if self.fixed_at[j] >= 0:
                    self.chosen[self.n_chosen] = self.fixed_at[j]
                    self.n_chosen += 1
            return 0
        dist = 0
        for c in range(n_cands):
            dist += self.lists[c].off
        if H + R >= ((<int64_t>1) << TOTAL_BITS) - 1 or R > self.max_ref or dist >= ((<int64_t>1) << DIST_BITS):
            self.too_large = True       # the ranks would not fit their key: the pure path does this pair
            return 0
        s = &self.cur[0]
        s.total = s.ch = s.dist = 0
        s.next_ref = 0
        s.open_end = -1
        s.link = -1
        n_states = 1
        for p in range(R):
            self.n_top = 0
            self.n_pool = 0
            lo = self.list_off[p]
            hi = self.list_off[p + 1]
            self.pool = <Child*>_grow(self.pool, &self.cap_pool, <Py_ssize_t>n_states * (hi - lo + 1), sizeof(Child))
            for e in range(n_states):
                s = &self.cur[e]
                sb = self.cur_bits + <Py_ssize_t>e * ws
                if sb[wh + (p >> 6)] >> (p & 63) & 1:
                    if p < s.next_ref:
                        self._offer(_key(s.total, s.ch, s.dist), e, -1, 0, s.next_ref, s.open_end)
                    else:               # a fixed match starts here: its offset on the state itself
                        m = &self.lists[self.fixed_at[p]]
                        self._offer(_key(s.total + m.gain, s.ch + (1 if s.open_end >= 0 and m.h != s.open_end else 0),
                                         s.dist + m.off), e, self.fixed_at[p], 0, m.r + m.rl, m.h + m.hl)
                    continue
                dist = s.dist
                for c in range(lo, hi):
                    m = &self.lists[c]
                    ok = True
                    for i in range(m.h, m.h + m.hl):
                        if sb[i >> 6] >> (i & 63) & 1:
                            ok = False
                            break
                    if ok:
                        for k in range(m.r, m.r + m.rl):
                            if sb[wh + (k >> 6)] >> (k & 63) & 1:
                                ok = False
                                break
                    if not ok:
                        continue
                    self._offer(_key(s.total + m.gain, s.ch + (1 if s.open_end >= 0 and m.h != s.open_end else 0),
                                     dist), e, c, 1, m.r + m.rl, m.h + m.hl)
                    dist += m.off       # the jar's bookkeeping: the offset goes to the parent
                self._offer(_key(s.total, s.ch + (1 if s.open_end >= 0 else 0), dist), e, -1, 0, p + 1, -1)
            # build the kept children, in rank order
            self.nxt = <State*>_grow(self.nxt, &self.cap_nxt, self.n_top, sizeof(State))
            self.nxt_bits = <uint64_t*>_grow(self.nxt_bits, &self.cap_nxt_bits, <Py_ssize_t>self.n_top * ws,
                                             sizeof(uint64_t))
            for e in range(self.n_top):
                ch = &self.pool[self.rank[e]]
                s = &self.cur[ch.parent]
                sb = self.cur_bits + <Py_ssize_t>ch.parent * ws
                t = &self.nxt[e]
                tb = self.nxt_bits + <Py_ssize_t>e * ws
                for k in range(ws):
                    tb[k] = sb[k]
                t.total = ((<int64_t>1) << TOTAL_BITS) - 1 - <int64_t>(ch.key >> (CHUNK_BITS + DIST_BITS))
                t.ch = <int64_t>((ch.key >> DIST_BITS) & (((<uint64_t>1) << CHUNK_BITS) - 1))
                t.dist = <int64_t>(ch.key & (((<uint64_t>1) << DIST_BITS) - 1))
                t.next_ref, t.open_end = ch.next_ref, ch.open_end
                if ch.cand < 0:
                    t.link = s.link
                else:
                    t.link = self._node(ch.cand, s.link)
                    if ch.new_bits:
                        m = &self.lists[ch.cand]
                        for i in range(m.h, m.h + m.hl):
                            tb[i >> 6] |= (<uint64_t>1) << (i & 63)
                        for k in range(m.r, m.r + m.rl):
                            tb[wh + (k >> 6)] |= (<uint64_t>1) << (k & 63)
            self.cur, self.nxt = self.nxt, self.cur
            self.cap_cur, self.cap_nxt = self.cap_nxt, self.cap_cur
            self.cur_bits, self.nxt_bits = self.nxt_bits, self.cur_bits
            self.cap_cur_bits, self.cap_nxt_bits = self.cap_nxt_bits, self.cap_cur_bits
            n_states = self.n_top
        # the first best of the kept states, with their open chunk closed
        best = 0
        for e in range(n_states):
            s = &self.cur[e]
            fch = s.ch + (1 if s.open_end >= 0 else 0)
            if e == 0:
                bch = fch
                continue
            t = &self.cur[best]
            if s.total > t.total or (s.total == t.total and (fch < bch or (fch == bch and s.dist < t.dist))):
                best, bch = e, fch
        link = self.cur[best].link
        while link != -1:
            self.chosen[self.n_chosen] = self.nodes[link].cand
            self.n_chosen += 1
            link = self.nodes[link].parent
        for i in range(self.n_chosen // 2):
            self.chosen[i], self.chosen[self.n_chosen - 1 - i] = self.chosen[self.n_chosen - 1 - i], self.chosen[i]
        return 0

    # ------------------------------------------------------------------ statistics and score
    cdef void _stats(self, const int64_t* hyp, int32_t H, const int64_t* ref, int32_t R) noexcept:
        """The 23 statistics of ``chosen`` (:func:`align.alignment_stats`)."""
        cdef int64_t* st = self.stats
        cdef int32_t i, k, a, b, base, chunks = 0, prev_he = -1, prev_re = -1
        cdef const Cand* m
        cdef int32_t tmp
        memset(st, 0, 23 * sizeof(int64_t))
        st[0] = H
        st[1] = R
        for i in range(H):
            st[2] += self.w_fw[hyp[i]]
        for i in range(R):
            st[3] += self.w_fw[ref[i]]
        # sort by (h, hl, r, rl, module): insertion sort (hypothesis spans are disjoint)
        for a in range(1, self.n_chosen):
            tmp = self.chosen[a]
            b = a - 1
            while b >= 0 and _cand_less(&self.lists[tmp], &self.lists[self.chosen[b]]):
                self.chosen[b + 1] = self.chosen[b]
                b -= 1
            self.chosen[b + 1] = tmp
        for a in range(self.n_chosen):
            m = &self.lists[self.chosen[a]]
            base = 4 + 4 * m.mod
            for k in range(m.h, m.h + m.hl if m.h + m.hl < H else H):
                st[base + (2 if self.w_fw[hyp[k]] else 0)] += 1
            for k in range(m.r, m.r + m.rl if m.r + m.rl < R else R):
                st[base + (3 if self.w_fw[ref[k]] else 1)] += 1
            if a == 0 or not (m.h == prev_he and m.r == prev_re):
                chunks += 1
            prev_he = m.h + m.hl
            prev_re = m.r + m.rl
            st[21] += m.hl
            st[22] += m.rl
        st[20] = chunks

    cdef double _score(self) noexcept:
        """:func:`score.parts` ``["score"]`` of ``stats`` (:func:`_score_of`)."""
        cdef double s[23]
        cdef int i
        for i in range(23):
            s[i] = <double>self.stats[i]
        return _score_of(s, self.alpha, self.beta, self.gamma, self.delta, self.weights)

    cdef const int64_t* _hypothesis(self, const int64_t[::1] hyp_ids, const int64_t[::1] hyp_off, Py_ssize_t s,
                                    int32_t* H) except? NULL:
        """Segment s's hypothesis (``H``: its length), its phrases found first when paraphrases are on."""
        cdef const int64_t* hyp = &hyp_ids[0] + hyp_off[s] if hyp_ids.shape[0] else NULL
        H[0] = <int32_t>(hyp_off[s + 1] - hyp_off[s])
        if self.para:
            self._phrases(&self.hyp_side, hyp, H[0])
        return hyp

    cdef int _aligned(self, const int64_t* hyp, int32_t H, const int64_t[::1] ref_ids, const int64_t[::1] ref_off,
                      Py_ssize_t u, list matches=None) except -1:
        """``hyp`` aligned with unit u's reference (``ref_ids[ref_off[u]:ref_off[u+1]]``): candidates,
        the chosen matches (appended to ``matches`` as (h, hl, r, rl, module), in the order of
        :func:`align.resolve`, when a list is given), then their 23 statistics (:meth:`_stats`, which
        sorts ``chosen``). Returns 1 when the pair is beyond the rank key's bounds (``too_large``:
        nothing more is computed), else 0."""
        cdef const int64_t* ref = &ref_ids[0] + ref_off[u] if ref_ids.shape[0] else NULL
        cdef int32_t R = <int32_t>(ref_off[u + 1] - ref_off[u])
        cdef Py_ssize_t k
        cdef const Cand* m
        self._resolve(self._candidates(hyp, H, ref, R), H, R)
        if self.too_large:
            return 1
        if matches is not None:
            for k in range(self.n_chosen):
                m = &self.lists[self.chosen[k]]
                matches.append((m.h, m.hl, m.r, m.rl, m.mod))
        self._stats(hyp, H, ref, R)
        return 0

    # ------------------------------------------------------------------ corpus entry points
    def unit_rows(self, const int64_t[::1] hyp_ids, const int64_t[::1] hyp_off, const int64_t[::1] ref_ids,
                  const int64_t[::1] ref_off, const int64_t[::1] units):
        """(U×23 statistics of every hypothesis/reference pair, segments left to the pure path): segment
        s's pairs are units ``units[s]..units[s+1]−1`` (``ref_ids[ref_off[u]:ref_off[u+1]]``). A
        segment with a pair beyond the rank key's bounds (:func:`_key`) is listed (its rows left 0)."""
        cdef Py_ssize_t S = units.shape[0] - 1, s, u, k
        out = np.zeros((units[S], 23), dtype=np.float64)
        cdef double[:, ::1] o = out
        cdef const int64_t* hyp
        cdef int32_t H
        left = []
        for s in range(S):
            hyp = self._hypothesis(hyp_ids, hyp_off, s, &H)
            for u in range(units[s], units[s + 1]):
                if self._aligned(hyp, H, ref_ids, ref_off, u):
                    left.append(s)
                    break
                for k in range(23):
                    o[u, k] = <double>self.stats[k]
        return out, left

    def units(self, const int64_t[::1] hyp_ids, const int64_t[::1] hyp_off, const int64_t[::1] ref_ids,
              const int64_t[::1] ref_off, const int64_t[::1] units):
        """[(matches, statistics, score)] of every unit in order; matches as (h, hl, r, rl, module)
        in the order of :func:`align.resolve` (for the tests)."""
        cdef Py_ssize_t S = units.shape[0] - 1, s, u, k
        cdef const int64_t* hyp
        cdef int32_t H
        out = []
        for s in range(S):
            hyp = self._hypothesis(hyp_ids, hyp_off, s, &H)
            for u in range(units[s], units[s + 1]):
                matches = []
                if self._aligned(hyp, H, ref_ids, ref_off, u, matches):
                    raise OverflowError("a pair beyond the rank key's bounds (the pure path computes it)")
                out.append((matches, [float(self.stats[k]) for k in range(23)], self._score()))
        return out

