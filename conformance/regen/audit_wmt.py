"""Freeze WMT-style published claims whose true configuration is known: fixtures/audit/wmt_claims.json.

    PYTHONHASHSEED=0 python -m conformance.regen audit-wmt     (needs ../shared/corpora or $ASSAY_CORPORA;
                                                               MeCab + ipadic, the ja extra, for en-ja)

Each claim is a number the LIVE sacrebleu 2.6.0 command line prints for a real WMT22 system output
(../shared/corpora/wmt22-general: nothing of the corpus is stored, only file paths relative to the
corpora folder), written the way papers get it wrong or right:

- ``language``: en-ja BLEU with sacrebleu's tokenizer for Japanese (``-l en-ja`` = ja-mecab), en-zh BLEU
  with its tokenizer for Chinese (``-l en-zh`` = zh): the standard for the language, no departure;
- ``mislabelled``: a chrF2 printed as "BLEU"; a plain chrF2 printed as "chrF++"; a chrF2++ printed as
  a bare "chrF" (the truth must outrank chrF++ with beta 3);
- ``double-rounding``: the printed value rounded first to 3 decimals, then to 2 (38.1647 -> 38.165 -> 38.17);
- ``truncation``: the value cut to 2 decimals, not rounded;
- ``reference-subset``: a single-reference score audited with both reference files given.

Every value is the CLI's JSON ``score`` at ``-w 4``; the claim is derived from it by the named kind
of printing. ``expected`` is the configuration in assay's terms (profile, knobs, references, how it
was printed, what the label really is): conformance/tests/audit/test_audit_wmt.py checks that
``assay audit`` names it first.
"""
from __future__ import annotations

import argparse
import csv
import json
import shlex
import subprocess
import sys
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from conformance.paths import FIXTURES, corpora_dir

OUT = FIXTURES / "audit" / "wmt_claims.json"
WMT = "wmt22-general"


def _q(x: Decimal, places: int, mode: str = ROUND_HALF_UP) -> Decimal:
    return x.quantize(Decimal(1).scaleb(-places), rounding=mode)


def _files(root: Path, pair: str, system: str, refs: tuple[str, ...]) -> tuple[str, list[str]]:
    tgt = pair.split("-")[1]
    hyp = f"{WMT}/{pair}/generaltest2022.{pair}.hyp.{system}.{tgt}"
    return hyp, [f"{WMT}/{pair}/generaltest2022.{pair}.ref.{r}.{tgt}" for r in refs]


def sacrebleu_cli(root: Path, hyp: str, refs: list[str], args: list[str]) -> tuple[Decimal, str, str]:
    """The live CLI's score (JSON, ``-w 4``), its signature and the command as run (paths relative to the corpora)."""
    cmd = ["sacrebleu", *refs, "-i", hyp, *args, "-w", "4"]
    done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"regen audit-wmt: {shlex.join(cmd)} failed: {done.stderr.strip()[-400:]}")
    out = json.loads(done.stdout)
    return Decimal(str(out["score"])), out["signature"], shlex.join(cmd)


def _published(root: Path) -> dict[tuple[str, str, str], float]:
    with open(root / WMT / "automatic-scores.tsv", encoding="utf-8") as fh:
        return {(r["pair"], r["system"], r["metric"]): float(r["score"]) for r in csv.DictReader(fh, delimiter="\t")}


def _pick(published: dict[tuple[str, str, str], float], pair: str, metric: str, want: Any) -> str:
    """The first system (by name) of ``pair`` whose published ``metric`` satisfies ``want`` (the
    published value only chooses the system; the claim comes from the live CLI)."""
    for (p, system, m), value in sorted(published.items()):
        if p == pair and m == metric and want(Decimal(repr(value))):
            return system
    raise SystemExit(f"regen audit-wmt: no {pair} system with a suitable {metric}")


def build(root: Path) -> list[dict[str, Any]]:
    published = _published(root)
    out: list[dict[str, Any]] = []

    def add(kind: str, pair: str, system: str, refs: tuple[str, ...], given: tuple[str, ...], args: list[str],
            claim_name: str, printing: str, expected: dict[str, Any], lang: str | None = None,
            note: str = "") -> None:
        hyp, ref_files = _files(root, pair, system, refs)
        _, given_files = _files(root, pair, system, given)
        value, signature, command = sacrebleu_cli(root, hyp, ref_files, args)
        if printing == "round":
            shown = _q(value, 2)
        elif printing == "round-twice":
            shown = _q(_q(value, 3), 2)
        else:
            shown = _q(value, 2, ROUND_DOWN)
        if printing != "round" and shown == _q(value, 2):
            raise SystemExit(f"regen audit-wmt: {kind} {pair} {system}: {value} prints the same either way")
        out.append({"id": f"{kind}-{pair}-{system}-{claim_name}".replace("+", "p"), "kind": kind, "pair": pair,
                    "system": system, "hyp": hyp, "refs": given_files, "lang": lang,
                    "claim": f"{claim_name} {shown}", "tool": "sacrebleu", "version": "2.6.0",
                    "command": command, "signature": signature, "tool_value": float(value),
                    "printing": printing, "expected": expected, "note": note})

    bleu_std = {"metric": "bleu", "profile": "bleu/sacrebleu"}
    # language tokenizers: the standard for the target language (detected from the text, or --lang)
    add("language", "en-ja", "Online-B", ("A",), ("A",), ["-l", "en-ja", "-m", "bleu"], "BLEU", "round",
        {**bleu_std, "knobs": {"tokenize": "ja-mecab"}, "references": "all", "standard": True},
        note="sacrebleu -l en-ja tokenizes with ja-mecab; the language is detected from the text")
    add("language", "en-zh", "Online-A", ("A",), ("A",), ["-l", "en-zh", "-m", "bleu"], "BLEU", "round",
        {**bleu_std, "knobs": {"tokenize": "zh"}, "references": "all", "standard": True}, lang="en-zh",
        note="sacrebleu -l en-zh tokenizes with zh; --lang en-zh given")
    # mislabelled metric: a chrF2 printed as BLEU, a plain chrF2 as chrF++, a chrF2++ as bare chrF
    add("mislabelled", "en-de", "Online-A", ("A",), ("A",), ["-m", "chrf"], "BLEU", "round",
        {"metric": "chrf", "profile": "chrf/sacrebleu", "knobs": {}, "references": "all", "label_read_as": "metric"},
        note="the chrF2 score printed under the label BLEU")
    add("mislabelled", "en-de", "Online-W", ("A",), ("A",), ["-m", "chrf"], "chrF++", "round",
        {"metric": "chrf", "profile": "chrf/sacrebleu", "knobs": {}, "references": "all",
         "label_read_as": "word_order"}, note="plain chrF2 printed as chrF++")
    add("mislabelled", "de-en", "Online-B", ("A",), ("A",), ["-m", "chrf", "--chrf-word-order", "2"], "chrF", "round",
        {"metric": "chrf", "profile": "chrf/sacrebleu-chrf++", "knobs": {}, "references": "all",
         "label_read_as": "word_order"}, note="chrF2++ printed as bare chrF (beta 2, not 3)")
    # double rounding and truncation (systems chosen where the printing makes a difference)
    twice = _pick(published, "de-en", "bleu-B", lambda v: _q(_q(v, 3), 2) != _q(v, 2))
    add("double-rounding", "de-en", twice, ("B",), ("B",), ["-m", "bleu"], "BLEU", "round-twice",
        {**bleu_std, "knobs": {}, "references": "all", "printing": "round-twice"})
    cut = _pick(published, "zh-en", "bleu-A", lambda v: _q(v, 2, ROUND_DOWN) != _q(v, 2))
    add("truncation", "zh-en", cut, ("A",), ("A",), ["-m", "bleu"], "BLEU", "truncate",
        {**bleu_std, "knobs": {}, "references": "all", "printing": "truncate"})
    # reference subsets: a single-reference score audited with both files given
    add("reference-subset", "en-de", "Online-B", ("B",), ("A", "B"), ["-m", "bleu"], "BLEU", "round",
        {**bleu_std, "knobs": {}, "references": "ref2"},
        note="BLEU against reference B only; the audit is given A and B")
    add("reference-subset", "zh-en", "Online-A", ("A", "B"), ("A", "B"), ["-m", "bleu"], "BLEU", "round",
        {**bleu_std, "knobs": {}, "references": "all", "standard": True},
        note="two-reference BLEU, the standard")
    return out


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=None, help="the corpora folder (default ../shared/corpora)")
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv)
    root = args.corpora or corpora_dir()
    if not (root / WMT).is_dir():
        print(f"regen audit-wmt: {root / WMT} not found (set ASSAY_CORPORA)", file=sys.stderr)
        return 2
    version = subprocess.run(["sacrebleu", "--version"], capture_output=True, text=True, check=False).stdout.strip()
    if "2.6.0" not in version:
        print(f"regen audit-wmt: sacrebleu 2.6.0 is pinned, the CLI says {version!r}", file=sys.stderr)
        return 2
    claims = build(root)
    doc = {"format": "assay-fixtures/1", "metric": "audit", "family": "wmt-claims",
           "description": "WMT22 claims printed by the sacrebleu 2.6.0 CLI on the real outputs in the corpora folder, "
                          "written as published (language tokenizers, mislabels, double rounding, truncation, "
                          "reference subsets), with the true configuration",
           "generated_by": {"script": "conformance/regen/audit_wmt.py", "tool": "sacrebleu (command line)",
                            "version": version, "corpora": f"{WMT} (paths relative to the corpora folder)"},
           "cases": [], "claims": claims}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"regen audit-wmt: {len(claims)} claims -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
