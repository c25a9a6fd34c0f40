"""``algorithm=nltk``: NLTK's ``meteor_score`` / ``single_meteor_score`` (METEOR 1.0 style).

Per hypothesis/reference pair (tokens; a string is split on whitespace, since NLTK 3.10.4 takes
only token lists), after ``lowercase`` (NLTK's ``preprocess=str.lower``), three stages each run
on the words the previous stages left unmatched:

1. exact: equal strings;
2. ``stem``: NLTK's ``PorterStemmer()`` (NLTK_EXTENSIONS, :mod:`assay.stemmers.porter` ``nltk``)
   of both sides; the *stems* are carried forward;
3. ``synonyms``: a reference (stem) matches when it is one of the lemma names without ``_`` of any
   WordNet 3.0 synset of the hypothesis (stem), or equals it. Quirk reproduced: synonyms are
   looked up for stems (``quickly``/``rapidly`` arrive as ``quickli``/``rapidli``: no match).

Alignment in every stage is NLTK's greedy one: hypothesis words are taken from the last to the
first, each matching the highest-index unused reference word that qualifies. Nothing minimises
crossings. With m matches, chunks c = runs of matches consecutive on both sides (sorted by
hypothesis position):

    P = m/|hyp|, R = m/|ref|, Fmean = P·R / (α·P + (1−α)·R), penalty = γ·(c/m)^β,
    score = (1 − penalty)·Fmean,  α = 0.9, β = 3, γ = 0.5,

0 when any division is by zero (no match, empty side). There is no perfect-match special case
(identical 6-token texts give 0.99769). Several references: the maximum of the single scores.

Levels: the sentence score is NLTK's. NLTK has no corpus METEOR (nltk#2365); assay's corpus
value is its own choice, the arithmetic mean of the segment scores (rows carry ``score`` and
``segments`` columns so resampling sums them).

NLTK <= 3.6.2 (profile ``nltk@3.6``; black-box against 3.5 and 3.6.2) took plain strings, which it
lowercased and split on whitespace (its ``meteor_score`` does not pass ``preprocess`` on: only
``single_meteor_score`` honours it). Three knobs give its differences:

* ``synonym_input=exact-leftovers``: stage 3 aligns the (unstemmed) words the *exact* stage left,
  stem-matched ones included, so a stem match whose reference word is also a synonym counts
  twice (``cats``/``cat`` scores 1.0; ``a cats b``/``a cat b`` 1.25: nltk#2751, fixed in 3.6.3);
  in the chunk order a word matched twice keeps its stem pair first;
* ``morphy=iterate``: WordNet lookups re-apply the detachment rules (:mod:`assay.resources.wordnet`);
* ``stem_case=as-given``: the stemmer keeps words of <= 2 characters as given and looks its
  irregular-form table up case-sensitively (matters only with ``lowercase`` off).

Computation: all hypothesis/reference pairs of a corpus are aligned at once. The exact and stem
stages pair equal strings, hypothesis from the last and reference from the highest position,
which is the same as pairing the k-th occurrence from the end on both sides: a join on (pair,
word, rank from the end), done with numpy sorts. The synonym stage builds the synonym relation
between the words present from WordNet synset keys (index lookups; a data line is read only to
check the exact spelling of a reference word in a synset shared with a hypothesis word;
:func:`_synonym_relation`) and runs the greedy loop
in Python only over the pairs with a related candidate. Stems and WordNet answers are cached per
process. When the compiled twin is built (:mod:`._nltk_c`, :func:`align_units_compiled`), the
stages run pair by pair in C instead, on the same word ids and the same relation, and give the
same rows.

Scoring (:func:`scores_from_sums`): rows carry each segment's score and a ``segments`` count of 1,
so the corpus value, a sentence value (its own row) and a resample are all Σscore / Σsegments.
"""
from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from types import ModuleType
from typing import Any, Callable, Sequence

import numpy as np

from assay.core import accel
from assay.core.errors import InputError
from assay.core.family import Refs, Segments
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.core.stats import SegmentStats
from assay.core import corpus_cache
from assay.resources import wordnet
from assay.stemmers.porter import _NLTK_IRREGULAR, PorterStemmer
from assay.text.ngrams import encode

try:
    from assay.metrics.meteor import _nltk_c as _compiled
except ImportError:        # not built: the numpy engine below
    _compiled = None
_compiled = accel.use(_compiled, __name__)

COLUMNS = ("hyp_len", "ref_len", "matches", "chunks", "score", "segments")
SCORE, SEGMENTS = COLUMNS.index("score"), COLUMNS.index("segments")

#: last letters of every suffix a Porter step (1a-5, NLTK_EXTENSIONS) rewrites; a word ending in
#: any other character (and not in the irregular table) is its own stem.
_STEM_TRIGGERS = frozenset("sdgylirnmectu")


#: process-wide caches (pure functions of the word; synonyms per WordNet directory)
_STEM_CACHES: dict[bool, dict[str, str]] = {}
#: the compiled path's stem ids per ``stem_as_given``: word -> stem id, stem -> stem id (in id order)
_STEM_IDS: dict[bool, tuple[dict[str, int], dict[str, int]]] = {}
_SYN_CACHES: dict[Any, tuple[dict[str, frozenset[str]], dict[str, bool]]] = {}


class _Matcher:
    """The three stages for one configuration, with (process-wide) stem and synonym caches."""

    def __init__(self, config: Config) -> None:
        self.lowercase = config.lowercase
        self.stemmer = PorterStemmer("nltk") if config.stem else None
        self.after_exact = config.synonym_input == "exact-leftovers"
        self.morphy_iterate = config.morphy == "iterate"
        self.wordnet = None
        if config.synonyms:
            self.wordnet = wordnet.load(config.wordnet or None)
        self.stem_as_given = config.stem_case == "as-given"
        self._stems = _STEM_CACHES.setdefault(self.stem_as_given, {})
        self._syns, self._known = (_SYN_CACHES.setdefault((self.wordnet.dir, self.morphy_iterate), ({}, {}))
                                   if self.wordnet is not None else ({}, {}))

    def stem(self, word: str) -> str:
        """NLTK's ``PorterStemmer().stem(word)``: the Porter steps run on the lowercased word. With
        ``stem_case=lower`` (NLTK 3.10.4) the word is lowercased first, for the irregular-form table
        and the short-word rule too; with ``as-given`` (NLTK 3.5) a word of at most 2 characters is
        returned unchanged (``We`` stays ``We``) and the table is looked up with the word as given
        (``Dying`` -> ``dy``, not ``die``). The two differ only on words that are not lowercase."""
        s = self._stems.get(word)
        if s is None:
            assert self.stemmer is not None
            low = word.lower()
            if self.stem_as_given and len(word) <= 2:
                s = word
            elif low[-1:] not in _STEM_TRIGGERS and low not in _NLTK_IRREGULAR:
                s = low                                     # no Porter rule ends in this letter
            elif self.stem_as_given and word != low and low in _NLTK_IRREGULAR:
                st = self.stemmer
                s = st._step5(st._step4(st._step3(st._step2(st._step1c(st._step1b(st._step1a(low)))))))
            else:
                s = self.stemmer.stem(low)
            self._stems[word] = s
        return s

    def is_lemma(self, word: str) -> bool:
        """Whether ``word`` can be a lemma name of some synset (its lowercase is an index entry)."""
        assert self.wordnet is not None
        found = self._known[word] = word.lower() in self.wordnet.all_lemmas
        return found

    def synonyms(self, word: str) -> frozenset[str]:
        """Lemma names without ``_`` of every synset of ``word``, plus ``word`` itself."""
        s = self._syns.get(word)
        if s is None:
            assert self.wordnet is not None
            names = {n for n in self.wordnet.lemma_names(word, self.morphy_iterate) if "_" not in n}
            names.add(word)
            s = self._syns[word] = frozenset(names)
        return s

    def align(self, hyp: Sequence[str], ref: Sequence[str]) -> tuple[int, int]:
        """(matches, chunks) of NLTK's greedy three-stage alignment."""
        pairs: list[tuple[int, int]] = []
        h_words, r_words = list(hyp), list(ref)
        h_left, r_left = _exact_stage(h_words, r_words, range(len(hyp)), range(len(ref)), pairs)
        if self.stemmer is not None and h_left and r_left:
            stems, stem = self._stems, self.stem
            for i in h_left:
                w = h_words[i]
                h_words[i] = stems.get(w) or stem(w)
            for j in r_left:
                w = r_words[j]
                r_words[j] = stems.get(w) or stem(w)
            exact_left = h_left, r_left
            h_left, r_left = _exact_stage(h_words, r_words, h_left, r_left, pairs)
            if self.after_exact:
                h_words, r_words = list(hyp), list(ref)
                h_left, r_left = exact_left
        if self.wordnet is not None and h_left and r_left:
            # Only a reference word that is some WordNet lemma can be a synonym (an equal hypothesis
            # word cannot be left over after the previous stage), so others are skipped.
            known = self._known
            r_cand = []
            for j in r_left:
                flag = known.get(r_words[j])
                if flag is None:
                    flag = self.is_lemma(r_words[j])
                if flag:
                    r_cand.append(j)
            cache, lookup = self._syns, self.synonyms
            for i in reversed(h_left):
                if not r_cand:
                    break
                w = h_words[i]
                syns = cache.get(w) or lookup(w)
                for k in range(len(r_cand) - 1, -1, -1):
                    if r_words[r_cand[k]] in syns:
                        pairs.append((i, r_cand.pop(k)))
                        break
        if not pairs:
            return 0, 0
        pairs.sort(key=itemgetter(0))      # stable: a hypothesis word matched twice keeps its stem pair first
        chunks = 1
        h0, r0 = pairs[0]
        for h1, r1 in pairs[1:]:
            if h1 != h0 + 1 or r1 != r0 + 1:
                chunks += 1
            h0, r0 = h1, r1
        return len(pairs), chunks


def _exact_stage(h_words: list[str], r_words: list[str], h_left: Sequence[int], r_left: Sequence[int],
                 pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Hypothesis positions from the last: each takes the highest unused reference position with
    an equal string. Returns the unmatched positions (ascending)."""
    positions: dict[str, list[int]] = {}
    get = positions.get
    for j in r_left:
        w = r_words[j]
        lst = get(w)
        if lst is None:
            positions[w] = [j]
        else:
            lst.append(j)
    taken: set[int] = set()
    h_rest: list[int] = []
    for i in reversed(h_left):
        cand = get(h_words[i])
        if cand:
            j = cand.pop()
            taken.add(j)
            pairs.append((i, j))
        else:
            h_rest.append(i)
    if not taken:
        return list(h_left), list(r_left)
    h_rest.reverse()
    return h_rest, [j for j in r_left if j not in taken]


def meteor_value(hyp_len: float, ref_len: float, matches: float, chunks: float, alpha: float, beta: float,
                 gamma: float) -> float:
    """NLTK's arithmetic, in its order; any ZeroDivisionError gives 0.0."""
    try:
        precision = float(matches) / hyp_len
        recall = float(matches) / ref_len
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
        frag = float(chunks) / matches
    except ZeroDivisionError:
        return 0.0
    penalty = gamma * frag ** beta
    return (1 - penalty) * fmean


def scores_from_sums(sums: np.ndarray) -> np.ndarray:
    """Mean segment score of each summed row: Σscore / Σsegments (0 for no segment). One segment's
    row gives its own score (divided by 1)."""
    sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
    n = sums[:, SEGMENTS]
    return np.where(n > 0, sums[:, SCORE] / np.where(n > 0, n, 1.0), 0.0)


def components(hyp_len: float, ref_len: float, matches: float, chunks: float, config: Config) -> dict[str, Any]:
    """Sentence components; ratios are 0.0 where NLTK would divide by zero."""
    p = matches / hyp_len if hyp_len else 0.0
    r = matches / ref_len if ref_len else 0.0
    den = config.alpha * p + (1 - config.alpha) * r
    fmean = (p * r) / den if den else 0.0
    frag = chunks / matches if matches else 0.0
    return {"precision": p, "recall": r, "fmean": fmean, "fragmentation": frag,
            "penalty": config.gamma * frag ** config.beta if matches else 0.0,
            "chunks": int(chunks), "matches": int(matches), "hyp_len": int(hyp_len), "ref_len": int(ref_len)}


def _tokens(seg: Any, where: str) -> list[str]:
    if isinstance(seg, str):
        return seg.split()
    if isinstance(seg, (list, tuple)):
        try:
            " ".join(seg)                       # a C-speed check that every token is a str
        except TypeError:
            pass
        else:
            return list(seg)
    raise InputError(f"{where}: expected a string or a list of string tokens, got {type(seg).__name__}")


# --------------------------------------------------------------------------------------------------
# Whole-corpus engine (same alignment as _Matcher.align, computed with numpy for every
# hypothesis/reference pair at once).
#
# The exact and stem stages are greedy with an *equivalence* (equal strings): hypothesis
# occurrences of a word, taken from the last, pair with the reference occurrences of that word
# taken from the last, so the k-th occurrence from the end on one side pairs with the k-th from
# the end on the other. Each stage is therefore a join on (pair, word, rank-from-the-end). The
# synonym stage is not an equivalence; it runs the greedy loop in Python, only for the pairs that
# have at least one (hypothesis word, reference word) synonym candidate left.

_SEQ_TYPES = frozenset((list, tuple))
_SEQ_OR_NONE = frozenset((list, tuple, type(None)))


def _token_lists(segs: Sequence[Any], where: Callable[[int], str], allow_none: bool = False) -> list[Any]:
    """Token lists of ``segs`` (strings split on whitespace); ``None`` kept where allowed.

    Only the containers are checked here (at C speed; per segment only to name a bad one); the
    tokens are checked once per distinct token by :func:`_word_ids`."""
    allowed = _SEQ_OR_NONE if allow_none else _SEQ_TYPES
    if set(map(type, segs)) <= allowed:         # token lists already (checked at C speed)
        return list(segs)
    out = [s.split() if type(s) is str else s for s in segs]
    if set(map(type, out)) <= allowed:
        return out
    return [None if (s is None and allow_none) else _tokens(s, where(i)) for i, s in enumerate(segs)]


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ``range(start, start + length)`` and the offsets inside each range."""
    total = int(lengths.sum())
    first = np.repeat(np.cumsum(lengths) - lengths, lengths)
    within = np.arange(total, dtype=np.int64) - first
    return np.repeat(starts, lengths) + within, within


def _pair_equal(hu: np.ndarray, hw: np.ndarray, ru: np.ndarray, rw: np.ndarray, n_words: int,
                max_len: int) -> tuple[np.ndarray, np.ndarray]:
    """Greedy matching of equal words inside each unit: indices (into the given arrays) of the
    pairs. Arrays must list each unit's tokens in position order."""
    def keys(u: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Sorted keys (unit, word, L-1-rank from the end) and the token order they come in."""
        g = u * n_words + w
        order = np.argsort(g, kind="stable")
        gs = g[order]
        n = len(gs)
        start = np.ones(n, dtype=bool)
        start[1:] = gs[1:] != gs[:-1]
        ends = np.append(np.flatnonzero(start)[1:], n) - 1
        rank = ends[np.cumsum(start) - 1] - np.arange(n)      # 0 = last occurrence in its unit
        return gs * max_len + (max_len - 1 - rank), order

    if not len(hu) or not len(ru):
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    kh, oh = keys(hu, hw)
    kr, orr = keys(ru, rw)
    at = np.searchsorted(kr, kh)
    np.minimum(at, len(kr) - 1, out=at)
    hit = kr[at] == kh
    return oh[hit], orr[at[hit]]


def _both_sides(hu: np.ndarray, ru: np.ndarray, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """Masks of the tokens whose unit has tokens on both sides."""
    both = (np.bincount(hu, minlength=n_units) > 0) & (np.bincount(ru, minlength=n_units) > 0)
    return both[hu], both[ru]


def _align_units(matcher: "_Matcher", words: list[str], hw: np.ndarray, rw: np.ndarray, h_unit: np.ndarray,
                 r_unit: np.ndarray, n_units: int, max_len: int) -> tuple[np.ndarray, np.ndarray]:
    """(matches, chunks) of every unit (hypothesis/reference pair) under NLTK's three stages.

    ``hw``/``rw``: ids (into ``words``, lowercased as configured) of all units' tokens, unit by
    unit in position order; ``h_unit``/``r_unit``: the unit of each token."""
    if n_units * max(len(words), 1) * max_len >= 2 ** 62:
        raise OverflowError("corpus too large for the vectorised keys")
    hi, ri = _pair_equal(h_unit, hw, r_unit, rw, len(words), max_len)
    pair_h, pair_r = [hi], [ri]
    h_left = np.ones(len(hw), dtype=bool)
    r_left = np.ones(len(rw), dtype=bool)
    h_left[hi] = False
    r_left[ri] = False
    h_idx, r_idx = np.flatnonzero(h_left), np.flatnonzero(r_left)
    hm, rm = _both_sides(h_unit[h_idx], r_unit[r_idx], n_units)
    h_idx, r_idx = h_idx[hm], r_idx[rm]
    exact_left = h_idx, r_idx
    # stage-3 strings: the stems (stem stage on) or the words, as ids into s_words
    s_words: list[str] = words
    h_s, r_s = hw[h_idx], rw[r_idx]
    if matcher.stemmer is not None and len(h_idx) and len(r_idx):
        need = np.unique(np.concatenate([h_s, r_s]))
        stems, stem = matcher._stems, matcher.stem
        s_vocab: dict[str, int] = {}
        sd = s_vocab.setdefault
        to_stem = np.zeros(len(words), dtype=np.int64)
        to_stem[need] = [sd(stems.get(w) or stem(w), len(s_vocab)) for w in map(words.__getitem__, need.tolist())]
        s_words = list(s_vocab)
        h_s, r_s = to_stem[h_s], to_stem[r_s]
        hi, ri = _pair_equal(h_unit[h_idx], h_s, r_unit[r_idx], r_s, len(s_words), max_len)
        pair_h.append(h_idx[hi])
        pair_r.append(r_idx[ri])
        hk = np.ones(len(h_idx), dtype=bool)
        rk = np.ones(len(r_idx), dtype=bool)
        hk[hi] = False
        rk[ri] = False
        h_idx, r_idx, h_s, r_s = h_idx[hk], r_idx[rk], h_s[hk], r_s[rk]
        if matcher.after_exact:          # NLTK 3.5: the words the exact stage left
            h_idx, r_idx = exact_left
            s_words, h_s, r_s = words, hw[h_idx], rw[r_idx]
    if matcher.wordnet is not None and len(h_idx) and len(r_idx):
        # reference candidates: words the WordNet index lists (none with a "_": the synonym sets
        # leave such names out, and an equal hypothesis word cannot be left over)
        listed = matcher.wordnet.listed
        uniq_r = np.unique(r_s)
        flags = np.zeros(len(s_words), dtype=bool)
        flags[uniq_r] = [("_" not in w and listed(w)) for w in map(s_words.__getitem__, uniq_r.tolist())]
        keep = flags[r_s]
        r_idx, r_s = r_idx[keep], r_s[keep]
        hm, rm = _both_sides(h_unit[h_idx], r_unit[r_idx], n_units)
        h_idx, h_s, r_idx, r_s = h_idx[hm], h_s[hm], r_idx[rm], r_s[rm]
        if len(h_idx) and len(r_idx):
            sh, sr = _synonym_stage(matcher, s_words, h_idx, h_s, h_unit[h_idx], r_idx, r_s, r_unit[r_idx],
                                    n_units)
            pair_h.append(sh)
            pair_r.append(sr)
    ph = np.concatenate(pair_h)
    pr = np.concatenate(pair_r)
    order = np.argsort(ph, kind="stable")   # a hypothesis word matched twice: stem pair first
    ph, pr = ph[order], pr[order]
    pu = h_unit[ph]
    start = np.ones(len(ph), dtype=bool)
    start[1:] = (pu[1:] != pu[:-1]) | (ph[1:] != ph[:-1] + 1) | (pr[1:] != pr[:-1] + 1)
    return np.bincount(pu, minlength=n_units), np.bincount(pu[start], minlength=n_units)


def _synonym_relation(matcher: "_Matcher", s_words: list[str], h_words: list[int], r_words: list[int]) -> np.ndarray:
    """Sorted keys ``h * len(s_words) + r`` of the related (hypothesis, reference) word ids among
    ``h_words`` x ``r_words``: r is a synonym of h when some synset of h (as ``synsets(h)`` finds
    them) spells r exactly (a word with ``_`` is never a synonym: the synonym sets leave such names
    out).

    The synsets that can spell r are the index's entries for ``r.lower()``
    (:meth:`~assay.resources.wordnet.WordNet.keys_with_lemma`, a superset), so candidates come from
    the index alone: the synset keys of h meet those of r. Only a shared synset's data line is then
    read, to check that it spells r exactly (``Paris`` is listed under ``paris``)."""
    n_s = len(s_words)
    wn = matcher.wordnet
    holders: dict[int, list[int]] = {}
    for rword in r_words:
        if "_" in s_words[rword]:
            continue
        for key in wn.keys_with_lemma(s_words[rword]):
            lst = holders.get(key)
            if lst is None:
                holders[key] = [rword]
            else:
                lst.append(rword)
    held = set(holders)
    synset_keys, iterate, spells = wn.synset_keys, matcher.morphy_iterate, wn.spells
    rel: set[int] = set()
    for hword in h_words:
        keys = synset_keys(s_words[hword], iterate)
        if keys.isdisjoint(held):
            continue
        base = hword * n_s
        for key in keys & held:
            for rword in holders[key]:
                if base + rword not in rel and spells(key, s_words[rword]):
                    rel.add(base + rword)
    return np.sort(np.fromiter(rel, np.int64, len(rel)))


def _synonym_stage(matcher: "_Matcher", s_words: list[str], h_idx: np.ndarray, h_s: np.ndarray, hu: np.ndarray,
                   r_idx: np.ndarray, r_s: np.ndarray, ru: np.ndarray, n_units: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """NLTK's greedy synonym stage on the leftovers (hypothesis from the last; each takes the
    highest unused reference candidate among its synonyms).

    The synonym relation is built between the words present first: a reference word r is a synonym
    of h when some synset of h (as ``synsets(h)`` finds them) spells r, i.e. when the synset keys of
    h meet the keys of the synsets spelling r. Only tokens in some related pair stay."""
    n_s = len(s_words)
    rel = _synonym_relation(matcher, s_words, np.unique(h_s).tolist(), np.unique(r_s).tolist())
    if not len(rel):
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    h_any = np.zeros(n_s, dtype=bool)
    r_any = np.zeros(n_s, dtype=bool)
    h_any[rel // n_s] = True
    r_any[rel % n_s] = True
    hm, rm = h_any[h_s], r_any[r_s]
    h_idx, h_s, hu, r_idx, r_s, ru = h_idx[hm], h_s[hm], hu[hm], r_idx[rm], r_s[rm], ru[rm]
    hm, rm = _both_sides(hu, ru, n_units)
    h_idx, h_s, hu, r_idx, r_s, ru = h_idx[hm], h_s[hm], hu[hm], r_idx[rm], r_s[rm], ru[rm]
    # every (hyp token, ref token) of the same unit, kept when the words are related
    r_count = np.bincount(ru, minlength=n_units)
    per_h = r_count[hu]
    rj, _ = _ranges((np.cumsum(r_count) - r_count)[hu], per_h)
    hj = np.repeat(np.arange(len(h_idx)), per_h)
    pair = h_s[hj] * n_s + r_s[rj]
    at = np.searchsorted(rel, pair)
    np.minimum(at, len(rel) - 1, out=at)
    ok = rel[at] == pair
    hj, rj = hj[ok], rj[ok]
    gh, gr = h_idx[hj], r_idx[rj]
    order = np.lexsort((-gr, -gh))                    # units follow token order: by hyp desc, ref desc
    out_h: list[int] = []
    out_r: list[int] = []
    used: set[int] = set()
    last = -1
    for h, r in zip(gh[order].tolist(), gr[order].tolist()):
        if h == last or r in used:
            continue
        used.add(r)
        last = h
        out_h.append(h)
        out_r.append(r)
    return np.array(out_h, dtype=np.int64), np.array(out_r, dtype=np.int64)


def _word_ids(token_lists: list[Any], lowercase: bool) -> tuple[list[str] | None, np.ndarray]:
    """Distinct words (lowercased when asked, in first-seen order) and the word id of every token of
    ``token_lists``, list after list; ``(None, ...)`` when a token is not a string. Each distinct raw
    token is lowercased once. (The compiled twin's ``word_ids`` does the same in one pass.)"""
    vocab: dict[Any, int] = {}
    try:
        raw_ids = encode(token_lists, vocab).ids
    except TypeError:               # unhashable token
        return None, np.empty(0, dtype=np.int64)
    raw = list(vocab)
    if not all(map(isinstance, raw, repeat(str))):
        return None, raw_ids
    if not lowercase:
        return raw, raw_ids
    low = list(map(str.lower, raw))
    words = list(dict.fromkeys(low))            # first-seen order
    if len(words) == len(raw):
        return words, raw_ids
    index = dict(zip(words, range(len(words))))
    dense = np.fromiter(map(index.__getitem__, low), np.int64, len(low))
    return words, dense[raw_ids]


def _distinct(ids: np.ndarray, n: int) -> list[int]:
    """The distinct values of ``ids`` (word ids below ``n``), ascending: ``np.unique`` by a mask, in
    linear time (and without the import of ``numpy.ma`` that a process's first ``np.unique`` makes)."""
    seen = np.zeros(n, dtype=bool)
    seen[ids] = True
    return np.flatnonzero(seen).tolist()


def _stem_ids(matcher: "_Matcher", words: list[str], hw: np.ndarray, h_off: np.ndarray, rw: np.ndarray,
              r_off: np.ndarray, exact: tuple[np.ndarray, ...]) -> tuple[np.ndarray, list[str]]:
    """``stem_of[word id]``: the process-wide stem id of every word the exact stage left (−1 for the
    others; :data:`_STEM_IDS`), and the stems by id. ``exact``: the twin's ``exact_pass`` output.
    Only words not stemmed before in this process are stemmed, in one batch."""
    lh, lh_off, lr, lr_off = exact[3:]
    left = np.concatenate([hw[np.repeat(h_off[:-1], np.diff(lh_off)) + lh],
                           rw[np.repeat(r_off[:-1], np.diff(lr_off)) + lr]])
    need = [words[w] for w in _distinct(left, len(words))]
    by_word, by_stem = _STEM_IDS.setdefault(matcher.stem_as_given, ({}, {}))
    new = [w for w in need if w not in by_word]
    if new:
        number = by_stem.setdefault          # a new stem gets the next id
        by_word.update(zip(new, [number(s, len(by_stem)) for s in map(matcher.stem, new)]))
    stem_of = np.fromiter(map(by_word.get, words, repeat(-1)), np.int64, len(words))
    return stem_of, list(by_stem)


def align_units_compiled(twin: ModuleType, matcher: "_Matcher", words: list[str], hw: np.ndarray, rw: np.ndarray,
                         h_len: np.ndarray, r_len: np.ndarray, config: Config
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(matches, chunks, score) of every unit by the compiled twin (:mod:`._nltk_c`): the same
    stages and arithmetic as :func:`_align_units` and :func:`meteor_value`. ``hw``/``rw``: word ids
    of every unit's hypothesis / reference, unit after unit; ``h_len``/``r_len``: their lengths.
    Stems are computed for the words the exact stage leaves, the synonym relation
    (:func:`_synonym_relation`) for the words the stem stage leaves."""
    h_off = np.zeros(len(h_len) + 1, dtype=np.int64)
    r_off = np.zeros(len(r_len) + 1, dtype=np.int64)
    np.cumsum(h_len, out=h_off[1:])
    np.cumsum(r_len, out=r_off[1:])
    exact = twin.exact_pass(hw, h_off, rw, r_off)
    stem_of = np.empty(0, dtype=np.int64)
    s_words = words
    if matcher.stemmer is not None:
        stem_of, stems = _stem_ids(matcher, words, hw, h_off, rw, r_off, exact)
        if not matcher.after_exact:
            s_words = stems
    ph, pr, pair_off, lh, lhs, lh_off, lr, lrs, lr_off = twin.stem_pass(
        hw, h_off, rw, r_off, *exact, stem_of, matcher.stemmer is not None, matcher.after_exact)
    rel = np.empty(0, dtype=np.int64)
    if matcher.wordnet is not None and len(lh):
        # reference words the WordNet index lists (none with "_"), then the hypothesis words of the
        # pairs that have one of them left
        listed = matcher.wordnet.listed
        r_words = [w for w in _distinct(lrs, len(s_words)) if "_" not in s_words[w] and listed(s_words[w])]
        held = np.zeros(len(s_words), dtype=bool)
        held[r_words] = True
        pairs_with = np.zeros(len(lr_off) - 1, dtype=bool)
        pairs_with[np.repeat(np.arange(len(lr_off) - 1), np.diff(lr_off))[held[lrs]]] = True
        h_words = _distinct(lhs[pairs_with[np.repeat(np.arange(len(lh_off) - 1), np.diff(lh_off))]], len(s_words))
        rel = _synonym_relation(matcher, s_words, h_words, r_words)
    return twin.synonym_score(ph, pr, pair_off, lh, lhs, lh_off, lr, lrs, lr_off, rel, len(s_words),
                              np.ascontiguousarray(h_len, dtype=np.int64), np.ascontiguousarray(r_len, dtype=np.int64),
                              config.alpha, config.beta, config.gamma)


def segment_stats(hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
    """Rows of ``algorithm=nltk`` (with the collector paused: see :func:`assay.core.gcpause.collector_paused`)."""
    with collector_paused():
        return corpus_rows(hyps, refs, config, _compiled)


def corpus_rows(hyps: Segments, refs: Refs, config: Config, twin: ModuleType | None) -> SegmentStats:
    """Every hypothesis/reference pair aligned at once; the first best reference kept per segment.
    ``twin``: the compiled twin (:func:`align_units_compiled`), or None for the numpy engine.

    The pairs' lengths, matches and chunks depend on the text and the matching knobs only; they are
    kept in :mod:`assay.core.corpus_cache`, so a configuration that differs in α, β or γ alone re-scores the
    pairs (:func:`meteor_value`; the twin's ``scores``, the same operations in C) instead of aligning them again."""
    matcher = _Matcher(config)
    key = ("nltk", twin is None, matcher.lowercase, matcher.stemmer is not None, matcher.stem_as_given,
           matcher.after_exact, matcher.morphy_iterate, matcher.wordnet.dir if matcher.wordnet is not None else None)
    cached = corpus_cache.get(key, hyps, refs)
    if cached is None:
        unit_seg, hl, rl, matches, chunks, first = _pair_stats(matcher, hyps, refs, config, twin)
        for a in (unit_seg, hl, rl, matches, chunks):
            a.setflags(write=False)
        corpus_cache.put(key, hyps, refs, (unit_seg, hl, rl, matches, chunks))
        values = first
    else:
        unit_seg, hl, rl, matches, chunks = cached
        if twin is not None:
            values = twin.scores(*(np.ascontiguousarray(a, dtype=np.float64) for a in (hl, rl, matches, chunks)),
                                 config.alpha, config.beta, config.gamma).tolist()
        else:
            values = list(map(meteor_value, hl.tolist(), rl.tolist(), matches.tolist(), chunks.tolist(),
                              repeat(config.alpha), repeat(config.beta), repeat(config.gamma)))
    n_units = len(unit_seg)
    pick: Any = slice(None)
    if n_units != len(hyps):          # several references: the first best one
        pick, prev, best = [], -1, 0.0
        for u, (seg, v) in enumerate(zip(unit_seg.tolist(), values)):
            if seg != prev:
                pick.append(u)
                prev, best = seg, v
            elif v > best:
                pick[-1] = u
                best = v
    rows = np.column_stack([hl, rl, matches, chunks, np.array(values, dtype=np.float64),
                            np.ones(n_units)]).astype(np.float64)[pick]
    return SegmentStats(COLUMNS, rows.reshape(-1, len(COLUMNS)))


def _pair_stats(matcher: _Matcher, hyps: Segments, refs: Refs, config: Config, twin: ModuleType | None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[float]]:
    """Per hypothesis/reference pair ("unit", segment by segment, references in stream order): its
    segment, hypothesis and reference lengths, matches and chunks, and its score under ``config``."""
    n = len(hyps)
    hyp_lists = _token_lists(hyps, lambda i: f"segment {i + 1}")
    streams = [_token_lists(s, lambda i, k=k: f"reference stream {k + 1}, segment {i + 1}", allow_none=True)
               for k, s in enumerate(refs)]
    if len(streams) == 1 and None not in streams[0]:
        unit_seg = np.arange(n, dtype=np.int64)
        unit_refs = streams[0]
    else:
        seg_of: list[int] = []
        unit_refs = []
        for i in range(n):
            got = [s[i] for s in streams if s[i] is not None]
            if not got:
                raise InputError(f"segment {i + 1} has no reference (METEOR needs at least one)")
            seg_of += [i] * len(got)
            unit_refs += got
        unit_seg = np.array(seg_of, dtype=np.int64)
    n_units = len(unit_seg)
    h_len = np.fromiter(map(len, hyp_lists), np.int64, n)
    r_len = np.fromiter(map(len, unit_refs), np.int64, n_units)
    words, ids = (_word_ids if twin is None else twin.word_ids)(hyp_lists + unit_refs, config.lowercase)
    if words is None:     # a token that is not a string: name the segment
        for i, seg in enumerate(hyps):
            _tokens(seg, f"segment {i + 1}")
        for k, stream in enumerate(refs):
            for i, seg in enumerate(stream):
                if seg is not None:
                    _tokens(seg, f"reference stream {k + 1}, segment {i + 1}")
        raise InputError("expected strings or lists of string tokens")
    n_h_tokens = int(h_len.sum())
    hw, rw = ids[:n_h_tokens], ids[n_h_tokens:]
    if n_units != n:
        h_idx, _ = _ranges((np.cumsum(h_len) - h_len)[unit_seg], h_len[unit_seg])
        hw = hw[h_idx]
    h_unit_len = h_len[unit_seg]
    if twin is not None:
        matches, chunks, scores = align_units_compiled(twin, matcher, words, hw, rw, h_unit_len, r_len, config)
        values = scores.tolist()
    else:
        h_unit = np.repeat(np.arange(n_units, dtype=np.int64), h_unit_len)
        r_unit = np.repeat(np.arange(n_units, dtype=np.int64), r_len)
        max_len = int(max(h_len.max(initial=0), r_len.max(initial=0))) + 1
        hl, rl = h_unit_len.tolist(), r_len.tolist()
        try:
            matches, chunks = _align_units(matcher, words, hw, rw, h_unit, r_unit, n_units, max_len)
        except OverflowError:
            h_low = [words[k] for k in hw.tolist()]
            r_low = [words[k] for k in rw.tolist()]
            mc, hs, rs = [], 0, 0
            for a, b in zip(hl, rl):
                mc.append(matcher.align(h_low[hs:hs + a], r_low[rs:rs + b]))
                hs += a
                rs += b
            matches = np.array([m for m, _ in mc], dtype=np.int64)
            chunks = np.array([c for _, c in mc], dtype=np.int64)
        values = list(map(meteor_value, hl, rl, matches.tolist(), chunks.tolist(), repeat(config.alpha),
                          repeat(config.beta), repeat(config.gamma)))
    return (unit_seg, np.ascontiguousarray(h_unit_len, dtype=np.int64), np.ascontiguousarray(r_len, dtype=np.int64),
            np.asarray(matches, dtype=np.int64), np.asarray(chunks, dtype=np.int64), values)
