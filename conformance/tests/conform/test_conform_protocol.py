"""The conform protocol schema, its validator, the call-shape adapters and the pytest plugin."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assay.jobs.conform import protocol, suite
from assay.jobs.conform.judge import Answer, judge
from assay.jobs.conform.runner import case_message
from assay.jobs.conform.shapes import DirectShape, ShapeSkip, rouge_components

GOOD = {
    "start": [{"cmd": "start", "version": 1}],
    "started": [{"version": 1, "implementation": {"name": "x", "metrics": ["bleu"]}},
                {"version": 1, "implementation": {"name": "x", "metrics": ["bleu", "chrf"], "version": "1.0",
                                                  "language": "rust", "knobs": True, "levels": ["corpus"],
                                                  "profile": "sacrebleu", "extra": "allowed"}}],
    "case": [{"cmd": "case", "id": "bleu/a/1", "metric": "bleu", "profile": None, "knobs": {}, "level": "corpus",
              "hyps": ["a b"], "refs": [["a b"], [None]]}],
    "result": [{"id": "a", "score": 1.5}, {"id": "a", "score": [0.1, 2], "components": {"counts": [1, 2]}}],
    "error": [{"id": "a", "error": "ZeroDivisionError"}, {"id": "a", "error": "x", "context": {"line": 3}}],
    "skipped": [{"id": "a", "skipped": "one reference only"}],
    "stop": [{"cmd": "stop"}],
}
BAD = {
    "start": [{"cmd": "start", "version": 2}, {"cmd": "begin", "version": 1}],
    "started": [{"version": 1}, {"version": 1, "implementation": {"name": "x"}},
                {"version": 1, "implementation": {"name": "x", "metrics": "bleu"}}],
    "case": [{"cmd": "case", "id": "a", "metric": "bleu", "level": "document", "hyps": [], "refs": []},
             {"cmd": "case", "id": "a", "metric": "bleu", "level": "corpus", "hyps": [1], "refs": []}],
    "result": [{"id": "a"}, {"id": "a", "score": "1.5"}, {"id": "a", "score": True}, {"id": "a", "score": 1, "x": 2},
               {"id": 3, "score": 1.0}, {"id": "a", "score": float("nan")}],
    "error": [{"id": "a", "error": 3}],
    "stop": [{"cmd": "stop", "now": True}],
}


def _flat(table: dict[str, list[Any]]) -> list[Any]:
    return [pytest.param(kind, msg, id=f"{kind}-{i}") for kind, msgs in table.items() for i, msg in enumerate(msgs)]


@pytest.mark.parametrize("kind,message", _flat(GOOD))
def test_valid_messages(kind: str, message: dict) -> None:
    protocol.validate(message, kind)


@pytest.mark.parametrize("kind,message", _flat(BAD))
def test_invalid_messages(kind: str, message: dict) -> None:
    with pytest.raises(protocol.ProtocolError, match=f"invalid {kind} message: \\$"):
        protocol.validate(message, kind)


def test_reply_is_exactly_one_of_result_error_skipped() -> None:
    protocol.validate({"id": "a", "score": 1.0}, "reply")
    with pytest.raises(protocol.ProtocolError, match="matches 0 of the alternatives"):
        protocol.validate({"id": "a"}, "reply")


def test_schema_is_a_valid_draft_2020_12_schema_and_agrees_with_the_validator() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = protocol.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    for table, ok in ((GOOD, True), (BAD, False)):
        for kind, messages in table.items():
            sub = {"$defs": schema["$defs"], "$ref": f"#/$defs/{kind}"}
            validator = jsonschema.Draft202012Validator(sub)
            for msg in messages:
                if any(isinstance(v, float) and v != v for v in (msg.get("score"),)):
                    continue   # NaN is not JSON at all (rejected by protocol.loads, not the schema)
                assert validator.is_valid(msg) is ok, (kind, msg)


def test_schema_ships_inside_the_package() -> None:
    import assay
    assert protocol.SCHEMA_PATH.is_file()
    assert Path(assay.__file__).parent in protocol.SCHEMA_PATH.parents


def test_loads_rejects_nan_and_garbage() -> None:
    with pytest.raises(protocol.ProtocolError, match="no NaN"):
        protocol.loads('{"id": "a", "score": NaN}')
    with pytest.raises(protocol.ProtocolError, match="not JSON"):
        protocol.loads("BLEU = 12.3")


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "rouge", "cider", "nist"])
def test_every_fixture_case_message_is_valid(metric: str) -> None:
    cases = suite.load_cases(metric)
    for case in cases[:: max(1, len(cases) // 200)]:
        protocol.validate(case_message(case), "case")
        protocol.validate(case_message(case, hint_profile=False), "case")


# ----------------------------------------------------------------------------- shapes
CASE = {"cmd": "case", "id": "x", "metric": "bleu", "level": "corpus", "knobs": {},
        "hyps": ["a b c", "d e"], "refs": [["a b c", "d e f"], ["a c", None]]}


class _Scored:
    def __init__(self, score: float):
        self.score = score


def test_sacrebleu_shape_streams_and_sentence_refs() -> None:
    seen: list[Any] = []
    shape = DirectShape("sacrebleu", lambda h, r: (seen.append((h, r)), _Scored(42.0))[1],
                        lambda h, r: (seen.append((h, r)), 7.0)[1])
    assert shape(CASE) == (42.0, {})
    assert seen[0] == (["a b c", "d e"], [["a b c", "d e f"], ["a c", None]])
    assert shape({**CASE, "level": "sentence"})[0] == [7.0, 7.0]
    assert seen[1:] == [("a b c", ["a b c", "a c"]), ("d e", ["d e f"])]


def test_nltk_shape_token_lists_per_segment() -> None:
    seen: list[Any] = []
    shape = DirectShape("nltk", lambda refs, hyps: (seen.append((refs, hyps)), 0.5)[1])
    assert shape(CASE) == (0.5, {})
    assert seen[0] == ([[["a", "b", "c"], ["a", "c"]], [["d", "e", "f"]]], [["a", "b", "c"], ["d", "e"]])
    assert shape({**CASE, "level": "sentence"})[0] == [0.5, 0.5]   # one-segment corpora
    assert seen[1] == ([[["a", "b", "c"], ["a", "c"]]], [["a", "b", "c"]])


class _Tensor:
    def __init__(self, v: float):
        self.v = v

    def item(self) -> float:
        return self.v


class _TorchMetric:
    instances = 0

    def __init__(self) -> None:
        type(self).instances += 1
        self.calls = 0

    def __call__(self, preds: list[str], target: list[list[str]]) -> Any:
        self.calls += 1
        assert self.calls == 1, "state leaked between cases"
        return {"rouge1_fmeasure": _Tensor(0.25), "rouge1_precision": _Tensor(0.5),
                "rouge1_recall": _Tensor(1 / 6), "rougeL_fmeasure": _Tensor(0.75)} if len(preds) == 1 \
            else _Tensor(float(len(target[1])))


def test_torchmetrics_shape_per_segment_targets_fresh_instance() -> None:
    shape = DirectShape("torchmetrics", _TorchMetric)
    assert shape(CASE) == (1.0, {})                 # second segment has one reference (None dropped)
    score, comps = shape({**CASE, "level": "sentence", "knobs": {"types": "rougeL"}})
    assert score == [0.75, 0.75] and comps["rougeL"] == [{"f": 0.75}, {"f": 0.75}]
    assert _TorchMetric.instances == 3


def test_rouge_score_shape_means_and_types() -> None:
    from collections import namedtuple
    Score = namedtuple("Score", "precision recall fmeasure")

    def score(target: str, prediction: str) -> dict:
        f = 1.0 if target == prediction else 0.5
        return {"rouge1": Score(f, f, f), "rougeL": Score(0.1, 0.2, 0.3)}

    one_ref = {**CASE, "refs": [["a b c", "x"]], "knobs": {"types": "rougeL,rouge1"}}
    value, comps = DirectShape("rouge-score", score)(one_ref)
    assert value == pytest.approx(0.3) and comps["rouge1"]["f"] == pytest.approx(0.75)
    # several references: the best F per type over score() per reference (score_multi's rule) ...
    value, comps = DirectShape("rouge-score", score)({**CASE, "knobs": {"types": "rouge1"}})
    assert value == pytest.approx(0.75) and comps["rouge1"]["f"] == pytest.approx(0.75)

    class Scorer:                      # ... or the object's own score_multi(targets, prediction)
        calls: list = []

        def score(self, target: str, prediction: str) -> dict:
            return score(target, prediction)

        def score_multi(self, targets: list, prediction: str) -> dict:
            Scorer.calls.append(list(targets))
            return {"rouge1": Score(0.2, 0.2, 0.2)}

    value, _ = DirectShape("rouge-score", Scorer)({**CASE, "knobs": {"types": "rouge1"}})
    assert Scorer.calls == [["a b c", "a c"]] and value == pytest.approx((0.2 + 0.5) / 2)


def test_headline_only_answers_are_not_failed_for_missing_parts() -> None:
    """An implementation that reports F only (no P and R), or only the score, passes."""
    case = next(c for c in suite.load_cases("rouge") if c.level == "corpus" and c.expected
                and isinstance(c.expected[0].components.get("rouge1"), dict) and c.expected[0].score is not None)
    exp = case.expected[0]
    f_only = {t: {"f": v["f"]} for t, v in exp.components.items() if isinstance(v, dict) and "f" in v}
    assert judge(case, Answer("result", exp.score, f_only)).status == "passed"
    assert judge(case, Answer("result", exp.score)).status == "passed"
    wrong = {t: {"f": v["f"] + 0.1} for t, v in f_only.items()}
    assert judge(case, Answer("result", exp.score, wrong)).status == "failed"


def test_rouge_component_names() -> None:
    got = rouge_components({"rouge-1": {"f": 0.5, "p": 0.4, "r": 0.6}, "rouge-l": {"f": 0.1},
                            "rougeLsum_fmeasure": 0.2, "rouge_w": (0.1, 0.2, 0.3)})
    assert got == {"rouge1": {"f": 0.5, "p": 0.4, "r": 0.6}, "rougeL": {"f": 0.1}, "rougeLsum": {"f": 0.2},
                   "rougeW": {"p": 0.1, "r": 0.2, "f": 0.3}}


def test_coco_shape_dicts() -> None:
    class Scorer:
        def compute_score(self, gts: dict, res: dict) -> tuple:
            assert gts == {0: ["a b c", "a c"], 1: ["d e f"]} or len(gts) == 1
            assert all(len(v) == 1 for v in res.values())
            return [0.1, 0.2, 0.3, 0.4], [[0.5] * len(res)] * 4 if len(res) > 1 else [0.9]
    value, comps = DirectShape("coco", Scorer)(CASE)
    assert value == 0.4 and comps["Bleu_1"] == 0.1


# ----------------------------------------------------------------------------- judge
def test_tool_exception_matched_by_implementation_error() -> None:
    case = next(c for c in suite.load_cases("nist") if any(e.error == "ZeroDivisionError" for e in c.expected))
    assert judge(case, Answer("error", message="ZeroDivisionError: division by zero")).status == "passed"
    failed = judge(case, Answer("result", 1.0 if case.level == "corpus" else [1.0] * len(case.hyps)))
    assert failed.status == "failed" and "the tool raises ZeroDivisionError" in failed.message


def test_tolerance_is_the_fixtures() -> None:
    case = next(c for c in suite.load_cases("bleu") if c.level == "corpus" and c.expected[0].score
                and not c.expected[0].error and c.expected[0].tolerance.get("rel", 0) == 1e-9
                and not c.expected[0].tolerance.get("abs"))
    want = case.expected[0].score
    assert judge(case, Answer("result", want * (1 + 5e-10))).status == "passed"
    assert judge(case, Answer("result", want * (1 + 5e-9))).status == "failed"
    assert judge(case, Answer("result", want / 100), factor=100).status == "passed"


# ----------------------------------------------------------------------------- pytest plugin
def _plugin_installed() -> bool:
    """True when assay is installed as a wheel, whose pytest11 entry point loads the plugin itself."""
    from importlib.metadata import entry_points
    return any(ep.name == "assay" for ep in entry_points(group="pytest11"))


def _pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    root = Path(__file__).resolve().parents[3]
    env = {"PYTHONPATH": f"{root / 'impl'}:{root}", "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
    if _plugin_installed():   # the installed wheel: its own assay, loaded through the entry point
        env["PYTHONPATH"] = str(root)
        load: list[str] = []
    else:
        load = ["-p", "assay.cli.pytest_plugin"]
    return subprocess.run([sys.executable, "-m", "pytest", *load, "-p", "no:cacheprovider",
                           "-q", "-rfEX", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_pytest_plugin_one_item_per_case(tmp_path: Path) -> None:
    cases = suite.select(suite.Selection("chrf", ["nltk"]))
    proc = _pytest(tmp_path, "--assay-impl=direct:assay.jobs.conform.assay_impl:profiles[chrf/nltk]", "--assay-metric=chrf")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(cases)} passed" in proc.stdout


def test_pytest_plugin_failures_and_strict_expect_fail(tmp_path: Path) -> None:
    client = Path(__file__).resolve().parents[2] / "examples" / "conform_clients" / "broken_client.py"
    impl = f"--assay-impl=cmd:{sys.executable} {client} --mode wrong-clipping"
    first = _pytest(tmp_path, impl, "--assay-metric=bleu", "--assay-run=bleu/research_sacrebleu/*")
    assert first.returncode == 1
    failed = sorted({line.split("::")[-1].split(" ")[0] for line in first.stdout.splitlines()
                     if line.startswith("FAILED")})
    assert failed and "score: expected" in first.stdout
    known = tmp_path / "known.txt"
    known.write_text("\n".join(failed) + "\nbleu/research_sacrebleu/research/G01/13a-exp\n", encoding="utf-8")
    second = _pytest(tmp_path, impl, "--assay-metric=bleu", "--assay-run=bleu/research_sacrebleu/*",
                     f"--assay-expect-fail={known}")
    assert second.returncode == 1
    assert f"{len(failed)} xfailed" in second.stdout
    assert "1 failed" in second.stdout and "but passes: remove it from the list" in second.stdout


def test_pytest_plugin_is_inactive_without_option(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n", encoding="utf-8")
    proc = _pytest(tmp_path)
    assert proc.returncode == 0 and "1 passed" in proc.stdout


def _plain_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """The ``pytest`` console script (not ``python -m pytest``: the current directory is not on
    sys.path), run from a folder holding the user's module ``usermetric.py``."""
    root = Path(__file__).resolve().parents[3]
    (tmp_path / "usermetric.py").write_text(
        "from conformance.examples.conform_clients.broken_impls import chrf_beta_one as chrf\n", encoding="utf-8")
    script = Path(sys.executable).parent / "pytest"
    if not script.exists():
        pytest.skip("no pytest console script next to the interpreter")
    env = {"PYTHONPATH": str(root) if _plugin_installed() else f"{root / 'impl'}:{root}", "PATH": "/usr/bin:/bin",
           "PYTHONHASHSEED": "0"}
    load = [] if _plugin_installed() else ["-p", "assay.cli.pytest_plugin"]
    return subprocess.run([str(script), *load, "-p", "no:cacheprovider", "-q", "-rfE",
                           "--assay-impl=direct:usermetric:chrf", "--assay-metric=chrf", *args],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_pytest_plugin_plain_pytest_one_profile_and_failure_detail(tmp_path: Path) -> None:
    """Plain ``pytest`` imports the user's module from the current folder, runs ONE profile's cases
    (identified: the implementation names none) and shows text, values and the knob on a failure."""
    proc = _plain_pytest(tmp_path, "--assay-run=chrf/edge/*")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "cases of profile chrf/sacrebleu (identified" in out
    ids = {line.split("::")[-1].split(" ")[0] for line in out.splitlines() if line.startswith("FAILED")}
    assert ids and all(suite.at_defaults(c, "sacrebleu") for c in suite.load_cases("chrf") if c.id in ids)
    assert " hyp:   '" in out and " ref 1: '" in out                     # the segment text
    assert "expected" in out and "got" in out                           # both values
    assert "beta=1" in out and "the knob that explains the difference" in out


def test_pytest_plugin_identify_mode_names_the_profile(tmp_path: Path) -> None:
    proc = _plain_pytest(tmp_path, "--assay-identify")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "1 passed" in out, out
    assert "closest profile: chrf/sacrebleu" in out and "departs on beta=1" in out
