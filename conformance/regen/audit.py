"""Freeze the audit's golden data from the live tools: fixtures/audit/signatures.json and claims.json.

    PYTHONHASHSEED=0 python -m conformance.regen audit [--legacy-python /tmp/legacyvenv/bin/python]

- signatures.json: signature strings exactly as sacrebleu prints them — 2.6.0 through its API
  (``metric.get_signature().format(short=…)``), 1.5.1 through its command line (the printed line,
  score part included) — each with the assay knobs of the call, the tool, version and command.
- claims.json: generated corpora (conformance/generate/corpus.py) scored by sacrebleu 2.6.0 and NLTK 3.10.4
  under random configurations; each claim is the tool's printed number (at a random width), with
  the configuration that produced it in assay's terms. test_audit.py checks offline that the
  audit always lists that configuration among the matches.

Both files carry ``format``/``cases: []`` so the golden-score runner skips them (their data is
under ``signatures`` and ``claims``).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from conformance.fixture_io import FORMAT
from conformance.generate.corpus import generate_corpus
from conformance.paths import FIXTURES

OUT = FIXTURES / "audit"
BLEU_TOKS = ("13a", "intl", "zh", "char", "none")


# ----------------------------------------------------------------------------- signatures
def sacrebleu2_signatures() -> list[dict[str, Any]]:
    import sacrebleu
    from sacrebleu.metrics import BLEU, CHRF, TER
    out = []
    hyps, refs = ["the cat sat on the mat ."], [["the cat is on the mat ."]]
    calls: list[tuple[str, Any, dict[str, Any], dict[str, Any]]] = []
    for tok in BLEU_TOKS:
        for lc in (False, True):
            calls.append(("bleu", BLEU, dict(tokenize=tok, lowercase=lc), dict(tokenize=tok, lowercase=lc)))
    for smooth, value in (("none", None), ("floor", None), ("floor", 0.01), ("add-k", None), ("add-k", 2)):
        for eff in (False, True):
            kw = dict(smooth_method=smooth, effective_order=eff)
            kn = dict(smooth_method=smooth, effective_order=eff)
            if value is not None:
                kw["smooth_value"] = value
                kn["smooth_value"] = float(value)
            calls.append(("bleu", BLEU, kw, kn))
    for kw in (dict(), dict(word_order=2), dict(lowercase=True, whitespace=True), dict(eps_smoothing=True),
               dict(char_order=4, word_order=1), dict(beta=3), dict(beta=1, word_order=2)):
        calls.append(("chrf", CHRF, kw, dict(kw)))
    for kw in (dict(), dict(case_sensitive=True), dict(normalized=True), dict(no_punct=True),
               dict(asian_support=True, normalized=True), dict(case_sensitive=True, normalized=True, no_punct=True)):
        calls.append(("ter", TER, kw, dict(kw)))
    for metric, cls, kw, knobs in calls:
        obj = cls(**kw)
        obj.corpus_score(hyps, refs)
        name = obj.corpus_score(hyps, refs).name if metric == "chrf" else None
        for short in (False, True):
            out.append({"metric": metric, "tool": "sacrebleu", "version": sacrebleu.__version__,
                        "command": f"sacrebleu.metrics.{cls.__name__}(**{kw!r}).get_signature().format(short={short})",
                        "signature": obj.get_signature().format(short=short), "name": name,
                        "knobs": knobs, "nrefs": "1", "profile_family": "sacrebleu"})
    return out


LEGACY_CALLS = [
    ("bleu", [], {}), ("bleu", ["-lc", "-tok", "intl"], {"lowercase": True, "tokenize": "intl"}),
    ("bleu", ["-s", "floor", "-sv", "0.01"], {"smooth_method": "floor", "smooth_value": 0.01}),
    ("bleu", ["-s", "add-k"], {"smooth_method": "add-k"}), ("bleu", ["-s", "none"], {"smooth_method": "none"}),
    ("bleu", ["-tok", "none"], {"tokenize": "none"}), ("bleu", ["-tok", "char"], {"tokenize": "char"}),
    ("bleu", ["-tok", "zh"], {"tokenize": "zh"}), ("bleu", ["--short"], {}),
    ("bleu", ["--short", "-lc", "-s", "floor"], {"lowercase": True, "smooth_method": "floor"}),
    ("chrf", ["-m", "chrf"], {}), ("chrf", ["-m", "chrf", "--chrf-whitespace", "--chrf-beta", "3", "--chrf-order", "4"],
                                  {"whitespace": True, "beta": 3, "char_order": 4}),
    ("chrf", ["-m", "chrf", "--short"], {}), ("ter", ["-m", "ter"], {}), ("ter", ["-m", "ter", "--short"], {}),
]


def sacrebleu1_signatures(python: str) -> list[dict[str, Any]]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        hyp, ref = Path(tmp) / "hyp.txt", Path(tmp) / "ref.txt"
        hyp.write_text("the cat sat on the mat .\n", encoding="utf-8")
        ref.write_text("the cat is on the mat .\n", encoding="utf-8")
        exe = str(Path(python).parent / "sacrebleu")
        version = subprocess.run([python, "-c", "import sacrebleu; print(sacrebleu.__version__)"],
                                 capture_output=True, text=True, check=True).stdout.strip()
        for metric, flags, knobs in LEGACY_CALLS:
            cmd = [exe, "ref.txt", "-i", "hyp.txt", *flags]
            line = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tmp).stdout.strip()
            out.append({"metric": metric, "tool": "sacrebleu", "version": version,
                        "command": shlex.join(["sacrebleu", "ref.txt", "-i", "hyp.txt", *flags]),
                        "signature": line, "knobs": knobs, "nrefs": "1", "profile_family": "sacrebleu@1"})
    return out


# ----------------------------------------------------------------------------- claims
def sacrebleu_claims(n: int, seed: int) -> list[dict[str, Any]]:
    from sacrebleu.metrics import BLEU, CHRF
    import sacrebleu
    rng = random.Random(seed)
    out = []
    for k in range(n):
        corpus = generate_corpus(seed * 1000 + k, max_segments=30, max_refs=2, kind=rng.choice(["mixed", "ascii"]))
        hyps, refs = corpus["hyps"], corpus["refs"]
        width = rng.choice([1, 2])
        if rng.random() < 0.7:
            knobs = dict(tokenize=rng.choice(BLEU_TOKS), lowercase=rng.random() < 0.3,
                         smooth_method=rng.choice(["exp", "exp", "none", "floor", "add-k"]),
                         effective_order=rng.random() < 0.2)
            score = BLEU(**knobs).corpus_score(hyps, refs)
            claim = f"BLEU {score.score:.{width}f}"
            profile, call = "sacrebleu", f"BLEU(**{knobs!r}).corpus_score(hyps, refs)"
        else:
            knobs = dict(word_order=rng.choice([0, 2]), lowercase=rng.random() < 0.3,
                         whitespace=rng.random() < 0.2, eps_smoothing=rng.random() < 0.2)
            metric = CHRF(**knobs)
            score = metric.corpus_score(hyps, refs)
            claim = f"{score.name} {score.score:.{width}f}"
            profile = "sacrebleu-chrf++" if knobs["word_order"] == 2 else "sacrebleu"
            call = f"CHRF(**{knobs!r}).corpus_score(hyps, refs)"
        out.append({"id": f"sacrebleu-{seed}-{k}", "tool": "sacrebleu", "version": sacrebleu.__version__,
                    "command": call + f"; printed with {width} decimals", "claim": claim,
                    "profile": profile, "knobs": knobs, "refs_subset": "all", "hyps": hyps, "refs": refs})
    return out


def nltk_claims(n: int, seed: int) -> list[dict[str, Any]]:
    import nltk
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    rng = random.Random(seed)
    out = []
    names = {0: "float-min", 1: "floor", 2: "add-k", 3: "exp", 4: "nltk-method4"}
    for k in range(n):
        corpus = generate_corpus(seed * 1000 + k, max_segments=30, max_refs=1, kind="tokenised")
        hyps, refs = corpus["hyps"], corpus["refs"]
        m = rng.choice([0, 1, 2, 3, 4])
        value = corpus_bleu([[r.split() for r in seg] for seg in zip(*refs)], [h.split() for h in hyps],
                            smoothing_function=getattr(SmoothingFunction(), f"method{m}"))
        width = rng.choice([2, 3, 4])
        out.append({"id": f"nltk-{seed}-{k}", "tool": "nltk", "version": nltk.__version__,
                    "command": f"corpus_bleu(refs, hyps (str.split), smoothing_function=SmoothingFunction().method{m}); "
                               f"printed with {width} decimals",
                    "claim": f"BLEU {value:.{width}f}", "profile": "nltk",
                    "knobs": {"smooth_method": names[m]}, "refs_subset": "all", "hyps": hyps, "refs": refs})
    return out


def _doc(family: str, description: str, key: str, data: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": FORMAT, "metric": "audit", "family": family, "description": description,
            "generated_by": {"script": "conformance/regen_audit.py", "python": sys.version.split()[0],
                             "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED")},
            "cases": [], key: data}


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    """Write ``out``/signatures.json and claims.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--legacy-python", default="/tmp/legacyvenv/bin/python",
                        help="interpreter with sacrebleu 1.5.1 (default /tmp/legacyvenv/bin/python, when it exists)")
    legacy = parser.parse_args(argv).legacy_python
    out.mkdir(parents=True, exist_ok=True)
    sigs = sacrebleu2_signatures()
    if Path(legacy).exists():
        sigs += sacrebleu1_signatures(legacy)
    else:
        print(f"no legacy python at {legacy}: sacrebleu 1.x signatures not refreshed", file=sys.stderr)
    (out / "signatures.json").write_text(json.dumps(_doc(
        "signatures", "signature strings printed by sacrebleu 2.6.0 (API) and 1.5.1 (CLI), with the knobs of the call",
        "signatures", sigs), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    claims = sacrebleu_claims(24, 8) + nltk_claims(12, 9)
    (out / "claims.json").write_text(json.dumps(_doc(
        "claims", "claims printed by sacrebleu 2.6.0 / NLTK 3.10.4 on generated corpora, with the true configuration",
        "claims", claims), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}/signatures.json ({len(sigs)}), claims.json ({len(claims)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
