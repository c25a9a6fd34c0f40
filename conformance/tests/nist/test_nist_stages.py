"""NIST's knobs: declared stages and domains, shared text knobs, and the statistics they key."""
from __future__ import annotations

import pytest

from assay.core.errors import KnobError
from assay.engine.api import make_config
from assay.engine.evaluate import Evaluator
from assay.engine.registry import get_family


def test_text_knobs_are_the_shared_declarations() -> None:
    """BLEU and NIST tokenise and case alike: one declaration (assay.text.knobs), not a copy."""
    bleu, nist = get_family("bleu").knobset, get_family("nist").knobset
    for name in ("tokenize", "lowercase", "lowercase_mode"):
        assert nist[name] is bleu[name]
        assert nist[name].stage == "text"


@pytest.mark.parametrize("value", [0, 101, "x", 2.5])
def test_orders_outside_the_domain_are_rejected(value: object) -> None:
    with pytest.raises(KnobError, match="max_ngram_order"):
        make_config("nist", "nltk", "corpus", n=value)


def test_empty_order_shares_statistics() -> None:
    hyps = ["the cat sat on the mat", "a dog"]
    refs = [["the cat is on the mat", "a dog barks"], ["there is a cat on the mat", "the dog"]]
    ev = Evaluator("nist", hyps, refs)
    values = [ev.value(ev.config("nltk", empty_order=mode)[0]) for mode in ("error", "zero")]
    assert values[0] == values[1]
    assert ev.stats_computed == 1
