"""Properties of CIDEr / CIDEr-D that follow from the definition (no reference tool needed).

- a hypothesis equal to every reference of its image scores 10 (CIDEr-D) whenever every order has
  an n-gram with non-zero idf; no image ever scores above 10 or below 0;
- renaming or reordering images permutes the per-image scores and leaves the corpus score alone;
- one image alone scores 0 under the toolkit's idf (research C01);
- ``idf_corpus``: the evaluated references given as the idf corpus (captions file or df JSON)
  change nothing; one image scored with the whole corpus's references as idf corpus gets exactly
  its score inside that corpus; chunks scored with the full corpus's context concatenate to it.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import assay
from assay.core.coco_json import align, parse_annotations, parse_results
from assay.engine.registry import get_family
from conformance.generate.captions import generate_caption_corpus, references_per_image

WORDS = ["a", "dog", "cat", "runs", "on", "the", "grass", "red", "bike", "two", "sits", "in"]


def _streams(groups: list[list[str]]) -> list[list[str | None]]:
    width = max(len(g) for g in groups)
    return [[g[j] if j < len(g) else None for g in groups] for j in range(width)]


@st.composite
def _corpora(draw: st.DrawFn, min_images: int = 1) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(min_images, 7))
    caption = st.lists(st.sampled_from(WORDS), min_size=0, max_size=9).map(" ".join)
    hyps = [draw(caption) for _ in range(n)]
    groups = [[draw(caption) for _ in range(draw(st.integers(1, 5)))] for _ in range(n)]
    groups[0][0] = groups[0][0] or "dog"   # all-empty references: the tool's ValueError (tested in refs)
    return hyps, groups


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_hypothesis_equal_to_every_reference_scores_ten(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 6))
    hyps, groups = [], []
    for i in range(n):
        words = data.draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=8))
        caption = " ".join([f"unique{i}"] + words)      # every order has an n-gram only this image has
        hyps.append(caption)
        groups.append([caption] * data.draw(st.integers(1, 5)))
    per_image = assay.sentence_scores("cider", hyps, _streams(groups), "coco")
    assert all(s.value == pytest.approx(10.0, abs=1e-12) for s in per_image)
    assert assay.score("cider", hyps, _streams(groups), "coco").value == pytest.approx(10.0, abs=1e-12)


@given(_corpora())
@settings(max_examples=80, deadline=None)
def test_scores_between_zero_and_ten(corpus: tuple[list[str], list[list[str]]]) -> None:
    hyps, groups = corpus
    for profile, top in (("coco", 10.0), ("vedantam2015", 1.0)):
        for s in assay.sentence_scores("cider", hyps, _streams(groups), profile):
            assert -1e-12 <= s.value <= top + 1e-12


@given(_corpora(), st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_reordering_images_permutes_scores(corpus: tuple[list[str], list[list[str]]], rnd) -> None:
    hyps, groups = corpus
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    base = assay.sentence_scores("cider", hyps, _streams(groups), "coco")
    moved = assay.sentence_scores("cider", [hyps[i] for i in order], _streams([groups[i] for i in order]), "coco")
    for k, i in enumerate(order):
        assert moved[k].value == pytest.approx(base[i].value, rel=1e-12, abs=1e-12)
    a = assay.score("cider", hyps, _streams(groups), "coco").value
    b = assay.score("cider", [hyps[i] for i in order], _streams([groups[i] for i in order]), "coco").value
    assert b == pytest.approx(a, rel=1e-12, abs=1e-12)


def test_renaming_image_ids_changes_nothing() -> None:
    corpus = generate_caption_corpus(31, max_images=10)
    groups = references_per_image(corpus)
    ann = {str(i): g for i, g in enumerate(groups)}
    res = [{"image_id": i, "caption": h} for i, h in enumerate(corpus["hyps"])]
    renamed_ann = {"annotations": [{"image_id": f"img-{900 - i}", "caption": c}
                                   for i, g in enumerate(groups) for c in g]}
    renamed_res = {f"img-{900 - i}": h for i, h in reversed(list(enumerate(corpus["hyps"])))}
    a = align(parse_annotations(ann, "a.json"), parse_results(res, "r.json"), "a.json", "r.json")
    b = align(parse_annotations(renamed_ann, "a2.json"), parse_results(renamed_res, "r2.json"), "a2.json", "r2.json")
    for metric, profile in (("cider", "coco"), ("coco", "pretokenized")):
        sa = assay.score(metric, a.hyps, a.refs, profile)
        sb = assay.score(metric, b.hyps, b.refs, profile)
        assert sb.value == pytest.approx(sa.value, rel=1e-12)


def test_single_image_scores_zero_under_the_toolkit_idf() -> None:
    caption = "a dog runs on the grass"
    assert assay.score("cider", [caption], [[caption]], "coco").value == 0.0
    assert assay.score("cider", [caption], [[caption]], "vedantam2015").value == 0.0


@given(corpus=_corpora(min_images=2))
@settings(max_examples=40, deadline=None)
def test_idf_corpus_of_the_evaluated_references_changes_nothing(corpus, tmp_path_factory) -> None:
    hyps, groups = corpus
    folder = tmp_path_factory.mktemp("idf")
    captions = folder / "refs.json"
    captions.write_text(json.dumps({str(i): g for i, g in enumerate(groups)}), encoding="utf-8")
    base = assay.sentence_scores("cider", hyps, _streams(groups), "coco")
    via_captions = assay.sentence_scores("cider", hyps, _streams(groups), "coco", idf_corpus=str(captions))
    stats, config, _, _ = assay.compute_stats("cider", hyps, _streams(groups), "coco")
    table = folder / "df.json"
    table.write_text(json.dumps(stats.context["df"].to_json()), encoding="utf-8")
    via_table = assay.sentence_scores("cider", hyps, _streams(groups), "coco", idf_corpus=str(table))
    for a, b, c in zip(base, via_captions, via_table):
        assert b.value == pytest.approx(a.value, rel=1e-12, abs=1e-12)
        assert c.value == pytest.approx(a.value, rel=1e-12, abs=1e-12)


def test_single_image_with_idf_corpus_equals_its_score_in_the_corpus(tmp_path: Path) -> None:
    corpus = generate_caption_corpus(77, max_images=12, min_images=6)
    hyps, groups = corpus["hyps"], references_per_image(corpus)
    idf = tmp_path / "refs.txt"
    idf.write_text("".join(" ||| ".join(g) + "\n" for g in groups), encoding="utf-8")
    in_corpus = assay.sentence_scores("cider", hyps, _streams(groups), "coco")
    for i in range(len(hyps)):
        alone = assay.score("cider", [hyps[i]], _streams([groups[i]]), "coco", idf_corpus=str(idf))
        assert alone.value == pytest.approx(in_corpus[i].value, rel=1e-12, abs=1e-12)
        assert "not the toolkit" in alone.text
    assert any(s.value > 0 for s in in_corpus)


def test_chunks_with_the_full_context_concatenate_to_the_corpus() -> None:
    corpus = generate_caption_corpus(5, max_images=12, min_images=8)
    hyps, groups = corpus["hyps"], references_per_image(corpus)
    family = get_family("cider")
    config, _ = assay.make_config("cider", "coco")
    full = family.segment_stats(hyps, _streams(groups), config)
    half = len(hyps) // 2
    parts = [family.segment_stats(hyps[a:b], _streams(groups[a:b]), config, context=full.context)
             for a, b in ((0, half), (half, len(hyps)))]
    rows = np.vstack([p.rows for p in parts])
    np.testing.assert_allclose(rows, full.rows, rtol=1e-12, atol=1e-12)
    value, _ = family.score_stats(full, config)
    assert family.scores_from_sums(full.rows.sum(axis=0)[None, :], config)[0] == pytest.approx(value, rel=1e-12)


def test_df_table_is_explicit() -> None:
    stats, _, _, _ = assay.compute_stats("cider", ["a dog", "a cat"], [["a dog runs", "a cat"]], "coco")
    df = stats.context["df"]
    assert df.n_images == 2
    assert df.table == {"a": 2, "dog": 1, "runs": 1, "cat": 1, "a dog": 1, "dog runs": 1, "a cat": 1,
                        "a dog runs": 1}


def test_bad_input_and_knobs(tmp_path: Path) -> None:
    with pytest.raises(assay.InputError, match="image 2 has no reference"):
        assay.score("cider", ["a", "b"], [["a", None]], "coco")
    with pytest.raises(assay.KnobError, match="idf_corpus"):
        assay.score("cider", ["a"], [["a"]], "coco", idf_corpus=str(tmp_path / "missing.json"))
    bad = tmp_path / "df.json"
    bad.write_text(json.dumps({"format": "assay-cider-df/1", "n_images": 2, "df": {"a": 3}}), encoding="utf-8")
    with pytest.raises(assay.InputError, match="more than n_images"):
        assay.score("cider", ["a"], [["a"]], "coco", idf_corpus=str(bad))
    with pytest.raises(assay.KnobError):
        assay.score("cider", ["a"], [["a"]], "coco", length_penalty_sigma=0)
