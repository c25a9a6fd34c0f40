"""``assay conform`` on GLEU: assay's own profiles pass their suites and are identified as themselves;
the live NLTK ``gleu_score`` (``--shape nltk``) is identified as ``gleu/nltk``, and NLTK wrapped with
one deliberate change (lowercased input, only the first reference, max_len 3) is named by that knob.
"""
from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from assay.jobs.conform import connect, identify, reports, runner, suite
from assay.profiles.registry import profiles_of

PROFILES = [p.name for p in profiles_of("gleu")]


@pytest.fixture(scope="module")
def id_suite() -> identify.IdentificationSuite:
    return identify.suite_for("gleu")


def _connect(spec: str, shape: str | None = None) -> Any:
    impl = connect.connect(spec, shape)
    impl.open()
    return impl


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_passes_its_own_suite(profile: str) -> None:
    impl = _connect(f"direct:assay.jobs.conform.assay_impl:profiles[gleu/{profile}]")
    try:
        report = runner.run_suite(impl, suite.select(suite.Selection("gleu", [profile])))
    finally:
        impl.close()
    c = report.counts
    assert c["passed"] >= 100 and c["failed"] == 0 and c["errored"] == 0, reports.text_report(report, max_listed=5)


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_identified_as_itself(profile: str, id_suite: identify.IdentificationSuite) -> None:
    impl = _connect(f"direct:assay.jobs.conform.assay_impl:profiles[gleu/{profile}]")
    result = identify.identify(impl, "gleu", id_suite)
    assert result.profile == profile and result.factor == 1.0, result.text()
    assert not result.departures and not result.unexplained and not result.tied, result.text()


def test_follow_hints_passes_cases_with_knobs() -> None:
    cases = suite.select(suite.Selection("gleu", with_knobs=True))
    assert any(c.knobs for c in cases)
    impl = _connect("direct:assay.jobs.conform.assay_impl:follow")
    report = runner.run_suite(impl, cases[:: max(1, len(cases) // 80)])
    assert report.count("failed") == 0 and report.count("errored") == 0, reports.text_report(report, max_listed=5)


# ----------------------------------------------------------------------------- the live NLTK
def _wrapped_nltk(name: str, lower: bool = False, first_only: bool = False, max_len: int = 4) -> str:
    """An in-memory module ``<name>`` with NLTK-shaped ``corpus``/``sentence`` calls around NLTK's GLEU,
    changed as asked; the ``direct:`` spec that reaches it."""
    from nltk.translate import gleu_score

    def prep(refs: list[list[str]], hyp: list[str]) -> tuple[list[list[str]], list[str]]:
        if lower:
            refs, hyp = [[t.lower() for t in r] for r in refs], [t.lower() for t in hyp]
        return (refs[:1] if first_only else refs), hyp

    def corpus(list_of_references: list[list[list[str]]], hypotheses: list[list[str]]) -> float:
        pairs = [prep(r, h) for r, h in zip(list_of_references, hypotheses)]
        return gleu_score.corpus_gleu([r for r, _ in pairs], [h for _, h in pairs], max_len=max_len)

    def sentence(references: list[list[str]], hypothesis: list[str]) -> float:
        refs, hyp = prep(references, hypothesis)
        return gleu_score.sentence_gleu(refs, hyp, max_len=max_len)

    module = types.ModuleType(name)
    module.corpus, module.sentence = corpus, sentence      # type: ignore[attr-defined]
    sys.modules[name] = module
    return f"direct:{name}:corpus,sentence"


@pytest.mark.refs
def test_live_nltk_identified(require_tool, id_suite: identify.IdentificationSuite) -> None:
    require_tool("nltk", "3.10.4")
    impl = _connect("direct:nltk.translate.gleu_score:corpus_gleu,sentence_gleu", "nltk")
    result = identify.identify(impl, "gleu", id_suite)
    assert result.profile == "nltk" and not result.departures and not result.unexplained, result.text()


@pytest.mark.refs
@pytest.mark.parametrize("change,knob,value", [
    ({"lower": True}, "lowercase", True),
    ({"first_only": True}, "multi_ref", "first"),
    ({"max_len": 3}, "max_ngram_order", 3),
])
def test_broken_nltk_named_by_its_knob(require_tool, id_suite: identify.IdentificationSuite,
                                       change: dict[str, Any], knob: str, value: Any) -> None:
    require_tool("nltk", "3.10.4")
    spec = _wrapped_nltk(f"_gleu_broken_{knob}", **change)
    result = identify.identify(_connect(spec, "nltk"), "gleu", id_suite)
    assert result.profile == "nltk", result.text()
    assert [(d.knob, d.value) for d in result.departures] == [(knob, value)], result.text()
    assert not result.unexplained, result.text()
