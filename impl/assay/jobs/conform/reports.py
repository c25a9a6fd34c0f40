"""Render a conformance report: text (CommonMark/toml-test style), JSON lines (bowtie style), JUnit XML.

Third-party recorded cases (:mod:`.recorded`) are introduced by their provenance: package, version,
the recorded call and its file (text: one line per recording; JSON: the header's ``recorded``).

JSON lines: one ``header`` record (implementation metadata, selection), one ``case`` record per
case (id, status, message, matched tool version, per-tool diffs), one ``footer`` record (counts,
exit code). JUnit: one ``testsuite`` per metric, one ``testcase`` per case (failure / error /
skipped children), loadable by CI dashboards.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any, Iterator

from assay.core.score import json_safe
from assay.jobs.conform.judge import ERRORED, FAILED, PASSED, SKIPPED, Outcome, close
from assay.jobs.conform.recorded import provenance, provenance_lines
from assay.jobs.conform.runner import Report
from assay.jobs.conform.suite import Case


def _plain(value: Any) -> Any:
    return json_safe(value, non_finite="repr")


def case_record(o: Outcome) -> dict[str, Any]:
    rec: dict[str, Any] = {"type": "case", "id": o.case.id, "metric": o.case.metric, "profile": o.case.profile,
                           "level": o.case.level, "status": o.status, "message": o.message}
    if o.expected_failure:
        rec["expected_failure"] = True
    if o.matched:
        rec["matched"] = o.matched
    if o.diffs:
        rec["diffs"] = _plain(o.diffs)
    if o.answer is not None:
        rec["seconds"] = round(o.answer.seconds, 6)
        if o.answer.context:
            rec["context"] = _plain(o.answer.context)
    return rec


def jsonl_lines(report: Report, header: dict[str, Any] | None = None) -> Iterator[str]:
    recorded = [{k: v for k, v in p.items() if k != "text"} for p in provenance(o.case for o in report.outcomes)]
    yield json.dumps({"type": "header", "implementation": _plain(report.implementation), "factor": report.factor,
                      **({"recorded": recorded} if recorded else {}), **(header or {})}, ensure_ascii=False)
    for o in report.outcomes:
        yield json.dumps(case_record(o), ensure_ascii=False)
    yield json.dumps({"type": "footer", "counts": report.counts, "summary": report.summary(),
                      "exit_code": report.exit_code, "seconds": round(report.seconds, 3),
                      "unmatched_expect_fail": report.unmatched_expect_fail}, ensure_ascii=False)


def text_report(report: Report, verbose: bool = False, max_listed: int = 50) -> str:
    """Failures and errors with their diffs, then the summary line."""
    lines: list[str] = []
    impl = report.implementation
    name = impl.get("name", "implementation")
    version = f" {impl['version']}" if impl.get("version") else ""
    lines.append(f"implementation: {name}{version}" + (f" (shape {impl['shape']})" if impl.get("shape") else ""))
    if report.factor != 1:
        lines.append(f"scores multiplied by {report.factor:g} before comparing")
    lines.extend(report.notes)
    lines.extend(provenance_lines(o.case for o in report.outcomes))
    shown = 0
    for o in report.outcomes:
        bad = o.status in (FAILED, ERRORED) and not o.expected_failure
        if not (bad or verbose):
            continue
        if bad and shown >= max_listed:
            continue
        shown += bad
        tag = {PASSED: "PASS", FAILED: "FAIL", ERRORED: "ERROR", SKIPPED: "SKIP"}[o.status]
        if o.expected_failure:
            tag = "XFAIL"
        lines.append(f"{tag} {o.case.id} [profile {o.case.profile}, {o.case.level}, {len(o.case.hyps)} segment(s), "
                     f"{o.case.nrefs} ref stream(s)]")
        if o.diffs:
            for d in o.diffs:
                lines.append(f"    {d['tool']} {d['version']}: {d['difference']}")
        elif o.message:
            lines.append(f"    {o.message}")
        stderr = (o.answer.context or {}).get("stderr") if o.answer else None
        if stderr and stderr not in o.message:
            lines.append(f"    stderr: {stderr[-300:]}")
    hidden = report.count(FAILED) + report.count(ERRORED) - shown
    if hidden > 0:
        lines.append(f"... {hidden} more failing case(s); see --format json or --junit")
    for p in report.unmatched_expect_fail:
        lines.append(f"note: --expect-fail entry {p!r} matched no case that ran")
    lines.append(report.summary())
    return "\n".join(lines)


def case_list(cases: list[Case]) -> str:
    """``assay conform --list-cases``: one line per selected case (id, profile, level, segments,
    reference streams, the tool versions whose values it expects, or the exception they raise), after
    the provenance of the recorded ones."""
    lines = provenance_lines(cases)
    for case in cases:
        expected = ", ".join(f"{e.label} raises {e.error}" if e.error else e.label for e in case.expected)
        lines.append(f"{case.id} [profile {case.profile}, {case.level}, {len(case.hyps)} segment(s), "
                     f"{case.nrefs} ref stream(s)] expected: {expected or 'nothing'}")
    lines.append(f"{len(cases)} case(s)")
    return "\n".join(lines)


_XML_BAD = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str, limit: int | None = None) -> str:
    """Text XML 1.0 can hold (control characters from a misbehaving implementation become U+FFFD)."""
    text = _XML_BAD.sub("\ufffd", text)
    return text[:limit] if limit else text


def junit_xml(report: Report, suite_name: str = "assay-conform") -> str:
    """JUnit XML (one testsuite per metric)."""
    root = ET.Element("testsuites", name=suite_name, tests=str(len(report.outcomes)),
                      failures=str(report.count(FAILED)), errors=str(report.count(ERRORED)),
                      skipped=str(report.count(SKIPPED)), time=f"{report.seconds:.3f}")
    by_metric: dict[str, list[Outcome]] = {}
    for o in report.outcomes:
        by_metric.setdefault(o.case.metric, []).append(o)
    for metric, outcomes in by_metric.items():
        fails = sum(o.status == FAILED and not o.expected_failure for o in outcomes)
        errors = sum(o.status == ERRORED and not o.expected_failure for o in outcomes)
        skipped = sum(o.status == SKIPPED or o.expected_failure for o in outcomes)
        suite = ET.SubElement(root, "testsuite", name=f"{suite_name}.{metric}", tests=str(len(outcomes)),
                              failures=str(fails), errors=str(errors), skipped=str(skipped),
                              time=f"{sum(o.answer.seconds for o in outcomes if o.answer):.3f}")
        props = ET.SubElement(suite, "properties")
        for key in ("name", "version", "language", "shape"):
            if report.implementation.get(key):
                ET.SubElement(props, "property", name=f"implementation.{key}", value=_xml(str(report.implementation[key]), 500))
        for o in outcomes:
            family, _, rest = o.case.id.partition("/")[2].partition("/")
            tc = ET.SubElement(suite, "testcase", classname=f"{metric}.{family}", name=rest or o.case.id,
                               time=f"{o.answer.seconds:.6f}" if o.answer else "0")
            detail = "\n".join(f"{d['tool']} {d['version']}: {d['difference']}" for d in o.diffs) or o.message
            if o.expected_failure:
                ET.SubElement(tc, "skipped", message=_xml(f"expected failure: {o.message}", 500))
            elif o.status == FAILED:
                ET.SubElement(tc, "failure", message=_xml(o.message, 500), type="mismatch").text = _xml(detail)
            elif o.status == ERRORED:
                ET.SubElement(tc, "error", message=_xml(o.message, 500), type="error").text = _xml(detail)
            elif o.status == SKIPPED:
                ET.SubElement(tc, "skipped", message=_xml(o.message, 500))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


# ----------------------------------------------------------------------------- one failure, in full
def _clip(text: Any, width: int = 160) -> str:
    shown = repr(text)
    return shown if len(shown) <= width else shown[:width - 3] + "..."


def failure_detail(o: Outcome, explanation: str = "", max_segments: int = 3) -> list[str]:
    """What a reader needs to see one failing case: the segment text (the first segment that
    differs at sentence level; the first ``max_segments`` of a corpus), the expected value of each
    tool version, the implementation's value, and ``explanation`` (the knob that accounts for the
    difference, from :func:`assay.jobs.conform.identify.explain_failures`)."""
    case = o.case
    lines = [f"{o.status}: {case.id} [profile {case.profile}, {case.level}, {len(case.hyps)} segment(s), "
             f"{case.nrefs} reference stream(s)]"]
    got = o.answer.score if o.answer is not None and o.answer.kind == "result" else None
    segments = list(range(min(len(case.hyps), max_segments)))
    if case.level == "sentence" and isinstance(got, list):
        for d in o.diffs:
            want = d.get("expected")
            if isinstance(want, list) and len(want) == len(got):
                bad = [i for i, (e, g) in enumerate(zip(want, got)) if not close(e, g, {"rel": 1e-9})]
                if bad:
                    segments = [bad[0]]
                    break
    for i in segments:
        lines.append(f"  segment {i + 1} hyp:   {_clip(case.hyps[i])}")
        for k, stream in enumerate(case.refs):
            lines.append(f"  segment {i + 1} ref {k + 1}: {_clip(stream[i])}")
    if len(case.hyps) > len(segments) and case.level == "corpus":
        lines.append(f"  ... {len(case.hyps) - len(segments)} more segment(s)")
    for d in o.diffs:
        if case.level == "sentence" and len(segments) == 1 and isinstance(d.get("expected"), list) \
                and isinstance(d.get("got"), list) and segments[0] < len(d["got"]):
            i = segments[0]
            lines.append(f"  expected ({d['tool']} {d['version']}), segment {i + 1}: {d['expected'][i]!r}; "
                         f"actual: {d['got'][i]!r}")
        lines.append(f"  {d['tool']} {d['version']}: {d['difference']}")
    if not o.diffs:
        lines.append(f"  {o.message}")
    if explanation:
        lines.append(f"  {explanation}")
    return lines
