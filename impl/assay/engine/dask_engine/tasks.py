"""What runs on a Dask worker: plain functions of picklable arguments, none of which imports Dask.

A configuration travels as a :class:`ConfigSpec` (metric, profile, level and every knob value) and
is rebuilt once per worker process (a :class:`~assay.core.knobs.Config` holds its knob set, whose
domains are functions: rebuilding is cheaper and surer than pickling them). Every task returns its
result or, for an :class:`AssayError`, a :class:`~.parts.Failure` (see :mod:`.parts`).

Tasks are pure (the same arguments give the same result), so the scheduler may run one again after
a worker died, and the result does not change.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from assay._version import __version__
from assay.core.errors import AssayError, InputError
from assay.core.family import MetricFamily
from assay.core.knobs import Config
from assay.core.segment_stream import FileSurvey
from assay.engine import api, chunks, stream
from assay.engine.dask_engine.parts import EngineError, Failure, Part, capture, make_part
from assay.engine.registry import get_family
from assay.profiles.registry import get_profile


@dataclass(frozen=True)
class ConfigSpec:
    """A configuration as data: rebuilt on a worker by :meth:`configured`, by the same assay version."""

    metric: str
    profile: str
    level: str
    values: tuple[tuple[str, Any], ...]
    version: str = __version__

    @classmethod
    def of(cls, configured: api.Configured) -> "ConfigSpec":
        return cls(configured.family.name, configured.profile.name, configured.level,
                   tuple(configured.config.as_dict().items()))

    def configured(self) -> api.Configured:
        """The configuration (built once per process and spec); an :class:`EngineError` on a worker
        whose assay is another version than the client's (its numbers could differ)."""
        check_version(self.version)
        key = pickle.dumps(self)
        found = _CONFIGURED.get(key)
        if found is None:
            family = get_family(self.metric)
            config = Config(family.name, family.knobset, dict(self.values))
            found = _CONFIGURED[key] = api.Configured(family, config, get_profile(self.metric, self.profile),
                                                       self.level)
        return found


_CONFIGURED: dict[bytes, api.Configured] = {}


def check_version(client_version: str) -> None:
    """An :class:`EngineError` on a worker whose assay is another version than the client's (its numbers
    could differ)."""
    if client_version != __version__:
        raise EngineError(f"a Dask worker runs assay {__version__}, the client assay {client_version}: install the "
                          "same version on every worker")


def has_corpus_pass(family: MetricFamily) -> bool:
    """Whether a corpus-pass family implements its first pass as a reduction (``context_part``,
    ``merge_contexts``, ``finish_context`` overridden)."""
    return all(getattr(type(family), name) is not getattr(MetricFamily, name)
               for name in ("context_part", "merge_contexts", "finish_context"))


def _as_value(fn: Callable[[], Any]) -> Any:
    return capture(fn)


# ----------------------------------------------------------------------------- files
def survey_shard(shard: stream.Shard, encoding: str, sharded: bool) -> list[FileSurvey] | Failure:
    """:func:`assay.engine.stream.survey_shard` on a worker."""
    return _as_value(lambda: stream.survey_shard(shard, encoding, sharded))


def file_part(spec: ConfigSpec, index: int, shard: stream.Shard, surveys: Sequence[FileSurvey], encoding: str,
              chunk_lines: int, sharded: bool, mode: str, context: Mapping[str, Any] | None = None,
              following: Sequence[FileSurvey] | None = None) -> Part | Failure:
    """Shard ``index`` read in chunks (:func:`assay.engine.stream.shard_chunks`: the single-process
    reader; ``following``: the next non-empty shard's files, whose first segment a reading-ahead
    configuration appends to the shard's last chunk) and reduced to a :class:`Part` (``mode``: ``sum``
    or ``rows``)."""
    def run() -> Part:
        configured = spec.configured()
        notes = stream.notes_of(surveys, encoding)
        blocks = [stats for _, stats in stream.shard_chunks(configured, surveys, encoding, chunk_lines, notes,
                                                            where=stream.shard_label(shard, sharded),
                                                            context=context, following=following)]
        return make_part(index, blocks, mode, keep_context=index == 0, notes=notes)
    return _as_value(run)


def file_context_part(spec: ConfigSpec, shard: stream.Shard, surveys: Sequence[FileSurvey], encoding: str,
                      chunk_lines: int, sharded: bool, following: Sequence[FileSurvey] | None = None) -> Any:
    """A corpus-pass family's first pass over one shard (its chunks' parts, merged; ``following`` as
    for :func:`file_part`)."""
    def run() -> Any:
        configured = spec.configured()
        family, config = configured.family, configured.config
        notes = stream.notes_of(surveys, encoding)
        where = stream.shard_label(shard, sharded)
        return chunks.merged_context(family, config, (
            (first - 1, hyps, streams, where, ahead)
            for first, hyps, streams, ahead in stream.shard_segments(configured, surveys, encoding, chunk_lines,
                                                                     notes, following)))
    return _as_value(run)


def merge_contexts(spec: ConfigSpec, parts: Sequence[Any]) -> Any:
    """Consecutive first-pass parts merged (the first failure, if any)."""
    for p in parts:
        if isinstance(p, Failure):
            return p
    configured = spec.configured()
    return _as_value(lambda: configured.family.merge_contexts(list(parts), configured.config))


def finish_context(spec: ConfigSpec, merged: Any) -> Any:
    """The context every shard's rows are made under."""
    if isinstance(merged, Failure):
        return merged
    configured = spec.configured()
    return _as_value(lambda: configured.family.finish_context(merged, configured.config))


# ----------------------------------------------------------------------------- collections
def partition_part(spec: ConfigSpec, index: int, mode: str, hyps: Any, *refs: Any) -> Part | Failure:
    """Partition ``index`` of a Dask collection of hypotheses and of each reference stream (a list,
    or a pandas Series) reduced to a :class:`Part`. Errors name the partition."""
    def run() -> Part:
        configured = spec.configured()
        hyp_list = _as_list(hyps)
        streams = [_as_list(r) for r in refs]
        for k, s in enumerate(streams):
            if len(s) != len(hyp_list):
                raise InputError(f"reference stream {k + 1} has {len(s)} segments but the hypotheses have "
                                 f"{len(hyp_list)}: the collections must be partitioned alike")
        if not hyp_list:
            return make_part(index, [], mode, keep_context=False)
        streams = api.normalize_refs(hyp_list, streams)
        missing = np.array([any(s[i] is None for s in streams) for i in range(len(hyp_list))])
        stats = chunks.rows_of_lists(configured.family, configured.config, hyp_list, streams)
        return make_part(index, [stats], mode, keep_context=True, missing=missing)
    try:
        return run()
    except AssayError as exc:
        return Failure.of(chunks.renumbered(exc, 0, f"partition {index + 1}: "))


def _as_list(partition: Any) -> list[Any]:
    """A partition's items: a bag partition is a list (or an iterable), a dataframe one a pandas Series."""
    tolist = getattr(partition, "tolist", None)
    return tolist() if callable(tolist) else list(partition)
