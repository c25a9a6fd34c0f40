"""Read score signatures back into assay configurations (and write them again, for round trips).

Grammars read (the strings sacrebleu itself prints; see fixtures/audit/signatures.json):

- sacrebleu 2.x: ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0`` (BLEU),
  ``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.0.0`` (chrF),
  ``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.0.0`` (TER), the short forms
  (``#:1|c:mixed|e:no|tok:13a|s:exp|v:2.0.0``; TER ``#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:…``),
  optionally prefixed by the metric name (``BLEU|…``, ``chrF2++|…``, ``-f text`` output) and with
  the bootstrap/test-set fields (``bs``, ``seed``/``rs``, ``ar``, ``test``, ``lang``, ...), which are kept
  as information only. A ``… = 20.8 …`` score part after the signature is ignored.
- sacrebleu 1.x: ``BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.5.1`` (short
  ``BLEU+c.mixed+#.1+s.exp+tok.13a+v.1.5.1``), ``chrF2+numchars.6+space.false+version.1.5.1``,
  ``TER+tok.tercom-nonorm-punct-noasian-uncased+version.1.5.1``. 1.x BLEU signatures do not record
  effective order (corpus BLEU: off).
- assay: ``assay:METRIC/PROFILE|nrefs:N|knob:value…|version:V`` (:func:`assay.output.signature.assay_signature`).

The chrF beta is only in the metric name (``chrF2``/``chrF3``); without a name it is sacrebleu's 2.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from assay.core.errors import AssayError, InputError, KnobError
from assay.core.knobs import Config
from assay.engine.api import make_config
from assay.output import presenter
from assay.output.chrf import chrf_signature
from assay.output.signature import bleu_signature
from assay.output.ter import ter_signature1, ter_signature2
from assay.profiles.registry import get_profile, profiles_of

INFO_KEYS = {"bs", "seed", "rs", "ar", "test", "lang", "l", "origlang", "o", "subset", "S"}
_BLEU2 = {"#": "nrefs", "c": "case", "e": "eff", "s": "smooth", "v": "version", "tok": "tok"}
_CHRF2 = {"#": "nrefs", "c": "case", "e": "eff", "s": "space", "v": "version", "nc": "nc", "nw": "nw"}
_TER2 = {"#": "nrefs", "c": "case", "t": "tok", "nr": "norm", "pn": "punct", "as": "asian", "v": "version"}
_BLEU1 = {"c": "case", "#": "numrefs", "s": "smooth", "tok": "tok", "v": "version", "t": "test", "l": "lang"}
_CHRF1 = {"n": "numchars", "s": "space", "v": "version", "c": "case", "#": "numrefs"}
_TER1 = {"t": "tok", "v": "version"}
_SMOOTH = re.compile(r"^(none|exp|floor|add-k)(?:\[([0-9.eE+-]+)\])?$")
_TOKENIZERS = {"13a": "13a", "intl": "intl", "zh": "zh", "char": "char", "none": "none",
               "ja-mecab-0.996-IPA": "ja-mecab", "ja-mecab": "ja-mecab", "mteval-13a": "mteval-13a",
               "mteval-intl": "mteval-intl", "multi-bleu": "multi-bleu", "space": "space"}


@dataclass
class ParsedSignature:
    """A signature read back: metric, profile and knobs, plus what it says about references."""

    text: str
    grammar: str                     # "sacrebleu2" | "sacrebleu1" | "assay"
    metric: str
    profile: str
    knobs: dict[str, Any]
    nrefs: str | None                # "1", "2", "var", or None (1.x chrF / TER do not record it)
    version: str | None
    short: bool = False
    name: str | None = None          # the metric name printed before it (BLEU, chrF2++ ...)
    info: dict[str, str] = field(default_factory=dict)

    def config(self) -> Config:
        return make_config(self.metric, self.profile, **self.knobs)[0]

    def describe(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in sorted(self.knobs.items())) or "profile defaults"
        return f"{self.metric}/{self.profile} ({shown}), nrefs {self.nrefs or 'unstated'}"


def parse_signature(text: str, metric: str | None = None) -> ParsedSignature:
    """Read a sacrebleu 1.x / 2.x or assay signature; :class:`InputError` when it cannot be read."""
    raw = str(text).strip()
    sig = raw.split(" = ", 1)[0].strip()
    if not sig:
        raise InputError("empty signature")
    try:
        if sig.startswith("assay:"):
            parsed = _parse_assay(raw, sig)
        elif re.match(r"^(BLEU|chrF[0-9.]*|TER)\+[A-Za-z#]+\.", sig):
            parsed = _parse_v1(raw, sig)
        elif ":" in sig:
            parsed = _parse_v2(raw, sig, metric)
        else:
            raise InputError("neither 'key:value|…' (sacrebleu 2.x / assay) nor 'NAME+key.value+…' (sacrebleu 1.x)")
    except InputError as exc:
        raise InputError(f"cannot read the signature {raw!r}: {exc}") from None
    except (KnobError, ValueError) as exc:
        raise InputError(f"signature {raw!r} describes no configuration assay knows: {exc}") from None
    if metric is not None and parsed.metric != metric.lower():
        raise InputError(f"signature {raw!r} is a {parsed.metric} signature, but the metric is {metric}")
    try:
        parsed.config()   # validates the profile and knobs
    except KnobError as exc:
        raise InputError(f"signature {raw!r} describes no configuration assay knows: {exc}") from None
    return parsed


# ----------------------------------------------------------------------------- sacrebleu 2.x
def _parse_v2(raw: str, sig: str, hint: str | None = None) -> ParsedSignature:
    # "..." / "…" stands for fields left out when quoting (README tables): they keep the defaults
    parts = [p for p in sig.split("|") if p.strip() not in ("", "...", "…")]
    name = None
    if parts and ":" not in parts[0]:
        name = parts.pop(0).strip()
    pairs: list[tuple[str, str]] = []
    for p in parts:
        key, sep, value = p.partition(":")
        if not sep:
            raise InputError(f"field {p!r} is not key:value")
        pairs.append((key.strip(), value.strip()))
    keys = {k for k, _ in pairs}
    metric = _metric_from_name(name) if name else None
    if metric is None:
        if hint is not None and hint.lower() in ("bleu", "chrf", "ter") and not keys & {"nc", "nw", "norm", "nr", "punct",
                                                                                     "pn", "asian", "as", "eff", "e"}:
            metric = hint.lower()
        elif keys & {"nc", "nw"}:
            metric = "chrf"
        elif keys & {"norm", "nr", "punct", "pn", "asian", "as"} or ("tok", "tercom") in pairs or ("t", "tercom") in pairs:
            metric = "ter"
        else:
            metric = "bleu"
    table = {"bleu": _BLEU2, "chrf": _CHRF2, "ter": _TER2}[metric]
    short = any(k in table and table[k] != k for k, _ in pairs if k not in INFO_KEYS - {"t"} or metric == "ter")
    fields: dict[str, str] = {}
    info: dict[str, str] = {}
    for key, value in pairs:
        if key in table:
            fields[table[key]] = value
        elif key in INFO_KEYS:
            info[key] = value
        elif key in table.values():
            fields[key] = value
        else:
            raise InputError(f"unknown {metric} signature field {key!r}")
    if "..." in fields.values() or any(v == "" for v in fields.values()):
        raise InputError("a field has no value")
    version = fields.get("version")
    legacy = bool(version and version.split(".")[0] in ("1", "0"))
    if metric == "bleu":
        knobs = _bleu_knobs(fields)
    elif metric == "chrf":
        knobs = _chrf_knobs(fields, name)
    else:
        knobs = _ter_knobs2(fields)
    # a 1.x version written in the 2.x grammar is read as a sacrebleu 1.x configuration
    profile = _signature_profile(metric, "sacrebleu1" if legacy else "sacrebleu2", knobs)
    return ParsedSignature(raw, "sacrebleu2", metric, profile, knobs, fields.get("nrefs"), version, short, name, info)


def _bleu_knobs(fields: dict[str, str]) -> dict[str, Any]:
    knobs: dict[str, Any] = {}
    if "case" in fields:
        knobs["lowercase"] = _choice(fields["case"], {"mixed": False, "lc": True}, "case")
    if "eff" in fields:
        knobs["effective_order"] = _choice(fields["eff"], {"yes": True, "no": False}, "eff")
    if "tok" in fields:
        if fields["tok"] not in _TOKENIZERS:
            raise KnobError(f"tokenizer {fields['tok']!r} (assay has {', '.join(sorted(set(_TOKENIZERS.values())))})")
        knobs["tokenize"] = _TOKENIZERS[fields["tok"]]
    if "smooth" in fields:
        m = _SMOOTH.match(fields["smooth"])
        if m is None:
            raise InputError(f"smoothing {fields['smooth']!r} is not none, exp, floor[v] or add-k[v]")
        knobs["smooth_method"] = m.group(1)
        if m.group(2) is not None:
            knobs["smooth_value"] = float(m.group(2))
    return knobs


def _chrf_knobs(fields: dict[str, str], name: str | None) -> dict[str, Any]:
    knobs: dict[str, Any] = {}
    if "case" in fields:
        knobs["lowercase"] = _choice(fields["case"], {"mixed": False, "lc": True}, "case")
    if "eff" in fields:
        knobs["eps_smoothing"] = _choice(fields["eff"], {"yes": False, "no": True}, "eff")
    if "nc" in fields:
        knobs["char_order"] = _int(fields["nc"], "nc")
    if "nw" in fields:
        knobs["word_order"] = _int(fields["nw"], "nw")
    if "space" in fields:
        knobs["whitespace"] = _choice(fields["space"], {"yes": True, "no": False}, "space")
    beta = _chrf_beta(name)
    if beta is not None:
        knobs["beta"] = beta
    return knobs


def _ter_knobs2(fields: dict[str, str]) -> dict[str, Any]:
    knobs: dict[str, Any] = {}
    if "case" in fields:
        knobs["case_sensitive"] = _choice(fields["case"], {"mixed": True, "lc": False}, "case")
    if "tok" in fields and fields["tok"] != "tercom":
        raise InputError(f"TER tokenizer {fields['tok']!r} (sacrebleu has only tercom)")
    for key, knob, table in (("norm", "normalized", {"yes": True, "no": False}),
                             ("punct", "no_punct", {"yes": False, "no": True}),
                             ("asian", "asian_support", {"yes": True, "no": False})):
        if key in fields:
            knobs[knob] = _choice(fields[key], table, key)
    return knobs


# ----------------------------------------------------------------------------- sacrebleu 1.x
def _parse_v1(raw: str, sig: str) -> ParsedSignature:
    name, _, rest = sig.partition("+")
    metric = _metric_from_name(name)
    table = {"bleu": _BLEU1, "chrf": _CHRF1, "ter": _TER1}[metric]
    fields: dict[str, str] = {}
    short = False
    for part in rest.split("+"):
        key, sep, value = part.partition(".")
        if not sep or not value:
            raise InputError(f"field {part!r} is not key.value")
        if key in table:
            short = short or table[key] != key
            fields[table[key]] = value
        elif key in table.values():
            fields[key] = value
        else:
            raise InputError(f"unknown sacrebleu 1.x {metric} field {key!r}")
    version = fields.get("version")
    info = {k: fields.pop(k) for k in ("test", "lang", "origlang", "subset") if k in fields}
    if metric == "bleu":
        knobs = _bleu_knobs(fields)
        nrefs = fields.get("numrefs")
    elif metric == "chrf":
        knobs = {}
        if "numchars" in fields:
            knobs["char_order"] = _int(fields["numchars"], "numchars")
        if "space" in fields:
            knobs["whitespace"] = _choice(fields["space"].lower(), {"true": True, "false": False}, "space")
        beta = _chrf_beta(name)
        if beta is not None:
            knobs["beta"] = beta
        nrefs = fields.get("numrefs")
    else:
        knobs = _ter_tok1(fields.get("tok", "tercom-nonorm-punct-noasian-uncased"))
        nrefs = None
    return ParsedSignature(raw, "sacrebleu1", metric, _signature_profile(metric, "sacrebleu1", knobs), knobs, nrefs,
                           version, short, name, info)


def _ter_tok1(tok: str) -> dict[str, Any]:
    parts = tok.split("-")
    if len(parts) != 5 or parts[0] != "tercom":
        raise InputError(f"TER tokenizer field {tok!r} is not tercom-<norm>-<punct>-<asian>-<case>")
    return {"normalized": _choice(parts[1], {"norm": True, "nonorm": False}, "norm"),
            "no_punct": _choice(parts[2], {"punct": False, "nopunct": True}, "punct"),
            "asian_support": _choice(parts[3], {"asian": True, "noasian": False}, "asian"),
            "case_sensitive": _choice(parts[4], {"cased": True, "uncased": False}, "case")}


# ----------------------------------------------------------------------------- assay
def _parse_assay(raw: str, sig: str) -> ParsedSignature:
    parts = sig.split("|")
    head = parts[0][len("assay:"):]
    metric, _, profile = head.partition("/")
    if not metric or not profile:
        raise InputError(f"{parts[0]!r} is not assay:METRIC/PROFILE")
    knobs: dict[str, Any] = {}
    nrefs = version = None
    for p in parts[1:]:
        key, sep, value = p.partition(":")
        if not sep:
            raise InputError(f"field {p!r} is not key:value")
        if key == "nrefs":
            nrefs = value
        elif key == "version":
            version = value
        else:
            knobs[key] = _assay_value(value)
    if profile == "custom":
        raise InputError("a custom configuration (no profile) cannot be read back")
    return ParsedSignature(raw, "assay", metric.lower(), profile, knobs, nrefs, version)


def _assay_value(text: str) -> Any:
    if text.startswith("(") and text.endswith(")"):
        return text[1:-1]               # tuples: the knob's own parser reads "a,b"
    if text == "None":
        return None
    return text


# ----------------------------------------------------------------------------- helpers
def _signature_profile(metric: str, grammar: str, knobs: dict[str, Any]) -> str:
    """The profile of ``metric`` whose tool prints ``grammar`` signatures (``Profile.signature_grammar``)
    and whose knobs agree with the signature's on the most knobs; on a tie the default profile, then
    the first registered (chrF: ``nw:2`` selects sacrebleu's chrF++ profile, any other ``nw`` chrF)."""
    candidates = [p for p in profiles_of(metric) if p.signature_grammar == grammar]
    if not candidates:
        raise InputError(f"no {metric} profile reproduces {grammar} signatures")
    default = get_profile(metric, None).name

    def agreement(p: Any) -> tuple[int, bool]:
        return sum(1 for k, v in knobs.items() if k in p.knobs and p.knobs[k] == v), p.name == default

    return max(candidates, key=agreement).name


def _metric_from_name(name: str | None) -> str | None:
    if not name:
        return None
    low = name.lower()
    if low.startswith("bleu"):
        return "bleu"
    if low.startswith("chrf"):
        return "chrf"
    if low.startswith("ter"):
        return "ter"
    raise InputError(f"unknown metric name {name!r} in the signature")


def _chrf_beta(name: str | None) -> int | float | None:
    m = re.match(r"^chrF([0-9.]+)", name or "")
    if not m:
        return None
    return float(m.group(1)) if "." in m.group(1) else int(m.group(1))


def _choice(value: str, table: dict[str, Any], key: str) -> Any:
    if value not in table:
        raise InputError(f"{key}:{value} (expected {' or '.join(table)})")
    return table[value]


def _int(value: str, key: str) -> int:
    if not value.isdigit():
        raise InputError(f"{key} must be a whole number, got {value!r}")
    return int(value)


# ----------------------------------------------------------------------------- writing (round trips)
def format_signature(parsed: ParsedSignature, nrefs: str | None = None) -> str:
    """The signature assay prints for the parsed configuration, in the parsed grammar and form."""
    config = parsed.config()
    version = parsed.version or get_profile(parsed.metric, parsed.profile).tool_version
    n = nrefs or parsed.nrefs or "1"
    if parsed.grammar == "assay":
        return presenter(parsed.metric).signature(config, parsed.profile, n, version)
    if parsed.metric == "bleu":
        return bleu_signature(config, parsed.profile, n, version, short=parsed.short)
    if parsed.metric == "chrf":
        text = chrf_signature(config, parsed.profile, n, version, short=parsed.short)
        return f"{parsed.name}|{text}" if parsed.name and parsed.grammar == "sacrebleu2" else text
    if parsed.grammar == "sacrebleu1":
        return "TER+" + ter_signature1(config, version, short=parsed.short)
    return ter_signature2(config, n, version, short=parsed.short)


__all__ = ["ParsedSignature", "parse_signature", "format_signature", "AssayError"]
