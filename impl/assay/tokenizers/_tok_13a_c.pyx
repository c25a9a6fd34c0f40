"""Compiled twin of :mod:`assay.tokenizers.tok_13a`: rules 4-5 of 13a in one pass over the code points.

After lowercasing, ``rstrip()`` and rules 1-3 (delegated to the pure functions, and only for a
line holding ``\\n``, ``&`` or ``<``: the scan stops at the first one and starts again on the
rewritten line), a segment's tokens are slices of its text: 13a only inserts
spaces. One left-to-right scan classifies every code point of the (conceptually space-padded)
text and cuts the slices directly, with no padded or rewritten intermediate string:

- Python whitespace (``str.isspace``, U+001C-U+001F included) ends a token;
- rule 4a's ASCII punctuation (``!"#$%&()*+/:;<=>?@[\\]^_`{|}~``) is a token of its own;
- a hyphen right after an ASCII digit is a token of its own (rule 4d);
- a maximal run of ``k`` periods/commas with neighbours L and R (rules 4b and 4c): each one is a
  token of its own, except ``k == 1`` between two digits (kept inside the token, ``3.5``) and,
  for ``k >= 2`` with a digit R, the last one when ``(k odd) == (L is a digit)``, which starts the
  next token (``a..5`` -> ``a . .5``; the pure module's docstring derives both exceptions);
- everything else extends the current token.

:func:`tokenize_lines` returns the slices as ``str`` (the twin of ``Tokenizer13a.tokenize_lines``);
:class:`CodeTable` interns them as integer ids without making any ``str`` (the twin of
``tokenize_lines`` followed by :func:`assay.text.ngrams.encode` with a fresh vocabulary: same ids,
first-seen order), keyed on the code points in an open-addressing hash table. A token of at most
8 code points below U+0100 (nearly every word of a European corpus) is its own key: its code
points packed into one 64-bit integer (with its length), so looking it up compares two integers;
a longer token is keyed on a hash of its code points and compared code point by code point.

Options (the same engine serves three tokenizers; :mod:`assay.tokenizers.zh` and
:mod:`assay.tokenizers.mteval` use it too): ``perl_space`` (Perl ``\\s``: U+001C-U+001F are not
whitespace; mteval-13a), ``ends_digit`` (a string end counts as a digit for rules 4b/4c: ``zh`` runs
the rules on the unpadded text) and ``isolate`` (a table of the BMP code points that are tokens of
their own, as rule 4a punctuation is: ``zh``'s "Chinese" characters), and how the line is trimmed.

Shared machinery (``_tok_13a_c.pxd``, cimported by the other compiled tokenizers): a *scanner*
cuts a line into :c:type:`Span` s, :class:`Scratch` runs a line through lowercasing, trimming,
an optional rewrite and a scanner, :func:`tokens_with` / :meth:`CodeTable.encode_with` drive a
scanner over a corpus to token lists / ids.
"""

from cpython.exc cimport PyErr_CheckSignals
from cpython.unicode cimport PyUnicode_AsUCS4, PyUnicode_GET_LENGTH, PyUnicode_Substring, Py_UNICODE_ISSPACE
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

import numpy as np

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND


cdef enum:   # character classes
    NORMAL = 0
    SPACE = 1
    ALONE = 2      # rule 4a punctuation
    DOTCOMMA = 3   # '.' or ','
    DASH = 4       # '-'

cdef unsigned char CLASS[128]         # Python whitespace (str.isspace)
cdef unsigned char CLASS_PERL[128]    # Perl \s: U+001C-U+001F are ordinary characters
cdef unsigned char TRIGGERS[128]      # '\n', '&', '<': the line needs rules 1-3
cdef uint64_t FNV_OFFSET = 14695981039346656037ULL
cdef uint32_t LONG = 0x80000000U       # tag flag: the key is a hash, not the packed code points


cdef struct Rules:
    const unsigned char* cls           # CLASS or CLASS_PERL
    bint ends_digit                    # a string end counts as a digit (rules 4b/4c)
    const unsigned char* isolate       # NULL, or 0x10000 flags: BMP code points isolated like 4a


cdef void _init_classes():
    cdef int c
    for c in range(128):
        CLASS[c] = SPACE if Py_UNICODE_ISSPACE(<Py_UCS4>c) else NORMAL
        TRIGGERS[c] = 0
    for c in b"!\"#$%&()*+/:;<=>?@[\\]^_`{|}~":
        CLASS[c] = ALONE
    CLASS[ord(".")] = DOTCOMMA
    CLASS[ord(",")] = DOTCOMMA
    CLASS[ord("-")] = DASH
    for c in b"\n&<":
        TRIGGERS[c] = 1
    for c in range(128):
        CLASS_PERL[c] = CLASS[c]
    for c in range(0x1C, 0x20):
        CLASS_PERL[c] = NORMAL


_init_classes()


cdef inline bint _digit(Py_UCS4 c) noexcept:
    return 48 <= c <= 57


cdef inline int _class(Py_UCS4 c, const unsigned char* cls, const unsigned char* iso) noexcept:
    if c < 128:
        return cls[c]
    if Py_UNICODE_ISSPACE(c):
        return SPACE
    if iso != NULL and c < 0x10000 and iso[c]:
        return ALONE
    return NORMAL


cdef inline void _emit(Span* spans, Py_ssize_t* m, Py_ssize_t start, Py_ssize_t end, uint64_t word,
                       uint32_t high) noexcept:
    cdef Span* span = &spans[m[0]]
    span.start = start
    span.end = end
    span.word = word
    span.packed = high < 256 and end - start <= 8
    m[0] += 1


cdef void emit(Span* spans, Py_ssize_t* m, const Py_UCS4* s, Py_ssize_t start, Py_ssize_t end) noexcept:
    """Append the token ``s[start:end]`` (packing its key when it is short and below U+0100)."""
    cdef uint64_t word = 0
    cdef uint32_t high = 0
    cdef Py_ssize_t k
    if end - start <= 8:
        for k in range(start, end):
            word = (word << 8) | <uint64_t>s[k]
            high |= <uint32_t>s[k]
    else:
        high = 256
    _emit(spans, m, start, end, word, high)


cdef Py_ssize_t scan(Py_UCS4* s, Py_ssize_t n, Span* spans, const void* opts, bint check) noexcept:
    """Rules 4-5 on ``s[:n]``: writes the tokens into ``spans`` (room for ``n``) and returns how
    many there are; -1 when ``check`` and the text holds a character that calls for rules 1-3.
    ``s[n]`` must be writable: a space is put there to end the last run of ordinary characters."""
    cdef const Rules* r = <const Rules*>opts
    cdef const unsigned char* cls = r.cls
    cdef const unsigned char* iso = r.isolate
    cdef bint ends_digit = r.ends_digit
    cdef Py_ssize_t i = 0, j, k, p, start = -1, m = 0
    cdef int kind
    cdef bint attach, left_digit, right_digit
    cdef uint64_t word = 0
    cdef Py_UCS4 c
    cdef uint32_t high = 0             # the bitwise or of the token's code points
    s[n] = 32
    while i < n:
        c = s[i]
        kind = _class(c, cls, iso)
        if kind == NORMAL or (kind == DASH and (i == 0 or not _digit(s[i - 1]))):
            if start < 0:
                start = i
                word = 0
                high = 0
            while True:                      # the rest of the run of ordinary characters
                word = (word << 8) | <uint64_t>c     # (bits above 8 matter only when high >= 256)
                high |= <uint32_t>c
                i += 1
                c = s[i]
                if c < 128:
                    if cls[c] != NORMAL:
                        break
                elif Py_UNICODE_ISSPACE(c) or (iso != NULL and c < 0x10000 and iso[c]):
                    break
            continue
        if kind == DOTCOMMA:
            j = i + 1
            while s[j] == 46 or s[j] == 44:  # the sentinel ends the run
                j += 1
            k = j - i
            left_digit = _digit(s[i - 1]) if i > 0 else ends_digit
            right_digit = _digit(s[j]) if j < n else ends_digit
            if k == 1 and left_digit and right_digit:
                if start < 0:                # (a string start counting as a digit)
                    start = i
                    word = 0
                    high = 0
                word = (word << 8) | <uint64_t>c     # E1: a lone period/comma between digits stays inside the token
                i += 1
                continue
            attach = k >= 2 and right_digit and ((k % 2 == 1) == left_digit)
            if start >= 0:
                _emit(spans, &m, start, i, word, high)
                start = -1
            for p in range(i, j - 1 if attach else j):
                _emit(spans, &m, p, p + 1, <uint64_t>s[p], 0)
            if attach:                       # E2: the last one starts the next token
                start = j - 1
                word = <uint64_t>s[j - 1]
                high = 0
            i = j
            continue
        if check and c < 128 and TRIGGERS[c]:
            return -1
        # whitespace, rule 4a punctuation, an isolated character or a hyphen after a digit: the token ends here
        if start >= 0:
            _emit(spans, &m, start, i, word, high)
            start = -1
        if kind != SPACE:
            _emit(spans, &m, i, i + 1, <uint64_t>c, <uint32_t>c)
        i += 1
    if start >= 0:
        _emit(spans, &m, start, n, word, high)
    return m


cdef class Scratch:
    """Per-call buffers: the current line as UCS4 and its token spans (grown to the longest line)."""

    def __cinit__(self):
        self.text = NULL
        self.spans = NULL
        self.cap = 0

    def __dealloc__(self):
        free(self.text)
        free(self.spans)

    cdef Py_ssize_t load(self, object line) except -1:
        cdef Py_ssize_t n, cap
        cdef void* t
        cdef void* s
        if not isinstance(line, str):
            raise TypeError(f"tokenizers take strings, not {type(line).__name__}")
        n = PyUnicode_GET_LENGTH(line)
        if n + 1 >= self.cap:
            cap = max(n + 2, 2 * self.cap, 256)
            t = realloc(self.text, cap * sizeof(Py_UCS4))
            if t == NULL:
                raise MemoryError()
            self.text = <Py_UCS4*>t
            s = realloc(self.spans, cap * sizeof(Span))
            if s == NULL:
                raise MemoryError()
            self.spans = <Span*>s
            self.cap = cap
        if n:
            PyUnicode_AsUCS4(line, self.text, self.cap, 0)
        self.line = line
        return n

    cdef Py_ssize_t run(self, object line, object lower, object prepare, Trim trim, Scanner scanner,
                        const void* opts) except -1:
        """Tokenise one line: ``lower`` (None or a function), ``trim``, then ``scanner``; when the
        scanner asks for it (only if ``prepare`` is not None), ``prepare`` on the trimmed line and
        the scanner again. Returns the token count; the tokens are ``self.spans`` over
        ``self.text``/``self.line``."""
        cdef Py_ssize_t n, m, lo = 0
        if lower is not None:
            line = lower(line)
        n = self.load(line)
        if trim != TRIM_NONE:
            while n > 0 and Py_UNICODE_ISSPACE(self.text[n - 1]):   # str.rstrip()
                n -= 1
            if trim == TRIM_BOTH:
                while lo < n and Py_UNICODE_ISSPACE(self.text[lo]):
                    lo += 1
                if lo:
                    n = self.load(line[lo:n])
        m = scanner(self.text, n, self.spans, opts, prepare is not None)
        if m < 0:                                               # the rewrite: the pure functions
            n = self.load(prepare(self.line[:n]))
            m = scanner(self.text, n, self.spans, opts, False)
        return m


cdef list tokens_with(list lines, object lower, object prepare, Trim trim, Scanner scanner, const void* opts):
    """The tokens (``str`` each) of every line under ``scanner`` (see :meth:`Scratch.run`)."""
    cdef Scratch buf = Scratch()
    cdef Py_ssize_t m, t
    cdef list out = [], toks
    for line in lines:
        m = buf.run(line, lower, prepare, trim, scanner, opts)
        toks = [None] * m
        for t in range(m):
            toks[t] = PyUnicode_Substring(buf.line, buf.spans[t].start, buf.spans[t].end)
        out.append(toks)
    return out


cdef Rules _rules(bint perl_space, bint ends_digit, const unsigned char[::1] isolate) except *:
    cdef Rules r
    if perl_space:
        r.cls = &CLASS_PERL[0]
    else:
        r.cls = &CLASS[0]
    r.ends_digit = ends_digit
    r.isolate = NULL
    if isolate is not None:
        if isolate.shape[0] != 0x10000:
            raise ValueError("isolate: one flag per BMP code point (65536 bytes)")
        r.isolate = &isolate[0]
    return r


def tokenize_lines(list lines, object lower, object prepare, int trim=TRIM_RIGHT, bint perl_space=False,
                   bint ends_digit=False, const unsigned char[::1] isolate=None):
    """``Tokenizer13a.tokenize_segment(line, lowercase)`` of every line (a list of ``str`` each).

    ``lower``: None or the lowercasing function (``lowercase_text`` for the mode); ``prepare``:
    rules 1-3 (``unescape_13a(strip_skipped_and_join(text))``), called only on lines that need it
    (None: no rules 1-3). ``trim`` (0 none, 1 rstrip, 2 strip) and the rule options: see the module
    docstring.
    """
    cdef Rules r = _rules(perl_space, ends_digit, isolate)
    return tokens_with(lines, lower, prepare, <Trim>trim, scan, &r)


cdef inline Py_ssize_t _index(uint64_t key, uint32_t tag, Py_ssize_t mask) noexcept:
    key ^= <uint64_t>tag * 0xC2B2AE3D27D4EB4FULL
    key ^= key >> 31
    key *= 0x9E3779B97F4A7C15ULL
    key ^= key >> 29
    return <Py_ssize_t>(key & <uint64_t>mask)


cdef class CodeTable:
    """Token ids keyed on code points: ids 0, 1, ... in first-seen order over every call.

    ``encode_lines(lines, lower, prepare, ...)`` -> ``(ids, lengths)`` (int64 arrays): the ids of
    the tokens of every line, concatenated, and each line's token count. Equal to interning
    ``tokenize_lines(lines, lower, prepare, ...)`` into one dict shared by every call (:meth:`words`
    lists the tokens by id, for tests). Keys: see the module docstring. The other compiled
    tokenizers intern their tokens here too (:meth:`encode_with`).
    """

    def __cinit__(self):
        self.n_slots = 1024
        self.cap_chars = 1024
        self.cap_ids = 512
        self.slots = <Slot*>malloc(self.n_slots * sizeof(Slot))
        self.chars = <Py_UCS4*>malloc(self.cap_chars * sizeof(Py_UCS4))
        self.starts = <Py_ssize_t*>malloc(self.cap_ids * sizeof(Py_ssize_t))
        if self.slots == NULL or self.chars == NULL or self.starts == NULL:
            raise MemoryError()
        memset(self.slots, 0xFF, self.n_slots * sizeof(Slot))
        self.n_chars = 0
        self.n_ids = 0

    def __dealloc__(self):
        free(self.slots)
        free(self.chars)
        free(self.starts)

    def __len__(self):
        return self.n_ids

    def words(self):
        """Every token, by id."""
        cdef Py_ssize_t i, k, n
        cdef Py_UCS4 buf[8]
        cdef Slot* slot
        out = [None] * self.n_ids
        for i in range(self.n_slots):
            slot = &self.slots[i]
            if slot.id < 0:
                continue
            if slot.tag & LONG:
                out[slot.id] = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, self.chars + self.starts[slot.id],
                                                         slot.tag & ~LONG)
            else:
                n = slot.tag
                for k in range(n):
                    buf[k] = <Py_UCS4>((slot.key >> (8 * (n - 1 - k))) & 0xFF)
                out[slot.id] = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, n)
        return out

    cdef int _grow_slots(self) except -1:
        cdef Py_ssize_t n = self.n_slots * 2, i, j
        cdef Slot* new = <Slot*>malloc(n * sizeof(Slot))
        if new == NULL:
            raise MemoryError()
        memset(new, 0xFF, n * sizeof(Slot))
        for i in range(self.n_slots):
            if self.slots[i].id >= 0:
                j = _index(self.slots[i].key, self.slots[i].tag, n - 1)
                while new[j].id >= 0:
                    j = (j + 1) & (n - 1)
                new[j] = self.slots[i]
        free(self.slots)
        self.slots = new
        self.n_slots = n
        return 0

    cdef int64_t intern(self, const Py_UCS4* text, const Span* span) except -1:
        cdef const Py_UCS4* s = text + span.start
        cdef Py_ssize_t n = span.end - span.start, j, k
        cdef uint64_t key
        cdef uint32_t tag
        cdef void* p
        cdef Slot* slot
        if span.packed:
            key = span.word
            tag = <uint32_t>n
        else:
            if n >= LONG:
                raise MemoryError("token table: a token of 2**31 code points or more")
            key = FNV_OFFSET
            for k in range(n):
                key = (key ^ <uint64_t>s[k]) * 1099511628211ULL
            tag = <uint32_t>n | LONG
        j = _index(key, tag, self.n_slots - 1)
        while True:
            slot = &self.slots[j]
            if slot.id < 0:
                break
            if slot.key == key and slot.tag == tag and (span.packed or memcmp(
                    self.chars + self.starts[slot.id], s, n * sizeof(Py_UCS4)) == 0):
                return slot.id
            j = (j + 1) & (self.n_slots - 1)
        # a new token
        if self.n_ids == self.cap_ids:
            self.cap_ids *= 2
            p = realloc(self.starts, self.cap_ids * sizeof(Py_ssize_t))
            if p == NULL:
                raise MemoryError()
            self.starts = <Py_ssize_t*>p
        self.starts[self.n_ids] = self.n_chars
        if not span.packed:
            if self.n_chars + n > self.cap_chars:
                self.cap_chars = max(2 * self.cap_chars, self.n_chars + n)
                p = realloc(self.chars, self.cap_chars * sizeof(Py_UCS4))
                if p == NULL:
                    raise MemoryError()
                self.chars = <Py_UCS4*>p
            memcpy(self.chars + self.n_chars, s, n * sizeof(Py_UCS4))
            self.n_chars += n
        slot.key = key
        slot.tag = tag
        slot.id = <int32_t>self.n_ids
        self.n_ids += 1
        if 2 * self.n_ids > self.n_slots:
            self._grow_slots()
        return self.n_ids - 1

    def encode_lines(self, list lines, object lower, object prepare, int trim=TRIM_RIGHT, bint perl_space=False,
                     bint ends_digit=False, const unsigned char[::1] isolate=None):
        """``(ids, lengths)`` of ``lines`` under the 13a rules (see the class docstring and
        :func:`tokenize_lines` for the arguments)."""
        cdef Rules r = _rules(perl_space, ends_digit, isolate)
        return self.encode_with(lines, lower, prepare, <Trim>trim, scan, &r)

    cdef tuple encode_with(self, list lines, object lower, object prepare, Trim trim, Scanner scanner,
                           const void* opts):
        """``(ids, lengths)`` of ``lines`` tokenised by ``scanner`` (see :meth:`Scratch.run`)."""
        cdef Scratch buf = Scratch()
        cdef Py_ssize_t n_lines = len(lines), li, m, t, total = 0, cap = 1024
        cdef int64_t* ids = <int64_t*>malloc(cap * sizeof(int64_t))
        cdef void* p
        lengths = np.zeros(n_lines, dtype=np.int64)
        cdef int64_t[::1] lens = lengths
        if ids == NULL:
            raise MemoryError()
        try:
            for li in range(n_lines):
                if (li & 1023) == 0:
                    PyErr_CheckSignals()   # let Ctrl-C through during a long corpus
                m = buf.run(lines[li], lower, prepare, trim, scanner, opts)
                if total + m > cap:
                    cap = max(2 * cap, total + m)
                    p = realloc(ids, cap * sizeof(int64_t))
                    if p == NULL:
                        raise MemoryError()
                    ids = <int64_t*>p
                for t in range(m):
                    ids[total + t] = self.intern(buf.text, &buf.spans[t])
                total += m
                lens[li] = m
            out = np.empty(total, dtype=np.int64)
            if total:
                _copy_ids(out, ids, total)
        finally:
            free(ids)
        return out, lengths


cdef void _copy_ids(int64_t[::1] out, const int64_t* ids, Py_ssize_t n) noexcept:
    memcpy(&out[0], ids, n * sizeof(int64_t))
