"""One reference-count check (:func:`assay.engine.api.check_max_refs`) behind every way of scoring:
the API, the Evaluator, attribution, compare and the audit all refuse a profile whose tool takes
fewer references than given, with the same :class:`InputError` message.

d2l's ``bleu(pred_seq, label_seq, k)`` takes one reference (``Profile.max_refs = 1``).
"""
from __future__ import annotations

import pytest

import assay
from assay.core.errors import InputError
from assay.engine.api import check_max_refs
from assay.engine.evaluate import Evaluator
from assay.jobs.attribution import attribute
from assay.jobs.audit.search import Auditor
from assay.jobs.audit.space import make_candidate
from assay.jobs.compare import compare
from assay.profiles.registry import get_profile

HYPS = ["the cat sat on the mat", "a dog barked at the moon", "it is raining today"]
REF1 = ["the cat sat on a mat", "the dog barked at the moon", "it rains today"]
REF2 = ["a cat was sitting on the mat", "a dog barks at the moon", "today it is raining"]
MESSAGE = "profile bleu/d2l takes at most 1 reference(s), got 2"


def test_check_max_refs_message() -> None:
    prof = get_profile("bleu", "d2l")
    check_max_refs(prof, 1)
    with pytest.raises(InputError) as exc:
        check_max_refs(prof, 2)
    assert str(exc.value) == MESSAGE
    check_max_refs(get_profile("bleu", "sacrebleu"), 50)   # no limit


def test_api() -> None:
    for call in (assay.score, assay.sentence_scores):
        with pytest.raises(InputError) as exc:
            call("bleu", HYPS, [REF1, REF2], "d2l")
        assert str(exc.value) == MESSAGE


def test_evaluator() -> None:
    ev = Evaluator("bleu", HYPS, [REF1, REF2])
    config, prof = ev.config("d2l")
    with pytest.raises(InputError) as exc:
        ev.score(config, prof)
    assert str(exc.value) == MESSAGE


def test_attribution() -> None:
    ev = Evaluator("bleu", HYPS, [REF1, REF2])
    with pytest.raises(InputError) as exc:
        attribute(ev, ev.config("sacrebleu")[0], ev.config("d2l")[0], "sacrebleu", "d2l")
    assert str(exc.value) == MESSAGE


def test_compare_row_reason() -> None:
    table = compare(HYPS, [REF1, REF2], ["bleu"]).table("bleu")
    row = next(r for r in table.rows if r.profile == "d2l")
    assert row.value is None and row.reason == MESSAGE


def test_audit_candidate_error() -> None:
    auditor = Auditor("bleu", HYPS, [REF1, REF2], preprocessing=False)
    full = next(s for s in auditor.subsets if s.kind == "all")
    result = auditor.evaluate(make_candidate("bleu", "d2l", {}, full))
    assert result.value is None and result.error == f"InputError: {MESSAGE}"
