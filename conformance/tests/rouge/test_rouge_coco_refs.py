"""``rouge/coco`` against the live pycocoevalcap 1.2 ``Rouge`` scorer (differential), plus the
``coco`` composite's ROUGE_L being that profile.

- Hypothesis-generated image sets (1-6 images, 1-5 references) from words that stress pycocoevalcap's
  ``split(" ")`` tokens (empty captions, double/outer spaces, tabs, capitals, punctuation, non-ASCII):
  corpus ROUGE_L and every per-image F within 1e-9.
- Generated caption corpora (conformance/generate_captions.py) of 300 images with 5 references,
  tokenised and raw: the batched path (many pairs at once).
- ../shared/corpora/thumb-mscoco (``corpora_dir``): each system's raw captions against the 4 COCO
  references, as the scorer sees them when called without its tokenizer.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import assay
from conformance.fixture_io import within
from conformance.generate.captions import large_caption_corpus
from conformance.references import coco_ref

TOL = {"rel": 1e-9, "abs": 1e-12}
WORDS = ["a", "dog", "runs", "on", "the", "grass", "A", "Dog", "grass.", ",", "", " ", "\t", "café", "man", "horse",
         "riding", "-lrb-", "'s", "two", "dogs"]


@pytest.fixture(scope="module")
def pycocoevalcap() -> None:
    coco_ref.require()


@st.composite
def caption(draw: st.DrawFn) -> str:
    return " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=0, max_size=8)))


@st.composite
def image_sets(draw: st.DrawFn) -> tuple[list[str], list[list[str]]]:
    n = draw(st.integers(1, 6))
    hyps = [draw(caption()) for _ in range(n)]
    groups = [[draw(caption()) for _ in range(draw(st.integers(1, 5)))] for _ in range(n)]
    return hyps, groups


def _streams(groups: list[list[str]]) -> list[list[str | None]]:
    width = max(len(g) for g in groups)
    return [[g[j] if j < len(g) else None for g in groups] for j in range(width)]


def _check(hyps: list[str], groups: list[list[str]]) -> None:
    want = coco_ref.scorers({i: g for i, g in enumerate(groups)}, {i: [h] for i, h in enumerate(hyps)}, ("rouge",))
    refs = _streams(groups)
    got = assay.score("rouge", hyps, refs, "coco")
    assert within(want["ROUGE_L"], got.value, TOL), (want["ROUGE_L"], got.value)
    per = assay.sentence_scores("rouge", hyps, refs, "coco")
    for i, (w, s) in enumerate(zip(want["per_image"]["ROUGE_L"], per)):
        assert within(w, s.value, TOL), (i, hyps[i], groups[i], w, s.value)


@pytest.mark.refs
@settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(image_sets())
@example((["a man riding a horse"], [["a man riding a horse on the beach at sunset", "a man on a horse"]]))
@example(([""], [[""]]))
@example((["a  b"], [["a b", "a  b c"]]))
def test_rouge_coco_matches_pycocoevalcap(pycocoevalcap: None, data: tuple[list[str], list[list[str]]]) -> None:
    _check(*data)


@pytest.mark.refs
@pytest.mark.parametrize("raw", [False, True], ids=["tokenised", "raw"])
def test_rouge_coco_generated_corpus(pycocoevalcap: None, raw: bool) -> None:
    corpus = large_caption_corpus(300, seed=4242 + raw, raw=raw)
    groups = [[s[i] for s in corpus["refs"]] for i in range(len(corpus["hyps"]))]
    _check(corpus["hyps"], groups)


@pytest.mark.refs
@pytest.mark.parametrize("system", ["Up-Down", "Unified-VLP", "VinVL-base", "VinVL-large", "Human"])
def test_rouge_coco_thumb_mscoco(pycocoevalcap: None, corpora_dir: Any, system: str) -> None:
    folder = corpora_dir / "thumb-mscoco"
    if not folder.is_dir():
        pytest.skip("thumb-mscoco not in the corpora")
    read = lambda name: (folder / name).read_text(encoding="utf-8").rstrip("\n").split("\n")  # noqa: E731
    hyps = read(f"hyp.{system}.txt")
    refs = [read(f"ref{k}.txt") for k in range(1, 5)]
    _check(hyps, [[r[i] for r in refs] for i in range(len(hyps))])


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(image_sets())
def test_coco_composite_rouge_is_the_profile(data: tuple[list[str], list[list[str]]]) -> None:
    """The ``coco`` composite's ROUGE_L (pre-tokenised) is the ``rouge/coco`` profile's value."""
    hyps, groups = data
    assume(any(r.split() for g in groups for r in g))   # else CIDEr-D fails as the toolkit does (ValueError)
    refs = _streams(groups)
    composite = assay.score("coco", hyps, refs, "pretokenized", meteor="off")
    assert composite.components["ROUGE_L"] == assay.score("rouge", hyps, refs, "coco").value
    per = assay.sentence_scores("coco", hyps, refs, "pretokenized", meteor="off")
    assert [s.components["ROUGE_L"] for s in per] == [s.value for s in assay.sentence_scores("rouge", hyps, refs,
                                                                                              "coco")]


def test_rouge_coco_knob_errors() -> None:
    with pytest.raises(assay.KnobError):
        assay.score("rouge", ["a"], [["a"]], "coco", averaging="token")
    with pytest.raises(assay.KnobError):
        assay.score("rouge", ["a"], [["a"]], "coco", alpha=0.3)
    with pytest.raises(assay.KnobError):
        assay.score("rouge", ["a"], [["a"]], "coco", beta=0)
