"""``ja-mecab``: sacrebleu's Japanese tokenizer (MeCab 0.996 with the IPA dictionary).

``tokenize(line)`` = MeCab ``-Owakati`` output of ``line.strip()``, stripped: morphemes separated by
single spaces (``私は学生です。`` -> ``私 は 学生 です 。``). MeCab decides everything else: it
splits ASCII punctuation (``Hello, world!`` -> ``Hello , world !``), keeps entities as text
(``&quot;`` -> ``& quot ;``) and may emit whitespace such as U+3000 or U+001C as its own morpheme,
which the final ``str.split()`` then drops. Signature name ``ja-mecab-0.996-IPA`` as in sacrebleu.

Optional extra: needs ``mecab-python3`` and ``ipadic`` (``pip install 'assay-metrics[ja]'``).
They are imported on first use, not when :mod:`assay` is imported; if they are missing,
:class:`assay.core.errors.MissingDependencyError` says so. The tagger is created with the ``ipadic``
package's own ``MECAB_ARGS`` plus ``-Owakati``, and the dictionary must have 392126 entries (the
IPA dictionary sacrebleu checks for); any other dictionary would silently change the tokens.
"""
from __future__ import annotations

from typing import Any

from assay.core.errors import MissingDependencyError
from assay.tokenizers.base import Tokenizer

IPADIC_SIZE = 392126
INSTALL_HINT = "pip install 'assay-metrics[ja]'"


class TokenizerJaMecab(Tokenizer):
    name = "ja-mecab"
    signature_name = "ja-mecab-0.996-IPA"

    def __init__(self) -> None:
        self._tagger: Any = None

    def _get_tagger(self) -> Any:
        if self._tagger is None:
            try:
                import ipadic  # local: optional dependency (the ja extra)
                import MeCab  # local: optional dependency (the ja extra)
            except ImportError as exc:
                raise MissingDependencyError(
                    f"the 'ja-mecab' tokenizer needs MeCab with the IPA dictionary "
                    f"(mecab-python3 and ipadic), which could not be imported ({exc}); "
                    f"install them with: {INSTALL_HINT}") from None
            tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
            size = tagger.dictionary_info().size
            if size != IPADIC_SIZE:
                raise MissingDependencyError(
                    f"the 'ja-mecab' tokenizer needs the IPA dictionary with {IPADIC_SIZE} entries, "
                    f"but MeCab loaded one with {size}; reinstall with: {INSTALL_HINT}")
            self._tagger = tagger
        return self._tagger

    def tokenize(self, line: str) -> str:
        return self._get_tagger().parse(line.strip()).strip()
