"""Compiled twin of :class:`assay.stemmers.porter.PorterStemmer` for ASCII words.

The same steps, rules and variant switches as the pure module (which documents them), on a C
byte buffer: the consonant pattern is recomputed from the buffer whenever a condition reads it
(a stem's pattern is a prefix of its word's, so ``measure(w[:k])`` is the pattern of the first k
letters). :func:`stem` returns None for a non-ASCII word: the pure stemmer handles those.
"""
from libc.string cimport memcmp, memcpy, strlen
from cpython.mem cimport PyMem_Malloc, PyMem_Free

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    const char* PyUnicode_AsUTF8AndSize(object o, Py_ssize_t* size) except NULL
    object PyUnicode_DecodeASCII(const char* s, Py_ssize_t size, const char* errors)

# variants, as PorterStemmer.variant
cdef enum:
    ORIGINAL = 0
    MARTIN = 1
    ROUGE155 = 2
    NLTK = 3
VARIANT_CODES = {"original": ORIGINAL, "martin": MARTIN, "rouge155": ROUGE155, "nltk": NLTK}


cdef struct Rule:
    const char* suffix
    const char* replacement
    int n_suffix
    int n_replacement


cdef struct Rules:
    Rule items[24]
    int n


cdef struct Variant:
    bint nltk, martin, lin
    Rules step2, step3, step4


cdef Variant VARIANTS[4]


cdef void _add(Rules* rules, const char* suffix, const char* replacement) noexcept:
    """Append a rule, keeping the list ordered by suffix length, longest first (stable)."""
    cdef int n = <int>strlen(suffix), k = rules.n
    while k > 0 and rules.items[k - 1].n_suffix < n:
        rules.items[k] = rules.items[k - 1]
        k -= 1
    rules.items[k].suffix = suffix
    rules.items[k].replacement = replacement
    rules.items[k].n_suffix = n
    rules.items[k].n_replacement = <int>strlen(replacement)
    rules.n += 1


cdef void _init_variant(Variant* v, int code) noexcept:
    v.nltk = code == NLTK
    v.martin = code != ORIGINAL
    v.lin = code == ROUGE155
    v.step2.n = 0
    v.step3.n = 0
    v.step4.n = 0
    for s, r in ((b"ational", b"ate"), (b"tional", b"tion"), (b"enci", b"ence"), (b"anci", b"ance"),
                 (b"izer", b"ize"), (b"alli", b"al"), (b"entli", b"ent"), (b"eli", b"e"), (b"ousli", b"ous"),
                 (b"ization", b"ize"), (b"ation", b"ate"), (b"ator", b"ate"), (b"alism", b"al"),
                 (b"iveness", b"ive"), (b"fulness", b"ful"), (b"ousness", b"ous"), (b"aliti", b"al"),
                 (b"iviti", b"ive"), (b"biliti", b"ble")):
        _add(&v.step2, s, r)
    if v.martin:
        _add(&v.step2, b"bli", b"ble")
        _add(&v.step2, b"logi", b"log")
    else:
        _add(&v.step2, b"abli", b"able")
    if v.nltk:
        _add(&v.step2, b"fulli", b"ful")
    for s, r in ((b"icate", b"ic"), (b"ative", b""), (b"alize", b"al"), (b"iciti", b"ic"), (b"ical", b"ic"),
                 (b"ful", b""), (b"ness", b"")):
        _add(&v.step3, s, r)
    for s in (b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ment", b"ent",
              b"ion", b"ou", b"ism", b"ate", b"iti", b"ous", b"ive", b"ize"):
        if v.lin and s in (b"ment", b"ent", b"ion"):   # Lin: moved to the two later rounds
            continue
        _add(&v.step4, s, b"")


cdef Rules LIN_MENT
cdef Rules LIN_ENT_ION
LIN_MENT.n = 0
LIN_ENT_ION.n = 0
_add(&LIN_MENT, b"ment", b"")
_add(&LIN_ENT_ION, b"ent", b"")
_add(&LIN_ENT_ION, b"ion", b"")
for _code in range(4):
    _init_variant(&VARIANTS[_code], _code)


# ----------------------------------------------------------------------------- the paper's definitions
cdef inline bint _vowel_letter(char c) noexcept nogil:
    return c == b'a' or c == b'e' or c == b'i' or c == b'o' or c == b'u'


cdef inline bint _cons_at(const char* s, int k) noexcept nogil:
    """Is letter k a consonant (a y is one at the start or after a vowel)."""
    cdef bint cons = True
    cdef int i
    for i in range(k + 1):
        if _vowel_letter(s[i]):
            cons = False
        elif s[i] == b'y':
            cons = i == 0 or not cons
        else:
            cons = True
    return cons


cdef int _measure(const char* s, int k) noexcept nogil:
    """m of the first k letters: the number of vowel -> consonant transitions."""
    cdef int i, m = 0
    cdef bint cons = True, prev_vowel = False
    for i in range(k):
        if _vowel_letter(s[i]):
            cons = False
        elif s[i] == b'y':
            cons = i == 0 or not cons
        else:
            cons = True
        if cons and prev_vowel:
            m += 1
        prev_vowel = not cons
    return m


cdef bint _has_vowel(const char* s, int k) noexcept nogil:
    cdef int i
    cdef bint cons = True
    for i in range(k):
        if _vowel_letter(s[i]):
            return True
        elif s[i] == b'y':
            cons = i == 0 or not cons
            if not cons:
                return True
        else:
            cons = True
    return False


cdef inline bint _ends(const char* s, int n, const char* suffix, int k) noexcept nogil:
    return n >= k and memcmp(s + n - k, suffix, k) == 0


cdef bint _double_consonant(const char* s, int k) noexcept nogil:
    return k >= 2 and s[k - 1] == s[k - 2] and _cons_at(s, k - 1)


cdef bint _ends_cvc(const Variant* v, const char* s, int k) noexcept nogil:
    """*o; NLTK_EXTENSIONS also counts a two-letter vowel-consonant stem."""
    if k >= 3 and _cons_at(s, k - 3) and not _cons_at(s, k - 2) and _cons_at(s, k - 1) \
            and s[k - 1] != b'w' and s[k - 1] != b'x' and s[k - 1] != b'y':
        return True
    return v.nltk and k == 2 and not _cons_at(s, 0) and _cons_at(s, 1)


cdef int _apply(char* s, int n, const Rules* rules, int min_m) noexcept nogil:
    """The rule with the longest matching suffix, applied if m(stem) > min_m; the new length.
    ``ion`` needs its stem to end in s or t, else it does not match at all."""
    cdef int r, k, stem
    cdef const Rule* rule
    for r in range(rules.n):
        rule = &rules.items[r]
        k = rule.n_suffix
        if not _ends(s, n, rule.suffix, k):
            continue
        stem = n - k
        if k == 3 and memcmp(rule.suffix, b"ion", 3) == 0 and not (stem > 0 and (s[stem - 1] == b's' or s[stem - 1] == b't')):
            continue
        if _measure(s, stem) > min_m:
            memcpy(s + stem, rule.replacement, rule.n_replacement)
            return stem + rule.n_replacement
        return n
    return n


# ----------------------------------------------------------------------------- steps
cdef int _step1a(const Variant* v, char* s, int n) noexcept nogil:
    if _ends(s, n, b"sses", 4):
        return n - 2
    if _ends(s, n, b"ies", 3):
        if v.nltk and n == 4:
            return n - 1
        return n - 2
    if _ends(s, n, b"ss", 2):
        return n
    if _ends(s, n, b"s", 1):
        return n - 1
    return n


cdef int _step1b(const Variant* v, char* s, int n) noexcept nogil:
    if v.nltk and _ends(s, n, b"ied", 3):
        return n - 1 if n == 4 else n - 2
    if _ends(s, n, b"eed", 3):
        return n - 1 if _measure(s, n - 3) > 0 else n
    if _ends(s, n, b"ed", 2) and _has_vowel(s, n - 2):
        n -= 2
    elif _ends(s, n, b"ing", 3) and _has_vowel(s, n - 3):
        n -= 3
    else:
        return n
    if _ends(s, n, b"at", 2) or _ends(s, n, b"bl", 2) or _ends(s, n, b"iz", 2):
        s[n] = b'e'
        return n + 1
    if _double_consonant(s, n) and not (s[n - 1] == b'l' or s[n - 1] == b's' or s[n - 1] == b'z'
                                        or (v.lin and s[n - 1] == b'y')):
        return n - 1
    if _measure(s, n) == 1 and _ends_cvc(v, s, n):
        s[n] = b'e'
        return n + 1
    return n


cdef int _step1c(const Variant* v, char* s, int n) noexcept nogil:
    cdef bint ok
    if not _ends(s, n, b"y", 1):
        return n
    if v.nltk:
        ok = n - 1 > 1 and _cons_at(s, n - 2)
    else:
        ok = _has_vowel(s, n - 1)
    if ok:
        s[n - 1] = b'i'
    return n


cdef int _step2(const Variant* v, char* s, int n) noexcept nogil:
    if v.nltk:
        if _ends(s, n, b"alli", 4) and _measure(s, n - 4) > 0:
            return _step2(v, s, n - 2)
        if _ends(s, n, b"logi", 4):   # NLTK measures the stem with the l kept (biology -> biolog)
            return n - 1 if _measure(s, n - 3) > 0 else n
    return _apply(s, n, &v.step2, 0)


cdef int _step4(const Variant* v, char* s, int n) noexcept nogil:
    n = _apply(s, n, &v.step4, 1)
    if v.lin:
        n = _apply(s, n, &LIN_MENT, 1)
        n = _apply(s, n, &LIN_ENT_ION, 1)
    return n


cdef int _step5(const Variant* v, char* s, int n) noexcept nogil:
    cdef int m
    if _ends(s, n, b"e", 1):
        m = _measure(s, n - 1)
        if m > 1 or (m == 1 and not _ends_cvc(v, s, n - 1)):
            n -= 1
    if _ends(s, n, b"ll", 2) and _measure(s, n) > 1:
        n -= 1
    return n


def stem(str word, int variant, dict irregular=None):
    """The stem of one lowercase ASCII word (``PorterStemmer(variant).stem``), None if not ASCII.
    ``irregular``: NLTK_EXTENSIONS' word -> stem table (looked up first when the variant is nltk)."""
    cdef Py_ssize_t size
    cdef const char* text
    cdef char local[64]
    cdef char* s = local
    cdef int n
    cdef const Variant* v = &VARIANTS[variant]
    if not PyUnicode_IS_ASCII(word):
        return None
    if v.nltk and irregular is not None:
        got = irregular.get(word)
        if got is not None:
            return got
    text = PyUnicode_AsUTF8AndSize(word, &size)
    if v.martin and size <= 2:
        return word
    if size + 8 > 64:
        s = <char*>PyMem_Malloc(size + 8)
        if s == NULL:
            raise MemoryError()
    try:
        memcpy(s, text, size)
        n = <int>size
        n = _step1a(v, s, n)
        n = _step1b(v, s, n)
        n = _step1c(v, s, n)
        n = _step2(v, s, n)
        n = _apply(s, n, &v.step3, 0)
        n = _step4(v, s, n)
        n = _step5(v, s, n)
        return PyUnicode_DecodeASCII(s, n, NULL)
    finally:
        if s != local:
            PyMem_Free(s)
