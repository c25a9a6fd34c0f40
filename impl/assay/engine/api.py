"""The Python API: ``assay.score(metric, hyps, refs, profile=…, **knobs)`` -> Score.

References are *streams* (one list per reference file, each aligned with ``hyps``), as in
sacrebleu's ``corpus_score(hyps, [ref_stream_1, …])``. The per-segment orientation
(NLTK/torchmetrics: one list of references per hypothesis) is rejected with a clear message
unless ``refs_orientation="segments"`` is passed.
"""
from __future__ import annotations

from typing import Any, Sequence

from assay.core.errors import InputError, KnobError
from assay.core.gcpause import collector_paused
from assay.core.knobs import Config
from assay.engine.registry import get_family
from assay.output import presenter
from assay.text.segments import is_pretokenized
from assay.profiles.registry import Profile, get_profile
from assay.core.score import Score
from assay.core.stats import SegmentStats


def make_config(metric: str, profile: str | None = None, level: str = "corpus", **knobs: Any) -> tuple[Config, Profile]:
    """The complete knob assignment: family defaults < profile < sentence defaults < user knobs."""
    family = get_family(metric)
    prof = get_profile(metric, profile)
    if level not in ("corpus", "sentence"):
        raise KnobError(f"level must be 'corpus' or 'sentence', got {level!r}")
    user = family.derive(family.knobset.resolve(knobs, family.name))
    values = dict(prof.knobs)
    if level == "sentence":
        values.update(prof.sentence_knobs)
    values.update(user)
    return Config(family.name, family.knobset, values), prof


def normalize_refs(hyps: Sequence[Any], refs: Any, orientation: str = "streams") -> list[list[Any]]:
    """Check and return reference streams; explain orientation mistakes instead of guessing."""
    if orientation not in ("streams", "segments"):
        raise InputError(f"refs_orientation must be 'streams' or 'segments', got {orientation!r}")
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        what = "a single string" if isinstance(hyps, str) else type(hyps).__name__
        raise InputError(f"hyps must be a list of segments, not {what}")
    if isinstance(refs, str) or not isinstance(refs, Sequence) or len(refs) == 0:
        raise InputError("refs must be a non-empty list of reference streams (one list per reference file)")
    token_mode = is_pretokenized(hyps)
    if not token_mode and all(isinstance(r, str) for r in refs):
        raise InputError("refs is a flat list of strings; pass a list of reference streams, e.g. [refs] "
                         "for a single reference file")
    if orientation == "segments":
        if len(refs) != len(hyps):
            raise InputError(f"refs_orientation='segments' needs one reference list per hypothesis: "
                             f"{len(refs)} lists for {len(hyps)} hypotheses")
        width = max((len(r) for r in refs), default=0)
        return [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
    for k, stream in enumerate(refs):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise InputError(f"reference stream {k + 1} is not a list of segments")
        if len(stream) != len(hyps):
            hint = ""
            if len(refs) == len(hyps):
                hint = (" — this looks like per-segment references (one list per hypothesis); pass "
                        "refs_orientation='segments', or transpose them into streams")
            raise InputError(f"reference stream {k + 1} has {len(stream)} segments but there are "
                             f"{len(hyps)} hypotheses{hint}")
    return [list(s) for s in refs]


def nrefs_field(refs: list[list[Any]]) -> str:
    """sacrebleu's ``nrefs``: the count, or ``var`` when some segment lacks a reference."""
    return "var" if any(r is None for s in refs for r in s) else str(len(refs))


def compute_stats(metric: str, hyps: Sequence[Any], refs: Any, profile: str | None = None, *,
                  level: str = "corpus", refs_orientation: str = "streams", **knobs: Any
                  ) -> tuple[SegmentStats, Config, Profile, list[list[Any]]]:
    """Per-segment sufficient statistics for one configuration (the first stage)."""
    config, prof = make_config(metric, profile, level, **knobs)
    streams = normalize_refs(hyps, refs, refs_orientation)
    if not hyps:
        raise InputError("no hypotheses: the input is empty")
    if prof.max_refs is not None and len(streams) > prof.max_refs:
        raise InputError(f"profile {prof.full_name} takes at most {prof.max_refs} reference(s), got {len(streams)}")
    stats = get_family(metric).segment_stats(hyps, streams, config)
    return stats, config, prof, streams


def score_from_stats(metric: str, stats: SegmentStats, config: Config, profile: Profile, nrefs: str,
                     width: int | None = None) -> Score:
    """The second stage: a Score from rows (all rows = corpus; one row = a sentence)."""
    family = get_family(metric)
    value, components = family.score_stats(stats, config)
    return _make_score(family, value, components, config, profile, nrefs, width)


def _make_score(family: Any, value: float, components: Any, config: Config, profile: Profile,
                nrefs: str, width: int | None, signature: str | None = None) -> Score:
    shown = presenter(family.name)
    if signature is None:
        signature = shown.signature(config, profile.name, nrefs, profile.tool_version)

    def render(s: Score) -> tuple[str, dict[str, Any] | None]:
        args = (s.value, s.components, s.config, s.profile, s.signature, width)
        return shown.format_text(*args), shown.tool_json(*args)

    return Score(family.name, value, config, profile.name, signature, render, components)


def score(metric: str, hyps: Sequence[Any], refs: Any, profile: str | None = None, *,
          refs_orientation: str = "streams", width: int | None = None, **knobs: Any) -> Score:
    """Corpus-level score of ``hyps`` against reference streams ``refs`` under a profile and knobs."""
    stats, config, prof, streams = compute_stats(metric, hyps, refs, profile, level="corpus",
                                                 refs_orientation=refs_orientation, **knobs)
    return score_from_stats(metric, stats, config, prof, nrefs_field(streams), width)


def sentence_scores(metric: str, hyps: Sequence[Any], refs: Any, profile: str | None = None, *,
                    refs_orientation: str = "streams", width: int | None = None, **knobs: Any) -> list[Score]:
    """One score per segment, with the tool's sentence-level defaults (e.g. sacrebleu's sentence_bleu)."""
    stats, config, prof, streams = compute_stats(metric, hyps, refs, profile, level="sentence",
                                                 refs_orientation=refs_orientation, **knobs)
    family = get_family(metric)
    signatures: dict[str, str] = {}
    out = []
    with collector_paused():   # one Score per segment: no full collections of a large heap meanwhile
        for i, (value, components) in enumerate(family.sentence_stats_scores(stats, config)):
            nrefs = "var" if any(s[i] is None for s in streams) else str(len(streams))
            if nrefs not in signatures:
                signatures[nrefs] = presenter(metric).signature(config, prof.name, nrefs, prof.tool_version)
            out.append(_make_score(family, value, components, config, prof, nrefs, width, signatures[nrefs]))
    return out

