"""BLEU as pycocoevalcap 1.2's BleuScorer computes it (``bleu`` knob ``epsilon=coco``).

On summed (corpus) or single-segment (sentence) counts, with ``tiny = 1e-15`` and ``small = 1e-9``::

    p_n    = (correct_n + tiny) / (total_n + small)          for every n, zero counts included
    ratio  = (c + tiny) / (r + small)
    BP     = exp(1 - 1/ratio) if ratio < 1 else 1
    Bleu_n = BP * (p_1 * ... * p_n) ** (1/n)                 cumulative, reported for n = 1..N

Nothing is smoothed, skipped or cut short: a 3-word perfect match has p_4 = 1e-6 and
Bleu_4 = 0.0316; a 6-word perfect match gives 0.9999999996 (shared/research §5.2, B01-B05).
The reference length of each segment follows the ``ref_length`` knob (pycocoevalcap's Bleu
class passes ``closest``; ties go to the shorter reference). The value is Bleu_N.
"""
from __future__ import annotations

from typing import Any

import numpy as np

TINY = 1e-15
SMALL = 1e-9


def coco_bleu_rows(sys_len: np.ndarray, ref_len: np.ndarray, correct: np.ndarray, total: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For (m,) lengths and (m, N) counts: (cumulative Bleu_1..N (m, N), precisions, BP, ratio)."""
    precisions = (correct.astype(np.float64) + TINY) / (total.astype(np.float64) + SMALL)
    products = np.cumprod(precisions, axis=1)
    orders = np.arange(1, correct.shape[1] + 1, dtype=np.float64)
    cumulative = products ** (1.0 / orders)[None, :]
    ratio = (sys_len.astype(np.float64) + TINY) / (ref_len.astype(np.float64) + SMALL)
    with np.errstate(over="ignore", under="ignore"):
        bp = np.where(ratio < 1.0, np.exp(1.0 - 1.0 / np.where(ratio < 1.0, ratio, 1.0)), 1.0)
    return cumulative * bp[:, None], precisions, bp, ratio


def coco_components(sys_len: float, ref_len: float, correct: Any, total: Any, bleus: Any, precisions: Any,
                    bp: float, ratio: float) -> dict[str, Any]:
    out: dict[str, Any] = {f"Bleu_{i + 1}": float(b) for i, b in enumerate(bleus)}
    out.update(sys_len=int(sys_len), ref_len=float(ref_len) if float(ref_len) % 1 else int(ref_len),
               bp=float(bp), ratio=float(ratio), counts=[int(c) for c in correct],
               totals=[int(t) for t in total], precisions=[float(p) for p in precisions],
               eff_order=len(bleus))
    return out


def coco_bleu(sys_len: float, ref_len: float, correct: Any, total: Any) -> tuple[float, dict[str, Any]]:
    """Corpus (summed counts) or one segment: (Bleu_N, components with Bleu_1..N)."""
    c = np.asarray([correct], dtype=np.float64)
    t = np.asarray([total], dtype=np.float64)
    bleus, prec, bp, ratio = coco_bleu_rows(np.asarray([sys_len]), np.asarray([ref_len]), c, t)
    comp = coco_components(sys_len, ref_len, c[0], t[0], bleus[0], prec[0], bp[0], ratio[0])
    return float(bleus[0, -1]), comp


def coco_sentence_scores(rows: np.ndarray, n: int) -> list[tuple[float, Any]]:
    """Every row (hyp_len, ref_len, correct_1..N, total_1..N, ...) scored alone."""
    sys_len, ref_len = rows[:, 0], rows[:, 1]
    correct, total = rows[:, 2:2 + n], rows[:, 2 + n:2 + 2 * n]
    bleus, prec, bp, ratio = coco_bleu_rows(sys_len, ref_len, correct, total)

    def components(i: int) -> dict[str, Any]:
        return coco_components(sys_len[i], ref_len[i], correct[i], total[i], bleus[i], prec[i], bp[i], ratio[i])

    from functools import partial
    return [(float(v), partial(components, i)) for i, v in enumerate(bleus[:, -1].tolist())]


def coco_scores_from_sums(sums: np.ndarray, n: int) -> np.ndarray:
    """Bleu_N of many summed rows at once (resampling)."""
    bleus, _, _, _ = coco_bleu_rows(sums[:, 0], sums[:, 1], sums[:, 2:2 + n], sums[:, 2 + n:2 + 2 * n])
    return bleus[:, -1]
