"""Turning raw segments (or token lists) into token lists under a config's tokenisation knobs."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from assay.core.errors import InputError
from assay.core.items import has_none, only_strings
from assay.tokenizers import get_tokenizer, lowercase_text

_TOKEN_LIST_TYPES = (list, tuple)
_NONE = type(None)


def is_pretokenized(segments: Sequence[Any]) -> bool:
    """True when segments are token lists (NLTK call shape) rather than strings: there is at least
    one segment and every segment that is not None is a list or tuple.

    Decided on the set of the segments' types (one C-level pass, then one check per distinct type).
    """
    if not segments:
        return False
    return pretokenized_types(set(map(type, segments)))


def pretokenized_types(types: set[type]) -> bool:
    """:func:`is_pretokenized` of non-empty segments whose types are ``types``."""
    return all(t is _NONE or issubclass(t, _TOKEN_LIST_TYPES) for t in types)


def tokenize_segments(segments: Sequence[Any], config: Mapping[str, Any], *,
                      lowercase_after: bool = False) -> list[Sequence[str]]:
    """Tokens of each segment: the configured tokenizer on strings, or token lists as given.

    Token lists (NLTK's input shape) are used as they are (the caller's lists, not copies: callers
    only read them), lowercased per token when the ``lowercase`` knob is on; they require
    ``tokenize='none'`` so that no rule is silently skipped.
    """
    mode = config["lowercase_mode"] if config["lowercase"] else None
    if is_pretokenized(segments):
        if config["tokenize"] != "none":
            raise InputError(f"token lists were given but tokenize={config['tokenize']!r}; "
                             "pass strings, or set tokenize=none for pre-tokenised input")
        if mode is None:
            return list(segments)
        return [[lowercase_text(t, mode) for t in seg] for seg in segments]
    if not only_strings(segments):
        for i, seg in enumerate(segments):
            if not isinstance(seg, str):
                raise InputError(f"segment {i + 1}: expected a string or a list of tokens, "
                                 f"got {type(seg).__name__}")
    tokenizer = get_tokenizer(config["tokenize"])
    if lowercase_after and mode is not None:
        return [[lowercase_text(t, mode) for t in toks] for toks in tokenizer.tokenize_lines(segments, None)]
    return tokenizer.tokenize_lines(segments, mode)


def tokenize_refs(refs: Sequence[Sequence[Any]], config: Mapping[str, Any]) -> list[list[Sequence[str] | None]]:
    """Tokenise every reference stream; ``None`` entries (missing references) stay ``None``."""
    out: list[list[Sequence[str] | None]] = []
    lowercase_after = bool(config.get("lowercase_refs_after_tokenizing", False))
    for stream in refs:
        if not has_none(stream):
            out.append(tokenize_segments(stream, config, lowercase_after=lowercase_after))
            continue
        present = [i for i, r in enumerate(stream) if r is not None]
        toks = tokenize_segments([stream[i] for i in present], config, lowercase_after=lowercase_after)
        full: list[Sequence[str] | None] = [None] * len(stream)
        for i, t in zip(present, toks):
            full[i] = t
        out.append(full)
    return out
