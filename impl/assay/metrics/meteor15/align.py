"""METEOR 1.5 candidate matches and alignment resolution.

Candidates (on normalised tokens; a word pair takes the earliest module that matches it):
0 exact (equal strings), 1 stem (equal Snowball stems), 2 synonym (WordNet synset sets intersect:
synsets of the word, of its irregular base forms and of its WordNet suffix-rule base forms),
3 paraphrase (a hypothesis phrase and a reference phrase of 1–7 words are an entry of the paraphrase
table, either direction; one-word pairs only when no earlier module matched them).

Resolution (Denkowski & Lavie 2010/2014): each word in at most one match; prefer (1) more covered
words, weighted 1.0 for exact and 0.5 for the other modules, (2) fewer chunks, (3) smaller sum of
|hypothesis start − reference start|. Searched as a beam (width ``beam``) over hypothesis positions.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from . import snowball
from .resources import Resources, phrase_hash

MODULES = ("exact", "stem", "synonym", "paraphrase")
SEARCH_WEIGHTS = (1.0, 0.5, 0.5, 0.5)
MAX_PHRASE = 7

_MORPHY = (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
           ("men", "man"), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"),
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


def synsets_of(word: str, res: Resources) -> frozenset[str]:
    cache = _SYN.setdefault(id(res), {})
    s = cache.get(word)
    if s is None:
        found: set[str] = set(res.synsets.get(word, ()))
        for base in res.bases.get(word, ()):
            found.update(res.synsets.get(base, ()))
        for suf, rep in _MORPHY:
            if word.endswith(suf) and len(word) > len(suf):
                found.update(res.synsets.get(word[: -len(suf)] + rep, ()))
        s = cache[word] = frozenset(found)
    return s


def candidates(hyp: Sequence[str], ref: Sequence[str], res: Resources, modules: Sequence[int],
               dedup: bool = True) -> list[Match]:
    """Every candidate match: earliest module per word pair (``dedup``), or every module's own
    candidates (the jar lists a pair once per module that matches it; non-exact modules never pair
    identical words)."""
    out: list[Match] = []
    single: set[tuple[int, int]] = set()
    mods = set(modules)
    if 0 in mods:
        pos: dict[str, list[int]] = {}
        for j, w in enumerate(ref):
            pos.setdefault(w, []).append(j)
        for i, w in enumerate(hyp):
            for j in pos.get(w, ()):
                out.append(Match(i, 1, j, 1, 0))
                single.add((i, j))
    if 1 in mods:
        rpos: dict[str, list[int]] = {}
        for j, w in enumerate(ref):
            rpos.setdefault(stem_of(w), []).append(j)
        for i, w in enumerate(hyp):
            for j in rpos.get(stem_of(w), ()):
                if (i, j) not in single if dedup else w != ref[j]:
                    out.append(Match(i, 1, j, 1, 1))
                    single.add((i, j))
    if 2 in mods:
        rsyn = [synsets_of(w, res) for w in ref]
        for i, w in enumerate(hyp):
            hs = synsets_of(w, res)
            if not hs:
                continue
            for j, rs in enumerate(rsyn):
                if (dedup and (i, j) in single) or hyp[i] == ref[j]:
                    continue
                if not hs.isdisjoint(rs):
                    out.append(Match(i, 1, j, 1, 2))
                    single.add((i, j))
    if 3 in mods:
        src, dst = res.paraphrases()
        rgrams: dict[int, list[tuple[int, int]]] = {}
        for j in range(len(ref)):
            for n in range(1, min(MAX_PHRASE, len(ref) - j) + 1):
                rgrams.setdefault(phrase_hash(" ".join(ref[j:j + n])), []).append((j, n))
        hkeys: list[tuple[int, int, int]] = []
        for i in range(len(hyp)):
            for n in range(1, min(MAX_PHRASE, len(hyp) - i) + 1):
                hkeys.append((phrase_hash(" ".join(hyp[i:i + n])), i, n))
        if hkeys and rgrams:
            keys = np.array([k for k, _, _ in hkeys], dtype=np.uint64)
            lo = np.searchsorted(src, keys, "left")
            hi = np.searchsorted(src, keys, "right")
            for (k, i, n), a, b in zip(hkeys, lo.tolist(), hi.tolist()):
                if a == b:
                    continue
                for partner in dst[a:b].tolist():
                    for j, m in rgrams.get(partner, ()):
                        if dedup and n == 1 and m == 1 and (i, j) in single:
                            continue
                        out.append(Match(i, n, j, m, 3))
    return out


def resolve(matches: list[Match], hyp_len: int, ref_len: int, beam: int = 40) -> list[Match]:
    """The best alignment under (weighted coverage ↑, chunks ↓, distance ↓), beam over hyp positions."""
    if not matches:
        return []
    by_start: list[list[Match]] = [[] for _ in range(hyp_len)]
    for m in matches:
        by_start[m.h].append(m)
    # state: (neg_cov, chunks, dist, used_ref_mask, hyp_next_free, last_h_end, last_r_end, chosen tuple)
    states: list[tuple[float, int, int, int, int, int, int, tuple[Match, ...]]] = [
        (0.0, 0, 0, 0, 0, -1, -1, ())]
    for i in range(hyp_len):
        nxt: dict[tuple[int, int, int, int], tuple[float, int, int, int, int, int, int, tuple[Match, ...]]] = {}

        def keep(st: tuple[float, int, int, int, int, int, int, tuple[Match, ...]]) -> None:
            key = (st[3], st[4], st[5], st[6])
            old = nxt.get(key)
            if old is None or st[:3] < old[:3]:
                nxt[key] = st
        for st in states:
            neg, ch, dist, used, free, lh, lr, chosen = st
            keep(st)
            if free > i:
                continue
            for m in by_start[i]:
                mask = ((1 << m.rl) - 1) << m.r
                if used & mask:
                    continue
                cont = (m.h == lh and m.r == lr)
                keep((neg - SEARCH_WEIGHTS[m.module] * (m.hl + m.rl), ch + (0 if cont else 1),
                      dist + abs(m.h - m.r), used | mask, m.h + m.hl, m.h + m.hl, m.r + m.rl, chosen + (m,)))
        states = sorted(nxt.values(), key=lambda s: s[:3])[:beam]
    return list(min(states, key=lambda s: s[:3])[7])


def _chunks(ms: Sequence[Match]) -> int:
    c, prev = 0, None
    for m in sorted(ms):
        if prev is None or not (m.h == prev.h + prev.hl and m.r == prev.r + prev.rl):
            c += 1
        prev = m
    return c


FINAL_WEIGHTS = (1.0, 0.5, 0.5, 0.5)


def resolve_jar(matches: list[Match], hyp_len: int, ref_len: int, beam: int = 40) -> list[Match]:
    """Empirical model of the jar's resolution (black-box probes, see KD-METEOR-02).

    1. a candidate whose every word (both sides) has no other candidate is fixed;
    2. the rest is searched over *reference* positions: each state is extended by every compatible
       candidate starting at that position or left as is; the states are stably sorted by
       (weighted coverage ↓ with weights 1.0/0.5/0.5/0.5, chunks ↑, Σ|h−r| ↑) and cut to ``beam``
       (with ``beam`` 1 this reproduces the jar's greedy alignments exactly on our probes);
    3. the final pick is the first state maximising (coverage weighted 1.0/0.5/0.5/0.5, the search
       weights) − chunks, then fewer chunks: a non-exact one-word match that opens a chunk of its
       own ties with leaving it out and is dropped (the jar returns no match at all for
       ``cars``/``car``, whose pair is a stem, synonym and paraphrase candidate at once) unless the
       beam had to prune. Weights 0.5 fit the jar's corpus alignments best (thumb-mscoco Human,
       1004 hypothesis/reference pairs at ``-x 40``: 786 identical alignments vs 731 with 0.1,
       692 with the plain beam winner); the jar's rule is still not fully known (KD-METEOR-02).

    Further black-box facts (``-m synonym``: one candidate per word pair, no duplicates): with h
    hypothesis and r reference copies of cars/car (every pair a candidate) the jar returns no match
    from beam 2 (h=1), h+1 (r=1), 4 (2x2, 2x3), 6 (3x2), 7 (3x3) on, whatever ``-w`` and ``-p``;
    with ``-m exact`` the same shapes keep their matches and ``zebra``/``zebra zebra`` takes the
    later reference word from beam 2 on. So the empty result needs ambiguity (not duplicate
    candidates) and only non-exact matches lose to it. In corpus alignments the jar prefers the
    larger |h-r| for a lone ambiguous word but the smaller total for several monotone ones: neither
    sign of a final distance tie-break reproduces both.
    """
    if not matches:
        return []
    hc: dict[int, int] = {}
    rc: dict[int, int] = {}
    for m in matches:
        for i in range(m.h, m.h + m.hl):
            hc[i] = hc.get(i, 0) + 1
        for j in range(m.r, m.r + m.rl):
            rc[j] = rc.get(j, 0) + 1
    fixed: list[Match] = []
    rest: list[list[Match]] = [[] for _ in range(ref_len)]
    for m in matches:
        if all(hc[i] == 1 for i in range(m.h, m.h + m.hl)) and all(rc[j] == 1 for j in range(m.r, m.r + m.rl)):
            fixed.append(m)
        else:
            rest[m.r].append(m)
    hmask = rmask = 0
    for m in fixed:
        hmask |= ((1 << m.hl) - 1) << m.h
        rmask |= ((1 << m.rl) - 1) << m.r
    base = tuple(fixed)
    cov0 = sum(SEARCH_WEIGHTS[m.module] * (m.hl + m.rl) for m in fixed)
    d0 = sum(abs(m.h - m.r) for m in fixed)
    # state: (key for sorting, hmask, rmask, matches)
    states = [((-cov0, _chunks(base), d0), hmask, rmask, base)]
    for p in range(ref_len):
        if not rest[p]:
            continue
        nxt = []
        for key, hm, rm, ms in states:
            for m in rest[p]:
                mh = ((1 << m.hl) - 1) << m.h
                mr = ((1 << m.rl) - 1) << m.r
                if hm & mh or rm & mr:
                    continue
                nm = ms + (m,)
                nxt.append(((key[0] - SEARCH_WEIGHTS[m.module] * (m.hl + m.rl), _chunks(nm), key[2] + abs(m.h - m.r)),
                            hm | mh, rm | mr, nm))
            nxt.append((key, hm, rm, ms))
        nxt.sort(key=lambda s: s[0])
        states = nxt[:beam]

    def final(s: tuple) -> tuple[float, int, int]:
        ms = s[3]
        ch = s[0][1]
        return (-(sum(FINAL_WEIGHTS[m.module] * (m.hl + m.rl) for m in ms) - ch), ch, s[0][2])
    return list(min(states, key=final)[3])


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
