"""Thin wrappers that give third-party metric functions one of ``assay conform``'s call shapes.

Used as ``direct:conformance.examples.thirdparty:<name>`` (see thirdparty_results.md). Each
wrapper only rearranges arguments and fixes the tool's documented default options; it computes
nothing itself.

- ``nltk_chrf`` / ``nltk_chrf_sentence`` (shape sacrebleu): NLTK ``corpus_chrf(references,
  hypotheses)`` / ``sentence_chrf(reference, hypothesis)`` — one reference per segment, so the
  first reference stream.
- ``rouge_score_scorer`` (shape rouge-score): ``RougeScorer(["rouge1", "rouge2", "rougeL",
  "rougeLsum"])`` with its defaults (no stemmer).
- ``pltrdy_rouge`` (shape rouge-score): the ``rouge`` package (pltrdy) ``Rouge().get_scores(hyp, ref)``.
- ``py_rouge`` (shape rouge-score): the ``py-rouge`` package ``Rouge(metrics=["rouge-n", "rouge-l"],
  max_n=2, limit_length=False)`` with its other defaults (stemming, alpha 0.5). py-rouge installs
  into the same ``rouge`` import package as pltrdy's, so it is loaded from ``$PY_ROUGE_PATH``
  (default /tmp/conform_pyrouge: ``pip install --target DIR --no-deps py-rouge==1.1 "setuptools<81"``;
  py-rouge imports ``pkg_resources``, which setuptools 81 removed). **Offline patch:** py-rouge
  tokenises with ``nltk.word_tokenize``, which needs NLTK's punkt model (not installable here);
  the wrapper replaces ``Rouge.tokenize_text`` with ``str.split`` (as the research notes did), so
  these results are py-rouge's scoring on whitespace tokens.
- ``torchmetrics_rouge`` (shape torchmetrics): ``ROUGEScore(rouge_keys=("rouge1", "rouge2", "rougeL"))``
  — rougeLsum is left out because torchmetrics splits sentences with NLTK punkt (not installable
  here); cases asking for rougeLsum are skipped.
"""
from __future__ import annotations

import importlib
import os
import sys
from functools import lru_cache
from typing import Any

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


def pltrdy_rouge(target: str, prediction: str) -> dict[str, Any]:
    from rouge import Rouge
    return Rouge().get_scores(prediction, target)[0]


@lru_cache(maxsize=1)
def load_py_rouge() -> Any:
    """py-rouge's ``Rouge`` class, imported from its own folder without clobbering pltrdy's ``rouge``."""
    if not os.path.isdir(os.path.join(PY_ROUGE_PATH, "rouge")):
        raise ImportError(f"py-rouge not found in {PY_ROUGE_PATH} (pip install --target {PY_ROUGE_PATH} py-rouge==1.1)")
    saved = {k: v for k, v in sys.modules.items() if k == "rouge" or k.startswith("rouge.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, PY_ROUGE_PATH)
    try:
        module = importlib.import_module("rouge.rouge")
        return module.Rouge
    finally:
        sys.path.remove(PY_ROUGE_PATH)
        for k in [k for k in sys.modules if k == "rouge" or k.startswith("rouge.")]:
            del sys.modules[k]
        sys.modules.update(saved)


@lru_cache(maxsize=1)
def _py_rouge_evaluator() -> Any:
    cls = load_py_rouge()
    cls.tokenize_text = staticmethod(lambda text, language="english": text.split())   # offline patch
    return cls(metrics=["rouge-n", "rouge-l"], max_n=2, limit_length=False)


def py_rouge(target: str, prediction: str) -> dict[str, Any]:
    return _py_rouge_evaluator().get_scores(prediction, target)


def torchmetrics_rouge(preds: list[str], target: list[list[str]]) -> dict[str, Any]:
    from torchmetrics.text import ROUGEScore
    return ROUGEScore(rouge_keys=("rouge1", "rouge2", "rougeL"))(preds, target)
