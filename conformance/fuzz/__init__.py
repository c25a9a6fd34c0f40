"""Coverage-guided fuzzing of assay's input boundaries with atheris (issue 17; the ``fuzz`` tox env).

Targets, one harness module each (``one_input(data: bytes)`` plus ``SEEDS``; see :mod:`.common`):

==================  ===========================================================================
tok_13a             sacrebleu ``13a`` (against its literal-regex oracle)
tok_intl            sacrebleu ``intl`` (against its literal-regex oracle)
tok_char            sacrebleu ``char``
tok_zh              sacrebleu ``zh`` (against its literal-regex oracle)
tok_mteval          mteval-v13a / v14 tokenisation
tok_multi_bleu      multi-bleu.perl's ASCII-whitespace split
tok_ter             tercom normalisation, every switch combination
tok_ptb             the clean-room PTB tokenizer (pycocoevalcap)
rouge_text          ROUGE sentence splitting, truncation, rouge-score / ROUGE-1.5.5 tokenisers, pipeline
segment_files       the segment-file reader (``assay.core.io``)
coco_json           the COCO caption JSON reader
conform_protocol    the ``assay conform`` JSON-lines protocol reader, judge, runner and reports
==================  ===========================================================================

Run ``python -m conformance.fuzz all --runs 100000`` (or ``TARGET --seconds 60``; ``--help``). The
harness modules import without atheris, so the default test env runs each on its seeds
(``conformance/tests/cli/test_fuzz_harnesses.py``).
"""
from __future__ import annotations

TARGETS: tuple[str, ...] = ("tok_13a", "tok_intl", "tok_char", "tok_zh", "tok_mteval", "tok_multi_bleu", "tok_ter",
                            "tok_ptb", "rouge_text", "segment_files", "coco_json", "conform_protocol")
