"""``assay conform``: suites, direct:/cmd: connectables, identification, reports, known failures.

Expected values in every suite come from the reference tools' fixtures; assay's own profiles are
the implementations under test here (they must pass their own suites and be identified as
themselves), together with the reference clients and the deliberately broken implementations in
conformance/examples/conform_clients/.
"""
from __future__ import annotations

import json
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from assay.jobs.conform import connect, identify, reports, runner, suite
from assay.jobs.conform.assay_impl import ProfileImplementation
from assay.core.errors import InputError
from assay.profiles.registry import profiles_of

CLIENTS = Path(__file__).resolve().parents[2] / "examples" / "conform_clients"
ASSAY_CLIENT = f"cmd:{sys.executable} {CLIENTS / 'assay_client.py'}"
BROKEN = f"cmd:{sys.executable} {CLIENTS / 'broken_client.py'}"
JS_CLIENT = CLIENTS / "bleu_client.js"
#: metrics whose profiles run here (METEOR needs WordNet at run time; coco is a pipeline)
METRICS = ("bleu", "chrf", "ter", "nist", "rouge", "cider")


def _profile_params() -> list:
    return [pytest.param(m, p.name, id=f"{m}/{p.name}") for m in METRICS for p in profiles_of(m)]


def _run(spec: str, metric: str, profiles: list[str] | None = None, shape: str | None = None,
         run: tuple[str, ...] = (), expect_fail: tuple[str, ...] = (), levels=("corpus", "sentence"),
         **kwargs) -> runner.Report:
    impl = connect.connect(spec, shape, **kwargs)
    info = impl.open()
    try:
        profiles = profiles or ([info["profile"]] if info.get("profile") else None)
        cases = suite.select(suite.Selection(metric, profiles, None, run, (), levels,
                                             with_knobs=bool(info.get("knobs"))))
        return runner.run_suite(impl, cases, expect_fail=expect_fail)
    finally:
        impl.close()


@pytest.fixture(scope="module")
def id_suites() -> dict[str, identify.IdentificationSuite]:
    return {}


def _id_suite(cache: dict, metric: str) -> identify.IdentificationSuite:
    if metric not in cache:
        cache[metric] = identify.suite_for(metric)
    return cache[metric]


def _identify_bleu(spec: str) -> identify.Identification:
    """The identification of a connected implementation on the BLEU suite."""
    impl = connect.connect(spec)
    impl.open()
    try:
        return identify.identify(impl, "bleu")
    finally:
        impl.close()


# ----------------------------------------------------------------------------- own profiles
@pytest.mark.parametrize("metric,profile", _profile_params())
def test_assay_profile_passes_its_own_suite_direct(metric: str, profile: str) -> None:
    """The profile at its defaults passes the cases at its defaults: fixture cases and the recorded
    answers of the third-party packages it declares (``Profile.recorded``). A profile whose fixture
    cases all set knobs (``cider/vedantam2015``: ``scale=10`` gives the authors' code) passes them
    with those knobs."""
    report = _run(f"direct:assay.jobs.conform.assay_impl:profiles[{metric}/{profile}]", metric, [profile])
    if not report.outcomes:
        report = _run("direct:assay.jobs.conform.assay_impl:follow", metric, [profile])
    c = report.counts
    if not report.outcomes:
        pytest.skip(f"no fixture case of {metric}/{profile}")
    assert c["failed"] == 0 and c["errored"] == 0, reports.text_report(report, max_listed=5)
    assert c["passed"] > 0


@pytest.mark.parametrize("metric,profile", _profile_params())
def test_assay_profile_identified_as_itself(metric: str, profile: str, id_suites: dict) -> None:
    impl = connect.connect(f"direct:assay.jobs.conform.assay_impl:profiles[{metric}/{profile}]")
    result = identify.identify(impl, metric, _id_suite(id_suites, metric))
    assert result.profile == profile or profile in result.tied, result.text()
    assert not result.departures and not result.unexplained, result.text()
    assert result.factor == 1.0


@pytest.mark.parametrize("metric", METRICS)
def test_follow_hints_passes_cases_with_knobs(metric: str) -> None:
    """assay following each case's profile and knobs passes every (sampled) case, knob cases too."""
    cases = suite.select(suite.Selection(metric, with_knobs=True))
    sample = cases[:: max(1, len(cases) // 60)]
    impl = connect.connect("direct:assay.jobs.conform.assay_impl:follow")
    report = runner.run_suite(impl, sample)
    assert report.count("failed") == 0 and report.count("errored") == 0, reports.text_report(report, max_listed=5)
    assert any(c.knobs for c in sample)


def test_cmd_assay_client_fixed_profile_passes_and_is_identified() -> None:
    report = _run(f"{ASSAY_CLIENT} --profile bleu/multi-bleu", "bleu")
    assert report.count("passed") > 100 and report.exit_code == 0, reports.text_report(report)
    result = _identify_bleu(f"{ASSAY_CLIENT} --profile bleu/multi-bleu")
    assert result.profile == "multi-bleu" and not result.departures, result.text()


def test_cmd_assay_client_following_hints() -> None:
    report = _run(ASSAY_CLIENT, "chrf", run=("chrf/sacrebleu_generated/*",))
    assert report.count("passed") > 50 and report.exit_code == 0, reports.text_report(report)
    assert report.implementation["knobs"] is True


def test_cmd_assay_client_reports_tool_errors_as_errors() -> None:
    """NLTK NIST raises ZeroDivisionError on some fixture cases: the client answers an error, which
    matches the tool's recorded failure (a pass, not an error)."""
    cases = [c for c in suite.load_cases("nist")
             if any(e.error == "ZeroDivisionError" for e in c.expected) and c.profile == "nltk"][:3]
    assert cases
    impl = connect.connect(f"{ASSAY_CLIENT} --profile nist/nltk")
    impl.open()
    try:
        report = runner.run_suite(impl, cases)
    finally:
        impl.close()
    assert report.count("passed") == len(cases), reports.text_report(report)


# ----------------------------------------------------------------------------- JavaScript client
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


@needs_node
def test_js_client_passes_sacrebleu_suite_and_is_identified() -> None:
    spec = f"cmd:node {JS_CLIENT}"
    report = _run(spec, "bleu")
    assert report.count("passed") > 50 and report.exit_code == 0, reports.text_report(report)
    result = _identify_bleu(spec)
    assert result.profile == "sacrebleu" and not result.departures, result.text()


@needs_node
def test_js_client_on_presplit_tokens_departs_on_tokenize() -> None:
    spec = f"cmd:node {JS_CLIENT} --tokenize none"
    result = _identify_bleu(spec)
    assert result.profile == "sacrebleu", result.text()
    assert [(d.knob, d.value) for d in result.departures] == [("tokenize", "none")], result.text()
    assert result.departures[0].cases and not result.unexplained


# ----------------------------------------------------------------------------- broken implementations
def test_broken_ok_mode_passes() -> None:
    """The broken client without a fault passes: the faults below are what the runner catches."""
    report = _run(f"{BROKEN} --mode ok", "bleu")
    assert report.exit_code == 0 and report.count("passed") > 50, reports.text_report(report)


@pytest.mark.parametrize("mode,status,fragment", [
    ("wrong-clipping", "failed", "score: expected"),
    ("off-by-one", "failed", "component counts"),
    ("crash", "errored", "segmentation fault (simulated)"),
    ("garbage", "errored", "garbage output"),
    ("huge", "errored", "output too large"),
    ("nan", "errored", "no NaN or Infinity"),
    ("wrong-id", "errored", "reply for case 'some/other/case'"),
])
def test_broken_implementation_caught(mode: str, status: str, fragment: str) -> None:
    report = _run(f"{BROKEN} --mode {mode}", "bleu", max_output=200_000)
    bad = [o for o in report.outcomes if o.status == status]
    assert bad, reports.text_report(report)
    assert all(o.status in ("passed", status) for o in report.outcomes)
    text = reports.text_report(report, max_listed=1000)
    assert fragment in text
    assert report.count("passed") > 0          # the runner restarted and carried on
    assert report.exit_code == min(len(bad), runner.MAX_EXIT)


def test_broken_crash_message_names_exit_status_and_stderr() -> None:
    report = _run(f"{BROKEN} --mode crash", "bleu", run=("bleu/research_sacrebleu/*",))
    errored = [o for o in report.outcomes if o.status == "errored"]
    assert errored
    assert "crash: exit status 1" in errored[0].message
    assert "RuntimeError" in errored[0].message


def test_broken_hang_times_out_and_runner_continues() -> None:
    run = ("bleu/research_sacrebleu/research/G01/*", "bleu/research_sacrebleu/research/G02/*")
    report = _run(f"{BROKEN} --mode hang", "bleu", run=run, timeout=1.0)
    statuses = {o.case.id.rsplit("/", 1)[-1] + o.case.id: o.status for o in report.outcomes}
    hung = [o for o in report.outcomes if o.status == "errored"]
    assert hung and all(o.case.level == "sentence" for o in hung), statuses
    assert all("timed out after 1 s" in o.message for o in hung)
    assert all(o.status == "passed" for o in report.outcomes if o.case.level == "corpus")


def test_broken_no_start_is_a_clear_input_error() -> None:
    impl = connect.connect(f"{BROKEN} --mode no-start")
    with pytest.raises(InputError, match="exited before answering start.*exit status 3.*configuration missing"):
        impl.open()


def test_wrong_clipping_is_identified_with_unexplained_cases() -> None:
    result = _identify_bleu(f"{BROKEN} --mode wrong-clipping")
    assert result.profile == "sacrebleu"
    assert result.unexplained, result.text()   # no knob reproduces summed reference counts


def test_direct_exceptions_are_errors_not_crashes() -> None:
    impl = connect.connect("direct:conformance.tests.conform.test_conform:_raising_impl")
    case = suite.select(suite.Selection("bleu", ["sacrebleu"]))[0]
    outcome = runner.run_suite(impl, [case]).outcomes[0]
    assert outcome.status == "errored" and "ValueError: boom" in outcome.message


def _raising_impl(case: dict) -> float:
    raise ValueError("boom")


#: an implementation of NLTK corpus_bleu with SmoothingFunction().method3 (assay's profile + knob)
NLTK_METHOD3 = ProfileImplementation("bleu", "nltk", smoothing="method3")


# ----------------------------------------------------------------------------- selection, expect-fail
def test_selection_by_profile_glob_and_level() -> None:
    sel = suite.Selection("bleu", ["nltk"], run=("bleu/nltk_generated/*",), levels=("sentence",))
    cases = suite.select(sel)
    assert cases and all(c.id.startswith("bleu/nltk_generated/") and c.level == "sentence" for c in cases)
    assert all(suite.at_defaults(c, "nltk") for c in cases)
    with_knobs = suite.select(suite.Selection("bleu", ["nltk"], run=("bleu/nltk_generated/*",),
                                              levels=("sentence",), with_knobs=True))
    assert len(with_knobs) > len(cases)


def test_selection_with_set_knobs() -> None:
    cases = suite.select(suite.Selection("bleu", ["nltk"], {"smoothing": "method3"}))
    assert cases and all(c.knobs.get("smoothing") == "method3" for c in cases)
    report = _run_profile_with_knobs(cases)
    assert report.exit_code == 0


def _run_profile_with_knobs(cases: list) -> runner.Report:
    impl = connect.connect("direct:conformance.tests.conform.test_conform:NLTK_METHOD3")
    return runner.run_suite(impl, cases)


def test_skip_globs_are_reported_skipped() -> None:
    impl = connect.connect("direct:assay.jobs.conform.assay_impl:profiles[bleu/sacrebleu]")
    cases = suite.select(suite.Selection("bleu", ["sacrebleu"]))
    report = runner.run_suite(impl, cases, skip=("bleu/research_sacrebleu/*",))
    skipped = [o for o in report.outcomes if o.status == "skipped"]
    assert skipped and all(o.case.id.startswith("bleu/research_sacrebleu/") for o in skipped)
    assert report.summary().endswith(f"{len(skipped)} skipped")


def test_expect_fail_is_strict(tmp_path: Path) -> None:
    spec = f"{BROKEN} --mode wrong-clipping"
    report = _run(spec, "bleu")
    failing = [o.case.id for o in report.outcomes if o.status == "failed"]
    passing = [o.case.id for o in report.outcomes if o.status == "passed"]
    listed = tmp_path / "known.txt"
    listed.write_text("# known failures\n" + "\n".join(failing) + f"\n{passing[0]}  # fixed meanwhile\n"
                      "bleu/no/such/case\n", encoding="utf-8")
    entries = suite.read_expect_fail(listed)
    again = _run(spec, "bleu", expect_fail=tuple(entries))
    assert again.expected_failures == len(failing)
    bad = [o for o in again.outcomes if o.status == "failed" and not o.expected_failure]
    assert [o.case.id for o in bad] == [passing[0]]
    assert "listed in --expect-fail" in bad[0].message and "passes" in bad[0].message
    assert again.exit_code == 1
    assert again.unmatched_expect_fail == ["bleu/no/such/case"]
    assert "1 failed" in again.summary() and f"{len(failing)} expected failures" in again.summary()


def test_read_expect_fail_missing_file() -> None:
    with pytest.raises(InputError, match="cannot read expect-fail file"):
        suite.read_expect_fail("/nonexistent/known.txt")


# ----------------------------------------------------------------------------- reports
def test_junit_xml_is_well_formed(tmp_path: Path) -> None:
    report = _run(f"{BROKEN} --mode garbage", "bleu", run=("bleu/research_sacrebleu/*",))
    report.outcomes[0].message += " control \x01\x1b chars"
    root = ET.fromstring(reports.junit_xml(report))
    assert root.tag == "testsuites"
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(report.outcomes)
    assert int(root.get("errors")) == report.count("errored") == len(root.findall("./testsuite/testcase/error"))
    assert int(root.get("failures")) == report.count("failed")
    suite_el = root.find("testsuite")
    assert suite_el.get("name") == "assay-conform.bleu"
    assert suite_el.find("properties/property[@name='implementation.name']").get("value").startswith("broken-bleu")


def test_jsonl_report_has_header_cases_footer() -> None:
    report = _run(f"{BROKEN} --mode off-by-one", "bleu", run=("bleu/research_sacrebleu/*",))
    records = [json.loads(line) for line in reports.jsonl_lines(report, {"metric": "bleu"})]
    assert records[0]["type"] == "header" and records[-1]["type"] == "footer"
    cases = records[1:-1]
    assert len(cases) == len(report.outcomes)
    failed = [r for r in cases if r["status"] == "failed"]
    assert failed and failed[0]["diffs"][0]["tool"] == "sacrebleu" and "expected" in failed[0]["diffs"][0]
    assert records[-1]["counts"]["failed"] == len(failed)
    assert records[-1]["exit_code"] == report.exit_code


def test_text_report_summary_line() -> None:
    report = _run("direct:assay.jobs.conform.assay_impl:profiles[ter/sacrebleu]", "ter", ["sacrebleu"])
    text = reports.text_report(report)
    assert text.splitlines()[-1] == f"{report.count('passed')} passed, 0 failed, 0 errored, 0 skipped"


# ----------------------------------------------------------------------------- CLI
def test_cli_conform_identify_json_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from assay.cli.main import main
    junit = tmp_path / "out.xml"
    code = main(["conform", f"{BROKEN} --mode wrong-clipping", "--identify", "--format", "json",
                 "--junit", str(junit), "--run", "bleu/research_sacrebleu/*"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    header, footer = lines[0], lines[-1]
    assert header["identification"]["profile"] == "sacrebleu"
    assert footer["exit_code"] == code == footer["counts"]["failed"] + footer["counts"]["errored"] > 0
    ET.parse(junit)


def test_cli_conform_text_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    from assay.cli.main import main
    code = main(["conform", "direct:assay.jobs.conform.assay_impl:profiles[chrf/nltk]", "--metric", "chrf"])
    out = capsys.readouterr().out
    assert code == 0 and out.splitlines()[-1].endswith(" passed, 0 failed, 0 errored, 0 skipped"), out
    assert "suite: chrf, profile nltk" in out


def test_cli_conform_bad_impl_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    from assay.cli.main import main
    assert main(["conform", "nonsense", "--metric", "bleu"]) == 2
    assert "direct:package.module:callable" in capsys.readouterr().err
    assert main(["conform", "direct:no_such_module_xyz:f", "--metric", "bleu"]) == 2
