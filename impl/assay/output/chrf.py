"""chrF's presentation: sacrebleu's signatures, its CLI text line and JSON; assay's otherwise.

- sacrebleu 2.x: ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0`` (short
  ``#:1|c:mixed|e:yes|nc:6|nw:0|s:no|v:2.6.0``), printed after the metric name
  (``chrF2|… = 59.7``; ``chrF2++`` for word_order 2).
- sacrebleu 1.x: ``chrF2+numchars.6+space.false+version.1.5.1`` (short ``chrF2+n.6+s.false+v.1.5.1``).
- Which one a profile prints is its ``signature_grammar`` (``sacrebleu2``, ``sacrebleu1``), and
  only when sacrebleu itself can express the configuration: every knob other than the ones its
  signature names (:data:`SACREBLEU_KNOBS`, :data:`SACREBLEU1_KNOBS`) keeps the profile's value.
  Otherwise assay's signature (:func:`assay.output.signature.assay_signature`).
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.metrics.chrf.score import metric_name
from assay.output.signature import assay_signature, plain_value, sacrebleu_json
from assay.profiles.registry import get_profile

#: knobs sacrebleu 2.x itself exposes (its signature names them); others must keep the profile's value
SACREBLEU_KNOBS = ("char_order", "word_order", "beta", "lowercase", "whitespace", "eps_smoothing")
SACREBLEU1_KNOBS = ("char_order", "beta", "whitespace")
SHORT_KEYS = {"nrefs": "#", "case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "version": "v"}


def _grammar(profile: str | None) -> str:
    """The signature grammar of the profile's tool (``""`` for a custom configuration)."""
    return get_profile("chrf", profile).signature_grammar if profile else ""


def chrf_signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None,
                   short: bool = False) -> str:
    """sacrebleu 2.x ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0``; 1.x
    ``chrF2+numchars.6+space.false+version.1.5.1``; otherwise assay's format."""
    grammar = _grammar(profile)
    if grammar in ("sacrebleu2", "sacrebleu1"):
        base = get_profile("chrf", profile).knobs
        own = SACREBLEU1_KNOBS if grammar == "sacrebleu1" else SACREBLEU_KNOBS
        if all(config[k] == v for k, v in base.items() if k not in own):
            version = tool_version or ""
            if grammar == "sacrebleu1":
                fields = [("numchars", "n", str(config.char_order)),
                          ("space", "s", "true" if config.whitespace else "false"), ("version", "v", version)]
                return metric_name(config) + "+" + "+".join(f"{s if short else k}.{v}" for k, s, v in fields)
            fields2 = {"nrefs": nrefs, "case": "lc" if config.lowercase else "mixed",
                       "eff": "no" if config.eps_smoothing else "yes", "nc": str(config.char_order),
                       "nw": str(config.word_order), "space": "yes" if config.whitespace else "no",
                       "version": version}
            return "|".join(f"{SHORT_KEYS[k] if short else k}:{v}" for k, v in fields2.items())
    return assay_signature("chrf", config, profile, nrefs)


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """The long form of :func:`chrf_signature`."""
    return chrf_signature(config, profile, nrefs, tool_version)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """sacrebleu 2.x CLI ``-f text``: ``chrF2|nrefs:1|… = 59.7``; 1.x: ``chrF2+numchars.6+… = 0.60``
    (1.x prints chrF, on its 0-1 scale, with ``-w`` + 1 decimals: 2 by default, 5 with ``-w 4``);
    other profiles: the value (full precision unless ``width`` decimals are asked for)."""
    name = metric_name(config)
    grammar = _grammar(profile)
    if grammar in ("sacrebleu2", "sacrebleu1"):
        w = (1 if width is None else width) + (1 if grammar == "sacrebleu1" else 0)
        if signature.startswith("assay:"):
            return f"{name} = {value:.{w}f}"
        if grammar == "sacrebleu1":
            return f"{signature} = {value:.{w}f}"
        return f"{name}|{signature} = {value:.{w}f}"
    return plain_value(value, width)


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """sacrebleu 2.x CLI JSON: name, score rounded to the width, signature and its fields."""
    if _grammar(profile) != "sacrebleu2" or signature.startswith("assay:"):
        return None
    return sacrebleu_json(metric_name(config), value, signature, width)
