"""GLEU's presentation: assay's signature and a ``GLEU = …`` line (NLTK and HF evaluate return a bare
float, or a ``{"google_bleu": …}`` dict; neither prints a line of its own)."""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature, plain_value


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature: the profile and every knob that differs from it."""
    return assay_signature("gleu", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """``GLEU = 0.4412…`` (full precision unless ``width`` decimals are asked for)."""
    return f"GLEU = {plain_value(value, width)}"


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """Neither tool has a JSON output of its own."""
    return None
