"""BLEU speed: assay vs the tools it reproduces, in one process, on one corpus (ratios, not absolute times).

    python conformance/bench_bleu.py [--corpus DIR] [--synthetic N] [--repeats 3] [--no-sentence]
    tox -e bench

Corpus: every system of ``wmt17-ende-sacrebleu`` in ``../shared/corpora`` (or ``$ASSAY_CORPORA``)
concatenated, each paired with the reference (16 x 3004 = 48,064 segments). When that folder is
absent, a synthetic corpus generated with a fixed seed (default 48,000 segments) stands in.

Timings (best of ``--repeats``; sacrebleu's tokenizer ``lru_cache`` is cleared before every run,
so neither side profits from a previous repetition):
- corpus BLEU: ``assay.score("bleu", hyps, [refs], profile="sacrebleu")`` vs
  ``sacrebleu.metrics.BLEU().corpus_score(hyps, [refs])`` (13a, exp);
- NLTK corpus BLEU on ``str.split`` tokens: ``assay.score(..., profile="nltk")`` vs
  ``nltk.translate.bleu_score.corpus_bleu`` (method0), both given the same token lists;
- sentence BLEU: ``assay.sentence_scores("bleu", ...)`` vs ``sacrebleu.sentence_bleu`` per segment.
Each line also prints the largest absolute score difference (the scores must agree).
"""
from __future__ import annotations

import argparse
import gc
import importlib
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
try:
    import assay
except ImportError:  # a checkout without an installed assay
    sys.path.insert(0, str(ROOT / "impl"))
    import assay

WMT17 = "wmt17-ende-sacrebleu"


# ----------------------------------------------------------------------------- corpora
def wmt17_corpus(corpora: Path) -> tuple[list[str], list[str], str] | None:
    folder = corpora / WMT17
    ref_path = folder / "newstest2017.en-de.ref.de"
    systems = sorted(folder.glob("newstest2017.*.en-de.hyp.de"))
    if not ref_path.is_file() or not systems:
        return None
    ref = _read_lines(ref_path)
    hyps: list[str] = []
    refs: list[str] = []
    for path in systems:
        lines = _read_lines(path)
        if len(lines) != len(ref):
            raise SystemExit(f"{path}: {len(lines)} lines, reference has {len(ref)}")
        hyps += lines
        refs += ref
    return hyps, refs, f"{WMT17}: {len(systems)} systems x {len(ref)} segments"


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


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


# ----------------------------------------------------------------------------- timing
def clear_sacrebleu_caches() -> None:
    """sacrebleu memoises tokenizer calls (``lru_cache(maxsize=2**16)``); start every run cold."""
    for name in list(sys.modules):
        if not name.startswith("sacrebleu.tokenizers"):
            continue
        for obj in vars(sys.modules[name]).values():
            if isinstance(obj, type):
                for attr in vars(obj).values():
                    if hasattr(attr, "cache_clear"):
                        attr.cache_clear()


def best_of(repeats: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeats):
        clear_sacrebleu_caches()
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def line(label: str, ours: float, tool: str, theirs: float, diff: float) -> str:
    ratio = theirs / ours if ours > 0 else float("inf")
    return (f"{label}: assay {ours:.2f}s, {tool} {theirs:.2f}s, ratio {ratio:.1f}x "
            f"(max abs score diff {diff:.3g})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path,
                        default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"),
                        help="folder holding wmt17-ende-sacrebleu/ (default ../shared/corpora or $ASSAY_CORPORA)")
    parser.add_argument("--synthetic", type=int, metavar="N", help="use a synthetic corpus of N segments")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs (default 3)")
    parser.add_argument("--no-sentence", action="store_true", help="skip the sentence-level comparison")
    parser.add_argument("--no-nltk", action="store_true", help="skip the NLTK comparison")
    args = parser.parse_args(argv)

    corpus = None if args.synthetic else wmt17_corpus(args.corpus)
    if corpus is None:
        corpus = synthetic_corpus(args.synthetic or 48000)
    hyps, refs, source = corpus
    if len(hyps) < 20000:
        print(f"warning: only {len(hyps)} segments (the benchmark is meant for >= 20,000)", file=sys.stderr)

    sacrebleu = importlib.import_module("sacrebleu")
    from sacrebleu.metrics import BLEU

    print(f"corpus: {source} ({len(hyps)} segments, {sum(len(h.split()) for h in hyps)} hypothesis words)")
    print(f"assay {assay.__version__} ({Path(assay.__file__).parent}); sacrebleu {sacrebleu.__version__}; "
          f"python {sys.version.split()[0]}; best of {args.repeats}, caches cleared before each run")

    # corpus BLEU, sacrebleu profile (13a, exp)
    t_ours, ours = best_of(args.repeats, lambda: assay.score("bleu", hyps, [refs], profile="sacrebleu"))
    t_sb, theirs = best_of(args.repeats, lambda: BLEU().corpus_score(hyps, [refs]))
    print(line("corpus BLEU (13a, exp)", t_ours, f"sacrebleu {sacrebleu.__version__}", t_sb,
               abs(ours.value - theirs.score)))
    print(f"    assay {ours.value:.6f}  sacrebleu {theirs.score:.6f}")

    # NLTK corpus BLEU (str.split tokens, method0)
    if not args.no_nltk:
        nltk = importlib.import_module("nltk")
        from nltk.translate.bleu_score import corpus_bleu
        hyp_toks = [h.split() for h in hyps]
        ref_toks = [r.split() for r in refs]
        nltk_refs = [[r] for r in ref_toks]
        t_ours_n, ours_n = best_of(args.repeats, lambda: assay.score("bleu", hyp_toks, [ref_toks], profile="nltk"))
        t_nltk, theirs_n = best_of(args.repeats, lambda: corpus_bleu(nltk_refs, hyp_toks))
        print(line("NLTK corpus BLEU (split, method0)", t_ours_n, f"nltk {nltk.__version__}", t_nltk,
                   abs(ours_n.value - theirs_n)))
        print(f"    assay {ours_n.value:.12f}  nltk {theirs_n:.12f}")

    # sentence BLEU for every segment
    if not args.no_sentence:
        t_ours_s, ours_s = best_of(args.repeats, lambda: assay.sentence_scores("bleu", hyps, [refs], profile="sacrebleu"))
        t_sb_s, theirs_s = best_of(
            args.repeats, lambda: [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)])
        diff = max(abs(a.value - b) for a, b in zip(ours_s, theirs_s))
        print(line(f"sentence BLEU ({len(hyps)} x sentence_bleu)", t_ours_s, f"sacrebleu {sacrebleu.__version__}",
                   t_sb_s, diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
