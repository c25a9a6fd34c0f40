"""Every profile of every metric on one input: scores side by side, spreads, attributions.

``compare(hyps, refs)`` scores the corpus under every profile of every reported metric, one
:class:`~assay.engine.evaluate.Evaluator` per metric, so tokenisation and statistics are computed once
per distinct set of statistics knobs and shared by all profiles and attribution coalitions.

How a metric is presented is one entry in :data:`VIEWS` (the only place to touch when a family
is added; a family without an entry gets :func:`default_view`): its rows (*measures*, e.g.
ROUGE-1/2/L/Lsum, each a set of knobs put on top of every profile), the factor that brings the
tool's scale to the common 0-100 column, whether lower is better, and how to show a segment's
tokens. A profile that cannot run on the input (too many references, a missing dependency, the
tool's own crash) becomes a row with the reason, never an exception.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from assay.core.errors import AssayError, KnobError
from assay.core.knobs import Config
from assay.engine.api import check_max_refs
from assay.engine.evaluate import Evaluator
from assay.engine.registry import METRIC_NAMES, get_family
from assay.jobs.attribution import EXACT_PLAYERS, SCALE_KNOB, Attribution, attribute
from assay.metrics.rouge.text import TextPipeline
from assay.metrics.ter.family import tokenizer_of
from assay.profiles.registry import DEFAULT_PROFILE, Profile, profiles_of
from assay.text.segments import tokenize_segments

Tokens = Callable[[Sequence[str], Config], list[list[str]]]
Progress = Callable[[str], None]


# ----------------------------------------------------------------------------- presentation
@dataclass(frozen=True)
class Measure:
    """One row group of a metric: a label and the knobs set on top of every profile."""

    label: str
    knobs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MetricView:
    """How one metric family appears in compare and report.

    ``factor(config)`` multiplies a value on the tool's scale to the normalised 0-100 column
    (None: the metric has no bounded common scale and is shown as is, e.g. NIST).
    """

    metric: str
    measures: tuple[Measure, ...]
    factor: Callable[[Config], float] | None
    lower_is_better: bool = False
    tokens: Tokens | None = None
    scale_note: str = ""
    text_input: bool = True     # False: not scored from -i/-r text files (e.g. coco's JSON captions)
    reports: Callable[[Profile, Measure], bool] | None = None   # does the tool print this measure?
    merge: str = "sample"         # beyond the exact player limit (attribution.attribute's merge)
    scale_label: str = "0-100"    # the printed scale of the normalised column (axes, summary)


def _per_scale(full: float) -> Callable[[Config], float]:
    """0-100 from a ``scale`` knob: value * full / scale (1 -> x100, 100 -> x1)."""
    return lambda config: full / float(config[SCALE_KNOB])


def _fixed(factor: float) -> Callable[[Config], float]:
    return lambda config: factor


def _word_tokens(texts: Sequence[str], config: Config) -> list[list[str]]:
    return tokenize_segments(list(texts), config)


def _ter_tokens(texts: Sequence[str], config: Config) -> list[list[str]]:
    return tokenizer_of(config).tokenize_lines(list(texts))


def _rouge_tokens(texts: Sequence[str], config: Config) -> list[list[str]]:
    pipe = TextPipeline(config["tokenizer"], config["stemmer"], config["stopwords"], config["stem_min_length"],
                        config["exceptions_path"], config["stopwords_path"], config["lowercase"])
    return [pipe.tokens(t) for t in texts]


def _meteor_tokens(texts: Sequence[str], config: Config) -> list[list[str]]:
    return [[w.lower() if config["lowercase"] else w for w in t.split()] for t in texts]


def _chrf_tokens(texts: Sequence[str], config: Config) -> list[list[str]]:
    """chrF reads characters: the words as sacrebleu sees them (lowercased if set)."""
    return [(t.lower() if config["lowercase"] else t).split() for t in texts]


def _rouge_reports(profile: Profile, measure: Measure) -> bool:
    """Does the profile's tool print this ROUGE type: one of its own ``types``, or one its
    ``Profile.reported_measures`` patterns name (rouge-score computes any type; ROUGE-1.5.5 prints
    ROUGE-N and its ROUGE-L is rougeLsum; pycocoevalcap prints ROUGE_L only)."""
    (kind,) = measure.knobs["types"]
    own = tuple(profile.knobs.get("types", ()))
    return kind in own or any(fnmatchcase(kind, pattern) for pattern in profile.reported_measures)


#: the one table to extend when a family is added (families without an entry: default_view)
VIEWS: dict[str, MetricView] = {v.metric: v for v in (
    MetricView("bleu", (Measure("BLEU"),), _per_scale(100.0), tokens=_word_tokens),
    MetricView("nist", (Measure("NIST"),), None, tokens=_word_tokens, scale_label="NIST",
               scale_note="NIST has no bounded scale; shown as is"),
    MetricView("chrf", (Measure("chrF"),), _per_scale(100.0), tokens=_chrf_tokens),
    MetricView("ter", (Measure("TER"),), _per_scale(100.0), lower_is_better=True, tokens=_ter_tokens),
    MetricView("rouge", tuple(Measure(t, {"types": (t,)}) for t in ("rouge1", "rouge2", "rougeL", "rougeLsum")),
               _fixed(100.0), tokens=_rouge_tokens, reports=_rouge_reports,
               scale_note="F-measure x 100; ROUGE-1.5.5's ROUGE-L is rougeLsum"),
    MetricView("cider", (Measure("CIDEr"),), _per_scale(1000.0), tokens=_word_tokens, scale_label="CIDEr x100",
               scale_note="CIDEr-D x 100 as papers print it (pycocoevalcap's value x 100; scale 1 x 1000)"),
    MetricView("meteor", (Measure("METEOR"),), _fixed(100.0), tokens=_meteor_tokens),
    MetricView("gleu", (Measure("GLEU"),), _per_scale(100.0), tokens=_word_tokens),
    MetricView("coco", (), None, text_input=False,
               scale_note="composite of the caption toolkit on COCO JSON: `assay score coco`"),
)}


def default_view(metric: str) -> MetricView:
    """A family without an entry in VIEWS: one row, normalised by its ``scale`` knob if it has one."""
    has_scale = SCALE_KNOB in get_family(metric).knobset
    return MetricView(metric, (Measure(metric),), _per_scale(100.0) if has_scale else None,
                      scale_label="0-100" if has_scale else "tool scale")


def view_of(metric: str) -> MetricView:
    return VIEWS.get(metric) or default_view(metric)


# ----------------------------------------------------------------------------- results
@dataclass
class Row:
    """One profile's score on one measure (value None: could not run, see ``reason``)."""

    metric: str
    measure: str
    profile: str
    tool: str
    tool_versions: tuple[str, ...]
    default: bool
    value: float | None
    normalised: float | None
    reason: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"metric": self.metric, "measure": self.measure, "profile": self.profile, "tool": self.tool,
                "tool_versions": list(self.tool_versions), "default": self.default, "value": self.value,
                "normalised": self.normalised, "reason": self.reason}


@dataclass
class Table:
    metric: str
    measure: Measure
    rows: list[Row]

    @property
    def scored(self) -> list[Row]:
        return [r for r in self.rows if r.value is not None]

    @property
    def spread(self) -> float | None:
        """max - min over the profiles that ran, on the normalised column (the tool column when the
        metric has no common scale)."""
        vals = [r.normalised if r.normalised is not None else r.value for r in self.scored]
        return (max(vals) - min(vals)) if vals else None

    def most_divergent(self) -> tuple[str, str] | None:
        rows = self.scored
        if len(rows) < 2:
            return None
        key = lambda r: r.normalised if r.normalised is not None else r.value  # noqa: E731
        lo, hi = min(rows, key=key), max(rows, key=key)
        return (lo.profile, hi.profile) if lo is not hi else None


@dataclass
class Comparison:
    """Scores of every profile of every metric on one corpus, plus the evaluators that hold it."""

    n_segments: int
    n_refs: int
    tables: list[Table]
    skipped: dict[str, str]
    evaluators: dict[str, Evaluator]
    hyps: list[str]
    refs: list[list[str | None]]

    def table(self, metric: str, measure: str | None = None) -> Table:
        for t in self.tables:
            if t.metric == metric and (measure is None or t.measure.label == measure):
                return t
        raise KnobError(f"no table for metric {metric!r}" + (f", measure {measure!r}" if measure else ""))

    def as_dict(self) -> dict[str, Any]:
        return {"segments": self.n_segments, "references": self.n_refs,
                "metrics": [{"metric": t.metric, "measure": t.measure.label, "spread": t.spread,
                             "normalised": view_of(t.metric).factor is not None,
                             "lower_is_better": view_of(t.metric).lower_is_better,
                             "profiles": [r.as_dict() for r in t.rows]} for t in self.tables],
                "skipped": dict(self.skipped)}


def default_profile(metric: str) -> str:
    names = [p.name for p in profiles_of(metric)]
    name = DEFAULT_PROFILE.get(metric)
    return name if name in names else names[0]


def select_metrics(metrics: Sequence[str] | None) -> list[str]:
    if not metrics:   # the presentation order of VIEWS first, then any other family
        return [m for m in VIEWS if m in METRIC_NAMES] + [m for m in METRIC_NAMES if m not in VIEWS]
    out = []
    for m in metrics:
        for part in m.split(","):
            name = part.strip().lower()
            if name not in METRIC_NAMES:
                raise KnobError(f"unknown metric {name!r}; known: {', '.join(METRIC_NAMES)}")
            if name not in out:
                out.append(name)
    return out


def _profile_wanted(metric: str, name: str, wanted: Sequence[str] | None) -> bool:
    if not wanted:
        return True
    for w in wanted:
        if "/" in w:
            m, p = w.split("/", 1)
            if m.lower() == metric and p == name:
                return True
        elif w == name:
            return True
    return False


def measure_config(ev: Evaluator, profile: str, measure: Measure, level: str = "corpus") -> Config:
    return ev.config(profile, level, **dict(measure.knobs))[0]


def progress_steps(metrics: Sequence[str] | None = None, profiles: Sequence[str] | None = None) -> int:
    """How many times :func:`compare` calls its ``progress`` hook (one per metric, measure and profile
    scored): the total of a progress bar over the comparison."""
    total = 0
    for metric in select_metrics(metrics):
        view = view_of(metric)
        if view.text_input and view.measures:
            total += len(view.measures) * sum(_profile_wanted(metric, p.name, profiles) for p in profiles_of(metric))
    return total


def _joint_measures(view: MetricView) -> dict[str, tuple[Any, ...]]:
    """The knob every measure of ``view`` sets to a one-element tuple (ROUGE's ``types``), with the
    measures' values joined: the evaluator computes them in one pass (:class:`Evaluator` ``joint``)."""
    knobs = {tuple(m.knobs) for m in view.measures}
    if len(view.measures) < 2 or len(knobs) != 1 or len(next(iter(knobs))) != 1:
        return {}
    (knob,) = next(iter(knobs))
    values = [m.knobs[knob] for m in view.measures]
    if not all(isinstance(v, tuple) and len(v) == 1 for v in values):
        return {}
    return {knob: tuple(v[0] for v in values)}


def compare(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], metrics: Sequence[str] | None = None,
            profiles: Sequence[str] | None = None, progress: Progress | None = None) -> Comparison:
    """Score ``hyps`` against reference streams under every selected profile of every metric."""
    hyps = list(hyps)
    streams = [list(s) for s in refs]
    tables: list[Table] = []
    skipped: dict[str, str] = {}
    evaluators: dict[str, Evaluator] = {}
    for metric in select_metrics(metrics):
        view = view_of(metric)
        if not view.text_input or not view.measures:
            skipped[metric] = view.scale_note or "not scored from text files"
            continue
        profs = [p for p in profiles_of(metric) if _profile_wanted(metric, p.name, profiles)]
        if not profs:
            skipped[metric] = "no selected profile"
            continue
        ev = Evaluator(metric, hyps, streams, joint=_joint_measures(view))
        evaluators[metric] = ev
        default = default_profile(metric)
        for measure in view.measures:
            rows = []
            for prof in profs:
                if progress:
                    progress(f"{metric}/{prof.name} {measure.label}")
                value = norm = None
                reason = None
                try:
                    if view.reports is not None and not view.reports(prof, measure):
                        raise AssayError(f"{prof.tool} does not report {measure.label}")
                    check_max_refs(prof, len(streams))
                    config = measure_config(ev, prof.name, measure)
                    value = ev.value(config)
                    norm = value * view.factor(config) if view.factor else None
                    if not math.isfinite(value):
                        raise AssayError(f"non-finite score {value!r}")
                except AssayError as exc:
                    value = norm = None
                    reason = _reason(exc)
                rows.append(Row(metric, measure.label, prof.name, prof.tool, prof.tool_versions,
                                prof.name == default, value, norm, reason))
            tables.append(Table(metric, measure, rows))
    return Comparison(len(hyps), len(streams), tables, skipped, evaluators, hyps, streams)


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    tool_error = getattr(exc, "tool_error", None)
    return f"{tool_error}: {text}" if tool_error else text


# ----------------------------------------------------------------------------- attribution
@dataclass
class SegmentDiff:
    """One segment's sentence-level scores under the two profiles (normalised where possible)."""

    index: int                  # 0-based
    a: float
    b: float
    contribution: float | None = None   # corpus diff minus corpus diff without this segment
    tokens_a: list[str] | None = None
    tokens_b: list[str] | None = None
    ref_tokens_a: list[str] | None = None
    ref_tokens_b: list[str] | None = None

    @property
    def diff(self) -> float:
        return self.b - self.a

    def as_dict(self, text: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"segment": self.index + 1, "a": self.a, "b": self.b, "diff": self.diff,
                               "contribution": self.contribution}
        if text:
            out.update(tokens_a=self.tokens_a, tokens_b=self.tokens_b,
                       ref_tokens_a=self.ref_tokens_a, ref_tokens_b=self.ref_tokens_b)
        return out


@dataclass
class PairAttribution:
    """Attribution of B - A on one measure, with the parts on the normalised scale and the segments."""

    metric: str
    measure: str
    a: str
    b: str
    attribution: Attribution
    normalised_parts: dict[str, float] | None
    segments: list[SegmentDiff]
    segment_note: str = ""
    start_normalised: float | None = None
    end_normalised: float | None = None
    factor: float | None = None    # tool-scale parts (on scale_on) x factor = normalised parts

    def part(self, name: str) -> float:
        """Player ``name``'s part on the normalised scale when there is one, else on the tool scale."""
        return (self.normalised_parts or self.attribution.parts)[name]

    def ci95(self, name: str) -> float | None:
        """Sampled attributions: the 95% confidence half-width of ``part(name)`` (None when exact)."""
        half = self.attribution.ci95.get(name)
        if half is None:
            return None
        factor = self.factor
        return half * (factor if factor is not None else 1.0)

    def as_dict(self, text: bool = True) -> dict[str, Any]:
        return {"metric": self.metric, "measure": self.measure, "from": self.a, "to": self.b,
                **{k: v for k, v in self.attribution.as_dict().items() if k not in ("metric",)},
                "ci95_normalised": ({k: self.ci95(k) for k in self.attribution.ci95}
                                    if self.normalised_parts is not None else None),
                "normalised_parts": self.normalised_parts, "start_normalised": self.start_normalised,
                "end_normalised": self.end_normalised, "segment_note": self.segment_note,
                "segments": [s.as_dict(text) for s in self.segments]}


def sentence_values(cmp: Comparison, metric: str, measure: Measure, profile: str) -> np.ndarray:
    """Sentence-level values (the tool's sentence-level defaults), normalised when the metric has a
    common scale. Cached on the comparison."""
    cache: dict[tuple[str, str, str], np.ndarray] = cmp.__dict__.setdefault("_sentence_cache", {})
    key = (metric, measure.label, profile)
    if key not in cache:
        ev = cmp.evaluators[metric]
        config = measure_config(ev, profile, measure, "sentence")
        values = ev.sentence_values(config)
        view = view_of(metric)
        cache[key] = values * view.factor(config) if view.factor else values
    return cache[key]


def attribute_pair(cmp: Comparison, metric: str, measure: str | None, a: str, b: str, *, top: int = 10,
                   with_tokens: bool = True, max_players: int = EXACT_PLAYERS) -> PairAttribution:
    """Shapley attribution of profile ``b``'s score minus profile ``a``'s on one measure, and the
    ``top`` segments whose sentence scores differ most between the two."""
    table = cmp.table(metric, measure)
    ev = cmp.evaluators[metric]
    view = view_of(metric)
    norms = []
    for name in (a, b):
        row = next((r for r in table.rows if r.profile == name), None)
        if row is None:
            raise KnobError(f"profile {name!r} is not among the compared {metric} profiles")
        if row.value is None:
            raise KnobError(f"{metric}/{name} has no score on this input: {row.reason}")
        norms.append(row.normalised)
    ca = measure_config(ev, a, table.measure)
    cb = measure_config(ev, b, table.measure)
    result = attribute(ev, ca, cb, a, b, max_players=max_players, merge=view.merge)
    normalised = None
    if view.factor is not None and (result.scale_on is not None or SCALE_KNOB not in ca):
        held = dict(ca.as_dict())
        if result.scale_on is not None and SCALE_KNOB in held:
            held[SCALE_KNOB] = type(ca[SCALE_KNOB])(result.scale_on)
        factor = view.factor(held)  # type: ignore[arg-type]
        normalised = {k: (0.0 if k == SCALE_KNOB else v * factor) for k, v in result.parts.items()}
    segments, note = [], ""
    try:
        va = sentence_values(cmp, metric, table.measure, a)
        vb = sentence_values(cmp, metric, table.measure, b)
        loo = leave_one_out(cmp, metric, ca, cb)
        rank = np.abs(loo) if loo is not None else np.abs(vb - va)
        order = np.argsort(-rank, kind="stable")[:top]
        segments = [SegmentDiff(int(i), float(va[i]), float(vb[i]), None if loo is None else float(loo[i]))
                    for i in order if rank[i] != 0]
        scale = ", normalised to 0-100" if view.factor else ""
        note = (f"ranked by contribution = corpus difference (to - from{scale}) minus the corpus difference "
                f"without the segment; from/to/diff are sentence-level scores{scale} (each tool's "
                f"sentence-level defaults)" if loo is not None else
                f"ranked by the difference of sentence-level scores{scale} (each tool's sentence-level defaults); "
                f"this corpus score is not a function of summed statistics")
    except AssayError as exc:
        note = f"no sentence-level view: {_reason(exc)}"
    if with_tokens and segments and view.tokens is not None:
        _add_tokens(cmp, view, table.measure, ev, a, b, segments)
    return PairAttribution(metric, table.measure.label, a, b, result, normalised, segments, note,
                           norms[0] if normalised is not None else None, norms[1] if normalised is not None else None,
                           factor if normalised is not None else None)


def local_profile(name: str, metric: str) -> str | None:
    """A profile named on the command line, for ``metric``: NAME applies to every metric, METRIC/NAME
    only to its metric (None for another metric)."""
    if "/" in name:
        m, p = name.split("/", 1)
        return p if m.lower() == metric else None
    return name


def attribute_tables(cmp: Comparison, a: str, b: str, *, top: int = 10, max_players: int = EXACT_PLAYERS,
                     progress: Progress | None = None) -> tuple[list[PairAttribution], list[str]]:
    """``--attribute A B``: the attribution of B - A on every table that has scores of both profiles, and
    why a table that has both profiles has none (``"metric measure: reason"``). ``progress`` is called
    once per table of ``cmp`` (``len(cmp.tables)`` calls)."""
    pairs: list[PairAttribution] = []
    unavailable: list[str] = []
    for table in cmp.tables:
        if progress:
            progress(f"attribution {table.metric} {table.measure.label}")
        pa, pb = local_profile(a, table.metric), local_profile(b, table.metric)
        if pa is None or pb is None:
            continue
        names = {r.profile for r in table.rows}
        if pa in names and pb in names:
            try:
                pairs.append(attribute_pair(cmp, table.metric, table.measure.label, pa, pb, top=top,
                                            max_players=max_players))
            except KnobError as exc:
                unavailable.append(f"{table.metric} {table.measure.label}: {exc}")
    return pairs, unavailable


def leave_one_out(cmp: Comparison, metric: str, ca: Config, cb: Config) -> np.ndarray | None:
    """Per segment: D(corpus) - D(corpus without the segment), D = normalised score(cb) - score(ca);
    None when a corpus score is not a function of summed rows (or the corpus has one segment)."""
    ev = cmp.evaluators[metric]
    view = view_of(metric)
    if cmp.n_segments < 2:
        return None
    out = []
    for config in (ca, cb):
        rows = ev.stats(config).rows
        try:
            loo = ev.family.scores_from_sums(rows.sum(axis=0)[None, :] - rows, config)
            full = ev.value(config)
        except KnobError:
            return None
        factor = view.factor(config) if view.factor else 1.0
        out.append((full * factor, np.asarray(loo, dtype=np.float64) * factor))
    (fa, la), (fb, lb) = out
    return (fb - fa) - (lb - la)


def _add_tokens(cmp: Comparison, view: MetricView, measure: Measure, ev: Evaluator, a: str, b: str,
                segments: list[SegmentDiff]) -> None:
    hyps = [cmp.hyps[s.index] for s in segments]
    first = [next((st[s.index] for st in cmp.refs if st[s.index] is not None), "") for s in segments]
    assert view.tokens is not None
    for name, attr, ref_attr in ((a, "tokens_a", "ref_tokens_a"), (b, "tokens_b", "ref_tokens_b")):
        config = measure_config(ev, name, measure)
        try:
            toks = view.tokens(hyps, config)
            rtoks = view.tokens(first, config)
        except Exception:   # showing tokens is best effort; the scores above stand
            continue
        for seg, t, r in zip(segments, toks, rtoks):
            setattr(seg, attr, list(t))
            setattr(seg, ref_attr, list(r))


# ----------------------------------------------------------------------------- rendering
def fmt(value: float | None, digits: int = 4) -> str:
    if value is None:
        return "—"
    return f"{value:.{digits}f}"


def _table_rows(t: Table) -> list[list[str]]:
    out = []
    for r in t.rows:
        name = r.profile + (" (default)" if r.default else "")
        versions = ", ".join(r.tool_versions)
        out.append([name, f"{r.tool} {versions}", fmt(r.value, 6), fmt(r.normalised, 2),
                    "" if r.reason is None else r.reason])
    return out


HEADERS = ["profile", "tool (versions verified)", "score (tool scale)", "0-100", "note"]


def render_markdown(cmp: Comparison) -> str:
    lines = [f"{cmp.n_segments} segments, {cmp.n_refs} reference(s)", ""]
    for t in cmp.tables:
        view = view_of(t.metric)
        better = "lower is better" if view.lower_is_better else "higher is better"
        lines.append(f"### {t.metric} — {t.measure.label} ({better}; spread {fmt(t.spread, 2)}"
                     f"{'' if view.factor else ' on the tool scale'})")
        if view.scale_note:
            lines.append(f"\n_{view.scale_note}_")
        lines += ["", markdown_table(HEADERS, _table_rows(t)), ""]
    for m, why in cmp.skipped.items():
        lines.append(f"- {m}: skipped ({why})")
    return "\n".join(lines).rstrip() + "\n"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table (tabulate's ``pipe`` format; cells taken as text, ``|`` and
    line breaks in a cell escaped)."""
    from tabulate import tabulate

    esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    return str(tabulate([[esc(c) for c in row] for row in rows], headers=[esc(h) for h in headers],
                        tablefmt="pipe", disable_numparse=True, stralign="left"))


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain-text table for the terminal (tabulate's ``simple`` format, cells taken as text)."""
    from tabulate import tabulate

    return str(tabulate([[str(c) for c in row] for row in rows], headers=list(headers), tablefmt="simple",
                        disable_numparse=True, stralign="left"))


def render_text(cmp: Comparison) -> str:
    lines = [f"{cmp.n_segments} segments, {cmp.n_refs} reference(s)", ""]
    for t in cmp.tables:
        view = view_of(t.metric)
        better = "lower is better" if view.lower_is_better else "higher is better"
        lines.append(f"== {t.metric}: {t.measure.label}  ({better}; spread {fmt(t.spread, 2)}"
                     f"{'' if view.factor else ' on the tool scale'})")
        lines += [text_table(HEADERS, _table_rows(t)), ""]
    for m, why in cmp.skipped.items():
        lines.append(f"{m}: skipped ({why})")
    return "\n".join(lines).rstrip() + "\n"


def _part_rows(pa: PairAttribution) -> list[list[str]]:
    """One row per player with an effect (sampled: ``estimate ± 95% half-width``), the players without
    effect folded into one ``no effect`` row (:attr:`Attribution.no_effect`), then the total."""
    att = pa.attribution
    rows = []
    for name, part in att.effective.items():
        changes = "; ".join(f"{k}: {_show(att.changes[k][0])} → {_show(att.changes[k][1])}"
                            for k in att.groups.get(name, (name,)) if k in att.changes)
        half = att.ci95.get(name)
        tool = f"{part:+.6f}" + (f" ± {half:.6f}" if half is not None else "")
        norm = "—" if pa.normalised_parts is None else f"{pa.normalised_parts[name]:+.4f}"
        if pa.normalised_parts is not None and half is not None:
            norm += f" ± {pa.ci95(name):.4f}"
        rows.append([name, changes, tool, norm])
    if att.no_effect:
        rows.append(["no effect", ", ".join(att.no_effect), f"{0.0:+.6f}",
                     "—" if pa.normalised_parts is None else f"{0.0:+.4f}"])
    rows.append(["total", f"{fmt(att.start, 6)} → {fmt(att.end, 6)}", f"{att.total:+.6f}",
                 "—" if pa.normalised_parts is None else f"{sum(pa.normalised_parts.values()):+.4f}"])
    return rows


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ",".join(_show(v) for v in value) + ")"
    return str(value)


PART_HEADERS = ["knob(s)", "change", "part (tool scale)", "part (0-100)"]
SEG_HEADERS = ["segment", "contribution", "from", "to", "diff"]


def _segment_rows(pa: PairAttribution, text: bool) -> list[list[str]]:
    rows = []
    for s in pa.segments:
        row = [str(s.index + 1), "—" if s.contribution is None else f"{s.contribution:+.4f}",
               fmt(s.a, 2), fmt(s.b, 2), f"{s.diff:+.2f}"]
        if text:
            row += [" ".join(s.tokens_a) if s.tokens_a is not None else "—",
                    " ".join(s.tokens_b) if s.tokens_b is not None else "—"]
        rows.append(row)
    return rows


def render_attribution(pa: PairAttribution, markdown: bool = False, text: bool = True) -> str:
    title = f"{pa.metric} {pa.measure}: {pa.a} → {pa.b}"
    table = markdown_table if markdown else text_table
    seg_headers = SEG_HEADERS + ([f"hyp tokens ({pa.a})", f"hyp tokens ({pa.b})"] if text else [])
    out = [("### " if markdown else "== ") + title, "", table(PART_HEADERS, _part_rows(pa)), ""]
    out += [("- " if markdown else "  ") + n for n in pa.attribution.notes]
    if pa.segments:
        out += ["", f"Segments that differ most ({pa.segment_note}):", "", table(seg_headers, _segment_rows(pa, text))]
    elif pa.segment_note:
        out += ["", pa.segment_note]
    return "\n".join(out).rstrip() + "\n"
