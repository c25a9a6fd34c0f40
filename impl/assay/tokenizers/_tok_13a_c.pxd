# The token-span machinery of the compiled tokenizers, shared by cimport (one definition in
# _tok_13a_c.pyx): a scanner cuts a line into Spans; Scratch runs one line through lowercasing,
# trimming, an optional rewrite and a scanner; CodeTable interns spans as integer ids.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t


cdef struct Span:
    Py_ssize_t start
    Py_ssize_t end
    uint64_t word        # the code points packed 8 bits each (meaningful when packed)
    bint packed          # at most 8 code points, all below U+0100


cdef struct Slot:
    uint64_t key         # packed code points, or (tag & LONG) a hash of them
    int32_t id           # -1: empty
    uint32_t tag         # the token's length, | LONG when the key is a hash


# A scanner: the tokens of s[:n] into spans (room for n + 1; s[n] is writable), their number, or
# -1 when ``check`` is set and the line needs the caller's rewrite first (13a rules 1-3).
ctypedef Py_ssize_t (*Scanner)(Py_UCS4* s, Py_ssize_t n, Span* spans, const void* opts, bint check) noexcept

# how a line is trimmed before scanning (Python whitespace)
cdef enum Trim:
    TRIM_NONE = 0
    TRIM_RIGHT = 1       # str.rstrip()
    TRIM_BOTH = 2        # str.strip()


cdef void emit(Span* spans, Py_ssize_t* m, const Py_UCS4* s, Py_ssize_t start, Py_ssize_t end) noexcept


cdef class Scratch:
    cdef Py_UCS4* text
    cdef Span* spans
    cdef Py_ssize_t cap
    cdef object line                  # the line the spans index (after lowercasing and rewriting)
    cdef Py_ssize_t load(self, object line) except -1
    cdef Py_ssize_t run(self, object line, object lower, object prepare, Trim trim, Scanner scan,
                        const void* opts) except -1


cdef class CodeTable:
    cdef Slot* slots
    cdef Py_ssize_t n_slots           # a power of two
    cdef Py_UCS4* chars               # the code points of the long tokens, back to back
    cdef Py_ssize_t n_chars, cap_chars
    cdef Py_ssize_t* starts           # token id -> its offset in chars (long tokens only)
    cdef Py_ssize_t n_ids, cap_ids
    cdef int _grow_slots(self) except -1
    cdef int64_t intern(self, const Py_UCS4* text, const Span* span) except -1
    cdef tuple encode_with(self, list lines, object lower, object prepare, Trim trim, Scanner scan,
                           const void* opts)


cdef list tokens_with(list lines, object lower, object prepare, Trim trim, Scanner scan, const void* opts)
