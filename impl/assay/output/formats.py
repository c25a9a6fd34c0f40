"""The text (and JSON) each reproduced tool prints for a score, at a given width."""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config


def _verbose(components: dict[str, Any]) -> str:
    """sacrebleu's verbose part: precisions at 1 decimal, BP/ratio at 3, lengths as integers."""
    prec = "/".join(f"{p:.1f}" for p in components["precisions"])
    return (f"{prec} (BP = {components['bp']:.3f} ratio = {components['ratio']:.3f} "
            f"hyp_len = {components['sys_len']:d} ref_len = {int(components['ref_len']):d})")


def bleu_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> str:
    """sacrebleu: ``BLEU|sig = 48.9 85.7/…``; multi-bleu: ``BLEU = 48.89, 85.7/…``; mteval: its line."""
    if profile in ("sacrebleu", "sacrebleu@1"):
        w = 1 if width is None else width
        if signature.startswith("BLEU+"):
            head = f"{signature} = "
        elif signature.startswith("assay:"):
            head = "BLEU = "
        else:
            head = f"BLEU|{signature} = "
        return f"{head}{value:.{w}f} {_verbose(components)}"
    if profile in ("multi-bleu", "multi-bleu-detok"):
        w = 2 if width is None else width
        prec = "/".join(f"{p:.1f}" for p in _raw_precisions(components))
        return (f"BLEU = {value:.{w}f}, {prec} (BP={components['bp']:.3f}, ratio={components['ratio']:.3f}, "
                f"hyp_len={components['sys_len']:d}, ref_len={int(components['ref_len']):d})")
    if profile in ("mteval-v13a", "mteval-v14"):
        w = 4 if width is None else width
        return f"BLEU score = {value:.{w}f}"
    if width is None:
        return repr(float(value))
    return f"{value:.{width}f}"


def _raw_precisions(components: dict[str, Any]) -> list[float]:
    """multi-bleu prints unsmoothed precisions: 100 * correct / total (0 where total is 0)."""
    return [100.0 * c / t if t else 0.0 for c, t in zip(components["counts"], components["totals"])]


def bleu_sacrebleu_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
                        signature: str, width: int | None) -> dict[str, Any] | None:
    """sacrebleu 2.x CLI JSON: the score rounded to the width (its behaviour), verbose part, signature fields."""
    if profile != "sacrebleu" or signature.startswith("assay:"):
        return None
    w = 1 if width is None else width
    out: dict[str, Any] = {"name": "BLEU", "score": float(f"{value:.{w}f}"), "signature": signature,
                           "verbose_score": _verbose(components)}
    for part in signature.split("|"):
        key, _, val = part.partition(":")
        out[key] = val
    return out
