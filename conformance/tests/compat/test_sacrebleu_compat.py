"""``assay.compat.sacrebleu`` against sacrebleu 2.6.0: frozen outputs (default env) and live (refs).

The script of calls (15 constructor configurations of BLEU/CHRF/TER, corpus scores with one and two
reference streams, sentence scores, the module-level functions; ``str``, ``repr``, ``format`` at
several widths, JSON, signatures long and short, score attributes) is
:func:`conformance.regen.compat.observe_sacrebleu`, run on both libraries.
"""
from __future__ import annotations

from typing import Any

import pytest

import assay.compat.sacrebleu as compat
from assay.core.errors import InputError, KnobError
from conformance.regen.compat import live_sacrebleu, observe_sacrebleu, sample
from conformance.tests.compat._frozen import assert_same, frozen


def test_frozen_sacrebleu_outputs() -> None:
    doc = frozen("sacrebleu")
    assert doc["tool"] == "sacrebleu" and doc["version"] == "2.6.0"
    assert_same(doc["cases"], observe_sacrebleu(compat, *sample()))


@pytest.mark.refs
def test_live_sacrebleu(require_tool: Any) -> None:
    require_tool("sacrebleu", "2.6.0")
    assert_same(live_sacrebleu(), observe_sacrebleu(compat, *sample()))


def test_object_api_details() -> None:
    hyps, r1, r2 = sample()
    bleu = compat.BLEU()
    assert str(bleu.get_signature()) == "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    cached = compat.BLEU(references=[r1, r2])
    assert str(cached.corpus_score(hyps)) == str(bleu.corpus_score(hyps, [r1, r2]))
    assert str(cached.get_signature()).startswith("nrefs:2|")
    missing = [None] + r2[1:]
    bleu.corpus_score(hyps, [r1, missing])
    assert str(bleu.get_signature()).startswith("nrefs:var|")
    score = compat.corpus_bleu(hyps, [r1])
    assert score.assay.metric == "bleu" and score.assay.profile == "sacrebleu"


@pytest.mark.parametrize("call, message", [
    (lambda: compat.BLEU().corpus_score("one string", [["r"]]), "hypotheses must be a list of strings"),
    (lambda: compat.BLEU().corpus_score(["a", "b"], [["r"]]), "reference stream 1 has 1 segments"),
    (lambda: compat.BLEU().corpus_score(["a"], ["r"]), "flat list of strings"),
    (lambda: compat.CHRF().sentence_score("a", "ref"), "not a single string"),
    (lambda: compat.TER().sentence_score(["a"], ["ref"]), "hypothesis must be a string"),
    (lambda: compat.BLEU().corpus_score(["a"]), "no references given"),
    (lambda: compat.BLEU().corpus_score(["a"], [["a"]], n_bootstrap=100), "assay significance"),
])
def test_bad_input_is_one_clear_error(call: Any, message: str) -> None:
    with pytest.raises(InputError if "significance" not in message else KnobError, match=message):
        call()


@pytest.mark.parametrize("kwargs", [{"tokenize": "nonsense"}, {"smooth_method": "nonsense"}])
def test_bad_constructor_argument(kwargs: dict[str, Any]) -> None:
    with pytest.raises(KnobError, match="nonsense"):
        compat.BLEU(**kwargs)
