"""Porter's suffix-stripping stemmer (Porter 1980), with switches for the variants tools ship.

Written from the published algorithm (M.F. Porter, "An algorithm for suffix stripping",
Program 14(3), 1980, and the description of its departures on Porter's own page), and from
black-box comparison with the tools (never from their code):

``original``
    The 1980 paper as published.
``martin``
    Porter's reference release: in step 2 ``bli -> ble`` replaces ``abli -> able`` and
    ``logi -> log`` is added; words of one or two letters are left alone.
``rouge155``
    What ROUGE-1.5.5.pl ``-m`` runs after its exception-list lookup: ``martin`` plus C.-Y. Lin's
    step-4 change: ``ment``, ``ent`` and ``(s|t)ion`` leave the step-4 list; after the list, the
    ``ment`` rule and then the ``ent`` / ``(s|t)ion`` rules are tried, each on the result of the
    previous round, so a word can lose more than one suffix (``departmental -> depart``,
    ``agreement -> agreem``). Also, step 1b's double-consonant rule leaves a final ``yy`` alone.
``nltk``
    NLTK's ``PorterStemmer`` in its default ``NLTK_EXTENSIONS`` mode (what rouge-score uses),
    from the mode differences NLTK documents: a table of irregular words (``dying -> die``,
    ``skies -> sky``, ``news -> news`` ...), ``ies -> ie`` / ``ied -> ie`` on four-letter words,
    ``ied -> i``, step 1c ``y -> i`` only after a consonant that is not the first letter,
    ``alli`` handled before the rest of step 2 (and step 2 re-run), ``fulli -> ful``, ``logi``'s
    ``m > 0`` tested on the stem with its ``l`` (``biology -> biolog``), and a two-letter ``vc`` word counting as ``*o``.

Definitions (the paper's). A consonant is a letter other than a, e, i, o, u and other than a
``y`` preceded by a consonant (any other character, e.g. a digit, is a consonant). ``m`` is the
measure of a stem written ``[C](VC){m}[V]``. ``*v*``: the stem contains a vowel; ``*d``: it ends
with a double consonant; ``*o``: it ends consonant-vowel-consonant with the last not w, x or y.
In each step the rule with the longest matching suffix is the only one considered.

Compiled twin: :mod:`assay.stemmers._porter_c` stems ASCII words in C (:meth:`PorterStemmer.stem`
uses it when built; :meth:`PorterStemmer.stem_py` is this module's pure path, and the only one
for non-ASCII words).
"""
from __future__ import annotations

from typing import Callable

from assay.core import accel

_compiled = accel.load("assay.stemmers._porter_c")   # None: the pure path

VARIANTS: tuple[str, ...] = ("original", "martin", "rouge155", "nltk")

# NLTK_EXTENSIONS: irregular forms mapped straight to their stem (word -> stem).
_NLTK_IRREGULAR: dict[str, str] = {
    "skies": "sky", "sky": "sky",
    "dying": "die", "lying": "lie", "tying": "tie",
    "news": "news",
    "innings": "inning", "inning": "inning",
    "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning",
    "howe": "howe",
    "proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}


_ASCII_CV = str.maketrans({chr(i): ("v" if chr(i) in "aeiou" else "c") for i in range(128)})


def _pattern(word: str) -> str:
    """One ``c``/``v`` per character under the paper's consonant definition."""
    if word.isascii():
        pattern = word.translate(_ASCII_CV)
        if "y" not in word:
            return pattern
        cells = list(pattern)
        for i, ch in enumerate(word):
            if ch == "y":  # a consonant at the start or after a vowel, else a vowel
                cells[i] = "c" if i == 0 or cells[i - 1] == "v" else "v"
        return "".join(cells)
    out = []
    prev_consonant = False
    for i, ch in enumerate(word):
        if ch in "aeiou":
            consonant = False
        elif ch == "y":
            consonant = i == 0 or not prev_consonant
        else:
            consonant = True
        out.append("c" if consonant else "v")
        prev_consonant = consonant
    return "".join(out)


def measure(stem: str) -> int:
    """``m`` of ``[C](VC){m}[V]``: the number of vowel-to-consonant transitions."""
    return _pattern(stem).count("vc")


def _has_vowel(stem: str) -> bool:
    return "v" in _pattern(stem)


def _double_consonant(stem: str) -> bool:
    return len(stem) >= 2 and stem[-1] == stem[-2] and _pattern(stem)[-1] == "c"


class PorterStemmer:
    """A Porter stemmer of one variant (see the module docstring); ``stem(word)`` is pure."""

    def __init__(self, variant: str = "martin") -> None:
        if variant not in VARIANTS:
            raise ValueError(f"unknown Porter variant {variant!r}; known: {', '.join(VARIANTS)}")
        self.variant = variant
        self._code = VARIANTS.index(variant)
        self._nltk = variant == "nltk"
        self._martin = variant != "original"
        self._lin = variant == "rouge155"
        # Step 1b's *d rule keeps l, s, z; ROUGE's Porter also keeps a doubled y, which the
        # paper's consonant definition can make a double consonant (groznyyed -> groznyi).
        self._keep_double = "lszy" if self._lin else "lsz"
        step2 = [
            ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
            ("izer", "ize"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"),
            ("ization", "ize"), ("ation", "ate"), ("ator", "ate"), ("alism", "al"),
            ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
            ("iviti", "ive"), ("biliti", "ble"),
        ]
        step2.append(("bli", "ble") if self._martin else ("abli", "able"))
        if self._martin:
            step2.append(("logi", "log"))
        if self._nltk:
            step2 += [("fulli", "ful")]
        self._rules2 = _longest_first(step2)
        self._rules3 = _longest_first([
            ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
            ("ful", ""), ("ness", ""),
        ])
        step4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion",
                 "ou", "ism", "ate", "iti", "ous", "ive", "ize"]
        if self._lin:  # ment, ent and (s|t)ion move out of the list into two later rounds
            step4 = [s for s in step4 if s not in ("ment", "ent", "ion")]
        self._rules4 = _longest_first([(s, "") for s in step4])

    # -- helpers ---------------------------------------------------------------------------
    def _ends_cvc(self, stem: str) -> bool:
        """``*o``; NLTK_EXTENSIONS also counts a two-letter vowel-consonant stem."""
        p = _pattern(stem)
        if len(stem) >= 3 and p[-3:] == "cvc" and stem[-1] not in "wxy":
            return True
        return self._nltk and len(stem) == 2 and p == "vc"

    # -- steps -----------------------------------------------------------------------------
    def _step1a(self, w: str) -> str:
        if w.endswith("sses"):
            return w[:-2]
        if w.endswith("ies"):
            if self._nltk and len(w) == 4:
                return w[:-1]
            return w[:-2]
        if w.endswith("ss"):
            return w
        if w.endswith("s"):
            return w[:-1]
        return w

    def _step1b(self, w: str) -> str:
        if self._nltk and w.endswith("ied"):
            return w[:-1] if len(w) == 4 else w[:-2]
        if w.endswith("eed"):
            return w[:-1] if measure(w[:-3]) > 0 else w
        if w.endswith("ed") and _has_vowel(w[:-2]):
            w = w[:-2]
        elif w.endswith("ing") and _has_vowel(w[:-3]):
            w = w[:-3]
        else:
            return w
        if w.endswith(("at", "bl", "iz")):
            return w + "e"
        if _double_consonant(w) and w[-1] not in self._keep_double:
            return w[:-1]
        if measure(w) == 1 and self._ends_cvc(w):
            return w + "e"
        return w

    def _step1c(self, w: str) -> str:
        if not w.endswith("y"):
            return w
        stem = w[:-1]
        if self._nltk:
            ok = len(stem) > 1 and _pattern(stem)[-1] == "c"
        else:
            ok = _has_vowel(stem)
        return stem + "i" if ok else w

    def _step2(self, w: str) -> str:
        if self._nltk:
            if w.endswith("alli") and measure(w[:-4]) > 0:
                return self._step2(w[:-2])
            if w.endswith("logi"):  # NLTK measures the stem with the l kept (biology -> biolog)
                return w[:-1] if measure(w[:-3]) > 0 else w
        return _apply(w, self._rules2, lambda stem: measure(stem) > 0)

    def _step3(self, w: str) -> str:
        return _apply(w, self._rules3, lambda stem: measure(stem) > 0)

    def _step4(self, w: str) -> str:
        w = _apply(w, self._rules4, _step4_condition)
        if self._lin:
            # Lin's change: after the list, the ment rule, then the ent / (s|t)ion rules, each
            # tried on the result of the previous one (found black-box: abatementment -> abatem,
            # adolescentent -> adolescent, aforementioned -> aforement).
            w = _apply(w, _LIN_MENT, _step4_condition)
            w = _apply(w, _LIN_ENT_ION, _step4_condition)
        return w

    def _step5(self, w: str) -> str:
        if w.endswith("e"):
            stem = w[:-1]
            m = measure(stem)
            if m > 1 or (m == 1 and not self._ends_cvc(stem)):
                w = stem
        if w.endswith("ll") and measure(w) > 1:
            w = w[:-1]
        return w

    def stem(self, word: str) -> str:
        """The stem of one lowercase word (the compiled twin for an ASCII word when built)."""
        if _compiled is not None:
            got = _compiled.stem(word, self._code, _NLTK_IRREGULAR)
            if got is not None:
                return got
        return self.stem_py(word)

    def stem_py(self, word: str) -> str:
        """:meth:`stem`, pure."""
        if self._nltk and word in _NLTK_IRREGULAR:
            return _NLTK_IRREGULAR[word]
        if self._martin and len(word) <= 2:
            return word
        w = self._step1a(word)
        w = self._step1b(w)
        w = self._step1c(w)
        w = self._step2(w)
        w = self._step3(w)
        w = self._step4(w)
        return self._step5(w)

    __call__ = stem


def _step4_condition(stem: str) -> bool:
    return measure(stem) > 1


_Rules = tuple[tuple[int, ...], dict[str, str]]


def _longest_first(rules: list[tuple[str, str]]) -> _Rules:
    """Suffix lengths, longest first, and the suffix -> replacement table."""
    return tuple(sorted({len(s) for s, _ in rules}, reverse=True)), dict(rules)


def _apply(w: str, rules: _Rules, condition: Callable[[str], bool]) -> str:
    """Apply the rule with the longest matching suffix if ``condition(stem)`` holds.

    ``ion`` (step 4) additionally needs the stem to end in ``s`` or ``t``; when it does not, the
    rule does not match at all (the paper's ``(m>1 and (*S or *T)) ION``).
    """
    lengths, table = rules
    n = len(w)
    for size in lengths:
        if size > n:
            continue
        suffix = w[n - size:]
        replacement = table.get(suffix)
        if replacement is None:
            continue
        stem = w[: n - size]
        if suffix == "ion" and not stem.endswith(("s", "t")):
            continue
        return stem + replacement if condition(stem) else w
    return w


_LIN_MENT = _longest_first([("ment", "")])
_LIN_ENT_ION = _longest_first([("ent", ""), ("ion", "")])
