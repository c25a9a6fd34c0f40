"""Deliberately broken metric implementations, one per knob family, for ``assay conform --identify``.

Each is a small, self-written ``--shape protocol`` callable (``f(case) -> {"score", "components"?}``)
that reproduces a reference tool except for ONE behaviour, and :data:`BROKEN` records which knob
that behaviour is. ``conformance/tests/conform/test_broken_impls.py`` checks that identification
names exactly that knob (and the right profile), e.g.::

    assay conform "direct:conformance.examples.conform_clients.broken_impls:bleu_no_brevity_penalty" \\
        --metric bleu --identify

- BLEU (sacrebleu 2.x-like: 13a tokens from assay's tokenizer, exp smoothing, closest reference
  length; sentence level with effective order): without the brevity penalty; with floor smoothing;
  on whitespace tokens; with the shortest reference length; on n-gram sets.
- chrF (sacrebleu-like: character 1..6-grams without whitespace, P and R averaged over the orders
  both sides have, F_beta, best reference per segment by its sentence F): with beta 1.
- ROUGE (rouge-score-like: lowercase, ``[^a-z0-9]+`` -> space, F only per measure, mean over
  documents, best F over references): case-sensitive; ROUGE-N on n-gram sets.
- TER: assay's own ``ter/sacrebleu`` profile with ``case_sensitive=True`` (TER's shift search is
  too long for a small example; this one exercises identification only).

They return only the headline value (and F per ROUGE measure): precision and recall are optional.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any, Callable, Iterable

Case = dict[str, Any]


# ----------------------------------------------------------------------------- BLEU
def _grams(tokens: list[str], n: int, sets: bool) -> Counter:
    grams = Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    return Counter(set(grams)) if sets else grams


def _bleu_stats(hyp: list[str], refs: list[list[str]], ref_len: str, sets: bool) -> list[float]:
    lengths = [len(r) for r in refs]
    if ref_len == "shortest":
        chosen = min(lengths)
    else:                                   # closest, ties to the shorter
        chosen = min(lengths, key=lambda r: (abs(r - len(hyp)), r))
    stats = [float(len(hyp)), float(chosen)]
    correct, total = [], []
    for n in range(1, 5):
        h = _grams(hyp, n, sets)
        limit: Counter = Counter()
        for r in refs:
            for g, c in _grams(r, n, sets).items():
                limit[g] = max(limit[g], c)
        correct.append(sum(min(c, limit[g]) for g, c in h.items()))
        total.append(sum(h.values()))
    return stats + correct + total


def _bleu_value(stats: list[float], effective: bool, smoothing: str, bp_on: bool) -> float:
    hyp_len, ref_len, correct, total = stats[0], stats[1], stats[2:6], stats[6:10]
    if hyp_len == 0 or correct[0] == 0:
        return 0.0
    logs, order, doubling = [], 4, 1.0
    for n in range(4):
        if total[n] == 0:
            if effective and order == 4:
                order = n               # effective order: the leading orders with n-grams
            logs.append(None)
            continue
        if correct[n] > 0:
            p = 100.0 * correct[n] / total[n]
        elif smoothing == "exp":
            doubling *= 2
            p = 100.0 / (doubling * total[n])
        else:                               # floor: 0.1 matches
            p = 100.0 * 0.1 / total[n]
        logs.append(math.log(p))
    used = [x if x is not None else -9999999999.0 for x in logs[:order]]
    bp = 1.0
    if bp_on and hyp_len < ref_len:
        bp = math.exp(1.0 - ref_len / hyp_len)
    return bp * math.exp(sum(used) / order)


def bleu(tokenize: str = "13a", smoothing: str = "exp", ref_len: str = "closest", bp: bool = True,
         sets: bool = False) -> Callable[[Case], dict[str, Any]]:
    """A sacrebleu-like BLEU with the given behaviours (the defaults are sacrebleu's)."""
    def tokens(text: str) -> list[str]:
        if tokenize == "none":
            return text.split()
        from assay.tokenizers import get_tokenizer
        return get_tokenizer("13a").tokenize_segment(text)

    def score(case: Case) -> dict[str, Any]:
        rows = []
        for i, h in enumerate(case["hyps"]):
            refs = [tokens(s[i]) for s in case["refs"] if s[i] is not None]
            rows.append(_bleu_stats(tokens(h), refs, ref_len, sets))
        if case["level"] == "sentence":
            return {"score": [_bleu_value(r, True, smoothing, bp) for r in rows]}
        sums = [sum(col) for col in zip(*rows)] if rows else [0.0] * 10
        return {"score": _bleu_value(sums, False, smoothing, bp)}
    return score


bleu_ok = bleu()                            # no fault: sacrebleu's behaviour
bleu_no_brevity_penalty = bleu(bp=False)
bleu_floor_smoothing = bleu(smoothing="floor")
bleu_whitespace_tokens = bleu(tokenize="none")
bleu_shortest_reference = bleu(ref_len="shortest")
bleu_ngram_sets = bleu(sets=True)


# ----------------------------------------------------------------------------- chrF
def _chrf_stats(hyp: str, ref: str) -> list[int]:
    h, r = "".join(hyp.split()), "".join(ref.split())
    out = []
    for n in range(1, 7):
        hc = Counter(h[i:i + n] for i in range(len(h) - n + 1))
        rc = Counter(r[i:i + n] for i in range(len(r) - n + 1))
        # an order the reference has no n-gram of counts no hypothesis n-gram either (sacrebleu 2.x)
        out += [sum(hc.values()) if rc else 0, sum(rc.values()), sum((hc & rc).values())]
    return out


def _chrf_value(stats: Iterable[float], beta: float) -> float:
    stats = list(stats)
    precs, recs = [], []
    for k in range(0, len(stats), 3):
        n_hyp, n_ref, match = stats[k:k + 3]
        if n_hyp > 0 and n_ref > 0:
            precs.append(match / n_hyp)
            recs.append(match / n_ref)
    if not precs:
        return 0.0
    p, r = sum(precs) / len(precs), sum(recs) / len(recs)
    if p + r == 0:
        return 0.0
    b2 = beta * beta
    return 100.0 * (1 + b2) * p * r / (b2 * p + r)


def chrf(beta: float = 2.0) -> Callable[[Case], dict[str, Any]]:
    """A sacrebleu-like chrF (character orders 1..6, no word n-grams) with the given beta."""
    def score(case: Case) -> dict[str, Any]:
        rows = []
        for i, h in enumerate(case["hyps"]):
            options = [_chrf_stats(h, s[i]) for s in case["refs"] if s[i] is not None]
            rows.append(max(options, key=lambda st: _chrf_value(st, beta)))   # first best on ties
        if case["level"] == "sentence":
            return {"score": [_chrf_value(r, beta) for r in rows]}
        return {"score": _chrf_value([sum(col) for col in zip(*rows)], beta)}
    return score


chrf_ok = chrf()
chrf_beta_one = chrf(beta=1.0)


# ----------------------------------------------------------------------------- ROUGE
def _rouge_tokens(text: str, lowercase: bool) -> list[str]:
    if lowercase:
        text = text.lower()
    return re.sub(r"[^a-zA-Z0-9]+" if not lowercase else r"[^a-z0-9]+", " ", text).split()


def _lcs(a: list[str], b: list[str]) -> int:
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def _f(hits: float, n_ref: float, n_hyp: float) -> float:
    p = hits / n_hyp if n_hyp else 0.0
    r = hits / n_ref if n_ref else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def _rouge_f(kind: str, hyp: list[str], ref: list[str], sets: bool) -> float:
    if kind == "rougeL":
        return _f(_lcs(hyp, ref), len(ref), len(hyp))
    n = int(kind[5:])
    h, r = _grams(hyp, n, sets), _grams(ref, n, sets)
    return _f(sum((h & r).values()), sum(r.values()), sum(h.values()))


def rouge(lowercase: bool = True, sets: bool = False) -> Callable[[Case], dict[str, Any]]:
    """A rouge-score-like ROUGE-N / ROUGE-L that reports F only."""
    def score(case: Case) -> dict[str, Any]:
        types = (case.get("knobs") or {}).get("types") or ["rouge1", "rouge2", "rougeL"]
        if isinstance(types, str):
            types = [t.strip() for t in types.split(",")]
        if any(t != "rougeL" and not re.fullmatch(r"rouge\d+", t) for t in types):
            from assay.jobs.conform.shapes import ShapeSkip
            raise ShapeSkip(f"only rougeN and rougeL, asked for {types}")
        per_doc = []
        for i, h in enumerate(case["hyps"]):
            hyp = _rouge_tokens(h, lowercase)
            refs = [_rouge_tokens(s[i], lowercase) for s in case["refs"] if s[i] is not None]
            per_doc.append({t: max(_rouge_f(t, hyp, r, sets) for r in refs) for t in types})
        if case["level"] == "sentence":
            return {"score": [d[types[0]] for d in per_doc]}
        means = {t: sum(d[t] for d in per_doc) / len(per_doc) for t in types}
        return {"score": means[types[0]], "components": {t: {"f": v} for t, v in means.items()}}
    return score


rouge_ok = rouge()
rouge_case_sensitive = rouge(lowercase=False)
rouge_ngram_sets = rouge(sets=True)


# ----------------------------------------------------------------------------- TER
class _AssayTer:
    """assay's ``ter/sacrebleu`` with one knob set (built on first use: assay is imported lazily)."""

    def __init__(self, **knobs: Any):
        self.knobs = knobs
        self._impl: Any = None

    def __call__(self, case: Case) -> dict[str, Any]:
        if self._impl is None:
            from assay.jobs.conform.assay_impl import ProfileImplementation
            self._impl = ProfileImplementation("ter", "sacrebleu", **self.knobs)
        return {"score": self._impl(case)["score"]}


ter_case_sensitive = _AssayTer(case_sensitive=True)


#: the unbroken twins: (metric, the profile they reproduce)
OK = {"bleu_ok": ("bleu", "sacrebleu"), "chrf_ok": ("chrf", "sacrebleu"), "rouge_ok": ("rouge", "rouge-score")}
#: implementation -> (metric, the profile it otherwise reproduces, the knob broken, its value)
BROKEN: dict[str, tuple[str, str, str, Any]] = {
    "bleu_no_brevity_penalty": ("bleu", "sacrebleu", "use_brevity_penalty", False),
    "bleu_floor_smoothing": ("bleu", "sacrebleu", "smooth_method", "floor"),
    "bleu_whitespace_tokens": ("bleu", "sacrebleu", "tokenize", "none"),
    "bleu_shortest_reference": ("bleu", "sacrebleu", "ref_length", "shortest"),
    "bleu_ngram_sets": ("bleu", "sacrebleu", "ngram_counts", "set"),
    "chrf_beta_one": ("chrf", "sacrebleu", "beta", 1),
    "rouge_case_sensitive": ("rouge", "rouge-score", "lowercase", False),
    "rouge_ngram_sets": ("rouge", "rouge-score", "ngram_counts", "set"),
    "ter_case_sensitive": ("ter", "sacrebleu", "case_sensitive", True),
}
#: the knob family each one breaks (issue 22's list)
FAMILY = {"bleu_no_brevity_penalty": "brevity penalty", "bleu_floor_smoothing": "smoothing",
          "bleu_whitespace_tokens": "tokenisation", "bleu_shortest_reference": "reference handling",
          "bleu_ngram_sets": "sets vs multisets", "chrf_beta_one": "beta", "rouge_case_sensitive": "casing",
          "rouge_ngram_sets": "sets vs multisets", "ter_case_sensitive": "casing"}
