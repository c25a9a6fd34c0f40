"""Published-score claims: ``"BLEU 28.4"``, ``"chrF2 = 55.1"``, ``"ROUGE-L 41.2"``, ``"CIDEr-D 1.05"``.

A claim names a metric (and often a variant: chrF2 = beta 2, chrF++ = word order 2, BLEU-1 =
max order 1, ROUGE-L = an LCS measure, "ROUGE-1 R" = recall) and a value. The precision of the
claim is the number of printed decimals: ``28.4`` stands for anything in [28.35, 28.45]
(a printed ``%.1f`` value), so a configuration *matches* when its score rounds to the claim.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from assay.core.errors import InputError

#: relative slack for claims printed at full float precision (summation order differs by ~1e-15)
FLOAT_SLACK = 1e-9

_VALUE = r"(?P<value>[+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(?P<pct>%)?"
_CLAIM = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z0-9_+\-. ]*?)\s*(?:=|:)?\s*" + _VALUE + r"\s*$")
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

    def shown(self, score: float) -> str:
        return f"{score:.{self.decimals}f}"

    def __str__(self) -> str:
        return f"{self.name} {self.value:.{self.decimals}f}"


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
    decimals = len(value_text.split(".", 1)[1]) if "." in value_text else 0
    value = float(value_text)
    family, variant, rouge_types, measure = _metric_of(name, raw)
    if metric is not None and metric.lower() != family:
        raise InputError(f"claim {raw!r} names {family}, but --metric says {metric}")
    return Claim(raw.strip(), family, name, value, decimals, variant, rouge_types, measure, bool(m.group("pct")))


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
                     "TER, METEOR, NIST, CIDEr, CIDEr-D, ROUGE-1/2/L/Lsum)")
