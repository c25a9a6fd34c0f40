"""NLTK-shaped functions computed by assay (profile ``nltk``): ``corpus_bleu``, ``sentence_bleu``,
``corpus_nist``, ``sentence_nist``.

The call shapes are NLTK's (per-segment references, token lists), so code written against
``nltk.translate`` can switch by changing the import. Two deliberate differences:

- A hypothesis or reference given as a ``str`` is rejected with :class:`assay.core.errors.InputError`.
  NLTK iterates a string character by character and silently scores characters
  (``sentence_bleu(["the cat sat on the mat"], "the cat sat on a mat")`` gives 0.776 there).
- An empty corpus is an :class:`~assay.core.errors.InputError` (NLTK: ``ZeroDivisionError``).

Where NLTK itself fails (method6's ``AssertionError``, NIST's ``ZeroDivisionError``), an
:class:`assay.core.errors.ToolBehaviourError` is raised whose ``tool_error`` names NLTK's exception.
``smoothing_function`` takes ``None`` (method0), ``"method3"``/``3``, or a bound method of an NLTK
``SmoothingFunction`` (its ``epsilon``, ``alpha`` and ``k`` are honoured; NLTK is never imported).
"""
from __future__ import annotations

from typing import Any, Sequence

from assay.engine import api
from assay.core.errors import InputError

DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)

__all__ = ["corpus_bleu", "sentence_bleu", "corpus_nist", "sentence_nist"]


def _check_tokens(value: Any, what: str) -> list[str]:
    if isinstance(value, str):
        preview = value if len(value) <= 40 else value[:37] + "..."
        raise InputError(f"{what} is a string ({preview!r}), not a list of tokens; NLTK would iterate it "
                         f"character by character and score characters. Pass a token list, e.g. "
                         f"{preview!r}.split()")
    if not isinstance(value, (list, tuple)):
        raise InputError(f"{what} must be a list of tokens, got {type(value).__name__}")
    for t in value:
        if not isinstance(t, str):
            raise InputError(f"{what} must be a list of string tokens, found {type(t).__name__} {t!r}")
    return list(value)


def _check_corpus(list_of_references: Any, hypotheses: Any) -> tuple[list[list[list[str]]], list[list[str]]]:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError("hypotheses must be a list of token lists (one per segment)")
    if isinstance(list_of_references, str) or not isinstance(list_of_references, Sequence):
        raise InputError("list_of_references must hold, per segment, a list of reference token lists")
    if len(list_of_references) != len(hypotheses):
        raise InputError(f"{len(list_of_references)} reference lists for {len(hypotheses)} hypotheses; "
                         "they must be the same number")
    if not hypotheses:
        raise InputError("no hypotheses: the corpus is empty")
    hyps = [_check_tokens(h, f"hypothesis {i + 1}") for i, h in enumerate(hypotheses)]
    refs = []
    for i, seg_refs in enumerate(list_of_references):
        if isinstance(seg_refs, str) or not isinstance(seg_refs, Sequence):
            raise InputError(f"references of segment {i + 1} must be a list of token lists, got "
                             f"{type(seg_refs).__name__}")
        if seg_refs and all(isinstance(t, str) for t in seg_refs):
            raise InputError(f"the references of segment {i + 1} are strings, not token lists: a list of "
                             "reference strings must be split ([r.split() for r in refs]; NLTK would score "
                             "characters), and a single token list must be wrapped ([tokens])")
        if not seg_refs:
            raise InputError(f"segment {i + 1} has no reference")
        refs.append([_check_tokens(r, f"reference {j + 1} of segment {i + 1}") for j, r in enumerate(seg_refs)])
    return refs, hyps


def _smoothing_knobs(smoothing_function: Any) -> dict[str, Any]:
    if smoothing_function is None:
        return {"smoothing": "method0"}
    if isinstance(smoothing_function, (str, int)):
        return {"smoothing": str(smoothing_function)}
    name = getattr(smoothing_function, "__name__", "")
    if not name.startswith("method"):
        raise InputError("smoothing_function must be None, 'method0'..'method7', 0..7 or "
                         f"SmoothingFunction().methodK, got {smoothing_function!r}")
    knobs: dict[str, Any] = {"smoothing": name}
    owner = getattr(smoothing_function, "__self__", None)
    if owner is not None:
        if name == "method1" and hasattr(owner, "epsilon"):
            knobs["smooth_value"] = float(owner.epsilon)
        if hasattr(owner, "alpha"):
            knobs["smooth_alpha"] = float(owner.alpha)
        if hasattr(owner, "k"):
            knobs["smooth_k"] = float(owner.k)
    return knobs


def _weight_tuples(weights: Any) -> list[Any]:
    """NLTK's reading: a sequence of sequences is several weight tuples; otherwise one."""
    if weights and isinstance(weights[0], (list, tuple)):
        return list(weights)
    return [weights]


def corpus_bleu(list_of_references: Any, hypotheses: Any, weights: Any = DEFAULT_WEIGHTS,
                smoothing_function: Any = None, auto_reweigh: bool = False) -> float | int | list[float | int]:
    """NLTK ``corpus_bleu``: one score, or a list when several weight tuples are given.

    ``auto_reweigh`` applies, as in NLTK, only to a weight *tuple* equal to (0.25, 0.25, 0.25, 0.25)
    (a list ``[0.25] * 4`` does not trigger it). Returns int 0 when no unigram matches (NLTK's type).
    """
    refs, hyps = _check_corpus(list_of_references, hypotheses)
    tuples = _weight_tuples(weights)
    knobs = _smoothing_knobs(smoothing_function)
    knobs["weights"] = [tuple(float(x) for x in w) for w in tuples] if len(tuples) > 1 else \
        tuple(float(x) for x in tuples[0])
    triggers = [auto_reweigh and isinstance(w, tuple) and w == DEFAULT_WEIGHTS for w in tuples]
    results = {}
    for flag in sorted(set(triggers)):
        score = api.score("bleu", hyps, refs, "nltk", refs_orientation="segments", auto_reweigh=flag, **knobs)
        values = score.components.get("scores", [score.value])
        if score.components["counts"] and score.components["counts"][0] == 0:
            values = [0 for _ in values]
        results[flag] = values
    out = [results[flag][i] for i, flag in enumerate(triggers)]
    return out if len(tuples) > 1 else out[0]


def sentence_bleu(references: Any, hypothesis: Any, weights: Any = DEFAULT_WEIGHTS,
                  smoothing_function: Any = None, auto_reweigh: bool = False) -> float | int | list[float | int]:
    """NLTK ``sentence_bleu`` = ``corpus_bleu([references], [hypothesis], ...)``."""
    if isinstance(hypothesis, str):
        _check_tokens(hypothesis, "hypothesis")
    if isinstance(references, str):
        raise InputError("references must be a list of reference token lists, got a string")
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def corpus_nist(list_of_references: Any, hypotheses: Any, n: int = 5) -> float:
    """NLTK ``corpus_nist``: best single reference per order, that reference's length (profile nist/nltk)."""
    refs, hyps = _check_corpus(list_of_references, hypotheses)
    return api.score("nist", hyps, refs, "nltk", refs_orientation="segments", max_ngram_order=n).value


def sentence_nist(references: Any, hypothesis: Any, n: int = 5) -> float:
    """NLTK ``sentence_nist`` = ``corpus_nist([references], [hypothesis], n)``."""
    if isinstance(hypothesis, str):
        _check_tokens(hypothesis, "hypothesis")
    if isinstance(references, str):
        raise InputError("references must be a list of reference token lists, got a string")
    return corpus_nist([references], [hypothesis], n)
