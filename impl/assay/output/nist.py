"""NIST's presentation: assay's signature and the line each reproduced tool prints.

mteval-v13a/v14 print ``NIST score = %2.4f``; NLTK's ``corpus_nist`` returns a float (shown as its
repr, or ``width`` decimals). Neither tool has a JSON output of its own.
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature, plain_value
from assay.profiles.registry import get_profile


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature: the profile and every knob that differs from it."""
    return assay_signature("nist", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """mteval: ``NIST score = %2.4f``; NLTK returns a float (shown as its repr)."""
    if profile and get_profile("nist", profile).text_format == "mteval":
        w = 4 if width is None else width
        return f"NIST score = {value:2.{w}f}"
    return plain_value(value, width)


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """mteval and NLTK have no JSON output of their own."""
    return None
