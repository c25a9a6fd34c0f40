"""CIDEr's presentation: assay's signature and pycocoevalcap's ``CIDEr`` line.

The toolkit prints the value as a bare float; assay names it ``CIDEr-D`` when clipping is on
(pycocoevalcap's Cider), ``CIDEr`` otherwise or for the original paper's profile, and says so when
the document frequencies come from ``idf_corpus`` (not the toolkit's behaviour).
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature, plain_value


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature: the profile and every knob that differs from it."""
    return assay_signature("cider", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """``CIDEr-D = 0.8712…`` (full precision unless ``width`` decimals are asked for)."""
    text = plain_value(value, width)
    name = "CIDEr-D" if config.clipping else "CIDEr"
    note = "" if config.idf_corpus is None else f" (idf from {config.idf_corpus}: not the toolkit's behaviour)"
    return f"{name} = {text}{note}"


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """pycocoevalcap has no JSON output of its own."""
    return None
