"""pytest plugin: run ``assay conform`` suites inside a user's own test run (one test per case).

    pytest --assay-impl=direct:mypkg.bleu:corpus_bleu --assay-shape=sacrebleu --assay-metric=bleu \\
           --assay-profile=sacrebleu [--assay-expect-fail=known.txt] [--assay-run=GLOB] [--assay-skip=GLOB]
    pytest --assay-impl=direct:mypkg.bleu:corpus_bleu --assay-shape=sacrebleu --assay-metric=bleu --assay-identify

Registered as the ``assay`` pytest11 entry point, so plain ``pytest`` loads it once assay is
installed (from a source checkout without installing: ``-p assay.cli.pytest_plugin``). Without
``--assay-impl`` the plugin does nothing. A ``direct:`` module is imported with the current
directory on ``sys.path`` when it is not importable otherwise (``python -m pytest`` puts it there,
the ``pytest`` script does not).

- **One profile.** The cases of ``--assay-profile`` (repeatable), else of the profile the
  implementation declares, else of the profile identification names first (an implementation
  that follows each case's knob hints runs every case). ``--assay-all-profiles`` runs them all.
- **Items** are named ``assay-conform::<case id>``; a case listed in ``--assay-expect-fail`` is a
  strict xfail (it must fail). A failure shows the segment text, the expected and actual values
  and the knob change of the profile that explains the difference (or that none does).
- ``--assay-identify`` runs no case: one item, ``assay-identify::<metric>``, names the profile
  matched (with its departures and ties) in the terminal summary, and fails when none is.
"""
from __future__ import annotations

from typing import Any

import pytest

from assay.cli.common import bounded, parse_knob_settings, text_file
from assay.cli.conform import TIMEOUT
from assay.core.domains import real
from assay.core.errors import AssayError
from assay.jobs.conform import connect, suite
from assay.jobs.conform.judge import ERRORED, FAILED, PASSED, SKIPPED, judge
from assay.jobs.conform.reports import failure_detail
from assay.jobs.conform.runner import case_message, listed

_STATE_KEY = "_assay_conform_state"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("assay", "assay conform: validate a metric implementation against the fixtures")
    group.addoption("--assay-impl", help="implementation under test: direct:package.module:callable or cmd:PROGRAM")
    group.addoption("--assay-metric", help="metric family (bleu, chrf, ter, rouge, ...)")
    group.addoption("--assay-shape", default=None, help="call shape of a direct: callable")
    group.addoption("--assay-profile", action="append", default=[], help="profile whose cases to run (repeatable)")
    group.addoption("--assay-set", action="append", default=[], help="KNOB=VALUE on top of --assay-profile")
    group.addoption("--assay-run", action="append", default=[], help="only case ids matching this glob")
    group.addoption("--assay-skip", action="append", default=[], help="skip case ids matching this glob")
    group.addoption("--assay-expect-fail", help="known-failure file (strict: a listed case must fail)")
    group.addoption("--assay-scale", type=bounded(real(0, low_open=True)), default=1.0,
                    help="multiply the implementation's scores first")
    group.addoption("--assay-timeout", type=bounded(TIMEOUT), default=30.0, help="cmd: seconds per case")
    group.addoption("--assay-identify", action="store_true",
                    help="only name the profile the implementation matches (no case is run)")
    group.addoption("--assay-all-profiles", action="store_true",
                    help="run the cases of every profile (default: one profile, named or identified)")


class _State:
    def __init__(self, config: pytest.Config):
        opt = config.getoption
        self.impl = connect.connect(opt("assay_impl"), opt("assay_shape"), timeout=opt("assay_timeout"))
        self.info = self.impl.open()
        metric = opt("assay_metric")
        if not metric:
            declared = list(self.info.get("metrics") or [])
            if len(declared) != 1:
                raise pytest.UsageError("--assay-metric is needed")
            metric = declared[0]
        self.metric = metric.lower()
        knobs = parse_knob_settings(opt("assay_set"))
        follows_hints = bool(self.info.get("knobs")) and not knobs
        profiles = list(opt("assay_profile")) or ([self.info["profile"]] if self.info.get("profile") else [])
        self.factor = opt("assay_scale")
        self.identification: Any = None
        self.identify_only = bool(opt("assay_identify"))
        if self.identify_only or not (profiles or opt("assay_all_profiles") or follows_hints):
            from assay.jobs.conform.identify import identify
            self.identification = identify(self.impl, self.metric, probes=self.identify_only)
            if self.identification.profile and not profiles and not opt("assay_all_profiles"):
                profiles = [self.identification.profile]
                if self.factor == 1.0:
                    self.factor = self.identification.factor
        self.selection = suite.Selection(self.metric, profiles or None, knobs or None, opt("assay_run"), (),
                                         with_knobs=follows_hints)
        self.skip = list(opt("assay_skip"))
        known = opt("assay_expect_fail")
        if known:
            text_file("--assay-expect-fail", known)   # exists, readable, UTF-8 (else a usage error)
        self.expect_fail = suite.read_expect_fail(known) if known else []
        self.cases = [] if self.identify_only else suite.select(self.selection)


class ConformCollector(pytest.Collector):
    def collect(self) -> list[pytest.Item]:
        state: _State = self.config.stash[_STASH]
        if state.identify_only:
            return [IdentifyItem.from_parent(self, name=state.metric)]
        return [ConformItem.from_parent(self, name=case.id, case=case) for case in state.cases]


class IdentifyItem(pytest.Item):
    """``--assay-identify``: passes when a profile is named (the summary says which)."""

    def runtest(self) -> None:
        state: _State = self.config.stash[_STASH]
        if state.identification is None or state.identification.profile is None:
            raise ConformFailure("assay identify: no profile matches (the implementation answered no case)")

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ConformFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"assay-identify::{self.name}"


class ConformFailure(Exception):
    pass


class ConformItem(pytest.Item):
    def __init__(self, *, case: Any, **kwargs: Any):
        super().__init__(**kwargs)
        self.case = case
        state: _State = self.config.stash[_STASH]
        self.expect_fail_pattern = listed(case.id, state.expect_fail)
        if listed(case.id, state.skip):
            self.add_marker(pytest.mark.skip(reason="skipped by --assay-skip"))

    def runtest(self) -> None:
        state: _State = self.config.stash[_STASH]
        answer = state.impl.answer(case_message(self.case))
        outcome = judge(self.case, answer, state.factor)
        if outcome.status == SKIPPED:
            pytest.skip(outcome.message)
        if self.expect_fail_pattern is not None:
            if outcome.status in (FAILED, ERRORED):
                pytest.xfail(f"listed in --assay-expect-fail ({self.expect_fail_pattern}): {outcome.message}")
            if outcome.status == PASSED:
                raise ConformFailure(f"listed in --assay-expect-fail ({self.expect_fail_pattern}) but passes: "
                                     "remove it from the list")
        if outcome.status in (FAILED, ERRORED):
            explanation = ""
            if outcome.status == FAILED and self.case.profile:
                from assay.jobs.conform.identify import explain_outcome
                try:
                    explanation = explain_outcome(outcome, self.case.metric, self.case.profile, state.factor)
                except AssayError:
                    explanation = ""
            raise ConformFailure("\n".join(failure_detail(outcome, explanation)))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ConformFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, None, f"assay-conform::{self.case.id}"


_STASH = pytest.StashKey[_State]()


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("assay_impl", None):
        try:
            config.stash[_STASH] = _State(config)
        except AssayError as exc:
            raise pytest.UsageError(f"assay conform: {exc}") from None


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STASH, None)
    if state is None or state.identification is None:
        return
    ident = state.identification
    terminalreporter.section("assay conform: identification")
    if state.identify_only:
        terminalreporter.write_line(ident.text())
    else:
        terminalreporter.write_line(f"cases of profile {state.metric}/{ident.profile} (identified; "
                                    "--assay-identify shows the evidence)")


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STASH, None)
    if state is not None:
        state.impl.close()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if _STASH not in config.stash:
        return
    collector = ConformCollector.from_parent(session, name="assay-conform")
    items.extend(collector.collect())
