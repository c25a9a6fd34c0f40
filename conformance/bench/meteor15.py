"""meteor/meteor-1.5 vs the METEOR 1.5 jar on the real corpora in ../shared/corpora.

    python -m conformance.bench.meteor15 [--size N] [--corpus NAME ...] [--corpora DIR] [--show N] [--quick]

For every corpus (English-target sets): one jar process scores the whole corpus over ``-stdio``
(as pycocoevalcap), timed including its start-up, and assay scores it; one row per corpus with the
wall times (one run each: ``--repeats``), the ratio, the share of segments whose score equals the
jar's printed number (and within 1e-12) and both corpus scores; then the totals. ``--size N`` keeps
the first N segments of each corpus. Nothing of the corpora is written anywhere. Needs java and
pycocoevalcap's jar.

``--warm``: instead, one row for all chosen corpora together against a WARM jar (as pycocoevalcap
keeps one ``Meteor()`` for a whole evaluation): one jar process is started and its paraphrase table
loaded and JIT warmed on ``--warm-up`` generated segments (conformance/regen/meteor.py's generator,
none of them in the timed set) before timing, and assay loads its resources on the same segments;
then both score the whole concatenation once (wall time; the jar's time includes the line protocol).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Iterator

from conformance.bench.harness import Bench, Corpus, arguments, parse, text_bytes
from conformance.paths import corpora_dir

CORPORA = corpora_dir()


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


def agreement(ours: tuple[list[float], float, float], jar: tuple[list[float], float, float]) -> str:
    """Share of segment scores equal to the jar's, share within 1e-12, and whether the corpus scores agree."""
    a_s, j_s = ours[0], jar[0]
    exact = sum(1 for x, y in zip(a_s, j_s) if x == y) / len(a_s)
    close = sum(1 for x, y in zip(a_s, j_s) if abs(x - y) <= 1e-12) / len(a_s)
    same = "OK" if round(jar[1], 4) == round(ours[1], 4) else "DIFF"
    return f"{exact:.2%} eq, {close:.2%} 1e-12, {same}"


def warm_row(bench: Bench, chosen: list[tuple[str, list[str], list[list[str]]]], warm_up: int) -> None:
    """All ``chosen`` corpora as one corpus, against one jar process started and warmed before timing."""
    from conformance.references.meteor15_ref import Meteor15
    from conformance.regen.meteor import generate_pairs
    hyps = [h for _, hs, _ in chosen for h in hs]
    refs = [r for _, _, rs in chosen for r in rs]
    w_hyps, w_streams = generate_pairs(7001, warm_up, 2)
    w_refs = [[r for r in seg if r is not None] for seg in zip(*w_streams)]
    with Meteor15() as jar:
        jar.score_corpus(w_hyps, w_refs)      # JVM start-up, paraphrase table, JIT: not timed
        assay_scores(w_hyps, w_refs)          # assay's resources and indexes: not timed
        row = bench.compare(f"{len(chosen)} corpora together, warm (n={len(hyps)})", lambda: assay_scores(hyps, refs),
                            "METEOR 1.5 jar (warm)", lambda: jar.score_corpus(hyps, refs), agree=agreement,
                            input_bytes=text_bytes(hyps, refs))
    (_, ac, _), (_, jc, _) = row.assay.result, row.tool.result
    bench.note(f"corpus jar={jc:.6f} assay={ac:.6f}; both sides warmed on {warm_up} generated segments first")


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=0, unit="segments per corpus", quick=100, repeats=1,
                       size_aliases=("--max-segments",), corpus=False)
    parser.add_argument("--corpus", nargs="*", default=None, help="substrings of corpus names to run")
    parser.add_argument("--corpora", type=Path, default=CORPORA,
                        help="folder of the real corpora (default ../shared/corpora or $ASSAY_CORPORA)")
    parser.add_argument("--show", type=int, default=0, help="print up to N differing segments per corpus")
    parser.add_argument("--warm", action="store_true",
                        help="one row for all chosen corpora together, against a jar started and warmed beforehand")
    parser.add_argument("--warm-up", type=int, default=500, metavar="N",
                        help="generated segments each side scores before timing in --warm (default 500)")
    args = parse(parser, argv)
    chosen = [(name, hyps[:args.size] if args.size else hyps, refs[:args.size] if args.size else refs)
              for name, hyps, refs in corpora(args.corpora)
              if not args.corpus or any(c in name for c in args.corpus)]
    n_all = sum(len(h) for _, h, _ in chosen)
    bench = Bench("METEOR 1.5: assay meteor/meteor-1.5 vs the jar, per corpus",
                  Corpus(f"{len(chosen)} English-target corpora of {args.corpora}", n_all, "segments",
                         text_bytes([(h, r) for _, h, r in chosen])),
                  repeats=args.repeats, memory=args.memory, tools=["meteor-1.5.jar (java, pycocoevalcap 1.2)"],
                  notes=["agreement: share of segment scores equal to the jar's printed number, share within 1e-12, "
                         "corpus scores equal to 4 decimals (OK/DIFF)"])
    if args.warm:
        warm_row(bench, chosen, args.warm_up)
        return 0
    tot_a = tot_j = 0.0
    for name, hyps, refs in chosen:
        row = bench.compare(f"{name} (n={len(hyps)})", lambda: assay_scores(hyps, refs), "METEOR 1.5 jar",
                            lambda: jar_scores(hyps, refs), children=True, agree=agreement,
                            input_bytes=text_bytes(hyps, refs))
        (a_s, ac, _), (js, jc, _) = row.assay.result, row.tool.result
        bench.note(f"corpus jar={jc:.6f} assay={ac:.6f}")
        tot_a += row.assay.median
        tot_j += row.tool.median
        shown = 0
        for i, (x, y) in enumerate(zip(a_s, js)):
            if abs(x - y) > 1e-12 and shown < args.show:
                shown += 1
                bench.note(f"seg {i}: jar {y} assay {x}\n     H: {hyps[i]}\n     R: {refs[i]}")
    if n_all:
        bench.derived(f"total ({n_all} segments; the jar incl. JVM start-up)", tot_a, "METEOR 1.5 jar", tot_j)
    return 0


if __name__ == "__main__":
    sys.exit(main())
