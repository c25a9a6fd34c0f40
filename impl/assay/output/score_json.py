"""``assay score -f json``: one versioned document per score, the same top-level keys in every family.

The schema ships with the package (``assay/output/schemas/score.schema.json``, :func:`schema`);
:data:`SCHEMA_VERSION` names it. Keys:

- ``schema_version`` (``"assay-score/1"``), ``name`` (the measure: ``BLEU``, ``chrF2++``, ``TER``,
  ``rouge1`` (the first ROUGE type, whose F is the value), ``CIDEr``, ``METEOR``, ``NIST``);
- ``score``: the value as the text output prints it (sacrebleu's rounding to ``-w`` decimals; the
  full double where the tool prints its repr), ``score_exact``: the double itself;
- ``signature``, ``profile``, ``knobs`` (the complete assignment), ``tool_json`` (the reproduced
  tool's own JSON, e.g. sacrebleu's ``-f json`` object, or ``null`` when the tool has none);
- kept from the earlier output: ``metric`` (the family), ``components``, ``text``; with
  ``--sentence``, ``segment`` (1-based line number).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from assay.core.score import Score, json_safe

SCHEMA_VERSION = "assay-score/1"
SCHEMA_FILE = "score.schema.json"

#: the measure's name where neither the tool's JSON nor the components carry one
NAMES = {"bleu": "BLEU", "ter": "TER", "cider": "CIDEr", "meteor": "METEOR", "nist": "NIST", "coco": "CIDEr",
         "chrf": "chrF", "gleu": "GLEU"}

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")


def score_name(score: Score) -> str:
    """The measure the value is: the tool JSON's ``name``, else the family's (ROUGE: its first type)."""
    tool = score.tool_json
    for source in (tool, score.components):
        name = source.get("name") if isinstance(source, dict) else None
        if isinstance(name, str):
            return name
    if score.metric == "rouge":
        return str(score.config.types[0])
    return NAMES.get(score.metric, score.metric)


def printed_value(score: Score) -> float:
    """The value as ``score.text`` prints it: the tool JSON's rounded ``score`` where there is one,
    else the first number of the text that is the value (in full, or rounded to the decimals shown),
    else the exact value."""
    tool = score.tool_json
    if isinstance(tool, dict) and isinstance(tool.get("score"), (int, float)):
        return float(tool["score"])
    value = float(score.value)
    for token in _NUMBER.findall(score.text):
        if float(token) == value:
            return value
        if "." in token and "e" not in token and f"{value:.{len(token.split('.')[1])}f}" == token:
            return float(token)
    return value


def score_document(score: Score, segment: int | None = None) -> dict[str, Any]:
    """The schema's document for one score (``segment``: its 1-based line with ``--sentence``)."""
    doc: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "name": score_name(score),
        "score": json_safe(printed_value(score)),
        "score_exact": json_safe(float(score.value)),
        "signature": score.signature,
        "profile": score.profile,
        "knobs": json_safe(score.knobs),
        "tool_json": json_safe(score.tool_json),
        "metric": score.metric,
        "components": json_safe(score.components),
        "text": score.text,
    }
    if segment is not None:
        doc["segment"] = segment
    return doc


def dumps(score: Score, segment: int | None = None) -> str:
    """:func:`score_document` as one line of JSON."""
    return json.dumps(score_document(score, segment), ensure_ascii=False)


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of :func:`score_document` (shipped as ``assay/output/schemas/score.schema.json``)."""
    text = resources.files("assay.output").joinpath("schemas").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc
