"""Identify third-party metric implementations and run the closest profile's suite on each.

    PYTHONPATH=. python conformance/examples/thirdparty_run.py [--only LABEL] > table.md

(``$PY_ROUGE_PATH``, ``$HF_METRICS``: as the ``thirdparty`` tox env sets them.)

For every implementation in :data:`IMPLEMENTATIONS` whose module imports: ``assay conform``'s
identification (closest profile, scale, single-knob departures), then the fixture suite of that
profile (expected values from the reference tools, or for a profile made for a package, the
package's own answers recorded in fixtures/thirdparty) with the identified scale factor; failing
cases are split into *precision* (every difference below 1e-5 relative: float32 arithmetic or an
epsilon term) and *behaviour* (larger). Prints one Markdown section per implementation.
test_conform_thirdparty.py checks the identifications recorded in thirdparty_results.md.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
import warnings
from dataclasses import dataclass
from typing import Any

from assay.jobs.conform import connect, identify, runner, suite


@dataclass(frozen=True)
class Impl:
    label: str
    spec: str
    shape: str
    metric: str
    needs: str                       # a module that must import


IMPLEMENTATIONS = (
    Impl("sacrebleu corpus_bleu/sentence_bleu (identity)", "direct:sacrebleu.compat:corpus_bleu,sentence_bleu",
         "sacrebleu", "bleu", "sacrebleu"),
    Impl("sacrebleu corpus_chrf/sentence_chrf (identity)", "direct:sacrebleu.compat:corpus_chrf,sentence_chrf",
         "sacrebleu", "chrf", "sacrebleu"),
    Impl("sacrebleu corpus_ter/sentence_ter (identity)", "direct:sacrebleu.compat:corpus_ter,sentence_ter",
         "sacrebleu", "ter", "sacrebleu"),
    Impl("NLTK corpus_bleu/sentence_bleu", "direct:nltk.translate.bleu_score:corpus_bleu,sentence_bleu",
         "nltk", "bleu", "nltk"),
    Impl("NLTK corpus_chrf/sentence_chrf", "direct:conformance.examples.thirdparty:nltk_chrf,nltk_chrf_sentence",
         "sacrebleu", "chrf", "nltk"),
    Impl("NLTK corpus_nist/sentence_nist", "direct:nltk.translate.nist_score:corpus_nist,sentence_nist",
         "nltk", "nist", "nltk"),
    Impl("torchmetrics BLEUScore", "direct:torchmetrics.text:BLEUScore", "torchmetrics", "bleu", "torchmetrics"),
    Impl("torchmetrics SacreBLEUScore", "direct:torchmetrics.text:SacreBLEUScore", "torchmetrics", "bleu",
         "torchmetrics"),
    Impl("torchmetrics CHRFScore", "direct:torchmetrics.text:CHRFScore", "torchmetrics", "chrf", "torchmetrics"),
    Impl("torchmetrics TranslationEditRate", "direct:torchmetrics.text:TranslationEditRate", "torchmetrics", "ter",
         "torchmetrics"),
    Impl("torchmetrics ROUGEScore (rouge1/2/L)", "direct:conformance.examples.thirdparty:torchmetrics_rouge",
         "torchmetrics", "rouge", "torchmetrics"),
    Impl("rouge-score RougeScorer (identity)", "direct:conformance.examples.thirdparty:rouge_score_scorer",
         "rouge-score", "rouge", "rouge_score"),
    Impl("rouge (pltrdy) 1.0.1", "direct:conformance.examples.thirdparty:pltrdy_rouge", "rouge-score", "rouge",
         "rouge"),
    Impl("py-rouge 1.1 (word_tokenize -> str.split)", "direct:conformance.examples.thirdparty:py_rouge",
         "rouge-score", "rouge", "nltk"),
    Impl("rouge-chinese 1.0.3", "direct:conformance.examples.thirdparty:rouge_chinese", "rouge-score", "rouge",
         "rouge_chinese"),
    Impl("sumeval 0.2.2 RougeCalculator", "direct:conformance.examples.thirdparty:Sumeval", "rouge-score", "rouge",
         "sumeval"),
    Impl("HF evaluate bleu 0.4.6", "direct:conformance.examples.thirdparty:hf_bleu,hf_bleu_sentence", "sacrebleu",
         "bleu", "evaluate"),
    Impl("HF evaluate google_bleu 0.4.6",
         "direct:conformance.examples.thirdparty:hf_google_bleu,hf_google_bleu_sentence", "sacrebleu", "gleu",
         "evaluate"),
    Impl("compare-mt BleuScorer", "direct:conformance.examples.thirdparty:compare_mt,compare_mt_sentence",
         "sacrebleu", "bleu", "compare_mt"),
    Impl("fast-bleu BLEU", "direct:conformance.examples.thirdparty:fast_bleu,fast_bleu_sentence", "sacrebleu",
         "bleu", "fast_bleu"),
    Impl("pyter3 ter", "direct:conformance.examples.thirdparty:pyter3,pyter3_sentence", "sacrebleu", "ter",
         "pyter"),
)

PRECISION = 1e-5


@dataclass
class Result:
    impl: Impl
    identification: identify.Identification
    report: runner.Report
    precision_failures: list[str]
    behaviour_failures: list[Any]
    causes: list[identify.Departure]
    unexplained: list[str]


def available(impl: Impl) -> bool:
    return importlib.util.find_spec(impl.needs) is not None


def run(impl: Impl) -> Result:
    warnings.filterwarnings("ignore")
    conn = connect.connect(impl.spec, impl.shape)
    conn.open()
    try:
        ident = identify.identify(conn, impl.metric)
        cases = suite.select(suite.Selection(impl.metric, [ident.profile] if ident.profile else None))
        report = runner.run_suite(conn, cases, factor=ident.factor)
    finally:
        conn.close()
    precision, behaviour = [], []
    for o in report.outcomes:
        if o.status not in ("failed", "errored"):
            continue
        if o.status == "failed" and o.diffs and all(_small(d) for d in o.diffs):
            precision.append(o.case.id)
        else:
            behaviour.append(o)
    causes, unexplained = identify.explain_failures(report.outcomes, impl.metric, ident.profile, ident.factor) \
        if ident.profile else ([], [])
    return Result(impl, ident, report, precision, behaviour, causes, unexplained)


def _small(diff: dict[str, Any]) -> bool:
    exp, got = diff.get("expected"), diff.get("got")
    if isinstance(exp, list) and isinstance(got, list) and len(exp) == len(got):
        return all(_rel(e, g) < PRECISION for e, g in zip(exp, got))
    if isinstance(exp, (int, float)) and isinstance(got, (int, float)):
        return _rel(exp, got) < PRECISION and "component" not in diff.get("difference", "")
    return False


def _rel(a: float, b: float) -> float:
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def markdown(result: Result, examples: int = 3) -> str:
    ident, report = result.identification, result.report
    lines = [f"### {result.impl.label}", "", f"`{result.impl.spec}` `--shape {result.impl.shape}` "
             f"`--metric {result.impl.metric}`", ""]
    scale = "" if ident.factor == 1 else f" (its scores x{ident.factor:g})"
    tied = f"; indistinguishable here from {', '.join(ident.tied)}" if ident.tied else ""
    lines.append(f"- identified as **{ident.metric}/{ident.profile}**{scale}{tied}")
    for d in ident.departures:
        lines.append(f"- departs on `{d.knob}={d.value!r}` (profile: `{d.profile_value!r}`): "
                     f"{len(d.cases)} case(s), e.g. `{d.cases[0]}`")
    for name, factor, deps in ident.alternatives:
        how = " + ".join(f"`{d.knob}={d.value!r}`" for d in deps) or "no knob change"
        lines.append(f"- equally explained as {ident.metric}/{name} + {how}")
    if ident.unexplained:
        lines.append(f"- {len(ident.unexplained)} identification case(s) no single knob explains, e.g. "
                     f"`{ident.unexplained[0]}`")
    if ident.strict_mismatch:
        lines.append(f"- {len(ident.strict_mismatch)} identification case(s) agree within 1e-6 but not 1e-9")
    lines.append(f"- suite {ident.metric}/{ident.profile}: {report.summary()}; "
                 f"{len(result.precision_failures)} failure(s) below 1e-5 relative (precision), "
                 f"{len(result.behaviour_failures)} larger")
    for d in result.causes:
        lines.append(f"  - suite failures reproduced by `{d.knob}={d.value!r}` (profile: `{d.profile_value!r}`): "
                     f"{len(d.cases)} case(s), e.g. `{d.cases[0]}`")
    if result.unexplained:
        lines.append(f"  - {len(result.unexplained)} sampled suite failure(s) no single knob reproduces, e.g.:")
    shown = [o for o in result.behaviour_failures if o.case.id in set(result.unexplained)] or result.behaviour_failures
    for o in shown[:examples]:
        detail = o.diffs[0]["difference"] if o.diffs else o.message
        lines.append(f"  - `{o.case.id}`: {detail[:160]}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="run implementations whose label contains this text")
    args = ap.parse_args()
    for impl in IMPLEMENTATIONS:
        if args.only and args.only.lower() not in impl.label.lower():
            continue
        if not available(impl):
            print(f"### {impl.label}\n\nnot installed ({impl.needs})\n")
            continue
        print(markdown(run(impl)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
