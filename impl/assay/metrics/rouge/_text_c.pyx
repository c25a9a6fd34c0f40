"""Compiled twin of the ``rouge155``, ``rouge-score`` and ``space`` tokenisers of
:mod:`assay.metrics.rouge.text`, with token interning.

- ``rouge155`` and ``rouge-score``: the maximal runs of ASCII letters and digits (every other
  character, non-ASCII included, separates), lowercased when ``lowercase`` is on: ``rouge155``
  lowercases ASCII only (Perl ``tr/A-Z/a-z/``), ``rouge-score`` applies Python's Unicode
  ``str.lower()`` first, which matters only for a non-ASCII text (``İ`` -> ``i`` + U+0307, KELVIN
  SIGN -> ``k``);
- ``space`` (pycocoevalcap): ``str.split(" ")`` exactly, empty tokens included, after ``lower()``
  when ``lowercase`` is on.

:class:`Interner` scans sentences into token ids without making a string per token: a token's
code points are hashed (FNV-1a) and looked up in an open-addressing table over an arena of code
points; ids are 0, 1, ... in first-seen order (as ``dict.setdefault(token, len(vocab))`` assigns
them), and :meth:`Interner.strings` gives the distinct tokens once.
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.unicode cimport PyUnicode_KIND, PyUnicode_DATA, PyUnicode_READ, PyUnicode_GET_LENGTH
from assay.text._buffers cimport grow as _grow

import numpy as np

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND

#: tokeniser codes of :meth:`Interner.encode` and :func:`tokenize`
TOKENIZERS = {"rouge155": 0, "rouge-score": 1, "space": 2}


cdef inline bint _alnum(uint32_t c) noexcept nogil:
    return (c >= 48 and c <= 57) or (c >= 65 and c <= 90) or (c >= 97 and c <= 122)


cdef class Interner:
    """Tokens -> ids (first-seen order), shared by every :meth:`encode` call."""

    cdef uint32_t* arena        # every distinct token's code points, back to back
    cdef size_t arena_len, cap_arena
    cdef int64_t* offs          # id -> offset in the arena
    cdef int32_t* lens          # id -> length
    cdef uint64_t* hashes       # id -> hash
    cdef size_t cap_offs, cap_lens, cap_hashes
    cdef Py_ssize_t n_ids
    cdef int32_t* table         # open addressing: slot -> id, -1 empty
    cdef Py_ssize_t mask
    cdef uint32_t* buf          # the token being scanned
    cdef size_t cap_buf
    cdef int64_t* out           # ids of the current encode call
    cdef size_t cap_out

    def __cinit__(self):
        self.mask = 1023
        self.table = <int32_t*>PyMem_Malloc((self.mask + 1) * sizeof(int32_t))
        if self.table == NULL:
            raise MemoryError()
        memset(self.table, 0xFF, (self.mask + 1) * sizeof(int32_t))

    def __dealloc__(self):
        PyMem_Free(self.arena)
        PyMem_Free(self.offs)
        PyMem_Free(self.lens)
        PyMem_Free(self.hashes)
        PyMem_Free(self.table)
        PyMem_Free(self.buf)
        PyMem_Free(self.out)

    def __len__(self):
        return self.n_ids

    cdef int _rehash(self) except -1:
        cdef Py_ssize_t slots = 2 * (self.mask + 1), i, j
        PyMem_Free(self.table)
        self.table = <int32_t*>PyMem_Malloc(slots * sizeof(int32_t))
        if self.table == NULL:
            raise MemoryError()
        memset(self.table, 0xFF, slots * sizeof(int32_t))
        self.mask = slots - 1
        for i in range(self.n_ids):
            j = <Py_ssize_t>(self.hashes[i] & <uint64_t>self.mask)
            while self.table[j] >= 0:
                j = (j + 1) & self.mask
            self.table[j] = <int32_t>i
        return 0

    cdef int64_t intern(self, const uint32_t* s, Py_ssize_t n, uint64_t h) except -1:
        cdef Py_ssize_t j = <Py_ssize_t>(h & <uint64_t>self.mask)
        cdef int32_t t
        while True:
            t = self.table[j]
            if t < 0:
                break
            if self.hashes[t] == h and self.lens[t] == n and \
                    memcmp(self.arena + self.offs[t], s, n * sizeof(uint32_t)) == 0:
                return t
            j = (j + 1) & self.mask
        t = <int32_t>self.n_ids
        self.arena = <uint32_t*>_grow(self.arena, (self.arena_len + n) * sizeof(uint32_t), &self.cap_arena)
        memcpy(self.arena + self.arena_len, s, n * sizeof(uint32_t))
        self.offs = <int64_t*>_grow(self.offs, (t + 1) * sizeof(int64_t), &self.cap_offs)
        self.lens = <int32_t*>_grow(self.lens, (t + 1) * sizeof(int32_t), &self.cap_lens)
        self.hashes = <uint64_t*>_grow(self.hashes, (t + 1) * sizeof(uint64_t), &self.cap_hashes)
        self.offs[t] = self.arena_len
        self.lens[t] = <int32_t>n
        self.hashes[t] = h
        self.arena_len += n
        self.table[j] = t
        self.n_ids += 1
        if 2 * self.n_ids > self.mask:
            self._rehash()
        return t

    cdef inline int emit(self, Py_ssize_t k, uint64_t h, Py_ssize_t* at, list collect) except -1:
        """The scanned token (``buf[:k]``, hash ``h``): its id appended to ``out``, or its string to ``collect``."""
        if collect is not None:
            collect.append(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.buf, k))
        else:
            self.out = <int64_t*>_grow(self.out, (at[0] + 1) * sizeof(int64_t), &self.cap_out)
            self.out[at[0]] = self.intern(self.buf, k, h)
            at[0] += 1
        return 0

    cdef Py_ssize_t scan(self, str sentence, int tokenizer, bint lowercase, Py_ssize_t at,
                         list collect) except -1:
        """Tokenise one sentence (``tokenizer``: a :data:`TOKENIZERS` code): its ids appended to
        ``self.out`` from ``at`` on (or, when ``collect`` is a list, the token strings appended
        to it); returns the new end."""
        cdef str text = sentence
        cdef Py_ssize_t n, i, k = 0
        cdef int kind
        cdef void* data
        cdef uint32_t c
        cdef uint64_t h = 14695981039346656037ULL
        cdef bint space = tokenizer == 2
        if lowercase and (space or tokenizer == 1) and not PyUnicode_IS_ASCII(text):
            text = text.lower()
        n = PyUnicode_GET_LENGTH(text)
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        self.buf = <uint32_t*>_grow(self.buf, (n + 1) * sizeof(uint32_t), &self.cap_buf)
        for i in range(n):
            c = <uint32_t>PyUnicode_READ(kind, data, i)
            if space:
                if c == 32:           # str.split(" "): every single space ends a token, empty ones too
                    self.emit(k, h, &at, collect)
                    k = 0
                    h = 14695981039346656037ULL
                    continue
            elif not _alnum(c):
                if k:
                    self.emit(k, h, &at, collect)
                    k = 0
                    h = 14695981039346656037ULL
                continue
            if lowercase and c >= 65 and c <= 90:
                c += 32
            self.buf[k] = c
            h = (h ^ <uint64_t>c) * 1099511628211ULL
            k += 1
        if k or space:
            self.emit(k, h, &at, collect)
        return at

    def encode(self, list sentences, int tokenizer, bint lowercase):
        """Token ids of every sentence, concatenated (int64), and each sentence's token count."""
        cdef Py_ssize_t n_sent = len(sentences), s, at = 0, before
        lengths = np.empty(n_sent, dtype=np.int64)
        cdef int64_t[::1] lens = lengths
        for s in range(n_sent):
            before = at
            at = self.scan(sentences[s], tokenizer, lowercase, at, None)
            lens[s] = at - before
        ids = np.empty(at, dtype=np.int64)
        cdef int64_t[::1] view = ids
        if at:
            memcpy(&view[0], self.out, at * sizeof(int64_t))
        return ids, lengths

    def strings(self, Py_ssize_t start=0):
        """The distinct tokens from id ``start`` on, in id order."""
        cdef Py_ssize_t t
        return [PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.arena + self.offs[t], self.lens[t])
                for t in range(start, self.n_ids)]


def tokenize(str sentence, int tokenizer, bint lowercase):
    """Twin of ``text._tok_rouge155`` (``tokenizer`` 0), ``_tok_rouge_score`` (1), ``_tok_space`` (2)."""
    out = []
    Interner().scan(sentence, tokenizer, lowercase, 0, out)
    return out
