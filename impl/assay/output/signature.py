"""Signatures: a string naming every setting behind a score.

sacrebleu profiles get sacrebleu's own format, so a signature printed in a paper can be
compared character for character: 2.x ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``
(short ``#:1|c:mixed|e:no|tok:13a|s:exp|v:2.6.0``), 1.x ``BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.5.1``.
Every other configuration gets assay's format: the profile, then each knob that differs from
the profile, then assay's version: ``assay:bleu/nltk|nrefs:1|smooth_method:exp|version:0.1.0``.
"""
from __future__ import annotations

from typing import Any

from assay._version import __version__
from assay.core.knobs import Config
from assay.profiles.registry import get_profile
from assay.tokenizers import get_tokenizer

SACREBLEU_TOKENIZERS = {"13a", "intl", "zh", "char", "none", "ja-mecab"}
SHORT_KEYS = {"nrefs": "#", "case": "c", "eff": "e", "tok": "tok", "smooth": "s", "version": "v"}


# the knobs sacrebleu itself exposes; any other knob must keep the profile's value
SACREBLEU_KNOBS = {"tokenize", "lowercase", "smooth_method", "smooth_value", "effective_order", "max_ngram_order"}


def sacrebleu_representable(config: Config, profile: str) -> bool:
    """True when sacrebleu itself can express this configuration (so its signature is honest)."""
    base = get_profile("bleu", profile).knobs
    return (config.tokenize in SACREBLEU_TOKENIZERS and config.smooth_method in ("none", "floor", "add-k", "exp")
            and all(config[k] == v for k, v in base.items() if k not in SACREBLEU_KNOBS))


def sacrebleu_fields(config: Config, nrefs: str, version: str) -> dict[str, str]:
    smooth = config.smooth_method
    if smooth in ("floor", "add-k"):
        value = config.smooth_value if config.smooth_value is not None else {"floor": 0.1, "add-k": 1.0}[smooth]
        smooth = f"{smooth}[{value:.2f}]"
    return {"nrefs": nrefs, "case": "lc" if config.lowercase else "mixed",
            "eff": "yes" if config.effective_order else "no",
            "tok": get_tokenizer(config.tokenize).signature_name, "smooth": smooth, "version": version}


def format_sacrebleu2(fields: dict[str, str], short: bool = False) -> str:
    keys = SHORT_KEYS if short else {k: k for k in fields}
    return "|".join(f"{keys[k]}:{v}" for k, v in fields.items())


def format_sacrebleu1(fields: dict[str, str], short: bool = False) -> str:
    """1.x: ``BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.5.1`` (no eff field)."""
    order = ["case", "nrefs", "smooth", "tok", "version"]
    long_names = {"nrefs": "numrefs"}
    short_names = {"case": "c", "nrefs": "#", "smooth": "s", "tok": "tok", "version": "v"}
    names = short_names if short else {k: long_names.get(k, k) for k in order}
    return "BLEU+" + "+".join(f"{names[k]}.{fields[k]}" for k in order)


def bleu_signature(config: Config, profile: str | None, nrefs: str, tool_version: str | None,
                   short: bool = False) -> str:
    grammar = get_profile("bleu", profile).signature_grammar if profile else ""
    if grammar and sacrebleu_representable(config, profile):
        fields = sacrebleu_fields(config, nrefs, tool_version or "")
        if grammar == "sacrebleu1":
            return format_sacrebleu1(fields, short)
        return format_sacrebleu2(fields, short)
    return assay_signature("bleu", config, profile, nrefs)


def assay_signature(metric: str, config: Config, profile: str | None, nrefs: str) -> str:
    """``assay:METRIC/PROFILE|nrefs:N|knob:value…|version:V`` listing knobs that differ from the profile."""
    base: dict[str, Any] = config.knobset.defaults()
    if profile:
        base.update(get_profile(metric, profile).knobs)
    parts = [f"assay:{metric}/{profile or 'custom'}", f"nrefs:{nrefs}"]
    for name, value in config.items():
        if name not in base or base[name] != value:
            parts.append(f"{name}:{_show(value)}")
    parts.append(f"version:{__version__}")
    return "|".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "(" + ",".join(_show(v) for v in value) + ")"
    return str(value)


def plain_value(value: float, width: int | None) -> str:
    """A score as a tool's Python API returns it: ``repr`` of the float, or ``width`` decimals if asked."""
    return repr(float(value)) if width is None else f"{value:.{width}f}"


def sacrebleu_json(name: str, value: float, signature: str, width: int | None,
                   verbose: str | None = None) -> dict[str, Any]:
    """sacrebleu 2.x's CLI JSON: ``name``, the score rounded to the printed width (default 1, as
    sacrebleu does), the signature, the verbose part where the metric has one, then each signature
    field as its own key."""
    w = 1 if width is None else width
    out: dict[str, Any] = {"name": name, "score": float(f"{value:.{w}f}"), "signature": signature}
    if verbose is not None:
        out["verbose_score"] = verbose
    for part in signature.split("|"):
        key, _, val = part.partition(":")
        out[key] = val
    return out
