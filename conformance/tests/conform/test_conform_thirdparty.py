"""Third-party implementations are identified as recorded in examples/thirdparty_results.md.

Needs the third-party packages of the ``thirdparty`` tox env (torch + torchmetrics, HF evaluate with
its metric scripts in ``$HF_METRICS``, compare-mt, fast-bleu, pyter3, rouge (pltrdy), rouge-chinese,
sumeval, py-rouge in ``$PY_ROUGE_PATH``, and sacrebleu, nltk, rouge-score); each test skips when its
package is missing, and fails instead under ``CI=true``. Marked ``thirdparty`` (and ``slow``).
Expected identifications come from running the tools (thirdparty_run.py), never from assay alone:
the identity checks (sacrebleu, NLTK, rouge-score) must pass their whole suites, and so must every
package a profile was made for (its suite: the package's answers recorded in fixtures/thirdparty).
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
    "torchmetrics BLEUScore": ("torchmetrics", 1.0, set(), True),
    "torchmetrics SacreBLEUScore": ("torchmetrics-sacrebleu", 1.0, set(), True),
    "torchmetrics CHRFScore": ("torchmetrics", 1.0, set(), True),
    "torchmetrics TranslationEditRate": ("torchmetrics", 1.0, set(), True),
    # no profile of its own (it is rouge-score in float32): the suite's failures are all below 1e-5
    "torchmetrics ROUGEScore (rouge1/2/L)": ("rouge-score", 1.0, set(), False),
    "rouge-score RougeScorer (identity)": ("rouge-score", 1.0, set(), True),
    "rouge (pltrdy) 1.0.1": ("pltrdy-rouge", 1.0, set(), True),
    "py-rouge 1.1 (word_tokenize -> str.split)": ("py-rouge", 1.0, set(), True),
    "rouge-chinese 1.0.3": ("rouge-chinese", 1.0, set(), True),
    "sumeval 0.2.2 RougeCalculator": ("sumeval", 1.0, set(), True),
    "HF evaluate bleu 0.4.6": ("hf-evaluate", 1.0, set(), True),
    "HF evaluate google_bleu 0.4.6": ("hf-evaluate", 1.0, set(), True),
    "compare-mt BleuScorer": ("compare-mt", 1.0, set(), True),
    "fast-bleu BLEU": ("fast-bleu", 1.0, set(), True),
    "pyter3 ter": ("pyter3", 1.0, set(), True),
}


def _params() -> list:
    return [pytest.param(impl, id=impl.label) for impl in IMPLEMENTATIONS]


def test_every_implementation_has_an_expectation() -> None:
    assert {i.label for i in IMPLEMENTATIONS} == set(EXPECTED)


def _missing(impl: Impl) -> str | None:
    """Why ``impl`` cannot run here (None: it can)."""
    needs = [impl.needs] + (["torch"] if impl.needs == "torchmetrics" else [])
    for module in needs:
        if importlib.util.find_spec(module) is None:
            return f"{module} not installed"
    if "py-rouge" in impl.label and not os.path.isdir(os.path.join(thirdparty.PY_ROUGE_PATH, "rouge")):
        return f"py-rouge not installed in {thirdparty.PY_ROUGE_PATH}"
    if "pltrdy" in impl.label and importlib.util.find_spec("rouge.rouge_score") is None:
        return "pltrdy rouge not installed"
    return None


@pytest.mark.parametrize("impl", _params())
def test_thirdparty_identification(impl: Impl) -> None:
    why = _missing(impl)
    if why:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{impl.label}: {why} (tox -e thirdparty)")
        pytest.skip(why)
    profile, factor, knobs, must_pass = EXPECTED[impl.label]
    result = run(impl)
    ident = result.identification
    assert ident.profile == profile, ident.text()
    assert ident.factor == factor, ident.text()
    found = {d.knob for d in ident.departures} | {d.knob for d in result.causes}
    assert knobs <= found, (found, ident.text())
    if must_pass:
        assert result.report.exit_code == 0 and result.report.count("passed") > 0, result.report.summary()
    else:   # its known divergences surface as failing cases, all of them float32 rounding
        assert result.report.count("failed") > 0 and result.report.count("errored") == 0
        assert not result.causes and not result.unexplained, (result.causes, result.unexplained)
        large = [o.case.id for o in result.behaviour_failures
                 if not o.diffs or not all(_close(d) for d in o.diffs)]
        assert not large, large


def _close(diff: dict) -> bool:
    """A failing case's difference is below 1e-5 relative (a score, a list of them, or a component's P/R/F)."""
    exp, got = diff.get("expected"), diff.get("got")
    if isinstance(exp, dict) and isinstance(got, dict) and exp.keys() == got.keys():
        return all(_close({"expected": exp[k], "got": got[k]}) for k in exp)
    if isinstance(exp, list) and isinstance(got, list) and len(exp) == len(got):
        return all(_close({"expected": e, "got": g}) for e, g in zip(exp, got))
    if isinstance(exp, (int, float)) and isinstance(got, (int, float)):
        return abs(exp - got) <= 1e-5 * max(abs(exp), abs(got))
    return False


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
