"""Seed-independent properties of assay's significance testing (no reference tool needed).

The rules themselves (draws, p-value and CI formulas, float32 arithmetic) are checked against
live sacrebleu in test_significance_golden.py / test_significance_refs.py; here: invariants
that hold for every seed and corpus, the vectorised paths against plain per-resample loops,
and input errors.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import assay.jobs.significance as sig
from assay.engine.api import compute_stats
from assay.core.errors import InputError, KnobError
from assay.engine.registry import get_family
from assay.core.stats import SegmentStats
from conformance.generate.corpus import generate_corpus

from conformance.regen.significance import significance_corpus

SEEDS = st.integers(min_value=0, max_value=2 ** 32)


def _corpus(seed: int, n_seg: int = 25, n_sys: int = 3, n_refs: int = 1, kind: str = "mixed") -> dict:
    return significance_corpus(seed, n_seg, n_sys, n_refs, kind)


# ----------------------------------------------------------------------------- identical systems
@settings(max_examples=15, deadline=None)
@given(corpus_seed=st.integers(0, 10 ** 6), seed=SEEDS, n=st.integers(1, 300))
def test_system_against_itself_gets_the_smallest_p(corpus_seed: int, seed: int, n: int) -> None:
    """sacrebleu's strict '>' makes a copy of the baseline p = 1/(n+1) in both tests (all deltas 0)."""
    c = _corpus(corpus_seed)
    name, hyps = c["systems"][0]
    for run in (sig.paired_bootstrap, sig.paired_ar):
        res = run("bleu", (name, hyps), [("copy", list(hyps))], c["refs"], n_samples=n, seed=seed)
        assert res.results["BLEU"][1].p_value == 1 / (n + 1)
        if run is sig.paired_bootstrap:
            base, copy = res.results["BLEU"]
            assert (base.mean, base.ci, base.score) == (copy.mean, copy.ci, copy.score)


@settings(max_examples=10, deadline=None)
@given(corpus_seed=st.integers(0, 10 ** 6), seed=SEEDS, repeat=st.integers(1, 40))
def test_ci_of_a_constant_corpus_is_the_point_estimate(corpus_seed: int, seed: int, repeat: int) -> None:
    """A corpus of one segment repeated: every resample is that corpus, so mean = score, CI = 0."""
    c = _corpus(corpus_seed, n_seg=1)
    hyps = c["systems"][0][1] * repeat
    refs = [s * repeat for s in c["refs"]]
    for metric in ("bleu", "bleu/nltk"):
        res = sig.confidence_interval(metric, hyps, refs, n_samples=50, seed=seed)
        assert res.ci == 0.0 and res.result.low == res.result.high
        assert res.mean == pytest.approx(res.result.score, rel=1e-6, abs=1e-9)


# ----------------------------------------------------------------------------- p-values and CIs
@settings(max_examples=15, deadline=None)
@given(corpus_seed=st.integers(0, 10 ** 6), seed=SEEDS, n=st.integers(1, 200), test=st.sampled_from(["bs", "ar"]))
def test_p_values_are_counts_and_symmetric(corpus_seed: int, seed: int, n: int, test: str) -> None:
    """p = (k + 1)/(n + 1) with 0 <= k <= n, and swapping baseline and system keeps p."""
    c = _corpus(corpus_seed)
    (a, ha), (b, hb) = c["systems"][:2]
    run = sig.paired_bootstrap if test == "bs" else sig.paired_ar
    p_ab = run("bleu", (a, ha), [(b, hb)], c["refs"], n_samples=n, seed=seed).results["BLEU"][1].p_value
    p_ba = run("bleu", (b, hb), [(a, ha)], c["refs"], n_samples=n, seed=seed).results["BLEU"][1].p_value
    assert 0 < p_ab <= 1
    k = p_ab * (n + 1) - 1
    assert abs(k - round(k)) < 1e-9 and 0 <= round(k) <= n
    assert p_ab == p_ba


@settings(max_examples=15, deadline=None)
@given(corpus_seed=st.integers(0, 10 ** 6), seed=SEEDS, n=st.integers(2, 400))
def test_ci_brackets_the_resampled_scores(corpus_seed: int, seed: int, n: int) -> None:
    c = _corpus(corpus_seed)
    for metric in ("bleu", "bleu/nltk"):
        res = sig.confidence_interval(metric, c["systems"][1][1], c["refs"], n_samples=n, seed=seed)
        r = res.result
        assert r.low <= r.high and r.ci == pytest.approx((r.high - r.low) / 2) and r.ci >= 0
        if n < 40:   # low/high are then the smallest and largest resampled scores
            assert r.low - 1e-9 <= r.mean <= r.high + 1e-9


def test_estimate_ci_ignores_order() -> None:
    rng = np.random.default_rng(5)
    for n in (1, 2, 39, 40, 41, 1000):
        x = rng.random(n) * 100
        assert sig.estimate_ci(x) == sig.estimate_ci(rng.permutation(x))


def test_same_seed_same_result_and_draws_are_shared() -> None:
    c = _corpus(11, n_sys=4)
    args = ("bleu", c["systems"][0], c["systems"][1:], c["refs"])
    one = sig.paired_bootstrap(*args, n_samples=100, seed=5)
    two = sig.paired_bootstrap(*args, n_samples=100, seed="5")
    assert one.results == two.results
    # a system's mean/CI does not depend on which other systems are in the run
    alone = sig.paired_bootstrap("bleu", c["systems"][0], c["systems"][2:3], c["refs"], n_samples=100, seed=5)
    assert alone.results["BLEU"][1] == one.results["BLEU"][2]


# ----------------------------------------------------------------------------- vectorised paths
@settings(max_examples=20, deadline=None)
@given(corpus_seed=st.integers(0, 10 ** 6), seed=SEEDS)
def test_float32_sums_fast_path_equals_sequential_accumulation(corpus_seed: int, seed: int) -> None:
    c = _corpus(corpus_seed, n_refs=2)
    stats, *_ = compute_stats("bleu", c["systems"][1][1], c["refs"])
    rows = stats.rows
    idx = sig.bootstrap_indices(len(rows), 30, seed)
    fast = sig.float32_sums(rows, idx)
    slow = np.zeros((30, rows.shape[1]), dtype=np.float32)
    for j in range(idx.shape[1]):
        slow += rows.astype(np.float32)[idx[:, j]]
    assert np.array_equal(fast, slow)
    frac = rows + 1 / 3                 # fractional rows take the sequential path
    seq = np.zeros((30, rows.shape[1]), dtype=np.float32)
    for j in range(idx.shape[1]):
        seq += frac.astype(np.float32)[idx[:, j]]
    assert np.array_equal(sig.float32_sums(frac, idx), seq)


@pytest.mark.parametrize("profile,knobs", [
    ("sacrebleu", {}), ("sacrebleu", {"smooth_method": "floor"}), ("sacrebleu", {"smooth_method": "add-k"}),
    ("sacrebleu", {"effective_order": True, "max_ngram_order": 2}), ("sacrebleu", {"smooth_method": "none"}),
    ("nltk", {}), ("nltk", {"smoothing": "method4"}), ("mteval-v13a", {}), ("nltk", {"auto_reweigh": True}),
])
def test_bleu_scores_from_sums_equals_score_stats(profile: str, knobs: dict) -> None:
    """BLEU's vectorised resample scores are the corpus scores of the selected rows."""
    fam = get_family("bleu")
    for corpus_seed in range(6):
        c = generate_corpus(corpus_seed, max_segments=8, max_refs=2, kind="ascii")
        stats, config, *_ = compute_stats("bleu", c["hyps"], c["refs"], profile, **knobs)
        idx = sig.bootstrap_indices(len(stats), 25, corpus_seed)
        sums = np.array([stats.rows[i].sum(axis=0) for i in idx])
        got = fam.scores_from_sums(sums, config)
        want = [fam.score_stats(SegmentStats(stats.columns, stats.rows[i]), config)[0] for i in idx]
        assert np.allclose(got, want, rtol=1e-12, atol=1e-300)


def test_sacrebleu_float32_bleu_is_close_to_float64() -> None:
    fam = get_family("bleu")
    c = _corpus(3, n_seg=60)
    stats, config, *_ = compute_stats("bleu", c["systems"][1][1], c["refs"])
    idx = sig.bootstrap_indices(len(stats), 50, 1)
    s64 = fam.scores_from_sums(sig.float64_sums(stats.rows, sig.resample_counts(idx)), config)
    s32 = fam.scores_from_sums(sig.float32_sums(stats.rows, idx), config)
    assert np.allclose(s32, s64, rtol=1e-5) and not np.array_equal(s32, s64)


def test_nltk_method5_cannot_be_resampled() -> None:
    c = _corpus(1)
    with pytest.raises(KnobError, match="last segment"):
        sig.confidence_interval("bleu/nltk", c["systems"][0][1], c["refs"], n_samples=10, smoothing="method5")


# ----------------------------------------------------------------------------- seeds and errors
@pytest.mark.parametrize("text,value,label", [
    ("12345", 12345, "12345"), (" 7", 7, " 7"), ("+3", 3, "+3"), ("1_000", 1000, "1_000"),
    ("None", None, "none"), ("NONE", None, "none"), (0, 0, "0"), (None, None, "none")])
def test_seed_parsing(text: object, value: object, label: str) -> None:
    seed = sig.resolve_seed(text)
    assert (seed.value, seed.label) == (value, label)


def test_seed_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    assert sig.resolve_seed() == sig.Seed(12345, "12345")
    monkeypatch.setenv("SACREBLEU_SEED", " 0042")
    assert sig.resolve_seed() == sig.Seed(42, " 0042") and sig.resolve_seed().paired_label == "42"
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    assert sig.resolve_seed().value is None


@pytest.mark.parametrize("bad", ["abc", "-1", -5, 1.5, True, ""])
def test_bad_seeds(bad: object) -> None:
    with pytest.raises(KnobError):
        sig.resolve_seed(bad)


def test_bad_inputs() -> None:
    c = _corpus(2)
    (a, ha), (b, hb) = c["systems"][:2]
    with pytest.raises(KnobError):
        sig.paired_bootstrap("bleu", (a, ha), [(b, hb)], c["refs"], n_samples=0)
    with pytest.raises(InputError, match="segments"):
        sig.paired_ar("bleu", (a, ha), [(b, hb[:-1])], c["refs"], n_samples=5)
    with pytest.raises(InputError, match="at least one other"):
        sig.paired_ar("bleu", (a, ha), [(a, hb)], c["refs"], n_samples=5)
    with pytest.raises(KnobError, match="none of the metrics"):
        sig.confidence_interval("bleu", ha, c["refs"], n_samples=5, no_such_knob=1)
    with pytest.raises(KnobError):
        sig.confidence_interval("nope", ha, c["refs"])
    with pytest.raises(InputError):
        sig.confidence_interval("bleu", ha, c["refs"][0])


def test_unseeded_runs_still_pair_the_systems() -> None:
    c = _corpus(4)
    name, hyps = c["systems"][0]
    res = sig.paired_bootstrap("bleu", (name, hyps), [("copy", list(hyps))], c["refs"], n_samples=50, seed=None)
    assert res.results["BLEU"][1].p_value == 1 / 51
    assert "seed:none" in res.signatures["BLEU"]


# ----------------------------------------------------------------------------- CLI
def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "assay.cli.main", "significance", *args], capture_output=True,
                          text=True, env=env)


def test_cli_paired_and_errors(tmp_path: Path) -> None:
    c = _corpus(9)
    names = []
    for name, hyps in c["systems"]:
        (tmp_path / name).write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
        names.append(str(tmp_path / name))
    (tmp_path / "ref").write_text("".join(r + "\n" for r in c["refs"][0]), encoding="utf-8")
    ref = str(tmp_path / "ref")
    out = _cli("bleu", "-i", *names, "-r", ref, "--paired-bs", "-n", "20", "--seed", "3")
    assert out.returncode == 0, out.stderr
    api = sig.paired_bootstrap("bleu", (names[0], c["systems"][0][1]), list(zip(names[1:], [h for _, h in c["systems"][1:]])),
                               c["refs"], n_samples=20, seed=3)
    assert out.stdout.rstrip("\n") == api.text
    bad = _cli("bleu", "-i", *names, "-r", ref, "--confidence")
    assert bad.returncode == 2 and "one system" in bad.stderr
    short = tmp_path / "short"
    short.write_text("a\n", encoding="utf-8")
    bad = _cli("bleu", "-i", names[0], str(short), "-r", ref, "--paired-ar")
    assert bad.returncode == 2 and "line counts differ" in bad.stderr


def test_confidence_needs_two_resamples() -> None:
    """sacrebleu prints a plain score (no CI, no bs: field) for --confidence-n below 2."""
    c = _corpus(6)
    with pytest.raises(KnobError, match="at least 2"):
        sig.confidence_interval("bleu", c["systems"][0][1], c["refs"], n_samples=1)
