"""Python API input checks: orientation mistakes and malformed input get a clear
:class:`assay.InputError` (never a silent transpose, truncation or NaN).

Expected scores were produced by sacrebleu 2.6.0 on the bundled sample (fixtures/sample), not by
assay; see the constants below for the exact calls.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import assay

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample"

# sacrebleu 2.6.0 (/tmp/refvenv): in fixtures/sample,
#   from sacrebleu.metrics import BLEU; BLEU().corpus_score(hyp, [ref1, ref2]).score
SB_CORPUS_2REFS = 51.435640263178634
#   BLEU().corpus_score(hyp, [ref1]).score
SB_CORPUS_REF1 = 47.108636357579655


def lines(name: str) -> list[str]:
    return (SAMPLE / name).read_text(encoding="utf-8").split("\n")[:-1]


HYP, REF1, REF2 = lines("hyp.txt"), lines("ref1.txt"), lines("ref2.txt")
PER_SEGMENT = [[a, b] for a, b in zip(REF1, REF2)]   # NLTK/torchmetrics orientation


def close(expected: float, got: float) -> bool:
    return abs(got - expected) <= 1e-9 * abs(expected)


# ----------------------------------------------------------------------------- orientation
def test_streams_reference_value() -> None:
    assert close(SB_CORPUS_2REFS, assay.score("bleu", HYP, [REF1, REF2]).value)
    assert close(SB_CORPUS_REF1, assay.score("bleu", HYP, [REF1]).value)


@pytest.mark.parametrize("call", [assay.score, assay.sentence_scores], ids=["score", "sentence_scores"])
def test_flat_list_of_reference_strings(call) -> None:
    with pytest.raises(assay.InputError) as info:
        call("bleu", HYP, REF1)
    msg = str(info.value)
    assert "flat list" in msg and "[refs]" in msg


def test_per_segment_orientation_is_explained() -> None:
    with pytest.raises(assay.InputError) as info:
        assay.score("bleu", HYP, PER_SEGMENT)
    msg = str(info.value)
    assert "per-segment" in msg and "refs_orientation='segments'" in msg
    assert "40" in msg  # says how many hypotheses there are


def test_per_segment_orientation_accepted_when_declared() -> None:
    seg = assay.score("bleu", HYP, PER_SEGMENT, refs_orientation="segments")
    streams = assay.score("bleu", HYP, [REF1, REF2])
    assert seg.value == streams.value
    assert seg.signature == streams.signature
    assert close(SB_CORPUS_2REFS, seg.value)
    seg_sent = assay.sentence_scores("bleu", HYP, PER_SEGMENT, refs_orientation="segments")
    str_sent = assay.sentence_scores("bleu", HYP, [REF1, REF2])
    assert [s.value for s in seg_sent] == [s.value for s in str_sent]


def test_per_segment_orientation_single_reference() -> None:
    seg = assay.score("bleu", HYP, [[r] for r in REF1], refs_orientation="segments")
    assert close(SB_CORPUS_REF1, seg.value)


def test_per_segment_orientation_wrong_length() -> None:
    with pytest.raises(assay.InputError, match="one reference list per hypothesis"):
        assay.score("bleu", HYP, PER_SEGMENT[:-1], refs_orientation="segments")


def test_unknown_orientation() -> None:
    with pytest.raises(assay.InputError, match="refs_orientation"):
        assay.score("bleu", HYP, [REF1], refs_orientation="columns")


def test_stream_length_mismatch_names_the_stream() -> None:
    with pytest.raises(assay.InputError) as info:
        assay.score("bleu", HYP, [REF1, REF2[:-1]])
    msg = str(info.value)
    assert "stream 2" in msg and "39" in msg and "40" in msg


# ----------------------------------------------------------------------------- malformed input
def test_hypotheses_as_one_string() -> None:
    with pytest.raises(assay.InputError, match="single string"):
        assay.score("bleu", "The train to the coast leaves at half past eight.", [[REF1[0]]])


def test_refs_as_one_string() -> None:
    with pytest.raises(assay.InputError, match="reference streams"):
        assay.score("bleu", HYP[:1], REF1[0])


@pytest.mark.parametrize("refs", [[[]], [REF1[:0]]], ids=["empty-stream", "empty-slice"])
def test_empty_hypotheses(refs) -> None:
    with pytest.raises(assay.InputError, match="empty"):
        assay.score("bleu", [], refs)


def test_empty_hypotheses_sentence_level() -> None:
    with pytest.raises(assay.InputError, match="empty"):
        assay.sentence_scores("bleu", [], [[]])


def test_no_reference_streams() -> None:
    with pytest.raises(assay.InputError, match="non-empty list of reference streams"):
        assay.score("bleu", HYP, [])


def test_bytes_segments_rejected() -> None:
    with pytest.raises(assay.InputError):
        assay.score("bleu", [b"a cat"], [[b"a cat"]])


def test_d2l_takes_one_reference() -> None:
    with pytest.raises(assay.InputError) as info:
        assay.score("bleu", HYP[:3], [REF1[:3], REF2[:3]], profile="d2l")
    msg = str(info.value)
    assert "d2l" in msg and "1" in msg and "2" in msg


def test_d2l_one_reference_is_fine() -> None:
    score = assay.score("bleu", HYP[:3], [REF1[:3]], profile="d2l")
    assert 0.0 <= score.value <= 1.0


# ----------------------------------------------------------------------------- profiles and knobs
def test_unknown_profile() -> None:
    with pytest.raises(assay.KnobError, match="no-such-tool"):
        assay.score("bleu", HYP, [REF1], profile="no-such-tool")


def test_unknown_knob() -> None:
    with pytest.raises(assay.KnobError, match="no_such_knob"):
        assay.score("bleu", HYP, [REF1], no_such_knob=1)


def test_bad_knob_value() -> None:
    with pytest.raises(assay.KnobError, match="smooth_method"):
        assay.score("bleu", HYP, [REF1], smooth_method="bogus")


def test_unknown_metric() -> None:
    with pytest.raises(assay.KnobError, match="no-such-metric"):
        assay.score("no-such-metric", HYP, [REF1])


def test_errors_are_assay_errors_with_exit_code_2() -> None:
    for exc in (assay.InputError, assay.KnobError, assay.MissingDependencyError):
        assert issubclass(exc, assay.AssayError) and exc.exit_code == 2
