"""Deliberately broken implementations, one per knob family, are each named by the knob broken.

The implementations (``conformance/examples/conform_clients/broken_impls.py``) are small
self-written scorers that reproduce a tool except for one behaviour; the expected answer of each
test is the knob that behaviour is (issue 22: brevity penalty, casing, smoothing, tokenisation,
reference handling, sets vs multisets, beta). Identification runs on assay's profiles (the
targets); the knob probes make every single-knob departure show on some case.
"""
from __future__ import annotations

import json

import pytest

from assay.jobs.conform import connect, identify
from conformance.examples.conform_clients.broken_impls import BROKEN, FAMILY, OK

MODULE = "conformance.examples.conform_clients.broken_impls"


def _identify(name: str) -> identify.Identification:
    metric = BROKEN[name][0]
    impl = connect.connect(f"direct:{MODULE}:{name}")
    impl.open()
    try:
        return identify.identify(impl, metric)
    finally:
        impl.close()


def test_every_knob_family_of_the_issue_is_broken_once() -> None:
    assert set(FAMILY.values()) == {"brevity penalty", "casing", "smoothing", "tokenisation",
                                    "reference handling", "sets vs multisets", "beta"}
    assert set(FAMILY) == set(BROKEN)


@pytest.mark.parametrize("name", sorted(BROKEN), ids=lambda n: f"{n} ({FAMILY[n]})")
def test_broken_implementation_is_named_by_the_knob_broken(name: str) -> None:
    metric, profile, knob, value = BROKEN[name]
    result = _identify(name)
    assert result.profile == profile, result.text()
    assert [(d.knob, d.value) for d in result.departures] == [(knob, value)], result.text()
    assert result.departures[0].cases and not result.unexplained, result.text()
    assert not result.ties, result.text()           # named alone, not as one of several
    assert result.factor == 1.0


@pytest.mark.parametrize("name", sorted(OK))
def test_the_unbroken_twins_are_named_with_no_departure(name: str) -> None:
    """The same scorers with the tools' behaviour: no departure (so the knob named above comes
    from the fault, not from the scorer)."""
    metric, profile = OK[name]
    impl = connect.connect(f"direct:{MODULE}:{name}")
    result = identify.identify(impl, metric)
    assert result.profile == profile and not result.departures and not result.unexplained, result.text()


def test_cli_json_names_the_knob_and_reports_ties(capsys: pytest.CaptureFixture[str]) -> None:
    from assay.cli.main import main
    code = main(["conform", f"direct:{MODULE}:chrf_beta_one", "--metric", "chrf", "--identify", "-f", "json"])
    header = json.loads(capsys.readouterr().out.splitlines()[0])
    ident = header["identification"]
    assert ident["profile"] == "sacrebleu" and ident["factor"] == 1.0
    assert [(d["knob"], d["value"]) for d in ident["departures"]] == [("beta", 1)]
    assert ident["ties"] == [] and ident["knob_probes"] > 0
    assert header["profiles"] == ["sacrebleu"] and code > 0


def test_a_tie_is_reported_with_the_case_that_would_break_it() -> None:
    """nltk and nltk@3.5 differ only in knobs no default-smoothing case shows: a tie, in the text and
    the JSON, with no distinguishing fixture case."""
    impl = connect.connect("direct:assay.jobs.conform.assay_impl:profiles[bleu/nltk]")
    result = identify.identify(impl, "bleu")
    assert result.profile in ("nltk", "nltk@3.5"), result.text()
    other = {"nltk", "nltk@3.5"} - {result.profile}
    assert [t.profile for t in result.ties] == sorted(other), result.text()
    assert "tie: equally explained as bleu/" in result.text()
    tie = result.to_json()["ties"][0]
    assert tie["profile"] in other and tie["distinguishing_case"] is None and tie["departures"] == []


def test_a_tie_one_case_can_break_is_broken_by_asking_it() -> None:
    """Two explanations that the suite's answers cannot tell apart, but a further fixture case can:
    identification asks that case and names one (no tie left)."""
    suite = identify.suite_for("bleu")
    a = ("sacrebleu", {}, 1.0)
    b = ("sacrebleu", {"use_brevity_penalty": False}, 1.0)
    cand = suite.separating(a, b, suite.candidates)
    assert cand is not None
    assert identify.differs(suite.predict(cand, *a[:2]), suite.predict(cand, *b[:2]), suite.tolerance)


def test_differences_within_the_tolerance_are_not_evidence() -> None:
    assert not identify.differs(0.5, 0.5 + 1e-16, 1e-6)
    assert not identify.differs([1.0, 2.0], [1.0, 2.0 * (1 + 1e-12)], 1e-6)
    assert identify.differs(0.5, 0.51, 1e-6)
    assert identify.differs(0.5, identify.ERROR, 1e-6)
    assert not identify.differs(None, 0.5, 1e-6)


def test_cli_runs_the_identified_profile_only(capsys: pytest.CaptureFixture[str]) -> None:
    """No profile named or declared: conform identifies one and runs that profile's cases only."""
    from assay.cli.main import main
    from assay.jobs.conform import suite
    code = main(["conform", f"direct:{MODULE}:chrf_ok", "--metric", "chrf"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "profile: chrf/sacrebleu (identified" in out
    n = len(suite.select(suite.Selection("chrf", ["sacrebleu"])))
    assert f"suite: chrf, profile sacrebleu (cases at the profile's defaults): {n} case(s)" in out
    assert out.splitlines()[-1] == f"{n} passed, 0 failed, 0 errored, 0 skipped"


def test_identification_steps_one_progress_bar() -> None:
    from assay.core.progress import ProgressBar
    bar = ProgressBar(enabled=False)
    result = identify.identify(connect.connect(f"direct:{MODULE}:chrf_ok"), "chrf", progress=bar)
    assert bar.total == bar.done >= len(identify.suite_for("chrf").selected) and len(result.cases) >= bar.done
