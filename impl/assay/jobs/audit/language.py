"""The target language of an audit: given (``--lang de``, ``--lang en-ja``) or read from the text.

The language decides what "standard" means for BLEU (sacrebleu tokenizes Japanese with ja-mecab,
Korean with ko-mecab, Chinese with zh, everything else with 13a; see
:data:`assay.profiles.audit.LANGUAGE_TOKENIZERS`) and which Moses rules tokenise the input.

Detection reads the scripts of the hypothesis letters (Unicode blocks, by regular expression):
Hangul -> ko; Hiragana/Katakana at 5 % or more of the CJK letters -> ja (Japanese text mixes kana
and kanji; Chinese has no kana); otherwise Han -> zh. Text whose letters are less than 30 % CJK
is not detected (the standard stays 13a, Moses rules English) and the audit says so.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from assay.core.errors import KnobError

_KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")
_LANG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z]{2,3})?$")
#: letters read for detection (the first lines of the output are enough to tell a script)
SAMPLE_CHARS = 200_000
CJK_SHARE = 0.3
KANA_SHARE = 0.05


@dataclass(frozen=True)
class Language:
    """The target language (None: not known; the standard is then sacrebleu's 13a) and how it was found."""

    code: str | None
    how: str          # "given" | "detected" | "not detected"
    evidence: str = ""

    @property
    def moses(self) -> str:
        """The language Moses tokenisation is run with (English when unknown)."""
        return self.code or "en"


def target_language(lang: str | None) -> str | None:
    """``de`` -> ``de``; ``en-ja`` (a language pair, as sacrebleu's ``-l``) -> ``ja``; None -> None."""
    if lang is None or not str(lang).strip():
        return None
    text = str(lang).strip()
    if not _LANG.match(text):
        raise KnobError(f"--lang {text!r}: expected a language code (de, ja) or a pair (en-ja)")
    return re.split(r"[-_]", text)[-1].lower()


def detect_language(lines: Sequence[str | None]) -> Language:
    """The target language read from the scripts of ``lines`` (see the module docstring)."""
    letters = kana = hangul = han = 0
    for line in lines:
        if not line:
            continue
        letters += sum(1 for ch in line if ch.isalpha())
        kana += len(_KANA.findall(line))
        hangul += len(_HANGUL.findall(line))
        han += len(_HAN.findall(line))
        if letters >= SAMPLE_CHARS:
            break
    cjk = kana + hangul + han
    if letters == 0 or cjk < CJK_SHARE * letters:
        share = 0.0 if letters == 0 else cjk / letters
        return Language(None, "not detected", f"{share:.0%} of the hypothesis letters are CJK")
    share = f"{cjk / letters:.0%} of the hypothesis letters are CJK"
    if hangul >= max(kana, han):
        return Language("ko", "detected", f"{share}, mostly Hangul")
    if kana >= KANA_SHARE * (kana + han):
        return Language("ja", "detected", f"{share}: kana {kana / cjk:.0%}, kanji {han / cjk:.0%}")
    return Language("zh", "detected", f"{share}, Han characters without kana")


def resolve(lang: str | None, hyps: Sequence[str | None]) -> Language:
    """The language given (``--lang``), else the one detected from the hypotheses."""
    code = target_language(lang)
    if code is not None:
        return Language(code, "given")
    return detect_language(hyps)
