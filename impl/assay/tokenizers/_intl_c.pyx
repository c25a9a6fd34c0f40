"""Compiled twin of :mod:`assay.tokenizers.intl`: the three international rules in one pass.

sacrebleu's ``intl`` (and mteval-v14's ``--international-tokenization``, :mod:`assay.tokenizers.mteval`)
only insert spaces, so a segment's tokens are slices of its text. One left-to-right scan over the
code points, with the classes ``P`` (punctuation), ``S`` (symbol) and ``N`` (number) read from a
table of every code point (``classes``: one byte per code point U+0000-U+10FFFF, bit 1 = P,
2 = S, 4 = N, built by :mod:`assay.tokenizers.intl` from the installed ``regex`` module, the
classes the pure path uses), cuts the tokens:

- whitespace ends a token (Python ``str.isspace``, or Perl ``\\s``: U+001C-U+001F excluded);
- a symbol is a token of its own (rule 3);
- a maximal run of ``k`` punctuation marks with neighbours L and R (a string end counts as a
  number): every mark is a token of its own, except ``k == 1`` with L and R numbers (the mark
  stays inside the token: ``3.5``, ``2019.``) and, for ``k >= 2`` with R a number, the last mark
  when ``(k odd) == (L is a number)``, which starts the next token (``a..5`` -> ``a . .5``; the
  pure module's docstring derives both exceptions from rules 1 and 2);
- everything else extends the current token.

Spans and ids: the machinery of :mod:`assay.tokenizers._tok_13a_c` (cimported).
"""
from cpython.unicode cimport Py_UNICODE_ISSPACE
from assay.tokenizers._tok_13a_c cimport TRIM_NONE, TRIM_RIGHT, CodeTable, Span, emit, tokens_with

cdef enum:
    P = 1
    S = 2
    N = 4


cdef struct Classes:
    const unsigned char* table        # 0x110000 bytes
    bint perl_space


cdef inline bint _space(Py_UCS4 c, bint perl) noexcept:
    if perl and 0x1C <= c <= 0x1F:
        return False
    return Py_UNICODE_ISSPACE(c)


cdef Py_ssize_t scan(Py_UCS4* s, Py_ssize_t n, Span* spans, const void* opts, bint check) noexcept:
    """The tokens of ``s[:n]`` under rules 1-3 and the split (see the module docstring)."""
    cdef const Classes* o = <const Classes*>opts
    cdef const unsigned char* cls = o.table
    cdef bint perl = o.perl_space, left_num, right_num, attach
    cdef Py_ssize_t i = 0, j, k, p, start = -1, m = 0
    cdef unsigned char kind
    cdef Py_UCS4 c
    while i < n:
        c = s[i]
        kind = cls[c] if c < 0x110000 else 0
        if kind & P:
            j = i + 1
            while j < n and (cls[s[j]] & P):
                j += 1
            k = j - i
            left_num = (cls[s[i - 1]] & N) != 0 if i > 0 else True
            right_num = (cls[s[j]] & N) != 0 if j < n else True
            if k == 1 and left_num and right_num:   # glued to both neighbours
                if start < 0:
                    start = i
                i = j
                continue
            attach = k >= 2 and right_num and ((k % 2 == 1) == left_num)
            if start >= 0:
                emit(spans, &m, s, start, i)
                start = -1
            for p in range(i, j - 1 if attach else j):
                emit(spans, &m, s, p, p + 1)
            if attach:                              # the last mark starts the next token
                start = j - 1
            i = j
            continue
        if (kind & S) or _space(c, perl):
            if start >= 0:
                emit(spans, &m, s, start, i)
                start = -1
            if kind & S:
                emit(spans, &m, s, i, i + 1)
            i += 1
            continue
        if start < 0:
            start = i
        i += 1
    if start >= 0:
        emit(spans, &m, s, start, n)
    return m


cdef Classes _classes(const unsigned char[::1] table, bint perl_space) except *:
    cdef Classes o
    if table.shape[0] != 0x110000:
        raise ValueError("classes: one byte per code point (0x110000 bytes)")
    o.table = &table[0]
    o.perl_space = perl_space
    return o


def tokenize_lines(list lines, object lower, const unsigned char[::1] classes, bint perl_space=False,
                   bint rstrip=True):
    """The tokens of every line: ``lower`` (None or a function), ``rstrip`` (Python whitespace),
    then the rules (``classes``: see the module docstring), split on Python or Perl whitespace."""
    cdef Classes o = _classes(classes, perl_space)
    return tokens_with(lines, lower, None, TRIM_RIGHT if rstrip else TRIM_NONE, scan, &o)


def encode_lines(CodeTable table, list lines, object lower, const unsigned char[::1] classes,
                 bint perl_space=False, bint rstrip=True):
    """``(ids, lengths)`` of :func:`tokenize_lines`, interned into ``table``."""
    cdef Classes o = _classes(classes, perl_space)
    return table.encode_with(lines, lower, None, TRIM_RIGHT if rstrip else TRIM_NONE, scan, &o)
