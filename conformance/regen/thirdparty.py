"""Record what third-party metric packages answer on the fixture inputs (``fixtures/thirdparty/*.json``).

    PYTHONHASHSEED=0 python -m conformance.regen thirdparty            # every recording whose package imports
    PYTHONHASHSEED=0 python -m conformance.regen.thirdparty --only hf-bleu,pyter3

Each recording runs one real package, called as its documentation shows (``call``), on every
distinct input of its metric's fixture cases (hypotheses, reference streams, level and the
report-only knobs such as ROUGE's ``types``), through :class:`assay.jobs.conform.shapes.DirectShape`
exactly as ``assay conform direct:...`` would call it. The answers (a score, the components the
package returns, or the exception it raised, or "skipped" where the call shape cannot express the
case) are frozen with provenance: package, version, the call. assay never computes them.

Two recordings per package: ``default`` (the documented defaults) and one ``injected`` departure
(one option of the package changed, or, where the package has none, one change to its input such
as lowercasing), which ``assay conform --identify`` must name as a single knob
(conformance/tests/thirdparty/). The answers are looked up by :func:`case_key`, so the replaying
implementation (``conformance/tests/thirdparty/replay.py``) needs none of the packages.

Offline notes (this machine reaches PyPI only):

- HF ``evaluate`` loads its metric scripts from the Hub; here they are loaded with
  ``evaluate.load(<folder>)`` from the evaluate repository at tag v0.4.6 (commit
  a4fcb45252709bd07fba897afd4575735716664f, ``metrics/bleu``, ``metrics/google_bleu``), copied to
  ``$HF_METRICS`` (default /tmp/hf_metrics). ``bleu.py`` imports ``nmt_bleu`` from a URL
  (tensorflow/nmt ``nmt/scripts/bleu.py``); the same file (tensorflow/nmt@0be864257a76) is placed
  next to it and the import comment points at the local copy (:func:`prepare_hf_metrics`).
- py-rouge tokenises with ``nltk.word_tokenize`` (needs NLTK's punkt model, not installable
  offline): replaced by ``str.split`` (as ``conformance/examples/thirdparty.py`` does).
- torchmetrics' ROUGEScore: ``rouge_keys=("rouge1", "rouge2", "rougeL")`` (rougeLsum needs punkt).
"""
from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from conformance.paths import FIXTURES

FORMAT = "assay-thirdparty/1"
OUT = FIXTURES / "thirdparty"
HF_METRICS = Path(os.environ.get("HF_METRICS", "/tmp/hf_metrics"))
EVALUATE_COMMIT = "a4fcb45252709bd07fba897afd4575735716664f"      # huggingface/evaluate tag v0.4.6
NMT_COMMIT = "0be864257a76c151eef20ea689755f08bc1faf4e"           # tensorflow/nmt master


def case_key(metric: str, level: str, hyps: Any, refs: Any, knobs: dict[str, Any] | None) -> str:
    """The lookup key of one input (:func:`assay.jobs.conform.recorded.case_key`: the package's conform
    suite looks the recorded answers up by the same key)."""
    from assay.jobs.conform.recorded import case_key as key
    return key(metric, level, hyps, refs, knobs)


# ----------------------------------------------------------------------------- the packages' calls
def _skip(message: str) -> Exception:
    from assay.jobs.conform.shapes import ShapeSkip
    return ShapeSkip(message)


def prepare_hf_metrics(evaluate_repo: str | None = None, nmt_repo: str | None = None) -> None:
    """Copy evaluate's metrics/bleu and metrics/google_bleu (tag v0.4.6) and tensorflow/nmt's
    bleu.py (as ``nmt_bleu.py``) from git clones (``$EVALUATE_REPO``, ``$NMT_REPO``) into ``$HF_METRICS``."""
    evaluate_repo = evaluate_repo or os.environ.get("EVALUATE_REPO", "/work/.mirror/huggingface+evaluate/repo")
    nmt_repo = nmt_repo or os.environ.get("NMT_REPO", "/work/.mirror/tensorflow+nmt/repo")
    for metric in ("bleu", "google_bleu"):
        folder = HF_METRICS / metric
        folder.mkdir(parents=True, exist_ok=True)
        names = subprocess.run(["git", "-C", evaluate_repo, "ls-tree", "--name-only", EVALUATE_COMMIT,
                                f"metrics/{metric}/"], check=True, capture_output=True, text=True).stdout.split()
        for name in names:
            text = subprocess.run(["git", "-C", evaluate_repo, "show", f"{EVALUATE_COMMIT}:{name}"], check=True,
                                  capture_output=True, text=True).stdout
            (folder / Path(name).name).write_text(text, encoding="utf-8")
    nmt = subprocess.run(["git", "-C", nmt_repo, "show", f"{NMT_COMMIT}:nmt/scripts/bleu.py"], check=True,
                         capture_output=True, text=True).stdout
    (HF_METRICS / "bleu" / "nmt_bleu.py").write_text(nmt, encoding="utf-8")
    script = HF_METRICS / "bleu" / "bleu.py"
    text = script.read_text(encoding="utf-8")
    script.write_text(text.replace("# From: https://github.com/tensorflow/nmt/blob/master/nmt/scripts/bleu.py",
                                   f"# From: {HF_METRICS / 'bleu' / 'nmt_bleu.py'}"), encoding="utf-8")


@lru_cache(maxsize=None)
def _hf(name: str) -> Any:
    import evaluate
    if not (HF_METRICS / name / f"{name}.py").exists():
        prepare_hf_metrics()
    return evaluate.load(str(HF_METRICS / name), keep_in_memory=True)     # no Arrow cache files: 25x faster


def _hf_call(name: str, key: str, **options: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def corpus(hyps: list[str], streams: list[list[Any]]) -> float:
        refs = [[s[i] for s in streams if s[i] is not None] for i in range(len(hyps))]
        return _hf(name).compute(predictions=list(hyps), references=refs, **options)[key]

    def sentence(hyp: str, refs: list[str]) -> float:
        return _hf(name).compute(predictions=[hyp], references=[list(refs)], **options)[key]
    return corpus, sentence


hf_bleu, hf_bleu_sentence = _hf_call("bleu", "bleu")
hf_bleu_order3, hf_bleu_order3_sentence = _hf_call("bleu", "bleu", max_order=3)
hf_google_bleu, hf_google_bleu_sentence = _hf_call("google_bleu", "google_bleu")
hf_google_bleu_len3, hf_google_bleu_len3_sentence = _hf_call("google_bleu", "google_bleu", max_len=3)


def _tm(cls_name: str, **options: Any) -> Callable[[list[str], list[list[str]]], Any]:
    def call(preds: list[str], target: list[list[str]]) -> Any:
        module = importlib.import_module("torchmetrics.text")
        return getattr(module, cls_name)(**options)(preds, target)
    call.__name__ = f"tm_{cls_name}"
    return call


tm_bleu = _tm("BLEUScore")
tm_bleu_order3 = _tm("BLEUScore", n_gram=3)
tm_sacrebleu = _tm("SacreBLEUScore")
tm_sacrebleu_lowercase = _tm("SacreBLEUScore", lowercase=True)
tm_chrf = _tm("CHRFScore")
tm_chrf_word0 = _tm("CHRFScore", n_word_order=0)
tm_chrf_lowercase = _tm("CHRFScore", lowercase=True)
tm_ter = _tm("TranslationEditRate")
tm_ter_cased = _tm("TranslationEditRate", lowercase=False)
tm_rouge = _tm("ROUGEScore", rouge_keys=("rouge1", "rouge2", "rougeL"))
tm_rouge_stemmer = _tm("ROUGEScore", rouge_keys=("rouge1", "rouge2", "rougeL"), use_stemmer=True)


def _pyter(lower: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def corpus(hyps: list[str], streams: list[list[Any]]) -> float:
        raise _skip("pyter3 scores one sentence against one reference (no corpus TER)")

    def sentence(hyp: str, refs: list[str]) -> float:
        import pyter
        if len(refs) != 1:
            raise _skip("pyter3 takes one reference")
        h, r = (hyp.lower(), refs[0].lower()) if lower else (hyp, refs[0])
        return pyter.ter(h.split(), r.split())
    return corpus, sentence


pyter3, pyter3_sentence = _pyter(False)
pyter3_lowercased, pyter3_lowercased_sentence = _pyter(True)


def _pltrdy(module: str = "rouge", **options: Any) -> Callable[[str, str], Any]:
    def score(target: str, prediction: str) -> dict[str, Any]:
        scores = importlib.import_module(module).Rouge(**options).get_scores(prediction, target)[0]
        return _summary_level(scores) if module == "rouge" else scores
    return score


pltrdy_rouge = _pltrdy()
pltrdy_rouge_multiset = _pltrdy(exclusive=False)
rouge_chinese = _pltrdy("rouge_chinese")
rouge_chinese_multiset = _pltrdy("rouge_chinese", exclusive=False)


class Sumeval:
    """sumeval's ``RougeCalculator(lang="en")`` (its defaults: stopwords=True, stemming=False) as a
    rouge-score-shaped scorer: F of ROUGE-1, ROUGE-2 and ROUGE-L, every reference given at once
    (``score_multi``), as sumeval's own calls take them."""

    options: dict[str, Any] = {}

    def score(self, target: str, prediction: str) -> dict[str, float]:
        return self.score_multi([target], prediction)

    def score_multi(self, targets: list[str], prediction: str) -> dict[str, float]:
        from sumeval.metrics.rouge import RougeCalculator
        calc, refs = RougeCalculator(lang="en", **self.options), list(targets)
        return {"rouge1": calc.rouge_n(prediction, refs, 1), "rouge2": calc.rouge_n(prediction, refs, 2),
                "rougeL": calc.rouge_l(prediction, refs)}


class SumevalNoStopwords(Sumeval):
    options = {"stopwords": False}


def _compare_mt(case_insensitive: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def corpus(hyps: list[str], streams: list[list[Any]]) -> float:
        from compare_mt.scorers import BleuScorer
        if len(streams) != 1 or any(r is None for r in streams[0]):
            raise _skip("compare-mt's BleuScorer takes one reference per segment")
        score, _ = BleuScorer(case_insensitive=case_insensitive).score_corpus(
            [r.split() for r in streams[0]], [h.split() for h in hyps])
        return score

    def sentence(hyp: str, refs: list[str]) -> float:
        raise _skip("compare-mt's BleuScorer has no sentence level (SentenceBleuScorer is another metric)")
    return corpus, sentence


compare_mt, compare_mt_sentence = _compare_mt(False)
compare_mt_ci, compare_mt_ci_sentence = _compare_mt(True)


def _fast_bleu(lower: bool) -> tuple[Callable[..., Any], Callable[..., Any]]:
    def corpus(hyps: list[str], streams: list[list[Any]]) -> float:
        raise _skip("fast-bleu scores each hypothesis against one reference set (no corpus BLEU)")

    def sentence(hyp: str, refs: list[str]) -> float:
        from fast_bleu import BLEU
        if not refs:
            raise _skip("fast-bleu needs a reference")
        if lower:
            hyp, refs = hyp.lower(), [r.lower() for r in refs]
        bleu = BLEU([r.split() for r in refs], {4: (0.25, 0.25, 0.25, 0.25)})
        return bleu.get_score([hyp.split()])[4][0]
    return corpus, sentence


fast_bleu, fast_bleu_sentence = _fast_bleu(False)
fast_bleu_lowercased, fast_bleu_lowercased_sentence = _fast_bleu(True)


@lru_cache(maxsize=None)
def _py_rouge(stemming: bool) -> Any:
    """py-rouge's evaluator, imported and built from ``$PY_ROUGE_PATH`` with its own ``rouge`` package
    in ``sys.modules`` (its WordNet table is found through ``pkg_resources``), pltrdy's restored after."""
    path = os.environ.get("PY_ROUGE_PATH", "/tmp/conform_pyrouge")
    saved = {k: v for k, v in sys.modules.items() if k == "rouge" or k.startswith("rouge.")}
    for k in saved:
        del sys.modules[k]
    sys.path.insert(0, path)
    try:
        cls = importlib.import_module("rouge.rouge").Rouge
        cls.tokenize_text = staticmethod(lambda text, language="english": text.split())   # offline patch (punkt)
        return cls(metrics=["rouge-n", "rouge-l"], max_n=2, limit_length=False, stemming=stemming)
    finally:
        sys.path.remove(path)
        for k in [k for k in sys.modules if k == "rouge" or k.startswith("rouge.")]:
            del sys.modules[k]
        sys.modules.update(saved)


def _summary_level(scores: dict[str, Any]) -> dict[str, Any]:
    """py-rouge's ``rouge-l`` is the summary-level union LCS over newline-separated sentences
    (ROUGE-1.5.5's ROUGE-L), which assay and rouge-score call ``rougeLsum``: relabelled, not changed.
    So is pltrdy rouge's (a union over its '.'-split sentences); rouge-chinese's rouge-l is the
    plain LCS of the whole texts (rougeL) and keeps its name."""
    return {("rougeLsum" if k == "rouge-l" else k): v for k, v in scores.items()}


def py_rouge(target: str, prediction: str) -> dict[str, Any]:
    return _summary_level(_py_rouge(True).get_scores(prediction, target))


def py_rouge_nostem(target: str, prediction: str) -> dict[str, Any]:
    return _summary_level(_py_rouge(False).get_scores(prediction, target))


# ----------------------------------------------------------------------------- the recordings
@dataclass(frozen=True)
class Recording:
    name: str                  #: fixtures/thirdparty/<name>.json
    metric: str
    package: str               #: PyPI distribution whose version is recorded
    call: str                  #: the call whose answers are recorded
    shape: str                 #: DirectShape shape
    corpus: str                #: attribute of this module (corpus callable)
    sentence: str | None = None
    variant: str = "default"   #: default, or "injected: <option>"
    base: str | None = None    #: for an injected recording: the default recording it departs from
    note: str = ""


_HF = "evaluate.load(<evaluate@v0.4.6 metrics/{m}>).compute(predictions=hyps, references=[[refs of segment i]]){o}"
_TM = "torchmetrics.text.{c}({o})(preds, [[refs of segment i] ...])"
RECORDINGS: tuple[Recording, ...] = (
    Recording("hf-bleu", "bleu", "evaluate", _HF.format(m="bleu", o="['bleu']"), "sacrebleu", "hf_bleu",
              "hf_bleu_sentence", note="sentence level: compute on a one-segment corpus"),
    Recording("hf-bleu.max_order3", "bleu", "evaluate", _HF.format(m="bleu", o=" with max_order=3"), "sacrebleu",
              "hf_bleu_order3", "hf_bleu_order3_sentence", "injected: max_order=3", "hf-bleu"),
    Recording("hf-google_bleu", "gleu", "evaluate", _HF.format(m="google_bleu", o="['google_bleu']"), "sacrebleu",
              "hf_google_bleu", "hf_google_bleu_sentence", note="NLTK corpus_gleu on 13a tokens"),
    Recording("hf-google_bleu.max_len3", "gleu", "evaluate", _HF.format(m="google_bleu", o=" with max_len=3"),
              "sacrebleu", "hf_google_bleu_len3", "hf_google_bleu_len3_sentence", "injected: max_len=3",
              "hf-google_bleu"),
    Recording("tm-bleu", "bleu", "torchmetrics", _TM.format(c="BLEUScore", o=""), "torchmetrics", "tm_bleu"),
    Recording("tm-bleu.n_gram3", "bleu", "torchmetrics", _TM.format(c="BLEUScore", o="n_gram=3"), "torchmetrics",
              "tm_bleu_order3", None, "injected: n_gram=3", "tm-bleu"),
    Recording("tm-sacrebleu", "bleu", "torchmetrics", _TM.format(c="SacreBLEUScore", o=""), "torchmetrics",
              "tm_sacrebleu"),
    Recording("tm-sacrebleu.lowercase", "bleu", "torchmetrics", _TM.format(c="SacreBLEUScore", o="lowercase=True"),
              "torchmetrics", "tm_sacrebleu_lowercase", None, "injected: lowercase=True", "tm-sacrebleu"),
    Recording("tm-chrf", "chrf", "torchmetrics", _TM.format(c="CHRFScore", o=""), "torchmetrics", "tm_chrf"),
    Recording("tm-chrf.n_word_order0", "chrf", "torchmetrics", _TM.format(c="CHRFScore", o="n_word_order=0"),
              "torchmetrics", "tm_chrf_word0", None, "injected: n_word_order=0", "tm-chrf"),
    Recording("tm-chrf.lowercase", "chrf", "torchmetrics", _TM.format(c="CHRFScore", o="lowercase=True"),
              "torchmetrics", "tm_chrf_lowercase", None, "injected: lowercase=True", "tm-chrf"),
    Recording("tm-ter", "ter", "torchmetrics", _TM.format(c="TranslationEditRate", o=""), "torchmetrics", "tm_ter"),
    Recording("tm-ter.cased", "ter", "torchmetrics", _TM.format(c="TranslationEditRate", o="lowercase=False"),
              "torchmetrics", "tm_ter_cased", None, "injected: lowercase=False", "tm-ter"),
    Recording("tm-rouge", "rouge", "torchmetrics",
              _TM.format(c="ROUGEScore", o="rouge_keys=('rouge1', 'rouge2', 'rougeL')"), "torchmetrics", "tm_rouge"),
    Recording("tm-rouge.stemmer", "rouge", "torchmetrics",
              _TM.format(c="ROUGEScore", o="rouge_keys=('rouge1', 'rouge2', 'rougeL'), use_stemmer=True"),
              "torchmetrics", "tm_rouge_stemmer", None, "injected: use_stemmer=True", "tm-rouge"),
    Recording("pyter3", "ter", "pyter3", "pyter.ter(hyp.split(), ref.split()) per segment (one reference; no corpus "
              "level)", "sacrebleu", "pyter3", "pyter3_sentence"),
    Recording("pyter3.lowercased", "ter", "pyter3", "pyter.ter(hyp.lower().split(), ref.lower().split())",
              "sacrebleu", "pyter3_lowercased", "pyter3_lowercased_sentence", "injected: inputs lowercased",
              "pyter3"),
    Recording("pltrdy-rouge", "rouge", "rouge", "rouge.Rouge().get_scores(hyp, ref)[0] per document (its rouge-l, "
              "summary level, reported as rougeLsum); several references: the best F per type", "rouge-score",
              "pltrdy_rouge"),
    Recording("pltrdy-rouge.multiset", "rouge", "rouge", "rouge.Rouge(exclusive=False).get_scores(hyp, ref)[0]",
              "rouge-score", "pltrdy_rouge_multiset", None, "injected: exclusive=False", "pltrdy-rouge"),
    Recording("rouge-chinese", "rouge", "rouge-chinese", "rouge_chinese.Rouge().get_scores(hyp, ref)[0] per document; "
              "several references: the best F per type", "rouge-score", "rouge_chinese"),
    Recording("sumeval", "rouge", "sumeval", "sumeval.metrics.rouge.RougeCalculator(lang='en'): rouge_n(hyp, refs, 1), "
              "rouge_n(hyp, refs, 2), rouge_l(hyp, refs) per document (F only; every reference at once)", "rouge-score",
              "Sumeval"),
    Recording("sumeval.no_stopwords", "rouge", "sumeval", "as sumeval with RougeCalculator(stopwords=False, "
              "lang='en')", "rouge-score", "SumevalNoStopwords", None, "injected: stopwords=False", "sumeval"),
    Recording("rouge-chinese.multiset", "rouge", "rouge-chinese", "rouge_chinese.Rouge(exclusive=False)"
              ".get_scores(hyp, ref)[0]", "rouge-score", "rouge_chinese_multiset", None, "injected: exclusive=False",
              "rouge-chinese"),
    Recording("compare-mt", "bleu", "compare-mt", "compare_mt.scorers.BleuScorer().score_corpus([r.split() ...], "
              "[h.split() ...])[0] (one reference; no sentence level)", "sacrebleu", "compare_mt",
              "compare_mt_sentence"),
    Recording("compare-mt.case_insensitive", "bleu", "compare-mt", "as compare-mt with "
              "BleuScorer(case_insensitive=True)", "sacrebleu", "compare_mt_ci", "compare_mt_ci_sentence",
              "injected: case_insensitive=True", "compare-mt"),
    Recording("fast-bleu", "bleu", "fast-bleu", "fast_bleu.BLEU([r.split() for r in refs of segment i], "
              "{4: (0.25,)*4}).get_score([hyp.split()])[4][0] per segment (no corpus level)", "sacrebleu",
              "fast_bleu", "fast_bleu_sentence", note="smoothing_func=1 (its default: NLTK method1)"),
    Recording("fast-bleu.lowercased", "bleu", "fast-bleu", "as fast-bleu on hyp.lower() and ref.lower() (fast-bleu "
              "has no case option; its smoothing_func=0 is NLTK's own method0, i.e. the nltk profile)", "sacrebleu",
              "fast_bleu_lowercased", "fast_bleu_lowercased_sentence", "injected: inputs lowercased", "fast-bleu"),
    Recording("py-rouge", "rouge", "py-rouge", "rouge.Rouge(metrics=['rouge-n', 'rouge-l'], max_n=2, "
              "limit_length=False).get_scores(hyp, ref) per document (word_tokenize -> str.split; its rouge-l "
              "reported as rougeLsum); several references: the best F per type", "rouge-score", "py_rouge"),
    Recording("py-rouge.nostem", "rouge", "py-rouge", "as py-rouge with stemming=False", "rouge-score",
              "py_rouge_nostem", None, "injected: stemming=False", "py-rouge"),
)
BY_NAME = {r.name: r for r in RECORDINGS}


def _version(package: str) -> str:
    if package == "py-rouge":
        return "1.1 (pip install --target $PY_ROUGE_PATH --no-deps py-rouge==1.1)"
    return importlib.metadata.version(package)


def distinct_cases(metric: str) -> list[Any]:
    """One fixture case per distinct :func:`case_key` (file-input cases left out), sorted by key."""
    from assay.jobs.conform.recorded import recorded_inputs
    return [case for _, case in sorted(recorded_inputs(metric, FIXTURES).items())]


def record(rec: Recording, only: set[str] | None = None) -> dict[str, Any]:
    """Run ``rec`` on every distinct input of its metric (``only``: these keys); the fixture document."""
    import warnings

    from assay.jobs.conform.runner import case_message
    from assay.jobs.conform.shapes import DirectShape, ShapeSkip
    module = sys.modules[__name__]
    call = DirectShape(rec.shape, getattr(module, rec.corpus), getattr(module, rec.sentence) if rec.sentence else None)
    answers: dict[str, Any] = {}
    for case in distinct_cases(rec.metric):
        message = case_message(case, hint_profile=False)
        key = case_key(rec.metric, case.level, case.hyps, case.refs, case.knobs)
        if only is not None and key not in only:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                score, components = call(message)
        except ShapeSkip as exc:
            answers[key] = {"skipped": str(exc)}
            continue
        except Exception as exc:  # the package's own failure is part of its behaviour
            answers[key] = {"error": type(exc).__name__, "message": str(exc)[:300]}
            continue
        answers[key] = {"score": score, **({"components": components} if components else {})}
    return {"format": FORMAT, "name": rec.name, "metric": rec.metric, "package": rec.package,
            "version": _version(rec.package), "call": rec.call, "shape": rec.shape, "variant": rec.variant,
            "base": rec.base, "note": rec.note,
            "environment": {"python": sys.version.split()[0], "torch": _maybe_version("torch"),
                            "evaluate_scripts": f"huggingface/evaluate@{EVALUATE_COMMIT} (v0.4.6)"
                            if rec.package == "evaluate" else None},
            "key": "conformance.regen.thirdparty.case_key(metric, level, hyps, refs, report-only knobs)",
            "cases": len(answers), "answers": answers}


def _maybe_version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def available(rec: Recording) -> bool:
    module = {"evaluate": "evaluate", "torchmetrics": "torchmetrics", "pyter3": "pyter", "rouge": "rouge",
              "rouge-chinese": "rouge_chinese", "sumeval": "sumeval",
              "py-rouge": "nltk",
              "compare-mt": "compare_mt", "fast-bleu": "fast_bleu"}[rec.package]
    return importlib.util.find_spec(module) is not None


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.regen.thirdparty", description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated recording names (default: every one whose package imports)")
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else [r.name for r in RECORDINGS]
    args.out.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in names:
        rec = BY_NAME[name]
        if not available(rec):
            print(f"thirdparty: {name}: {rec.package} not installed, skipped", file=sys.stderr)
            status = 1
            continue
        doc = record(rec)
        path = args.out / f"{name}.json"
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")
        kinds = {k: sum(1 for a in doc["answers"].values() if k in a) for k in ("score", "error", "skipped")}
        print(f"thirdparty: {name}: {doc['package']} {doc['version']}: {kinds} -> {path}", flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
