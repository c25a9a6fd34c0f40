"""meteor/meteor-1.5 vs the METEOR 1.5 jar on the real corpora in ../shared/corpora.

    PYTHONPATH=impl:. python conformance/bench_meteor15.py [--max-segments N] [--corpus NAME ...]

For every corpus (English-target sets): one jar process scores the whole corpus over ``-stdio``
(as pycocoevalcap), timed including its start-up, and assay scores it; prints the wall times, the
ratio, the share of segments whose score equals the jar's printed number (and within 1e-12) and both
corpus scores. Nothing of the corpora is written anywhere. Needs java and pycocoevalcap's jar.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"


def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


def corpora(root: Path = CORPORA) -> Iterator[tuple[str, list[str], list[list[str]]]]:
    """(name, hyps, refs per segment) of every English-target corpus present under ``root``."""
    t = root / "thumb-mscoco"
    if t.is_dir():
        refs = [_lines(t / f"ref{k}.txt") for k in range(1, 5)]
        for hyp in sorted(t.glob("hyp.*.txt")):
            yield f"thumb-mscoco/{hyp.stem[4:]}", _lines(hyp), [list(r) for r in zip(*refs)]
    d = root / "dart-test"
    if d.is_dir():
        refs = [_lines(d / f"ref{k}.txt") for k in range(1, 4)]
        yield "dart-test", _lines(d / "hyp.bart-large.txt"), [list(r) for r in zip(*refs)]
    m = root / "meteor-example"
    if m.is_dir():
        yield "meteor-example/newstest2009", _lines(m / "newstest2009.cmu-combo.hyp.txt"), \
            [[r] for r in _lines(m / "newstest2009.ref.txt")]
        for k in (1, 2):
            yield f"meteor-example/xray.system{k}", _lines(m / f"xray.system{k}.hyp.txt"), \
                [[r] for r in _lines(m / "xray.reference.txt")]
    c = root / "clipscore-example"
    if c.is_dir():
        refs_map = json.loads((c / "refs.json").read_text(encoding="utf-8"))
        for name in ("good_captions", "bad_captions"):
            hyp_map = json.loads((c / f"{name}.json").read_text(encoding="utf-8"))
            keys = sorted(hyp_map)
            yield f"clipscore-example/{name}", [hyp_map[k] for k in keys], [list(refs_map[k]) for k in keys]
    w = root / "wmt22-general"
    for pair in ("de-en", "zh-en"):
        base = w / pair
        if base.is_dir():
            refs = [_lines(base / f"generaltest2022.{pair}.ref.{x}.en") for x in "AB"]
            for hyp in sorted(base.glob(f"generaltest2022.{pair}.hyp.*.en")):
                yield f"wmt22/{pair}/{hyp.name.split('.hyp.')[1][:-3]}", _lines(hyp), [list(r) for r in zip(*refs)]


def jar_scores(hyps: list[str], refs: list[list[str]]) -> tuple[list[float], float, float]:
    from conformance.references.meteor15_ref import Meteor15
    t0 = time.perf_counter()
    with Meteor15() as jar:
        seg, corpus, _ = jar.score_corpus(hyps, refs)
    return seg, corpus, time.perf_counter() - t0


def assay_scores(hyps: list[str], refs: list[list[str]]) -> tuple[list[float], float, float]:
    from assay.engine.api import compute_stats
    from assay.metrics.meteor.family import FAMILY
    nref = max(len(r) for r in refs)
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(nref)]
    t0 = time.perf_counter()
    stats, config, _, _ = compute_stats("meteor", hyps, streams, "meteor-1.5")
    seg = [float(r[-1]) for r in stats.rows]
    corpus = FAMILY.score_stats(stats, config)[0]
    return seg, corpus, time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--max-segments", type=int, default=0)
    ap.add_argument("--corpus", nargs="*", default=None, help="substrings of corpus names to run")
    ap.add_argument("--show", type=int, default=0, help="print up to N differing segments per corpus")
    args = ap.parse_args(argv)
    tot_a = tot_j = 0.0
    n_all = 0
    for name, hyps, refs in corpora():
        if args.corpus and not any(c in name for c in args.corpus):
            continue
        if args.max_segments:
            hyps, refs = hyps[:args.max_segments], refs[:args.max_segments]
        js, jc, jt = jar_scores(hyps, refs)
        a_s, ac, at = assay_scores(hyps, refs)
        exact = sum(1 for x, y in zip(a_s, js) if x == y)
        close = sum(1 for x, y in zip(a_s, js) if abs(x - y) <= 1e-12)
        tot_a += at
        tot_j += jt
        n_all += len(hyps)
        print(f"{name:40s} n={len(hyps):5d} equal={exact / len(hyps):7.2%} within1e-12={close / len(hyps):7.2%} "
              f"corpus jar={jc:.6f} assay={ac:.6f} {'OK' if round(jc, 4) == round(ac, 4) else 'DIFF'} "
              f"jar={jt:.1f}s assay={at:.1f}s", flush=True)
        shown = 0
        for i, (x, y) in enumerate(zip(a_s, js)):
            if abs(x - y) > 1e-12 and shown < args.show:
                shown += 1
                print(f"   seg {i}: jar {y} assay {x}\n     H: {hyps[i]}\n     R: {refs[i]}")
    if n_all:
        print(f"total segments {n_all}: assay {tot_a:.1f}s, jar {tot_j:.1f}s (incl. JVM start-up): "
              f"assay/jar speed ratio {tot_j / tot_a:.2f}x")
    return 0


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "impl"), str(ROOT)]
    sys.exit(main())
