"""Build fixtures/significance/*.json from live sacrebleu 2.x (paired bootstrap, paired AR, --confidence).

    PYTHONHASHSEED=0 python -m conformance.regen.significance [--only bs|ar|confidence]
    PYTHONHASHSEED=0 python -m conformance.regen significance          # every test type

Inputs are generated here (``significance_corpus``: reference streams plus systems derived from
them with different edit rates, from conformance/generate/corpus.py's word lists), never real corpora.
Every case stores the systems, the references, the metrics (assay profile + knobs, and the
sacrebleu constructor arguments they correspond to), the sample count and the seed (the
``SACREBLEU_SEED`` text, or null = unset = 12345), and sacrebleu's answer: full-precision
results from its Python API plus the text (and JSON, where sacrebleu can print it) of its CLI.

These files are not score fixtures: conformance/tests/engine/test_golden.py skips the ``significance``
folder; conformance/tests/significance/test_significance_golden.py reads them.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
from typing import Any

from conformance.fixture_io import write_specs
from conformance.generate import corpus as gen
from conformance.references import significance_ref as ref

METRIC = "significance"


def significance_corpus(seed: int, n_segments: int, n_systems: int, n_refs: int = 1, kind: str = "mixed",
                        copies: bool = False) -> dict[str, Any]:
    """Reference streams and ``n_systems`` outputs (the first is the baseline) of one generated corpus.

    Systems edit the first reference at different rates; with ``copies`` the last system is the
    baseline itself and the one before it differs from the baseline in two segments only (ties
    and near-ties are where strict comparisons show).
    """
    rng = random.Random(seed)
    vocab = gen._vocabulary(rng, kind)
    base_refs = [[rng.choice(vocab) for _ in range(gen._length(rng))] for _ in range(n_segments)]
    streams = [base_refs] + [[gen._edit(rng, r, rng.choice([0.1, 0.2, 0.3]), vocab) for r in base_refs]
                             for _ in range(n_refs - 1)]
    rates = [rng.choice([0.05, 0.1, 0.2, 0.3, 0.45, 0.6]) for _ in range(n_systems)]
    systems = []
    for k in range(n_systems):
        hyps = [[] if rng.random() < 0.03 else gen._edit(rng, r, rates[k], vocab) for r in base_refs]
        systems.append([gen._render(rng, h, kind) for h in hyps])
    if copies and n_systems >= 3:
        systems[-1] = list(systems[0])
        near = list(systems[0])
        for i in rng.sample(range(n_segments), min(2, n_segments)):
            near[i] = systems[1][i]
        systems[-2] = near
    names = ["baseline"] + [f"sys{k}" for k in range(1, n_systems)]
    if copies and n_systems >= 3:
        names[-1], names[-2] = "copy", "near"
    return {"systems": list(zip(names, systems)),
            "refs": [[gen._render(rng, r, kind) for r in s] for s in streams]}


# metric sets: (assay metric, assay profile, knobs); sacrebleu arguments have the same names
METRIC_SETS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "bleu": [("bleu", "sacrebleu", {})],
    "chrf": [("chrf", "sacrebleu", {})],
    "ter": [("ter", "sacrebleu", {})],
    "all": [("bleu", "sacrebleu", {}), ("chrf", "sacrebleu", {}), ("ter", "sacrebleu", {})],
    "bleu-intl-floor": [("bleu", "sacrebleu", {"tokenize": "intl", "smooth_method": "floor"})],
    "bleu-lc-addk": [("bleu", "sacrebleu", {"lowercase": True, "smooth_method": "add-k", "smooth_value": 1})],
    "chrf++": [("chrf", "sacrebleu", {"word_order": 2})],
    "chrf-eps-beta1": [("chrf", "sacrebleu", {"eps_smoothing": True, "beta": 1})],
    "ter-cased-nopunct": [("ter", "sacrebleu", {"case_sensitive": True, "no_punct": True, "normalized": True})],
}

# (id, test, metric set, corpus seed, segments, systems, refs, kind, n_samples, seed text or None, copies)
CASES: list[tuple] = [
    ("bs/bleu/ascii", "bs", "bleu", 101, 60, 4, 1, "ascii", 1000, None, True),
    ("bs/bleu/mixed-2refs", "bs", "bleu", 102, 45, 3, 2, "mixed", 1000, "7", False),
    ("bs/bleu/seed-spaces", "bs", "bleu", 103, 30, 3, 1, "tokenised", 300, " 42", False),
    ("bs/bleu-intl-floor", "bs", "bleu-intl-floor", 104, 40, 3, 1, "mixed", 500, None, False),
    ("bs/bleu-lc-addk", "bs", "bleu-lc-addk", 105, 40, 3, 1, "ascii", 500, "1_000", False),
    ("bs/chrf/mixed", "bs", "chrf", 111, 50, 4, 1, "mixed", 1000, None, True),
    ("bs/chrf/3refs", "bs", "chrf", 112, 30, 3, 3, "mixed", 400, "99", False),
    ("bs/chrf++", "bs", "chrf++", 113, 40, 3, 1, "ascii", 500, None, False),
    ("bs/chrf-eps", "bs", "chrf-eps-beta1", 114, 40, 3, 2, "tokenised", 500, None, False),
    ("bs/ter/ascii", "bs", "ter", 121, 50, 4, 1, "ascii", 1000, None, True),
    ("bs/ter/3refs", "bs", "ter", 122, 30, 3, 3, "mixed", 400, "5", False),
    ("bs/ter-cased", "bs", "ter-cased-nopunct", 123, 30, 3, 1, "mixed", 300, None, False),
    ("bs/all/mixed", "bs", "all", 131, 40, 3, 2, "mixed", 300, None, False),
    ("bs/all/one-segment", "bs", "all", 132, 1, 3, 1, "ascii", 50, None, False),
    ("ar/bleu/ascii", "ar", "bleu", 201, 60, 4, 1, "ascii", 10000, None, True),
    ("ar/bleu/2refs", "ar", "bleu", 202, 40, 3, 2, "mixed", 2000, "3", False),
    ("ar/chrf/mixed", "ar", "chrf", 211, 50, 4, 1, "mixed", 10000, None, True),
    ("ar/chrf++", "ar", "chrf++", 212, 30, 3, 2, "tokenised", 1000, "11", False),
    ("ar/ter/ascii", "ar", "ter", 221, 50, 4, 1, "ascii", 10000, None, True),
    ("ar/ter/3refs", "ar", "ter", 222, 30, 3, 3, "mixed", 1000, None, False),
    ("ar/all/mixed", "ar", "all", 231, 30, 3, 1, "mixed", 1000, "2024", False),
    ("confidence/bleu", "confidence", "bleu", 301, 60, 1, 1, "mixed", 1000, None, False),
    ("confidence/bleu-2refs-seed", "confidence", "bleu", 302, 40, 1, 2, "ascii", 200, "17", False),
    ("confidence/chrf", "confidence", "chrf", 311, 50, 1, 1, "mixed", 1000, None, False),
    ("confidence/chrf++-eps", "confidence", "chrf-eps-beta1", 312, 30, 1, 3, "tokenised", 300, None, False),
    ("confidence/ter", "confidence", "ter", 321, 50, 1, 1, "ascii", 1000, None, False),
    ("confidence/ter-3refs", "confidence", "ter", 322, 30, 1, 3, "mixed", 250, "8", False),
    ("confidence/all", "confidence", "all", 331, 40, 1, 2, "mixed", 500, None, False),
]


# hand-written degenerate corpora: empty hypotheses / references make some resamples take the
# tools' Python-float branches (chrF with no effective order, TER with no reference length)
DEGENERATE = {
    "empty-lines": {"systems": [("baseline", ["", "the cat sat on the mat", "a dog runs", ""]),
                                ("sys1", ["the cat", "the cat sat on a mat", "", "big red house"])],
                    "refs": [["a dog", "the cat sat on the mat", "a dog runs quickly", ""]]},
}
CUSTOM_CASES: list[tuple[str, str, str, str, int, Any]] = [
    # (id, test, metric set, corpus, n_samples, seed)
    ("confidence/chrf-python-float-mix", "confidence", "chrf", "empty-lines", 200, None),
    ("confidence/ter-python-float-mix", "confidence", "ter", "empty-lines", 200, None),
    ("bs/chrf-ter-degenerate", "bs", "all", "empty-lines", 300, None),
    ("ar/chrf-ter-degenerate", "ar", "all", "empty-lines", 300, None),
]


def build_case(case: tuple) -> dict[str, Any]:
    if len(case) == 6:
        cid, test, mset, name, n, seed = case
        corpus = {"systems": [(nm, list(h)) for nm, h in DEGENERATE[name]["systems"]],
                  "refs": [list(r) for r in DEGENERATE[name]["refs"]]}
        if test == "confidence":
            corpus["systems"] = corpus["systems"][1:]
        note = f"hand-written corpus {name!r}"
    else:
        cid, test, mset, cseed, n_seg, n_sys, n_refs, kind, n, seed, copies = case
        corpus = significance_corpus(cseed, n_seg, n_sys, n_refs, kind, copies)
        note = (f"generated corpus seed {cseed} ({kind}, {n_seg} segments, {n_refs} reference(s))"
                + ("; includes an exact copy of the baseline and a near copy" if copies else ""))
    metrics = METRIC_SETS[mset]
    tool_metrics = [(m, dict(k)) for m, _, k in metrics]
    if test == "confidence":
        name, hyps = corpus["systems"][0]
        expected = ref.confidence(tool_metrics, hyps, corpus["refs"], n, seed)
        systems = [{"name": "system.txt", "hyps": hyps}]
    else:
        expected = ref.paired(test, tool_metrics, corpus["systems"], corpus["refs"], n, seed)
        systems = [{"name": nm, "hyps": h} for nm, h in corpus["systems"]]
    return {"id": cid, "test": test, "note": note,
            "metrics": [{"metric": m, "profile": p, "knobs": k} for m, p, k in metrics],
            "systems": systems, "refs": corpus["refs"], "n_samples": n, "seed": seed,
            "expected": [expected]}


def build_fixtures(only: str | None = None) -> list[dict[str, Any]]:
    """One fixture file per test type."""
    specs = []
    for test in ("bs", "ar", "confidence"):
        if only and test != only:
            continue
        cases = [build_case(c) for c in CASES + CUSTOM_CASES if c[1] == test]
        specs.append({"metric": METRIC, "family": f"sacrebleu_{test}", "cases": cases,
                      "description": f"sacrebleu {ref.version()} "
                                     + {"bs": "--paired-bs", "ar": "--paired-ar", "confidence": "--confidence"}[test]
                                     + " on generated systems: API numbers and CLI text per case",
                      "generated_by": {"command": "PYTHONHASHSEED=0 python conformance/regen_significance.py",
                                       "python": platform.python_version(), "PYTHONHASHSEED": "0",
                                       "tools": {"sacrebleu": ref.version()},
                                       "provenance": "conformance/references/significance_ref.py (PairedTest, "
                                                     "corpus_score(n_bootstrap), CLI -f text/json)"}})
    return specs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("bs", "ar", "confidence"))
    args = parser.parse_args(argv)
    write_specs(build_fixtures(args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
