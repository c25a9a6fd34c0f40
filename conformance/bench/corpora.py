"""Inputs several benchmarks share: the WMT17 en-de systems of ``../shared/corpora`` and a synthetic stand-in.

``wmt17-ende-sacrebleu`` holds 16 system outputs of newstest2017 en-de (3004 segments each) and the
reference. When the folder is absent, :func:`synthetic_corpus` (Zipfian vocabulary, edited copies as
hypotheses, fixed seed) stands in.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from conformance.bench.harness import Corpus, arguments

WMT17 = "wmt17-ende-sacrebleu"


def read_lines(path: Path) -> list[str]:
    """The lines of a UTF-8 file whose every line ends in a newline."""
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def wmt17_systems(corpora: Path) -> tuple[list[tuple[str, list[str]]], list[str]] | None:
    """``([(file name, lines) per system, in name order], reference lines)``, or None when absent."""
    folder = corpora / WMT17
    ref_path = folder / "newstest2017.en-de.ref.de"
    paths = sorted(folder.glob("newstest2017.*.en-de.hyp.de"))
    if not ref_path.is_file() or not paths:
        return None
    ref = read_lines(ref_path)
    systems = [(p.name, read_lines(p)) for p in paths]
    for name, lines in systems:
        if len(lines) != len(ref):
            raise SystemExit(f"{folder / name}: {len(lines)} lines, reference has {len(ref)}")
    return systems, ref


def wmt17_corpus(corpora: Path, limit: int | None = None) -> tuple[list[str], list[str], str] | None:
    """Every system concatenated, each paired with the reference (16 x 3004 = 48,064 segments);
    with ``limit``, the first ``limit`` segments of that concatenation. A ``limit`` beyond 48,064
    (the 100k and 1M benchmarks) repeats the concatenation; copy k >= 1 appends the word ``rK`` to
    every hypothesis and reference, so every segment of the corpus stays distinct (no tool's
    tokenizer cache sees a repeat)."""
    found = wmt17_systems(corpora)
    if found is None:
        return None
    systems, ref = found
    hyps: list[str] = []
    used = 0
    for _, lines in systems:
        if limit is not None and len(hyps) >= limit:
            break
        hyps += lines
        used += 1
    refs = ref * used
    if limit is not None and limit > len(hyps):
        base_h, base_r = hyps, refs
        copies = -(-limit // len(base_h))
        hyps, refs = list(base_h), list(base_r)
        for k in range(1, copies):
            hyps += [f"{h} r{k}" for h in base_h]
            refs += [f"{r} r{k}" for r in base_r]
        return (hyps[:limit], refs[:limit],
                f"{WMT17}: {limit} segments ({used} systems x {len(ref)} segments, repeated {copies} times, "
                "copy k marked by a final word rK)")
    if limit is not None and limit < len(hyps):
        return hyps[:limit], refs[:limit], f"{WMT17}: first {limit} segments ({used} system{'s' * (used != 1)})"
    return hyps, refs, f"{WMT17}: {used} systems x {len(ref)} segments"


def synthetic_corpus(n: int, seed: int = 20240601) -> tuple[list[str], list[str], str]:
    """Reference-like sentences over a Zipfian vocabulary; hypotheses are edited copies."""
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocab = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(8000)})
    vocab = [w.capitalize() if i % 17 == 0 else w for i, w in enumerate(vocab)]
    weights = [1.0 / (i + 1) for i in range(len(vocab))]
    punct = [",", ".", "!", "?", ";", ":", "(", ")", "\"", "-", "'s", "1,000", "3.5", "2019"]
    hyps, refs = [], []
    for _ in range(n):
        length = rng.randint(4, 45)
        ref = rng.choices(vocab, weights=weights, k=length)
        for _ in range(rng.randint(0, 3)):
            ref.insert(rng.randrange(len(ref) + 1), rng.choice(punct))
        hyp = list(ref)
        for _ in range(rng.randint(0, max(1, len(hyp) // 3))):
            op = rng.random()
            pos = rng.randrange(len(hyp)) if hyp else 0
            if op < 0.35 and hyp:
                hyp[pos] = rng.choices(vocab, weights=weights)[0]
            elif op < 0.6 and hyp:
                del hyp[pos]
            elif op < 0.8 and len(hyp) > 1:
                j = rng.randrange(len(hyp))
                hyp[pos], hyp[j] = hyp[j], hyp[pos]
            else:
                hyp.insert(pos, rng.choices(vocab, weights=weights)[0])
        refs.append(_join(ref))
        hyps.append(_join(hyp))
    return hyps, refs, f"synthetic (seed {seed}): {n} segments"


def _join(tokens: list[str]) -> str:
    text = " ".join(tokens)
    for p in (",", ".", "!", "?", ";", ":", ")", "'s"):
        text = text.replace(" " + p, p)
    return text.replace("( ", "(") + "."


def mt_corpus(corpora: Path, size: int, synthetic: int | None = None) -> tuple[list[str], list[str], str]:
    """The WMT17 segments (the first ``size``), or ``synthetic`` (else ``size``) synthetic ones."""
    found = None if synthetic else wmt17_corpus(corpora, size)
    return found if found is not None else synthetic_corpus(synthetic or size)


def mt_arguments(doc: str | None, *, size: int, quick: int, repeats: int) -> argparse.ArgumentParser:
    """The shared options plus ``--synthetic N``, for the benches scoring WMT17 segments."""
    parser = arguments(doc, size=size, unit="segments", quick=quick, repeats=repeats, size_aliases=("--segments",))
    parser.add_argument("--synthetic", type=int, metavar="N", help="use a synthetic corpus of N segments")
    return parser


def load_mt(args: argparse.Namespace, count: str = "words") -> tuple[list[str], list[str], Corpus]:
    """Hypotheses, references and their :class:`Corpus` for :func:`mt_arguments`' options (warns below
    20,000 segments, the size these benches are meant for); ``count``: ``words`` or ``characters``."""
    hyps, refs, source = mt_corpus(args.corpus, args.size, args.synthetic)
    if len(hyps) < 20000 and not args.quick:
        print(f"warning: only {len(hyps)} segments (the benchmark is meant for >= 20,000)", file=sys.stderr)
    amount = sum(map(len, hyps)) if count == "characters" else sum(len(h.split()) for h in hyps)
    return hyps, refs, Corpus.of(f"{source}, {amount:,} hypothesis {count}", len(hyps), "segments", hyps, refs)
