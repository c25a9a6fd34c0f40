"""``assay.compat.pycocoevalcap`` against pycocoevalcap 1.2: frozen outputs (default env) and live
(refs; Java for its CoreNLP and METEOR 1.5 jars).

Script: :func:`conformance.regen.compat.observe_pycocoevalcap`: ``PTBTokenizer().tokenize`` of raw
generated captions under mixed, unsorted image ids, then ``Bleu(4)``, ``Bleu(2)``, ``Cider()``,
``Rouge()``, ``Meteor()`` ``compute_score(gts, res)``: values, per-image order, return types and
what they print.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import assay.compat.pycocoevalcap as compat
from assay.core.errors import InputError
from conformance.references import coco_ref
from conformance.regen.compat import live_pycocoevalcap, observe_pycocoevalcap
from conformance.tests.compat._frozen import assert_same, frozen

OURS = SimpleNamespace(Bleu=compat.Bleu, Cider=compat.Cider, Rouge=compat.Rouge, Meteor=compat.Meteor,
                       PTBTokenizer=compat.PTBTokenizer)


def test_frozen_pycocoevalcap_outputs() -> None:
    doc = frozen("pycocoevalcap")
    assert doc["tool"] == "pycocoevalcap" and doc["version"] == "1.2"
    assert_same(doc["cases"], observe_pycocoevalcap(OURS, doc["inputs"]))


@pytest.mark.refs
def test_live_pycocoevalcap() -> None:
    coco_ref.require()
    coco_ref.require_java()
    inputs = frozen("pycocoevalcap")["inputs"]
    assert_same(live_pycocoevalcap(inputs), observe_pycocoevalcap(OURS, inputs))


GTS = {"b": ["a man riding a horse", "a person on a horse"], 7: ["two dogs play"]}
RES = {"b": ["a man on a horse"], 7: ["two dogs playing"]}


def test_cider_d_is_pycocoevalcaps_cider() -> None:
    score, per_image = compat.CiderD().compute_score(GTS, RES)
    want = compat.Cider().compute_score(GTS, RES)
    assert score == want[0] and np.array_equal(per_image, want[1]) and compat.CiderD().method() == "CIDEr-D"


@pytest.mark.parametrize("gts, res, message", [
    (GTS, {"b": ["x"]}, "same image ids"),
    (GTS, {**RES, "b": ["x", "y"]}, r"res\['b'\] must be a list holding exactly one"),
    ({**GTS, 7: []}, RES, r"gts\[7\] must be a non-empty list"),
    (["a"], RES, "two dicts"),
])
def test_bad_input_is_one_clear_error(gts: Any, res: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        compat.Rouge().compute_score(gts, res)


def test_ptb_tokenizer_bad_entry() -> None:
    with pytest.raises(InputError, match="'caption' string"):
        compat.PTBTokenizer().tokenize({1: [{"text": "a"}]})
