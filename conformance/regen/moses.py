"""Regenerate the frozen Moses fixtures by running the perl scripts as black boxes.

Runnable only where ``conformance/references/moses.py`` finds the scripts
(``$ASSAY_MOSES_DIR``, default ``/tmp/moses``), e.g. extracted from a snapshot of
moses-smt/mosesdecoder ``scripts/generic/``.  Nothing of the scripts enters the repo: only
their numeric/text outputs, with provenance (commit, perl version, command lines).

    ASSAY_MOSES_COMMIT=<40-hex> python -m conformance.regen.moses [--seeds 200] [--jobs 4]
    ASSAY_MOSES_COMMIT=<40-hex> python -m conformance.regen moses          # the same, defaults

Writes fixtures/bleu/moses_generated.json, fixtures/nist/moses_generated.json,
fixtures/bleu/research_moses.json (needs sacrebleu for the ``MB(13a-pretok)`` inputs and
../shared/research/bleu_golden.json or ``--research PATH``) and
fixtures/tokenizers/mteval.json.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from conformance.fixture_io import FIXTURES, write_fixture_file
from conformance.paths import RESEARCH
from conformance.generate.corpus import generate_corpus
from conformance.references import moses

WIDE_TOL = {"rel": 1e-9, "abs": 1e-10}  # %.12f prints to 5e-13; abs leaves room for float noise
RESEARCH_SRC = "shared/research/bleu_golden.json, moses-smt/mosesdecoder@34452895f350"
MB_ARGV = "perl {script} {lc}ref < hyp   (references in files ref0, ref1, ...; lines \\n-terminated)"
MT_ARGV = "perl {script} {args}   (SGML as in research §4.3, text written raw)"

# name -> (profile, knobs, runner kwargs); runner is multi_bleu for multi-bleu* profiles
LC_ASCII = {"lowercase": True, "lowercase_mode": "ascii"}
LC_UNI = {"lowercase": True, "lowercase_mode": "unicode"}
INTL = {"tokenize": "mteval-intl", "lowercase_mode": "unicode"}
CONFIGS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "multi-bleu": ("multi-bleu", {}, {}),
    "multi-bleu-lc": ("multi-bleu", LC_ASCII, {"lowercase": True}),
    "multi-bleu-detok": ("multi-bleu-detok", {}, {"detok": True}),
    "multi-bleu-detok-lc": ("multi-bleu-detok", LC_UNI, {"detok": True, "lowercase": True}),
    "mteval-v13a-c": ("mteval-v13a", {"lowercase": False}, {}),
    "mteval-v13a": ("mteval-v13a", {}, {"case_sensitive": False}),
    "mteval-v13a-intl-c": ("mteval-v13a", {**INTL, "lowercase": False}, {"international": True}),
    "mteval-v13a-intl": ("mteval-v13a", INTL, {"international": True, "case_sensitive": False}),
    "mteval-v13a-c-nosmooth": ("mteval-v13a", {"lowercase": False, "no_smoothing": True},
                               {"smoothing": False}),
    "mteval-v13a-c-bp-shortest": ("mteval-v13a", {"lowercase": False, "ref_length": "shortest"},
                                  {"brevity_penalty": "shortest"}),
    "mteval-v14-c": ("mteval-v14", {"lowercase": False}, {"version": "14"}),
}
NIST_CONFIGS = ("mteval-v13a-c", "mteval-v13a", "mteval-v13a-intl-c")


def run_config(name: str, hyps: list[str], refs: list[list[str]], **extra: Any) -> dict[str, Any]:
    profile, _, kwargs = CONFIGS[name]
    if profile.startswith("multi-bleu"):
        return moses.multi_bleu(hyps, refs, **kwargs, **extra)
    return moses.mteval(hyps, refs, **kwargs)


def command(res: dict[str, Any]) -> str:
    if res["tool"].startswith("multi-bleu"):
        return MB_ARGV.format(script=res["tool"], lc="-lc " if "-lc" in res["argv"] else "")
    return MT_ARGV.format(script=res["tool"], args=" ".join(res["argv"][1:]))


def expected(res: dict[str, Any], version: str, value: str = "bleu") -> dict[str, Any]:
    """One fixture ``expected`` entry (widened score, official print kept alongside)."""
    mb = res["tool"].startswith("multi-bleu")
    key = "score" if mb else value
    entry: dict[str, Any] = {"tool": res["tool"], "version": version, "command": command(res),
                             "score": res.get(key), "components": {}, "error": res.get("error"),
                             "tolerance": dict(WIDE_TOL)}
    if mb and res["score"] is not None:
        entry["components"] = {k: res[k] for k in ("precisions", "bp", "ratio", "hyp_len", "ref_len")}
    off = res.get("official", {})
    if off.get(key) is not None:
        entry["official"] = {"score": off[key], "printed": off.get("line") or off.get("stdout"),
                             "tolerance": {"rel": 0.0, "abs": 0.005 if mb else 0.00005}}
        if abs(off[key] - entry["score"]) > entry["official"]["tolerance"]["abs"] * 1.000001:
            entry["official"]["mismatch"] = True
    if res["rc"] not in (0, None) and entry["score"] is not None:
        entry["exit_status"] = res["rc"]
    return entry


def parallel(jobs: list[Callable[[], Any]], workers: int) -> list[Any]:
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda f: f(), jobs))


def case(cid: str, note: str, profile: str, knobs: dict[str, Any], hyps: list[str],
         refs: list[list[str]], exp: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"id": cid, "note": note, "profile": profile, "knobs": knobs, "level": "corpus",
            "hyps": hyps, "refs": refs, **extra, "expected": exp}


def generated(n_seeds: int, version: str, workers: int) -> tuple[list[dict], list[dict]]:
    """BLEU and NIST cases on generated corpora (kind mixed, plus kind tokenised for multi-bleu)."""
    plan: list[tuple[str, int, str, dict]] = []
    for seed in range(n_seeds):
        mixed = generate_corpus(seed, kind="mixed")
        tok = generate_corpus(seed, kind="tokenised")
        plan += [(f"gen-tok-{seed:03d}", seed, n, tok) for n in ("multi-bleu", "multi-bleu-lc")]
        for name in CONFIGS:
            if name == "mteval-v13a-c-bp-shortest" and len(mixed["refs"]) < 2:
                continue
            plan.append((f"gen-{seed:03d}", seed, name, mixed))
    results = parallel([lambda p=p: run_config(p[2], p[3]["hyps"], p[3]["refs"]) for p in plan], workers)
    bleu, nist = [], []
    for (corpus_id, seed, name, corpus), res in zip(plan, results):
        profile, knobs, _ = CONFIGS[name]
        kind = "tokenised" if corpus_id.startswith("gen-tok") else "mixed"
        note = (f"generate_corpus({seed}, kind={kind!r}): {len(corpus['hyps'])} segments, "
                f"{len(corpus['refs'])} refs; {command(res).split('   ')[0]}")
        bleu.append(case(f"moses/{corpus_id}/{name}", note, profile, knobs, corpus["hyps"],
                         corpus["refs"], [expected(res, version)]))
        if name in NIST_CONFIGS:
            nist.append(case(f"moses/{corpus_id}/{name}", note, profile, knobs, corpus["hyps"],
                             corpus["refs"], [expected(res, version, "nist")]))
    return bleu, nist


def edge_cases(version: str) -> list[dict]:
    """Crash/file-format facts: detok's chop of an unterminated last line, CRLF line ends."""
    out = []
    cat = "the cat sat on the mat"
    for name in ("multi-bleu-detok", "multi-bleu"):
        res = run_config(name, [cat], [[cat]], hyp_final_newline=False)
        out.append(case(f"moses/edge/chop-unterminated/{name}",
                        "hyp file's last line has no trailing newline (input.hyp_final_newline=false): "
                        "multi-bleu-detok chops its last character, multi-bleu (chomp) does not",
                        CONFIGS[name][0], {}, [cat], [[cat]], [expected(res, version)],
                        input={"hyp_final_newline": False}))
    hyps, refs = ["the cat sat on the mat\r", "a dog .\r"], [["the cat sat on the mat\r", "a dog !\r"]]
    for name in ("multi-bleu", "multi-bleu-detok", "mteval-v13a-c"):
        res = run_config(name, hyps, refs)
        out.append(case(f"moses/edge/crlf/{name}", "CRLF line endings: every line ends in \\r",
                        CONFIGS[name][0], CONFIGS[name][1], hyps, refs, [expected(res, version)]))
    return out


RESEARCH_KEYS = {  # research key -> (config name, 13a-pretokenised input?)
    "MB(13a-pretok)": ("multi-bleu", True), "MB(13a-pretok) -lc": ("multi-bleu-lc", True),
    "MB(raw)": ("multi-bleu", False), "MBD(raw)": ("multi-bleu-detok", False),
    "MBD(raw) -lc": ("multi-bleu-detok-lc", False), "MT13a (default lc)": ("mteval-v13a", False),
    "MT13a --intl (default lc)": ("mteval-v13a-intl", False), "MT13a -c": ("mteval-v13a-c", False),
    "MT13a -c --intl": ("mteval-v13a-intl-c", False),
    "MT13a -c --no-smoothing": ("mteval-v13a-c-nosmooth", False), "MT14 -c": ("mteval-v14-c", False),
}


def _research_value(key: str, val: dict[str, Any]) -> tuple[float | None, str | None]:
    if key.startswith("MT"):
        return (val["bleu"] / 100.0, None) if "bleu" in val else (None, val.get("stderr", "crash"))
    return (val["score"], None) if "score" in val else (None, val.get("stderr", "crash"))


def research(path: Path, version: str, workers: int) -> tuple[list[dict], list[str]]:
    """The research digest's multi-bleu/mteval values, re-run live; returns (cases, disagreements)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    tok13a = Tokenizer13a()
    golden = json.loads(path.read_text(encoding="utf-8"))
    plan = []
    for g in golden:
        for key, (name, pretok) in RESEARCH_KEYS.items():
            if key not in g["res"]:
                continue
            hyps = [tok13a(h) for h in g["hyps"]] if pretok else g["hyps"]
            refs = [[tok13a(r) for r in s] for s in g["refs"]] if pretok else g["refs"]
            plan.append((g, key, name, hyps, refs))
    results = parallel([lambda p=p: run_config(p[2], p[3], p[4]) for p in plan], workers)
    cases, disagree = [], []
    for (g, key, name, hyps, refs), live in zip(plan, results):
        profile, knobs, _ = CONFIGS[name]
        score, err = _research_value(key, g["res"][key])
        exp = expected(live, version)
        rerun = {"score": exp["score"], "error": exp["error"]}
        exp.update(score=score, error=err and moses.short_error(err, live["tool"]),
                   source=RESEARCH_SRC, rerun=rerun)
        ok = (score is None) == (rerun["score"] is None) and (
            score is None or abs(score - rerun["score"]) <= max(1e-10, 1e-9 * abs(score)))
        rerun["agrees"] = ok
        if not ok:
            disagree.append(f"{g['id']} {key}: research {score} {err} vs live {rerun}")
        off = g["res"].get(key + " official")
        if off and "score" in off:
            exp["official"] = {"score": off["score"], "printed": off["out"],
                               "tolerance": {"rel": 0.0, "abs": 0.005}}
        slug = name + ("-13a-pretok" if RESEARCH_KEYS[key][1] else "")
        cases.append(case(f"moses/research/{g['id']}/{slug}",
                          f"research {g['id']} ({g['title']}); research key {key!r}"
                          + ("; input pre-tokenised by sacrebleu 13a (oracle output)" if RESEARCH_KEYS[key][1] else ""),
                          profile, knobs, hyps, refs, [exp]))
    return cases, disagree


TOKENIZER_MODES = [  # (tokenizer, lowercase, tool version, case_sensitive, international)
    ("mteval-13a", "ascii", "13a", False, False), ("mteval-13a", None, "13a", True, False),
    ("mteval-intl", "unicode", "13a", False, True), ("mteval-intl", None, "13a", True, True),
    ("mteval-intl", None, "14", True, True), ("mteval-intl", "unicode", "14", False, True),
]
SPECIAL_STRINGS = [
    "", " ", "  a  b  ", "a\tb", "a\u00a0b", "a\u2028b", "a\u2029b", "a\u0085b", "a\u3000b", "a\u2009b",
    "a\u001cb", "a\u001db", "a\u001eb", "a\u001fb", "x\u001c\u001d\u001e\u001fy", "a\x0bb", "a\x0cb",
    "<skipped>", "<SKIPPED>", "<Skipped> x", "the <skipped> cat", "&quot;", "&QUOT;", "&Quot;x",
    "&amp;", "&AMP;", "&lt;3", "&LT;", "&gt;", "&apos;", "&APOS;", "&#39;", "&nbsp;", "&amp;quot;",
    "AT&amp;T", "AT&T", "&quot;Hello&quot; &amp; goodbye &lt;3", "a&b", "& ; &;", "a-", "-a", "a-b",
    "1-2", "a-1", "1-a", "state-of-the-art", "1990-2000", "1,000.50", "1.000,50", "3.5%", "2019.",
    ".5", "5.", ",5", "5,", "a.b.c", "U.S.", "e.g.", "Mr. Smith", "don't", "it's", "John's", "'quoted'",
    '"quoted"', "(paren)", "[br]", "{cb}", "a/b", "me@x.org", "http://x.org/a?b=1&c=2", "x=1",
    "C++", "$5.00", "#tag", "@user", "50%", "+5", "-7", "x^2", "~tilde", "`tick`", "a|b", "a\\b",
    "_under_score_", "...", "--", "a...b", "a--b", "The Cat SAT", "ÉCOLE Supérieure", "İstanbul",
    "ΣΊΣΥΦΟΣ", "ǅemal", "STRASSE Straße ẞ", "КОШКА Кошка", "ÆSIR Ñandú", "“hello”—world…",
    "«oui» ‘tis", "¿qué? ¡sí!", "我爱北京天安门", "私は学生です。", "저는 학생입니다.", "猫，狗、鱼！",
    "Ｆｕｌｌｗｉｄｔｈ１２３", "😀 ❤ 👍", "€5 ±3 → ©", "a·b", "x²", "½ cup", "٣ arabic digit",
    "e\u0301cole", "a\u200bb", "a\u00adb", "a\ufeffb", "π≈3.14", "1 000", "2019-01-02", "12:30",
]
SOUP = list("aAzZ09 .,;:!?'\"-/()[]{}&<>@#$%^*+=_~`|\\") + list("éÉßİıΣς“”‘’—–…«»。、，！") + [
    "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>", "\u00a0", "\u2028", "\u001f", "\u001c",
    "\t", "我", "😀", "€", "1,000", "3.5"]


def tokenizer_strings(n_soup: int = 120) -> list[str]:
    """Hand-picked edge strings + generated corpus lines + random character soup (deterministic)."""
    seen: dict[str, None] = dict.fromkeys(SPECIAL_STRINGS)
    for seed in range(40):
        c = generate_corpus(1000 + seed, kind="mixed", max_segments=3, max_refs=1)
        seen.update(dict.fromkeys(c["hyps"] + c["refs"][0]))
    rng = random.Random(4242)
    for _ in range(n_soup):
        seen[ "".join(rng.choice(SOUP) for _ in range(rng.randint(1, 14)))] = None
    return [s for s in seen if "</seg>" not in s and "\n" not in s and "\r" not in s]


def tokenizer_cases(version: str) -> list[dict]:
    strings = tokenizer_strings()
    out = []
    for tok, lc, ver, cs, intl in TOKENIZER_MODES:
        toks = moses.mteval_tokenize_many(strings, version=ver, case_sensitive=cs, international=intl)
        call = (f"perl mteval-v{ver}.pl -r ref.sgm -s src.sgm -t tst.sgm -b -d 3"
                + (" -c" if cs else "") + (" --international-tokenization" if intl else "")
                + "   (each input one <seg>; the 'sys' dump lines)")
        out += [{"tokenizer": tok, "lowercase": lc, "input": s, "expected": t,
                 "tool": f"mteval-v{ver}.pl", "version": version, "call": call}
                for s, t in zip(strings, toks)]
    return out


def main(argv: list[str] | None = None, root: Path = FIXTURES) -> int:
    """Run the scripts and write the fixture files under ``root`` (default ``fixtures/``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--research", type=Path, default=RESEARCH / "bleu_golden.json")
    ap.add_argument("--commit", default=os.environ.get("ASSAY_MOSES_COMMIT", ""))
    ap.add_argument("--only", choices=("generated", "research", "tokenizers"), action="append")
    args = ap.parse_args(argv)
    if not moses.available():
        print("moses scripts not found (set ASSAY_MOSES_DIR)", file=sys.stderr)
        return 2
    commit = args.commit or (moses.moses_dir() / "COMMIT").read_text().strip()
    version = f"mosesdecoder@{commit[:12]}"
    only = set(args.only or ("generated", "research", "tokenizers"))
    gen_by = {
        "command": "python -m conformance.regen_moses " + " ".join(argv if argv is not None else sys.argv[1:]),
        "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "unset"),
        "tools": {"mosesdecoder": commit, "perl": moses.perl_version()},
        "scripts_sha256": {n: hashlib.sha256((moses.moses_dir() / n).read_bytes()).hexdigest()
                           for n in moses.SCRIPTS.values()},
        "provenance": f"moses-smt/mosesdecoder@{commit} scripts/generic/, run as black boxes by "
                      "conformance/references/moses.py (LC_ALL=C); scores from temporary copies whose "
                      "printf float formats are widened to %.12f, official rounded output in 'official'",
    }
    if "generated" in only:
        bleu, nist = generated(args.seeds, version, args.jobs)
        bleu += edge_cases(version)
        write_fixture_file("bleu", "moses_generated", bleu,
                           "multi-bleu(-detok).perl and mteval-v13a/v14 BLEU on generate_corpus() corpora "
                           "(seeds 0..N-1; kind mixed, plus kind tokenised for multi-bleu), and edge cases. "
                           "Scores on the tool's scale (multi-bleu 0-100, mteval 0-1). A case 'input' "
                           "field describes file-level details (hyp_final_newline).", gen_by, root)
        write_fixture_file("nist", "moses_generated", nist,
                           "mteval-v13a NIST (-c, default lowercasing, intl -c) on generate_corpus() corpora.",
                           gen_by, root)
    if "research" in only:
        import sacrebleu
        cases, disagree = research(args.research, version, args.jobs)
        write_fixture_file("bleu", "research_moses", cases,
                           "The 36 research golden cases (bleu_nist.md §7) for multi-bleu/mteval, values from "
                           f"{RESEARCH_SRC}; each re-run live ('rerun').",
                           {**gen_by, "tools": {**gen_by["tools"], "sacrebleu": sacrebleu.__version__}}, root)
        for line in disagree:
            print("DISAGREE", line)
    if "tokenizers" in only:
        path = root / "tokenizers" / "mteval.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        doc = {"format": "assay-tokenizer-fixtures/1",
               "description": "mteval tokenisation as dumped by -d 3 (exact string; compare with "
                              "split(' '), since Perl keeps U+001C-U+001F inside tokens). Inputs pass "
                              "through mteval's SGML reader. lowercase: null = -c, ascii = tr A-Z, "
                              "unicode = Perl lc (no final-sigma rule: ΣΊΣΥΦΟΣ -> σίσυφοσ, Python gives σίσυφος). "
                              "Lowercasing happens AFTER <skipped> removal and entity unescaping, so "
                              "<SKIPPED> and &QUOT; survive the default (lowercasing) mode.",
               "generated_by": gen_by, "cases": tokenizer_cases(version)}
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
