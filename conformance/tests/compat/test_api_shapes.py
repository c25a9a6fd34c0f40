"""The core API takes pycocoevalcap's dicts and rouge-score's ``target=``/``prediction=``.

Expected values come from the tools (``fixtures/compat``: rouge-score's ``score``/``score_multi``,
pycocoevalcap's ``compute_score`` on PTB-tokenised captions).
"""
from __future__ import annotations

import pytest

import assay
from conformance.regen.compat import ROUGE_TYPES, rouge_documents, sample
from conformance.tests.compat._frozen import frozen


def _coco() -> tuple[dict, dict, dict]:
    cases = {c["id"]: c["observed"] for c in frozen("pycocoevalcap")["cases"]}
    gts = {k: v for k, v in cases["PTBTokenizer"]["gts"]}
    res = {k: v for k, v in cases["PTBTokenizer"]["res"]}
    return gts, res, cases


def test_coco_dicts_give_pycocoevalcaps_numbers() -> None:
    gts, res, cases = _coco()
    assert list(gts) != sorted(gts, key=str)   # the dict order, not sorted order, is the image order
    cider = assay.score("cider", res, gts, "coco")
    assert cider.value == pytest.approx(cases["Cider()"]["score"], rel=1e-12)
    per_image = [s.value for s in assay.sentence_scores("cider", res, gts, "coco")]
    assert per_image == pytest.approx(cases["Cider()"]["per_image"], rel=1e-12)
    bleu = assay.score("bleu", {k: v[0] for k, v in res.items()}, gts, "coco")   # {id: caption} too
    assert [bleu.components[f"Bleu_{n}"] for n in range(1, 5)] == pytest.approx(cases["Bleu(4)"]["score"], rel=1e-12)
    rouge = [s.components["rougeL"]["f"] for s in assay.sentence_scores("rouge", res, gts, "coco")]
    assert rouge == pytest.approx(cases["Rouge()"]["per_image"], rel=1e-12)


@pytest.mark.parametrize("hyps, refs, message", [
    ({"a": ["x"], "b": ["y"]}, {"a": ["x"], "c": ["y"]}, r"same image ids: only in hyps \['b'\], only in refs \['c'\]"),
    ({"a": ["x", "y"]}, {"a": ["x"]}, "exactly one"),
    ({"a": ["x"]}, {"a": []}, "non-empty list"),
    ({"a": ["x"]}, [["x"]], "both"),
])
def test_coco_dict_errors(hyps: object, refs: object, message: str) -> None:
    with pytest.raises(assay.InputError, match=message):
        assay.score("cider", hyps, refs, "coco")


def test_target_prediction_as_rouge_score() -> None:
    cases = {c["id"]: c["observed"] for c in frozen("rouge_score")["cases"]}["RougeScorer(types)"]
    docs = rouge_documents(*sample())
    for (target, targets, prediction), single, multi in zip(docs, cases["score"], cases["score_multi"]):
        got = assay.score("rouge", target=target, prediction=prediction, types=ROUGE_TYPES)
        assert got.value == pytest.approx(single["rouge1"][2][2], rel=1e-12)
        for t in ROUGE_TYPES:
            c = got.components[t]
            assert [c["p"], c["r"], c["f"]] == pytest.approx(single[t][2], rel=1e-12), (target, t)
        got = assay.score("rouge", target=targets, prediction=prediction, types=ROUGE_TYPES)
        for t in ROUGE_TYPES:
            c = got.components[t]
            assert [c["p"], c["r"], c["f"]] == pytest.approx(multi[t], rel=1e-12), (targets, t)


def test_target_prediction_lists_and_errors() -> None:
    hyps, r1, _ = sample()
    assert assay.score("rouge", target=r1, prediction=hyps).value == assay.score("rouge", hyps, [r1]).value
    with pytest.raises(assay.InputError, match="together"):
        assay.score("rouge", hyps, target=r1, prediction=hyps)
    with pytest.raises(assay.InputError, match="aligned"):
        assay.score("rouge", target="a", prediction=["a"])
    with pytest.raises(assay.InputError, match="needs hyps and refs"):
        assay.score("rouge", hyps)
