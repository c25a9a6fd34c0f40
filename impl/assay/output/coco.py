"""The COCO composite's presentation: COCOEvalCap's ``%s: %0.3f`` lines and assay's signature."""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature

#: the names COCOEvalCap prints, in its order (SPICE is not computed)
OUTPUT_NAMES = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr")


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """assay's signature: the profile and every knob that differs from it."""
    return assay_signature("coco", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """COCOEvalCap's ``%s: %0.3f`` lines (at ``width`` decimals), then any omission note."""
    w = 3 if width is None else width
    lines = [f"{name}: {components[name]:.{w}f}" for name in OUTPUT_NAMES if name in components]
    for name, why in (components.get("omitted") or {}).items():
        lines.append(f"{name}: omitted ({why})")
    if config.idf_corpus is not None:
        lines.append(f"note: CIDEr idf from {config.idf_corpus} (not the toolkit's behaviour)")
    return "\n".join(lines)


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """COCOEvalCap keeps its scores in ``.eval`` (no JSON output of its own)."""
    return None
