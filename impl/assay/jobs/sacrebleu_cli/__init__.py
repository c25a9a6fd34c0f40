"""``assay sacrebleu``: sacrebleu 2.6.0's command line, flag for flag, on local files.

- :mod:`.flags`: the one table of score-changing flags -> (metric, knob), and sacrebleu's defaults
  that depend on other options (``-l`` picks the BLEU tokenizer).
- :mod:`.run`: sacrebleu's modes (one system, sentence level, ``--confidence``, several systems,
  ``--paired-bs`` / ``--paired-ar``) and its refusals.
- :mod:`.render`: what it prints (text, JSON, ``-b``, LaTeX tables, ``--short`` signatures).
"""
