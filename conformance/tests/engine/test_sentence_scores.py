"""``assay.sentence_scores`` returns a :class:`SentenceScores`: a read-only sequence of Scores made when
they are read, from one float per segment (issue 18: a million sentence scores in memory bounded by
the statistics). These tests pin the sequence's behaviour; the values themselves are checked against
the tools by every family's golden and differential tests."""
from __future__ import annotations

import re

import pytest

import assay
from assay.core.score import Score, SentenceScores
from assay.core.family import METRIC_NAMES

HYPS = ["the cat sat on the mat", "a dog barked loudly", "nothing here matches", "the end"]
REFS = [["the cat sat on the mat", "the dog barked loudly", "something else entirely", "the end ."]]


def test_a_sequence_of_scores_read_on_demand():
    scores = assay.sentence_scores("bleu", HYPS, REFS)
    assert isinstance(scores, SentenceScores) and len(scores) == 4
    assert all(isinstance(s, Score) for s in scores)
    assert [s.value for s in scores] == scores.values.tolist()
    assert scores[-1].value == scores[3].value and scores[-4].value == scores[0].value
    assert [s.value for s in scores[1:3]] == scores.values[1:3].tolist()
    assert scores[::-1][0].value == scores[3].value
    with pytest.raises(IndexError, match="out of range for 4 segments"):
        scores[4]
    with pytest.raises(IndexError):
        scores[-5]
    assert list(reversed(scores))[0].value == scores[3].value
    assert "SentenceScores(bleu, 4 segments" in repr(scores)


def test_values_are_read_only():
    scores = assay.sentence_scores("bleu", HYPS, REFS)
    with pytest.raises(ValueError):
        scores.values[0] = 1.0
    assert scores.values.dtype.name == "float64"


def test_two_reads_give_equal_scores():
    scores = assay.sentence_scores("bleu", HYPS, REFS)
    a, b = scores[1], scores[1]
    assert a is not b
    assert (a.value, a.signature, a.text, a.components) == (b.value, b.signature, b.text, b.components)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("metric", METRIC_NAMES)
def test_every_family_sentence_scores_read_whole(metric):
    """Every family's Scores: the value is ``values[i]``, components and JSON build on demand (the COCO
    composite without METEOR, which needs pycocoevalcap's jar)."""
    scores = assay.sentence_scores(metric, HYPS, REFS, **({"meteor": "off"} if metric == "coco" else {}))
    assert len(scores) == len(HYPS)
    for i, s in enumerate(scores):
        assert s.value == scores.values[i]
        assert isinstance(s.components, dict)
        assert s.to_json()["score"] == s.value


def test_missing_reference_segments_sign_nrefs_var():
    """sacrebleu's ``nrefs:var``: only the segments with a missing reference (the rest keep the count)."""
    refs = [["a b c", "d e f"], ["a b c", None]]
    scores = assay.sentence_scores("chrf", ["a b c", "d e f"], refs)
    assert scores[0].signature.startswith("nrefs:2|")
    assert scores[1].signature.startswith("nrefs:var|")


def _every_profile() -> list[tuple[str, str]]:
    from assay.profiles.registry import profiles_of

    return [(m, p.name) for m in METRIC_NAMES for p in profiles_of(m)]


@pytest.mark.parametrize("metric,profile", _every_profile())
def test_sentence_rows_in_blocks_equal_one_pass(monkeypatch, sample_dir, metric, profile):
    """``api.sentence_row_scores`` scores a large corpus's rows in blocks (bounded temporaries): every
    profile's values and components equal one pass's, or it raises the same error (blocks of 7 rows)."""
    from assay.core.errors import ToolBehaviourError
    from assay.core.io import read_segments
    from assay.engine import api

    configured = api.configure(metric, profile, "sentence")
    n_refs = configured.profile.max_refs or 2
    hyps = read_segments(sample_dir / "hyp.txt").lines
    streams = [read_segments(sample_dir / f"ref{k}.txt").lines for k in range(1, n_refs + 1)]
    family, config = configured.family, configured.config
    stats = api.compute_stats(metric, hyps, streams, profile, level="sentence")[0]
    try:
        whole = family.sentence_stats_scores(stats, config)
    except ToolBehaviourError as exc:
        monkeypatch.setattr(api, "SENTENCE_BLOCK", 7)
        with pytest.raises(ToolBehaviourError, match=re.escape(str(exc))):
            api.sentence_row_scores(family, stats, config)
        return
    monkeypatch.setattr(api, "SENTENCE_BLOCK", 7)
    blocks = api.sentence_row_scores(family, stats, config)
    assert blocks.values.tobytes() == whole.values.tobytes()
    for i in range(len(stats)):
        assert blocks.components(i) == whole.components(i), i
