"""METEOR's presentation: assay's signature and a ``METEOR = …`` line (NLTK returns a bare float;
the jar prints ``Final score:`` lines assay does not imitate)."""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature, plain_value


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature: the profile and every knob that differs from it."""
    return assay_signature("meteor", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """``METEOR = 0.6944…`` (full precision unless ``width`` decimals are asked for)."""
    text = plain_value(value, width)
    return f"METEOR = {text}"


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """Neither NLTK nor the jar has a JSON output."""
    return None
