"""Compiled twin of :func:`assay.tokenizers.ptb.plain_lines_py`: the plain lines of a PTB batch.

One scan per line: a line is plain when every character's class in ``ptb.plain_table()`` (one byte
per BMP code point: printable ASCII, the tab, the non-ASCII characters that are neither control
characters nor Python spaces, and the characters the lexer deletes, blanks like the space) is not
``_P_NOT``, no digit is followed, across a run of blanks, by a digit, and no ``. . .`` (periods
between single space-like blanks) occurs (the pure ``ptb._patterns().not_simple``); its chunks are
the runs of non-blanks (where the lexer cuts it); each chunk's piece comes from the ``pieces``
dict, or from ``piece(chunk)`` (the lexer, which stores it) when missing; a ``"\\x00"`` piece (the
chunk depends on its neighbours) makes the line None; the non-empty pieces are joined by single
spaces into a byte buffer (from a line's first non-ASCII piece on, ``str.join`` of the buffer so
far and the pieces).

:func:`plain_encode` goes one step further for CIDEr (:func:`assay.tokenizers.ptb.coco_encode_lines`):
the token ids of every line's string, each distinct plain chunk's ids interned once, no string made
for a plain line.
"""
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy


cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    int PyUnicode_KIND(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    Py_UCS4 PyUnicode_READ(int kind, const void* data, Py_ssize_t index)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)


cdef enum:      # the classes of ptb.plain_table() (ptb._P_*)
    P_NOT = 0
    P_DIGIT = 2
    P_SPACE = 3
    P_TAB = 4
    P_PERIOD = 5

#: the classes above as Python ints (a test checks them against ``ptb._P_*``)
PLAIN_CLASSES = {"P_NOT": P_NOT, "P_DIGIT": P_DIGIT, "P_SPACE": P_SPACE, "P_TAB": P_TAB, "P_PERIOD": P_PERIOD}

cdef bytes _TABLE = None


cdef const unsigned char* _table(object table) except NULL:
    """``table`` (``ptb.plain_table()`` when None) as a pointer to its 65,536 classes."""
    global _TABLE
    if table is None:
        if _TABLE is None:
            from assay.tokenizers.ptb import plain_table
            _TABLE = plain_table()
        table = _TABLE
    if type(table) is not bytes or len(<bytes>table) != 0x10000:
        raise ValueError("the plain table is 65,536 bytes")
    return <const unsigned char*>(<bytes>table)


cdef inline unsigned char _class(const unsigned char* table, Py_UCS4 c) noexcept:
    return table[c] if c < 0x10000 else P_NOT


cdef bint _plain(int kind, const void* data, Py_ssize_t length, const unsigned char* table) noexcept:
    cdef Py_ssize_t j
    cdef unsigned char t
    cdef bint blank = False, digit = False
    for j in range(length):
        t = _class(table, PyUnicode_READ(kind, data, j))
        if t == P_NOT:
            return False
        if t == P_SPACE or t == P_TAB:
            blank = True
            continue
        if blank and digit and t == P_DIGIT:
            return False
        if t == P_PERIOD and j + 4 < length \
                and _class(table, PyUnicode_READ(kind, data, j + 1)) == P_SPACE \
                and _class(table, PyUnicode_READ(kind, data, j + 2)) == P_PERIOD \
                and _class(table, PyUnicode_READ(kind, data, j + 3)) == P_SPACE \
                and _class(table, PyUnicode_READ(kind, data, j + 4)) == P_PERIOD:   # ". . .": the spaced ellipsis
            return False
        blank = False
        digit = t == P_DIGIT
    return True


cdef inline bint _blank(const unsigned char* table, Py_UCS4 c) noexcept:
    return c < 0x10000 and (table[c] == P_SPACE or table[c] == P_TAB)


cdef inline Py_ssize_t _next_chunk(int kind, const void* data, Py_ssize_t length, Py_ssize_t* j,
                                   const unsigned char* table) noexcept:
    """The start of the next chunk (a run of non-blanks) at or after ``j[0]``, ``j[0]`` moved to its end;
    -1 (``j[0] = length``) when only blanks are left."""
    cdef Py_ssize_t k = j[0], start
    while k < length and _blank(table, PyUnicode_READ(kind, data, k)):
        k += 1
    if k == length:
        j[0] = k
        return -1
    start = k
    while k < length and not _blank(table, PyUnicode_READ(kind, data, k)):
        k += 1
    j[0] = k
    return start


cdef inline object _chunk(int kind, const char* data, Py_ssize_t start, Py_ssize_t end):
    """The chunk as a str (of the narrowest kind, as every str: dict keys compare equal)."""
    return PyUnicode_FromKindAndData(kind, data + start * kind, end - start)


def plain_lines(list lines, dict pieces, object piece, object table=None):
    """The wrapper's string of each plain line, None for the others (see ``plain_lines_py``); ``table``:
    ``ptb.plain_table()`` (the default)."""
    cdef Py_ssize_t n = len(lines), i, j, start, length, used, size, cap = 1 << 12
    cdef const unsigned char* classes = _table(table)
    cdef const char* data
    cdef const char* text
    cdef int kind
    cdef PyObject* found
    cdef bint context, ascii
    cdef list parts = None
    cdef char* buf = <char*>malloc(cap)
    cdef char* grown
    if buf == NULL:
        raise MemoryError()
    out = [None] * n
    try:
        for i in range(n):
            line = lines[i]
            if type(line) is not str:
                continue
            kind = PyUnicode_KIND(line)
            data = PyUnicode_DATA(line)
            length = PyUnicode_GET_LENGTH(line)
            if not _plain(kind, data, length, classes):
                continue
            used = 0
            context = False
            ascii = True
            j = 0
            while True:
                start = _next_chunk(kind, data, length, &j, classes)
                if start < 0:
                    break
                chunk = _chunk(kind, data, start, j)
                found = PyDict_GetItem(pieces, chunk)
                got = piece(chunk) if found == NULL else <object>found
                size = PyUnicode_GET_LENGTH(got)
                if size == 0:
                    continue
                if size == 1 and got == "\x00":
                    context = True
                    break
                if not ascii:
                    parts.append(got)
                    continue
                if not PyUnicode_IS_ASCII(got):     # the buffer so far, then the pieces as strs
                    ascii = False
                    parts = [PyUnicode_FromKindAndData(1, buf, used), got] if used else [got]
                    continue
                while used + size + 1 > cap:
                    cap *= 2
                    grown = <char*>realloc(buf, cap)
                    if grown == NULL:
                        raise MemoryError()
                    buf = grown
                if used:
                    buf[used] = 32
                    used += 1
                text = PyUnicode_DATA(got)
                memcpy(buf + used, text, size)
                used += size
            if context:
                continue
            if ascii:
                out[i] = PyUnicode_FromKindAndData(1, buf, used)
            else:
                out[i] = " ".join(parts)
    finally:
        free(buf)
    return out


# ----------------------------------------------------------------------------- lines to token ids
cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)


cdef class _Ids:
    """A growable int64 buffer."""
    cdef long long* data
    cdef Py_ssize_t used, cap

    def __cinit__(self):
        self.cap = 1 << 12
        self.used = 0
        self.data = <long long*>malloc(self.cap * sizeof(long long))
        if self.data == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.data)

    cdef int reserve(self, Py_ssize_t extra) except -1:
        cdef long long* grown
        while self.used + extra > self.cap:
            self.cap *= 2
            grown = <long long*>realloc(self.data, self.cap * sizeof(long long))
            if grown == NULL:
                raise MemoryError()
            self.data = grown
        return 0

    cdef int push(self, long long value) except -1:
        if self.used == self.cap:
            self.reserve(1)
        self.data[self.used] = value
        self.used += 1
        return 0

    def array(self):
        import numpy as np
        out = np.empty(self.used, dtype=np.int64)
        cdef long long[::1] view = out
        if self.used:
            memcpy(&view[0], self.data, self.used * sizeof(long long))
        return out


cdef int _intern_split(str text, dict vocab, _Ids out) except -1:
    """Append the ids of ``text.split()`` (``Py_UNICODE_ISSPACE``, as CPython) to ``out``; a new token
    gets ``len(vocab)``."""
    cdef Py_ssize_t length = PyUnicode_GET_LENGTH(text), j = 0, start
    cdef int kind = PyUnicode_KIND(text)
    cdef const void* data = PyUnicode_DATA(text)
    cdef PyObject* found
    cdef long long tid
    while j < length:
        while j < length and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)):
            j += 1
        if j == length:
            break
        start = j
        while j < length and not Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, j)):
            j += 1
        tok = text[start:j]
        found = PyDict_GetItem(vocab, tok)
        if found == NULL:
            tid = len(vocab)
            vocab[tok] = tid
        else:
            tid = <long long>(<object>found)
        out.push(tid)
    return 0


def plain_encode(list lines, dict pieces, object piece, object line_string, dict vocab, object table=None):
    """``(ids, offsets)`` of ``line.split()`` of the wrapper's string of every line, interned into ``vocab``
    (new tokens numbered ``len(vocab)`` in order of first occurrence): for a plain line but the last,
    its chunks' pieces (``pieces``/``piece``/``table`` as :func:`plain_lines`; each distinct chunk's
    ids interned once, at its first plain occurrence); for every other line ``line_string(i)``, the
    lexer's string. Equal to interning the ``str.split()`` of the strings :func:`plain_lines` and the
    lexer give."""
    cdef Py_ssize_t n = len(lines), i, j, start, length, k, n_chunks, r, pos
    cdef const unsigned char* classes = _table(table)
    cdef const char* data
    cdef int kind
    cdef PyObject* found
    cdef bint context
    cdef _Ids ids = _Ids()
    cdef _Ids arena = _Ids()          # the ids of every interned chunk, run after run
    cdef _Ids run_start = _Ids()      # per run: its first id in ``arena`` (-1: not interned yet)
    cdef _Ids run_len = _Ids()
    cdef list run_piece = []          # per run: the chunk's piece ("\x00": the chunk needs its neighbours)
    cdef dict runs = {}               # chunk -> its run
    cdef list line_runs = []
    import numpy as np
    offsets = np.zeros(n + 1, dtype=np.int64)
    cdef long long[::1] off = offsets
    for i in range(n):
        line = lines[i]
        context = True
        if i + 1 < n and type(line) is str:
            kind = PyUnicode_KIND(line)
            data = PyUnicode_DATA(line)
            length = PyUnicode_GET_LENGTH(line)
            if _plain(kind, data, length, classes):
                context = False
                del line_runs[:]
                j = 0
                while True:                    # pass 1: every chunk's run, and whether one needs context
                    start = _next_chunk(kind, data, length, &j, classes)
                    if start < 0:
                        break
                    chunk = _chunk(kind, data, start, j)
                    found = PyDict_GetItem(runs, chunk)
                    if found == NULL:
                        found = PyDict_GetItem(pieces, chunk)
                        got = piece(chunk) if found == NULL else <object>found
                        r = len(run_piece)
                        run_piece.append(got)
                        run_start.push(-1)
                        run_len.push(0)
                        runs[chunk] = r
                    else:
                        r = <Py_ssize_t>(<object>found)
                    if PyUnicode_GET_LENGTH(run_piece[r]) == 1 and run_piece[r] == "\x00":
                        context = True
                        break
                    line_runs.append(r)
                if not context:                # pass 2: the runs' ids (interned on first use, in order)
                    for r in line_runs:
                        if run_start.data[r] < 0:
                            pos = arena.used
                            _intern_split(run_piece[r], vocab, arena)
                            run_start.data[r] = pos
                            run_len.data[r] = arena.used - pos
                        n_chunks = run_len.data[r]
                        ids.reserve(n_chunks)
                        memcpy(ids.data + ids.used, arena.data + run_start.data[r], n_chunks * sizeof(long long))
                        ids.used += n_chunks
        if context:
            _intern_split(line_string(i), vocab, ids)
        off[i + 1] = ids.used
    return ids.array(), offsets
