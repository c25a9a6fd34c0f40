"""TER's compiled shift search (``assay.metrics.ter._shifts_c``) equals the pure specification exactly.

``ter_edits`` (an integer: shifts + beam edit distance) on both paths, for

- random id sequences over tiny vocabularies (many repeated words: shifts depend on them),
  including empty hypotheses and references;
- references edited into hypotheses (block moves within and beyond the shift limits,
  substitutions, insertions, deletions), the cases where shifts are actually made;
- string tokens (any hashable: only equality matters), with Unicode and very long tokens;
- every search limit varied: block size, distance, beam (0 included: one-cell beams), and the
  candidate budget (0 and budgets exhausted mid-round);
- long segments beyond the pure path's bit rows (banded table only) and one of 3,000 tokens.
"""
from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from assay.metrics.ter.limits import SACREBLEU_LIMITS, Limits
from assay.metrics.ter.shifts import ter_edits_py

MODULE = "assay.metrics.ter._shifts_c"

_LIMITS = st.one_of(
    st.just(SACREBLEU_LIMITS),
    st.builds(Limits, st.integers(0, 12), st.integers(0, 60), st.integers(0, 30), st.integers(0, 1200)),
    st.builds(Limits, st.sampled_from([1, 2, 10]), st.sampled_from([1, 5, 50]), st.sampled_from([0, 1, 3, 25]),
              st.sampled_from([0, 1, 3, 20, 1000])),
)


def _both(twin, hyp, ref, limits: Limits) -> None:
    got = twin(MODULE).ter_edits(hyp, ref, *limits)
    want = ter_edits_py(hyp, ref, limits)
    assert type(got) is int and got == want, (hyp, ref, limits, got, want)


@st.composite
def _edited(draw: st.DrawFn, max_len: int = 80) -> tuple[list[int], list[int]]:
    """A reference and a hypothesis made from it by a few random edits."""
    vocab = draw(st.sampled_from([2, 4, 10, 1000]))
    ref = draw(st.lists(st.integers(0, vocab), max_size=max_len))
    hyp = list(ref)
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["move", "move", "far", "sub", "ins", "del"]))
        if kind in ("move", "far") and len(hyp) >= 2:
            start = draw(st.integers(0, len(hyp) - 1))
            size = draw(st.integers(1, min(12, len(hyp) - start)))
            block = hyp[start:start + size]
            del hyp[start:start + size]
            reach = 60 if kind == "far" else 12
            dest = draw(st.integers(max(0, start - reach), min(len(hyp), start + reach)))
            hyp[dest:dest] = block
        elif kind == "sub" and hyp:
            hyp[draw(st.integers(0, len(hyp) - 1))] = draw(st.integers(0, vocab + 2))
        elif kind == "ins":
            hyp.insert(draw(st.integers(0, len(hyp))), draw(st.integers(0, vocab + 2)))
        elif kind == "del" and hyp:
            del hyp[draw(st.integers(0, len(hyp) - 1))]
    return hyp, ref


@given(st.lists(st.integers(0, 3), max_size=40), st.lists(st.integers(0, 3), max_size=40), _LIMITS)
def test_random_ids(twin, hyp, ref, limits):
    _both(twin, hyp, ref, limits)


@given(st.one_of(st.lists(st.integers(0, 1), max_size=8), st.lists(st.integers(0, 6), max_size=70)),
       st.one_of(st.lists(st.integers(0, 1), max_size=8), st.lists(st.integers(0, 6), max_size=120)), _LIMITS)
def test_unequal_lengths(twin, hyp, ref, limits):
    """Very unequal lengths widen the beam (ratio / 2 > width) and cut the last row."""
    _both(twin, hyp, ref, limits)


@given(_edited(), _LIMITS)
def test_edited_references(twin, pair, limits):
    _both(twin, *pair, limits)


@given(st.lists(st.sampled_from(["a", "b", "é", "猫", "😀", "x" * 300, "", " "]), max_size=30),
       st.lists(st.sampled_from(["a", "b", "é", "猫", "😀", "x" * 300, "A"]), max_size=30))
def test_string_tokens(twin, hyp, ref):
    _both(twin, hyp, ref, SACREBLEU_LIMITS)
    _both(twin, tuple(hyp), tuple(ref), SACREBLEU_LIMITS)


def test_empty_sides(twin):
    for hyp, ref in (([], []), ([1, 2], []), ([], [1, 2, 3]), ([1], [1]), ([1], [2])):
        _both(twin, hyp, ref, SACREBLEU_LIMITS)
        _both(twin, hyp, ref, Limits(0, 0, 0, 0))


def test_long_segments(twin):
    """Beyond the bit rows' reference length (the pure path's banded table alone), and 3,000 tokens."""
    rng = random.Random(18)
    for n, vocab, moves in ((600, 40, 8), (700, 5, 3), (3000, 200, 6)):
        ref = [rng.randrange(vocab) for _ in range(n)]
        hyp = list(ref)
        for _ in range(moves):
            start = rng.randrange(n - 10)
            block = hyp[start:start + rng.randint(1, 10)]
            del hyp[start:start + len(block)]
            dest = min(len(hyp), max(0, start + rng.randint(-45, 45)))
            hyp[dest:dest] = block
        for _ in range(moves):
            hyp[rng.randrange(len(hyp))] = rng.randrange(vocab + 3)
        _both(twin, hyp, ref, SACREBLEU_LIMITS)
        _both(twin, hyp[: n // 3], ref, SACREBLEU_LIMITS)
