"""Published-score claims: ``"BLEU 28.4"``, ``"chrF2 = 55.1"``, ``"ROUGE-L 41.2"``, ``"CIDEr-D 1.05"``.

A claim names a metric (and often a variant: chrF2 = beta 2, chrF++ = word order 2, BLEU-1 =
max order 1, ROUGE-L = an LCS measure, "ROUGE-1 R" = recall) and a value. The precision of the
claim is the number of printed decimals: ``28.4`` stands for anything in [28.35, 28.45]
(a printed ``%.1f`` value), so a configuration *matches* when its score rounds to the claim.
"""
from __future__ import annotations

import math
import re
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from dataclasses import dataclass, field
from typing import Any

from assay.core.errors import InputError

#: relative slack for claims printed at full float precision (summation order differs by ~1e-15)
FLOAT_SLACK = 1e-9
#: double rounding and truncation are tried on claims printed with at most this many decimals
MAX_PRINTING_DECIMALS = 4


def _decimal(x: float) -> Decimal:
    """The shortest decimal that reads back as ``x`` (``27.35``, not the binary ``27.3499999...``)."""
    return Decimal(repr(float(x)))

# a decimal number, with an exponent (read so that it can be judged), or a spelled-out non-number
_NUMBER = r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|(?i:inf(?:inity)?|nan))"
_VALUE = rf"(?P<value>{_NUMBER})\s*(?P<pct>%)?"
_CLAIM = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z0-9_+\-. ]*?)\s*(?:=|:)?\s*" + _VALUE + r"\s*$")
_VALUE_CELL = re.compile(_NUMBER + r"\s*%?")
_EXPONENT = re.compile(r"[eE]([+-]?\d+)$")

#: the values a claim of each family can take, and why: (low, high or None, description)
CLAIM_RANGES: dict[str, tuple[float, float | None, str]] = {
    "bleu": (0.0, 100.0, "0 to 100 (0-1 as NLTK and mteval print it, 0-100 as sacrebleu does)"),
    "chrf": (0.0, 100.0, "0 to 100 (0-1 as sacrebleu 1.x and NLTK print it, 0-100 as sacrebleu 2.x does)"),
    "rouge": (0.0, 100.0, "0 to 100 (0-1 as the tools print it, 0-100 as papers do)"),
    "meteor": (0.0, 100.0, "0 to 100 (0-1 as the tools print it, 0-100 as papers do)"),
    "ter": (0.0, None, ">= 0 (TER has no upper bound: it passes 100 when the hypothesis is longer than "
                       "the reference)"),
    "nist": (0.0, None, ">= 0 (NIST has no upper bound: it sums information weights)"),
    "cider": (0.0, None, ">= 0 (CIDEr's upper bound is its scale, a knob)"),
    "gleu": (0.0, 100.0, "0 to 100 (0-1 as NLTK and HF evaluate print it, 0-100 as papers do)"),
}

_MEASURES = {"f": "f", "f1": "f", "fm": "f", "f-measure": "f", "fmeasure": "f", "r": "r", "recall": "r",
             "p": "p", "precision": "p"}


@dataclass(frozen=True)
class Claim:
    """One published number: metric family, value, printed decimals and the variant it names.

    ``constraints`` are knob values the metric's name fixes (``chrF2`` -> ``beta=2``); ``rouge_types``
    the ROUGE measures the name allows; ``measure`` a ROUGE P/R/F suffix, when printed.
    """

    text: str
    metric: str
    name: str
    value: float
    decimals: int
    constraints: dict[str, Any] = field(default_factory=dict)
    rouge_types: tuple[str, ...] = ()
    measure: str | None = None
    percent: bool = False

    @property
    def half_unit(self) -> float:
        return 0.5 * 10.0 ** (-self.decimals)

    def matches(self, score: float) -> bool:
        """True when ``score`` printed with the claim's decimals gives the claim (ties count)."""
        if not math.isfinite(score):
            return False
        slack = max(self.half_unit * (1 + 1e-9), FLOAT_SLACK * max(abs(self.value), 1e-300))
        return abs(score - self.value) <= slack

    def printed_as(self, score: float | None) -> str | None:
        """How ``score`` gives the claim when printed: ``"round"`` (rounded once to the claim's
        decimals, :meth:`matches`), ``"round-twice"`` (rounded first to one or two more decimals, then
        to the claim's: 27.346 -> 27.35 -> 27.4, half up as people round by hand), ``"truncate"``
        (cut, not rounded: 27.349 -> 27.3); None when no printing gives it. Claims printed with more
        than :data:`MAX_PRINTING_DECIMALS` decimals are only read as rounded once."""
        if score is None or not math.isfinite(score):
            return None
        if self.matches(score):
            return "round"
        if self.decimals > MAX_PRINTING_DECIMALS or max(abs(score), abs(self.value)) >= 1e15:
            return None
        want = _decimal(self.value).quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_HALF_UP)
        exact = _decimal(score)
        for extra in (1, 2):
            once = exact.quantize(Decimal(1).scaleb(-(self.decimals + extra)), rounding=ROUND_HALF_UP)
            if once.quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_HALF_UP) == want:
                return "round-twice"
        if exact.quantize(Decimal(1).scaleb(-self.decimals), rounding=ROUND_DOWN) == want:
            return "truncate"
        return None

    def printing_steps(self, score: float, how: str) -> str:
        """``27.346 -> 27.35 -> 27.4`` (rounded twice) or ``27.349 -> 27.3`` (truncated), in words' place."""
        exact = _decimal(score)
        unit = Decimal(1).scaleb(-self.decimals)
        shown = exact.quantize(Decimal(1).scaleb(-(self.decimals + 3)), rounding=ROUND_HALF_UP)
        if how == "truncate":
            return f"{shown} -> {exact.quantize(unit, rounding=ROUND_DOWN)}"
        for extra in (1, 2):
            once = exact.quantize(Decimal(1).scaleb(-(self.decimals + extra)), rounding=ROUND_HALF_UP)
            twice = once.quantize(unit, rounding=ROUND_HALF_UP)
            if twice == _decimal(self.value).quantize(unit, rounding=ROUND_HALF_UP):
                return f"{shown} -> {once} -> {twice}"
        return f"{shown} -> {exact.quantize(unit, rounding=ROUND_HALF_UP)}"

    def shown(self, score: float) -> str:
        return f"{score:.{self.decimals}f}" if abs(score) < 1e16 else f"{score:.6g}"

    def __str__(self) -> str:
        return f"{self.name} {self.shown(self.value)}"


def parse_claim(text: str, metric: str | None = None) -> Claim:
    """Read ``"BLEU 28.4"`` / ``"chrF2++ = 49.0"`` / ``"ROUGE-L F 41.2"`` / ``"28.4"`` (with ``metric``)."""
    raw = str(text)
    m = _CLAIM.match(raw)
    if m is None:
        bare = re.match(r"^\s*" + _VALUE + r"\s*$", raw)
        if bare is None or metric is None:
            raise InputError(f"cannot read the claim {raw!r}: expected a metric name and a number, "
                             "e.g. 'BLEU 28.4', 'chrF2 = 55.1', 'ROUGE-L 41.2'")
        m, name = bare, metric
    else:
        name = m.group("name").strip()
    value_text = m.group("value")
    value = float(value_text)
    family, variant, rouge_types, measure = _metric_of(name, raw)
    if metric is not None and _family_named(metric, raw) != family:
        raise InputError(f"claim {raw!r} names {family}, but --metric says {metric}")
    _check_finite(raw, family, name, value_text, value)
    return Claim(raw.strip(), family, name, value, _decimals(value_text), variant, rouge_types, measure,
                 bool(m.group("pct")))


def is_value_text(text: str) -> bool:
    """True when ``text`` reads as a claimed value (a number, ``%`` allowed, or ``inf``/``nan``, which
    :func:`parse_claim` then rejects by name): a claims table's value cell, not its header."""
    return _VALUE_CELL.fullmatch(text.strip()) is not None


def _decimals(value_text: str) -> int:
    """Printed decimals: ``28.40`` -> 2, ``2.84e1`` -> 1 (the exponent moves the point), ``3e2`` -> 0."""
    mantissa, exponent = value_text, 0
    found = _EXPONENT.search(value_text)
    if found:
        mantissa, exponent = value_text[:found.start()], int(found.group(1))
    places = len(mantissa.split(".", 1)[1]) if "." in mantissa else 0
    return max(0, min(places - exponent, 340))


def _cut(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else f"{text[:limit - 3]}..."


def _check_finite(raw: str, family: str, name: str, value_text: str, value: float) -> None:
    """NaN, an infinity or a number beyond a double is no claim at all (it can match nothing)."""
    if math.isnan(value):
        raise InputError(f"claim {_cut(raw.strip(), 48)!r}: {value_text} is not a number; a {name} score is "
                         f"{CLAIM_RANGES[family][2]}")
    if math.isinf(value):
        what = "infinite" if value_text.strip("+-").lower().startswith("inf") else "beyond the largest double"
        raise InputError(f"claim {_cut(raw.strip(), 48)!r}: {_cut(value_text)} is {what}; a {name} score is "
                         f"{CLAIM_RANGES[family][2]}")


def range_problem(claim: Claim) -> str | None:
    """Why no configuration can give the claimed value, when it is outside the scores the claim's
    family can have (:data:`CLAIM_RANGES`): ``"999.9 is outside the range of BLEU scores, which are
    0 to 100 (...)"``; None when it is inside. The audit still runs (its nearest configurations show
    what the author may have meant) and its verdict says this (:mod:`assay.jobs.audit.verdict`)."""
    low, high, described = CLAIM_RANGES[claim.metric]
    if low <= claim.value and (high is None or claim.value <= high):
        return None
    return f"{_cut(claim.shown(claim.value))} is outside the range of {claim.name} scores, which are {described}"


def _family_named(metric: str, raw: str) -> str:
    """The family ``--metric`` names, read as a claim's metric name is (``ROUGE_L`` and ``rouge`` both
    name rouge); a name that reads as no metric stands for itself."""
    try:
        return _metric_of(metric, raw)[0]
    except InputError:
        return metric.lower()


def _metric_of(name: str, raw: str) -> tuple[str, dict[str, Any], tuple[str, ...], str | None]:
    key = re.sub(r"\s+", " ", name.strip()).lower()
    key = key.replace("sacrebleu", "bleu")
    # a trailing P/R/F word (ROUGE-1 R, ROUGE-L F1)
    measure = None
    parts = re.split(r"[ _]", key)
    if len(parts) > 1 and parts[-1] in _MEASURES:
        measure = _MEASURES[parts[-1]]
        key = " ".join(parts[:-1])
    compact = key.replace(" ", "").replace("_", "-")
    m = re.fullmatch(r"bleu(?:-?(\d))?", compact)
    if m:
        return "bleu", ({"max_ngram_order": int(m.group(1))} if m.group(1) else {}), (), None
    m = re.fullmatch(r"chrf(\d+(?:\.\d+)?)?(\+\+)?", compact)
    if m:
        variant: dict[str, Any] = {}
        if m.group(1):
            variant["beta"] = float(m.group(1)) if "." in m.group(1) else int(m.group(1))
        if m.group(2):
            variant["word_order"] = 2
        elif m.group(1):
            variant["word_order"] = 0   # sacrebleu names chrF++ 'chrF2++': a bare chrF2 has no words
        return "chrf", variant, (), None
    m = re.fullmatch(r"(?:gleu|google-?bleu)(?:-?(\d))?", compact)
    if m:
        return "gleu", ({"max_ngram_order": int(m.group(1))} if m.group(1) else {}), (), None
    if compact in ("ter", "translationeditrate"):
        return "ter", {}, (), None
    if compact in ("meteor",):
        return "meteor", {}, (), None
    if compact in ("nist",):
        return "nist", {}, (), None
    if compact in ("cider", "cider-d", "ciderd"):
        return "cider", ({"clipping": True} if compact != "cider" else {}), (), None
    m = re.fullmatch(r"(?:rouge|r)-?(1|2|3|4|l|lsum|w|su4|s4)?(?:-(f|r|p|f1))?", compact)
    if m:
        kind = m.group(1)
        if m.group(2):
            measure = _MEASURES[m.group(2)]
        types = {None: ("rouge1", "rouge2", "rougeL", "rougeLsum"), "l": ("rougeL", "rougeLsum"),
                 "lsum": ("rougeLsum",), "w": ("rougeW",), "su4": ("rougeSU4",), "s4": ("rougeS4",)}
        return "rouge", {}, types.get(kind, (f"rouge{kind}",)), measure
    raise InputError(f"claim {raw!r}: unknown metric name {name!r} (known: BLEU, BLEU-n, chrF, chrF2, chrF++, "
                     "TER, METEOR, NIST, CIDEr, CIDEr-D, ROUGE-1/2/L/Lsum, GLEU (Google BLEU))")
