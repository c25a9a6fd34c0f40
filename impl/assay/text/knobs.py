"""Knobs shared by the n-gram families (BLEU and NIST): how a segment becomes tokens.

Declared once here so that the families never import each other. All are ``text`` stage: they
decide the tokens, hence every statistic computed from them.

- ``tokenize``: the tokenizer (:mod:`assay.tokenizers`), sacrebleu's ``-tok``; mteval's default
  and ``--international-tokenization`` are the ``mteval-13a``/``mteval-intl`` tokenizers.
- ``lowercase`` / ``lowercase_mode``: casing, and which lowercasing: Python's ``str.lower()``,
  Perl's ``lc`` (no final-sigma rule), or ASCII ``A-Z`` only (Perl ``tr``/byte ``lc``).
- aliases ``case_sensitive`` (mteval ``-c``) and ``international_tokenization``.
"""
from __future__ import annotations

import numbers
from typing import Any

from assay.core.domains import Boolean, choice
from assay.core.knobs import Alias, Knob, parse_bool
from assay.tokenizers import TOKENIZER_NAMES

LOWERCASE_MODES: tuple[str, ...] = ("unicode", "perl", "ascii")


def parse_int(value: Any) -> Any:
    """An integer knob's value: integers and whole numbers (``4``, ``4.0``, ``"4"``, numpy ints) as int;
    other numbers unchanged for the domain to reject (``int(2.5)`` would silently give 2)."""
    if isinstance(value, bool):
        raise ValueError(f"expected an integer, got {value!r}")
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            value = float(text)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        number = float(value)
        return int(number) if number.is_integer() else number
    raise ValueError(f"expected an integer, got {value!r}")


TOKENIZE = Knob(
    "tokenize", "13a", "tokenizer applied to hypotheses and references", str, TOKENIZER_NAMES,
    "sacrebleu tokenize/-tok; multi-bleu (whitespace); mteval default/--international-tokenization",
    stage="text", domain=choice(*TOKENIZER_NAMES))

LOWERCASE = Knob(
    "lowercase", False, "lowercase hypotheses and references", parse_bool,
    tool_names="sacrebleu lowercase/-lc; multi-bleu -lc; mteval: not case_sensitive (-c)",
    stage="text", domain=Boolean())

LOWERCASE_MODE = Knob(
    "lowercase_mode", "unicode", "unicode = str.lower(); perl = Perl lc (no final sigma); "
    "ascii = A-Z only (Perl tr/byte lc)", str, LOWERCASE_MODES,
    "multi-bleu -lc and mteval default: ascii; multi-bleu-detok -lc and mteval intl: perl",
    stage="text", domain=choice(*LOWERCASE_MODES))

CASE_SENSITIVE = Alias(
    "case_sensitive", "mteval -c: true = no lowercasing", lambda v: {"lowercase": not parse_bool(v)})

INTERNATIONAL_TOKENIZATION = Alias(
    "international_tokenization", "mteval --international-tokenization (Unicode lc)",
    lambda v: {"tokenize": "mteval-intl", "lowercase_mode": "perl"} if parse_bool(v)
    else {"tokenize": "mteval-13a", "lowercase_mode": "ascii"})
