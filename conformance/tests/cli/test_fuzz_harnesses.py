"""The atheris fuzz harnesses (``conformance/fuzz``, the ``fuzz`` tox env) stay runnable without
atheris: each target's ``one_input`` runs here on its seeds and on a few fixed pseudo-random inputs,
and the inputs the fuzzer found crashing are kept as regressions (issue 17)."""
from __future__ import annotations

import importlib
import random
import sys

import pytest

from assay.core.coco_json import align, parse_annotations, parse_results
from assay.jobs.conform import protocol
from assay.jobs.conform.connect import CommandImplementation, started_info
from conformance.fuzz import TARGETS
from conformance.fuzz.__main__ import _dict_entry, main
from conformance.fuzz.common import EXTRA, Draw

RANDOM_INPUTS = 12


@pytest.mark.parametrize("target", TARGETS)
def test_harness_runs_on_seeds_and_fixed_inputs(target: str) -> None:
    module = importlib.import_module(f"conformance.fuzz.{target}")
    assert module.SEEDS, f"{target} has no seeds"
    rng = random.Random(target)
    inputs = list(module.SEEDS) + [bytes([k % 4]) + rng.randbytes(rng.randrange(1, 300)) for k in range(RANDOM_INPUTS)]
    for data in inputs:
        module.one_input(data)


def test_harnesses_do_not_need_atheris() -> None:
    for target in TARGETS:
        importlib.import_module(f"conformance.fuzz.{target}")
    assert "atheris" not in sys.modules or hasattr(sys.modules["atheris"], "Fuzz")


def test_every_harness_module_is_listed() -> None:
    from pathlib import Path
    folder = Path(importlib.import_module("conformance.fuzz").__file__).parent
    modules = {p.stem for p in folder.glob("*.py")} - {"__init__", "__main__", "common"}
    assert modules == set(TARGETS)


def test_draw_is_total() -> None:
    """Every draw works past the end of the data (libFuzzer hands over inputs of any length)."""
    draw = Draw(b"\x02")
    assert draw.text() == "" and draw.below(10) == 0 and draw.lines() == [] and draw.rest() == b""
    assert len(EXTRA) == 128
    assert Draw(b"\x02\x02\x80\x41").text() == EXTRA[0] + "A"


def test_runner_cli_without_work(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert capsys.readouterr().out.split() == list(TARGETS)
    with pytest.raises(SystemExit):
        main(["no_such_target", "--runs", "1"])
    with pytest.raises(SystemExit):
        main(["all"])                          # neither --runs nor --seconds
    assert _dict_entry('"id"') == '"\\x22id\\x22"' and _dict_entry("\x00") == '"\\x00"'


# ----------------------------------------------------------------------------- regressions
def test_coco_ids_that_only_look_like_numbers() -> None:
    """Found by coco_json: ``--1`` (and ``²``, a 5,000-digit id) passed the digit test and crashed int()."""
    for key in ("--1", "\u00b2", "9" * 5000, "\u0663"):
        data = align(parse_annotations({key: ["a b"]}, "a.json"), parse_results({key: "a"}, "r.json"),
                     "a.json", "r.json")
        assert data.image_ids == [key]
    data = align(parse_annotations({"-12": ["a"]}, "a.json"), parse_results({"-12": "a"}, "r.json"), "a.json", "r.json")
    assert data.image_ids == [-12]


@pytest.mark.parametrize("line", [
    b'{"id": "x", "score": 1' + b"0" * 400 + b"}",        # an int beyond a double (OverflowError)
    b'{"id": "x", "score": 1' + b"0" * 5000 + b"}",       # an int beyond int_max_str_digits (ValueError)
    b"[" * 100_000 + b"]" * 100_000,                      # RecursionError
    b'{"id": "x", "score": 1.0}\xff',                    # not UTF-8
])
def test_protocol_reader_raises_only_its_own_error(line: bytes) -> None:
    with pytest.raises(protocol.ProtocolError):
        protocol.loads(line)


def test_protocol_error_is_an_input_error() -> None:
    from assay.core.errors import InputError
    assert issubclass(protocol.ProtocolError, InputError) and issubclass(protocol.ProtocolError, ValueError)


def test_unvalidated_replies_never_crash_the_runner() -> None:
    """``--no-validate``: fields of the wrong type are dropped or make a broken answer."""
    assert started_info({"implementation": {"levels": 5, "metrics": "bleu", "name": 3, "knobs": "yes"}}) == {}
    assert started_info({"implementation": [1, 2]}) == {} and started_info(7) == {}
    impl = CommandImplementation("fuzz", validate=False)
    message = {"id": "x", "level": "corpus"}
    answer = impl.reply_answer({"id": "x", "error": "boom", "context": [1, 2]}, message)
    assert answer.kind == "error" and answer.context == {}
    answer = impl.reply_answer({"id": "x", "score": 1.0, "components": "c"}, message)
    assert answer.kind == "result" and answer.components == {}
    assert impl.reply_answer({"id": "x", "score": [[1.0]]}, {"id": "x", "level": "sentence"}).kind == "broken"
