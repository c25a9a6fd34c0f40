"""chrF and chrF++ (Popović 2015, 2016/2017) as sacrebleu 2.x, sacrebleu 1.x and NLTK compute them.

Per order (character orders ``min_char_order..char_order``, then word orders ``1..word_order``)
a segment has three numbers: hypothesis n-grams ``h``, reference n-grams ``r`` and matches
``m = sum_g min(count_hyp(g), count_ref(g))``. With ``P_n = m/h``, ``R_n = m/r`` and
``F_beta(P, R) = (1 + beta^2) P R / (beta^2 P + R)`` the tools differ only in the knobs below
(black-box behaviour, shared/research/bleu_nist.md §1.6 and conformance/test_chrf_*.py):

- ``eps_smoothing=False`` (sacrebleu 2.x default, ``eff:yes``; sacrebleu 1.x): average ``P_n`` and
  ``R_n`` over the *effective* orders (``h > 0`` and ``r > 0``), then one ``F_beta``; 0 when no order
  is effective or ``P + R = 0``.
- ``eps_smoothing=True`` (sacrebleu 2.x ``eff:no``; NLTK): ``F_beta`` per order, arithmetic mean over
  all orders, with ``eps = 1e-16`` for undefined parts. ``zero_division`` says which: ``sacrebleu``
  sets ``P = eps`` when ``h = 0``, ``R = eps`` when ``r = 0``, and ``F = eps`` only when
  ``beta^2 P + R = 0`` (so ``h = 0 < r`` gives ``F = 0``); ``nltk`` sets ``P = R = F = eps`` whenever
  ``h``, ``r`` or ``m`` is 0 (its ``ZeroDivisionError`` handler).
- ``hyp_count_without_ref``: sacrebleu 2.x counts no hypothesis n-grams of an order the reference has
  none of (``zero``), so an empty reference line adds nothing to the corpus; 1.x and NLTK ``keep`` them.
- ``multi_ref``: ``best`` (2.x) keeps, per segment, the statistics of the reference with the highest
  sentence score (strictly higher; the first wins ties); ``first`` (1.x) reads only the first stream.
- ``averaging``: ``corpus`` sums the statistics over segments, then scores (sacrebleu);
  ``segments`` is the mean of the sentence scores (NLTK ``corpus_chrf``).
- Preprocessing: ``lowercase`` (``str.lower``); unless ``whitespace``, whitespace is deleted before
  character n-grams (``whitespace_set``: ``isspace`` = ``str.isspace`` characters, as ``str.split``;
  ``white_space`` = the Unicode White_Space property, which leaves U+001C..U+001F, NLTK 3.10). chrF++ word tokens:
  ``str.split``, then a token longer than one character loses **one** trailing ASCII punctuation
  character into its own token, else one leading one (sacrebleu #124: ``(hi)`` -> ``(hi``, ``)``).

Reading files (only matters with ``whitespace=True``): sacrebleu 2.x's CLI ``rstrip``s each line,
1.x's CLI keeps each line's ``"\n"``; the APIs score the strings as given, and so does this module.
"""
from __future__ import annotations

import re
import string
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.core.knobs import Alias, Config, Knob, KnobSet, parse_bool
from assay.profiles.registry import Profile, register
from assay.core.stats import SegmentStats
from assay.core.family import MetricFamily, Refs, Segments
from assay.text.ngrams import Encoded, encode

EPS = 1e-16
UNICODE_SPACE = "".join(chr(c) for c in range(0x3000 + 1) if chr(c).isspace())   # all 29 are <= U+3000
#: the Unicode White_Space property: str.isspace minus U+001C..U+001F (NLTK 3.10's regex \s)
WHITE_SPACE = "".join(c for c in UNICODE_SPACE if c not in "\x1c\x1d\x1e\x1f")
_WHITE_SPACE_RUN = re.compile("[" + re.escape(WHITE_SPACE) + "]+")
_PUNCT = frozenset(string.punctuation)   # ASCII only: '«oui»' and 'word—' stay whole


def parse_beta(value: Any) -> int | float:
    """An int when written as one (sacrebleu names the metric ``chrF{beta}``: ``chrF2`` vs ``chrF2.0``)."""
    if isinstance(value, bool):
        raise ValueError(f"beta must be a number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        return int(text) if text.lstrip("+-").isdigit() else float(text)
    return float(value)


def _validate(values: Mapping[str, Any]) -> None:
    if values["char_order"] < 0 or values["word_order"] < 0:
        raise KnobError("char_order and word_order must be >= 0")
    if values["min_char_order"] < 1:
        raise KnobError("min_char_order must be >= 1")
    if values["char_order"] and values["min_char_order"] > values["char_order"]:
        raise KnobError(f"min_char_order={values['min_char_order']} > char_order={values['char_order']}: "
                        "no character order is left (NLTK divides by zero here)")
    if values["char_order"] == 0 and values["word_order"] == 0:
        raise KnobError("chrF needs at least one order: char_order and word_order are both 0")
    if values["beta"] < 0:
        raise KnobError("beta must be >= 0")


KNOBS = KnobSet(
    knobs=(
        Knob("char_order", 6, "highest character n-gram order", int,
             tool_names="sacrebleu char_order/--chrf-char-order; 1.x order/--chrf-order; NLTK max_len"),
        Knob("min_char_order", 1, "lowest character n-gram order", int, tool_names="NLTK min_len"),
        Knob("word_order", 0, "highest word n-gram order (chrF++: 2)", int,
             tool_names="sacrebleu word_order/--chrf-word-order"),
        Knob("beta", 2, "recall weight of F_beta", parse_beta, tool_names="sacrebleu beta; NLTK beta (3)"),
        Knob("lowercase", False, "lowercase hypotheses and references (str.lower)", parse_bool,
             tool_names="sacrebleu lowercase/--chrf-lowercase"),
        Knob("whitespace", False, "keep whitespace in character n-grams", parse_bool,
             tool_names="sacrebleu whitespace; 1.x not remove_whitespace; NLTK not ignore_whitespace"),
        Knob("whitespace_set", "isspace", "characters deleted when whitespace is off: isspace = str.isspace, "
             "as str.split (sacrebleu, NLTK 3.5); white_space = the Unicode White_Space property, which keeps "
             "U+001C..U+001F (NLTK 3.10)", str, ("isspace", "white_space")),
        Knob("eps_smoothing", False, "F per order with eps for undefined parts, mean over all orders "
             "(eff:no); off = P and R averaged over effective orders, then one F (eff:yes)", parse_bool,
             tool_names="sacrebleu eps_smoothing/--chrf-eps-smoothing"),
        Knob("zero_division", "sacrebleu", "with eps_smoothing, which parts become eps: sacrebleu = P if no hyp "
             "n-grams, R if no ref n-grams, F if its denominator is 0; nltk = P, R and F when any count is 0",
             str, ("sacrebleu", "nltk")),
        Knob("hyp_count_without_ref", "zero", "hypothesis n-grams of an order the reference has none of: zero = "
             "not counted (sacrebleu 2.x), keep = counted (sacrebleu 1.x, NLTK)", str, ("zero", "keep")),
        Knob("multi_ref", "best", "several references: best = per segment the reference with the highest "
             "sentence score, first wins ties (sacrebleu 2.x); first = only the first stream (sacrebleu 1.x)",
             str, ("best", "first")),
        Knob("missing_ref", "skip", "a missing (None) reference: skip = ignored, a segment without any fails "
             "like sacrebleu 2.x (ValueError for a one-segment corpus, else IndexError); EOFError / TypeError = "
             "the tool fails on any (sacrebleu 1.x / NLTK)", str, ("skip", "EOFError", "TypeError")),
        Knob("averaging", "corpus", "corpus score: corpus = from the summed statistics (sacrebleu); "
             "segments = mean of the sentence scores (NLTK corpus_chrf)", str, ("corpus", "segments")),
        Knob("token_lists", "error", "token-list input: error = strings only (sacrebleu); join = joined with "
             "one space (NLTK)", str, ("error", "join")),
        Knob("scale", 100, "0-100 (sacrebleu 2.x) or 0-1 (sacrebleu 1.x, NLTK)", int, (1, 100)),
    ),
    aliases=(
        Alias("order", "sacrebleu 1.x order", lambda v: {"char_order": v}),
        Alias("max_len", "NLTK max_len", lambda v: {"char_order": v}),
        Alias("min_len", "NLTK min_len", lambda v: {"min_char_order": v}),
        Alias("remove_whitespace", "sacrebleu 1.x remove_whitespace", lambda v: {"whitespace": not parse_bool(v)}),
        Alias("ignore_whitespace", "NLTK ignore_whitespace", lambda v: {"whitespace": not parse_bool(v)}),
    ),
    validate=_validate,
)

_SACREBLEU = dict(char_order=6, min_char_order=1, word_order=0, beta=2, lowercase=False, whitespace=False,
                  whitespace_set="isspace", eps_smoothing=False, zero_division="sacrebleu",
                  hyp_count_without_ref="zero", multi_ref="best", missing_ref="skip", averaging="corpus",
                  token_lists="error", scale=100)
_SACREBLEU1 = dict(_SACREBLEU, hyp_count_without_ref="keep", multi_ref="first", missing_ref="EOFError", scale=1)
_NLTK = dict(_SACREBLEU, beta=3, whitespace_set="white_space", eps_smoothing=True, zero_division="nltk",
             hyp_count_without_ref="keep", multi_ref="first", missing_ref="TypeError", averaging="segments",
             token_lists="join", scale=1)
#: knobs sacrebleu 2.x itself exposes (its signature names them); others must keep the profile's value
SACREBLEU_KNOBS = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
SACREBLEU1_KNOBS = ("char_order", "beta", "whitespace")

register(Profile(
    "chrf", "sacrebleu", "sacrebleu", ("2.6.0",), _SACREBLEU,
    "sacrebleu 2.x CHRF(): chrF2 (char_order 6, beta 2, whitespace deleted, eff:yes); several references: "
    "per segment the best one; 0-100. chrF++ = word_order=2 (profile sacrebleu-chrf++).", default_width=1),
    default=True)
register(Profile(
    "chrf", "sacrebleu-chrf++", "sacrebleu", ("2.6.0",), dict(_SACREBLEU, word_order=2),
    "sacrebleu 2.x CHRF(word_order=2) / --chrf-word-order 2: chrF2++.", default_width=1))
register(Profile(
    "chrf", "sacrebleu@1", "sacrebleu", ("1.5.1",), _SACREBLEU1,
    "sacrebleu 1.5.x corpus_chrf/sentence_chrf: 0-1 scale, only the first reference stream is read, "
    "hypothesis n-grams count even against an empty reference, no chrF++ and no lowercasing; a missing "
    "reference fails (EOFError).", default_width=1))
register(Profile(
    "chrf", "nltk", "nltk", ("3.10.4",), _NLTK,
    "NLTK corpus_chrf/sentence_chrf(min_len=1, max_len=6, beta=3, ignore_whitespace=True): F per order "
    "(1e-16 when undefined), mean over orders, corpus = mean of sentence scores; one reference; token "
    "lists are joined with spaces; Unicode White_Space is removed.", max_refs=1))
register(Profile(
    "chrf", "nltk@3.5", "nltk", ("3.5",), dict(_NLTK, whitespace_set="isspace"),
    "NLTK 3.5 chrF: as nltk, but every str.isspace character is removed (U+001C..U+001F too).", max_refs=1))


# ---------------------------------------------------------------------------- text
def _text(seg: Any, i: int, what: str, config: Config) -> str:
    if isinstance(seg, str):
        return seg
    if isinstance(seg, (list, tuple)) and config.token_lists == "join":
        return " ".join(seg)       # NLTK: a token list becomes one space-joined string
    if isinstance(seg, (list, tuple)):
        raise InputError(f"{what} {i + 1}: chrF (profile knob token_lists=error) takes strings, not token lists")
    raise InputError(f"{what} {i + 1}: expected a string, got {type(seg).__name__}")


def _char_text(text: str, config: Config) -> str:
    if config.whitespace:
        return text
    if config.whitespace_set == "white_space":
        return _WHITE_SPACE_RUN.sub("", text)
    return "".join(text.split())


def word_tokens(text: str) -> list[str]:
    """chrF++ words: whitespace split, then one trailing (else one leading) ASCII punctuation split off."""
    out: list[str] = []
    for w in text.split():
        if len(w) > 1:
            if w[-1] in _PUNCT:
                out += (w[:-1], w[-1])
                continue
            if w[0] in _PUNCT:
                out += (w[0], w[1:])
                continue
        out.append(w)
    return out


def _encode_chars(texts: Sequence[str]) -> Encoded:
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    raw = "".join(texts).encode("utf-32-le", "surrogatepass")
    ids = np.frombuffer(raw, dtype="<u4").astype(np.int64)
    return Encoded(ids, offsets)


# ---------------------------------------------------------------------------- counting
def pair_matches(hyp: Encoded, refs: Sequence[Encoded], max_order: int, chunk: int = 1 << 18) -> np.ndarray:
    """``out[k, s, n-1] = sum_g min(count_hyp(g), count_ref_k(g))`` over the n-grams g of segment s.

    Segments are processed in chunks of about ``chunk`` symbols so that the sorts and scatters of
    :func:`_chunk_matches` stay in cache.
    """
    n_seg = hyp.n_segments
    out = np.zeros((len(refs), n_seg, max_order))
    if not refs or max_order == 0 or n_seg == 0:
        return out
    sides = [hyp] + list(refs)
    total = sum(s.offsets for s in sides)            # symbols up to each segment boundary, all sides
    start = 0
    while start < n_seg:
        stop = int(np.searchsorted(total, total[start] + chunk, side="right")) - 1
        stop = min(max(stop, start + 1), n_seg)
        parts = [Encoded(s.ids[s.offsets[start]:s.offsets[stop]], s.offsets[start:stop + 1] - s.offsets[start])
                 for s in sides]
        out[:, start:stop] = _chunk_matches(parts, max_order)
        start = stop
    return out


def _chunk_matches(sides: Sequence[Encoded], max_order: int) -> np.ndarray:
    """:func:`pair_matches` for one chunk (``sides[0]`` the hypotheses).

    N-gram codes are segment-specific ranks of (code of the (n-1)-gram prefix, next symbol); an
    n-gram is only looked at when its prefix occurs in the hypothesis and in some reference of
    its segment (otherwise it cannot match), so each order sorts fewer positions.
    """
    n_seg = sides[0].n_segments
    out = np.zeros((len(sides) - 1, n_seg, max_order))
    ids = np.concatenate([s.ids for s in sides])
    if len(ids) == 0:
        return out
    seg = np.concatenate([np.repeat(np.arange(s.n_segments), s.lengths) for s in sides])
    bounds = np.cumsum([0] + [len(s.ids) for s in sides])
    ends = np.concatenate([np.repeat(s.offsets[1:], s.lengths) + b for s, b in zip(sides, bounds[:-1])])
    present = np.zeros(int(ids.max()) + 1, dtype=bool)
    present[ids] = True
    dense = np.cumsum(present) - 1                  # symbols ranked densely: smaller keys
    ids = dense[ids]
    alphabet = int(dense[-1]) + 1
    room = ends - np.arange(len(ids))                # n-grams of order n start where room >= n
    prev = np.zeros_like(ids)
    live = np.ones(len(ids), dtype=bool)
    for n in range(1, max_order + 1):
        where = np.flatnonzero(live & (room >= n))
        if where.size == 0:
            break
        key = seg[where] * alphabet + ids[where] if n == 1 else prev[where] * alphabet + ids[where + n - 1]
        code, n_codes = _rank(key, alphabet * (int(prev.max()) + 1 if n > 1 else int(seg[-1]) + 1))
        cuts = np.searchsorted(where, bounds)          # where is sorted: each side is one slice
        hyp_counts = np.bincount(code[cuts[0]:cuts[1]], minlength=n_codes)
        seg_of_code = np.zeros(n_codes, dtype=np.int64)
        seg_of_code[code] = seg[where]
        any_ref = np.zeros(n_codes, dtype=bool)
        for k in range(1, len(sides)):
            ref_counts = np.bincount(code[cuts[k]:cuts[k + 1]], minlength=n_codes)
            out[k - 1, :, n - 1] = np.bincount(seg_of_code, weights=np.minimum(hyp_counts, ref_counts),
                                               minlength=n_seg)[:n_seg]
            any_ref |= ref_counts > 0
        prev[where] = code
        live[:] = False
        live[where] = ((hyp_counts > 0) & any_ref)[code]
    return out


def _rank(key: np.ndarray, bound: int) -> tuple[np.ndarray, int]:
    """Dense ranks of ``key`` (``0 <= key < bound``), as ``np.unique(key, return_inverse=True)``.

    When key and position fit in 63 bits together, one value sort of ``key << b | position``
    replaces the (slower) argsort.
    """
    m = len(key)
    shift = max(int(m - 1).bit_length(), 1)
    if (max(bound, 1) - 1).bit_length() + shift > 62:
        uniq, code = np.unique(key, return_inverse=True)
        return code.ravel(), len(uniq)
    packed = np.sort((key << shift) | np.arange(m, dtype=np.int64))
    sorted_keys = packed >> shift
    step = np.empty(m, dtype=np.int64)
    step[0] = 0
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=step[1:])
    ranks = np.cumsum(step)
    code = np.empty(m, dtype=np.int64)
    code[packed & ((1 << shift) - 1)] = ranks
    return code, int(ranks[-1]) + 1


def _ngram_counts(lengths: np.ndarray, orders: Sequence[int]) -> np.ndarray:
    """Number of n-grams of each order in sequences of the given lengths: max(L - n + 1, 0)."""
    return np.maximum(lengths[..., None] - np.asarray(orders)[None, :] + 1, 0).astype(np.float64)


# ---------------------------------------------------------------------------- scores
def f_rows(hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, config: Config) -> np.ndarray:
    """chrF on the tool's 0-1 fraction for every row of (rows, orders) count arrays (see module doc)."""
    beta = config.beta
    factor = beta ** 2
    n_rows, n_orders = hyp.shape
    with np.errstate(divide="ignore", invalid="ignore"):
        if config.eps_smoothing:
            total = np.zeros(n_rows)
            for k in range(n_orders):
                h, r, m = hyp[:, k], ref[:, k], match[:, k]
                if config.zero_division == "nltk":
                    bad = (h == 0) | (r == 0) | (m == 0)
                    p = np.where(bad, EPS, m / h)
                    rc = np.where(bad, EPS, m / r)
                    f = np.where(bad, EPS, (1 + factor) * (p * rc) / (factor * p + rc))
                else:
                    p = np.where(h > 0, m / h, EPS)
                    rc = np.where(r > 0, m / r, EPS)
                    denom = factor * p + rc
                    f = np.where(denom > 0, (1 + factor) * p * rc / denom, EPS)
                total = total + f
            return total / n_orders
        avg_p = np.zeros(n_rows)
        avg_r = np.zeros(n_rows)
        eff = np.zeros(n_rows)
        for k in range(n_orders):
            h, r, m = hyp[:, k], ref[:, k], match[:, k]
            ok = (h > 0) & (r > 0)
            avg_p = avg_p + np.where(ok, m / h, 0.0)
            avg_r = avg_r + np.where(ok, m / r, 0.0)
            eff = eff + ok
        avg_p = np.where(eff > 0, avg_p / eff, 0.0)
        avg_r = np.where(eff > 0, avg_r / eff, 0.0)
        both = avg_p + avg_r
        return np.where(both > 0, (1 + factor) * avg_p * avg_r / (factor * avg_p + avg_r), 0.0)


def _orders(config: Config) -> list[tuple[str, int]]:
    chars = [("c", n) for n in range(config.min_char_order, config.char_order + 1)] if config.char_order else []
    return chars + [("w", n) for n in range(1, config.word_order + 1)]


class Chrf(MetricFamily):
    name = "chrf"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        cols = [f"{kind}{n}_{part}" for kind, n in _orders(config) for part in ("hyp", "ref", "match")]
        if config.averaging == "segments":
            cols += ["sentence", "segments"]
        return tuple(cols)

    # ------------------------------------------------------------------ statistics
    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        hyp_texts = [_text(h, i, "hypothesis", config) for i, h in enumerate(hyps)]
        streams = self._reference_streams(refs, len(hyp_texts), config)
        if config.lowercase:
            hyp_texts = [t.lower() for t in hyp_texts]
            streams = [[None if t is None else t.lower() for t in s] for s in streams]
        n_seg = len(hyp_texts)
        present = np.array([[t is not None for t in s] for s in streams], dtype=bool).reshape(len(streams), n_seg)
        hyp_cnt, ref_cnt, match = [], [], []   # per order kind: (n_refs, n_seg, orders) arrays
        if config.char_order:
            orders = list(range(config.min_char_order, config.char_order + 1))
            h_side = _encode_chars([_char_text(t, config) for t in hyp_texts])
            r_sides = [_encode_chars([_char_text(t or "", config) for t in s]) for s in streams]
            self._add_counts(h_side, r_sides, orders, config, hyp_cnt, ref_cnt, match)
        if config.word_order:
            vocab: dict[str, int] = {}
            h_side = encode([word_tokens(t) for t in hyp_texts], vocab)
            r_sides = [encode([word_tokens(t or "") for t in s], vocab) for s in streams]
            self._add_counts(h_side, r_sides, list(range(1, config.word_order + 1)), config, hyp_cnt, ref_cnt, match)
        hyp_all = np.concatenate(hyp_cnt, axis=2)
        ref_all = np.concatenate(ref_cnt, axis=2)
        match_all = np.concatenate(match, axis=2)
        chosen = self._choose(hyp_all, ref_all, match_all, present, config)
        cols = np.arange(n_seg)
        h, r, m = hyp_all[chosen, cols], ref_all[chosen, cols], match_all[chosen, cols]
        rows = np.stack([h, r, m], axis=2).reshape(n_seg, -1)
        if config.averaging == "segments":
            rows = np.hstack([rows, f_rows(h, r, m, config)[:, None], np.ones((n_seg, 1))])
        return SegmentStats(self.columns(config), rows)

    def _reference_streams(self, refs: Refs, n_seg: int, config: Config) -> list[list[str | None]]:
        streams = []
        for k, stream in enumerate(refs):
            out: list[str | None] = []
            for i, r in enumerate(stream):
                if r is None:
                    if config.missing_ref != "skip":
                        raise ToolBehaviourError(
                            f"reference stream {k + 1}, segment {i + 1} is missing: the tool fails on a missing "
                            f"reference ({config.missing_ref})", config.missing_ref)
                    out.append(None)
                else:
                    out.append(_text(r, i, f"reference stream {k + 1}, segment", config))
            streams.append(out)
        if config.multi_ref == "first":
            streams = streams[:1]
        for i in range(n_seg):
            if all(s[i] is None for s in streams):   # sacrebleu 2.x sums an empty statistics list
                error = "ValueError" if n_seg == 1 else "IndexError"
                raise ToolBehaviourError(f"segment {i + 1} has no reference: sacrebleu 2.x fails here ({error})",
                                         error)
        return streams

    def _add_counts(self, h_side: Encoded, r_sides: list[Encoded], orders: list[int], config: Config,
                    hyp_cnt: list, ref_cnt: list, match: list) -> None:
        top = max(orders)
        m = pair_matches(h_side, r_sides, top)[:, :, min(orders) - 1:top]
        h = np.broadcast_to(_ngram_counts(h_side.lengths, orders)[None], m.shape)
        r = np.stack([_ngram_counts(s.lengths, orders) for s in r_sides])
        if config.hyp_count_without_ref == "zero":
            h = np.where(r > 0, h, 0.0)
        hyp_cnt.append(np.array(h))
        ref_cnt.append(r)
        match.append(m)

    def _choose(self, hyp: np.ndarray, ref: np.ndarray, match: np.ndarray, present: np.ndarray,
                config: Config) -> np.ndarray:
        """Index of the reference kept per segment: the highest sentence score, the first on ties."""
        n_refs, n_seg = present.shape
        best = np.zeros(n_seg, dtype=np.int64)
        if n_refs == 1 or config.multi_ref == "first":
            return best
        best_f = np.full(n_seg, -np.inf)
        for k in range(n_refs):
            f = np.where(present[k], f_rows(hyp[k], ref[k], match[k], config), -np.inf)
            better = f > best_f
            best = np.where(better, k, best)
            best_f = np.where(better, f, best_f)
        return best

    # ------------------------------------------------------------------ scores
    def _split(self, rows: np.ndarray, config: Config) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        k = len(_orders(config))
        counts = rows[:, :3 * k].reshape(len(rows), k, 3)
        return counts[:, :, 0], counts[:, :, 1], counts[:, :, 2]

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Corpus scores of summed rows: F of the summed counts, or the mean of sentence scores."""
        sums = np.atleast_2d(np.asarray(sums, dtype=np.float64))
        if config.averaging == "segments":
            n = sums[:, -1]
            return config.scale * np.where(n > 0, sums[:, -2] / np.where(n > 0, n, 1), 0.0)
        h, r, m = self._split(sums, config)
        return config.scale * f_rows(h, r, m, config)

    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        total = stats.total()
        value = float(self.scores_from_sums(total[None, :], config)[0])
        return value, self._components(total, config)

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, Any]]:
        rows = stats.rows
        if config.averaging == "segments":
            values = config.scale * rows[:, -2]
        else:
            values = config.scale * f_rows(*self._split(rows, config), config)
        return [(v, (lambda i=i: self._components(rows[i], config))) for i, v in enumerate(values.tolist())]

    def _components(self, row: np.ndarray, config: Config) -> dict[str, Any]:
        k = len(_orders(config))
        stats = [int(x) if float(x).is_integer() else float(x) for x in row[:3 * k].tolist()]
        out: dict[str, Any] = {"stats": stats, "name": metric_name(config)}
        if config.averaging == "segments":
            out["segments"] = int(row[-1])
        return out

    # ------------------------------------------------------------------ presentation
    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        return chrf_signature(config, profile, nrefs, tool_version)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        """sacrebleu 2.x CLI ``-f text``: ``chrF2|nrefs:1|… = 59.7``; 1.x: ``chrF2+numchars.6+… = 0.60``
        (1.x prints chrF, on its 0-1 scale, with ``-w`` + 1 decimals: 2 by default, 5 with ``-w 4``)."""
        name = metric_name(config)
        if profile in ("sacrebleu", "sacrebleu-chrf++", "sacrebleu@1"):
            w = (1 if width is None else width) + (1 if profile == "sacrebleu@1" else 0)
            if signature.startswith("assay:"):
                return f"{name} = {value:.{w}f}"
            if profile == "sacrebleu@1":
                return f"{signature} = {value:.{w}f}"
            return f"{name}|{signature} = {value:.{w}f}"
        if width is None:
            return repr(float(value))
        return f"{value:.{width}f}"

    def tool_json(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                  signature: str, width: int | None) -> dict[str, Any] | None:
        """sacrebleu 2.x CLI JSON: name, score rounded to the width, signature and its fields."""
        if profile not in ("sacrebleu", "sacrebleu-chrf++") or signature.startswith("assay:"):
            return None
        w = 1 if width is None else width
        out: dict[str, Any] = {"name": metric_name(config), "score": float(f"{value:.{w}f}"), "signature": signature}
        for part in signature.split("|"):
            key, _, val = part.partition(":")
            out[key] = val
        return out


def metric_name(config: Config) -> str:
    """sacrebleu's name: ``chrF{beta}`` plus one ``+`` per word order (``chrF2++``)."""
    return f"chrF{config.beta}" + "+" * config.word_order


SHORT_KEYS = {"nrefs": "#", "case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


def chrf_signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None,
                   short: bool = False) -> str:
    """sacrebleu 2.x ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``; 1.x
    ``chrF2+numchars.6+space.false+version.1.5.1``; otherwise assay's format."""
    from assay.profiles.registry import get_profile
    from assay.output.signature import assay_signature
    if profile in ("sacrebleu", "sacrebleu-chrf++", "sacrebleu@1"):
        base = get_profile("chrf", profile).knobs
        own = SACREBLEU1_KNOBS if profile == "sacrebleu@1" else SACREBLEU_KNOBS
        if all(config[k] == v for k, v in base.items() if k not in own):
            version = tool_version or ""
            if profile == "sacrebleu@1":
                fields = [("numchars", "n", str(config.char_order)),
                          ("space", "s", "true" if config.whitespace else "false"), ("version", "v", version)]
                return metric_name(config) + "+" + "+".join(f"{s if short else k}.{v}" for k, s, v in fields)
            fields2 = {"nrefs": nrefs, "case": "lc" if config.lowercase else "mixed",
                       "eff": "no" if config.eps_smoothing else "yes", "nc": str(config.char_order),
                       "nw": str(config.word_order), "space": "yes" if config.whitespace else "no",
                       "version": version}
            return "|".join(f"{SHORT_KEYS[k] if short else k}:{v}" for k, v in fields2.items())
    return assay_signature("chrf", config, profile, nrefs)


FAMILY = Chrf()
