"""METEOR 1.5 scores from the jar's 23 sufficient statistics (Denkowski & Lavie 2014).

STATS = test length, reference length, test function words, reference function words; for each
module (exact, stem, synonym, paraphrase): test content, reference content, test function, reference
function matched words; chunks; test matched words; reference matched words.

    P = (Σ_i tc_i·w_i·δ + Σ_i tf_i·w_i·(1−δ)) / (δ·(|t| − |t_f|) + (1−δ)·|t_f|)   (R likewise;
        summed in this order, content terms of every module first, as the jar does)
    Fmean = 1 / ((1−α)/P + α/R)            (the jar's order of operations)
    frag = 0 if every word of both sides is matched in one chunk, else chunks / ((m_t + m_r)/2)
    penalty = γ·frag^β,   score = Fmean·(1 − penalty)   (0 when P or R is 0)

KD-METEOR-01: the jar raises frag^β with Java's ``Math.pow`` (HotSpot's intrinsic), which differs from
C's ``pow`` in the last bit for about 0.1% of values; those segment scores differ by one ulp.

The corpus score applies the same formula to the summed statistics, where a segment whose frag is 0
adds no chunks (the jar's EVAL of many segments; :func:`assay.metrics.meteor.meteor15.stats.scores_from_sums`).
"""
from __future__ import annotations

from typing import Sequence

N_STATS = 23


def parts(s: Sequence[float], alpha: float, beta: float, gamma: float, delta: float,
          weights: Sequence[float]) -> dict[str, float]:
    """P, R, Fmean, frag, penalty and score of one statistics vector."""
    tl, rl, tfw, rfw = s[0], s[1], s[2], s[3]
    tw = delta * (tl - tfw) + (1 - delta) * tfw
    rw = delta * (rl - rfw) + (1 - delta) * rfw
    tm = rm = 0.0
    for i, w in enumerate(weights):     # the jar's order: every content term (modules in order), then
        tm += s[4 + 4 * i] * w * delta  # every function term; interleaving them rounds differently
        rm += s[5 + 4 * i] * w * delta
    for i, w in enumerate(weights):
        tm += s[6 + 4 * i] * w * (1 - delta)
        rm += s[7 + 4 * i] * w * (1 - delta)
    p = tm / tw if tw > 0 else 0.0
    r = rm / rw if rw > 0 else 0.0
    out = {"precision": p, "recall": r, "fmean": 0.0, "fragmentation": 0.0, "penalty": 0.0, "score": 0.0}
    if p == 0 or r == 0:
        return out
    fmean = 1 / ((1 - alpha) / p + alpha / r)
    chunks, tmw, rmw = s[20], s[21], s[22]
    if tmw == tl and rmw == rl and chunks == 1:
        frag = 0.0
    else:
        frag = chunks / ((tmw + rmw) / 2)
    pen = gamma * frag ** beta
    out.update(fmean=fmean, fragmentation=frag, penalty=pen, score=max(fmean * (1 - pen), 0.0))
    return out

