"""Third-party recordings as conform cases (``Profile.recorded``, assay.jobs.conform.recorded).

The expected values are the real packages' recorded answers (fixtures/thirdparty, with package,
version and call); assay's profiles for them are the implementations under test here, and other
profiles must fail them.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from assay.core.errors import InputError
from assay.jobs.conform import connect, recorded, reports, runner, suite
from assay.jobs.conform.judge import PY_EXCEPTION, Answer, judge
from assay.profiles.registry import get_profile, profiles_of


def _hf_cases() -> list[suite.Case]:
    return suite.select(suite.Selection("bleu", ["hf-evaluate"]))


def _run(spec: str, cases: list[suite.Case]) -> runner.Report:
    impl = connect.connect(spec)
    impl.open()
    try:
        return runner.run_suite(impl, cases)
    finally:
        impl.close()


def test_every_declared_recording_becomes_cases_with_provenance() -> None:
    declared = [(p, name) for p in profiles_of() for name in p.recorded]
    assert ("hf-evaluate", "hf-bleu") in {(p.name, n) for p, n in declared}
    for profile, name in declared:
        doc = recorded.load_recording(name)
        cases = recorded.cases_of(profile, name)
        answered = [a for a in doc["answers"].values() if "skipped" not in a]
        assert len(cases) == len(answered) > 0, name
        for case in cases:
            assert case.id.startswith(f"{profile.metric}/thirdparty/{name}/") and case.family == "thirdparty"
            assert case.profile == profile.name and suite.at_defaults(case, profile.name), case.id
            (exp,) = case.expected
            assert (exp.tool, exp.version, exp.command) == (doc["package"], str(doc["version"]), doc["call"])
            assert exp.tolerance == {"rel": profile.recorded_tolerance}
            assert exp.error is None or PY_EXCEPTION.match(exp.error), (case.id, exp.error)


def test_no_recording_is_stale() -> None:
    """Every answer of every recording (injected ones too: the replay tests read them) is keyed by an
    input the fixtures still hold; else the recording must be made again."""
    for path in sorted((suite.fixtures_root() / recorded.FOLDER).glob("*.json")):
        assert not recorded.stale_answers(path.stem), f"{path}: record it again (python -m conformance.regen thirdparty)"


def test_recording_keys_are_the_regen_keys() -> None:
    """conformance.regen.thirdparty writes the answers under its case_key; the suite looks them up
    with assay.jobs.conform.recorded.case_key: one definition (until regen imports it, the same value)."""
    from conformance.regen.thirdparty import case_key as regen_key
    for metric in ("bleu", "ter"):
        for case in suite.load_cases(metric)[::7]:
            args = (metric, case.level, case.hyps, case.refs, case.knobs)
            assert regen_key(*args) == recorded.case_key(*args), case.id


def test_recorded_exceptions_are_expected_errors() -> None:
    cases = _hf_cases()
    errors = [c for c in cases if c.expected[0].error]
    # 199 on the earlier inputs, 36 + 13 more on fixtures/bleu/e2e_sig_generated.json's (empty references;
    # the 13 on its empty-first-slot inputs)
    assert len(errors) == 248 and all(c.expected[0].error == "ZeroDivisionError" for c in errors)
    report = _run("direct:assay.jobs.conform.assay_impl:profiles[bleu/hf-evaluate]", errors[:20])
    assert report.count("passed") == 20, reports.text_report(report)
    assert all("the tool raises ZeroDivisionError" in o.message for o in report.outcomes)


def test_another_profile_fails_the_recorded_cases() -> None:
    """sacrebleu's BLEU (smoothed, 0-100) is not evaluate's: the recorded answers tell them apart, and
    where evaluate raises, an implementation that returns a number fails."""
    cases = _hf_cases()
    sample = cases[::25] + [c for c in cases if c.expected[0].error][:5]
    report = _run("direct:assay.jobs.conform.assay_impl:profiles[bleu/sacrebleu]", sample)
    assert report.count("failed") > len(sample) // 2, reports.text_report(report)
    raised = [o for o in report.outcomes if o.case.expected[0].error]
    assert all(o.status == "failed" and "the tool raises ZeroDivisionError, the implementation returned" in o.message
               for o in raised), reports.text_report(report, verbose=True)


def test_float32_tolerance_is_the_profiles() -> None:
    """torchmetrics computes in float32: its profile declares 1e-6, and a case is judged with it."""
    profile = get_profile("bleu", "torchmetrics")
    assert profile.recorded == ("tm-bleu",) and profile.recorded_tolerance == 1e-6
    case = next(c for c in suite.select(suite.Selection("bleu", ["torchmetrics"]))
                if c.level == "corpus" and c.expected[0].score)
    want = case.expected[0].score
    near = judge(case, Answer("result", want * (1 + 5e-7)))
    far = judge(case, Answer("result", want * (1 + 5e-6)))
    assert (near.status, far.status) == ("passed", "failed"), (near.message, far.message)


def test_report_and_case_list_name_the_package_version_and_call() -> None:
    cases = _hf_cases()[:10]
    report = _run("direct:assay.jobs.conform.assay_impl:profiles[bleu/hf-evaluate]", cases)
    line = "expected values of 10 case(s): evaluate 0.4.6, recorded as evaluate.load("
    assert line in reports.text_report(report)
    assert line in reports.case_list(cases)
    header = json.loads(next(reports.jsonl_lines(report)))
    (prov,) = header["recorded"]
    assert prov["recording"] == "hf-bleu" and prov["package"] == "evaluate" and prov["version"] == "0.4.6"
    assert prov["file"] == "thirdparty/hf-bleu.json" and prov["cases"] == 10 and "evaluate.load(" in prov["call"]


def test_cli_list_cases(capsys: pytest.CaptureFixture[str]) -> None:
    from assay.cli.main import main
    code = main(["conform", "direct:assay.jobs.conform.assay_impl:profiles[bleu/compare-mt]", "--list-cases"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0].startswith("expected values of 236 case(s): compare-mt 0.2.10, recorded as compare_mt.scorers")
    assert out[-1] == "236 case(s)" and len(out) == 238
    assert out[1].startswith("bleu/thirdparty/compare-mt/") and out[1].endswith("expected: compare-mt 0.2.10")


# ----------------------------------------------------------------------------- broken recordings
def _copy_fixtures(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "fixtures"
    shutil.copytree(suite.fixtures_root() / "bleu", root / "bleu")
    (root / "thirdparty").mkdir()
    shutil.copy2(recorded.recording_path(name), root / "thirdparty" / f"{name}.json")
    return root


def test_missing_or_stale_recording(tmp_path: Path) -> None:
    """A missing or malformed recording is a clear error; an answer whose input the fixtures no longer
    hold is no case, and is listed by stale_answers (test_no_recording_is_stale)."""
    root = _copy_fixtures(tmp_path, "hf-bleu")
    profile = replace(get_profile("bleu", "hf-evaluate"), recorded=("no-such-recording",))
    with pytest.raises(InputError, match=r"no-such-recording\.json: recording not found"):
        recorded.cases_of(profile, "no-such-recording", root)
    path = root / "thirdparty" / "hf-bleu.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["answers"]["0" * 20] = {"score": 0.5}
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert recorded.stale_answers("hf-bleu", root) == ["0" * 20]
    assert len(recorded.cases_of(profile, "hf-bleu", root)) == len(_hf_cases())
    (root / "thirdparty" / "bad.json").write_text('{"format": "other"}', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json: not an assay-thirdparty/1 file"):
        recorded.cases_of(profile, "bad", root)


def test_profile_field_is_checked() -> None:
    from assay.core.errors import KnobError
    base = get_profile("bleu", "hf-evaluate")
    with pytest.raises(KnobError, match="recorded must be a tuple"):
        replace(base, recorded="hf-bleu")
    with pytest.raises(KnobError, match="recorded_tolerance"):
        replace(base, recorded_tolerance=0.0)
