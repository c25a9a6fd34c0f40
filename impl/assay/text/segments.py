"""Turning raw segments (or token lists) into token lists under a config's tokenisation knobs."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from assay.core.errors import InputError
from assay.tokenizers import get_tokenizer, lowercase_text


def is_pretokenized(segments: Sequence[Any]) -> bool:
    """True when segments are token lists (NLTK call shape) rather than strings."""
    return bool(segments) and all(isinstance(s, (list, tuple)) for s in segments if s is not None)


def tokenize_segments(segments: Sequence[Any], config: Mapping[str, Any], *,
                      lowercase_after: bool = False) -> list[list[str]]:
    """Tokens of each segment: the configured tokenizer on strings, or token lists as given.

    Token lists (NLTK's input shape) are used as they are, lowercased per token when the
    ``lowercase`` knob is on; they require ``tokenize='none'`` so that no rule is silently skipped.
    """
    mode = config["lowercase_mode"] if config["lowercase"] else None
    if is_pretokenized(segments):
        if config["tokenize"] != "none":
            raise InputError(f"token lists were given but tokenize={config['tokenize']!r}; "
                             "pass strings, or set tokenize=none for pre-tokenised input")
        if mode is None:
            return [list(seg) for seg in segments]
        return [[lowercase_text(t, mode) for t in seg] for seg in segments]
    for i, seg in enumerate(segments):
        if not isinstance(seg, str):
            raise InputError(f"segment {i + 1}: expected a string or a list of tokens, got {type(seg).__name__}")
    tokenizer = get_tokenizer(config["tokenize"])
    if lowercase_after and mode is not None:
        return [[lowercase_text(t, mode) for t in toks] for toks in tokenizer.tokenize_lines(segments, None)]
    return tokenizer.tokenize_lines(segments, mode)


def tokenize_refs(refs: Sequence[Sequence[Any]], config: Mapping[str, Any]) -> list[list[list[str] | None]]:
    """Tokenise every reference stream; ``None`` entries (missing references) stay ``None``."""
    out: list[list[list[str] | None]] = []
    for stream in refs:
        present = [i for i, r in enumerate(stream) if r is not None]
        toks = tokenize_segments([stream[i] for i in present], config,
                                 lowercase_after=bool(config.get("lowercase_refs_after_tokenizing", False)))
        full: list[list[str] | None] = [None] * len(stream)
        for i, t in zip(present, toks):
            full[i] = t
        out.append(full)
    return out
