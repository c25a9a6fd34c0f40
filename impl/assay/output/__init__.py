"""Output: how a score is presented — its signature and each reproduced tool's own text and JSON.

One module per family, ``assay.output.<metric>``, defines three functions (the presenter):

- ``signature(config, profile, nrefs, tool_version) -> str``
- ``format_text(value, components, config, profile, signature, width) -> str`` (the line the tool prints)
- ``tool_json(value, components, config, profile, signature, width) -> dict | None`` (the tool's own JSON)

:func:`presenter` finds it. Metric families never import this layer.
"""
from __future__ import annotations

from importlib import import_module
from types import ModuleType

from assay.core.errors import KnobError
from assay.core.metric_names import METRIC_NAMES


def presenter(metric: str) -> ModuleType:
    """The presenter of ``metric``: the module ``assay.output.<metric>`` (see the module docstring)."""
    metric = metric.lower()
    if metric not in METRIC_NAMES:
        raise KnobError(f"unknown metric {metric!r}; known: {', '.join(METRIC_NAMES)}")
    return import_module(f"assay.output.{metric}")
