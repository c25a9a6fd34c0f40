# Growable PyMem buffers shared by the compiled twins (ROUGE's _lcs_c, _text_c and _word_union_c, CIDEr's
# _vectors_c, TER's _shifts_c): one definition, inlined where cimported.
from cpython.mem cimport PyMem_Realloc


cdef inline void* grow(void* p, size_t need, size_t* cap) except? NULL:
    """``p`` with room for ``need`` bytes (at least doubled; PyMem, so tracemalloc sees it)."""
    cdef size_t size
    cdef void* q
    if need <= cap[0] and p != NULL:
        return p
    size = cap[0] * 2 if cap[0] * 2 > need else need
    if size < 64:
        size = 64
    q = PyMem_Realloc(p, size)
    if q == NULL:
        raise MemoryError()
    cap[0] = size
    return q
