"""BLEU's presentation: signatures, the line each reproduced tool prints, sacrebleu's JSON.

- sacrebleu 2.x: ``BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0 = 51.4 86.5/63.8/46.9/35.1
  (BP = 0.937 ratio = 0.939 hyp_len = 385 ref_len = 410)`` (1 decimal; 1.x: ``BLEU+case.mixed+... = 51.42``);
  a configuration sacrebleu cannot express gets ``BLEU = ...`` with assay's signature.
- multi-bleu(-detok).perl: ``BLEU = 51.42, 86.5/63.8/46.9/35.1 (BP=0.937, ratio=0.939, hyp_len=385,
  ref_len=410)`` with *unsmoothed* precisions ``100 c_n / t_n``.
- mteval-v13a/v14: ``BLEU score = 0.5142``.
- every other profile (NLTK, d2l, pycocoevalcap): the float's repr, or ``width`` decimals.
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import bleu_signature, plain_value, sacrebleu_json
from assay.profiles.registry import get_profile


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """sacrebleu's own signature where sacrebleu can express the configuration, else assay's."""
    return bleu_signature(config, profile, nrefs, tool_version)


def _verbose(components: dict[str, Any]) -> str:
    """sacrebleu's verbose part: precisions at 1 decimal, BP/ratio at 3, lengths as integers."""
    prec = "/".join(f"{p:.1f}" for p in components["precisions"])
    return (f"{prec} (BP = {components['bp']:.3f} ratio = {components['ratio']:.3f} "
            f"hyp_len = {components['sys_len']:d} ref_len = {int(components['ref_len']):d})")


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """sacrebleu: ``BLEU|sig = 48.9 85.7/…``; multi-bleu: ``BLEU = 48.89, 85.7/…``; mteval: its line."""
    shape = get_profile("bleu", profile).text_format if profile else ""
    if shape == "sacrebleu":
        w = 1 if width is None else width
        if signature.startswith("BLEU+"):
            head = f"{signature} = "
        elif signature.startswith("assay:"):
            head = "BLEU = "
        else:
            head = f"BLEU|{signature} = "
        return f"{head}{value:.{w}f} {_verbose(components)}"
    if shape == "multi-bleu":
        w = 2 if width is None else width
        prec = "/".join(f"{p:.1f}" for p in _raw_precisions(components))
        return (f"BLEU = {value:.{w}f}, {prec} (BP={components['bp']:.3f}, ratio={components['ratio']:.3f}, "
                f"hyp_len={components['sys_len']:d}, ref_len={int(components['ref_len']):d})")
    if shape == "mteval":
        w = 4 if width is None else width
        return f"BLEU score = {value:.{w}f}"
    return plain_value(value, width)


def _raw_precisions(components: dict[str, Any]) -> list[float]:
    """multi-bleu prints unsmoothed precisions: 100 * correct / total (0 where total is 0)."""
    return [100.0 * c / t if t else 0.0 for c, t in zip(components["counts"], components["totals"])]


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """sacrebleu 2.x CLI JSON: the score rounded to the width (its behaviour), verbose part, signature fields."""
    if not profile or get_profile("bleu", profile).signature_grammar != "sacrebleu2" or signature.startswith("assay:"):
        return None
    return sacrebleu_json("BLEU", value, signature, width, _verbose(components))
