"""Hand-made black-box pairs of the third-party ROUGE packages behind the ``pltrdy-rouge``,
``rouge-chinese``, ``py-rouge`` and ``sumeval`` profiles, each isolating one of their quirks.

The expected values are the packages' own answers (P, R, F of every measure, or the exception),
frozen here from pltrdy ``rouge`` 1.0.1 (``Rouge(**options).get_scores(hyp, ref)[0]``),
``rouge-chinese`` 1.0.3 (the same call) and py-rouge 1.1 (``Rouge(metrics=["rouge-n", "rouge-l"],
max_n=2, limit_length=False, stemming=...)``, ``word_tokenize`` replaced by ``str.split`` as
``conformance/regen/thirdparty.py`` records it); :func:`test_frozen_values_are_the_packages`
(``thirdparty``, /tmp/tp) runs them again. What each pair shows:

- pltrdy: ``"a . "`` (a blank piece is one empty token: P 1/2), ``"b a"`` / ``"a b. a"`` and
  ``"a b"`` / ``"b a. a"`` (the LCS read back keeps the hypothesis's first word on a tie, and the
  words are gathered over reference sentences), ``"x y. y x"`` (exclusive=False: R = 1.5),
  ``"."`` / ``".."`` (ValueError), ``" "`` (no error: zeros), ``"3.5 x"`` (the period splits).
- rouge-chinese: breaks after ``？?`` keep the mark in its token (``a？？b``, ``a?"?b``), after
  ``......`` and ``……``, not before ``”``; ``.`` is no separator; a blank text raises; rouge-l
  is the plain LCS.
- py-rouge: its stems (``departmental`` -> ``department``, ``better``/``best`` -> ``well``,
  ``mice`` -> ``mouse`` but ``mouse`` -> ``mous``), no stem under four characters (``ran``),
  Unicode lowercasing (``İ``), an empty text scores 0.
- sumeval 0.2.2 (``RougeCalculator(lang="en")``, F only): see :data:`SUMEVAL`.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

import pytest

import assay
from assay.core.errors import AssayError
from assay.metrics.rouge.word_union import lcs_words, word_union
from conformance.references.availability import missing

#: package recording -> (assay profile, knob changes, the package's name for its LCS measure -> assay's)
SETUPS: dict[str, tuple[str, dict[str, Any], str]] = {
    "pltrdy": ("pltrdy-rouge", {}, "rougeLsum"),
    "pltrdy.exclusive=False": ("pltrdy-rouge", {"ngram_counts": "multiset"}, "rougeLsum"),
    "rouge-chinese": ("rouge-chinese", {}, "rougeL"),
    "rouge-chinese.exclusive=False": ("rouge-chinese", {"ngram_counts": "multiset"}, "rougeL"),
    "py-rouge": ("py-rouge", {}, "rougeLsum"),
    "py-rouge.stemming=False": ("py-rouge", {"stemmer": "none"}, "rougeLsum"),
}

Answer = Any   # {"rouge-1": [p, r, f], ...} or "ValueError: ..."
FROZEN: dict[str, list[tuple[str, str, Answer]]] = {
    'pltrdy': [
        ('a . ', 'a',
         {'rouge-1': [0.5, 1.0, 0.6666666622222223],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 1.0, 0.6666666622222223]}),
        ('b a', 'a b. a',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 0.5, 0.6666666622222223],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a b', 'b a. a',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
        ('x y. y x', 'x y',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.3333333333333333, 1.0, 0.4999999962500001],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a b c d', 'a c. b d',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('.', 'a', 'ValueError: Hypothesis is empty.'),
        ('..', 'a', 'ValueError: Hypothesis is empty.'),
        (' ', 'a', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('3.5 x', '3 5 x',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('A b', 'a b',
         {'rouge-1': [0.5, 0.5, 0.4999999950000001],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
        ('b a c', 'a b c. b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.6666666666666666, 0.6666666666666666, 0.6666666616666668]}),
        ('a b', 'a b. a b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 0.5, 0.6666666622222223],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a a a b', 'a b a',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.5, 0.5, 0.4999999950000001],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
    ],
    'pltrdy.exclusive=False': [
        ('a . ', 'a',
         {'rouge-1': [0.5, 1.0, 0.6666666622222223],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 1.0, 0.6666666622222223]}),
        ('b a', 'a b. a',
         {'rouge-1': [1.0, 0.6666666666666666, 0.7999999952000001],
          'rouge-2': [1.0, 0.5, 0.6666666622222223],
          'rouge-l': [1.0, 0.6666666666666666, 0.7999999952000001]}),
        ('a b', 'b a. a',
         {'rouge-1': [1.0, 0.6666666666666666, 0.7999999952000001],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [1.0, 0.6666666666666666, 0.7999999952000001]}),
        ('x y. y x', 'x y',
         {'rouge-1': [0.5, 1.0, 0.6666666622222223],
          'rouge-2': [0.3333333333333333, 1.0, 0.4999999962500001],
          'rouge-l': [0.75, 1.5, 0.9999999955555556]}),
        ('a b c d', 'a c. b d',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('.', 'a', 'ValueError: Hypothesis is empty.'),
        ('..', 'a', 'ValueError: Hypothesis is empty.'),
        (' ', 'a', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('3.5 x', '3 5 x',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('A b', 'a b',
         {'rouge-1': [0.5, 0.5, 0.4999999950000001],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
        ('b a c', 'a b c. b',
         {'rouge-1': [1.0, 0.75, 0.8571428522448981],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [1.0, 0.75, 0.8571428522448981]}),
        ('a b', 'a b. a b',
         {'rouge-1': [1.0, 0.5, 0.6666666622222223],
          'rouge-2': [1.0, 0.3333333333333333, 0.4999999962500001],
          'rouge-l': [2.0, 1.0, 1.333333328888889]}),
        ('a a a b', 'a b a',
         {'rouge-1': [0.75, 1.0, 0.8571428522448981],
          'rouge-2': [0.3333333333333333, 0.5, 0.39999999520000007],
          'rouge-l': [0.5, 0.6666666666666666, 0.5714285665306124]}),
    ],
    'rouge-chinese': [
        ('a？？b', 'a？？ b',
         {'rouge-1': [0.5, 0.3333333333333333, 0.39999999520000007],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.3333333333333333, 0.39999999520000007]}),
        ('a?"?b', 'a?" ?b',
         {'rouge-1': [0.6666666666666666, 0.5, 0.5714285665306124],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.6666666666666666, 0.5, 0.5714285665306124]}),
        ('a b？c d', 'c d a b',
         {'rouge-1': [0.75, 0.75, 0.749999995],
          'rouge-2': [0.3333333333333333, 0.3333333333333333, 0.3333333283333334],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
        (' ', 'a', 'ValueError: Hypothesis is empty.'),
        ('a.b', 'a b', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('a？”b', 'a？” b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a......b', 'a...... b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a……b', 'a…… b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a？ \n b', 'a？ b',
         {'rouge-1': [0.6666666666666666, 1.0, 0.7999999952000001],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.6666666666666666, 1.0, 0.7999999952000001]}),
        ('我 爱 北京。 你 好', '你 好。我 爱 北京',
         {'rouge-1': [0.6, 0.6, 0.5999999950000001],
          'rouge-2': [0.25, 0.25, 0.24999999500000009],
          'rouge-l': [0.4, 0.4, 0.3999999950000001]}),
        ('a a a b', 'a b a',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [0.5, 0.5, 0.4999999950000001],
          'rouge-l': [0.5, 0.6666666666666666, 0.5714285665306124]}),
    ],
    'rouge-chinese.exclusive=False': [
        ('a？？b', 'a？？ b',
         {'rouge-1': [0.5, 0.3333333333333333, 0.39999999520000007],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.3333333333333333, 0.39999999520000007]}),
        ('a?"?b', 'a?" ?b',
         {'rouge-1': [0.6666666666666666, 0.5, 0.5714285665306124],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.6666666666666666, 0.5, 0.5714285665306124]}),
        ('a b？c d', 'c d a b',
         {'rouge-1': [0.75, 0.75, 0.749999995],
          'rouge-2': [0.3333333333333333, 0.3333333333333333, 0.3333333283333334],
          'rouge-l': [0.5, 0.5, 0.4999999950000001]}),
        (' ', 'a', 'ValueError: Hypothesis is empty.'),
        ('a.b', 'a b', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('a？”b', 'a？” b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a......b', 'a...... b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a……b', 'a…… b',
         {'rouge-1': [1.0, 1.0, 0.999999995],
          'rouge-2': [1.0, 1.0, 0.999999995],
          'rouge-l': [1.0, 1.0, 0.999999995]}),
        ('a？ \n b', 'a？ b',
         {'rouge-1': [0.6666666666666666, 1.0, 0.7999999952000001],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.6666666666666666, 1.0, 0.7999999952000001]}),
        ('我 爱 北京。 你 好', '你 好。我 爱 北京',
         {'rouge-1': [0.6, 0.6, 0.5999999950000001],
          'rouge-2': [0.25, 0.25, 0.24999999500000009],
          'rouge-l': [0.4, 0.4, 0.3999999950000001]}),
        ('a a a b', 'a b a',
         {'rouge-1': [0.75, 1.0, 0.8571428522448981],
          'rouge-2': [0.3333333333333333, 0.5, 0.39999999520000007],
          'rouge-l': [0.5, 0.6666666666666666, 0.5714285665306124]}),
    ],
    'py-rouge': [
        ('departmental budgets', 'department budget',
         {'rouge-1': [0.5, 0.5, 0.5],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.5]}),
        ('the cats are running', 'the cat is running',
         {'rouge-1': [0.75, 0.75, 0.75],
          'rouge-2': [0.3333333333333333, 0.3333333333333333, 0.3333333333333333],
          'rouge-l': [0.75, 0.75, 0.75]}),
        ('x y\ny x', 'x y',
         {'rouge-1': [0.5, 1.0, 0.6666666666666666],
          'rouge-2': [0.3333333333333333, 1.0, 0.5],
          'rouge-l': [0.5, 1.0, 0.6666666666666666]}),
        ('best', 'well', {'rouge-1': [1.0, 1.0, 1.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [1.0, 1.0, 1.0]}),
        ('better mice', 'good mouse',
         {'rouge-1': [0.0, 0.0, 0.0],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.0, 0.0, 0.0]}),
        ('İstanbul', 'i stanbul',
         {'rouge-1': [1.0, 1.0, 1.0],
          'rouge-2': [1.0, 1.0, 1.0],
          'rouge-l': [1.0, 1.0, 1.0]}),
        ('', 'a', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('running runs', 'run ran',
         {'rouge-1': [0.5, 0.5, 0.5],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.5]}),
    ],
    'py-rouge.stemming=False': [
        ('departmental budgets', 'department budget',
         {'rouge-1': [0.0, 0.0, 0.0],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.0, 0.0, 0.0]}),
        ('the cats are running', 'the cat is running',
         {'rouge-1': [0.5, 0.5, 0.5],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.5, 0.5, 0.5]}),
        ('x y\ny x', 'x y',
         {'rouge-1': [0.5, 1.0, 0.6666666666666666],
          'rouge-2': [0.3333333333333333, 1.0, 0.5],
          'rouge-l': [0.5, 1.0, 0.6666666666666666]}),
        ('best', 'well', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('better mice', 'good mouse',
         {'rouge-1': [0.0, 0.0, 0.0],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.0, 0.0, 0.0]}),
        ('İstanbul', 'i stanbul',
         {'rouge-1': [1.0, 1.0, 1.0],
          'rouge-2': [1.0, 1.0, 1.0],
          'rouge-l': [1.0, 1.0, 1.0]}),
        ('', 'a', {'rouge-1': [0.0, 0.0, 0.0], 'rouge-2': [0.0, 0.0, 0.0], 'rouge-l': [0.0, 0.0, 0.0]}),
        ('running runs', 'run ran',
         {'rouge-1': [0.0, 0.0, 0.0],
          'rouge-2': [0.0, 0.0, 0.0],
          'rouge-l': [0.0, 0.0, 0.0]}),
    ],
}


_NAMES = {"rouge-1": "rouge1", "rouge-2": "rouge2"}


def _assay_answer(setup: str, hyp: str, ref: str) -> Answer:
    profile, changes, lcs = SETUPS[setup]
    try:
        score = assay.score("rouge", [hyp], [[ref]], profile, **changes)
    except AssayError as exc:
        return f"error: {exc}"
    names = {**_NAMES, "rouge-l": lcs}
    return {name: [score.components[t][k] for k in ("p", "r", "f")] for name, t in names.items()}


@pytest.mark.parametrize("setup", sorted(FROZEN))
def test_profile_reproduces_hand_made_pairs(setup: str) -> None:
    """Every frozen answer, to the bit (P, R, F of each measure), and every exception as an error."""
    bad = []
    for hyp, ref, want in FROZEN[setup]:
        got = _assay_answer(setup, hyp, ref)
        if isinstance(want, str):
            ok = isinstance(got, str)
        else:
            ok = got == want
        if not ok:
            bad.append((hyp, ref, want, got))
    assert not bad, "\n".join(map(repr, bad))


def test_lcs_read_back_keeps_the_hypothesis_word_on_a_tie() -> None:
    """The LCS of reference ``a b`` and hypothesis ``b a`` read back from the ends is ``b``: a tie drops
    the hypothesis's last word (``a``), then ``b`` matches (pltrdy: hits 2 on ``"b a"`` / ``"a b. a"``)."""
    a, b = 1, 2
    assert lcs_words([a, b], [b, a]) == [b]
    assert lcs_words([b, a], [a, b]) == [a]
    assert lcs_words([a, b, a], [a, a, a, b]) in ([b, a], [a, a])   # two tokens either way
    assert word_union([[b, a]], [[a, b], [a]], sets=True) == (2, 2, 2)
    assert word_union([[a, b]], [[b, a], [a]], sets=True) == (1, 2, 2)
    assert word_union([[1, 2], [2, 1]], [[1, 2]], sets=False) == (3, 2, 4)


def test_new_knob_values_are_validated() -> None:
    from assay.core.errors import KnobError
    with pytest.raises(KnobError, match="f_epsilon"):
        assay.score("rouge", ["a"], [["a"]], "pltrdy-rouge", alpha=0.8)
    with pytest.raises(KnobError, match="f_epsilon"):
        assay.score("rouge", ["a"], [["a"]], "rouge-score", f_epsilon=1e-8, beta=1.2)
    with pytest.raises(KnobError, match="f_epsilon"):
        assay.score("rouge", ["a"], [["a"]], "rouge-score", f_epsilon=float("nan"))
    with pytest.raises(KnobError, match="lcs_union"):
        assay.score("rouge", ["a"], [["a"]], "rouge-score", lcs_union="tokens")


# ------------------------------------------------------------------------------- live packages
def _py_rouge(stemming: bool) -> Callable[[str, str], dict[str, Any]]:
    try:
        from conformance.regen.thirdparty import _py_rouge as build
        scorer = build(stemming)
    except ImportError as exc:
        missing(f"py-rouge 1.1 is not importable ({exc}); pip install --target $PY_ROUGE_PATH --no-deps "
                "py-rouge==1.1 (it needs pkg_resources: setuptools<81)")
    return scorer.get_scores


def _package(setup: str) -> Callable[[str, str], dict[str, Any]]:
    if setup.startswith("py-rouge"):
        return _py_rouge(stemming=setup == "py-rouge")
    name = "rouge_chinese" if setup.startswith("rouge-chinese") else "rouge"
    try:
        cls = importlib.import_module(name).Rouge
    except ImportError as exc:
        missing(f"{name} is not installed ({exc}); pip install rouge==1.0.1 rouge-chinese==1.0.3")
    options = {"exclusive": False} if setup.endswith("exclusive=False") else {}
    return lambda hyp, ref: cls(**options).get_scores(hyp, ref)[0]


@pytest.mark.thirdparty
@pytest.mark.parametrize("setup", sorted(FROZEN))
def test_frozen_values_are_the_packages(setup: str) -> None:
    """The frozen answers are what the installed packages print (run in /tmp/tp: PYTHONPATH=/work/main)."""
    call = _package(setup)
    for hyp, ref, want in FROZEN[setup]:
        try:
            got: Answer = {k: [v["p"], v["r"], v["f"]] for k, v in call(hyp, ref).items()}
        except ValueError as exc:
            got = f"ValueError: {exc}"
        assert got == want, (setup, hyp, ref)

# ------------------------------------------------------------------------------- sumeval (F only)
#: sumeval 0.2.2 ``RougeCalculator(lang="en", **options)``: [rouge_n(h, refs, 1), rouge_n(h, refs, 2),
#: rouge_l(h, refs)]; SMART stop words by default (``a``, ``b``, ``sat`` are among them), ASCII
#: lowercasing (``İstanbul`` -> ``stanbul``), references pooled (``x y`` against ``x z`` and ``y w``: 0.5)
SUMEVAL: dict[str, list[tuple[str, list[str], list[float]]]] = {
    'sumeval': [
        ('c d\na b', ['a b c d'], [0, 0, 0]),
        ('x y', ['x z', 'y w'], [0, 0, 0]),
        ('x y', ['x z y', 'y w'], [0, 0, 0]),
        ('the cat sat on the mat', ['the cat sat'], [0.6666666666666666, 0, 0.6666666666666666]),
        ('İstanbul', ['i stanbul'], [1.0, 0, 1.0]),
        ('a a a b', ['a b a'], [0, 0, 0]),
        ('', ['a'], [0, 0, 0]),
    ],
    'sumeval.stopwords=False': [
        ('c d\na b', ['a b c d'], [1.0, 0.6666666666666666, 0.5]),
        ('x y', ['x z', 'y w'], [0.5, 0, 0.5]),
        ('x y', ['x z y', 'y w'], [0.6666666666666665, 0, 0.6666666666666665]),
        ('the cat sat on the mat', ['the cat sat'], [0.6666666666666666, 0.5714285714285715, 0.6666666666666666]),
        ('İstanbul', ['i stanbul'], [0.6666666666666666, 0, 0.6666666666666666]),
        ('a a a b', ['a b a'], [0.8571428571428571, 0.4, 0.5714285714285715]),
        ('', ['a'], [0, 0, 0]),
    ],
}
SUMEVAL_SETUPS = {"sumeval": {}, "sumeval.stopwords=False": {"stopwords": "none"}}


@pytest.mark.parametrize("setup", sorted(SUMEVAL))
def test_sumeval_profile_reproduces_hand_made_pairs(setup: str) -> None:
    for hyp, refs, want in SUMEVAL[setup]:
        score = assay.score("rouge", [hyp], [[r] for r in refs], "sumeval", **SUMEVAL_SETUPS[setup])
        got = [score.components[t]["f"] for t in ("rouge1", "rouge2", "rougeL")]
        assert got == pytest.approx(want, rel=1e-12, abs=0), (hyp, refs)


@pytest.mark.thirdparty
@pytest.mark.parametrize("setup", sorted(SUMEVAL))
def test_sumeval_frozen_values_are_the_package(setup: str) -> None:
    try:
        from sumeval.metrics.rouge import RougeCalculator
    except ImportError as exc:
        missing(f"sumeval is not installed ({exc}); pip install sumeval==0.2.2")
    calc = RougeCalculator(lang="en", **({"stopwords": False} if setup.endswith("False") else {}))
    for hyp, refs, want in SUMEVAL[setup]:
        assert [calc.rouge_n(hyp, refs, 1), calc.rouge_n(hyp, refs, 2), calc.rouge_l(hyp, refs)] == want


# ------------------------------------------------------------------------------- py-rouge's stem table
def test_py_rouge_table_files_are_read_as_word_bar_base(tmp_path: Any) -> None:
    """``exceptions_path`` naming a py-rouge package directory reads its two ``word|base`` files (the
    special cases last); a malformed line is an InputError naming file and line."""
    from assay.core.errors import InputError
    from assay.metrics.rouge.text import PY_ROUGE_TABLES, TextPipeline
    (tmp_path / PY_ROUGE_TABLES[0]).write_text("geese|goose\nbetter|well\n", encoding="utf-8")
    (tmp_path / PY_ROUGE_TABLES[1]).write_text("incredibly|incred", encoding="utf-8")
    pipe = TextPipeline("rouge-score", "py-rouge", exceptions_path=str(tmp_path))
    assert [pipe.stem(w) for w in ("geese", "better", "incredibly", "running")] == ["goose", "well", "incred", "run"]
    (tmp_path / PY_ROUGE_TABLES[1]).write_text("incredibly|incred\nbroken line\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"special_cases.txt:2: expected 'word\|base'"):
        TextPipeline("rouge-score", "py-rouge", exceptions_path=str(tmp_path) + "/")


@pytest.mark.thirdparty
def test_py_rouge_stems_equal_the_package() -> None:
    """On the >10,000 words of fixtures/tokenizers/rouge.json: the ``py-rouge`` stemmer equals py-rouge's
    ``stem_tokens`` except on the special cases of its own table (``agreement``, ``incredibly`` ...), and
    exactly with ``exceptions_path`` at the installed package's directory."""
    import json
    import os
    from pathlib import Path

    from assay.metrics.rouge.text import PY_ROUGE_TABLES, TextPipeline
    scorer = _py_rouge(stemming=True).__self__
    data = Path(os.environ.get("PY_ROUGE_PATH", "/tmp/conform_pyrouge")) / "rouge"
    fixture = Path(__file__).resolve().parents[3] / "fixtures" / "tokenizers" / "rouge.json"
    words = sorted({row[0] for row in json.loads(fixture.read_text(encoding="utf-8"))["stems"]["rows"]
                    if row[0].isascii() and row[0].isalnum() and row[0] == row[0].lower()})
    want = scorer.stem_tokens(list(words))
    special = {line.split("|")[0] for line in (data / PY_ROUGE_TABLES[1]).read_text(encoding="utf-8").split("\n")
               if line}
    default, exact = TextPipeline("rouge-score", "py-rouge"), TextPipeline("rouge-score", "py-rouge",
                                                                           exceptions_path=str(data))
    differ = {w for w, s in zip(words, want) if default.stem(w) != s}
    assert differ and differ <= special, sorted(differ - special)[:20]
    assert [exact.stem(w) for w in words] == want
