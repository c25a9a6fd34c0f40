# The compiled pair index's declaration, for the twins that fill one directly (the n-gram coder,
# assay.text._ngram_codes_c). ``final``: its methods are called directly, not through a vtable.
cimport cython
from libc.stdint cimport int32_t, uint64_t


@cython.final
cdef class PairIndex:
    cdef uint64_t* keys
    cdef int32_t* ids          # -1: empty slot
    cdef Py_ssize_t slots, count
    cdef int shift
    cdef int32_t* prefix       # prefix[id], last[id]: the pair of each id
    cdef int32_t* last
    cdef size_t prefix_cap, last_cap

    cdef int _rehash(self, Py_ssize_t slots) except -1
    cdef uint64_t _probe(self, uint64_t key) noexcept
    cdef int32_t _find(self, int32_t p, int32_t t) noexcept
    cdef int32_t _insert(self, int32_t p, int32_t t) except -2
