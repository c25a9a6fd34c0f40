"""Compiled twin of :func:`assay.tokenizers.ptb.plain_lines_py`: the plain lines of a PTB batch.

One scan per line over its ASCII bytes: a line is plain when every byte is a tab or printable
ASCII and no ``.`` or digit is followed, across a run of blanks, by a ``.`` or a digit (the pure
module's ``_NOT_SIMPLE``); its chunks are the runs of non-blanks (``str.split()`` on such a line);
each chunk's piece comes from the ``pieces`` dict, or from ``piece(chunk)`` (the lexer, which
stores it) when missing; a ``"\\x00"`` piece (the chunk depends on its neighbours) makes the line
None; the non-empty pieces are joined by single spaces into a byte buffer (a non-ASCII piece,
which plain chunks do not produce, falls back to ``str.join``).
"""
from cpython.dict cimport PyDict_GetItem
from cpython.object cimport PyObject
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy


cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)


cdef inline bint _digit(unsigned char c) noexcept:
    return 48 <= c <= 57


cdef bint _plain(const unsigned char* data, Py_ssize_t length) noexcept:
    cdef Py_ssize_t j
    cdef unsigned char c, before = 0
    cdef bint blank = False
    for j in range(length):
        c = data[j]
        if c == 32 or c == 9:
            blank = True
            continue
        if c < 32 or c > 126:
            return False
        if blank and before and ((before == 46 and c == 46) or (_digit(before) and _digit(c))):
            return False
        blank = False
        before = c
    return True


def plain_lines(list lines, dict pieces, object piece):
    """The wrapper's string of each plain line, None for the others (see ``plain_lines_py``)."""
    cdef Py_ssize_t n = len(lines), i, j, start, length, used, size, cap = 1 << 12
    cdef const unsigned char* data
    cdef const char* text
    cdef PyObject* found
    cdef bint context, ascii
    cdef char* buf = <char*>malloc(cap)
    cdef char* grown
    if buf == NULL:
        raise MemoryError()
    out = [None] * n
    try:
        for i in range(n):
            line = lines[i]
            if type(line) is not str or not PyUnicode_IS_ASCII(line):
                continue
            data = <const unsigned char*>PyUnicode_DATA(line)
            length = PyUnicode_GET_LENGTH(line)
            if not _plain(data, length):
                continue
            used = 0
            context = False
            ascii = True
            j = 0
            while j < length:
                while j < length and (data[j] == 32 or data[j] == 9):
                    j += 1
                if j == length:
                    break
                start = j
                while j < length and data[j] != 32 and data[j] != 9:
                    j += 1
                chunk = PyUnicode_FromKindAndData(1, data + start, j - start)
                found = PyDict_GetItem(pieces, chunk)
                got = piece(chunk) if found == NULL else <object>found
                size = PyUnicode_GET_LENGTH(got)
                if size == 0:
                    continue
                if size == 1 and got == "\x00":
                    context = True
                    break
                if not ascii or not PyUnicode_IS_ASCII(got):
                    ascii = False
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
            else:   # every piece is known by now
                out[i] = " ".join(filter(None, map(pieces.__getitem__, line.split())))
    finally:
        free(buf)
    return out
