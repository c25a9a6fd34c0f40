"""Per-segment data of the report's segment explorer (embedded as JSON in ``index.html``).

For one metric measure (:func:`measure_segments`, run where the measure's section is made, so
also on a Dask worker): every profile's sentence-level score of every kept segment (the engine's
:meth:`~assay.engine.evaluate.Evaluator.sentence_values` under the profile's sentence-level
defaults, normalised like the report's 0-100 column), and, when segment text may be shown, each
distinct tokenisation of the hypothesis and of every reference (the metric view's ``tokens``
under each profile's corpus configuration) with its matched n-grams.

*Matched n-grams*: a token is marked ``n`` (1-4) when it lies inside a word n-gram of length
``n`` that also occurs in a reference (for hypothesis tokens) or in the hypothesis (for reference
tokens) under the same tokenisation, the longest such ``n`` winning. Counts are not clipped: the
marks show what can match, not each tool's matching (chrF matches characters, ROUGE-L a common
subsequence, METEOR stems and synonyms).

The page stays bounded: at most ``cap`` segments per measure (default :data:`CAP`), those whose
profiles disagree most (largest range of sentence scores across profiles); the page says so.
:func:`explorer_json` puts every measure together: segment texts once, numbers rounded.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import AssayError
from assay.jobs.compare import Comparison, Table, measure_config, sentence_values, view_of

CAP = 500        #: segments kept per measure (the most divergent)
MAX_N = 4        #: longest n-gram marked


@dataclass
class Tokenization:
    """One distinct tokenisation of the kept segments, shared by ``profiles``."""

    profiles: list[str]
    hyp: list[list[str]]                      # per kept segment
    refs: list[list[list[str] | None]]        # per kept segment, per reference stream (None: no reference)
    hyp_marks: list[str] = field(default_factory=list)          # one digit 0-4 per hypothesis token
    ref_marks: list[list[str | None]] = field(default_factory=list)


@dataclass
class MeasureSegments:
    """The explorer's data of one metric measure."""

    metric: str
    measure: str
    total: int                                # segments in the corpus
    index: list[int]                          # kept segments (0-based), ascending
    scores: dict[str, list[float]]            # profile -> sentence score per kept segment
    default: str | None = None
    pair: tuple[str, str] | None = None       # lowest and highest corpus score
    tokenizations: list[Tokenization] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def capped(self) -> bool:
        return len(self.index) < self.total

    def tokenization_of(self, profile: str) -> int:
        return next((i for i, t in enumerate(self.tokenizations) if profile in t.profiles), -1)


def divergence(scores: Mapping[str, np.ndarray]) -> np.ndarray:
    """Per segment: max - min of the profiles' sentence scores (0 with fewer than two profiles)."""
    stacked = np.vstack([np.asarray(v, dtype=np.float64) for v in scores.values()])
    return stacked.max(axis=0) - stacked.min(axis=0) if len(stacked) > 1 else np.zeros(stacked.shape[1])


def kept_segments(scores: Mapping[str, np.ndarray], cap: int = CAP) -> list[int]:
    """The ``cap`` segments with the largest divergence (ties: the earlier segment), ascending."""
    div = divergence(scores)
    order = np.argsort(-div, kind="stable")[:cap]
    return sorted(int(i) for i in order)


def measure_segments(cmp: Comparison, table: Table, *, include_text: bool = True, cap: int = CAP
                     ) -> MeasureSegments | None:
    """Sentence scores (and, with ``include_text``, tokenisations with matched n-grams) of the
    ``cap`` most divergent segments of ``table``; None when no profile has sentence-level scores."""
    full: dict[str, np.ndarray] = {}
    notes = []
    for row in table.scored:
        try:
            full[row.profile] = sentence_values(cmp, table.metric, table.measure, row.profile)
        except AssayError as exc:
            notes.append(f"{row.profile}: no sentence-level scores ({str(exc).splitlines()[0]})")
    if not full:
        return None
    index = kept_segments(full, cap)
    data = MeasureSegments(table.metric, table.measure.label, cmp.n_segments, index,
                           {p: [float(v[i]) for i in index] for p, v in full.items()},
                           default=next((r.profile for r in table.scored if r.default), None),
                           pair=table.most_divergent(), notes=notes)
    if include_text:
        data.tokenizations = tokenizations(cmp, table, list(full), index)
    return data


def tokenizations(cmp: Comparison, table: Table, profiles: Sequence[str], index: Sequence[int]) -> list[Tokenization]:
    """The distinct tokenisations of the segments ``index`` under ``profiles`` (view tokens; a
    profile whose tokens cannot be shown is left out). Tokens and marks are cached on the
    comparison: the measures of one metric (ROUGE's four types) share them."""
    view = view_of(table.metric)
    ev = cmp.evaluators.get(table.metric)
    if view.tokens is None or ev is None:
        return []
    cache: dict[Any, Any] = cmp.__dict__.setdefault("_explorer_tokens", {})
    found: dict[Any, Tokenization] = {}
    for name in profiles:
        try:
            config = measure_config(ev, name, table.measure)
            # the measure's own knobs (ROUGE's type) are no part of how the text becomes tokens
            ckey = (table.metric, tuple(index),
                    repr(sorted((k, v) for k, v in config.as_dict().items() if k not in table.measure.knobs)))
            if ckey not in cache:
                hyp, refs = _tokens(view.tokens, config, cmp, index)
                # the tokens' content: profiles whose configurations differ may tokenise alike
                cache[ckey] = hyp, refs, (tuple(map(tuple, hyp)),
                                          tuple(tuple(tuple(r) if r is not None else None for r in rs) for rs in refs))
            hyp, refs, key = cache[ckey]
        except Exception:   # showing tokens is best effort; the scores stand
            continue
        if key in found:
            found[key].profiles.append(name)
            continue
        if key not in cache:
            pairs = [pair_marks(h, rs) for h, rs in zip(hyp, refs)]
            cache[key] = ([h for h, _ in pairs], [rs for _, rs in pairs])
        hyp_marks, ref_marks = cache[key]
        found[key] = Tokenization([name], hyp, refs, hyp_marks, ref_marks)
    return list(found.values())


def _tokens(tokens: Any, config: Any, cmp: Comparison, index: Sequence[int]
            ) -> tuple[list[list[str]], list[list[list[str] | None]]]:
    """The hypothesis tokens and every reference's tokens (None: no reference) of the segments ``index``."""
    hyp = [list(t) for t in tokens([cmp.hyps[i] for i in index], config)]
    per_stream = []
    for stream in cmp.refs:
        texts = [stream[i] for i in index]
        present = [j for j, r in enumerate(texts) if r is not None]
        col: list[list[str] | None] = [None] * len(texts)
        for j, t in zip(present, tokens([texts[j] for j in present], config) if present else []):
            col[j] = list(t)
        per_stream.append(col)
    return hyp, [[col[k] for col in per_stream] for k in range(len(index))]


def marks(tokens: Sequence[str], others: Sequence[Sequence[str]], max_n: int = MAX_N) -> str:
    """One digit per token: the longest n (<= ``max_n``) of an n-gram containing the token that
    also occurs in one of ``others`` (0: none).

    The n-grams of ``tokens`` starting at i that occur in another list are the prefixes of the
    longest one, so from each start the match is extended token by token at every position where
    the other list has the same first token."""
    size = len(tokens)
    level = [0] * size
    starts: dict[str, list[tuple[Sequence[str], int]]] = {}
    for other in others:
        for j, tok in enumerate(other):
            starts.setdefault(tok, []).append((other, j))
    for i in range(size):
        best = 0
        for other, j in starts.get(tokens[i], ()):
            limit = min(max_n, size - i, len(other) - j)
            n = 1
            while n < limit and tokens[i + n] == other[j + n]:
                n += 1
            if n > best:
                best = n
                if best == max_n:
                    break
        for k in range(i, i + best):
            if level[k] < best:
                level[k] = best
    return "".join(map(str, level))


def pair_marks(hyp: Sequence[str], refs: Sequence[Sequence[str] | None], max_n: int = MAX_N
               ) -> tuple[str, list[str | None]]:
    """``marks(hyp, refs)`` (the references present) and ``marks(ref, [hyp])`` of every reference
    (None stays None), in one pass over the positions where a reference token equals a hypothesis
    token: from hypothesis position i and reference position j the common n-gram extends to L
    tokens (at most ``max_n``), and both spans ``hyp[i:i+L]`` and ``ref[j:j+L]`` are marked at
    least L. That is :func:`marks` in both directions: the longest n-gram from i (or j) found in
    the other list is the longest extension over the matching positions, and a shorter one from the
    same start lies inside it."""
    size = len(hyp)
    level = [0] * size
    at: dict[str, list[int]] = {}
    for i, tok in enumerate(hyp):
        at.setdefault(tok, []).append(i)
    get = at.get
    out: list[str | None] = []
    for ref in refs:
        if ref is None:
            out.append(None)
            continue
        rlen = len(ref)
        rlevel = [0] * rlen
        for j, tok in enumerate(ref):
            for i in get(tok, ()):
                limit = min(max_n, size - i, rlen - j)
                n = 1
                while n < limit and hyp[i + n] == ref[j + n]:
                    n += 1
                for k in range(i, i + n):
                    if level[k] < n:
                        level[k] = n
                for k in range(j, j + n):
                    if rlevel[k] < n:
                        rlevel[k] = n
        out.append("".join(map(str, rlevel)))
    return "".join(map(str, level)), out


def explorer_json(parts: Sequence[MeasureSegments], hyps: Sequence[str], refs: Sequence[Sequence[str | None]],
                  units: Mapping[str, str], lower_is_better: Mapping[str, bool], include_text: bool,
                  cap: int = CAP) -> dict[str, Any]:
    """The explorer's JSON document: every measure's kept segments, scores (4 decimals) and
    tokenisations; the texts of every kept segment once and every distinct token list once
    (``lists``; tokenisations refer to them by position), only with ``include_text``."""
    lists: list[list[str]] = []
    ids: dict[tuple[str, ...], int] = {}
    by_object: dict[int, int] = {}      # id of a token list (alive in ``parts`` meanwhile) -> its position

    def ref(tokens: Sequence[str] | None) -> int | None:
        if tokens is None:
            return None
        got = by_object.get(id(tokens))
        if got is None:
            key = tuple(tokens)
            got = ids.get(key)
            if got is None:
                got = ids[key] = len(lists)
                lists.append(list(tokens))
            by_object[id(tokens)] = got
        return got

    measures = []
    shown: set[int] = set()
    for m in parts:
        shown.update(m.index)
        profiles = list(m.scores)
        toks = [{"profiles": t.profiles, "h": [ref(h) for h in t.hyp], "r": [[ref(r) for r in rs] for rs in t.refs],
                 "hm": t.hyp_marks, "rm": t.ref_marks} for t in m.tokenizations] if include_text else []
        measures.append({
            "key": f"{m.metric} {m.measure}", "metric": m.metric, "measure": m.measure,
            "unit": units.get(m.metric, ""), "lower": bool(lower_is_better.get(m.metric, False)),
            "total": m.total, "capped": m.capped, "default": m.default,
            "pair": list(m.pair) if m.pair else None, "notes": m.notes,
            "seg": [i + 1 for i in m.index], "profiles": profiles,
            "scores": [[round(v, 4) for v in m.scores[p]] for p in profiles],
            "tok": [m.tokenization_of(p) for p in profiles], "toks": toks,
        })
    doc: dict[str, Any] = {"cap": cap, "text": include_text, "nrefs": len(refs), "measures": measures}
    if include_text:
        doc["segments"] = {str(i + 1): {"hyp": hyps[i], "refs": [s[i] for s in refs]} for i in sorted(shown)}
        doc["lists"] = lists
    return doc
