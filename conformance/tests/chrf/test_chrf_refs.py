"""Differential chrF / chrF++ tests: assay's profiles against the live tools on generated text, and on
the real corpora in ../shared/corpora (live sacrebleu, and the published scores).

- ``refs``: sacrebleu 2.x (profile ``sacrebleu``) and NLTK 3.10 (profile ``nltk``), in-process;
- ``legacy("sacrebleu1")`` / ``legacy("nltk35")``: sacrebleu 1.5.1 (``sacrebleu@1``) and NLTK 3.5
  (``nltk@3.5``) through the ``legacy_tool`` fixture (tox's legacy envs);
- ``corpora_dir`` tests without a tool compare with the published scores (sacrebleu's README for
  wmt17, WMT22's automatic-scores.tsv at full precision).
"""
from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from conformance.fixture_io import within
from conformance.references import chrf_ref
from conformance.regen.chrf import odd_corpus
from conformance.strategies import corpus

TOL = {"rel": 1e-9, "abs": 0.0}
SACREBLEU_KNOBS = st.fixed_dictionaries({
    "char_order": st.integers(0, 8), "word_order": st.integers(0, 3), "beta": st.sampled_from([0.5, 1, 2, 3]),
    "lowercase": st.booleans(), "whitespace": st.booleans(), "eps_smoothing": st.booleans()}).filter(
        lambda k: k["char_order"] or k["word_order"])
NLTK_KNOBS = st.fixed_dictionaries({"char_order": st.integers(1, 8), "min_char_order": st.integers(1, 3),
                                    "beta": st.sampled_from([1.0, 2.0, 3.0]), "whitespace": st.booleans()}).filter(
    lambda k: k["min_char_order"] <= k["char_order"])
WMT17 = "wmt17-ende-sacrebleu"
WMT22 = "wmt22-general"


def _sacrebleu2(require_tool):
    sb = require_tool("sacrebleu")
    assert sb.__version__.startswith("2."), f"the refs env pins sacrebleu 2.x, found {sb.__version__}"
    return sb


def _check(want: dict, got, level: str) -> None:
    if level == "corpus":
        assert within(want["score"], got.value, TOL), (want["score"], got.value)
        if want["stats"] is not None:
            assert got.components["stats"] == want["stats"]
        return
    assert len(want["score"]) == len(got)
    for i, (w, g) in enumerate(zip(want["score"], got)):
        assert within(w, g.value, TOL), (i, w, g.value)
        if want["stats"] is not None:
            assert g.components["stats"] == want["stats"][i]


# ------------------------------------------------------------------------- sacrebleu 2.x
@pytest.mark.refs
@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=6, max_refs=3), SACREBLEU_KNOBS, st.sampled_from(["corpus", "sentence"]))
def test_sacrebleu2_on_generated_text(require_tool, data, knobs, level):
    _sacrebleu2(require_tool)
    hyps, refs = data
    want = chrf_ref.sacrebleu_chrf(hyps, refs, knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", hyps, refs, "sacrebleu", **knobs), level)


@pytest.mark.refs
@settings(deadline=None, max_examples=150)
@given(st.integers(0, 10**6), SACREBLEU_KNOBS, st.sampled_from(["corpus", "sentence"]))
def test_sacrebleu2_on_cjk_punctuation_whitespace(require_tool, seed, knobs, level):
    """regen_chrf.odd_corpus: CJK runs, punctuation-edged tokens, odd whitespace, missing references."""
    _sacrebleu2(require_tool)
    data = odd_corpus(seed, missing=True)
    want = chrf_ref.sacrebleu_chrf(data["hyps"], data["refs"], knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", data["hyps"], data["refs"], "sacrebleu", **knobs), level)


@pytest.mark.refs
@pytest.mark.parametrize("knobs", [{}, {"word_order": 2}, {"eps_smoothing": True, "beta": 3},
                                   {"lowercase": True, "whitespace": True, "char_order": 4, "word_order": 1},
                                   {"beta": 0.5}])
def test_sacrebleu2_text_json_signature(require_tool, knobs):
    """Signature, ``-f text`` line and CLI JSON as sacrebleu's own Score.format builds them."""
    _sacrebleu2(require_tool)
    from sacrebleu.metrics import CHRF
    hyps = ["The cat sat on the mat.", "Hello (hi) world.", "我爱北京。"]
    refs = [["The cat sat on a mat.", "Hello hi world", "我爱北京天安门。"],
            ["A cat sat on the mat.", "Hello (hi) world!", "我爱北京"]]
    metric = CHRF(**knobs)
    want = metric.corpus_score(hyps, refs)
    signature = str(metric.get_signature())
    for width in (1, 2, 4):
        got = assay.score("chrf", hyps, refs, "sacrebleu", width=width, **knobs)
        assert got.signature == signature
        assert got.text == want.format(width=width, signature=signature)
        import json
        assert got.tool_json == json.loads(want.format(width=width, signature=signature, is_json=True))
    assert str(want).split(" = ")[0] == assay.score("chrf", hyps, refs, **knobs).components["name"]


# ------------------------------------------------------------------------- NLTK 3.10
@pytest.mark.refs
@settings(deadline=None, max_examples=150)
@given(corpus(max_segments=6, max_refs=1), NLTK_KNOBS, st.sampled_from(["corpus", "sentence"]), st.booleans())
def test_nltk_on_generated_text(require_tool, data, knobs, level, token_lists):
    nltk = require_tool("nltk")
    assert not nltk.__version__.startswith("3.5"), "the refs env pins nltk 3.10"
    hyps, refs = data
    if token_lists:
        hyps, refs = [h.split() for h in hyps], [[r.split() for r in refs[0]]]
    want = chrf_ref.nltk_chrf(hyps, refs, knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", hyps, refs, "nltk", **knobs), level)


@pytest.mark.refs
@settings(deadline=None, max_examples=100)
@given(st.integers(0, 10**6), NLTK_KNOBS, st.sampled_from(["corpus", "sentence"]))
def test_nltk_on_cjk_punctuation_whitespace(require_tool, seed, knobs, level):
    require_tool("nltk")
    data = odd_corpus(seed)
    refs = data["refs"][:1]
    want = chrf_ref.nltk_chrf(data["hyps"], refs, knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", data["hyps"], refs, "nltk", **knobs), level)


# ------------------------------------------------------------------------- legacy tools
@pytest.mark.legacy("sacrebleu1")
@settings(deadline=None, max_examples=150,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # legacy_tool only imports
@given(corpus(max_segments=6, max_refs=3), st.integers(1, 8), st.sampled_from([1, 2, 3]), st.booleans(),
       st.sampled_from(["corpus", "sentence"]))
def test_sacrebleu1(legacy_tool, data, order, beta, whitespace, level):
    assert legacy_tool.__version__ == "1.5.1"
    hyps, refs = data
    knobs = {"char_order": order, "beta": beta, "whitespace": whitespace}
    want = chrf_ref.sacrebleu_chrf(hyps, refs, knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", hyps, refs, "sacrebleu@1", **knobs), level)


@pytest.mark.legacy("sacrebleu1")
def test_sacrebleu1_missing_reference_fails(legacy_tool):
    with pytest.raises(EOFError):
        chrf_ref.sacrebleu_chrf(["a", "b"], [["a", "b"], ["a", None]], {}, "corpus")
    with pytest.raises(assay.ToolBehaviourError) as info:
        assay.score("chrf", ["a", "b"], [["a", "b"], ["a", None]], "sacrebleu@1")
    assert info.value.tool_error == "EOFError"


@pytest.mark.legacy("nltk35")
@settings(deadline=None, max_examples=150,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # legacy_tool only imports
@given(st.integers(0, 10**6), NLTK_KNOBS, st.sampled_from(["corpus", "sentence"]))
def test_nltk35(legacy_tool, seed, knobs, level):
    assert legacy_tool.__version__ == "3.5"
    data = odd_corpus(seed)
    refs = data["refs"][:1]
    want = chrf_ref.nltk_chrf(data["hyps"], refs, knobs, level)
    call = assay.score if level == "corpus" else assay.sentence_scores
    _check(want, call("chrf", data["hyps"], refs, "nltk@3.5", **knobs), level)


# ------------------------------------------------------------------------- real corpora
def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _wmt17(corpora: Path, system: str) -> tuple[list[str], list[str]]:
    folder = corpora / WMT17
    hyp = next(folder.glob(f"newstest2017.{system}.*en-de.hyp.de"), None)
    if hyp is None:
        pytest.skip(f"{WMT17}: no system {system}")
    return _lines(hyp), _lines(folder / "newstest2017.en-de.ref.de")


def _wmt17_published(corpora: Path) -> list[tuple[str, str, str, str]]:
    path = corpora / WMT17 / "published_scores.tsv"
    rows = []
    for row in csv.DictReader(path.open(encoding="utf-8"), delimiter="\t"):
        if row["metric"] in ("chrF2", "chrF2++"):
            system = row["system"].split(".")[1]
            rows.append((system, row["metric"], row["published_value"].split()[0], row["signature_or_settings"]))
    return rows


def test_wmt17_published_chrf(corpora_dir):
    """sacrebleu's README (2.0.0): chrF2 / chrF2++ of online-A, C-3MA, LIUM-NMT, online-B/F/G, to the printed digits."""
    rows = _wmt17_published(corpora_dir)
    assert len(rows) >= 7
    for system, metric, printed, signature in rows:
        hyps, ref = _wmt17(corpora_dir, system)
        profile = "sacrebleu-chrf++" if metric.endswith("++") else "sacrebleu"
        decimals = len(printed.split(".")[1])
        score = assay.score("chrf", hyps, [ref], profile, width=decimals)
        assert score.text.endswith(f" = {printed}"), (system, metric, score.text, printed)
        assert score.text.startswith(metric + "|")
        if signature.startswith("nrefs:") and "..." not in signature:   # full signature: equal but the version
            assert score.signature.rsplit("|", 1)[0] == signature.rsplit("|", 1)[0]
        elif signature.startswith("#:"):           # --short with bootstrap fields: compare the chrF fields
            fields = dict(p.split(":") for p in signature.split("|"))
            ours = dict(p.split(":") for p in score.signature.split("|"))
            assert (fields["c"], fields["e"], fields["nc"], fields["nw"], fields["s"]) == \
                (ours["case"], ours["eff"], ours["nc"], ours["nw"], ours["space"])


@pytest.mark.refs
@pytest.mark.parametrize("system", ["online-A", "PROMT-Rule-based"])
def test_wmt17_live_sacrebleu(corpora_dir, require_tool, system):
    _sacrebleu2(require_tool)
    hyps, ref = _wmt17(corpora_dir, system)
    for knobs in ({}, {"word_order": 2}):
        _check(chrf_ref.sacrebleu_chrf(hyps, [ref], knobs, "corpus"),
               assay.score("chrf", hyps, [ref], "sacrebleu", **knobs), "corpus")


@pytest.mark.refs
def test_wmt17_live_nltk(corpora_dir, require_tool):
    require_tool("nltk")
    hyps, ref = _wmt17(corpora_dir, "online-A")
    want = chrf_ref.nltk_chrf(hyps, [ref], {}, "corpus")
    assert within(want["score"], assay.score("chrf", hyps, [ref], "nltk").value, TOL)


@pytest.mark.legacy("sacrebleu1")
def test_wmt17_sacrebleu1(corpora_dir, legacy_tool):
    hyps, ref = _wmt17(corpora_dir, "online-A")
    _check(chrf_ref.sacrebleu_chrf(hyps, [ref], {}, "corpus"), assay.score("chrf", hyps, [ref], "sacrebleu@1"),
           "corpus")


def _wmt22_pairs(corpora: Path) -> list[str]:
    folder = corpora / WMT22
    return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def _wmt22(corpora: Path, pair: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    folder = corpora / WMT22 / pair
    tgt = pair.split("-")[1]
    refs = {r: _lines(folder / f"generaltest2022.{pair}.ref.{r}.{tgt}") for r in "AB"
            if (folder / f"generaltest2022.{pair}.ref.{r}.{tgt}").is_file()}
    systems = {p.name.split(".hyp.")[1].rsplit(".", 1)[0]: _lines(p)
               for p in sorted(folder.glob(f"generaltest2022.{pair}.hyp.*"))}
    return refs, systems


@pytest.mark.parametrize("pair", ["en-de", "de-en", "en-zh", "zh-en", "en-ja"])
def test_wmt22_published_chrf(corpora_dir, pair):
    """automatic-scores.tsv (sacrebleu 2.0.0, full precision): chrf-A, chrf-B and chrf-all for every system.

    chrf-all is reproduced with the reference streams in the order **B, A**: per segment the better
    reference is kept and the *first* wins ties, so the order matters where two references score
    the same (often in Chinese). With A, B the en-zh/zh-en values differ by up to 0.009.
    """
    scores = {}
    for row in csv.DictReader((corpora_dir / WMT22 / "automatic-scores.tsv").open(encoding="utf-8"), delimiter="\t"):
        if row["pair"] == pair and row["metric"].startswith("chrf-"):
            scores[(row["system"], row["metric"])] = float(row["score"])
    refs, systems = _wmt22(corpora_dir, pair)
    checked = 0
    for system, hyps in systems.items():
        streams = {"chrf-A": ["A"], "chrf-B": ["B"], "chrf-all": ["B", "A"]}
        for metric, names in streams.items():
            if (system, metric) not in scores or any(n not in refs for n in names):
                continue
            value = assay.score("chrf", hyps, [refs[n] for n in names]).value
            assert within(scores[(system, metric)], value, TOL), (system, metric, value, scores[(system, metric)])
            checked += 1
    assert checked >= len(systems)


@pytest.mark.refs
@pytest.mark.parametrize("pair", ["en-zh", "zh-en"])
def test_wmt22_two_references_live(corpora_dir, require_tool, pair):
    """Two references in the order A, B (ties -> A) against live sacrebleu 2.x, chrF and chrF++."""
    _sacrebleu2(require_tool)
    refs, systems = _wmt22(corpora_dir, pair)
    for system in list(systems)[:1]:
        for knobs in ({}, {"word_order": 2}):
            _check(chrf_ref.sacrebleu_chrf(systems[system], [refs["A"], refs["B"]], knobs, "corpus"),
                   assay.score("chrf", systems[system], [refs["A"], refs["B"]], **knobs), "corpus")
    assert math.isfinite(assay.score("chrf", systems[system], [refs["A"], refs["B"]]).value)
