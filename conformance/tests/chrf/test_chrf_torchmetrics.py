"""chrF profile ``torchmetrics`` (torchmetrics 1.9.0 ``CHRFScore``) on inputs built to show each of its knobs.

The recorded answers on every chrF fixture input (fixtures/thirdparty/tm-chrf.json, 544 of them) are
checked in conformance/tests/thirdparty; here each behaviour the profile's knobs describe has a small
input of its own, so a wrong knob fails with a readable case:

- ``whitespace_set=space``: characters after ``str.strip()`` and deleting U+0020 only (a tab or
  no-break space between words stays a character);
- ``zero_division=zero``: an order without n-grams adds F = 0 to the mean over all orders;
- ``zero_score_ref=drop``: a segment whose every reference scores 0 adds its hypothesis n-grams but no
  reference n-grams and no matches to the corpus sums (one reference or several);
- ``missing_ref=ignore``: a segment without any reference is scored like that, not an error;
- ``multi_ref=best``, ``hyp_count_without_ref=keep``, and the CHRFScore options as knobs
  (``n_word_order`` -> word_order, ``n_char_order`` -> char_order, beta, lowercase, whitespace).

:data:`FROZEN` holds torchmetrics' own answers (corpus score, and the sentence scores of
``return_sentence_level_score=True``) with provenance; ``test_frozen_values_are_torchmetrics`` (marker
``thirdparty``, run in the venv that has torchmetrics, e.g. /tmp/tp) recomputes them from the package.
To refreeze: ``PYTHONPATH=. python -m conformance.tests.chrf.test_chrf_torchmetrics`` in that venv.
"""
from __future__ import annotations

from typing import Any

import pytest

import assay
from conformance.references.availability import require

TOLERANCE = 1e-6          # torchmetrics computes in float32 tensors
PROVENANCE = ("torchmetrics 1.9.0 (torch 2.13.0+cpu, Python 3.11.7): torchmetrics.text.CHRFScore(**options, "
              "return_sentence_level_score=True)(preds, target) -> (corpus score, sentence scores)")

#: option of CHRFScore -> assay knob
OPTION_KNOBS = {"n_char_order": "char_order", "n_word_order": "word_order", "beta": "beta", "lowercase": "lowercase",
                "whitespace": "whitespace"}

#: name -> (preds, target: one list of references per prediction, CHRFScore options)
CASES: dict[str, tuple[list[str], list[list[str]], dict[str, Any]]] = {
    "tab-nbsp-inside": (["a\tcat  sat\u00a0down ", " the dog"], [["a cat sat down", "the\tdog"], ["the dog"]], {}),
    "ends-stripped": (["\t\n the cat \u3000"], [["the cat"]], {}),
    "whitespace-kept": (["a\tcat  sat\u00a0down "], [["a cat sat down"]], {"whitespace": True}),
    "short-hyp": (["ab", "the cat sat"], [["abcdef gh"], ["the cat sat"]], {}),
    "empty-hyp": (["", "the cat"], [["a dog"], ["the cat"]], {}),
    "short-both": (["ab", "the cat sat"], [["cd"], ["the cat sat"]], {}),
    "zero-score-one-ref": (["the cat sat", "xyz"], [["the cat sat on it"], ["qqq"]], {}),
    "zero-score-all-refs": (["the cat", "xyz"], [["the cat"], ["qqq", "www vvv", ""]], {}),
    "best-ref": (["the cat sat on the mat"], [["there is a cat", "a cat sat on the mat", "the cat"]], {}),
    "best-ref-second-zero": (["the cat", "dog"], [["the cats"], ["", "a dog!"]], {}),
    "missing-ref": (["the cat sat", "a dog"], [["the cat sat down"], []], {}),
    "punctuation-words": (["(hi) there, you.", "Hello!"], [["hi there you", "(hi) there, you."], ["Hello !"]], {}),
    "word-order-0": (["the cat sat on the mat", "Hello (hi)"], [["a cat sat on the mat"], ["hello hi"]],
                     {"n_word_order": 0}),
    "char-order-3-beta-1": (["the cat sat on the mat", "abc"], [["a cat sat on the mat"], ["xbc abc"]],
                            {"n_char_order": 3, "beta": 1.0}),
    "lowercase": (["The CAT sat", "HELLO world"], [["the cat Sat"], ["hello World"]], {"lowercase": True}),
}

#: torchmetrics' answers (:data:`PROVENANCE`): name -> (corpus score, sentence scores)
FROZEN: dict[str, tuple[float, list[float]]] = {
    "tab-nbsp-inside": (0.7346591949462891, [0.6593939661979675, 1.0]),
    "ends-stripped": (1.0, [1.0]),
    "whitespace-kept": (0.5488616228103638, [0.5488616228103638]),
    "short-hyp": (0.6394548416137695, [0.0583164319396019, 1.0]),
    "empty-hyp": (1.0, [0.0, 1.0]),
    "short-both": (0.9838196039199829, [0.0, 1.0]),
    "zero-score-one-ref": (0.6329873204231262, [0.645435094833374, 0.0]),
    "zero-score-all-refs": (0.9620611071586609, [1.0, 0.0]),
    "best-ref": (0.8712998032569885, [0.8712998032569885]),
    "best-ref-second-zero": (0.5389099717140198, [0.6421337127685547, 0.24712005257606506]),
    "missing-ref": (0.6519016027450562, [0.682438850402832, 0.0]),
    "punctuation-words": (1.0, [1.0, 1.0]),
    "word-order-0": (0.7553779482841492, [0.8895108699798584, 0.33890900015830994]),
    "char-order-3-beta-1": (0.791046142578125, [0.8464285731315613, 0.46095237135887146]),
    "lowercase": (1.0, [1.0, 1.0]),
}


def torchmetrics_answers() -> dict[str, tuple[float, list[float]]]:
    """Run torchmetrics on :data:`CASES` (needs the package)."""
    from torchmetrics.text import CHRFScore
    out = {}
    for name, (preds, target, options) in CASES.items():
        corpus, sentences = CHRFScore(**options, return_sentence_level_score=True)(preds, target)
        out[name] = (float(corpus), [float(v) for v in sentences.reshape(-1).tolist()])
    return out


def assay_answers(name: str) -> tuple[float, list[float]]:
    """The ``chrf/torchmetrics`` profile's corpus and sentence scores on one case."""
    preds, target, options = CASES[name]
    knobs = {OPTION_KNOBS[k]: v for k, v in options.items()}
    corpus = assay.score("chrf", preds, target, "torchmetrics", refs_orientation="segments", **knobs).value
    sentences = [s.value for s in assay.sentence_scores("chrf", preds, target, "torchmetrics",
                                                        refs_orientation="segments", **knobs)]
    return corpus, sentences


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(TOLERANCE * max(abs(a), abs(b)), 1e-12)


def test_every_case_is_frozen() -> None:
    assert set(FROZEN) == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_profile_reproduces_torchmetrics(name: str) -> None:
    want_corpus, want_sentences = FROZEN[name]
    corpus, sentences = assay_answers(name)
    assert _close(corpus, want_corpus), (name, corpus, want_corpus)
    assert len(sentences) == len(want_sentences)
    assert all(_close(a, b) for a, b in zip(sentences, want_sentences)), (name, sentences, want_sentences)


@pytest.mark.parametrize("name,knob,value", [
    ("tab-nbsp-inside", "whitespace_set", "isspace"),
    ("short-both", "zero_division", "sacrebleu"),     # sacrebleu's eps makes its sentence score > 0: kept
    ("zero-score-one-ref", "zero_score_ref", "keep"),
    ("zero-score-all-refs", "zero_score_ref", "keep"),
    ("best-ref", "multi_ref", "first"),
    ("zero-score-one-ref", "hyp_count_without_ref", "zero"),
])
def test_each_knob_is_needed(name: str, knob: str, value: Any) -> None:
    """The case of a knob tells the profile's value from the alternative (so the case tests the knob)."""
    preds, target, options = CASES[name]
    knobs = {OPTION_KNOBS[k]: v for k, v in options.items()}
    changed = assay.score("chrf", preds, target, "torchmetrics", refs_orientation="segments",
                          **{**knobs, knob: value}).value
    assert not _close(changed, FROZEN[name][0]), (name, knob, changed)


def test_missing_reference_is_not_an_error() -> None:
    """``missing_ref=ignore``: sacrebleu fails on a segment without references; torchmetrics scores it."""
    preds, target, _ = CASES["missing-ref"]
    with pytest.raises(Exception, match="no reference"):
        assay.score("chrf", preds, target, "torchmetrics", refs_orientation="segments", missing_ref="skip")


def test_word_order_knob_reproduces_n_word_order_0() -> None:
    """torchmetrics' ``n_word_order=0`` (recording tm-chrf.n_word_order0, 544 answers on the chrF
    fixture inputs) is the profile with ``word_order=0``."""
    from conformance.tests.thirdparty.golden import compare
    rows = compare("tm-chrf.n_word_order0", "torchmetrics", {"word_order": 0}, tolerance=TOLERANCE)
    bad = [r.case_id for r in rows if not r.agrees]
    assert len(rows) >= 500 and not bad, bad[:10]


def test_conform_names_word_order_departure() -> None:
    """word_order=0 moves 17 of the 18 identification answers, so chrf/torchmetrics agrees least before
    its departure is tried: conform must not cut candidates off by raw agreement."""
    from assay.jobs.conform import connect, identify
    impl = connect.DirectImplementation("conformance.tests.thirdparty.replay:tm_chrf_n_word_order0")
    impl.open()
    ident = identify.identify(impl, "chrf")
    assert ident.profile == "torchmetrics", ident.text()
    assert [(d.knob, d.value) for d in ident.departures] == [("word_order", 0)], ident.text()


@pytest.mark.thirdparty
def test_frozen_values_are_torchmetrics() -> None:
    """The frozen answers are what the installed torchmetrics 1.9.0 answers (to the last float32 bit)."""
    require("torchmetrics", "1.9.0", hint="run in the third-party venv (/tmp/tp)")
    assert torchmetrics_answers() == FROZEN


if __name__ == "__main__":
    for key, value in torchmetrics_answers().items():
        print(f'    "{key}": ({value[0]!r}, {value[1]!r}),')
