"""English Snowball ("Porter2") stemmer, written from the published algorithm description
(snowballstem.org, "The English (Porter2) stemming algorithm"); METEOR 1.5's stem module.

Steps: exceptional words; initial apostrophe removed; initial y / y after a vowel → Y; regions R1/R2
(R1 after ``gener``/``commun``/``arsen``); step 0 (``'s'``, ``'s``, ``'``); 1a; invariant forms after 1a;
1b; 1c; 2; 3; 4; 5; Y → y. Each step looks for the longest listed suffix and then applies (or not)
its condition.
"""
from __future__ import annotations

_V = frozenset("aeiouy")
_EXC = {"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
        "gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
        "sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos",
        "bias": "bias", "andes": "andes"}
_EXC1A = frozenset("inning outing canning herring earring proceed exceed succeed".split())
_DOUBLE = ("bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt")
_LI = frozenset("cdeghkmnrt")
_STEP2 = sorted([
    ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("abli", "able"), ("entli", "ent"),
    ("izer", "ize"), ("ization", "ize"), ("ational", "ate"), ("ation", "ate"), ("ator", "ate"),
    ("alism", "al"), ("aliti", "al"), ("alli", "al"), ("fulness", "ful"), ("ousli", "ous"),
    ("ousness", "ous"), ("iveness", "ive"), ("iviti", "ive"), ("biliti", "ble"), ("bli", "ble"),
    ("ogi", "og"), ("fulli", "ful"), ("lessli", "less"), ("li", "")], key=lambda x: -len(x[0]))
_STEP3 = sorted([
    ("tional", "tion"), ("ational", "ate"), ("alize", "al"), ("icate", "ic"), ("iciti", "ic"),
    ("ical", "ic"), ("ful", ""), ("ness", ""), ("ative", "")], key=lambda x: -len(x[0]))
_STEP4 = sorted("al ance ence er ic able ible ant ement ment ent ism ate iti ous ive ize ion".split(),
                key=lambda x: -len(x))


def _region(w: str, start: int) -> int:
    for i in range(start + 1, len(w)):
        if w[i] not in _V and w[i - 1] in _V:
            return i + 1
    return len(w)


def _short_syllable_end(w: str) -> bool:
    n = len(w)
    if n == 2:
        return w[0] in _V and w[1] not in _V
    return n >= 3 and w[-3] not in _V and w[-2] in _V and w[-1] not in _V and w[-1] not in "wxY"


def _has_vowel(s: str) -> bool:
    return any(c in _V for c in s)


def stem(word: str) -> str:
    """The Porter2 stem of a lowercase word."""
    if len(word) <= 2:
        return word
    if word in _EXC:
        return _EXC[word]
    w = word[1:] if word.startswith("'") else word
    if not w:
        return w
    chars = list(w)
    if chars[0] == "y":
        chars[0] = "Y"
    for i in range(1, len(chars)):
        if chars[i] == "y" and chars[i - 1] in _V:
            chars[i] = "Y"
    w = "".join(chars)
    for pre in ("gener", "commun", "arsen"):
        if w.startswith(pre):
            r1 = len(pre)
            break
    else:
        r1 = _region(w, 0)
    r2 = _region(w, r1)
    # step 0
    for suf in ("'s'", "'s", "'"):
        if w.endswith(suf):
            w = w[:-len(suf)]
            break
    # step 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ied") or w.endswith("ies"):
        w = w[:-2] if len(w) > 4 else w[:-1]
    elif w.endswith("us") or w.endswith("ss"):
        pass
    elif w.endswith("s"):
        if _has_vowel(w[:-2]):
            w = w[:-1]
    if w in _EXC1A:
        return w
    # step 1b
    for suf in ("eedly", "ingly", "edly", "eed", "ing", "ed"):
        if w.endswith(suf):
            if suf in ("eed", "eedly"):
                if len(w) - len(suf) >= r1:
                    w = w[:-len(suf)] + "ee"
            elif _has_vowel(w[:-len(suf)]):
                w = w[:-len(suf)]
                if w.endswith(("at", "bl", "iz")):
                    w += "e"
                elif w.endswith(_DOUBLE):
                    w = w[:-1]
                elif r1 >= len(w) and _short_syllable_end(w):
                    w += "e"
            break
    # step 1c
    if len(w) > 2 and w[-1] in "yY" and w[-2] not in _V:
        w = w[:-1] + "i"
    # step 2
    for suf, rep in _STEP2:
        if w.endswith(suf):
            if len(w) - len(suf) >= r1:
                if suf == "ogi":
                    if w[-4:-3] == "l":
                        w = w[:-1]
                elif suf == "li":
                    if w[-3:-2] in _LI and len(w) >= 3:
                        w = w[:-2]
                else:
                    w = w[:-len(suf)] + rep
            break
    # step 3
    for suf, rep in _STEP3:
        if w.endswith(suf):
            if len(w) - len(suf) >= r1:
                if suf == "ative":
                    if len(w) - len(suf) >= r2:
                        w = w[:-5]
                else:
                    w = w[:-len(suf)] + rep
            break
    # step 4
    for suf in _STEP4:
        if w.endswith(suf):
            if len(w) - len(suf) >= r2:
                if suf == "ion":
                    if w[-4:-3] in ("s", "t") and len(w) >= 4:
                        w = w[:-3]
                else:
                    w = w[:-len(suf)]
            break
    # step 5
    if w.endswith("e"):
        n = len(w) - 1
        if n >= r2 or (n >= r1 and not _short_syllable_end(w[:-1])):
            w = w[:-1]
    elif w.endswith("l"):
        if len(w) - 1 >= r2 and w[-2:-1] == "l":
            w = w[:-1]
    return w.replace("Y", "y")
