"""METEOR: NLTK's ``meteor_score`` (``algorithm=nltk``) and the METEOR 1.5 jar (``algorithm=meteor-1.5``).

``algorithm=meteor-1.5`` dispatches to :mod:`assay.metrics.meteor15` (the jar as pycocoevalcap runs
it: ``-norm``, exact/stem/synonym/paraphrase, δ function-word weighting, corpus score from summed
statistics). The rest of this docstring describes ``algorithm=nltk``.

NLTK's ``meteor_score`` / ``single_meteor_score`` (METEOR 1.0 style).

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
"""
from __future__ import annotations

import math
from functools import partial
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import InputError
from ..knobs import Config, Knob, KnobSet, parse_bool
from ..profiles import Profile, register
from ..stats import SegmentStats
from ..stemmers.porter import _NLTK_IRREGULAR, PorterStemmer
from .base import MetricFamily, Refs, Segments

COLUMNS = ("hyp_len", "ref_len", "matches", "chunks", "score", "segments")


def _finite(value: Any) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"expected a finite number, got {value!r}")
    return number


def _positive_int(value: Any) -> int:
    number = int(value)
    if number < 1:
        raise ValueError(f"expected a positive integer, got {value!r}")
    return number


KNOBS = KnobSet(
    knobs=(
        Knob("algorithm", "nltk", "which METEOR: nltk (meteor_score) or meteor-1.5 (the CMU jar, clean-room)",
             str, choices=("nltk", "meteor-1.5"), tool_names="nltk meteor_score / meteor-1.5.jar"),
        Knob("alpha", 0.9, "weight of precision in Fmean = P·R/(α·P + (1−α)·R)", _finite,
             tool_names="nltk alpha"),
        Knob("beta", 3.0, "fragmentation exponent: penalty = γ·(chunks/matches)^β", _finite,
             tool_names="nltk beta"),
        Knob("gamma", 0.5, "fragmentation weight γ", _finite, tool_names="nltk gamma"),
        Knob("lowercase", True, "lowercase every token first (NLTK preprocess=str.lower); off = identity",
             parse_bool, tool_names="nltk preprocess"),
        Knob("stem", True, "Porter-stem stage (NLTK PorterStemmer, NLTK_EXTENSIONS); the stems go on to "
             "the synonym stage", parse_bool, tool_names="nltk stemmer"),
        Knob("synonyms", True, "WordNet 3.0 synonym stage (needs WordNet; off skips the stage explicitly)",
             parse_bool, tool_names="nltk wordnet"),
        Knob("wordnet", "", "directory of the WordNet 3.0 database (index.noun, data.noun, noun.exc, ...); "
             "empty: $ASSAY_WORDNET, else /usr/share/wordnet", str),
        Knob("delta", 0.75, "meteor-1.5: weight of content words (function words 1−δ) in matches and lengths",
             _finite, tool_names="meteor-1.5 -p (4th)"),
        Knob("modules", "exact stem synonym paraphrase", "meteor-1.5: matching modules, in the jar's order",
             str, tool_names="meteor-1.5 -m"),
        Knob("weights", "1.0 0.6 0.8 0.6", "meteor-1.5: module weights (one per module)", str,
             tool_names="meteor-1.5 -w"),
        Knob("norm", True, "meteor-1.5: -norm tokenisation/normalisation (off: lowercase and split on spaces)",
             parse_bool, tool_names="meteor-1.5 -norm / -lower"),
        Knob("beam", 40, "meteor-1.5: alignment beam width", _positive_int, tool_names="meteor-1.5 -x"),
        Knob("language", "en", "meteor-1.5: language of the resources (function words, prefixes, paraphrases)",
             str, tool_names="meteor-1.5 -l"),
        Knob("resources_path", "", "meteor-1.5: directory holding meteor-1.5.jar and data/paraphrase-<lang>.gz "
             "(empty: $ASSAY_METEOR_DATA, else the installed pycocoevalcap)", str),
    ),
)


#: last letters of every suffix a Porter step (1a-5, NLTK_EXTENSIONS) rewrites; a word ending in
#: any other character (and not in the irregular table) is its own stem.
_STEM_TRIGGERS = frozenset("sdgylirnmectu")


#: process-wide caches (pure functions of the word; synonyms per WordNet directory)
_STEM_CACHE: dict[str, str] = {}
_SYN_CACHES: dict[Any, tuple[dict[str, frozenset[str]], dict[str, bool]]] = {}


class _Matcher:
    """The three stages for one configuration, with (process-wide) stem and synonym caches."""

    def __init__(self, config: Config) -> None:
        self.lowercase = config.lowercase
        self.stemmer = PorterStemmer("nltk") if config.stem else None
        self.wordnet = None
        if config.synonyms:
            from .. import wordnet
            self.wordnet = wordnet.load(config.wordnet or None)
        self._stems = _STEM_CACHE
        self._syns, self._known = (_SYN_CACHES.setdefault(self.wordnet.dir, ({}, {}))
                                   if self.wordnet is not None else ({}, {}))

    def stem(self, word: str) -> str:
        """NLTK's ``stem(word)``: lowercases; its irregular table is consulted with the word as given."""
        s = self._stems.get(word)
        if s is None:
            assert self.stemmer is not None
            low = word.lower()
            if low[-1:] not in _STEM_TRIGGERS and low not in _NLTK_IRREGULAR:
                s = low                                     # no Porter rule ends in this letter
            elif word != low and low in _NLTK_IRREGULAR:    # only with lowercase=off
                st = self.stemmer
                s = low if len(word) <= 2 else st._step5(st._step4(st._step3(st._step2(
                    st._step1c(st._step1b(st._step1a(low)))))))
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
            names = {n for n in self.wordnet.lemma_names(word) if "_" not in n}
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
            h_left, r_left = _exact_stage(h_words, r_words, h_left, r_left, pairs)
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
        pairs.sort()
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


def _parts(hyp_len: float, ref_len: float, matches: float, chunks: float, config: Config) -> dict[str, Any]:
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


class Meteor(MetricFamily):
    name = "meteor"
    knobset = KNOBS

    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        if config.algorithm == "meteor-1.5":
            from .meteor15 import family
            return family.segment_stats(hyps, refs, config)
        matcher = _Matcher(config)
        low: Callable[[list[str]], list[str]] = ((lambda ts: list(map(str.lower, ts))) if config.lowercase
                                                  else (lambda ts: ts))
        alpha, beta, gamma = config.alpha, config.beta, config.gamma
        rows: list[tuple[float, ...]] = []
        for i, seg in enumerate(hyps):
            hyp = low(_tokens(seg, f"segment {i + 1}"))
            seg_refs = [low(_tokens(s[i], f"reference stream {k + 1}, segment {i + 1}"))
                        for k, s in enumerate(refs) if s[i] is not None]
            if not seg_refs:
                raise InputError(f"segment {i + 1} has no reference (METEOR needs at least one)")
            best: tuple[float, int, int, int] | None = None
            for ref in seg_refs:
                m, c = matcher.align(hyp, ref)
                value = meteor_value(len(hyp), len(ref), m, c, alpha, beta, gamma)
                if best is None or value > best[0]:
                    best = (value, len(ref), m, c)
            assert best is not None
            rows.append((len(hyp), best[1], best[2], best[3], best[0], 1.0))
        return SegmentStats(COLUMNS, np.array(rows, dtype=np.float64).reshape(len(rows), len(COLUMNS)))

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        if config.algorithm == "meteor-1.5":
            from .meteor15 import family
            if len(stats) == 1:
                row = stats.rows[0]
                return float(row[-1]), family.components(row, config)
            total = family.corpus_row(stats.rows)
            return float(family.scores_from_sums(total[None, :], config)[0]), family.components(
                total, config, segments=len(stats))
        if len(stats) == 1:
            row = stats.rows[0]
            return float(row[4]), _parts(row[0], row[1], row[2], row[3], config)
        value = float(self.scores_from_sums(stats.total()[None, :], config)[0])
        return value, {"segments": len(stats), "corpus": "mean of segment scores (assay's choice; NLTK has none)"}

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, Any]]:
        if config.algorithm == "meteor-1.5":
            from .meteor15 import family
            return [(row[-1], partial(family.components, row, config)) for row in stats.rows.tolist()]
        return [(row[4], partial(_parts, row[0], row[1], row[2], row[3], config)) for row in stats.rows.tolist()]

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Mean segment score of every summed row: Σscore / Σsegments (0 for no segment)."""
        if config.algorithm == "meteor-1.5":
            from .meteor15 import family
            return family.scores_from_sums(sums, config)
        sums = np.asarray(sums, dtype=np.float64)
        n = sums[:, 5]
        return np.where(n > 0, sums[:, 4] / np.where(n > 0, n, 1.0), 0.0)

    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        from ..signature import assay_signature
        return assay_signature("meteor", config, profile, nrefs)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        text = repr(float(value)) if width is None else f"{value:.{width}f}"
        return f"METEOR = {text}"


FAMILY = Meteor()

NLTK_KNOBS = dict(algorithm="nltk", alpha=0.9, beta=3.0, gamma=0.5, lowercase=True, stem=True, synonyms=True,
                  wordnet="")
register(Profile(
    "meteor", "nltk", "nltk", ("3.10.4",), NLTK_KNOBS,
    "NLTK meteor_score/single_meteor_score: lowercased tokens (strings split on whitespace), exact, "
    "Porter-stem and WordNet 3.0 synonym stages (synonyms of stems), greedy alignment, alpha 0.9, beta 3, "
    "gamma 0.5, no perfect-match case, max over references; corpus = mean of segment scores (assay's "
    "choice: NLTK has no corpus METEOR)."), default=True)

METEOR15_KNOBS = dict(algorithm="meteor-1.5", alpha=0.85, beta=0.2, gamma=0.6, delta=0.75,
                      modules="exact stem synonym paraphrase", weights="1.0 0.6 0.8 0.6", norm=True, beam=40,
                      language="en", resources_path="")
register(Profile(
    "meteor", "meteor-1.5", "meteor-1.5.jar", ("1.5",), METEOR15_KNOBS,
    "METEOR 1.5 jar as pycocoevalcap runs it (java -jar meteor-1.5.jar - - -stdio -l en -norm), clean-room and "
    "Java-free: -norm tokenisation, exact/stem/synonym/paraphrase modules (weights 1.0 0.6 0.8 0.6), alpha 0.85, "
    "beta 0.2, gamma 0.6, delta 0.75, best reference per segment; corpus = score of the summed statistics "
    "(the jar's EVAL). Resources are read from the installed jar (resources_path knob)."))
