"""rouge-score-shaped API computed by assay (profile ``rouge/rouge-score``), laid out as the
``rouge_score`` package: ``from assay.compat.rouge_score import rouge_scorer, scoring``.

- :class:`rouge_scorer.RougeScorer` ``(rouge_types, use_stemmer=False, split_summaries=False,
  tokenizer=None)`` with ``score(target, prediction)`` and ``score_multi(targets, prediction)``;
- :mod:`scoring`: the ``Score(precision, recall, fmeasure)`` and ``AggregateScore(low, mid, high)``
  namedtuples and ``BootstrapAggregator``.
"""
from assay.compat.rouge_score import rouge_scorer, scoring

__all__ = ["rouge_scorer", "scoring"]
