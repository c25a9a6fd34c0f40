"""Thin wrappers that give third-party metric functions one of ``assay conform``'s call shapes.

Used as ``direct:conformance.examples.thirdparty:<name>`` (see thirdparty_results.md). Each
wrapper only rearranges arguments and fixes the tool's documented default options; it computes
nothing itself.

- ``nltk_chrf`` / ``nltk_chrf_sentence`` (shape sacrebleu): NLTK ``corpus_chrf(references,
  hypotheses)`` / ``sentence_chrf(reference, hypothesis)`` — one reference per segment, so the
  first reference stream.
- ``rouge_score_scorer`` (shape rouge-score): ``RougeScorer(["rouge1", "rouge2", "rougeL",
  "rougeLsum"])`` with its defaults (no stemmer).
- ``pltrdy_rouge``, ``rouge_chinese``, ``py_rouge``, ``Sumeval`` (shape rouge-score) and the
  torchmetrics, HF evaluate, compare-mt, fast-bleu and pyter3 calls: the very callables whose answers
  ``conformance/regen/thirdparty.py`` records into fixtures/thirdparty (one copy of each call, documented
  there): pltrdy's and py-rouge's ``rouge-l`` (summary level) relabelled ``rougeLsum``; py-rouge
  loaded from ``$PY_ROUGE_PATH`` (``pip install --target DIR --no-deps py-rouge==1.1 "setuptools<81"``:
  it installs into the same ``rouge`` import package as pltrdy's, and imports ``pkg_resources``,
  which setuptools 81 removed) with ``nltk.word_tokenize`` replaced by ``str.split`` (offline: NLTK's
  punkt model is not installable here), so its results are py-rouge's scoring on whitespace tokens.
- ``torchmetrics_rouge`` (shape torchmetrics): ``ROUGEScore(rouge_keys=("rouge1", "rouge2", "rougeL"))``
  — rougeLsum is left out because torchmetrics splits sentences with NLTK punkt (not installable
  here); cases asking for rougeLsum are skipped.
"""
from __future__ import annotations

import os
from functools import lru_cache
from typing import Any

from conformance.regen.thirdparty import (  # re-exported: one copy of each package's call
    Sumeval, compare_mt, compare_mt_sentence, fast_bleu, fast_bleu_sentence, hf_bleu, hf_bleu_sentence,
    hf_google_bleu, hf_google_bleu_sentence, pltrdy_rouge, py_rouge, pyter3, pyter3_sentence, rouge_chinese, tm_rouge)

__all__ = ["Sumeval", "compare_mt", "compare_mt_sentence", "fast_bleu", "fast_bleu_sentence", "hf_bleu",
           "hf_bleu_sentence", "hf_google_bleu", "hf_google_bleu_sentence", "nltk_chrf", "nltk_chrf_sentence",
           "pltrdy_rouge", "py_rouge", "pyter3", "pyter3_sentence", "rouge_chinese", "rouge_score_scorer",
           "torchmetrics_rouge"]

PY_ROUGE_PATH = os.environ.get("PY_ROUGE_PATH", "/tmp/conform_pyrouge")


def nltk_chrf(hyps: list[str], streams: list[list[str]]) -> float:
    from nltk.translate.chrf_score import corpus_chrf
    return corpus_chrf(list(streams[0]), list(hyps))


def nltk_chrf_sentence(hyp: str, refs: list[str]) -> float:
    from nltk.translate.chrf_score import sentence_chrf
    return sentence_chrf(refs[0], hyp)


@lru_cache(maxsize=1)
def _rouge_scorer() -> Any:
    from rouge_score.rouge_scorer import RougeScorer
    return RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"])


def rouge_score_scorer(target: str, prediction: str) -> dict[str, Any]:
    return _rouge_scorer().score(target, prediction)


torchmetrics_rouge = tm_rouge
