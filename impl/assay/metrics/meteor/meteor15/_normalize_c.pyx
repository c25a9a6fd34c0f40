"""Compiled twin of :mod:`assay.metrics.meteor.meteor15.normalize`: the jar's ``-norm`` passes on a
buffer of code points, equal to the pure passes character for character.

:func:`normalized` returns the line after rules 1-9 up to (not including) the final trim,
lowercasing and split (which :func:`normalize.tokenize` does in Python for both paths), or ``None``
for a line holding ``..`` or ``DOTMULTI`` (rule 2's escaping, rare: the pure path does it).

Every regular-expression pass of the pure module is a left-to-right scan: at position i the
pattern ``X m Y`` (a context class, a literal, a context class) either matches ``s[i:i+3]`` --
the replacement is written and the scan resumes at i + 3, so the context is consumed -- or
``s[i]`` is copied and the scan resumes at i + 1, which is how ``re.sub`` proceeds. The character
classes are the pure module's code-point lists. The nonbreaking-prefix test of rule 8 looks the
word up in the caller's ``prefixes`` dict.
"""
from cpython.unicode cimport PyUnicode_4BYTE_KIND, PyUnicode_FromKindAndData
from libc.stdlib cimport free, realloc


cdef inline bint _alpha(Py_UCS4 c) noexcept nogil:
    if c < 128:
        return (65 <= c <= 90) or (97 <= c <= 122)
    return ((0xC0 <= c <= 0xD6) or (0xD8 <= c <= 0xF6) or (0xF8 <= c <= 0x17E) or (0x400 <= c <= 0x527)
            or (0xA640 <= c <= 0xA66E) or (0xA67E <= c <= 0xA697) or (0x1D00 <= c <= 0x1D7F))


cdef inline bint _digit(Py_UCS4 c) noexcept nogil:
    return 48 <= c <= 57


cdef inline bint _alnum(Py_UCS4 c) noexcept nogil:
    return _digit(c) or _alpha(c)


cdef inline bint _space(Py_UCS4 c) noexcept nogil:        # rule 1's space: ASCII whitespace
    return c == 32 or (9 <= c <= 13)


cdef inline bint _split_space(Py_UCS4 c) noexcept nogil:  # the word split: [ \t\n\r\f]
    return c == 32 or c == 9 or c == 10 or c == 13 or c == 12


cdef inline bint _collapse_space(Py_UCS4 c) noexcept nogil:
    return c == 32 or c == 0xA0 or (0x2000 <= c <= 0x200A) or c == 0x202F or c == 0x205F or c == 0x3000


cdef enum Ctx:
    NONDIGIT, DIGIT, ALNUM_OR_DOT, ALNUM, NONALPHA, NONALNUM, ALPHA, LETTER_S


cdef inline bint _ctx(Ctx k, Py_UCS4 c) noexcept nogil:
    if k == NONDIGIT:
        return not _digit(c)
    if k == DIGIT:
        return _digit(c)
    if k == ALNUM_OR_DOT:
        return c == 46 or _alnum(c)
    if k == ALNUM:
        return _alnum(c)
    if k == NONALPHA:
        return not _alpha(c)
    if k == NONALNUM:
        return not _alnum(c)
    if k == ALPHA:
        return _alpha(c)
    return c == 115


cdef Py_UCS4* _a = NULL
cdef Py_UCS4* _b = NULL
cdef Py_ssize_t _cap = 0


cdef int _reserve(Py_ssize_t n) except -1:
    """Both work buffers hold at least ``n`` code points."""
    global _a, _b, _cap
    cdef Py_UCS4* p
    if n <= _cap:
        return 0
    n = max(n, 2 * _cap, 256)
    p = <Py_UCS4*>realloc(_a, n * sizeof(Py_UCS4))
    if p == NULL:
        raise MemoryError()
    _a = p
    p = <Py_UCS4*>realloc(_b, n * sizeof(Py_UCS4))
    if p == NULL:
        raise MemoryError()
    _b = p
    _cap = n
    return 0


cdef Py_ssize_t _scan(const Py_UCS4* s, Py_ssize_t n, Py_UCS4* d, Ctx x, Py_UCS4 mid, Ctx y,
                     const Py_UCS4* rep, Py_ssize_t rep_len) noexcept nogil:
    """``re.sub("(X)mid(Y)", "\\1" + rep + "\\2")`` from ``s`` into ``d``; the new length."""
    cdef Py_ssize_t i = 0, o = 0, k
    while i < n:
        if i + 2 < n and s[i + 1] == mid and _ctx(x, s[i]) and _ctx(y, s[i + 2]):
            d[o] = s[i]
            o += 1
            for k in range(rep_len):
                d[o + k] = rep[k]
            o += rep_len
            d[o] = s[i + 2]
            o += 1
            i += 3
        else:
            d[o] = s[i]
            o += 1
            i += 1
    return o


cdef Py_UCS4 COMMA_REP[3]
COMMA_REP[:] = [32, 44, 32]             # " , "
cdef Py_UCS4 SPACE_REP[1]
SPACE_REP[:] = [32]                     # " "
cdef Py_UCS4 APOS_REP[3]
APOS_REP[:] = [32, 39, 32]              # " ' "


cdef inline void _swap() noexcept nogil:
    global _a, _b
    _a, _b = _b, _a


def normalized(str text, dict prefixes):
    """The line after rules 1-9 before the final trim (see the module docstring), or ``None``."""
    cdef Py_ssize_t n = len(text), i, o, k, w, start, end, nstart, wlen
    cdef Py_UCS4 c, nc
    cdef bint has_comma = False, has_hyphen = False, has_apos = False, has_dot, has_alpha, keep
    cdef object kind
    if ".." in text or "DOTMULTI" in text:
        return None
    _reserve(9 * n + 16)
    # rule 1: special characters split off, inside a leading and a trailing space
    o = 0
    _b[o] = 32
    o += 1
    for c in text:
        if _alnum(c) or _space(c) or c == 46 or c == 39 or c == 96 or c == 44 or c == 45 \
                or c == 0x2018 or c == 0x2019:
            _b[o] = c
            o += 1
        else:
            _b[o] = 32
            _b[o + 1] = c
            _b[o + 2] = 32
            o += 3
        if c == 44:
            has_comma = True
    _b[o] = 32
    o += 1
    n = o
    _swap()
    # rule 3: commas (three passes)
    if has_comma:
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, NONDIGIT, 44, NONDIGIT, COMMA_REP, 3)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, DIGIT, 44, NONDIGIT, COMMA_REP, 3)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, NONDIGIT, 44, DIGIT, COMMA_REP, 3)
        _swap()
    # rule 4: ` ‘ ’ -> ', then “ ” '' -> " (one scan: the two replacements do not interact)
    for i in range(n):
        c = _a[i]
        if c == 96 or c == 0x2018 or c == 0x2019:
            _a[i] = 39
    _reserve(3 * n + 16)
    i = o = 0
    while i < n:
        c = _a[i]
        if c == 0x201C or c == 0x201D or (c == 39 and i + 1 < n and _a[i + 1] == 39):
            _b[o] = 32
            _b[o + 1] = 34
            _b[o + 2] = 32
            o += 3
            i += 2 if c == 39 else 1
        else:
            _b[o] = 0x2D if c == 0x2013 else c      # rule 5: en dash -> hyphen
            o += 1
            i += 1
    n = o
    _swap()
    # rule 5: -- -> - (non-overlapping, left to right)
    i = o = 0
    while i < n:
        c = _a[i]
        if c == 45 and i + 1 < n and _a[i + 1] == 45:
            i += 2
        else:
            i += 1
        _b[o] = c
        o += 1
        if c == 45:
            has_hyphen = True
        elif c == 39:
            has_apos = True
    n = o
    _swap()
    # rule 6: hyphens between alnum (or .) and alnum
    if has_hyphen:
        n = _scan(_a, n, _b, ALNUM_OR_DOT, 45, ALNUM, SPACE_REP, 1)
        _swap()
    # rule 7: apostrophes (five passes)
    if has_apos:
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, NONALPHA, 39, NONALPHA, APOS_REP, 3)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, NONALNUM, 39, ALPHA, APOS_REP, 3)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, ALPHA, 39, NONALPHA, APOS_REP, 3)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, ALPHA, 39, ALPHA, APOS_REP, 2)
        _swap()
        _reserve(2 * n + 16)
        n = _scan(_a, n, _b, DIGIT, 39, LETTER_S, APOS_REP, 2)
        _swap()
    # rule 8: words (split on [ \t\n\r\f]), each ending in one period examined, joined by spaces
    _reserve(2 * n + 16)
    o = 0
    i = 0
    while i < n and _split_space(_a[i]):
        i += 1
    while i < n:
        start = i
        while i < n and not _split_space(_a[i]):
            i += 1
        end = i
        while i < n and _split_space(_a[i]):
            i += 1
        nstart = i                      # the next word starts here (i == n: no next word)
        if o:
            _b[o] = 32
            o += 1
        wlen = end - start
        keep = True
        if wlen > 1 and _a[end - 1] == 46:
            has_dot = has_alpha = False
            for k in range(start, end - 1):
                if _a[k] == 46:
                    has_dot = True
                elif _alpha(_a[k]):
                    has_alpha = True
            if has_dot and has_alpha:
                for k in range(start, end):
                    if _a[k] != 46:
                        _b[o] = _a[k]
                        o += 1
                continue
            nc = _a[nstart] if nstart < n else 0
            if not (97 <= nc <= 122):
                kind = prefixes.get(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, _a + start, wlen - 1), 0)
                if kind == 1:
                    pass
                elif kind == 2 and 48 <= nc <= 57:
                    pass
                else:
                    keep = False
        if keep:
            for k in range(start, end):
                _b[o] = _a[k]
                o += 1
        else:
            for k in range(start, end - 1):
                _b[o] = _a[k]
                o += 1
            _b[o] = 32
            _b[o + 1] = 46
            o += 2
    n = o
    _swap()
    # rule 9: runs of the jar's whitespace collapse
    o = 0
    i = 0
    while i < n:
        c = _a[i]
        if _collapse_space(c):
            while i < n and _collapse_space(_a[i]):
                i += 1
            _b[o] = 32
        else:
            _b[o] = c
            i += 1
        o += 1
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, _b, o)
