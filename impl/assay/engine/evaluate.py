"""Score one corpus under many configurations, computing each distinct set of statistics once.

``compare``, ``report``, ``audit`` and ``conform`` score the same hypotheses and references under
dozens to thousands of configurations. Most configurations differ only in knobs that the
score stage reads (smoothing, scale, effective order, averaging ...), so their per-segment
statistics are identical. :class:`Evaluator` keys its statistics cache on
the **text- and statistics-stage knobs** (:meth:`assay.core.knobs.KnobSet.statistics_knobs`; every
knob declares its stage, ``Knob.stage``): configurations that agree on those knobs share their rows.
:class:`ReadTrackingConfig` records which knobs ``segment_stats`` reads; the tests use it to check
that every knob it reads is declared text or statistics stage, which is what makes a cache hit exact.

Tool failures (:class:`~assay.core.errors.ToolBehaviourError`) are cached like results, so a
configuration space with a crashing corner is explored once.

Below the statistics, the token ids are shared too: passes that tokenise the same hypothesis and
reference lists with the same tokenizer and lowercasing (BLEU under ``per_segment_min_total`` 0
and 1, or ``ref_length`` closest and shortest, ...) replay the first pass's ids instead of
scanning the text again (:class:`assay.tokenizers.base.SharedEncodings`: exact, bounded memory).

Across measures, one pass computes several: ``joint`` names a statistics knob whose value is a tuple
of measures computed column by column, independently of each other (ROUGE's ``types``: each type's
six columns depend only on the text knobs and that type). A configuration asking for a sub-tuple of
the joint value is computed once with the whole joint value in its place, and its columns are picked
by name (``family.columns``): the four ROUGE sections of a report count each coalition's documents
once, not four times. A joint configuration that is invalid or raises falls back to the
configuration's own pass (which raises its own error, if any). Once the joint statistics exist, a
part's key is the joint key with the part's value in place of the whole (no configuration is built).

Above the statistics, :meth:`Evaluator.value` keeps every corpus value it returned, keyed on the
complete configuration: the ``repr`` of every knob's value, in the knob set's order, when every
value is built of plain data (str, int, float, bool, None; tuples, lists, frozensets and dicts of
them), whose ``repr`` gives the value and its type exactly (``1``, ``1.0`` and ``True`` are
different keys, and so are ``0.0`` and ``-0.0``); a configuration holding anything else is not
kept. A Shapley attribution scores the coalitions of every pair of profiles, and pairs that share
the default profile share many coalitions: on the bundled sample a sixth of the calls are repeats.
Errors are not kept (the statistics' tool failures are, above).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

import numpy as np

from assay.core.errors import AssayError, InputError, ToolBehaviourError
from assay.core.knobs import Config, hashable
from assay.core.score import Score
from assay.core.stats import SegmentStats
from assay.engine import api
from assay.engine.registry import get_family
from assay.profiles.registry import Profile, get_profile
from assay.tokenizers.base import SharedEncodings


#: knob value types that are hashable as they are (:func:`hashable` returns them unchanged)
_SCALARS = frozenset({str, int, float, bool, type(None)})


#: corpus values :meth:`Evaluator.value` keeps (then it starts again): a few MB of keys
MAX_VALUES = 100_000
#: containers whose ``repr`` is their content's (:func:`_value_key`)
_CONTAINERS = frozenset({tuple, list, frozenset, dict})


def _value_key(config: Config) -> str | None:
    """The ``repr`` of every knob's value, or None when one is not plain data (module doc)."""
    values = tuple(config._values.values())
    return repr(values) if _plain(values) else None


def _plain(value: Any) -> bool:
    """Is ``value`` a plain scalar or a container of plain data (its ``repr`` is its content)?"""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is dict:
        return _plain(tuple(value)) and _plain(tuple(value.values()))
    return kind in _CONTAINERS and (_SCALARS.issuperset(map(type, value)) or all(map(_plain, value)))


class ReadTrackingConfig(Config):
    """A :class:`Config` that remembers which knobs were read (the statistics' cache key)."""

    __slots__ = ("read",)

    def __init__(self, config: Config):
        object.__setattr__(self, "metric", config.metric)
        object.__setattr__(self, "_values", config._values)
        object.__setattr__(self, "knobset", config.knobset)
        object.__setattr__(self, "read", set())

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        if key in self._values:
            self.read.add(key)
            return self._values[key]
        raise AttributeError(key)

    def __iter__(self) -> Iterator[str]:
        self.read.update(self._values)
        return iter(self._values)

    def __hash__(self) -> int:
        self.read.update(self._values)
        return super().__hash__()

    def as_dict(self) -> dict[str, Any]:
        self.read.update(self._values)
        return dict(self._values)




class Evaluator:
    """One metric on one corpus: configurations in, scores out, statistics shared.

    ``refs`` are reference streams (as in :func:`assay.score`). ``stats_computed`` counts the
    distinct statistics actually computed (for benchmarks and tests). ``joint``: knob -> tuple of
    measures computed together (module doc; only for a family with ``columns(config)``).
    """

    def __init__(self, metric: str, hyps: Sequence[Any], refs: Any, refs_orientation: str = "streams",
                 joint: Mapping[str, tuple[Any, ...]] | None = None):
        if not hyps:
            raise InputError("no hypotheses: the input is empty")
        self.metric = metric.lower()
        self.family = get_family(self.metric)
        self.hyps = list(hyps)
        self.streams = api.normalize_refs(self.hyps, refs, refs_orientation)
        self.nrefs = api.nrefs_field(self.streams)
        self._by_stage: dict[tuple[Any, ...], SegmentStats | ToolBehaviourError] = {}
        self._encodings = SharedEncodings()
        self.stats_computed = 0
        self._joint = {k: tuple(v) for k, v in (joint or {}).items()} if hasattr(self.family, "columns") else {}
        self._joint_failed: set[tuple[Any, ...]] = set()
        names = self.family.knobset.statistics_knobs()
        #: joint knob -> (its position in the statistics key, the whole value as the key holds it)
        self._joint_slot = {k: (names.index(k), hashable(v)) for k, v in self._joint.items() if k in names}
        self._values: dict[str, float] = {}

    # ------------------------------------------------------------------ configurations
    def config(self, profile: str | None = None, level: str = "corpus", **knobs: Any) -> tuple[Config, Profile]:
        """The complete configuration of ``profile`` + ``knobs`` (see :func:`assay.engine.api.make_config`)."""
        configured = api.configure(self.metric, profile, level, **knobs)
        return configured.config, configured.profile

    # ------------------------------------------------------------------ statistics
    def stats(self, config: Config) -> SegmentStats:
        """Per-segment statistics under ``config``, reused across configurations that agree on
        every text- and statistics-stage knob (each knob declares its stage once)."""
        key = self._key(config)
        cached = self._by_stage.get(key)
        if cached is None:
            cached = self._joint_stats(config, key)
        if cached is None:
            cached = self._compute(config)
        self._by_stage[key] = cached
        if isinstance(cached, ToolBehaviourError):
            raise cached
        return cached

    def _key(self, config: Config) -> tuple[Any, ...]:
        """The text- and statistics-stage knob values (:func:`hashable`; the common scalar values
        are their own key, without the call; a hashable tuple of values is the key as it is)."""
        values = tuple(map(config.__getitem__, self.family.knobset.statistics_knobs()))
        try:
            hash(values)
        except TypeError:
            return tuple(v if type(v) in _SCALARS else hashable(v) for v in values)
        return values

    def _compute(self, config: Config) -> SegmentStats | ToolBehaviourError:
        try:
            with self._encodings.active():
                stats = self.family.segment_stats(self.hyps, self.streams, config)
        except ToolBehaviourError as exc:
            stats = exc
        self.stats_computed += 1
        return stats

    def _joint_stats(self, config: Config, own_key: tuple[Any, ...]) -> SegmentStats | None:
        """``config``'s statistics as columns of the joint configuration's (module doc), or None when
        ``config`` is not a part of a joint configuration or the joint one cannot be computed.
        ``own_key``: ``config``'s statistics key (:meth:`_key`)."""
        for knob, whole in self._joint.items():
            part = config[knob] if knob in config.knobset else None
            if not isinstance(part, tuple) or part == whole or not set(part) <= set(whole):
                continue
            slot = self._joint_slot.get(knob)
            stats = None
            if slot is not None:    # the joint configuration's key: own_key with the whole value in place
                key = own_key[:slot[0]] + (slot[1],) + own_key[slot[0] + 1:]
                stats = self._by_stage.get(key)
            if stats is None:
                try:
                    joint = Config(config.metric, config.knobset, {**config.as_dict(), knob: whole})
                except AssayError:
                    continue
                key = self._key(joint)
                if key in self._joint_failed:
                    continue
                stats = self._by_stage.get(key)
            if stats is None:
                try:
                    stats = self._compute(joint)
                except AssayError:        # an input error: the configuration's own pass raises it
                    self._joint_failed.add(key)
                    continue
                self._by_stage[key] = stats
            if isinstance(stats, ToolBehaviourError):
                continue
            names = self.family.columns(config)          # type: ignore[attr-defined]
            index = [stats.columns.index(c) for c in names]
            # C order, as the configuration's own pass makes them: numpy's sums depend on the layout
            return SegmentStats(tuple(names), np.ascontiguousarray(stats.rows[:, index]), stats.context)
        return None

    # ------------------------------------------------------------------ scores
    def score(self, config: Config, profile: Profile | str | None = None, width: int | None = None) -> Score:
        """The corpus score under ``config`` (``profile`` only names it in the signature)."""
        prof = profile if isinstance(profile, Profile) else get_profile(self.metric, profile)
        api.check_max_refs(prof, len(self.streams))
        return api.family_score(self.family, self.stats(config), config, prof, self.nrefs, width)

    def value(self, config: Config) -> float:
        """The corpus score's value alone (no signature or text): the fast path for searches, kept
        for the next call with the same configuration (module doc)."""
        key = _value_key(config)
        got = self._values.get(key) if key is not None else None
        if got is None:
            got = float(self.family.score_stats(self.stats(config), config)[0])
            if key is not None:
                if len(self._values) >= MAX_VALUES:
                    self._values.clear()
                self._values[key] = got
        return got

    def sentence_values(self, config: Config) -> np.ndarray:
        """One value per segment under ``config`` (use a sentence-level configuration for the
        tool's sentence defaults)."""
        return self.family.sentence_stats_scores(self.stats(config), config).values
