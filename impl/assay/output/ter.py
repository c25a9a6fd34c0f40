"""TER's presentation: sacrebleu's signatures, its CLI text line and JSON; assay's otherwise.

- sacrebleu 2.x: ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` (short
  ``#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:2.6.0``), printed as ``TER|… = 12.5``.
- sacrebleu 1.x: ``tok.tercom-nonorm-punct-noasian-uncased+version.1.5.1``, printed as
  ``TER+… = 0.125`` (its default ``-w 1`` prints 3 decimals).
- Which one a profile prints is its ``signature_grammar`` (``sacrebleu2``, ``sacrebleu1``), and
  only when sacrebleu itself can express the configuration: every knob other than the tokenizer
  options its signature names (:data:`SACREBLEU_KNOBS`) keeps the profile's value. Otherwise
  assay's signature (:func:`assay.output.signature.assay_signature`).
"""
from __future__ import annotations

from typing import Any

from assay.core.knobs import Config
from assay.output.signature import assay_signature, sacrebleu_json
from assay.profiles.registry import get_profile

#: knobs sacrebleu exposes (the tercom tokenizer's options); any other knob must keep the profile's value
SACREBLEU_KNOBS = frozenset({"normalized", "no_punct", "asian_support", "case_sensitive"})
TER_SHORT_KEYS = {"nrefs": "#", "case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as",
                  "version": "v"}


def _grammar(profile: str | None) -> str:
    """The signature grammar of the profile's tool (``""`` for a custom configuration)."""
    return get_profile("ter", profile).signature_grammar if profile else ""


def _sacrebleu_representable(config: Config, profile: str) -> bool:
    base = get_profile("ter", profile).knobs
    return all(config[k] == v for k, v in base.items() if k not in SACREBLEU_KNOBS)


def ter_fields(config: Config, nrefs: str, version: str) -> dict[str, str]:
    """sacrebleu 2.x signature fields in its order."""
    return {"nrefs": nrefs, "case": "mixed" if config.case_sensitive else "lc", "tok": "tercom",
            "norm": "yes" if config.normalized else "no", "punct": "no" if config.no_punct else "yes",
            "asian": "yes" if config.asian_support else "no", "version": version}


def ter_signature2(config: Config, nrefs: str, version: str, short: bool = False) -> str:
    """``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0`` (short: ``#:1|c:lc|t:tercom|…``)."""
    fields = ter_fields(config, nrefs, version)
    return "|".join(f"{TER_SHORT_KEYS[k] if short else k}:{v}" for k, v in fields.items())


def ter_signature1(config: Config, version: str, short: bool = False) -> str:
    """1.x: ``tok.tercom-nonorm-punct-noasian-uncased+version.1.5.1`` (printed after ``TER+``)."""
    tok = "-".join(["tercom", "norm" if config.normalized else "nonorm", "nopunct" if config.no_punct else "punct",
                    "asian" if config.asian_support else "noasian",
                    "cased" if config.case_sensitive else "uncased"])
    return f"{'t' if short else 'tok'}.{tok}+{'v' if short else 'version'}.{version}"


def signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
    """sacrebleu's signature for a configuration sacrebleu can express, else assay's."""
    grammar = _grammar(profile)
    if grammar in ("sacrebleu2", "sacrebleu1") and _sacrebleu_representable(config, profile):
        if grammar == "sacrebleu1":
            return ter_signature1(config, tool_version or "")
        return ter_signature2(config, nrefs, tool_version or "")
    return assay_signature("ter", config, profile, nrefs)


def format_text(value: float, components: dict[str, Any], config: Config, profile: str | None,
                signature: str, width: int | None) -> str:
    """``TER|<signature> = 12.5`` (2.x), ``TER+<signature> = 0.125`` (1.x), ``TER = …`` with assay's."""
    if signature.startswith("tok.tercom"):       # sacrebleu 1.x CLI: -w 1 (its default) prints 3 digits
        w = 3 if width in (None, 1) else width
        return f"TER+{signature} = {value:.{w}f}"
    w = 1 if width is None else width
    if signature.startswith("assay:"):
        return f"TER = {value:.{w}f}"
    return f"TER|{signature} = {value:.{w}f}"


def tool_json(value: float, components: dict[str, Any], config: Config, profile: str | None,
              signature: str, width: int | None) -> dict[str, Any] | None:
    """sacrebleu 2.x CLI JSON: score rounded to the width, signature and its fields (no verbose part)."""
    if _grammar(profile) != "sacrebleu2" or signature.startswith("assay:"):
        return None
    return sacrebleu_json("TER", value, signature, width)
