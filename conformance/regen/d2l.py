"""Regenerate fixtures/bleu/d2l_generated.json by running d2l's own ``bleu`` as a black box.

Nothing of d2l enters the repo: at run time the ``bleu`` function's source is cut out of a
d2l-ai/d2l-en snapshot file (``d2l/torch.py``, ``d2l/mxnet.py`` ...) with :mod:`ast` and
exec'd in a namespace holding only ``math`` and ``collections`` (no torch/mxnet import).
Only its outputs are recorded, with provenance (repo, commit, path, python version).

    PYTHONHASHSEED=0 python -m conformance.regen.d2l --source /path/to/d2l/torch.py \\
        --commit <40-hex> [--repo d2l-ai/d2l-en] [--path d2l/torch.py] [--seeds 81]

(or ``python -m conformance.regen d2l --d2l-source PATH --d2l-commit HASH``).

d2l calls ``bleu(pred_seq, label_seq, k)`` with two strings (it splits them on ' ' itself),
so each case is one segment pair (hyp, first reference) of ``generate_corpus(kind="tokenised")``.
"""
from __future__ import annotations

import argparse
import ast
import collections
import math
import os
import platform
import sys
from pathlib import Path
from typing import Any, Callable

from conformance.fixture_io import write_specs
from conformance.generate.corpus import generate_corpus

TOLERANCE = {"rel": 1e-9, "abs": 1e-15}
MAX_SEGMENTS = 4
DEFAULT_SEEDS = 81


def load_bleu(source: str | Path) -> Callable[[str, str, int], float]:
    """Extract ``def bleu`` from ``source`` with :mod:`ast` and exec only that function."""
    text = Path(source).read_text(encoding="utf-8")
    tree = ast.parse(text)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "bleu"]
    if len(defs) != 1:
        raise SystemExit(f"regen_d2l: expected one top-level 'def bleu' in {source}, found {len(defs)}")
    module = ast.Module(body=defs, type_ignores=[])
    namespace: dict[str, Any] = {"math": math, "collections": collections}
    exec(compile(module, f"<d2l bleu from {source}>", "exec"), namespace)
    return namespace["bleu"]


def _k_values(seed: int, i: int) -> list[int]:
    """k cycles over 1..4; about one segment in four also gets a k from 2..6."""
    ks = [1 + (seed + i) % 4]
    if (seed * 7 + i) % 4 == 0:
        extra = 2 + (seed // 4 + i) % 5
        if extra not in ks:
            ks.append(extra)
    return ks


def build_cases(bleu: Callable[[str, str, int], float], version: str, path: str,
                seeds: int = DEFAULT_SEEDS) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for seed in range(seeds):
        corpus = generate_corpus(seed, max_segments=MAX_SEGMENTS, max_refs=1, kind="tokenised")
        for i, (hyp, ref) in enumerate(zip(corpus["hyps"], corpus["refs"][0])):
            for k in _k_values(seed, i):
                expected: dict[str, Any] = {
                    "tool": "d2l bleu", "version": version,
                    "command": f"bleu(pred, label, k={k}) from {path} (extracted with ast)",
                }
                try:
                    expected["score"] = [bleu(hyp, ref, k)]
                except Exception as exc:  # the tool's own failure is the expected outcome
                    expected["error"] = type(exc).__name__
                expected["tolerance"] = dict(TOLERANCE)
                cases.append({
                    "id": f"d2l/gen-{seed:04d}-{i}-k{k}",
                    "note": f"generate_corpus({seed}, max_segments={MAX_SEGMENTS}, max_refs=1, "
                            f"kind='tokenised') segment {i}: (hyp, ref) through d2l's bleu with k={k}",
                    "profile": "d2l",
                    "knobs": {"max_ngram_order": k},
                    "level": "sentence",
                    "hyps": [hyp],
                    "refs": [[ref]],
                    "expected": [expected],
                })
    return cases


def build_fixtures(source: str | Path, commit: str, repo: str = "d2l-ai/d2l-en",
                   path: str = "d2l/torch.py", seeds: int = DEFAULT_SEEDS) -> list[dict[str, Any]]:
    """Fixture specs (``metric``, ``family``, ``cases``, ``description``, ``generated_by``)."""
    bleu = load_bleu(source)
    version = f"{repo}@{commit[:12]}"
    cases = build_cases(bleu, version, path, seeds)
    description = (f"Generated single-segment cases scored by d2l's bleu(pred_seq, label_seq, k) "
                   f"({repo}@{commit[:12]}:{path}), run as a black box; inputs from "
                   f"conformance/generate.py (kind='tokenised', seeds 0..{seeds - 1}, first reference).")
    generated_by = {
        "command": f"python -m conformance.regen_d2l --source <snapshot>/{path} --commit {commit} "
                   f"--repo {repo} --path {path} --seeds {seeds}",
        "python": platform.python_version(),
        "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED"),
        "tools": {"d2l": f"{repo}@{commit}"},
        "repo": repo, "commit": commit, "path": path,
        "provenance": "bleu() extracted from the snapshot file with ast and exec'd with math and "
                      "collections only; the d2l source is not stored in this repository",
    }
    return [{"metric": "bleu", "family": "d2l_generated", "cases": cases,
             "description": description, "generated_by": generated_by}]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True, help="path to a d2l file defining bleu()")
    parser.add_argument("--commit", required=True, help="commit of the d2l snapshot (40 hex)")
    parser.add_argument("--repo", default="d2l-ai/d2l-en")
    parser.add_argument("--path", default="d2l/torch.py", help="the file's path inside the repo")
    parser.add_argument("--seeds", type=int, default=DEFAULT_SEEDS)
    args = parser.parse_args(argv)
    write_specs(build_fixtures(args.source, args.commit, args.repo, args.path, args.seeds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
