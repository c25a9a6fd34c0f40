"""Third-party implementations are identified as recorded in examples/thirdparty_results.md.

Needs the third-party packages (torch + torchmetrics, rouge, py-rouge in ``$PY_ROUGE_PATH``,
sacrebleu, nltk, rouge-score); each test skips when its package is missing. Marked ``slow``
(the lead may register a dedicated ``thirdparty`` marker and tox env, see the report).
Expected identifications come from running the tools (thirdparty_run.py), never from assay alone:
the identity checks (sacrebleu, NLTK, rouge-score) must also pass their whole suites.
"""
from __future__ import annotations

import importlib.util
import os

import pytest

from conformance.examples import thirdparty
from conformance.examples.thirdparty_run import IMPLEMENTATIONS, Impl, run

pytestmark = [pytest.mark.thirdparty, pytest.mark.slow]

#: label -> (profile, factor, knobs that must be among the identified departures or failure causes,
#:           whole suite must pass)
EXPECTED: dict[str, tuple[str, float, set[str], bool]] = {
    "sacrebleu corpus_bleu/sentence_bleu (identity)": ("sacrebleu", 1.0, set(), True),
    "sacrebleu corpus_chrf/sentence_chrf (identity)": ("sacrebleu", 1.0, set(), True),
    "sacrebleu corpus_ter/sentence_ter (identity)": ("sacrebleu", 1.0, set(), True),
    "NLTK corpus_bleu/sentence_bleu": ("nltk", 1.0, set(), True),
    "NLTK corpus_chrf/sentence_chrf": ("nltk", 1.0, set(), True),
    "NLTK corpus_nist/sentence_nist": ("nltk", 1.0, set(), True),
    "torchmetrics BLEUScore": ("multi-bleu", 100.0, set(), False),
    "torchmetrics SacreBLEUScore": ("multi-bleu-detok", 100.0, set(), False),
    "torchmetrics CHRFScore": ("sacrebleu-chrf++", 100.0, {"eps_smoothing"}, False),
    "torchmetrics TranslationEditRate": ("sacrebleu", 100.0, set(), False),
    "torchmetrics ROUGEScore (rouge1/2/L)": ("rouge-score", 1.0, set(), False),
    "rouge-score RougeScorer (identity)": ("rouge-score", 1.0, set(), True),
    "rouge (pltrdy) 1.0.1": ("rouge-score", 1.0, {"tokenizer", "lowercase"}, False),
    "py-rouge 1.1 (word_tokenize -> str.split)": ("rouge-score", 1.0, {"stemmer"}, False),
}


def _params() -> list:
    return [pytest.param(impl, id=impl.label) for impl in IMPLEMENTATIONS]


def test_every_implementation_has_an_expectation() -> None:
    assert {i.label for i in IMPLEMENTATIONS} == set(EXPECTED)


@pytest.mark.parametrize("impl", _params())
def test_thirdparty_identification(impl: Impl) -> None:
    pytest.importorskip(impl.needs)
    if impl.needs == "torchmetrics":
        pytest.importorskip("torch")
    if "py-rouge" in impl.label and not os.path.isdir(os.path.join(thirdparty.PY_ROUGE_PATH, "rouge")):
        pytest.skip(f"py-rouge not installed in {thirdparty.PY_ROUGE_PATH}")
    if "pltrdy" in impl.label and importlib.util.find_spec("rouge.rouge_score") is None:
        pytest.skip("pltrdy rouge not installed")
    profile, factor, knobs, must_pass = EXPECTED[impl.label]
    result = run(impl)
    ident = result.identification
    assert ident.profile == profile, ident.text()
    assert ident.factor == factor, ident.text()
    found = {d.knob for d in ident.departures} | {d.knob for d in result.causes}
    assert knobs <= found, (found, ident.text())
    if must_pass:
        assert result.report.exit_code == 0 and result.report.count("passed") > 0, result.report.summary()
    else:
        assert result.report.count("failed") > 0    # its known divergences surface as failing cases


# ----------------------------------------------------------------------------- fixtures/thirdparty
def _recordings() -> list:
    from conformance.regen.thirdparty import RECORDINGS
    return [pytest.param(rec, id=rec.name) for rec in RECORDINGS]


@pytest.mark.parametrize("rec", _recordings())
def test_recorded_answers_match_live_package(rec) -> None:
    """The committed fixtures/thirdparty/<name>.json equals what the installed package answers now
    (the first 60 recorded inputs, in key order), so a changed package or wrapper shows here.
    Under CI=true a missing package fails instead of skipping."""
    import json
    from itertools import islice

    from conformance.regen import thirdparty as tp

    if not tp.available(rec):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{rec.package} is not installed (tox -e thirdparty)")
        pytest.skip(f"{rec.package} not installed")
    committed = json.loads((tp.OUT / f"{rec.name}.json").read_text(encoding="utf-8"))
    keys = set(islice(sorted(committed["answers"]), 60))
    live = tp.record(rec, only=keys)
    assert live["version"] == committed["version"], (live["version"], committed["version"])
    for key in keys:
        a, b = committed["answers"][key], live["answers"][key]
        if "score" in a and "score" in b:
            assert a["score"] == pytest.approx(b["score"], rel=1e-12, abs=1e-15), key
        else:
            assert a.keys() == b.keys() and a.get("error") == b.get("error"), (key, a, b)
