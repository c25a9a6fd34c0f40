"""Compiled twins of the plain splits of :mod:`assay.tokenizers.base` (and the tokenizers that are
nothing more): tokens are slices of the (lowercased) line, cut at a whitespace class.

``kind`` selects the split:

- ``PYTHON`` (0): ``str.split()``, every Python whitespace (``none``);
- ``PERL`` (1): Perl ``split ' '`` on decoded text, Python's set minus U+001C-U+001F
  (:func:`assay.tokenizers.base.perl_split`);
- ``ASCII`` (2): Perl ``split ' '`` on bytes, ``[ \\t\\n\\v\\f\\r]`` only (``multi-bleu``,
  :func:`assay.tokenizers.base.ascii_split`);
- ``SPACE`` (3): ``str.split(' ')``, empty tokens kept (``space``);
- ``CHAR`` (4): every character that is not Python whitespace is a token (``char``).

Spans and ids: the machinery of :mod:`assay.tokenizers._tok_13a_c` (cimported).
"""
from cpython.unicode cimport Py_UNICODE_ISSPACE
from assay.tokenizers._tok_13a_c cimport TRIM_NONE, CodeTable, Span, emit, tokens_with

cdef enum Kind:
    PYTHON = 0
    PERL = 1
    ASCII = 2
    SPACE = 3
    CHAR = 4


cdef inline bint _ascii_space(Py_UCS4 c) noexcept:
    return c == 32 or 9 <= c <= 13


cdef Py_ssize_t scan(Py_UCS4* s, Py_ssize_t n, Span* spans, const void* opts, bint check) noexcept:
    cdef Kind kind = (<const Kind*>opts)[0]
    cdef Py_ssize_t i, start = -1, m = 0
    cdef Py_UCS4 c
    cdef bint sep
    if kind == SPACE:                       # str.split(' '): n + 1 fields, empty ones included
        start = 0
        for i in range(n):
            if s[i] == 32:
                emit(spans, &m, s, start, i)
                start = i + 1
        emit(spans, &m, s, start, n)
        return m
    for i in range(n):
        c = s[i]
        if kind == ASCII:
            sep = _ascii_space(c)
        elif kind == PERL:
            sep = Py_UNICODE_ISSPACE(c) and not (0x1C <= c <= 0x1F)
        else:
            sep = Py_UNICODE_ISSPACE(c)
        if sep:
            if start >= 0:
                emit(spans, &m, s, start, i)
                start = -1
        elif kind == CHAR:
            emit(spans, &m, s, i, i + 1)
        elif start < 0:
            start = i
    if start >= 0:
        emit(spans, &m, s, start, n)
    return m


cdef Kind _kind(int kind) except *:
    if not 0 <= kind <= 4:
        raise ValueError(f"unknown split kind {kind}")
    return <Kind>kind


def tokenize_lines(list lines, object lower, int kind):
    """The tokens of every line: ``lower`` (None or a function), then the split ``kind``."""
    cdef Kind k = _kind(kind)
    return tokens_with(lines, lower, None, TRIM_NONE, scan, &k)


def encode_lines(CodeTable table, list lines, object lower, int kind):
    """``(ids, lengths)`` of :func:`tokenize_lines`, interned into ``table``."""
    cdef Kind k = _kind(kind)
    return table.encode_with(lines, lower, None, TRIM_NONE, scan, &k)
