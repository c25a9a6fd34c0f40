"""The Python API: ``assay.score(metric, hyps, refs, profile=…, **knobs)`` -> Score.

References are *streams* (one list per reference file, each aligned with ``hyps``), as in
sacrebleu's ``corpus_score(hyps, [ref_stream_1, …])``. The per-segment orientation
(NLTK/torchmetrics: one list of references per hypothesis) is rejected with a clear message
unless ``refs_orientation="segments"`` is passed.

Scoring has two stages: per-segment statistics (:func:`compute_stats`) and a score from them
(:func:`score_from_stats`). A caller that already holds a configuration (the CLI, which needs it
to read its input files) builds it once with :func:`configure` and scores it with
:func:`score_configured` / :func:`sentence_scores_configured`: one configuration, one family
lookup.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import is_
from typing import Any, Callable, Mapping, Sequence

from assay.core.domains import integer
from assay.core.errors import InputError, KnobError
from assay.core.family import MetricFamily
from assay.core.knobs import Config
from assay.core.score import RowScores, Score, SentenceScores
from assay.core.stats import SegmentStats
from assay.engine.chunks import rows_of_lists
from assay.engine.registry import get_family
from assay.output import presenter
from assay.profiles.registry import Profile, get_profile
from assay.core.items import has_none
from assay.text.segments import is_pretokenized, pretokenized_types

LEVELS = ("corpus", "sentence")
_SEGMENT_TYPES = (str, list, tuple)

WIDTH = integer(0, 17, reason="a double holds 17 significant digits; more decimals print only noise")
"""``width``: decimals in a score's text (``None``: the tool's own); the CLI's ``-w`` takes the same."""


def check_width(width: Any) -> int | None:
    """``width`` as an int, or a :class:`KnobError` naming it and :data:`WIDTH` (``width=-1`` would
    otherwise fail later, inside string formatting)."""
    if width is None:
        return None
    try:
        WIDTH.check(width)
    except ValueError as exc:
        shown = repr(width) if isinstance(width, (int, float)) else f"a {type(width).__name__}"
        raise KnobError(f"width {exc}, got {shown[:40]}") from None
    return int(width)


@dataclass(frozen=True)
class Configured:
    """One metric ready to score: its family, the complete configuration and the profile it names."""

    family: MetricFamily
    config: Config
    profile: Profile
    level: str = "corpus"


def configure(metric: str, profile: str | None = None, level: str = "corpus", **knobs: Any) -> Configured:
    """The complete knob assignment: family defaults < profile < sentence defaults < user knobs."""
    family = get_family(metric)
    prof = get_profile(metric, profile)
    if level not in LEVELS:
        raise KnobError(f"level must be 'corpus' or 'sentence', got {level!r}")
    user = family.derive(family.knobset.resolve(knobs, family.name))
    values = dict(prof.knobs)
    if level == "sentence":
        values.update(prof.sentence_knobs)
    values.update(user)
    return Configured(family, Config(family.name, family.knobset, values), prof, level)


def make_config(metric: str, profile: str | None = None, level: str = "corpus", **knobs: Any) -> tuple[Config, Profile]:
    """The complete knob assignment of ``metric`` under ``profile`` and ``knobs``, and the profile.

    Parameters: ``metric`` a family name (``"bleu"``, ``"rouge"``, ... : ``assay profiles``);
    ``profile`` a profile name (``"nltk"``, ``"bleu/nltk"``; None: the family's default);
    ``level`` ``"corpus"`` or ``"sentence"`` (the tool's sentence-level defaults added);
    ``knobs`` knob values that override the profile's (``assay knobs METRIC`` lists them).

    Returns ``(config, profile)``: the :class:`~assay.core.knobs.Config` (every knob, read as
    ``config["knob"]``) and the :class:`~assay.profiles.registry.Profile`. Raises
    :class:`~assay.core.errors.KnobError` for an unknown metric, profile, knob or value.

    >>> config, profile = make_config("bleu", "nltk")
    >>> profile.full_name, config["smooth_method"]
    ('bleu/nltk', 'float-min')
    """
    configured = configure(metric, profile, level, **knobs)
    return configured.config, configured.profile


def check_max_refs(profile: Profile, n_refs: int) -> None:
    """:class:`InputError` when ``profile``'s tool takes fewer reference streams than ``n_refs``
    (``Profile.max_refs``; e.g. d2l's ``bleu`` scores one reference)."""
    if profile.max_refs is not None and n_refs > profile.max_refs:
        raise InputError(f"profile {profile.full_name} takes at most {profile.max_refs} reference(s), got {n_refs}")


def normalize_refs(hyps: Sequence[Any], refs: Any, orientation: str = "streams") -> list[list[Any]]:
    """Check and return reference streams; explain orientation mistakes instead of guessing."""
    if orientation not in ("streams", "segments"):
        raise InputError(f"refs_orientation must be 'streams' or 'segments', got {orientation!r}")
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        what = "a single string" if isinstance(hyps, str) else type(hyps).__name__
        raise InputError(f"hyps must be a list of segments, not {what}")
    hyp_types = set(map(type, hyps))      # one pass over the hypotheses serves both checks below
    if not all(issubclass(t, _SEGMENT_TYPES) for t in hyp_types):
        for k, hyp in enumerate(hyps):
            if not isinstance(hyp, _SEGMENT_TYPES):
                kind = type(hyp).__name__
                got = "None" if hyp is None else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
                raise InputError(f"hypothesis {k + 1} is {got}, expected a string (or a list of tokens)")
    if isinstance(refs, str) or not isinstance(refs, Sequence) or len(refs) == 0:
        raise InputError("refs must be a non-empty list of reference streams (one list per reference file)")
    token_mode = bool(hyps) and pretokenized_types(hyp_types)
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
    return [s if type(s) is list else list(s) for s in refs]     # a list as given: copying one touches every segment twice


def nrefs_field(refs: list[list[Any]]) -> str:
    """sacrebleu's ``nrefs``: the count, or ``var`` when some segment lacks a reference."""
    return "var" if any(map(has_none, refs)) else str(len(refs))


def _nrefs_of_segments(streams: list[list[Any]]) -> str | Callable[[int], str]:
    """Every segment's ``nrefs`` (the count) when no reference is missing, else ``i -> nrefs`` of
    segment i (``var`` when one of its references is missing)."""
    full = str(len(streams))
    if not any(map(has_none, streams)):
        return full
    missing = [any(row) for row in zip(*[map(is_, s, repeat(None)) for s in streams])]
    return lambda i: "var" if missing[i] else full


def coco_shape(hyps: Any, refs: Any, orientation: str) -> tuple[Any, Any, str]:
    """pycocoevalcap's dicts, ``refs={image_id: [captions]}`` and ``hyps={image_id: [caption]}`` (or
    ``{image_id: caption}``), as ``(hyps, per-segment refs, "segments")`` in the order of ``refs``'s
    keys; anything else is returned unchanged. Keys that differ are an :class:`InputError`."""
    if not isinstance(hyps, Mapping) and not isinstance(refs, Mapping):
        return hyps, refs, orientation
    if not (isinstance(hyps, Mapping) and isinstance(refs, Mapping)):
        raise InputError("COCO shape: pass both hyps={image_id: [caption]} and refs={image_id: [captions]} as dicts")
    if hyps.keys() != refs.keys():
        only_h, only_r = [k for k in hyps if k not in refs][:3], [k for k in refs if k not in hyps][:3]
        raise InputError(f"COCO shape: hyps and refs must have the same image ids: only in hyps {only_h}, "
                         f"only in refs {only_r} ({len(hyps)} vs {len(refs)} images)")
    out_h, out_r = [], []
    for key, captions in refs.items():
        hyp = hyps[key]
        one = len(hyp) == 1 if isinstance(hyp, (list, tuple)) else isinstance(hyp, str)
        hyp = hyp[0] if one and not isinstance(hyp, str) else hyp
        if not one or not (isinstance(hyp, str) or is_pretokenized([hyp])):
            got = f"{len(hyp)} items" if isinstance(hyp, (list, tuple)) else f"a {type(hyp).__name__}"
            raise InputError(f"COCO shape: hyps[{key!r}] must be one caption: a string, or a list holding "
                             f"exactly one (a string or a token list); got {got}")
        ref = [captions] if isinstance(captions, str) else captions
        if not isinstance(ref, (list, tuple)) or not ref:
            raise InputError(f"COCO shape: refs[{key!r}] must be a non-empty list of captions")
        out_h.append(hyp)
        out_r.append(list(ref))
    return out_h, out_r, "segments"


def target_prediction(hyps: Any, refs: Any, target: Any, prediction: Any) -> tuple[Any, Any]:
    """rouge-score's argument names and order, ``target=`` (the reference) and ``prediction=``, as
    ``(hyps, refs)``: one prediction string with a target string, or with a list of targets (its
    references, as ``score_multi``); or a list of predictions with an aligned list of targets."""
    if target is None and prediction is None:
        if hyps is None or refs is None:
            raise InputError("score needs hyps and refs (or rouge-score's target= and prediction=)")
        return hyps, refs
    if hyps is not None or refs is not None or target is None or prediction is None:
        raise InputError("pass target= and prediction= together, instead of hyps and refs")
    if isinstance(prediction, str):
        return [prediction], ([[target]] if isinstance(target, str) else [[t] for t in target])
    if isinstance(target, str):
        raise InputError("prediction= is a list, so target= must be a list aligned with it")
    return list(prediction), [list(target)]


def _stats(configured: Configured, hyps: Sequence[Any], refs: Any, refs_orientation: str, sums_only: bool = False
           ) -> tuple[SegmentStats, list[list[Any]]]:
    """Reference streams checked, then the per-segment statistics of ``configured`` (``sums_only``:
    a long corpus may come back as one row of its exact column sums, :func:`rows_of_lists`)."""
    hyps, refs, refs_orientation = coco_shape(hyps, refs, refs_orientation)
    streams = normalize_refs(hyps, refs, refs_orientation)
    if not hyps:
        raise InputError("no hypotheses: the input is empty")
    check_max_refs(configured.profile, len(streams))
    return rows_of_lists(configured.family, configured.config, hyps, streams, sums_only=sums_only), streams


def compute_stats(metric: str, hyps: Sequence[Any], refs: Any, profile: str | None = None, *,
                  level: str = "corpus", refs_orientation: str = "streams", **knobs: Any
                  ) -> tuple[SegmentStats, Config, Profile, list[list[Any]]]:
    """Per-segment sufficient statistics for one configuration: the first of the two scoring stages.

    Parameters as :func:`score` (``level="sentence"`` for the tool's sentence-level knobs).

    Returns ``(stats, config, profile, streams)``: the :class:`~assay.core.stats.SegmentStats`
    (one row per segment, the family's columns), the complete configuration, the profile and the
    checked reference streams. Rows can be summed, selected or resampled and scored again with
    :func:`score_from_stats`, without tokenising again.

    >>> stats, config, profile, streams = compute_stats("bleu", ["the cat sat on the mat", "a dog barked loudly"], [["the cat sat on the mat", "the dog barked loudly"]])
    >>> len(stats), stats.columns[:3]
    (2, ('hyp_len', 'ref_len', 'correct1'))
    """
    configured = configure(metric, profile, level, **knobs)
    stats, streams = _stats(configured, hyps, refs, refs_orientation)
    return stats, configured.config, configured.profile, streams


def score_from_stats(metric: str, stats: SegmentStats, config: Config, profile: Profile, nrefs: str,
                     width: int | None = None) -> Score:
    """The second stage: a :class:`~assay.core.score.Score` from statistics rows.

    Parameters: ``metric`` the family; ``stats``, ``config``, ``profile`` as :func:`compute_stats`
    returns them (any selection of the rows: all rows score the corpus, one row a sentence);
    ``nrefs`` the signature's reference count (``"1"``, or ``"var"``); ``width`` the printed decimals.

    Returns the Score, as :func:`score` would for those segments.

    >>> stats, config, profile, streams = compute_stats("bleu", ["the cat sat on the mat", "a dog barked loudly"], [["the cat sat on the mat", "the dog barked loudly"]])
    >>> round(score_from_stats("bleu", stats, config, profile, "1").value, 2)
    83.76
    """
    return family_score(get_family(metric), stats, config, profile, nrefs, width)


def family_score(family: MetricFamily, stats: SegmentStats, config: Config, profile: Profile, nrefs: str,
                 width: int | None = None) -> Score:
    """:func:`score_from_stats` for a family already at hand."""
    width = check_width(width)
    value, components = family.score_stats(stats, config)
    return _make_score(family, value, components, config, profile, nrefs, width)


def _make_score(family: MetricFamily, value: float, components: Any, config: Config, profile: Profile,
                nrefs: str, width: int | None, signature: str | None = None) -> Score:
    shown = presenter(family.name)
    if signature is None:
        signature = shown.signature(config, profile.name, nrefs, profile.tool_version)
    return Score(family.name, value, config, profile.name, signature, _renderer(shown, width), components)


def _renderer(shown: Any, width: int | None) -> Callable[[Score], tuple[str, dict[str, Any] | None]]:
    """A Score's ``render``: the tool's text and JSON from presenter ``shown`` at ``width``."""
    def render(s: Score) -> tuple[str, dict[str, Any] | None]:
        args = (s.value, s.components, s.config, s.profile, s.signature, width)
        return shown.format_text(*args), shown.tool_json(*args)

    return render


def score_configured(configured: Configured, hyps: Sequence[Any], refs: Any, *,
                     refs_orientation: str = "streams", width: int | None = None) -> Score:
    """The corpus score of ``hyps`` under a configuration built by :func:`configure`."""
    check_width(width)
    sums_only = configured.family.sums_suffice(configured.config)
    stats, streams = _stats(configured, hyps, refs, refs_orientation, sums_only)
    return family_score(configured.family, stats, configured.config, configured.profile, nrefs_field(streams),
                        width)


def sentence_scores_configured(configured: Configured, hyps: Sequence[Any], refs: Any, *,
                               refs_orientation: str = "streams", width: int | None = None) -> SentenceScores:
    """One score per segment under a configuration built by :func:`configure` (use level
    ``sentence`` for the tool's sentence-level defaults)."""
    check_width(width)
    stats, streams = _stats(configured, hyps, refs, refs_orientation)
    return sentence_scores_from_stats(configured, stats, _nrefs_of_segments(streams), width)


#: rows scored together by :func:`sentence_row_scores` (a family's vectorised temporaries are a few
#: arrays of this many rows; at a million segments, one pass would hold dozens of million-row arrays)
SENTENCE_BLOCK = 65_536


def sentence_row_scores(family: MetricFamily, stats: SegmentStats, config: Config) -> RowScores:
    """``family.sentence_stats_scores`` on ``stats``, in blocks of :data:`SENTENCE_BLOCK` rows: each row
    is scored alone (with the shared context), so the values are the same; the first failing row's
    error is raised, as one pass raises it."""
    n = len(stats)
    if n <= SENTENCE_BLOCK:
        return family.sentence_stats_scores(stats, config)
    return RowScores.concatenated([family.sentence_stats_scores(stats.rows_between(a, a + SENTENCE_BLOCK), config)
                                   for a in range(0, n, SENTENCE_BLOCK)], SENTENCE_BLOCK)


def sentence_scores_from_stats(configured: Configured, stats: SegmentStats, nrefs: str | Callable[[int], str],
                               width: int | None = None) -> SentenceScores:
    """Each row of ``stats`` scored alone (a :class:`SentenceScores`: one float per segment, each
    Score made when it is read); ``nrefs`` is every segment's ``nrefs`` signature field, or
    ``nrefs(i)`` segment i's."""
    width = check_width(width)
    family, config, prof = configured.family, configured.config, configured.profile
    shown = presenter(family.name)
    signatures: dict[str, str] = {}

    def signature(field: str) -> str:
        if field not in signatures:
            signatures[field] = shown.signature(config, prof.name, field, prof.tool_version)
        return signatures[field]

    rows = sentence_row_scores(family, stats, config)
    shared = signature(nrefs) if isinstance(nrefs, str) else (lambda i: signature(nrefs(i)))
    return SentenceScores(family.name, config, prof.name, rows, shared, _renderer(shown, width))


def score(metric: str, hyps: Sequence[Any] | None = None, refs: Any = None, profile: str | None = None, *,
          refs_orientation: str = "streams", width: int | None = None, target: Any = None,
          prediction: Any = None, **knobs: Any) -> Score:
    """Corpus-level score of ``hyps`` against the references ``refs``, as the profile's tool computes it.

    Parameters:

    - ``metric``: a family name (``"bleu"``, ``"chrf"``, ``"ter"``, ``"rouge"``, ``"meteor"``,
      ``"cider"``, ``"nist"``, ``"coco"``, ``"gleu"``);
    - ``hyps``: the hypotheses, one string per segment (a token list per segment for profiles
      with ``tokenize="none"``);
    - ``refs``: reference *streams*, one list per reference set, each aligned with ``hyps``
      (sacrebleu's shape); one list of references per segment (NLTK's shape) needs
      ``refs_orientation="segments"``; pycocoevalcap's ``{image_id: [captions]}`` dicts are accepted
      for ``hyps`` and ``refs`` together;
    - ``profile``: the tool to reproduce (``"nltk"``, ``"bleu/nltk"``; None: the family's default,
      ``assay profiles METRIC`` lists them);
    - ``width``: decimals of the printed text (None: the tool's);
    - ``target``/``prediction``: rouge-score's argument names, instead of ``refs``/``hyps``;
    - ``knobs``: knob values over the profile's (``assay knobs METRIC``).

    Returns a :class:`~assay.core.score.Score`: ``value`` (the tool's number, on its scale),
    ``text`` (what the tool prints), ``signature``, ``components()``, ``to_json()``. Raises
    :class:`~assay.core.errors.InputError` for bad input and :class:`~assay.core.errors.KnobError`
    for an unknown metric, profile or knob (both :class:`~assay.core.errors.AssayError`).

    >>> result = score("bleu", ["the cat sat on the mat", "a dog barked loudly"], [["the cat sat on the mat", "the dog barked loudly"]])
    >>> round(result.value, 2), result.signature
    (83.76, 'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0')
    """
    hyps, refs = target_prediction(hyps, refs, target, prediction)
    return score_configured(configure(metric, profile, "corpus", **knobs), hyps, refs,
                            refs_orientation=refs_orientation, width=width)


def sentence_scores(metric: str, hyps: Sequence[Any] | None = None, refs: Any = None, profile: str | None = None,
                    *, refs_orientation: str = "streams", width: int | None = None, target: Any = None,
                    prediction: Any = None, **knobs: Any) -> SentenceScores:
    """One score per segment, with the tool's sentence-level defaults (e.g. sacrebleu's ``sentence_bleu``,
    which turns effective order on).

    Parameters and errors as :func:`score`. Returns a :class:`~assay.core.score.SentenceScores`: a
    read-only sequence of :class:`~assay.core.score.Score`, one per hypothesis, in order, each made
    when it is read; ``.values`` holds every value as a float64 numpy array (a million segments cost
    8 bytes each, not a Score object each).

    >>> [round(s.value, 2) for s in sentence_scores("bleu", ["the cat sat on the mat", "a dog barked loudly"], [["the cat sat on the mat", "the dog barked loudly"]])]
    [100.0, 59.46]
    """
    hyps, refs = target_prediction(hyps, refs, target, prediction)
    return sentence_scores_configured(configure(metric, profile, "sentence", **knobs), hyps, refs,
                                      refs_orientation=refs_orientation, width=width)
