"""Tokenizer registry: knob value -> tokenizer instance (created lazily, cached)."""
from __future__ import annotations

from functools import lru_cache
from importlib import import_module

from assay.core.errors import KnobError, MissingDependencyError
from assay.tokenizers.base import Lowercase, Tokenizer, lowercase_text

# name -> "module:Class"; one module per tokenizer family.
_REGISTRY: dict[str, str] = {
    "none": "none:NoneTokenizer",
    "13a": "tok_13a:Tokenizer13a",
    "intl": "intl:TokenizerIntl",
    "zh": "zh:TokenizerZh",
    "char": "char:TokenizerChar",
    "space": "space:TokenizerSpace",
    "ja-mecab": "ja_mecab:TokenizerJaMecab",
    "multi-bleu": "multi_bleu:TokenizerMultiBleu",
    "mteval-13a": "mteval:TokenizerMteval13a",
    "mteval-intl": "mteval:TokenizerMtevalIntl",
}

TOKENIZER_NAMES: tuple[str, ...] = tuple(_REGISTRY)


@lru_cache(maxsize=None)
def get_tokenizer(name: str) -> Tokenizer:
    """Return the tokenizer registered under ``name`` (a :class:`KnobError` if unknown)."""
    try:
        target = _REGISTRY[name]
    except KeyError:
        raise KnobError(f"unknown tokenizer {name!r}; known: {', '.join(TOKENIZER_NAMES)}") from None
    module_name, class_name = target.split(":")
    try:
        module = import_module(f"{__name__}.{module_name}")
    except ImportError as exc:
        raise MissingDependencyError(f"tokenizer {name!r} cannot be loaded: {exc}") from None
    return getattr(module, class_name)()


__all__ = ["Tokenizer", "Lowercase", "lowercase_text", "get_tokenizer", "TOKENIZER_NAMES"]
