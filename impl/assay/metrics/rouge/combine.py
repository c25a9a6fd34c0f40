"""P, R, F from ROUGE counts, and several references combined into a document's row.

Every function works on arrays (one element per evaluation) and is the only place its formula
is written; the IEEE operations are the tools' own, in their order, so the floats are theirs.

P and R: P = hits / peer_count, R = hits / ref_count, 0 for a zero denominator (both tools);
ROUGE-W (``weight``) takes f^-1 of each: (hits/peer)^(1/w), (hits/ref)^(1/w), through Python's
own ``**`` (numpy's vectorised ``power`` may differ in the last bit).

F (:func:`f_array`), one of three float forms:

- alpha = 0.5 (rouge-score): ``2*P*R / (P+R)``;
- any alpha (ROUGE-1.5.5 ``-p``, and its form at every alpha, ``perl_form``):
  ``P*R / ((1-alpha)*P + alpha*R)``; alpha -> 1 favours precision;
- F_beta (``beta``, pycocoevalcap): ``(1+b^2) P R / (R + b^2 P)``, 0 when P or R is 0. It is the
  alpha form with alpha = 1/(1+b^2), but a different float expression; given, it replaces alpha.
- ``epsilon`` > 0 (pltrdy rouge, rouge-chinese: 1e-8): ``2*P*R / (P+R+epsilon)`` (alpha 0.5 only;
  the same float on all 2,943 P, R, F triples of the pltrdy recording).

Any zero denominator gives 0 (both tools).

Per-evaluation rounding (ROUGE-1.5.5, ``f_from_rounded_pr=5``): P and R are rounded to 5 decimals
(``%7.5f``), F is computed from the rounded values in ROUGE-1.5.5's form and rounded too
(research R07: 0.28572 where the exact F is 0.28571); those rounded numbers are what the script
averages.

Several references (``multi_ref``, :func:`combine_pairs`):

- ``pool`` (ROUGE-1.5.5 ``-f A``): every reference scored on its own (clipping per reference),
  then hits, reference counts and peer counts summed: R = sum hits / sum |ref|,
  P = sum hits / (k |peer|) (research R03: 0.75).
- ``best-recall`` (``-f B``): the reference with the highest R (rounded to 5 decimals when
  ``f_from_rounded_pr`` is set; the first wins ties), with its P and F (R03: 0.66667).
- ``best-f`` (rouge-score ``score_multi``): per measure the reference with the highest F, first
  wins ties (R03: 0.8).
- ``average`` (torchmetrics ``accumulate="avg"``): the mean of P, of R and of F (R03: 0.73333).
- ``max-pr`` (pycocoevalcap ``Rouge``): P = max over references of hits/|hyp|, R = max over
  references of hits/|ref|, independently (they may come from different references), and F of
  those two (research R18: 0.87143 with beta 1.2, where best-f and -f B give 0.8).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from assay.core import accel

try:
    from assay.metrics.rouge import _combine_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

Arrays = tuple[np.ndarray, np.ndarray, np.ndarray]


def round5(x: float) -> float:
    """Perl's ``sprintf("%7.5f")`` as a number (the binary value correctly rounded)."""
    return float(f"{x:.5f}")


def round5_array(x: np.ndarray | float) -> np.ndarray:
    """:func:`round5` of every element, any shape (Python's correctly rounded ``%.5f``; ``np.round``,
    which scales, does not always agree). The compiled twin rounds in exact integer arithmetic."""
    arr = np.asarray(x, dtype=np.float64)
    if _compiled is not None:
        return _compiled.round5_array(np.ascontiguousarray(arr.ravel())).reshape(arr.shape)
    return round5_array_py(arr)


def round5_array_py(x: np.ndarray | float) -> np.ndarray:
    """:func:`round5_array`, pure."""
    arr = np.asarray(x, dtype=np.float64)
    return np.array([round5(v) for v in arr.ravel().tolist()], dtype=np.float64).reshape(arr.shape)


def ratio_arrays(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, weight: float | None = None,
                 rounding: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(P, R) of count arrays: f^-1 for ROUGE-W (``weight``), then ROUGE-1.5.5's rounding."""
    hits, ref, peer = (np.asarray(a, dtype=np.float64) for a in (hits, ref, peer))
    p = np.divide(hits, peer, out=np.zeros_like(hits), where=peer > 0)
    r = np.divide(hits, ref, out=np.zeros_like(hits), where=ref > 0)
    if weight is not None:
        e = 1.0 / weight
        p = np.array([x ** e if x > 0 else 0.0 for x in p.tolist()], dtype=np.float64)
        r = np.array([x ** e if x > 0 else 0.0 for x in r.tolist()], dtype=np.float64)
    if rounding is not None:
        p, r = round5_array(p), round5_array(r)
    return p, r


def f_array(p: np.ndarray, r: np.ndarray, alpha: float, beta: float | None = None,
            perl_form: bool = False, epsilon: float = 0.0) -> np.ndarray:
    """F of P and R arrays (module docstring): F_beta when ``beta`` is set, else rouge-score's
    ``2PR/(P+R)`` at alpha 0.5 unless ``perl_form``, else ``PR / ((1-alpha)P + alpha R)``;
    ``epsilon`` > 0: ``2PR/(P+R+epsilon)``."""
    p, r = np.asarray(p, dtype=np.float64), np.asarray(r, dtype=np.float64)
    if epsilon:
        den = p + r + epsilon
        return np.divide(2 * p * r, den, out=np.zeros_like(den), where=den > 0)
    if beta is not None:
        b2 = beta ** 2
        den = r + b2 * p
        return np.divide((1 + b2) * p * r, den, out=np.zeros_like(den), where=(p != 0) & (r != 0))
    if alpha == 0.5 and not perl_form:
        den = p + r
        return np.divide(2 * p * r, den, out=np.zeros_like(den), where=den > 0)
    den = (1.0 - alpha) * p + alpha * r
    return np.divide(p * r, den, out=np.zeros_like(den), where=den > 0)


def f_of_pr(p: np.ndarray, r: np.ndarray, alpha: float, rounding: int | None, beta: float | None,
            epsilon: float = 0.0) -> np.ndarray:
    """The evaluation's F from its (already rounded) P and R: ROUGE-1.5.5's form, rounded, when
    ``rounding`` is set; otherwise :func:`f_array`."""
    if rounding is not None:
        return round5_array(f_array(p, r, alpha, beta, perl_form=True))
    return f_array(p, r, alpha, beta, epsilon=epsilon)


def evaluate_arrays(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, weight: float | None, alpha: float,
                    rounding: int | None, beta: float | None = None, epsilon: float = 0.0) -> Arrays:
    """(P, R, F) of many evaluations (one per element of the count arrays)."""
    p, r = ratio_arrays(hits, ref, peer, weight, rounding)
    return p, r, f_of_pr(p, r, alpha, rounding, beta, epsilon)


def pooled_prf(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, alpha: float, beta: float | None = None,
               perl_form: bool = False, epsilon: float = 0.0) -> Arrays:
    """(P, R, F) of pooled counts (token-level averaging, resampled sums): plain ratios, no f^-1
    even for ROUGE-W's weighted counts (ROUGE-1.5.5 ``-t 1``) and no rounding."""
    p, r = ratio_arrays(hits, ref, peer)
    return p, r, f_array(p, r, alpha, beta, perl_form, epsilon)


# ----------------------------------------------------------------------------- references
def _doc_sums(x: np.ndarray, first: np.ndarray, n_refs: np.ndarray) -> np.ndarray:
    """Per document, the sum of its pairs' values, added one reference after the other."""
    out = np.zeros(len(first), dtype=np.float64)
    for k in range(int(n_refs.max()) if len(n_refs) else 0):
        has = np.flatnonzero(n_refs > k)
        out[has] += x[first[has] + k]
    return out


def _first_best(keys: np.ndarray, first: np.ndarray, n_refs: np.ndarray) -> np.ndarray:
    """Per document, the index of its pair with the largest key (the first one wins ties)."""
    best = first.copy()
    best_key = keys[first].copy()
    for k in range(1, int(n_refs.max()) if len(n_refs) else 0):
        has = np.flatnonzero(n_refs > k)
        idx = first[has] + k
        better = keys[idx] > best_key[has]
        best[has[better]] = idx[better]
        best_key[has[better]] = keys[idx[better]]
    return best


def combine_pairs(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, n_refs: np.ndarray | Sequence[int],
                  rule: str, weight: float | None, alpha: float, rounding: int | None, beta: float | None = None,
                  recall_keys: np.ndarray | None = None, epsilon: float = 0.0) -> tuple[Arrays, Arrays]:
    """Every document's counts (those token-level pooling sums) and its (P, R, F), from the counts of
    its (hypothesis, reference) pairs: pairs grouped per document, in order, ``n_refs[d] >= 1`` of
    document d. ``recall_keys`` (per pair) replace R in the best-recall choice (ROUGE-W: ROUGE-1.5.5
    compares hits / sum_i f(|ref_i|), before its second f and the root; found black-box).
    """
    hits, ref, peer = (np.asarray(a, dtype=np.float64) for a in (hits, ref, peer))
    n_refs = np.asarray(n_refs, dtype=np.int64)
    if bool((n_refs == 1).all()):
        return (hits, ref, peer), evaluate_arrays(hits, ref, peer, weight, alpha, rounding, beta, epsilon)
    first = np.concatenate([[0], np.cumsum(n_refs)])[:-1].astype(np.int64)
    if rule == "max-pr":   # P and R maximised independently; counts summed (informational)
        p, r = ratio_arrays(hits, ref, peer, weight, rounding)
        p_max, r_max = np.maximum.reduceat(p, first), np.maximum.reduceat(r, first)
        sums = tuple(np.add.reduceat(a, first) for a in (hits, ref, peer))
        return sums, (p_max, r_max, f_of_pr(p_max, r_max, alpha, rounding, beta, epsilon))  # type: ignore[return-value]
    if rule in ("pool", "average"):
        pooled = tuple(_doc_sums(a, first, n_refs) for a in (hits, ref, peer))
        if rule == "pool":
            return pooled, evaluate_arrays(*pooled, weight, alpha, rounding, beta, epsilon)  # type: ignore[return-value]
    scored = evaluate_arrays(hits, ref, peer, weight, alpha, rounding, beta, epsilon)
    if rule == "average":
        return pooled, tuple(_doc_sums(s, first, n_refs) / n_refs for s in scored)  # type: ignore[return-value]
    if rule == "best-recall":
        keys = scored[1] if recall_keys is None else \
            (round5_array(recall_keys) if rounding is not None else np.asarray(recall_keys, dtype=np.float64))
    else:
        keys = scored[2]
    best = _first_best(keys, first, n_refs)
    return (hits[best], ref[best], peer[best]), (scored[0][best], scored[1][best], scored[2][best])
