"""The Evaluator's corpus-value cache (:meth:`assay.engine.evaluate.Evaluator.value`): a repeated
configuration is not scored again, and only an identical configuration hits (values and their
types: 1, 1.0 and True differ, and so do 0.0 and -0.0). Expected values are assay's own uncached
path (this tests a cache, not a metric)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from assay.core.knobs import Config
from assay.engine import evaluate
from assay.engine.evaluate import Evaluator, _value_key

HYPS = ["the cat sat on the mat", "a dog barked", "it rained all day long"]
REFS = [["the cat sat on a mat", "one dog barked loudly", "it rained the whole day"]]


def _with(config: Config, **knobs: Any) -> Config:
    return Config(config.metric, config.knobset, {**config.as_dict(), **knobs})


def test_repeated_configuration_is_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = Evaluator("bleu", HYPS, REFS)
    config, _ = ev.config("sacrebleu")
    calls: list[Config] = []
    score_stats = type(ev.family).score_stats

    def counting(self: Any, stats: Any, cfg: Config) -> Any:
        calls.append(cfg)
        return score_stats(self, stats, cfg)

    monkeypatch.setattr(type(ev.family), "score_stats", counting)
    first = ev.value(config)
    again = ev.value(_with(config))                   # an equal configuration, another object
    assert again == first and len(calls) == 1
    other = ev.value(_with(config, smooth_method="floor"))
    assert len(calls) == 2 and other == Evaluator("bleu", HYPS, REFS).value(_with(config, smooth_method="floor"))


def test_keys_tell_types_and_signed_zeros_apart() -> None:
    config, _ = Evaluator("bleu", HYPS, REFS).config("sacrebleu")
    keys = {_value_key(_with(config, scale=v)) for v in (100, 100.0)}
    keys |= {_value_key(_with(config, smooth_value=v)) for v in (0.0, -0.0, 0, False)}
    keys |= {_value_key(_with(config, weights=w, max_ngram_order=2)) for w in ((1, 0), (1.0, 0.0), [1.0, 0.0])}
    assert len(keys) == 9 and None not in keys
    assert _value_key(_with(config)) == _value_key(config)


def test_value_of_a_non_plain_knob_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    ev = Evaluator("bleu", HYPS, REFS)
    config, _ = ev.config("sacrebleu")
    odd = _with(config, scale=np.float64(100.0))     # numpy scalar: its repr is not kept as a key
    assert _value_key(odd) is None
    assert ev.value(odd) == ev.value(config)
    assert len(ev._values) == 1


def test_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluate, "MAX_VALUES", 2)
    ev = Evaluator("bleu", HYPS, REFS)
    config, _ = ev.config("sacrebleu")
    values = [ev.value(_with(config, scale=s)) for s in (1, 10, 100, 1000)]
    assert values == [Evaluator("bleu", HYPS, REFS).value(_with(config, scale=s)) for s in (1, 10, 100, 1000)]
    assert len(ev._values) <= 2
