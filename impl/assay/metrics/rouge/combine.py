"""P, R, F from ROUGE counts; several references; averaging over documents.

F with weight alpha (ROUGE-1.5.5 ``-p``): F = P*R / ((1-alpha)*P + alpha*R), alpha -> 1 favours
precision; alpha = 0.5 is rouge-score's 2PR/(P+R). Any zero denominator gives 0 (both tools).

Per-document rounding (ROUGE-1.5.5, ``f_from_rounded_pr=5``): P and R are rounded to 5 decimals
(``%7.5f``), F is computed from the rounded values and rounded too (research R07: 0.28572 where
the exact F is 0.28571); those rounded numbers are what the script averages.

Several references (``multi_ref``):
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

F_beta (``beta``, pycocoevalcap's form): F = (1+b^2) P R / (R + b^2 P), evaluated in that order
so the floats equal the tool's, and 0 when P or R is 0. It is the alpha form with
alpha = 1/(1+b^2), but a different float expression; when ``beta`` is given it replaces alpha.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

Counts = tuple[float, float, float]   # hits, ref_count, peer_count


def round5(x: float) -> float:
    """Perl's ``sprintf("%7.5f")`` as a number (the binary value correctly rounded)."""
    return float(f"{x:.5f}")


def f_beta(p: float, r: float, beta: float) -> float:
    """pycocoevalcap's ``((1 + beta**2) * P * R) / (R + beta**2 * P)``; 0 when P or R is 0."""
    if p == 0 or r == 0:
        return 0.0
    b2 = beta ** 2
    return ((1 + b2) * p * r) / (r + b2 * p)


def f_beta_array(p: np.ndarray, r: np.ndarray, beta: float) -> np.ndarray:
    """Vectorised :func:`f_beta` (the same IEEE operations in the same order)."""
    b2 = beta ** 2
    ok = (p != 0) & (r != 0)
    den = r + b2 * p
    return np.divide((1 + b2) * p * r, den, out=np.zeros_like(den), where=ok)


def f_measure(p: float, r: float, alpha: float, perl_form: bool = False, beta: float | None = None) -> float:
    """F = P*R / ((1-alpha)*P + alpha*R); 0 when the denominator is 0 (``beta``: :func:`f_beta`).

    ``perl_form=False`` with alpha = 0.5 evaluates rouge-score's ``2*P*R/(P+R)`` literally, so the
    floats agree bit for bit; ``perl_form`` keeps ROUGE-1.5.5's expression.
    """
    if beta is not None:
        return f_beta(p, r, beta)
    if alpha == 0.5 and not perl_form:
        return 2 * p * r / (p + r) if p + r > 0 else 0.0
    den = (1.0 - alpha) * p + alpha * r
    return p * r / den if den > 0 else 0.0


def ratios(counts: Counts, weight: float | None) -> tuple[float, float]:
    """(P, R) of counts; ROUGE-W (``weight``) takes f^-1: (hits/peer)^(1/w), (hits/ref)^(1/w)."""
    hits, ref, peer = counts
    p = hits / peer if peer > 0 else 0.0
    r = hits / ref if ref > 0 else 0.0
    if weight is not None:
        p = p ** (1.0 / weight) if p > 0 else 0.0
        r = r ** (1.0 / weight) if r > 0 else 0.0
    return p, r


def evaluate(counts: Counts, weight: float | None, alpha: float, rounding: int | None,
             beta: float | None = None) -> tuple[float, float, float]:
    """(P, R, F) of one evaluation, with ROUGE-1.5.5's rounding when ``rounding`` is set."""
    p, r = ratios(counts, weight)
    return _finish(p, r, alpha, rounding, beta)


def _finish(p: float, r: float, alpha: float, rounding: int | None, beta: float | None) -> tuple[float, float, float]:
    if rounding is not None:
        p, r = round5(p), round5(r)
        return p, r, round5(f_measure(p, r, alpha, perl_form=True, beta=beta))
    return p, r, f_measure(p, r, alpha, beta=beta)


def round5_array(x: np.ndarray) -> np.ndarray:
    """:func:`round5` of every element (Python's correctly rounded ``%.5f``; ``np.round`` differs)."""
    return np.array([float(f"{v:.5f}") for v in np.asarray(x, dtype=np.float64).tolist()], dtype=np.float64)


def evaluate_arrays(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, weight: float | None, alpha: float,
                    rounding: int | None, beta: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`evaluate` of many evaluations, element for element the same floats: the same IEEE
    divisions and products in the same order; the root of ROUGE-W and the rounding go through
    Python's own ``**`` and formatting (numpy's vectorised ``power`` may differ in the last bit)."""
    p, r = _pr_arrays(hits, ref, peer, weight, rounding)
    return p, r, _f_arrays(p, r, alpha, rounding, beta)


def _f_arrays(p: np.ndarray, r: np.ndarray, alpha: float, rounding: int | None, beta: float | None) -> np.ndarray:
    """F of P and R arrays (P and R already rounded when ``rounding`` is set; F is rounded too)."""
    if rounding is not None:
        if beta is not None:
            return round5_array(f_beta_array(p, r, beta))
        den = (1.0 - alpha) * p + alpha * r
        f = np.divide(p * r, den, out=np.zeros_like(den), where=den > 0)
        return round5_array(f)
    if beta is not None:
        return f_beta_array(p, r, beta)
    return f_array(p, r, alpha)


def _pr_arrays(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, weight: float | None,
               rounding: int | None) -> tuple[np.ndarray, np.ndarray]:
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


def max_pr_arrays(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, first: np.ndarray, weight: float | None,
                  alpha: float, rounding: int | None, beta: float | None = None
                  ) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``multi_ref="max-pr"`` for many documents at once (pairs grouped per document, in order).

    ``first[d]``: index of document d's first pair (every document has at least one pair).
    Per pair P and R (as :func:`evaluate`), then per document max P and max R (``maximum.reduceat``)
    and F of them; the counts returned are the per-document sums (the row's pooled counts).
    Element for element the same floats as :func:`combine_refs` with ``max-pr``.
    """
    p, r = _pr_arrays(hits, ref, peer, weight, rounding)
    first = np.asarray(first, dtype=np.int64)
    p_max = np.maximum.reduceat(p, first) if len(first) else p[:0]
    r_max = np.maximum.reduceat(r, first) if len(first) else r[:0]
    sums = tuple(np.add.reduceat(np.asarray(a, dtype=np.float64), first) if len(first) else
                 np.zeros(0) for a in (hits, ref, peer))
    return sums, (p_max, r_max, _f_arrays(p_max, r_max, alpha, rounding, beta))  # type: ignore[return-value]


def combine_refs(per_ref: Sequence[Counts], rule: str, weight: float | None, alpha: float,
                 rounding: int | None, recall_keys: Sequence[float] | None = None, beta: float | None = None
                 ) -> tuple[Counts, tuple[float, float, float]]:
    """The document's counts (those the token-level pooling sums) and its (P, R, F).

    ``recall_keys`` replace R in the best-recall choice (ROUGE-W: ROUGE-1.5.5 compares
    hits / sum_i f(|ref_i|), before its second f and the root; found black-box).
    """
    if len(per_ref) == 1:
        return per_ref[0], evaluate(per_ref[0], weight, alpha, rounding, beta)
    pooled = (sum(c[0] for c in per_ref), sum(c[1] for c in per_ref), sum(c[2] for c in per_ref))
    if rule == "pool":
        return pooled, evaluate(pooled, weight, alpha, rounding, beta)
    if rule == "max-pr":
        prs = [ratios(c, weight) for c in per_ref]
        if rounding is not None:
            prs = [(round5(p), round5(r)) for p, r in prs]
        p, r = max(x[0] for x in prs), max(x[1] for x in prs)
        return pooled, _finish(p, r, alpha, None, beta) if rounding is None else \
            (p, r, round5(f_measure(p, r, alpha, perl_form=True, beta=beta)))
    scored = [evaluate(c, weight, alpha, rounding, beta) for c in per_ref]
    if rule == "average":
        n = len(scored)
        mean = tuple(sum(s[k] for s in scored) / n for k in range(3))
        return pooled, mean  # type: ignore[return-value]
    if rule == "best-recall":
        keys = [s[1] for s in scored] if recall_keys is None else \
            [round5(k) if rounding is not None else k for k in recall_keys]
    else:
        keys = [s[2] for s in scored]
    best = 0
    for k in range(1, len(keys)):
        if keys[k] > keys[best]:
            best = k
    return per_ref[best], scored[best]


def pooled_prf(hits: np.ndarray, ref: np.ndarray, peer: np.ndarray, alpha: float,
               weight: float | None = None, beta: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Vectorised (P, R, F) of count arrays (token-level pooling, resampled sums)."""
    hits, ref, peer = (np.asarray(a, dtype=np.float64) for a in (hits, ref, peer))
    p = np.divide(hits, peer, out=np.zeros_like(hits), where=peer > 0)
    r = np.divide(hits, ref, out=np.zeros_like(hits), where=ref > 0)
    if weight is not None:
        p = np.where(p > 0, p ** (1.0 / weight), 0.0)
        r = np.where(r > 0, r ** (1.0 / weight), 0.0)
    f = f_array(p, r, alpha) if beta is None else f_beta_array(p, r, beta)
    return p, r, f


def f_array(p: np.ndarray, r: np.ndarray, alpha: float) -> np.ndarray:
    """Vectorised :func:`f_measure` (rouge-score's form at alpha = 0.5)."""
    if alpha == 0.5:
        den = p + r
        return np.divide(2 * p * r, den, out=np.zeros_like(den), where=den > 0)
    den = (1.0 - alpha) * p + alpha * r
    return np.divide(p * r, den, out=np.zeros_like(den), where=den > 0)
