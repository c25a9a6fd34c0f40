"""Deterministic generators of the project's own test text (no external text; fixed seeds).

- ``corpus``: small MT-style corpora (``generate_corpus``), the differential and golden tests' input;
- ``captions``: COCO-like caption sets (CIDEr, COCO pipeline, ROUGE-L coco);
- ``docs``: multi-sentence summary documents (ROUGE);
- ``meteor15``: raw METEOR 1.5 inputs (paraphrases, punctuation, several references);
- ``report_sample``: the report sample corpus (``fixtures/report_sample/``):
  ``python -m conformance.generate.report_sample [--segments N --out DIR]``.
"""
