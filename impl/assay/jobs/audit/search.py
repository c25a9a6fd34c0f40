"""Evaluate a configuration space on one corpus and keep the configurations that give a claim.

One :class:`~assay.engine.evaluate.Evaluator` per (reference subset, input preprocessing): it computes
each distinct set of per-segment statistics once. Knobs that only the score stage reads reuse
the statistics; for BLEU the smoothing method is also read by ``segment_stats`` (only to decide
whether NLTK methods 5/7's extra 5-gram columns are needed), so the search asks for statistics
under the canonical smoothing ``exp`` whenever the method needs no extra columns — the columns
and rows are then identical (checked by conformance/test_audit.py), and the smoothing grid costs
no extra tokenisation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

from assay.core.errors import AssayError, KnobError, MissingDependencyError
from assay.core.knobs import Config
from assay.core.score import Score
from assay.engine.api import check_max_refs
from assay.engine.evaluate import Evaluator
from assay.engine.registry import get_family
from assay.jobs.audit import space as sp
from assay.core.progress import Progress, ProgressBar
from assay.jobs.audit.claims import Claim
from assay.jobs.audit.language import Language, resolve
from assay.jobs.audit.space import Candidate, RefSubset
from assay.profiles.audit import LANGUAGE_NAMES, TOKENIZER_RESOURCES, language_tokenizer
from assay.metrics.cider.tokens import ptb_batch
from assay.profiles.registry import get_profile, profiles_of
from assay.tokenizers import moses


@dataclass
class Evaluated:
    """A candidate with its score on the claim's scale (``value``) or the reason it has none."""

    candidate: Candidate
    value: float | None
    error: str | None = None
    printing: str = "round"      # how the value was printed to give the claim: round | round-twice | truncate

    @property
    def ok(self) -> bool:
        return self.value is not None and math.isfinite(self.value)

    @property
    def reason(self) -> str | None:
        """``error`` in words: the message without the exception's class name (``KnobError: ...``)."""
        if self.error is None:
            return None
        head, sep, rest = self.error.partition(": ")
        return rest if sep and head.isidentifier() and head[:1].isupper() else self.error

    @property
    def cost(self) -> float:
        """The candidate's cost, plus :data:`PRINTING_COST` of an unusual printing."""
        return round(self.candidate.cost + PRINTING_COST.get(self.printing, 0.0), 6)

    @property
    def departures(self) -> int:
        return self.candidate.departures + (self.printing != "round")


#: printing the score otherwise than rounding it once to the claim's decimals (tried, at a cost)
PRINTING_COST = {"round": 0.0, "round-twice": 0.7, "truncate": 0.8}


@dataclass
class AuditResult:
    claim: Claim
    evaluated: list[Evaluated]
    matches: list[Evaluated]
    standard: Evaluated
    notes: list[str] = field(default_factory=list)

    def nearest(self, k: int = 5) -> list[Evaluated]:
        """The ``k`` configurations closest to the claim, one per distinct score (the most common
        configuration giving it)."""
        ok = sorted((e for e in self.evaluated if e.ok),
                    key=lambda e: (abs(e.value - self.claim.value), e.candidate.cost, e.candidate.departures))
        out: list[Evaluated] = []
        seen: set[float] = set()
        for e in ok:
            key = float(f"{e.value:.10g}")
            if key not in seen:
                seen.add(key)
                out.append(e)
                if len(out) == k:
                    break
        return out


def _takes(cand: Candidate, n_refs: int) -> bool:
    """Whether the candidate's profile takes ``n_refs`` references (a swapped label is not searched on
    tools that cannot read the references given)."""
    limit = get_profile(cand.metric, cand.profile).max_refs
    return limit is None or n_refs <= limit


class Auditor:
    """One system output and its reference streams, audited for claims of one metric family."""

    def __init__(self, metric: str, hyps: Sequence[str], ref_streams: Sequence[Sequence[str | None]],
                 lang: str | None = "en", preprocessing: bool = True, single_refs: bool = True, thorough: bool = False,
                 captions: bool = False, ref_names: Sequence[str] | None = None,
                 language: Language | None = None, swap: bool = True):
        self.metric = metric.lower()
        get_family(self.metric)
        self.hyps = list(hyps)
        self.streams = [list(s) for s in ref_streams]
        #: the target language: given (``lang``, a code or a pair such as en-ja) or detected from ``hyps``
        self.language = language if language is not None else resolve(lang, self.hyps)
        self.lang = self.language.moses
        self.ref_names = list(ref_names) if ref_names else None
        self.swap = swap
        self._siblings: dict[str, Auditor] = {}
        self.preprocessing = preprocessing
        self.single_refs = single_refs
        self.thorough = thorough
        self.captions = captions
        self.notes: list[str] = []
        self._evaluators: dict[tuple[str, str], Evaluator] = {}
        self._prepped: dict[tuple[str, int], list[str | None]] = {}
        self._values: dict[Candidate, Evaluated] = {}
        self._corpus_facts: dict[int, tuple[bool, bool]] = {}
        self._drops_empty_refs = {p.name for p in profiles_of(self.metric) if p.drops_empty_refs}
        has_empty = any(r is not None and not r.strip() for s in self.streams for r in s)
        self.subsets = sp.name_subsets(sp.ref_subsets(len(self.streams), has_empty, single_refs,
                                                      reorder=self.metric in sp.ORDER_SENSITIVE_METRICS),
                                       self.ref_names)
        self.preps = self._available_preps()
        self.notes += self._language_notes()
        self._options = dict(preprocessing=preprocessing, single_refs=single_refs, thorough=thorough,
                             captions=captions)

    # ------------------------------------------------------------------ language
    def _language_notes(self) -> list[str]:
        """What the target language means for this search, in words (when it matters for the metric)."""
        lang = self.language
        if "tokenize" not in get_family(self.metric).knobset or self.captions:
            return []
        name = LANGUAGE_NAMES.get(lang.code or "", lang.code or "")
        std = language_tokenizer(lang.code)
        out = []
        if lang.how == "detected":
            out.append(f"target language {name} ({lang.code}), detected from the hypothesis text ({lang.evidence}); "
                       f"give --lang to say otherwise")
        elif lang.how == "not detected":
            out.append(f"target language not given; the text is not Chinese, Japanese or Korean ({lang.evidence}), "
                       f"so BLEU's standard tokenizer is 13a (give --lang, e.g. --lang en-ja, to say otherwise)")
        if std != "13a":
            out.append(f"the standard BLEU tokenizer for {name} is {std} (sacrebleu's choice for -l xx-{lang.code})")
        missing = sp.missing_tokenizers(self.metric, lang.code)
        if std in missing:
            out.append(f"tokenizer {std}, the standard for {name}, cannot be searched: assay does not implement it "
                       f"(sacrebleu needs {TOKENIZER_RESOURCES.get(std, 'a resource assay does not have')}); "
                       f"a number made with it is not reproduced here")
        others = [t for t in missing if t != std]
        if others:
            needs = sorted({TOKENIZER_RESOURCES.get(t, "a resource assay does not have") for t in others})
            out.append(f"sacrebleu's tokenizers {', '.join(others)} are not searched: assay does not implement "
                       f"them (sacrebleu needs {'; '.join(needs)})")
        return out

    def sibling(self, metric: str) -> "Auditor":
        """An auditor of another family on the same corpus and language (a swapped label is searched there)."""
        if metric == self.metric:
            return self
        if metric not in self._siblings:
            self._siblings[metric] = Auditor(metric, self.hyps, self.streams, ref_names=self.ref_names,
                                             language=self.language, swap=False, **self._options)
        return self._siblings[metric]

    # ------------------------------------------------------------------ inputs
    def _available_preps(self) -> tuple[str, ...]:
        if self.captions and self.metric in sp.CAPTION_PREP_METRICS:
            return sp.RAW_PREP + ("ptb",)     # COCOEvalCap's PTBTokenizer before every scorer
        if self.metric != "bleu" or not self.preprocessing:
            return sp.RAW_PREP
        if moses.moses_available():
            return sp.RAW_PREP + (sp.ALL_TOKENISED_PREPS if self.thorough else sp.TOKENISED_PREPS)
        self.notes.append("Moses tokenisation skipped: sacremoses is not installed (pip install 'assay-metrics[moses]'); "
                          "only the ##AT##-##AT## compound split of the given text is tried")
        return sp.RAW_PREP + ("compound",)

    def _prep(self, prep: str, index: int) -> list[str | None]:
        """Stream ``index`` (-1 = hypotheses) under preprocessing ``prep`` (cached)."""
        key = (prep, index)
        if key not in self._prepped:
            lines: list[str | None] = self.hyps if index < 0 else self.streams[index]
            if prep == "raw":
                out = list(lines)
            elif prep == "ptb":
                out = self._ptb(index)
            elif prep == "compound":
                out = moses.compound_split(lines)
            elif prep == "moses+compound":
                out = moses.compound_split(self._prep("moses", index))
            else:
                out = moses.moses_tokenize(lines, self.lang, aggressive=(prep == "moses-a"))
            self._prepped[key] = out
        return self._prepped[key]

    def _ptb(self, index: int) -> list[str | None]:
        """pycocoevalcap's PTBTokenizer as COCOEvalCap batches it: all results in image order in one
        run, all references (image by image, in order) in another."""
        if index < 0:
            return ptb_batch(self.hyps)
        flat = [(i, k) for i in range(len(self.hyps)) for k, s in enumerate(self.streams) if s[i] is not None]
        tokens = ptb_batch([self.streams[k][i] for i, k in flat])
        out: list[list[str | None]] = [[None] * len(self.hyps) for _ in self.streams]
        for (i, k), t in zip(flat, tokens):
            out[k][i] = t
        for k, stream in enumerate(out):
            self._prepped[("ptb", k)] = stream
        return out[index]

    def evaluator(self, refs: RefSubset, prep: str = "raw") -> Evaluator:
        key = (refs.name, prep)
        if key not in self._evaluators:
            hyps = self._prep(prep, -1)
            streams = [self._prep(prep, i) for i in refs.indices]
            if refs.empty_missing:
                streams = [[None if (r is not None and not r.strip()) else r for r in s] for s in streams]
            self._evaluators[key] = Evaluator(self.metric, hyps, streams)
        return self._evaluators[key]

    @property
    def stats_computed(self) -> int:
        return sum(ev.stats_computed for ev in self._evaluators.values())

    # ------------------------------------------------------------------ the space
    def candidates(self, claim: Claim) -> list[Candidate]:
        """Every configuration of the space for this claim (deduplicated, cheapest first): the claim's
        label as written, then read otherwise at a cost (:func:`assay.jobs.audit.space.readings`; a
        swapped family is searched with its tools' own defaults only, unless thorough)."""
        out: dict[tuple, Candidate] = {}
        for reading in sp.readings(self.metric, claim.constraints, swap=self.swap):
            auditor = self.sibling(reading.metric)
            for cand in auditor._reading_candidates(claim, reading):
                if reading.metric != self.metric and (not self.thorough and cand.departures > 1
                                                      or not _takes(cand, len(cand.refs.indices))):
                    continue
                key = (cand.metric, cand.profile, cand.knobs, cand.refs.name, cand.prep, cand.measure, cand.display)
                if key not in out or cand.cost < out[key].cost:
                    out[key] = cand
        return sorted(out.values(), key=lambda c: (c.cost, c.departures, c.label()))

    def _reading_candidates(self, claim: Claim, reading: sp.Reading) -> list[Candidate]:
        out: list[Candidate] = []
        measures: tuple[str | None, ...] = (None,)
        if self.metric == "rouge":
            measures = (claim.measure,) if claim.measure else ("f", "r", "p")
        types = (claim.rouge_types or ("rouge1", "rouge2", "rougeL", "rougeLsum")) if self.metric == "rouge" else ()
        implied = reading.implied()
        for refs in self.subsets:
            # input preprocessing is tried with all references only (a paper that re-tokenised its
            # output scored it against the full reference set); subsets are tried on the raw text with
            # the common tools (thorough: the full product)
            full = self.thorough or refs.kind == "all"
            for prep in (self.preps if full else sp.RAW_PREP):
                for prof, knobs in sp.grids(self.metric, reading.constraints, prep, types, self.language.code):
                    if not full and not sp.on_subsets(self.metric, prof):
                        continue
                    if refs.empty_missing and prof in self._drops_empty_refs:
                        continue   # the tool drops empty reference lines itself
                    base = sp.language_base(self.metric, prof, self.language.code)
                    for measure in measures:
                        for display in sp.DISPLAY_FACTORS.get(self.metric, (1.0,)):
                            out.append(sp.make_candidate(self.metric, prof, knobs, refs, prep, measure, display,
                                                         captions=self.captions, implied=implied, lang_base=base,
                                                         reading=reading))
        return out

    def standard_candidate(self, claim: Claim) -> Candidate:
        prof, knobs, measure = sp.standard(self.metric, claim.constraints, claim.rouge_types, claim.measure,
                                           len(self.streams), self.captions, self.language.code)
        prep = "ptb" if self.captions and self.metric in sp.CAPTION_PREP_METRICS else "raw"
        base = sp.language_base(self.metric, prof, self.language.code)
        implied = sp.readings(self.metric, claim.constraints, swap=False)[0].implied()
        cand = sp.make_candidate(self.metric, prof, knobs, self.subsets[0], prep, measure, 1.0, standard=True,
                                 captions=self.captions, implied=implied, lang_base=base)
        # present the standard score on the claim's scale (a 0-1 tool value next to a 0-100 claim)
        value = self.evaluate(cand).value
        if value is not None and self.metric in ("rouge", "meteor", "cider", "bleu", "gleu") and claim.value > 1.5 * max(value, 1e-12) \
                and abs(value * 100 - claim.value) < abs(value - claim.value):
            cand = sp.make_candidate(self.metric, prof, knobs, self.subsets[0], prep, measure, 100.0, standard=True,
                                     captions=self.captions, implied=implied, lang_base=base)
        return cand

    # ------------------------------------------------------------------ scoring
    def config_of(self, cand: Candidate) -> tuple[Config, Any]:
        ev = self.evaluator(cand.refs, cand.prep)
        return ev.config(cand.profile, **cand.knob_dict)

    def evaluate(self, cand: Candidate) -> Evaluated:
        """The candidate's value on the claim's scale (cached); tool failures become ``error``."""
        if cand.metric != self.metric:
            return self.sibling(cand.metric).evaluate(cand)
        hit = self._values.get(cand)
        if hit is not None:
            return hit
        try:
            ev = self.evaluator(cand.refs, cand.prep)
            config, prof = ev.config(cand.profile, **cand.knob_dict)
            check_max_refs(prof, len(cand.refs.indices))
            if cand.measure is not None:
                score = ev.score(config, prof)
                value = float(score.components[config.types[0]][cand.measure])
            else:
                value = self._fast_value(ev, config)
            result = Evaluated(cand, value * cand.display)
        except MissingDependencyError as exc:
            result = Evaluated(cand, None, f"missing dependency: {exc}")
        except (AssayError, ZeroDivisionError, ValueError, FloatingPointError) as exc:
            result = Evaluated(cand, None, f"{type(exc).__name__}: {exc}")
        self._values[cand] = result
        return result

    def _fast_value(self, ev: Evaluator, config: Config) -> float:
        canonical = self.stats_config(ev, config)
        if canonical is config:
            return ev.value(config)
        return float(ev.family.score_stats(ev.stats(canonical), config)[0])

    def stats_config(self, ev: Evaluator, config: Config) -> Config:
        """BLEU: the configuration whose statistics equal ``config``'s, with knobs that cannot change
        the statistics on this corpus set to one value, so their grid shares one computation:
        ``empty_refs`` (no empty reference line here), ``segment_without_refs`` (every segment has a
        reference). Score-stage knobs such as smoothing never split the statistics cache."""
        if self.metric != "bleu":
            return config
        values = config.as_dict()
        key = id(ev)
        if key not in self._corpus_facts:
            self._corpus_facts[key] = (
                any(r is not None and not r.strip() for s in ev.streams for r in s),
                any(all(s[i] is None for s in ev.streams) for i in range(len(ev.hyps))))
        has_empty, has_orphan = self._corpus_facts[key]
        if not has_empty:
            values["empty_refs"] = "keep"
        if not has_empty and not has_orphan:
            values["segment_without_refs"] = "score"
        if values == config.as_dict():
            return config
        return Config("bleu", ev.family.knobset, values)

    def score(self, cand: Candidate) -> Score:
        """The full Score (components and assay's signature) of a candidate."""
        if cand.metric != self.metric:
            return self.sibling(cand.metric).score(cand)
        ev = self.evaluator(cand.refs, cand.prep)
        config, prof = ev.config(cand.profile, **cand.knob_dict)
        return ev.score(config, prof)

    def signature(self, cand: Candidate) -> str:
        try:
            sig = self.score(cand).signature
        except AssayError as exc:
            return f"(no signature: {exc})"
        extra = []
        if cand.prep != "raw":
            extra.append("input " + sp.PREP_WORDS.get(cand.prep, cand.prep)
                         + (f" ({self.lang})" if cand.prep.startswith("moses") else ""))
        if cand.refs.name != "all":
            extra.append(f"references: {cand.refs.shown or cand.refs.name}")
        if cand.measure not in (None, "f"):
            extra.append({"r": "recall", "p": "precision"}.get(cand.measure, cand.measure) + " reported")
        if cand.display != 1.0:
            extra.append("reported ×100" if cand.display > 1 else "reported ÷100")
        return sig + (" (" + "; ".join(extra) + ")" if extra else "")

    # ------------------------------------------------------------------ search
    def search(self, claim: Claim, progress: Progress | None = None) -> AuditResult:
        """Evaluate every candidate; the matches sorted best explanation first. A value matches when
        printed as the claim (rounded once), or, at :data:`PRINTING_COST`, rounded twice or truncated.
        ``progress`` follows the configurations evaluated (one step each)."""
        if claim.metric != self.metric:
            raise KnobError(f"claim {claim.text!r} is {claim.metric}, this audit is {self.metric}")
        bar = progress if progress is not None else ProgressBar(enabled=False)
        cands = self.candidates(claim)
        bar.add(len(cands))
        evaluated = []
        for c in cands:
            evaluated.append(self.evaluate(c))
            bar.step(claim.text)
        std = self.evaluate(self.standard_candidate(claim))
        matches = []
        for e in evaluated:
            how = claim.printed_as(e.value) if e.ok else None
            if how is not None:
                matches.append(e if how == "round" else replace(e, printing=how))
        matches.sort(key=lambda e: (e.cost, e.departures, abs(e.value - claim.value), e.candidate.label()))
        notes = list(self.notes)
        failed = [e for e in evaluated if not e.ok]
        if failed:
            reasons = sorted({e.reason for e in failed if e.reason})
            shown = "; ".join(reasons[:3]) + (f"; and {len(reasons) - 3} other reasons" if len(reasons) > 3 else "")
            notes.append(f"{len(failed)} of {len(evaluated)} configurations could not be scored: {shown}")
        return AuditResult(claim, evaluated, matches, std, notes)
