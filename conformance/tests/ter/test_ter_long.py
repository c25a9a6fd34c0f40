"""TER on long segments (issues 17/18): scored under sacrebleu's own search limits, in linear memory,
and refused with a one-line ``InputError`` beyond assay's documented bound (assay.metrics.ter.limits).

- a 10,000-token segment is scored: its edit count lies between the length gap and the sum of the
  lengths, and the compiled path equals the pure specification on it;
- memory: ``tracemalloc``'s peak during the shift search stays under :data:`BYTES_PER_TOKEN` per
  token, and grows linearly (4x the tokens, well under 16x the memory; the old dense table grew
  quadratically: 800 MB at 10,000 tokens). The compiled path allocates with ``PyMem_Malloc``, so
  ``tracemalloc`` sees its tables too;
- beyond the bound (a 700,000-token line; a 3,000-token line with ``max_candidates=1000000``) the
  error names the segment, its lengths and the bound, and comes before any search;
- ``refs``: sacrebleu 2.x agrees on segments of a few hundred tokens (block moves, substitutions,
  very unequal lengths); ``slow``: on 2,000 tokens and on long unequal/drifting pairs, where
  sacrebleu itself takes tens of seconds to minutes.
"""
from __future__ import annotations

import math
import random
import tracemalloc

import pytest

import assay
from assay.metrics.ter import shifts
from assay.metrics.ter.limits import MAX_SEARCH_CELLS, MAX_TABLE_CELLS, SACREBLEU_LIMITS
from conformance.references import ter_ref

#: tracemalloc peak allowed per token of the segment during one search (both paths stay near 1.6 KB)
BYTES_PER_TOKEN = 4096


def long_pair(n: int, seed: int, vocab: int = 2000, moves: int = 4, subs: int = 20) -> tuple[list[str], list[str]]:
    """A Zipfian reference of ``n`` words and a hypothesis made from it by block moves (2-10 words,
    15-45 positions) and substitutions."""
    rng = random.Random(seed)
    words = [f"w{k}" for k in range(vocab)]
    weights = [1 / (k + 1) for k in range(vocab)]
    ref = rng.choices(words, weights, k=n)
    hyp = list(ref)
    for _ in range(moves):
        start = rng.randrange(n - 10)
        block = hyp[start:start + rng.randint(2, 10)]
        del hyp[start:start + len(block)]
        dest = min(len(hyp), max(0, start + rng.choice([-1, 1]) * rng.randint(15, 45)))
        hyp[dest:dest] = block
    for _ in range(subs):
        hyp[rng.randrange(len(hyp))] = rng.choice(words)
    return hyp, ref


def _drifting(hyp: list[str], keep: float, seed: int) -> list[str]:
    """The first 40% of ``hyp``, then words dropped at random: the path leaves the diagonal."""
    rng = random.Random(seed)
    cut = len(hyp) * 2 // 5
    return hyp[:cut] + [w for w in hyp[cut:] if rng.random() < keep]


def _peak(n: int) -> int:
    hyp, ref = long_pair(n, 7, moves=1, subs=5)
    tracemalloc.start()
    try:
        shifts.ter_edits(hyp, ref)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_ten_thousand_tokens_scored():
    hyp, ref = long_pair(10_000, 1)
    score = assay.score("ter", [" ".join(hyp)], [[" ".join(ref)]])
    edits = score.components["num_edits"]
    assert isinstance(edits, int) and math.isfinite(score.value)
    assert abs(len(hyp) - len(ref)) <= edits <= len(hyp) + len(ref)
    assert edits <= 4 + 20                   # every move found as one shift, at most one edit per substitution
    assert score.components["ref_length"] == 10_000
    if shifts._compiled is not None:         # the twin equals the specification at this length too
        assert shifts.ter_edits_py(hyp, ref) == edits


def test_ten_thousand_tokens_unaligned():
    """A hypothesis whose length drifts away from the reference's: the beam, not the true
    Levenshtein distance, decides, and the first round exhausts the candidate budget."""
    hyp, ref = long_pair(10_000, 2, vocab=300, moves=10, subs=200)
    hyp = _drifting(hyp, 0.8, 3)
    edits = shifts.ter_edits(hyp, ref)
    assert abs(len(hyp) - len(ref)) <= edits <= len(hyp) + len(ref)
    if shifts._compiled is not None:
        assert shifts.ter_edits_py(hyp, ref) == edits


def test_memory_linear_in_segment_length():
    small, large = _peak(2_000), _peak(8_000)
    assert large <= BYTES_PER_TOKEN * 8_000, large
    assert large < 6 * small, (small, large)


def test_bound_names_segment_and_lengths():
    n = 700_000
    assert (n + 1) + n * 50 > MAX_TABLE_CELLS
    line = " ".join(["a", "b", "c", "d"] * (n // 4))
    with pytest.raises(assay.InputError) as info:
        assay.score("ter", ["a b", line], [["a b", line]])
    message = str(info.value)
    assert "\n" not in message
    assert "segment 2" in message and "700,000 hypothesis tokens" in message and "700,000 reference tokens" in message
    assert f"{MAX_TABLE_CELLS:,}" in message


def test_search_bound_with_a_large_candidate_budget():
    line = " ".join(f"w{k % 97}" for k in range(3_000))
    with pytest.raises(assay.InputError) as info:
        assay.score("ter", [line], [["x y"], [line]], max_candidates=1_000_000)
    message = str(info.value)
    assert "segment 1, reference 2" in message and "3,000 hypothesis tokens" in message
    assert "max_candidates=1000000" in message and f"{MAX_SEARCH_CELLS:,}" in message
    # the default budget scores it
    assert assay.score("ter", [line], [["x y"], [line]]).components["num_edits"] == 0


def _against_sacrebleu(require_tool, hyp: list[str], ref: list[str]) -> None:
    sb = require_tool("sacrebleu")
    assert sb.__version__.startswith("2."), sb.__version__
    want = ter_ref.ter([" ".join(hyp)], [[" ".join(ref)]], {}, "corpus")
    got = assay.score("ter", [" ".join(hyp)], [[" ".join(ref)]])
    assert got.components["num_edits"] == want["num_edits"], (len(hyp), len(ref))
    assert got.value == pytest.approx(want["score"], rel=1e-9, abs=1e-12)
    assert shifts.ter_edits_py(hyp, ref, SACREBLEU_LIMITS) == want["num_edits"]


@pytest.mark.refs
@pytest.mark.parametrize("n,seed", [(300, 2), (600, 2), (600, 4)])
def test_sacrebleu_agrees_on_long_segments(require_tool, n, seed):
    hyp, ref = long_pair(n, seed, vocab=50 if seed == 4 else 2000, moves=3, subs=10)
    _against_sacrebleu(require_tool, hyp, ref)


@pytest.mark.refs
def test_sacrebleu_agrees_on_very_unequal_lengths(require_tool):
    hyp, ref = long_pair(900, 3, vocab=50, moves=3, subs=10)
    _against_sacrebleu(require_tool, hyp[:60], ref)          # beam widened to ceil(ratio / 2 + 25)


@pytest.mark.refs
@pytest.mark.slow
@pytest.mark.parametrize("case", ["2000", "unequal", "drifting"])
def test_sacrebleu_agrees_on_longer_segments(require_tool, case):
    if case == "2000":
        hyp, ref = long_pair(2_000, 2)
    else:
        hyp, ref = long_pair(900, 3, vocab=50, moves=3, subs=10)
        hyp, ref = (hyp, ref[:60]) if case == "unequal" else (_drifting(hyp, 0.7, 5), ref)
    _against_sacrebleu(require_tool, hyp, ref)
