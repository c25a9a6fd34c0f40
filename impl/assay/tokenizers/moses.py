"""Moses ``tokenizer.perl`` as used before tokenised BLEU (multi-bleu.perl), via sacremoses.

Used by ``assay audit`` to reproduce scores computed on pre-tokenised text. It is an optional
dependency (extra ``moses``: ``sacremoses==0.2.0``, the Python port of the Moses tokenizer); when
it is missing, :func:`moses_tokenize` raises :class:`MissingDependencyError` naming the extra.

``escape=False``: tokenizer.perl's default XML escaping (``&`` -> ``&amp;``) renames tokens
consistently on both sides and never changes token boundaries, so BLEU is the same either way.
``aggressive`` is tokenizer.perl ``-a``: a hyphen between alphanumerics becomes the token ``@-@``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Sequence

from assay.core.errors import MissingDependencyError

#: tensor2tensor get_ende_bleu.sh / fairseq compound_split_bleu.sh: perl -ple 's{(\S)-(\S)}{$1 ##AT##-##AT## $2}g'
#: (Perl on bytes: \S is "not ASCII whitespace", hence re.ASCII; non-overlapping left to right, so
#: ``a-b-c`` -> ``a ##AT##-##AT## b-c``, exactly as the Perl one-liner does).
_COMPOUND = re.compile(r"(\S)-(\S)", re.ASCII)
COMPOUND_TOKEN = "##AT##-##AT##"


@lru_cache(maxsize=None)
def _tokenizer(lang: str) -> Any:
    try:
        from sacremoses import MosesTokenizer  # local: optional dependency (the moses extra)
    except ImportError:
        raise MissingDependencyError(
            "Moses tokenisation needs sacremoses (pip install 'assay-metrics[moses]', i.e. sacremoses==0.2.0)") from None
    return MosesTokenizer(lang=lang)


def moses_available() -> bool:
    try:
        import sacremoses  # noqa: F401  # local: optional dependency (the moses extra)
    except ImportError:
        return False
    return True


def moses_tokenize(lines: Sequence[str | None], lang: str = "en", aggressive: bool = False) -> list[str | None]:
    """tokenizer.perl -l LANG [-a] -no-escape on every line (None = a missing reference stays None)."""
    tok = _tokenizer(lang)
    return [None if line is None else tok.tokenize(line, return_str=True, escape=False,
                                                   aggressive_dash_splits=aggressive)
            for line in lines]


def compound_split(lines: Sequence[str | None]) -> list[str | None]:
    """The ``##AT##-##AT##`` compound-splitting convention of tokenised en-de BLEU (Vaswani et al. 2017)."""
    return [None if line is None else _COMPOUND.sub(r"\1 " + COMPOUND_TOKEN + r" \2", line) for line in lines]
