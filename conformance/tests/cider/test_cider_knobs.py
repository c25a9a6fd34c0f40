"""CIDEr knob domains: values outside them are a KnobError naming the knob, never a hang or a
meaningless score (a negative scale, an infinite sigma, a million-gram order, a directory as idf corpus)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import assay
from assay.engine.api import make_config


@pytest.mark.parametrize("knobs,message", [
    ({"scale": -1}, "scale must be a finite number > 0"),
    ({"scale": 0}, "scale must be a finite number > 0"),
    ({"scale": "inf"}, "scale must be a finite number"),
    ({"length_penalty_sigma": "inf"}, "length_penalty_sigma must be a finite number > 0"),
    ({"length_penalty_sigma": 0}, "length_penalty_sigma must be a finite number > 0"),
    ({"length_penalty_sigma": -6}, "length_penalty_sigma must be a finite number > 0"),
    ({"max_ngram_order": 1_000_000}, "max_ngram_order must be an integer >= 1 and <= 100"),
    ({"max_ngram_order": 0}, "max_ngram_order must be an integer >= 1"),
    ({"length_unit": "chars"}, "length_unit"),
])
def test_cider_knob_domains(knobs: dict[str, Any], message: str) -> None:
    with pytest.raises(assay.KnobError, match=message):
        make_config("cider", "coco", **knobs)


def test_idf_corpus_must_be_a_readable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASSAY_IDF_DIR", raising=False)
    with pytest.raises(assay.KnobError, match="idf_corpus must be none or a readable file: it is a directory"):
        make_config("cider", "coco", idf_corpus=str(tmp_path))
    with pytest.raises(assay.KnobError, match="no such file"):
        make_config("cider", "coco", idf_corpus=str(tmp_path / "missing.json"))
    with pytest.raises(assay.KnobError, match="idf_corpus"):
        make_config("coco", "pycocoevalcap", idf_corpus=str(tmp_path))
    named = tmp_path / "val2014.json"
    named.write_text('{"format": "assay-cider-df/1", "n_images": 2, "df": {"a": 1}}', encoding="utf-8")
    monkeypatch.setenv("ASSAY_IDF_DIR", str(tmp_path))
    assert make_config("cider", "coco", idf_corpus="val2014")[0].idf_corpus == "val2014"
    assert make_config("cider", "coco", idf_corpus="none")[0].idf_corpus is None


def test_sigma_none_means_no_penalty() -> None:
    config = make_config("cider", "coco", length_penalty_sigma="none")[0]
    assert config.length_penalty_sigma is None
