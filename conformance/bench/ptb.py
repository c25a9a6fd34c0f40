"""PTB tokenizer speed: assay's ``coco_tokenize_lines`` vs the CoreNLP 3.4.1 jar as pycocoevalcap runs it.

    python -m conformance.bench.ptb [--size 20000] [--corpus DIR] [--repeats 3] [--quick]

Captions: every caption of ../shared/corpora/thumb-mscoco (hyp.*.txt, ref*.txt; or ``$ASSAY_CORPORA``)
repeated and topped up with seeded generated captions (``conformance.regen.ptb.generate_captions``,
plain and hard) to at least ``--size``/``--captions``. The jar time is one full ``java ... PTBTokenizer
-preserveLines -lowerCase FILE`` run (JVM start-up included, as every pycocoevalcap call pays it) plus
the wrapper's post-processing; assay's time is one ``coco_tokenize_lines`` call in a fresh lexer (regex
compilation and an empty chunk cache included). Wall time, median of ``--repeats``, sides alternating.
Also shows the agreement of the outputs (the share of captions tokenised identically).
"""
from __future__ import annotations

import sys
from pathlib import Path

from assay.tokenizers import ptb

from conformance.bench.harness import Bench, Corpus, arguments, parse
from conformance.references import ptb_ref
from conformance.regen.ptb import generate_captions


def captions(n: int, corpus: Path | None) -> tuple[list[str], str]:
    base: list[str] = []
    if corpus is not None and (corpus / "thumb-mscoco").is_dir():
        for path in sorted((corpus / "thumb-mscoco").glob("*.txt")):
            if path.name.startswith(("hyp.", "ref")):
                base += path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    gen = generate_captions(11, n, hard=False) + generate_captions(12, n // 4, hard=True)
    caps = (base * 3 + gen)[:max(n, len(base) * 3)]
    return caps, f"{len(caps)} captions ({len(base)} corpus captions x3, rest generated)"


def fresh_assay(caps: list[str]) -> list[str]:
    ptb._LEXER = None  # pay the regex compilation and start with an empty cache, every repetition
    return ptb.coco_tokenize_lines(caps)


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=20000, unit="captions", quick=1000, repeats=3, size_aliases=("--captions",))
    args = parse(parser, argv)
    reason = ptb_ref.unavailable_reason()
    if reason:
        print(f"PTB jar unavailable: {reason}")
        return 1
    caps, what = captions(args.size, args.corpus if not args.quick else None)
    bench = Bench("PTB tokenizer: assay vs the CoreNLP 3.4.1 jar",
                  Corpus.of(what, len(caps), "captions", caps, counted="captions"),
                  repeats=args.repeats, memory=args.memory, tools=[f"{ptb_ref.JAR_NAME} (java)"])
    bench.compare("coco_tokenize_lines (cold) vs jar (JVM start-up + tokenise + wrapper filter)",
                  lambda: fresh_assay(caps), "PTBTokenizer jar", lambda: ptb_ref.wrapper_lines(caps),
                  children=True,
                  agree=lambda a, t: f"{sum(x == y for x, y in zip(a, t)) / len(caps):.5f} equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
