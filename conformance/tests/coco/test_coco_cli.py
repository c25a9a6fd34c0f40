"""``assay score coco`` with the toolkit's JSON files, and its errors (no reference tool needed).

``assay score coco --annotations A.json --results R.json`` reads the toolkit's JSON; line-aligned
files work through ``assay score cider|coco -i HYP -r REF…``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import assay
from assay.cli.main import main as assay_main

ANN = {"annotations": [{"image_id": 1, "caption": "a dog runs on the grass"},
                       {"image_id": 1, "caption": "a brown dog running in a field"},
                       {"image_id": 2, "caption": "a man rides a red bike"},
                       {"image_id": 3, "caption": "two cats sleep on a sofa"},
                       {"image_id": 3, "caption": "cats sleeping"}]}
RES = [{"image_id": 1, "caption": "a dog running on grass"}, {"image_id": 2, "caption": "a man rides a bike"},
       {"image_id": 3, "caption": "two cats on a sofa"}]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``assay score coco …`` with METEOR off (its own tests check it), so output is the same with and
    without METEOR 1.5's resources installed."""
    code = assay_main(["score", "coco", "--set", "meteor=off", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _write(tmp_path: Path, name: str, doc: Any) -> str:
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return str(path)


def _expected() -> Any:
    hyps = [r["caption"] for r in RES]
    refs = [["a dog runs on the grass", "a man rides a red bike", "two cats sleep on a sofa"],
            ["a brown dog running in a field", None, "cats sleeping"]]
    return assay.score("coco", hyps, refs, "pretokenized", meteor="off")


def test_json_input_text_and_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, r = _write(tmp_path, "ann.json", ANN), _write(tmp_path, "res.json", RES)
    code, out, _ = _run(["--annotations", a, "--results", r, "-p", "pretokenized"], capsys)
    want = _expected()
    assert code == 0
    lines = out.strip().split("\n")
    assert lines[:6] == [f"{k}: {want.components[k]:.3f}" for k in ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4",
                                                                     "ROUGE_L", "CIDEr")]
    assert lines[6].startswith("METEOR: omitted")
    code, out, _ = _run(["--annotations", a, "--results", r, "-p", "pretokenized", "-f", "json", "--per-image"],
                        capsys)
    doc = json.loads(out)
    assert doc["scores"]["CIDEr"] == pytest.approx(want.value, rel=1e-12)
    assert set(doc["scores"]) == {"Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"}
    assert [p["image_id"] for p in doc["per_image"]] == [1, 2, 3]
    per = assay.sentence_scores("coco", [x["caption"] for x in RES],
                                [["a dog runs on the grass", "a man rides a red bike", "two cats sleep on a sofa"],
                                 ["a brown dog running in a field", None, "cats sleeping"]], "pretokenized")
    assert [p["CIDEr"] for p in doc["per_image"]] == pytest.approx([s.value for s in per], rel=1e-12)


def test_plain_json_forms(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain_ann = {"1": ["a dog runs on the grass", "a brown dog running in a field"], "2": ["a man rides a red bike"],
                 "3": ["two cats sleep on a sofa", "cats sleeping"]}
    plain_res = {"1": "a dog running on grass", "2": "a man rides a bike", "3": ["two cats on a sofa"]}
    a, r = _write(tmp_path, "a.json", plain_ann), _write(tmp_path, "r.json", plain_res)
    code, out, _ = _run(["--annotations", a, "--results", r, "-p", "pretokenized", "-f", "json"], capsys)
    assert code == 0
    assert json.loads(out)["scores"]["CIDEr"] == pytest.approx(_expected().value, rel=1e-12)


@pytest.mark.parametrize("results,message", [
    (RES + [{"image_id": 1, "caption": "another dog"}], "image_id 1 has several results"),
    ([{"image_id": 1, "caption": "a dog"}, {"image_id": 2, "caption": "  "}, {"image_id": 3, "caption": "cats"}],
     "image_id 2: empty result caption"),
    (RES + [{"image_id": 99, "caption": "a cow"}], "image_id 99 has no reference captions"),
    (RES[:2], "no result for image_id 3"),
    ([{"image": 1, "caption": "x"}], r"\[0\]: expected an object with 'image_id' and 'caption'"),
    ({"1": ["a", "b"]}, "image_id '1' has 2 results"),
    ('"nope"', "expected results"),
])
def test_result_errors_name_file_and_id(tmp_path: Path, capsys: pytest.CaptureFixture[str], results: Any,
                                        message: str) -> None:
    a, r = _write(tmp_path, "ann.json", ANN), _write(tmp_path, "res.json", results)
    code, _, err = _run(["--annotations", a, "--results", r, "-p", "pretokenized"], capsys)
    assert code == 2
    assert "res.json" in err
    assert __import__("re").search(message, err), err


def test_annotation_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = _write(tmp_path, "res.json", RES)
    bad = {"annotations": ANN["annotations"] + [{"image_id": 2, "caption": ""}]}
    code, _, err = _run(["--annotations", _write(tmp_path, "ann.json", bad), "--results", r], capsys)
    assert code == 2 and "ann.json: image_id 2: empty reference caption" in err
    code, _, err = _run(["--annotations", _write(tmp_path, "broken.json", '{"annotations": [\n{]}'), "--results", r],
                        capsys)
    assert code == 2 and "broken.json:2: not valid JSON" in err
    code, _, err = _run(["--annotations", str(tmp_path / "missing.json"), "--results", r], capsys)
    assert code == 2 and "missing.json: no such file" in err


def test_subset_scores_only_the_results_images(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, r = _write(tmp_path, "ann.json", ANN), _write(tmp_path, "res.json", RES[:2])
    code, out, _ = _run(["--annotations", a, "--results", r, "-p", "pretokenized", "--subset", "-f", "json"], capsys)
    assert code == 0
    want = assay.score("coco", ["a dog running on grass", "a man rides a bike"],
                       [["a dog runs on the grass", "a man rides a red bike"], ["a brown dog running in a field", None]],
                       "pretokenized")
    assert json.loads(out)["scores"]["CIDEr"] == pytest.approx(want.value, rel=1e-12)


def test_idf_corpus_note_and_knobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, r = _write(tmp_path, "ann.json", ANN), _write(tmp_path, "res.json", RES[:1])
    idf = _write(tmp_path, "idf.txt", "a dog runs on the grass ||| a brown dog\na man rides a red bike\ncats\n")
    code, out, _ = _run(["--annotations", a, "--results", r, "-p", "pretokenized", "--subset",
                         "--set", f"idf_corpus={idf}"], capsys)
    assert code == 0 and "not the toolkit's behaviour" in out
    assert float(out.split("CIDEr: ")[1].split()[0]) > 0
    code, _, err = _run(["--annotations", a, "--results", r, "--subset", "--set", "nonsense=1"], capsys)
    assert code == 2 and "unknown knob 'nonsense'" in err


def test_line_aligned_files_through_assay_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp = _write(tmp_path, "hyp.txt", "a dog running on grass\na man rides a bike\ntwo cats on a sofa\n")
    r1 = _write(tmp_path, "r1.txt", "a dog runs on the grass\na man rides a red bike\ntwo cats sleep on a sofa\n")
    r2 = _write(tmp_path, "r2.txt", "a brown dog running in a field\na man on a bike\ncats sleeping\n")
    assert assay_main(["score", "cider", "-i", hyp, "-r", r1, r2, "-f", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    want = assay.score("cider", ["a dog running on grass", "a man rides a bike", "two cats on a sofa"],
                       [["a dog runs on the grass", "a man rides a red bike", "two cats sleep on a sofa"],
                        ["a brown dog running in a field", "a man on a bike", "cats sleeping"]], "coco")
    assert doc["score_exact"] == pytest.approx(want.value, rel=1e-12) and doc["profile"] == "coco"
    assert assay_main(["score", "coco", "-i", hyp, "-r", r1, r2, "-p", "pretokenized"]) == 0
    assert capsys.readouterr().out.startswith("Bleu_1: ")
