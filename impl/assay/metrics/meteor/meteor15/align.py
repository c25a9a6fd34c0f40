"""METEOR 1.5 candidate matches and the jar's alignment search (Denkowski & Lavie 2011/2014).

Behaviour reproduced (a clean-room behavioural specification checked on the jar, KD-METEOR-02 resolved):

Candidates, kept in one list per *reference start position*, appended module by module in the order
the ``modules`` knob gives:

* exact, stem, synonym: for each reference position, for each hypothesis position (both ascending), a
  one-word candidate when the words are equal (exact), differ but share a Snowball stem (stem), or
  differ but share a WordNet synset (synonym; a word's synsets are its own plus its base form's, see
  :func:`synonym_base`);
* paraphrase: first every reference phrase (start ascending, length 1–7 ascending) as a table source,
  its targets in table-file order, each found in the hypothesis (position ascending); then every
  hypothesis phrase as a source, found in the reference. A pair listed in both directions of the table
  yields two candidates.

When hypothesis and reference are token-identical only the first module runs.

Search (:func:`resolve`): a candidate that is alone in its list and whose every word is covered by no
other candidate is fixed. The reference positions are then visited in order with a beam of states; a
state with reference word p free is extended by each compatible candidate of list p (in list order) and
is then kept as the "skip" state. States rank by a larger *search total*, then fewer chunks, then a
smaller distance, with a stable sort and no merging; only the first ``beam`` states of each step are
expanded. The search total adds ``floor(len·w)`` per side and match with w = 1 for exact and 0.5
otherwise (so a one-word stem/synonym match adds 0). A chunk still open is not counted until it closes
(at a skip, a non-adjacent match or the end), and each candidate's offset |r − h| is added to the
*parent* (later siblings and the skip state), not to the new state (the jar's bookkeeping). Hence a
larger beam can return fewer matches: the all-skip state has no chunk to pay and wins once it is among
the first ``beam`` states (``cars``/``car``: four candidates, no match from beam 5 on).
"""
from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple, Sequence

import numpy as np

from assay.metrics.meteor.meteor15 import snowball
from assay.resources.meteor15 import Resources, phrase_hash

MODULES = ("exact", "stem", "synonym", "paraphrase")
MAX_PHRASE = 7

# WordNet's morphological suffix rules in the jar's order (nouns, verbs, adjectives; two repeats kept)
_RULES = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y"), ("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
          ("ing", ""), ("er", ""), ("est", ""), ("er", "e"), ("est", "e"))


class Match(NamedTuple):
    h: int      # hypothesis start
    hl: int     # hypothesis length
    r: int      # reference start
    rl: int     # reference length
    module: int


_STEMS: dict[str, str] = {}
_SYN: dict[int, dict[str, frozenset[str]]] = {}


def stem_of(word: str) -> str:
    s = _STEMS.get(word)
    if s is None:
        s = _STEMS[word] = snowball.stem(word)
    return s


def synonym_base(word: str, res: Resources) -> tuple[str, ...]:
    """Base forms whose synsets a word also takes: its irregular bases when the exceptions list names
    it, else (words of 3+ letters not ending in ``ss``) the first suffix rule giving a headword."""
    irregular = res.bases.get(word)
    if irregular:
        return irregular
    if len(word) <= 2 or word.endswith("ss"):
        return ()
    for suffix, ending in _RULES:
        if word.endswith(suffix):
            base = word[: len(word) - len(suffix)] + ending
            if base in res.synsets:
                return (base,)
    return ()


def synsets_of(word: str, res: Resources) -> frozenset[str]:
    cache = _SYN.setdefault(id(res), {})
    s = cache.get(word)
    if s is None:
        found: set[str] = set(res.synsets.get(word, ()))
        for base in synonym_base(word, res):
            found.update(res.synsets.get(base, ()))
        s = cache[word] = frozenset(found)
    return s


class _Phrases(NamedTuple):
    """Every n-gram (n ≤ 7) of one side: (hash, start, n) by start then n, and hash -> starts."""
    keys: list[tuple[int, int, int]]
    starts: dict[int, list[int]]


@lru_cache(maxsize=1 << 20)
def _phrase_hash(phrase: str) -> int:
    """phrase_hash, memoised (references repeat across a corpus)."""
    return phrase_hash(phrase)


@lru_cache(maxsize=8)
def _phrases(words: tuple[str, ...]) -> _Phrases:
    """Every n-gram of ``words`` (memoised: one hypothesis meets several references)."""
    keys: list[tuple[int, int, int]] = []
    starts: dict[int, list[int]] = {}
    for i in range(len(words)):
        for n in range(1, min(MAX_PHRASE, len(words) - i) + 1):
            h = _phrase_hash(" ".join(words[i:i + n]))
            keys.append((h, i, n))
            starts.setdefault(h, []).append(i)
    return _Phrases(keys, starts)


def _paraphrase_pass(src_side: _Phrases, dst_side: _Phrases, res: Resources) -> list[tuple[int, int, int, int]]:
    """(src start, src len, dst start, dst len) for every source phrase (start and length ascending)
    whose table targets (file order) occur on the other side (position ascending)."""
    src, dst, dst_len = res.paraphrases()
    if not src_side.keys or not dst_side.keys:
        return []
    arr = np.array([k for k, _, _ in src_side.keys], dtype=np.uint64)
    lo = np.searchsorted(src, arr, "left").tolist()
    hi = np.searchsorted(src, arr, "right").tolist()
    out: list[tuple[int, int, int, int]] = []
    starts = dst_side.starts
    for (_, i, n), a, b in zip(src_side.keys, lo, hi):
        if a == b:
            continue
        for target, tl in zip(dst[a:b].tolist(), dst_len[a:b].tolist()):
            for j in starts.get(target, ()):
                out.append((i, n, j, tl))
    return out


def candidates(hyp: Sequence[str], ref: Sequence[str], res: Resources, modules: Sequence[int]) -> list[list[Match]]:
    """The candidate lists, one per reference start position, in the jar's order (module docstring)."""
    lists: list[list[Match]] = [[] for _ in range(len(ref))]
    if list(hyp) == list(ref):
        modules = tuple(modules)[:1]
    for mod in modules:
        if mod == 0:
            hpos: dict[str, list[int]] = {}
            for i, w in enumerate(hyp):
                hpos.setdefault(w, []).append(i)
            for j, w in enumerate(ref):
                lists[j].extend(Match(i, 1, j, 1, 0) for i in hpos.get(w, ()))
        elif mod == 1:
            hstem: dict[str, list[int]] = {}
            for i, w in enumerate(hyp):
                hstem.setdefault(stem_of(w), []).append(i)
            for j, w in enumerate(ref):
                lists[j].extend(Match(i, 1, j, 1, 1) for i in hstem.get(stem_of(w), ()) if hyp[i] != w)
        elif mod == 2:
            by_synset: dict[str, list[int]] = {}
            for i, w in enumerate(hyp):
                for s in synsets_of(w, res):
                    by_synset.setdefault(s, []).append(i)
            for j, w in enumerate(ref):
                hits: set[int] = set()
                for s in synsets_of(w, res):
                    hits.update(by_synset.get(s, ()))
                lists[j].extend(Match(i, 1, j, 1, 2) for i in sorted(hits) if hyp[i] != w)
        elif mod == 3:
            hyp_phrases, ref_phrases = _phrases(tuple(hyp)), _phrases(tuple(ref))
            for j, jl, i, il in _paraphrase_pass(ref_phrases, hyp_phrases, res):
                lists[j].append(Match(i, il, j, jl, 3))
            for i, il, j, jl in _paraphrase_pass(hyp_phrases, ref_phrases, res):
                lists[j].append(Match(i, il, j, jl, 3))
    return lists


def _span(start: int, length: int) -> int:
    return ((1 << length) - 1) << start


def _gain(m: Match) -> int:
    """The search total a match adds: floor(len·w) per side, w = 1 (exact) or 0.5."""
    return m.hl + m.rl if m.module == 0 else m.hl // 2 + m.rl // 2


_rank = itemgetter(0, 1, 2)     # a state's rank: (−search total, chunks, distance)


def resolve(lists: Sequence[Sequence[Match]], hyp_len: int, ref_len: int, beam: int = 40) -> list[Match]:
    """The jar's alignment of the candidate lists (see the module docstring).

    A state is (−search total, chunks, distance, hyp words used, ref words used, next ref position,
    hyp end of the open chunk or −1, matches as a linked list (match, parent))."""
    cover_h = [0] * hyp_len
    cover_r = [0] * ref_len
    for lst in lists:
        for m in lst:
            for i in range(m.h, m.h + m.hl):
                cover_h[i] += 1
            for j in range(m.r, m.r + m.rl):
                cover_r[j] += 1
    fixed: dict[int, Match] = {}
    hu = ru = 0
    for j, lst in enumerate(lists):
        if len(lst) == 1:
            m = lst[0]
            if all(cover_h[i] == 1 for i in range(m.h, m.h + m.hl)) and \
                    all(cover_r[k] == 1 for k in range(m.r, m.r + m.rl)):
                fixed[j] = m
                hu |= _span(m.h, m.hl)
                ru |= _span(m.r, m.rl)
    if sum(map(len, lists)) == len(fixed):      # no choice left: every state holds the fixed matches
        return list(fixed.values())
    # per candidate: (match, hyp mask, ref mask, gain, |r − h|, hyp end, ref end)
    entries = [[(m, _span(m.h, m.hl), _span(m.r, m.rl), _gain(m), abs(m.r - m.h), m.h + m.hl, m.r + m.rl)
                for m in lst] for lst in lists]
    states: list[tuple] = [(0, 0, 0, hu, ru, 0, -1, None)]
    for p in range(ref_len):
        if len(states) > 1:
            states.sort(key=_rank)
        nxt: list[tuple] = []
        add = nxt.append
        bit = 1 << p
        here = entries[p]
        for s in states[:beam]:
            neg, ch, dist, h_used, r_used, next_ref, open_end, link = s
            if r_used & bit:
                if p < next_ref:
                    add(s)
                else:       # a fixed match starts here: accounted now, its offset on the state itself
                    m = fixed[p]
                    add((neg - _gain(m), ch + (open_end >= 0 and m.h != open_end), dist + abs(m.r - m.h), h_used,
                         r_used, m.r + m.rl, m.h + m.hl, (m, link)))
                continue
            for m, hm, rm, gain, off, h_end, r_end in here:
                if h_used & hm or r_used & rm:
                    continue
                add((neg - gain, ch + (open_end >= 0 and m.h != open_end), dist, h_used | hm, r_used | rm, r_end,
                     h_end, (m, link)))
                dist += off     # the jar's bookkeeping: the offset goes to the parent (siblings, skip state)
            add((neg, ch + (open_end >= 0), dist, h_used, r_used, p + 1, -1, link))
        states = nxt
    states.sort(key=_rank)
    final = [(neg, ch + (open_end >= 0), dist, link) for neg, ch, dist, _, _, _, open_end, link in states[:beam]]
    final.sort(key=_rank)
    out: list[Match] = []
    link = final[0][3]
    while link is not None:
        out.append(link[0])
        link = link[1]
    return out[::-1]


def alignment_stats(hyp: Sequence[str], ref: Sequence[str], chosen: Sequence[Match],
                    function_words: frozenset[str]) -> list[float]:
    """The jar's 23 sufficient statistics of one alignment (see score.STATS)."""
    tf = sum(1 for w in hyp if w in function_words)
    rf = sum(1 for w in ref if w in function_words)
    st = [float(len(hyp)), float(len(ref)), float(tf), float(rf)] + [0.0] * 19
    chunks = 0
    prev: Match | None = None
    for m in sorted(chosen):
        base = 4 + 4 * m.module
        for w in hyp[m.h:m.h + m.hl]:
            st[base + (2 if w in function_words else 0)] += 1
        for w in ref[m.r:m.r + m.rl]:
            st[base + (3 if w in function_words else 1)] += 1
        if prev is None or not (m.h == prev.h + prev.hl and m.r == prev.r + prev.rl):
            chunks += 1
        prev = m
    st[20] = float(chunks)
    st[21] = float(sum(m.hl for m in chosen))
    st[22] = float(sum(m.rl for m in chosen))
    return st
