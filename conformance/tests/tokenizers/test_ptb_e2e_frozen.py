"""PTB tokenizer vs frozen outputs of the CoreNLP 3.4.1 jar on real text (fixtures/tokenizers/ptb_e2e.json).

About 3,000 E2E NLG challenge test references (CC BY-SA 4.0, attribution in the fixture) and one
or more cases per difference class found on real corpora (``conformance/regen/ptb_e2e.py``), run
through the jar as one batch: assay's raw tokens and the pycocoevalcap wrapper's strings must equal
the jar's on every line (no known divergence is expected here).
"""
from __future__ import annotations

import json

import pytest

from assay.tokenizers.ptb import COCO_PUNCTUATION, coco_tokenize_lines, ptb_tokenize_lines
from conformance.paths import FIXTURES

FROZEN = json.loads((FIXTURES / "tokenizers" / "ptb_e2e.json").read_text(encoding="utf-8"))


def _wrapper(line: str) -> str:
    """pycocoevalcap's post-processing of one jar output line (documented: split on ' ', drop punctuation)."""
    return " ".join(w for w in line.rstrip().split(" ") if w not in COCO_PUNCTUATION)


def test_fixture_shape():
    assert len(FROZEN["lines"]) == len(FROZEN["jar"]) >= 2000
    assert "CC BY-SA 4.0" in FROZEN["provenance"]["inputs"]


def test_raw_tokens_equal_the_jar():
    ours = [" ".join(t) for t in ptb_tokenize_lines(FROZEN["lines"])]
    bad = [(line, jar, got) for line, jar, got in zip(FROZEN["lines"], FROZEN["jar"], ours) if jar != got]
    assert not bad, f"{len(bad)} of {len(ours)} lines differ, e.g. {bad[:3]}"


def test_coco_strings_equal_the_wrapper():
    ours = coco_tokenize_lines(FROZEN["lines"])
    want = [_wrapper(j) for j in FROZEN["jar"]]
    bad = [(line, w, g) for line, w, g in zip(FROZEN["lines"], want, ours) if w != g]
    assert not bad, f"{len(bad)} of {len(ours)} lines differ, e.g. {bad[:3]}"


@pytest.mark.parametrize("needle", ["center.,", ".-xinhua", "-LRB-", "'n*", "No.555", "#café"])
def test_each_difference_class_is_covered(needle):
    assert any(needle.lower() in line.lower() for line in FROZEN["lines"])
