"""``assay score -f json`` against its shipped JSON Schema (``assay/output/schemas/score.schema.json``).

Every family (and the profiles whose text rounds differently), corpus and ``--sentence``, validates
with ``jsonschema``; ``score`` is the value as printed (sacrebleu's JSON ``score`` where sacrebleu
prints one, the text's number otherwise), ``score_exact`` the API's value.
"""
from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

import assay
from assay.cli.main import main as assay_main
from assay.output.score_json import SCHEMA_VERSION, schema
from conformance.paths import FIXTURES

S = FIXTURES / "sample"
FILES = ["-i", str(S / "hyp.txt"), "-r", str(S / "ref1.txt"), str(S / "ref2.txt")]
CASES = [  # (metric, extra arguments, name, decimals printed or None for the full double)
    ("bleu", [], "BLEU", 1),
    ("bleu", ["-w", "3"], "BLEU", 3),
    ("bleu", ["-p", "nltk"], "BLEU", None),
    ("bleu", ["-p", "multi-bleu"], "BLEU", 2),
    ("bleu", ["-p", "mteval-v13a"], "BLEU", 4),
    ("chrf", [], "chrF2", 1),
    ("chrf", ["-p", "sacrebleu-chrf++"], "chrF2++", 1),
    ("chrf", ["-p", "sacrebleu@1"], "chrF2", 2),
    ("ter", [], "TER", 1),
    ("rouge", [], "rouge1", None),
    ("rouge", ["-p", "rouge-1.5.5", "--set", "types=rouge2,rougeL"], "rouge2", 5),
    ("cider", [], "CIDEr", None),
    ("nist", [], "NIST", 4),
    ("meteor", [], "METEOR", None),
    ("coco", ["-p", "pretokenized", "--set", "meteor=off"], "CIDEr", 3),
]
IDS = [" ".join([m, *extra]) for m, extra, _, _ in CASES]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert assay_main(argv) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def _knobs(extra: list[str]) -> tuple[str | None, dict[str, str]]:
    profile = extra[extra.index("-p") + 1] if "-p" in extra else None
    knobs = dict(extra[i + 1].split("=", 1) for i, a in enumerate(extra) if a == "--set")
    return profile, knobs


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["properties"]["schema_version"]["const"] == SCHEMA_VERSION


@pytest.mark.parametrize("metric, extra, name, decimals", CASES, ids=IDS)
def test_corpus_json_validates(metric: str, extra: list[str], name: str, decimals: int | None,
                               capsys: pytest.CaptureFixture[str]) -> None:
    (doc,) = _run(["score", metric, *FILES, *extra, "-f", "json"], capsys)
    jsonschema.validate(doc, schema())
    profile, knobs = _knobs(extra)
    want = assay.score(metric, *_streams(), profile, **knobs).value
    assert doc["name"] == name and doc["metric"] == metric and doc["schema_version"] == SCHEMA_VERSION
    assert doc["score_exact"] == pytest.approx(want, rel=1e-15)
    if decimals is None:
        assert doc["score"] == doc["score_exact"]
    else:
        assert doc["score"] == float(f"{doc['score_exact']:.{decimals}f}")
    if doc["tool_json"] is not None:   # sacrebleu's own JSON, its rounded score = ours
        assert doc["tool_json"]["score"] == doc["score"] and doc["tool_json"]["name"] == doc["name"]


@pytest.mark.parametrize("metric, extra, name, decimals", CASES, ids=IDS)
def test_sentence_json_validates(metric: str, extra: list[str], name: str, decimals: int | None,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    docs = _run(["score", metric, *FILES, *extra, "--sentence", "-f", "json"], capsys)
    assert len(docs) == 40 and [d["segment"] for d in docs] == list(range(1, 41))
    validator = jsonschema.Draft202012Validator(schema())
    for doc in docs:
        validator.validate(doc)
        assert doc["metric"] == metric and doc["name"]


def test_the_schema_rejects_what_it_should(capsys: pytest.CaptureFixture[str]) -> None:
    (doc,) = _run(["score", "bleu", *FILES, "-f", "json"], capsys)
    for broken in ({k: v for k, v in doc.items() if k != "score_exact"}, {**doc, "schema_version": "assay-score/0"},
                   {**doc, "surprise": 1}, {**doc, "score": "51.4"}, {**doc, "segment": 0}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(broken, schema())


def _streams() -> tuple[list[str], list[list[str]]]:
    read = [(S / n).read_text(encoding="utf-8").splitlines() for n in ("hyp.txt", "ref1.txt", "ref2.txt")]
    return read[0], read[1:]


def test_coco_annotations_json_validates(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    ann = {"images": [{"id": 1}, {"id": 2}], "annotations": [
        {"image_id": 1, "caption": "A dog runs on the grass."}, {"image_id": 1, "caption": "A brown dog."},
        {"image_id": 2, "caption": "Two cats on a sofa."}]}
    res = [{"image_id": 1, "caption": "A dog running."}, {"image_id": 2, "caption": "Cats on a sofa."}]
    (tmp_path / "a.json").write_text(json.dumps(ann), encoding="utf-8")
    (tmp_path / "r.json").write_text(json.dumps(res), encoding="utf-8")
    (doc,) = _run(["score", "coco", "--annotations", str(tmp_path / "a.json"), "--results", str(tmp_path / "r.json"),
                   "--set", "meteor=off", "--per-image", "-f", "json"], capsys)
    jsonschema.validate(doc, schema())
    assert doc["name"] == "CIDEr" and doc["scores"]["CIDEr"] == doc["score_exact"]
    assert [p["image_id"] for p in doc["per_image"]] == [1, 2]
