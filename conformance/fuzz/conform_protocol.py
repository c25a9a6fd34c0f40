"""Fuzz the ``assay conform`` protocol reader (:mod:`assay.jobs.conform.protocol`, ``connect``) and
everything a reply flows into: the judge, the runner and the three report formats.

One input is one line an implementation under test might print, as a ``started`` reply or as the
reply to a case, read with or without schema validation (``--no-validate``). Documented shapes:
``decode_reply``/``loads`` return a JSON value or fail with the protocol's own error (an
InputError); ``is_valid`` is a bool; a reply becomes an Answer (result, error, skipped or broken),
never an exception; a result's score is finite; the text, JSON-lines and JUnit reports render
whatever the implementation said (the JUnit XML stays well-formed, the JSON lines stay JSON).
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from assay.jobs.conform import protocol, reports
from assay.jobs.conform.connect import CommandImplementation, Implementation, _Broken, decode_reply, started_info
from assay.jobs.conform.judge import Answer
from assay.jobs.conform.runner import case_message, run_suite
from assay.jobs.conform.shapes import finite
from assay.jobs.conform.suite import Case, Expected
from conformance.fuzz.common import Draw, assay_errors_only

DEFINITIONS = ("start", "started", "case", "result", "error", "skipped", "stop", "reply")
_TOL = {"rel": 1e-9}
CASES = (
    Case("bleu/fuzz/corpus", "bleu", "fuzz", "sacrebleu", {}, "corpus", ["a b c"], [["a b c"]],
         (Expected("sacrebleu", "2.6.0", 100.0, {"counts": [3, 2, 1, 0], "bp": 1.0}, None, _TOL),
          Expected("nltk", "3.5", None, {}, "ZeroDivisionError", _TOL))),
    Case("bleu/fuzz/sentence", "bleu", "fuzz", "sacrebleu", {}, "sentence", ["a", "b"], [["a", None]],
         (Expected("sacrebleu", "2.6.0", [0.0, 0.0], {}, None, {"abs": 1e-6}),)),
)
SEEDS = [b"", b"\x00\x00\x00\x00" + b'{"id": "bleu/fuzz/corpus", "score": 100.0, "components": {"counts": [3, 2, 1, 0]}}',
         b"\x01\x01\x00\x01" + b'{"id": "bleu/fuzz/sentence", "score": [0, 1e308, -0.0]}',
         b"\x00\x00\x01\x00" + b'{"version": 1, "implementation": {"name": "x\\u0000\\u001b[31m", "metrics": ["bleu"], '
                           b'"levels": ["corpus"], "knobs": true}}',
         b"\x01\x00\x00\x01" + b'{"id": "bleu/fuzz/corpus", "error": "ZeroDivisionError", "context": {"a": [1]}}',
         b"\x00\x01\x00\x00" + b'{"id": "bleu/fuzz/sentence", "skipped": "no \\ud800"}',
         b"\x01\x00\x00\x00" + b'{"id": "bleu/fuzz/corpus", "score": 1' + b"0" * 400 + b"}",
         b"\x00\x00\x00\x00" + b"[" * 70 + b"]" * 70, b"\x01\x00\x01\x00" + b'{"implementation": {"levels": 5, "metrics": "bleu"}}']
DICTIONARY = ['"id"', '"score"', '"components"', '"error"', '"skipped"', '"context"', '"version"',
              '"implementation"', '"name"', '"metrics"', '"levels"', '"knobs"', '"profile"', '"corpus"',
              '"sentence"', '"bleu/fuzz/corpus"', '"bleu/fuzz/sentence"', '"counts"', '"bp"', "true", "false",
              "null", "NaN", "Infinity", "-Infinity", "1e308", "1e309", "-0.0", '"\\u0000"', '"\\ud800"', "{", "}",
              "[", "]", ":", ","]


class _Replayed(Implementation):
    """An implementation whose metadata and answer are given (what the runner saw)."""

    def __init__(self, info: dict[str, Any], answer: Answer):
        self.info, self._answer = info, answer

    def open(self) -> dict[str, Any]:
        return self.info

    def answer(self, message: dict[str, Any]) -> Answer:
        return self._answer


def _check_answer(answer: Answer, level: str) -> None:
    assert answer.kind in ("result", "error", "skipped", "broken"), answer
    assert isinstance(answer.message, str) and isinstance(answer.context, dict), answer
    if answer.kind == "result":
        assert finite(answer.score) and isinstance(answer.score, list) == (level == "sentence"), answer
        assert isinstance(answer.components, dict), answer


def _check_reports(info: dict[str, Any], answer: Answer, case: Case, expect_fail: bool) -> None:
    report = run_suite(_Replayed(info, answer), [case], expect_fail=["bleu/fuzz/*"] if expect_fail else ())
    assert len(report.outcomes) == 1 and isinstance(report.exit_code, int), report
    assert isinstance(reports.text_report(report, verbose=True), str)
    for line in reports.jsonl_lines(report, {"metric": "bleu"}):
        json.loads(line)
    ET.fromstring(reports.junit_xml(report).split("\n", 1)[1])


def one_input(data: bytes) -> None:
    draw = Draw(data)
    validate, case, as_started, expect_fail = draw.flag(), draw.pick(CASES), draw.flag(), draw.flag()
    payload = draw.rest()
    with assay_errors_only():
        protocol.loads(payload)
    try:
        reply = decode_reply(payload, "the fuzz case")
    except _Broken as exc:
        assert str(exc), payload
        reply = None
        answer = Answer("broken", message="unreadable")
    else:
        for definition in DEFINITIONS:
            assert isinstance(protocol.is_valid(reply, definition), bool)
        impl = CommandImplementation("fuzz-implementation", validate=validate)
        answer = impl.reply_answer(reply, case_message(case))
        _check_answer(answer, case.level)
    info: dict[str, Any] = {}
    if as_started and reply is not None and (not validate or protocol.is_valid(reply, "started")):
        info = started_info(reply)
        assert isinstance(info, dict)
    _check_reports(info, answer, case, expect_fail)
