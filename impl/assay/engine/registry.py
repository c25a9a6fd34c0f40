"""Metric families: one module per family; the registry maps a metric name to its family object."""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from assay.core.errors import KnobError
from assay.core.metric_names import METRIC_NAMES

if TYPE_CHECKING:   # the families (and numpy) are imported when one is asked for
    from assay.core.family import MetricFamily

_FAMILIES: dict[str, str] = {
    "rouge": "rouge:FAMILY",
    "bleu": "bleu:FAMILY",
    "nist": "nist:FAMILY",
    "chrf": "chrf:FAMILY",
    "cider": "cider:FAMILY",
    "coco": "assay.engine.coco:FAMILY",      # the composite lives in the engine (it uses other families)
    "ter": "ter:FAMILY",
    "meteor": "meteor:FAMILY",
    "gleu": "gleu:FAMILY",
}

assert tuple(_FAMILIES) == METRIC_NAMES


def get_family(metric: str) -> "MetricFamily":
    try:
        target = _FAMILIES[metric.lower()]
    except KeyError:
        raise KnobError(f"unknown metric {metric!r}; known: {', '.join(METRIC_NAMES)}") from None
    module_name, attr = target.split(":")
    module = module_name if "." in module_name else f"assay.metrics.{module_name}.family"
    return getattr(import_module(module), attr)
