"""sacrebleu-compatible significance testing: bootstrap confidence intervals, paired bootstrap
resampling and paired approximate randomisation (AR), on sufficient-statistics rows.

Every rule below was found black-box with sacrebleu 2.6.0 (numpy 2.x) and is reproduced exactly:

- **Seed** (:func:`resolve_seed`): ``SACREBLEU_SEED`` unset -> 12345; ``none`` (any case) -> unseeded;
  otherwise Python ``int(text)`` (so ``" 7"``, ``"+7"``, ``"1_000"`` work; a negative seed is an
  error). The signature's ``seed:`` field is ``none`` when unseeded, else the raw text for
  ``--confidence`` and the parsed integer for paired tests (``" 0042"`` -> ``42``).
- **Draws**: a fresh ``numpy.random.default_rng(seed)`` for every resampled system, so all systems
  and metrics share one draw. Bootstrap: ``rng.integers(0, n_segments, (n_samples, n_segments))``
  (row k = the segments of resample k). AR: ``rng.integers(0, 2, (n_trials, n_segments),
  dtype=bool)``; trial k's first pseudo-system takes the baseline's row where the mask is True and
  the system's row elsewhere, the second the opposite.
- **Bootstrap arithmetic**: the rows are cast to float32 and each resample is summed in float32,
  segment by segment in index order, and scored with float32 arithmetic (BLEU's precisions, chrF's
  and TER's whole scores are float32): the sacrebleu 2.x profiles set the score-stage knob
  ``resample_arithmetic=float32``, and each family's ``scores_from_sums`` scores float32 sums so.
  Other profiles (``float64``) resample with exact float64 sums.
  AR sums are float64 (``mask @ base + ~mask @ system``), scored with float64 arithmetic.
  float64 sums of rows that are not all integers are accumulated segment by segment in index
  order (:func:`in_segment_order`), not by BLAS, whose rounding depends on its thread count and
  on how many resamples one product holds: the same run gives the same digits on any machine,
  and ``--engine dask`` (blocks of resamples on workers) the digits of one process.
- **CI** (:func:`estimate_ci`): sort the resampled scores; ``mean`` = numpy's mean of the sorted
  scores (``--confidence`` uses ``statistics.mean`` instead, :func:`statistics_mean`); with ``lo = n // 40``
  and ``hi = n - 1 - lo``, ``ci = (sorted[hi] - sorted[lo]) / 2``. sacrebleu prints ``μ = mean ± ci``
  (a half-width of the 95% percentile interval, shown around the mean).
- **Paired bootstrap p-value** (Moses' bootstrap-hypothesis-difference-significance.pl): with
  ``d_k = |sys_k - base_k|`` on the same resample and ``Δ = |sys - base|`` on the full corpus,
  ``p = (#{k: d_k - mean(d) > Δ} + 1) / (n + 1)``.
- **AR p-value**: ``d_k = |score(pseudo1_k) - score(pseudo2_k)|``, ``p = (#{k: d_k > Δ} + 1) / (n + 1)``.
  The comparison is strict, so a system compared with itself gets p = 1/(n + 1) (sacrebleu marks
  it significant); both tests share that quirk.

Known divergences (deliberate; no digits of sacrebleu's to compare):

- KD-sig-seed-zero: with ``SACREBLEU_SEED=0`` sacrebleu 2.6.0 seeds the baseline's own CI with 0
  but draws the paired resamples/trials unseeded (different on every run; its signature still says
  ``seed:0``). assay uses seed 0 for every draw.
- KD-sig-unseeded: with ``none`` sacrebleu draws afresh for every system; assay draws one seed from
  OS entropy per run, so the baseline's CI and the tests still share one draw.
- KD-sig-json: sacrebleu's paired JSON fails for chrF/TER (``float32 is not JSON serializable``);
  assay prints it (float32 values as exact decimals of the float32 numbers).

Speed: the bootstrap sums of all systems come from one segment-count matrix (``np.bincount``)
times each system's rows, which is exact in float32 whenever the rows are integers whose column
totals stay below 2^24; otherwise the float32 sums are accumulated in sacrebleu's order.

Work units (:func:`resample_block`, :class:`Runs`): a metric's statistics per system, and its
resampled values for any block of consecutive draws (row k from draw k alone). One process computes
them in order (:class:`LocalRuns`); ``--engine dask`` spreads them over a cluster
(:mod:`assay.jobs.grid.significance`, the draws cut in blocks by
:mod:`assay.jobs.significance_blocks`), and the result is the same.
"""
from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError, ToolBehaviourError
from assay.core.stats import SegmentStats
from assay.engine.api import compute_stats, make_config, normalize_refs, nrefs_field, score_from_stats
from assay.engine.registry import get_family
from assay.jobs.significance_types import ConfidenceResult, PairedResult, Seed, SystemResult

DEFAULT_SEED = 12345
SEED_ENV = "SACREBLEU_SEED"
DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_AR_TRIALS = 10000
SIGNIFICANCE_LEVEL = 0.05
_EXACT_FLOAT32_INT = 2 ** 24
_EXACT_FLOAT64_INT = 2 ** 53
#: resamples summed together in float32 (sacrebleu's order); blocks of resamples start at multiples of it
FLOAT32_CHUNK = 64
_ENV = object()     # "read SACREBLEU_SEED"


# ----------------------------------------------------------------------------- seed
def resolve_seed(seed: Any = _ENV) -> Seed:
    """sacrebleu's seed: default from ``SACREBLEU_SEED`` (unset -> 12345, ``none`` -> unseeded).

    ``seed`` may be an int, ``None`` (unseeded) or text read the way sacrebleu reads the variable.
    """
    if isinstance(seed, Seed):
        return seed
    if seed is _ENV:
        text = os.environ.get(SEED_ENV)
        if text is None:
            return Seed(DEFAULT_SEED, str(DEFAULT_SEED))
        seed = text
    if seed is None:
        return Seed(None, "none")
    if isinstance(seed, bool):
        raise KnobError(f"seed must be an integer or 'none', got {seed!r}")
    if isinstance(seed, (int, np.integer)):
        value, label = int(seed), str(int(seed))
    elif isinstance(seed, str):
        if seed.lower() == "none":
            return Seed(None, "none")
        try:
            value = int(seed)
        except ValueError:
            raise KnobError(f"seed {seed!r} (e.g. from {SEED_ENV}) is not an integer or 'none'") from None
        label = seed
    else:
        raise KnobError(f"seed must be an integer or 'none', got {type(seed).__name__}")
    if value < 0:
        raise KnobError(f"seed must be non-negative (numpy's default_rng), got {value}")
    return Seed(value, label)


def _run_seed(seed: Seed) -> int:
    """The concrete seed of one run: unseeded runs draw one from OS entropy, so that every system is
    still resampled the same way (sacrebleu draws afresh per system; no digits are comparable then)."""
    if seed.value is not None:
        return seed.value
    return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])


# ----------------------------------------------------------------------------- draws
def bootstrap_indices(n_segments: int, n_samples: int, seed: int) -> np.ndarray:
    """(n_samples, n_segments) segment indices: sacrebleu's ``default_rng(seed).integers``."""
    return np.random.default_rng(seed).integers(0, n_segments, size=(n_samples, n_segments))


def ar_swap_masks(n_segments: int, n_trials: int, seed: int) -> np.ndarray:
    """(n_trials, n_segments) booleans: True = pseudo-system 1 takes the baseline's segment."""
    return np.random.default_rng(seed).integers(0, 2, size=(n_trials, n_segments), dtype=bool)


def resample_counts(idx: np.ndarray) -> np.ndarray:
    """How often each segment occurs in each resample: (n_samples, n_segments), as float64 (the
    left factor of every ``counts @ rows`` product)."""
    n_samples, n_segments = idx.shape
    flat = (idx + (np.arange(n_samples, dtype=np.int64) * n_segments)[:, None]).ravel()
    counts = np.bincount(flat, minlength=n_samples * n_segments).reshape(n_samples, n_segments)
    return counts.astype(np.float64)


def float32_sums(rows: np.ndarray, idx: np.ndarray, counts: np.ndarray | None = None,
                 chunk: int = FLOAT32_CHUNK) -> np.ndarray:
    """Column sums of every resample as sacrebleu computes them: float32, in index order.

    Integer rows whose column totals over any resample stay below 2^24 sum exactly in float32
    whatever the order, so those use ``counts @ rows``; other rows are accumulated in float32 in
    sacrebleu's order (numpy's reduction of ``rows32[idx].sum(axis=1)``), a chunk of resamples at
    a time.
    """
    rows = np.asarray(rows, dtype=np.float64)
    n_segments = rows.shape[0]
    bound = np.abs(rows).max(axis=0, initial=0.0) * n_segments
    if np.all(rows == np.round(rows)) and np.all(bound < _EXACT_FLOAT32_INT):
        if counts is None:
            counts = resample_counts(idx)
        return (np.asarray(counts, dtype=np.float64) @ rows).astype(np.float32)
    rows32 = rows.astype(np.float32)
    out = np.empty((idx.shape[0], rows.shape[1]), dtype=np.float32)
    for start in range(0, idx.shape[0], chunk):
        out[start:start + chunk] = rows32[idx[start:start + chunk]].sum(axis=1)
    return out


def exact_sums(rows: np.ndarray, n_terms: int) -> bool:
    """Whether every float64 sum of ``n_terms`` rows (with repetition) is exact, in any order: integer
    rows whose column sums stay below 2^53."""
    bound = np.abs(rows).max(axis=0, initial=0.0) * max(n_terms, 1)
    return bool(np.all(rows == np.round(rows)) and np.all(bound < _EXACT_FLOAT64_INT))


def in_segment_order(weights: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``weights @ rows`` accumulated segment by segment: ``out += weights[:, j] * rows[j]`` for j = 0, 1, ...
    Every output row is a function of its own weights alone, whatever the BLAS library, its threads or
    how many rows of weights one call holds."""
    by_segment = np.ascontiguousarray(np.asarray(weights, dtype=np.float64).T)
    out = np.zeros((by_segment.shape[1], rows.shape[1]))
    for j in range(rows.shape[0]):
        out += by_segment[j][:, None] * rows[j]
    return out


def float64_sums(rows: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """float64 resample sums (profiles of tools without float32 resampling): exact (``counts @ rows``)
    for integer rows, else accumulated in segment order (:func:`in_segment_order`)."""
    rows = np.asarray(rows, dtype=np.float64)
    counts = np.asarray(counts, dtype=np.float64)
    if exact_sums(rows, rows.shape[0]):     # every resample draws n_segments rows
        return counts @ rows
    return in_segment_order(counts, rows)


def resample_sums(setup: "MetricSetup", st: "_Stats", idx: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Each resample's column sums: float32 in sacrebleu's order when the configuration says
    ``resample_arithmetic=float32`` (the family then scores them with sacrebleu's float32
    arithmetic), else exact float64 sums."""
    if setup.config.get("resample_arithmetic") == "float32":
        return float32_sums(st.rows, idx, counts)
    return float64_sums(st.rows, counts)


def resample_scores(setup: "MetricSetup", st: "_Stats", idx: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """One corpus score per resample, in the arithmetic the configuration names."""
    return np.asarray(setup.family.scores_from_sums(resample_sums(setup, st, idx, counts), setup.config))


def _confidence_scores(setup: "MetricSetup", st: "_Stats", idx: np.ndarray, counts: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray | None]:
    """Resampled scores and, where the family knows it, which of them are Python floats in the tool."""
    sums = resample_sums(setup, st, idx, counts)
    scores = np.asarray(setup.family.scores_from_sums(sums, setup.config))
    return scores, setup.family.float32_python_float_mask(sums, setup.config)


def statistics_mean(scores: np.ndarray, python: np.ndarray | None = None) -> float:
    """sacrebleu's ``--confidence`` mean: ``statistics.mean`` of the resampled scores (the exactly
    rounded mean, in the scores' type; its paired tests use numpy's mean of the sorted scores).
    ``python`` marks scores that are Python floats in the tool: a mix with float32 scores is a
    TypeError in sacrebleu 2.6.0, reproduced as :class:`ToolBehaviourError`."""
    if python is not None and python.any() and not python.all():
        raise ToolBehaviourError("sacrebleu 2.6.0 cannot average these resamples: some scores are Python "
                                 "floats (no effective order / no reference) and others float32 "
                                 "(TypeError: don't know how to coerce float32 and float)", "TypeError")
    if python is not None and python.all():
        return float(statistics.mean(np.asarray(scores, dtype=np.float64).tolist()))
    values = list(np.asarray(scores)) if np.asarray(scores).dtype == np.float32 else \
        np.asarray(scores, dtype=np.float64).tolist()
    return float(statistics.mean(values))


def ar_sums(base: np.ndarray, system: np.ndarray, masks: np.ndarray, chunk: int = 1000
            ) -> tuple[np.ndarray, np.ndarray]:
    """float64 sums of both pseudo-systems of every AR trial: ``m @ base + ~m @ system`` and
    ``~m @ base + m @ system`` (the products sacrebleu forms; exact for integer rows, else each
    product accumulated in segment order, :func:`in_segment_order`)."""
    base = np.asarray(base, dtype=np.float64)
    system = np.asarray(system, dtype=np.float64)
    exact = exact_sums(base, base.shape[0]) and exact_sums(system, base.shape[0])
    product = (lambda w, rows: w @ rows) if exact else in_segment_order
    first = np.empty((masks.shape[0], base.shape[1]))
    second = np.empty_like(first)
    for start in range(0, masks.shape[0], chunk):
        take = masks[start:start + chunk].astype(np.float64)
        swap = (~masks[start:start + chunk]).astype(np.float64)
        first[start:start + chunk] = product(take, base) + product(swap, system)
        second[start:start + chunk] = product(swap, base) + product(take, system)
    return first, second


# ----------------------------------------------------------------------------- statistics
def estimate_ci(scores: np.ndarray) -> tuple[float, float, float, float]:
    """sacrebleu's 95% CI: (mean, half-width, low, high) of the sorted resampled scores.

    ``low = sorted[n // 40]``, ``high = sorted[n - 1 - n // 40]``, half-width ``(high - low) / 2``,
    all in the scores' own dtype (float32 for chrF/TER resamples, as in sacrebleu).
    """
    xs = np.sort(np.asarray(scores))
    if xs.size == 0:
        raise KnobError("no resampled scores (n_samples must be at least 1)")
    lo = xs.size // 40
    hi = xs.size - 1 - lo
    return float(xs.mean()), float((xs[hi] - xs[lo]) / 2), float(xs[lo]), float(xs[hi])


def bootstrap_p_value(system_scores: np.ndarray, baseline_scores: np.ndarray, real_diff: float) -> float:
    """Paired bootstrap: ``(#{d_k - mean(d) > |Δ|} + 1) / (n + 1)`` with ``d = |sys - base|``."""
    diffs = np.abs(np.asarray(system_scores) - np.asarray(baseline_scores))
    centred = (diffs - diffs.mean()).astype(np.float64)
    return float((np.count_nonzero(centred > abs(real_diff)) + 1) / (diffs.size + 1))


def ar_p_value(trial_diffs: np.ndarray, real_diff: float) -> float:
    """Approximate randomisation: ``(#{|s1_k - s2_k| > |Δ|} + 1) / (n + 1)``."""
    diffs = np.abs(np.asarray(trial_diffs, dtype=np.float64))
    return float((np.count_nonzero(diffs > abs(real_diff)) + 1) / (diffs.size + 1))


# ----------------------------------------------------------------------------- metrics
@dataclass(frozen=True)
class MetricSetup:
    """One metric of a significance run: family, profile, full knob config and display name."""

    metric: str
    profile: Any
    config: Any
    knobs: Mapping[str, Any]

    @property
    def family(self) -> Any:
        return get_family(self.metric)


def prepare_metrics(metrics: Any, profile: str | None = None, **knobs: Any) -> list[MetricSetup]:
    """Metrics given as ``"bleu"``, ``"bleu/sacrebleu"``, ``"bleu,chrf"``, a list of those, or
    ``(metric, profile, knobs)`` tuples. Shared ``knobs`` apply to the metrics that know them."""
    items: list[tuple[str, str | None, dict[str, Any]]] = []
    entries = metrics.split(",") if isinstance(metrics, str) else list(metrics)
    for entry in entries:
        if isinstance(entry, (tuple, list)):
            name, prof, own = (list(entry) + [None, {}])[:3]
            items.append((str(name), prof or profile, dict(own or {})))
            continue
        text = str(entry).strip()
        if not text:
            raise KnobError(f"empty metric name in {metrics!r}")
        name, _, prof = text.partition("/")
        items.append((name, prof or profile, {}))
    if not items:
        raise KnobError("no metric given")
    used: set[str] = set()
    setups = []
    for name, prof, own in items:
        family = get_family(name)
        aliases = {a.name for a in family.knobset.aliases}
        mine = {k: v for k, v in knobs.items() if k in family.knobset or k in aliases}
        used.update(mine)
        mine.update(own)
        config, profile_obj = make_config(name, prof, "corpus", **mine)
        setups.append(MetricSetup(family.name, profile_obj, config, mine))
    unknown = sorted(set(knobs) - used)
    if unknown:
        raise KnobError(f"knob(s) {', '.join(unknown)} belong to none of the metrics "
                        f"{', '.join(s.metric for s in setups)}")
    return setups


@dataclass
class _Stats:
    """One system's rows for one metric, its Score, its float64 corpus score and the column names."""

    rows: np.ndarray
    score: Any
    real: float
    columns: tuple[str, ...] = ()


def system_rows(setup: MetricSetup, hyps: Sequence[Any], refs: Any, label: str) -> tuple[SegmentStats, str]:
    """One system's statistics rows and its signature's ``nrefs`` field (plain data, what a Dask worker
    sends back; errors name the system ``label``)."""
    try:
        stats, _, _, streams = compute_stats(setup.metric, hyps, refs, setup.profile.name, **setup.knobs)
    except InputError as exc:
        raise InputError(f"{label}: {exc}") from None
    return stats, nrefs_field(streams)


def scored_stats(setup: MetricSetup, stats: SegmentStats, nrefs: str) -> _Stats:
    """One system's :class:`_Stats`: its Score, float64 rows and float64 corpus score."""
    score = score_from_stats(setup.metric, stats, setup.config, setup.profile, nrefs)
    rows = np.asarray(stats.rows, dtype=np.float64)
    real = float(setup.family.scores_from_sums(rows.sum(axis=0)[None, :], setup.config)[0])
    return _Stats(rows, score, real, tuple(stats.columns))


def _system_stats(setup: MetricSetup, hyps: Sequence[Any], refs: Any, label: str) -> _Stats:
    return scored_stats(setup, *system_rows(setup, hyps, refs, label))


# families whose rows depend only on their own segment (no corpus-level context such as IDF):
# the statistics of all systems can be computed in one call over the concatenated systems
_ROW_LOCAL = ("bleu", "chrf", "ter")


def systems_rows(setup: MetricSetup, names: list[str], outputs: list[Sequence[Any]], refs: Any
                 ) -> list[tuple[SegmentStats, str]]:
    """Every system's statistics rows and ``nrefs`` field (:func:`system_rows`); for row-local families one
    pass over all systems (the references are tokenised once), split back per system."""
    if setup.metric not in _ROW_LOCAL or len(outputs) < 2:
        return [system_rows(setup, hyps, refs, name) for name, hyps in zip(names, outputs)]
    streams = normalize_refs(outputs[0], refs)
    hyps_all = [h for hyps in outputs for h in hyps]
    try:
        stats, _, _, _ = compute_stats(setup.metric, hyps_all, [list(s) * len(outputs) for s in streams],
                                       setup.profile.name, **setup.knobs)
    except InputError as exc:
        raise InputError(f"systems {', '.join(names)}: {exc}") from None
    n = len(outputs[0])
    nrefs = nrefs_field(streams)
    return [(stats.select(np.arange(k * n, (k + 1) * n)), nrefs) for k in range(len(outputs))]


def all_system_stats(setup: MetricSetup, names: list[str], outputs: list[Sequence[Any]], refs: Any) -> list[_Stats]:
    """Every system's :class:`_Stats` (:func:`systems_rows`, scored)."""
    return [scored_stats(setup, stats, nrefs) for stats, nrefs in systems_rows(setup, names, outputs, refs)]


def display_name(score: Any, metric: str) -> str:
    """The tool's metric name (sacrebleu: BLEU, chrF2, chrF2++, TER)."""
    tool = score.tool_json
    if isinstance(tool, dict) and tool.get("name"):
        return str(tool["name"])
    head = score.text.split(" = ", 1)[0]
    if "|" in head:
        return head.split("|", 1)[0].strip()
    return metric.upper() if metric in ("bleu", "ter", "nist") else metric


def test_signature(signature: str, test: str, n_samples: int, seed: Seed, paired: bool = False) -> str:
    """Insert ``bs:N|seed:S`` (or ``ar:N|seed:S``) after the ``nrefs`` field, as sacrebleu does."""
    parts = signature.split("|")
    extra = [f"{test}:{n_samples}", f"seed:{seed.paired_label if paired else seed.label}"]
    for i, part in enumerate(parts):
        if part.startswith("nrefs:") or part.startswith("#:"):
            return "|".join(parts[:i + 1] + extra + parts[i + 1:])
    return "|".join(parts + extra)


def _default_width(profile: Any) -> int:
    """The profile's printing width (sacrebleu: 1); 4 decimals for profiles without one."""
    return profile.default_width if profile.default_width is not None else 4


def _check_n(n_samples: int, what: str) -> int:
    if isinstance(n_samples, bool) or not isinstance(n_samples, (int, np.integer)) or n_samples < 1:
        raise KnobError(f"{what} must be a positive integer, got {n_samples!r}")
    return int(n_samples)


# ----------------------------------------------------------------------------- work units
def draw(kind: str, n_segments: int, n_samples: int, seed: int) -> np.ndarray:
    """Every draw of a run: AR swap masks (``kind="ar"``), else bootstrap indices."""
    if kind == "ar":
        return ar_swap_masks(n_segments, n_samples, seed)
    return bootstrap_indices(n_segments, n_samples, seed)


def resample_block(kind: str, setup: MetricSetup, stats: Sequence[_Stats | SegmentStats], draws: np.ndarray,
                   counts: np.ndarray | None = None) -> list[np.ndarray | None]:
    """One metric's resampled values for ``draws`` (all the draws of a run, or a block of consecutive
    ones: row k of every array comes from draw k alone, so blocks concatenate to the whole):

    - ``confidence``: ``[scores, python]`` of the one system (``python``: which scores are Python
      floats in the tool, or None);
    - ``bs``: every system's resampled scores, the baseline first;
    - ``ar``: each other system's trial differences ``score(pseudo1) - score(pseudo2)``.

    Only the systems' ``rows`` are read (as float64).
    """
    if kind == "ar":
        family, config = setup.family, setup.config
        out: list[np.ndarray | None] = []
        for st in stats[1:]:
            first, second = ar_sums(stats[0].rows, st.rows, draws)
            out.append(np.asarray(family.scores_from_sums(first, config), dtype=np.float64)
                       - np.asarray(family.scores_from_sums(second, config), dtype=np.float64))
        return out
    if counts is None:
        counts = resample_counts(draws)
    if kind == "confidence":
        scores, python = _confidence_scores(setup, stats[0], draws, counts)
        return [scores, python]
    return [resample_scores(setup, st, draws, counts) for st in stats]


class Runs(Protocol):
    """Where a run's work is done. Metric ``k``'s statistics (every system's, the baseline first) and
    its resampled values (:func:`resample_block` over all the draws) are asked for metric by metric,
    in order; each call raises what the single-process run raises at that point."""

    def stats(self, k: int) -> list[_Stats]: ...

    def resampled(self, k: int) -> list[np.ndarray | None]: ...


#: ``runs(kind, setups, names, outputs, refs, n_samples, seed)``: the :class:`Runs` of one run
RunsFactory = Callable[[str, Sequence[MetricSetup], Sequence[str], Sequence[Sequence[Any]], Any, int, int], Runs]


class LocalRuns:
    """This process: each metric's work when it is asked for; one draw shared by every metric (paired
    tests draw before any statistics are made, ``--confidence`` once it knows the segment count)."""

    def __init__(self, kind: str, setups: Sequence[MetricSetup], names: Sequence[str],
                 outputs: Sequence[Sequence[Any]], refs: Any, n_samples: int, seed: int) -> None:
        self.kind, self.setups, self.names, self.outputs, self.refs = kind, setups, names, outputs, refs
        self.n_samples, self.seed = n_samples, seed
        self._stats: dict[int, list[_Stats]] = {}
        self._draws: np.ndarray | None = None
        self._counts: np.ndarray | None = None
        if kind != "confidence":
            self._draw(len(outputs[0]))

    def _draw(self, n_segments: int) -> None:
        self._draws = draw(self.kind, n_segments, self.n_samples, self.seed)
        self._counts = None if self.kind == "ar" else resample_counts(self._draws)

    def stats(self, k: int) -> list[_Stats]:
        self._stats[k] = all_system_stats(self.setups[k], list(self.names), list(self.outputs), self.refs)
        return self._stats[k]

    def resampled(self, k: int) -> list[np.ndarray | None]:
        stats = self._stats.pop(k)
        if self._draws is None:
            self._draw(len(stats[0].rows))
        assert self._draws is not None
        return resample_block(self.kind, self.setups[k], stats, self._draws, self._counts)


# ----------------------------------------------------------------------------- API
def confidence_interval(metric: Any, hyps: Sequence[Any], refs: Any, profile: str | None = None, *,
                        n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES, seed: Any = _ENV,
                        width: int | None = None, **knobs: Any) -> list[ConfidenceResult] | ConfidenceResult:
    """Bootstrap 95% CI of one system (sacrebleu ``--confidence``): one result per metric.

    Returns a single :class:`ConfidenceResult` when ``metric`` names one metric, else a list.
    """
    return confidence_test(metric, hyps, refs, profile, n_samples, seed, width, knobs)


def confidence_test(metric: Any, hyps: Sequence[Any], refs: Any, profile: str | None, n_samples: int, seed: Any,
                    width: int | None, knobs: dict[str, Any], runs: RunsFactory = LocalRuns
                    ) -> list[ConfidenceResult] | ConfidenceResult:
    """:func:`confidence_interval`, its work done by ``runs``."""
    n_samples = _check_n(n_samples, "n_samples")
    if n_samples < 2:
        raise KnobError("--confidence needs at least 2 resamples (sacrebleu silently prints no CI below 2)")
    seed_obj = resolve_seed(seed)
    setups = prepare_metrics(metric, profile, **knobs)
    work = runs("confidence", setups, ["system"], [hyps], refs, n_samples, _run_seed(seed_obj))
    out = []
    for k, setup in enumerate(setups):
        (st,) = work.stats(k)
        scores, python = work.resampled(k)
        assert scores is not None
        _, ci, low, high = estimate_ci(scores)
        mean = statistics_mean(scores, python)
        w = width if width is not None else _default_width(setup.profile)
        out.append(ConfidenceResult(setup.metric, display_name(st.score, setup.metric), st.score,
                                    SystemResult(float(st.score.value), None, mean, ci, low, high),
                                    n_samples, seed_obj, test_signature(st.score.signature, "bs", n_samples,
                                                                        seed_obj), w))
    return out[0] if len(out) == 1 else out


def _named(baseline: Any, systems: Any) -> tuple[list[str], list[Sequence[Any]]]:
    """(names, outputs) with the baseline first; a system equal by name to the baseline is dropped."""
    if isinstance(baseline, tuple) and len(baseline) == 2 and isinstance(baseline[0], str):
        base_name, base_hyps = baseline
    else:
        base_name, base_hyps = "baseline", baseline
    pairs = list(systems.items()) if isinstance(systems, Mapping) else list(systems)
    names, outputs = [base_name], [base_hyps]
    for item in pairs:
        if not (isinstance(item, (tuple, list)) and len(item) == 2):
            raise InputError("systems must be a mapping or a list of (name, hypotheses) pairs")
        name, hyps = item
        if name == base_name:
            continue   # sacrebleu: "Ignoring '<name>' as it was also given as the baseline"
        names.append(str(name))
        outputs.append(hyps)
    if len(names) < 2:
        raise InputError("a paired test needs a baseline and at least one other system")
    return names, outputs


def paired_test(test: str, metrics: Any, baseline: Any, systems: Any, refs: Any, profile: str | None,
                n_samples: int, seed: Any, width: int | None, knobs: dict[str, Any],
                runs: RunsFactory = LocalRuns) -> PairedResult:
    """:func:`paired_bootstrap` (``test="bs"``) or :func:`paired_ar` (``"ar"``), the work done by ``runs``."""
    n_samples = _check_n(n_samples, "n_samples")
    seed_obj = resolve_seed(seed)
    run_seed = _run_seed(seed_obj)
    setups = prepare_metrics(metrics, profile, **knobs)
    names, outputs = _named(baseline, systems)
    n_segments = len(outputs[0])
    for name, hyps in zip(names, outputs):
        if len(hyps) != n_segments:
            raise InputError(f"system {name!r} has {len(hyps)} segments but the baseline has {n_segments}")
    work = runs(test, setups, names, outputs, refs, n_samples, run_seed)
    results: dict[str, list[SystemResult]] = {}
    signatures: dict[str, str] = {}
    all_scores: dict[str, list[Any]] = {}
    metric_names: list[str] = []
    for k, setup in enumerate(setups):
        stats = work.stats(k)
        label = display_name(stats[0].score, setup.metric)
        metric_names.append(label)
        signatures[label] = test_signature(stats[0].score.signature, test, n_samples, seed_obj, paired=True)
        all_scores[label] = [s.score for s in stats]
        base = stats[0]
        arrays = work.resampled(k)
        if test == "bs":
            base_scores = arrays[0]
            assert base_scores is not None
            mean, ci, low, high = estimate_ci(base_scores)
            row = [SystemResult(float(base.score.value), None, mean, ci, low, high)]
            for st, sys_scores in zip(stats[1:], arrays[1:]):
                assert sys_scores is not None
                mean, ci, low, high = estimate_ci(sys_scores)
                p = bootstrap_p_value(sys_scores, base_scores, st.real - base.real)
                row.append(SystemResult(float(st.score.value), p, mean, ci, low, high))
        else:
            row = [SystemResult(float(base.score.value))]
            for st, diffs in zip(stats[1:], arrays):
                assert diffs is not None
                row.append(SystemResult(float(st.score.value), ar_p_value(diffs, st.real - base.real)))
        results[label] = row
    if len(set(metric_names)) != len(metric_names):
        raise KnobError(f"two metrics share the name {metric_names}: use different metrics per run")
    w = width if width is not None else _default_width(setups[0].profile)
    return PairedResult(test, n_samples, seed_obj, names, metric_names, results, signatures, w, all_scores)


def paired_bootstrap(metrics: Any, baseline: Any, systems: Any, refs: Any, profile: str | None = None, *,
                     n_samples: int = DEFAULT_BOOTSTRAP_SAMPLES, seed: Any = _ENV, width: int | None = None,
                     **knobs: Any) -> PairedResult:
    """Paired bootstrap resampling (sacrebleu ``--paired-bs``) of ``systems`` against ``baseline``.

    ``baseline`` is a hypothesis list or a ``(name, hypotheses)`` pair; ``systems`` a mapping
    name -> hypotheses (or a list of pairs); ``refs`` are reference streams. Every system gets
    its bootstrap mean and CI; each non-baseline system a p-value.
    """
    return paired_test("bs", metrics, baseline, systems, refs, profile, n_samples, seed, width, knobs)


def paired_ar(metrics: Any, baseline: Any, systems: Any, refs: Any, profile: str | None = None, *,
              n_samples: int = DEFAULT_AR_TRIALS, seed: Any = _ENV, width: int | None = None,
              **knobs: Any) -> PairedResult:
    """Paired approximate randomisation (sacrebleu ``--paired-ar``): p-values, no CIs."""
    return paired_test("ar", metrics, baseline, systems, refs, profile, n_samples, seed, width, knobs)
