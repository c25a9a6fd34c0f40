"""Drop-in, tool-shaped front ends over assay (same call shapes as the tools people already use).

- ``assay.compat.sacrebleu``: ``BLEU``, ``CHRF``, ``TER`` (sacrebleu 2.6.0's constructors,
  ``corpus_score``, ``sentence_score``, ``get_signature``, score objects that print as sacrebleu's)
  and ``corpus_bleu``/``sentence_bleu``/``corpus_chrf``/``sentence_chrf``/``corpus_ter``/``sentence_ter``;
- ``assay.compat.rouge_score``: ``rouge_scorer.RougeScorer`` (``score(target, prediction)``,
  ``score_multi``) and ``scoring`` (``Score``, ``AggregateScore``, ``BootstrapAggregator``), laid
  out as the ``rouge_score`` package;
- ``assay.compat.pycocoevalcap``: ``Bleu``, ``Cider``, ``CiderD``, ``Rouge``, ``Meteor`` with
  ``compute_score(gts, res)`` and ``PTBTokenizer().tokenize``, Java-free;
- ``assay.compat.nltk``: ``corpus_bleu``, ``sentence_bleu``, ``corpus_nist``, ``sentence_nist`` with
  NLTK's signatures, computed by assay's ``nltk`` profiles.

None imports the tool it mirrors; each is tested against it (``conformance/tests/compat/``).
"""
