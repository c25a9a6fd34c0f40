"""Run a suite of fixture cases through an implementation and collect verdicts.

``--skip`` globs mark cases skipped without running them. ``--expect-fail`` is strict (toml-test's
``-skip-must-err``): a listed case that fails or errors is an *expected failure* (not counted in
the exit code), a listed case that passes is itself a failure — the list must shrink when the
implementation is fixed. A run that checked nothing (no case, or every case skipped) exits
:data:`EXIT_NOTHING_CHECKED`: a filter that selects nothing must not pass silently in CI.
"""
from __future__ import annotations

import fnmatch
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from assay.core.errors import InputError
from assay.jobs.conform import protocol
from assay.jobs.conform.connect import Implementation
from assay.jobs.conform.judge import ERRORED, FAILED, PASSED, SKIPPED, Answer, Outcome, judge
from assay.jobs.conform.suite import Case, report_knobs

MAX_EXIT = 100
EXIT_NOTHING_CHECKED = InputError.exit_code


@dataclass
class Report:
    implementation: dict[str, Any]
    outcomes: list[Outcome] = field(default_factory=list)
    seconds: float = 0.0
    factor: float = 1.0
    unmatched_expect_fail: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status and not o.expected_failure)

    @property
    def expected_failures(self) -> int:
        return sum(1 for o in self.outcomes if o.expected_failure)

    @property
    def counts(self) -> dict[str, int]:
        return {s: self.count(s) for s in (PASSED, FAILED, ERRORED, SKIPPED)} | {
            "expected_failures": self.expected_failures}

    def summary(self) -> str:
        c = self.counts
        line = f"{c[PASSED]} passed, {c[FAILED]} failed, {c[ERRORED]} errored, {c[SKIPPED]} skipped"
        if c["expected_failures"]:
            line += f", {c['expected_failures']} expected failures"
        return line

    @property
    def nothing_checked(self) -> bool:
        """No case ran: the selection was empty, or every selected case was skipped."""
        return all(o.status == SKIPPED for o in self.outcomes)

    @property
    def exit_code(self) -> int:
        """failed + errored, capped at 100 (so it never collides with signal exit codes);
        :data:`EXIT_NOTHING_CHECKED` (2) when no case ran."""
        if self.nothing_checked:
            return EXIT_NOTHING_CHECKED
        return min(self.count(FAILED) + self.count(ERRORED), MAX_EXIT)


def case_message(case: Case, hint_profile: bool = True) -> dict[str, Any]:
    """The protocol message; without hints (identification) only the report-only knobs remain
    (e.g. ROUGE's ``types``: which measure the score is)."""
    knobs = case.knobs if hint_profile else report_knobs(case.metric, case.knobs)
    return protocol.case_message(case.id, case.metric, case.level, case.hyps, case.refs,
                                 case.profile if hint_profile else None, knobs, case.input)


def listed(case_id: str, patterns: Sequence[str]) -> str | None:
    """The first glob of ``patterns`` that matches ``case_id`` (None: not listed)."""
    for pattern in patterns:
        if fnmatch.fnmatchcase(case_id, pattern):
            return pattern
    return None


def run_suite(impl: Implementation, cases: Iterable[Case], *, skip: Sequence[str] = (),
              expect_fail: Sequence[str] = (), factor: float = 1.0,
              on_outcome: Callable[[Outcome], None] | None = None) -> Report:
    """Answer every case (the implementation must already be open) and judge each answer."""
    start = time.perf_counter()
    report = Report(dict(getattr(impl, "info", {}) or {}), factor=factor)
    used: set[str] = set()
    levels = report.implementation.get("levels")
    if not isinstance(levels, (list, tuple)):   # a direct: implementation's own metadata may say anything
        levels = None
    for case in cases:
        if listed(case.id, skip):
            outcome = Outcome(case, SKIPPED, "skipped by --skip")
        elif levels and case.level not in levels:
            outcome = Outcome(case, SKIPPED, f"the implementation has no {case.level}-level entry point")
        else:
            answer = impl.answer(case_message(case))
            outcome = judge(case, answer, factor)
            pattern = listed(case.id, expect_fail)
            if pattern is not None:
                used.add(pattern)
                if outcome.status in (FAILED, ERRORED):
                    outcome.expected_failure = True
                elif outcome.status == PASSED:
                    outcome = Outcome(case, FAILED, f"listed in --expect-fail ({pattern}) but passes: "
                                      "remove it from the list", matched=outcome.matched, answer=answer)
        report.outcomes.append(outcome)
        if on_outcome:
            on_outcome(outcome)
    report.unmatched_expect_fail = [p for p in expect_fail if p not in used]
    report.seconds = time.perf_counter() - start
    return report


def broken_answer(message: str) -> Answer:
    return Answer("broken", message=message)
