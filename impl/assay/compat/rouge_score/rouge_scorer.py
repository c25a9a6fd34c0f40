"""rouge-score 0.1.2's ``rouge_scorer.RougeScorer``, computed by assay's ``rouge/rouge-score`` profile.

``RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)``:

- ``score(target, prediction)`` -> ``{type: Score(precision, recall, fmeasure)}`` in the order of
  ``rouge_types`` (note the order: the reference first, as in rouge-score);
- ``score_multi(targets, prediction)``: per type, the target with the highest F (the first on ties).

Types are rouge-score's: ``rougeN`` (N >= 1), ``rougeL`` (LCS of the whole texts) and ``rougeLsum``
(union LCS over newline-separated sentences). ``use_stemmer`` is NLTK's Porter stemmer on tokens of
more than 3 characters (knob ``stemmer=porter-nltk``). A ``tokenizer`` object (anything with
``tokenize(text) -> list[str]``) replaces the default tokenizer, as in rouge-score: no stemming then,
and rougeLsum tokenises each line separately; its tokens are compared exactly as strings.

Differences, on purpose: ``split_summaries=True`` with ``rougeLsum`` splits sentences with NLTK's
Punkt model in rouge-score, which assay does not reimplement: a :class:`KnobError` (join your
sentences with newlines instead); types rouge-score cannot score (``rougeW``, ``rougeS4``, ...) and
non-string texts are rejected when given, not at some later call; ``score_multi`` with no target is
an :class:`InputError` (rouge-score: numpy's ``ValueError``).
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from assay.compat.rouge_score.scoring import Score
from assay.core.errors import InputError, KnobError
from assay.engine import api

__all__ = ["RougeScorer", "Score"]

_TYPE = re.compile(r"rouge(?:[1-9][0-9]*|L|Lsum)")
PROFILE = "rouge-score"


def _check_text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"RougeScorer: {what} must be a string, got {type(value).__name__}")
    return value


class _Vocabulary:
    """Tokens of a user tokenizer as placeholder words (``w0 w1 …``) that assay's rouge-score
    tokenizer keeps one for one: any token (spaces, punctuation, case) is then compared exactly."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}

    def words(self, tokens: Iterable[Any]) -> str:
        out = []
        for token in tokens:
            key = str(token)
            word = self.ids.get(key)
            if word is None:
                word = self.ids[key] = f"w{len(self.ids)}"
            out.append(word)
        return " ".join(out)


class RougeScorer:
    """rouge-score's ``RougeScorer`` (see the module docstring)."""

    def __init__(self, rouge_types: Sequence[str], use_stemmer: bool = False, split_summaries: bool = False,
                 tokenizer: Any = None):
        if isinstance(rouge_types, str):
            rouge_types = [rouge_types]
        types = list(rouge_types)
        if not types:
            raise KnobError("RougeScorer: rouge_types is empty")
        for t in types:
            if not isinstance(t, str) or not _TYPE.fullmatch(t):
                raise KnobError(f"RougeScorer: invalid rouge type {t!r} (rouge-score scores rouge1..rougeN, "
                                "rougeL and rougeLsum; assay.score('rouge', ...) has rougeW, rougeS, rougeSU)")
        if split_summaries and "rougeLsum" in types:
            raise KnobError("RougeScorer: split_summaries=True splits rougeLsum sentences with NLTK's Punkt "
                            "model, which assay does not reimplement; put one sentence per line instead")
        if tokenizer is not None and not callable(getattr(tokenizer, "tokenize", None)):
            raise KnobError("RougeScorer: tokenizer must have a tokenize(text) method")
        self.rouge_types = types
        self._tokenizer = tokenizer
        stem = {} if tokenizer is not None else {"use_stemmer": bool(use_stemmer)}
        lsum = [t for t in types if t == "rougeLsum"]
        whole = [t for t in types if t != "rougeLsum"]
        self._configured = {kind: api.configure("rouge", PROFILE, "corpus", types=ts, **stem)
                            for kind, ts in (("lsum", lsum), ("whole", whole)) if ts}

    def _texts(self, kind: str, texts: list[str], vocab: _Vocabulary) -> list[str]:
        """The texts as assay scores them: unchanged, or through the user's tokenizer."""
        if self._tokenizer is None:
            return texts
        if kind == "lsum":
            return ["\n".join(vocab.words(self._tokenizer.tokenize(line)) for line in text.split("\n"))
                    for text in texts]
        return [vocab.words(self._tokenizer.tokenize(text)) for text in texts]

    def _score(self, targets: list[str], prediction: str) -> dict[str, Score]:
        found: dict[str, Score] = {}
        vocab = _Vocabulary()
        for kind, configured in self._configured.items():
            texts = self._texts(kind, [prediction, *targets], vocab)
            result = api.score_configured(configured, texts[:1], [[t] for t in texts[1:]])
            for t in configured.config.types:
                c = result.components[t]
                found[t] = Score(precision=c["p"], recall=c["r"], fmeasure=c["f"])
        return {t: found[t] for t in self.rouge_types}

    def score(self, target: str, prediction: str) -> dict[str, Score]:
        """``{type: Score}`` of ``prediction`` against one ``target`` (the reference)."""
        return self._score([_check_text(target, "target")], _check_text(prediction, "prediction"))

    def score_multi(self, targets: Sequence[str], prediction: str) -> dict[str, Score]:
        """Per type, the ``Score`` of the target with the highest F (the first on ties)."""
        if isinstance(targets, str) or not isinstance(targets, Sequence):
            raise InputError("RougeScorer.score_multi: targets must be a list of strings")
        if not targets:
            raise InputError("RougeScorer.score_multi: no target")
        return self._score([_check_text(t, f"target {i + 1}") for i, t in enumerate(targets)],
                           _check_text(prediction, "prediction"))
