"""PTB tokenizer speed: assay's ``coco_tokenize_lines`` vs the CoreNLP 3.4.1 jar as pycocoevalcap runs it.

    python conformance/bench_ptb.py [--captions 20000] [--corpus DIR] [--repeats 3]

Captions: every caption of ../shared/corpora/thumb-mscoco (hyp.*.txt, ref*.txt; or ``$ASSAY_CORPORA``)
repeated and topped up with seeded generated captions (``regen_ptb.generate_captions``, plain and
hard) to at least ``--captions``. The jar time is one full ``java ... PTBTokenizer -preserveLines
-lowerCase FILE`` run (JVM start-up included, as every pycocoevalcap call pays it) plus the wrapper's
post-processing; assay's time is one ``coco_tokenize_lines`` call in a fresh lexer (regex compilation
and an empty chunk cache included). Best of ``--repeats``. Also prints the agreement of the outputs.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "impl")):
    if p not in sys.path:
        sys.path.insert(0, p)

from assay.tokenizers import ptb  # noqa: E402
from conformance.references import ptb_ref  # noqa: E402
from conformance.regen_ptb import generate_captions  # noqa: E402


def captions(n: int, corpus: Path | None) -> tuple[list[str], str]:
    base: list[str] = []
    if corpus is not None and (corpus / "thumb-mscoco").is_dir():
        for path in sorted((corpus / "thumb-mscoco").glob("*.txt")):
            if path.name.startswith(("hyp.", "ref")):
                base += path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    gen = generate_captions(11, n, hard=False) + generate_captions(12, n // 4, hard=True)
    caps = (base * 3 + gen)[:max(n, len(base) * 3)]
    return caps, f"{len(caps)} captions ({len(base)} corpus captions x3, rest generated)"


def best(fn, repeats: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def fresh_assay(caps: list[str]) -> list[str]:
    ptb._LEXER = None  # pay the regex compilation and start with an empty cache, every repetition
    return ptb.coco_tokenize_lines(caps)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--captions", type=int, default=20000)
    ap.add_argument("--corpus", type=Path, default=Path(os.environ.get("ASSAY_CORPORA") or ROOT.parent / "shared" / "corpora"))
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    reason = ptb_ref.unavailable_reason()
    if reason:
        print(f"PTB jar unavailable: {reason}")
        return 1
    caps, what = captions(args.captions, args.corpus)
    print(f"PTB tokenizer, {what}")
    t_jar, jar_out = best(lambda: ptb_ref.wrapper_lines(caps), args.repeats)
    t_ours, ours = best(lambda: fresh_assay(caps), args.repeats)
    agree = sum(a == b for a, b in zip(jar_out, ours)) / len(caps)  # type: ignore[arg-type]
    print(f"  jar (JVM start-up + tokenise + wrapper filter): {t_jar:8.3f} s")
    print(f"  assay coco_tokenize_lines (cold):               {t_ours:8.3f} s")
    print(f"  speed-up: {t_jar / t_ours:5.2f}x   agreement: {agree:.5f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
