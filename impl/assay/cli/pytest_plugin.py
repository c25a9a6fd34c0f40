"""pytest plugin: run ``assay conform`` suites inside a user's own test run (one test per case).

    pytest --assay-impl=direct:mypkg.bleu:corpus_bleu --assay-shape=sacrebleu --assay-metric=bleu \\
           --assay-profile=sacrebleu [--assay-expect-fail=known.txt] [--assay-run=GLOB] [--assay-skip=GLOB]

Registered as the ``assay`` pytest11 entry point (or load it with ``-p assay.cli.pytest_plugin``).
Without ``--assay-impl`` the plugin does nothing. Items are named ``assay-conform::<case id>``;
a case listed in ``--assay-expect-fail`` is a strict xfail (it must fail).
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
        knobs = parse_knob_settings(opt("assay_set"))
        profiles = list(opt("assay_profile")) or ([self.info["profile"]] if self.info.get("profile") else None)
        self.selection = suite.Selection(metric.lower(), profiles, knobs or None, opt("assay_run"), (),
                                         with_knobs=bool(self.info.get("knobs")) and not knobs)
        self.skip = list(opt("assay_skip"))
        known = opt("assay_expect_fail")
        if known:
            text_file("--assay-expect-fail", known)   # exists, readable, UTF-8 (else a usage error)
        self.expect_fail = suite.read_expect_fail(known) if known else []
        self.factor = opt("assay_scale")
        self.cases = suite.select(self.selection)


class ConformCollector(pytest.Collector):
    def collect(self) -> list[pytest.Item]:
        state: _State = self.config.stash[_STASH]
        return [ConformItem.from_parent(self, name=case.id, case=case) for case in state.cases]


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
            lines = [f"{outcome.status}: {self.case.id} [profile {self.case.profile}, {self.case.level}]"]
            lines += [f"  {d['tool']} {d['version']}: {d['difference']}" for d in outcome.diffs] or [f"  {outcome.message}"]
            raise ConformFailure("\n".join(lines))

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


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STASH, None)
    if state is not None:
        state.impl.close()


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if _STASH not in config.stash:
        return
    collector = ConformCollector.from_parent(session, name="assay-conform")
    items.extend(collector.collect())
