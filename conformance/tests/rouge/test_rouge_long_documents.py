"""ROUGE-L and ROUGE-Lsum on 20,000-token documents: the right LCS, in memory linear in the length.

The expected values are known by construction (an independent oracle): both documents hold the
same *core* sequence, interleaved with filler tokens the other document never uses, so the only
common tokens are the core's and the LCS is the core, taken at exactly its positions. On a
shorter random prefix the bit-parallel LCS is checked against the textbook dynamic programme.
Memory is measured with tracemalloc (no timing; the compiled kernels allocate through PyMem, which
it traces): an O(n * m) table of 20,000 x 20,000 would need hundreds of MiB (50 MiB even as bits);
the compiled path keeps O(sqrt(n) * m / 64) words of rows.
"""
from __future__ import annotations

import random
import tracemalloc

import pytest

import assay
from assay.metrics.rouge import lcs
from assay.metrics.rouge.lcs import lcs_length, lcs_ref_positions, lcs_ref_positions_dp, lcs_table
from assay.metrics.rouge.measures import COMPILED

# peak MiB allowed: the compiled path measures about 1.5 (positions) and 2.5 (scoring); the pure
# path keeps its bit rows as Python ints (about 28), still far below an O(n * m) table
POSITIONS_MIB = 8 if lcs._compiled is not None else 64
SCORE_MIB = 8 if COMPILED else 64

N_TOKENS = 20_000
CORE = 10_000


def _constructed(seed: int) -> tuple[list[str], list[str], list[int]]:
    """(reference, hypothesis, the core's positions in the reference): the core has repeated tokens
    (30 types), each side's filler comes from its own 500 types."""
    rng = random.Random(seed)
    core = [f"c{rng.randrange(30)}" for _ in range(CORE)]

    def interleave(filler: str) -> tuple[list[str], list[int]]:
        slots = sorted(rng.sample(range(N_TOKENS), CORE))
        out = [f"{filler}{rng.randrange(500)}" for _ in range(N_TOKENS)]
        for k, p in enumerate(slots):
            out[p] = core[k]
        return out, slots

    ref, ref_core = interleave("r")
    hyp, _ = interleave("h")
    return ref, hyp, ref_core


def _peak_mib(fn) -> tuple[object, float]:
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        out = fn()
        return out, (tracemalloc.get_traced_memory()[1] - before) / 2 ** 20
    finally:
        tracemalloc.stop()


def test_lcs_of_a_constructed_pair_is_its_core() -> None:
    ref, hyp, ref_core = _constructed(7)
    ids = {t: k for k, t in enumerate(dict.fromkeys(ref + hyp))}
    r, h = [ids[t] for t in ref], [ids[t] for t in hyp]
    assert lcs_length(r, h) == CORE
    mask, peak = _peak_mib(lambda: lcs_ref_positions(r, h))
    assert [i for i in range(N_TOKENS) if mask >> i & 1] == ref_core
    assert peak < POSITIONS_MIB, f"{peak:.1f} MiB for the positions of a 20,000 x 20,000 LCS"


@pytest.mark.parametrize("seed", [1, 2])
def test_long_random_prefix_equals_the_dynamic_programme(seed: int) -> None:
    rng = random.Random(seed)
    a = [int(rng.paretovariate(1.0)) % 300 for _ in range(N_TOKENS)]
    b = [int(rng.paretovariate(1.0)) % 300 for _ in range(N_TOKENS)]
    assert lcs_length(a, b) <= N_TOKENS
    ra, rb = a[:500], b[:450]
    assert lcs_length(ra, rb) == lcs_table(ra, rb)[-1][-1]
    mask = lcs_ref_positions(ra, rb)
    assert [i for i in range(len(ra)) if mask >> i & 1] == lcs_ref_positions_dp(ra, rb)


@pytest.mark.parametrize("profile", ["rouge-score", "rouge-1.5.5"])
def test_rouge_l_and_lsum_on_20000_token_documents(profile: str) -> None:
    ref, hyp, _ = _constructed(11)
    types = "rougeL,rougeLsum" if profile == "rouge-score" else "rougeLsum"
    knobs = {"aggregate": "mean"} if profile == "rouge-1.5.5" else {}
    result, peak = _peak_mib(lambda: assay.score("rouge", [" ".join(hyp)], [[" ".join(ref)]], profile,
                                                   types=types, **knobs))
    for t in types.split(","):     # one sentence each: the union LCS is the LCS, the core
        assert result.components[t]["r"] == pytest.approx(CORE / N_TOKENS, abs=1e-12)
        assert result.components[t]["p"] == pytest.approx(CORE / N_TOKENS, abs=1e-12)
    assert peak < SCORE_MIB, f"{peak:.1f} MiB to score one pair of 20,000-token documents"
