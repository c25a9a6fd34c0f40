# Counting the n-gram codes of one caption / segment (a row of assay.text.ngram_codes' code table) into
# per-code counters: shared by the CIDEr and NIST twins; one definition, inlined where cimported.
from libc.stdint cimport int32_t, int64_t


cdef inline Py_ssize_t count_codes(const int32_t* row, int64_t start, int64_t end, int32_t* cnt,
                                   int32_t* distinct, Py_ssize_t* total) noexcept nogil:
    """Add the codes ``row[start:end]`` (up to the first −1: no n-gram of this order starts there) to
    ``cnt[code]``; a code not counted before is listed in ``distinct``, in order of first occurrence.
    Returns how many were listed; ``total`` (when not NULL) gets how many codes were counted."""
    cdef int64_t p
    cdef Py_ssize_t k = 0, count = 0
    cdef int32_t c
    for p in range(start, end):
        c = row[p]
        if c < 0:
            break
        if cnt[c] == 0:
            distinct[k] = c
            k += 1
        cnt[c] += 1
        count += 1
    if total != NULL:
        total[0] = count
    return k
