"""Freeze sacrebleu 2.6.0's command line: fixtures/sacrebleu_cli/cases.json (command -> stdout bytes, exit status).

    PYTHONHASHSEED=0 python -m conformance.regen sacrebleu-cli
    PYTHONHASHSEED=0 python -m conformance.regen.sacrebleu_cli [--out FILE]

:data:`CASES` is the matrix of commands, run in fixtures/sample (the sample corpus) with the extra
systems of fixtures/sacrebleu_cli; each is ``sacrebleu ARGS`` (standard input from a file where the
case names one, environment variables where it sets them). The differential test
(conformance/tests/cli/test_sacrebleu_cli.py, ``refs``) runs the same matrix against the live tool;
the default-env test compares ``assay sacrebleu ARGS`` with the frozen stdout.

Error cases record only that sacrebleu failed (its exit status, and an empty stdout): assay refuses
them with a one-line error and exit 2 (sacrebleu exits 1, or 2 for its argparse errors).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from conformance.paths import FIXTURES

SAMPLE = FIXTURES / "sample"
OUT = FIXTURES / "sacrebleu_cli" / "cases.json"
TOOL_VERSION = "2.6.0"
S = "../sacrebleu_cli/"
R2 = ["ref1.txt", "ref2.txt"]
R1 = ["ref1.txt"]
ONE = R2 + ["-i", "hyp.txt"]
MULTI = R1 + ["-i", "hyp.txt", S + "sys_a.txt", S + "sys_b.txt"]
ALL3 = ["-m", "bleu", "chrf", "ter"]


def case(cid: str, args: list[str], stdin: str | None = None, env: dict[str, str] | None = None,
         error: bool = False) -> dict[str, Any]:
    """One command: ``sacrebleu ARGS`` in fixtures/sample, ``stdin`` a file there (or None)."""
    return {"id": cid, "args": args, "stdin": stdin, "env": env or {}, "error": error}


#: the matrix: every flag of sacrebleu 2.6.0 that works offline, alone and combined
CASES: list[dict[str, Any]] = [
    # one system, corpus level
    case("default-json", ONE),
    case("text", ONE + ["-f", "text"]),
    case("one-ref-text", R1 + ["-i", "hyp.txt", "-f", "text"]),
    case("three-metrics-json", ONE + ALL3),
    case("three-metrics-text", ONE + ALL3 + ["-f", "text"]),
    case("three-metrics-b-json", ONE + ALL3 + ["-b"]),
    case("three-metrics-b-text", ONE + ALL3 + ["-b", "-f", "text"]),
    case("short-text", ONE + ALL3 + ["--short", "-f", "text"]),
    case("short-json", ONE + ALL3 + ["-sh"]),
    case("w3-text", ONE + ["-w", "3", "-f", "text"]),
    case("w0-b", ONE + ["-m", "bleu", "ter", "-w", "0", "-b"]),
    case("w0-json", ONE + ["-m", "bleu", "ter", "-w", "0"]),
    case("w6-text", ONE + ALL3 + ["-w", "6", "-f", "text"]),
    case("b-single", R1 + ["-i", "hyp.txt", "-b"]),
    case("tok-none", ONE + ["-tok", "none", "-f", "text"]),
    case("tok-intl", ONE + ["--tokenize", "intl", "-f", "text"]),
    case("tok-char", ONE + ["-tok", "char", "-f", "text"]),
    case("tok-zh", ONE + ["-tok", "zh"]),
    case("l-en-zh", ONE + ["-l", "en-zh", "-f", "text"]),
    case("l-de-en-all", ONE + ["-l", "de-en"] + ALL3 + ["-f", "text"]),
    case("lc", ONE + ["-lc", "-f", "text"]),
    case("lc-chrf-ter", ONE + ["--lowercase"] + ALL3 + ["-f", "text"]),
    case("smooth-floor", ONE + ["-s", "floor", "-f", "text"]),
    case("smooth-floor-sv", ONE + ["-s", "floor", "-sv", "0.2"]),
    case("smooth-addk-sv", ONE + ["--smooth-method", "add-k", "--smooth-value", "2", "-f", "text"]),
    case("smooth-none", ONE + ["-s", "none", "-f", "text"]),
    case("smooth-exp-sv-ignored", ONE + ["-s", "exp", "-sv", "2", "-f", "text"]),
    case("chrf-all-flags", ONE + ["-m", "chrf", "-cc", "4", "-cw", "2", "--chrf-beta", "1", "--chrf-whitespace",
                                  "--chrf-lowercase", "-f", "text"]),
    case("chrfpp-json", ONE + ["-m", "chrf", "--chrf-word-order", "2"]),
    case("chrf-eps", ONE + ["-m", "chrf", "-cw", "1", "--chrf-eps-smoothing", "-f", "text"]),
    case("ter-case-punct", ONE + ["-m", "ter", "--ter-case-sensitive", "--ter-no-punct", "-f", "text"]),
    case("ter-norm-asian", ONE + ["-m", "ter", "--ter-normalized", "--ter-asian-support", "-f", "text"]),
    case("ter-all-json", ONE + ["-m", "ter", "--ter-case-sensitive", "--ter-no-punct", "--ter-normalized",
                                "--ter-asian-support"]),
    case("latex-single-is-text", ONE + ["-f", "latex"]),
    case("tok-wins-over-l", ONE + ["-l", "en-zh", "-tok", "13a", "-f", "text"]),
    case("encoding-utf-8-sig", ONE + ["-e", "utf-8-sig", "-m", "bleu", "chrf", "-f", "text"]),
    case("sentence-chrfpp-w3", R1 + ["-i", "hyp.txt", "-sl", "-m", "chrf", "-cw", "2", "-w", "3"]),
    case("confidence-latex-is-text", R1 + ["-i", "hyp.txt", "-ci", "-cin", "30", "-f", "latex"]),
    case("systems-latex-ter-w0", MULTI + ["-m", "ter", "-f", "latex", "-w", "0"]),
    case("paired-bs-lc-intl", MULTI + ["-pbs", "-pbsn", "100", "-lc", "-tok", "intl", "-f", "text"]),
    case("paired-ar-ter-flags", MULTI + ["-m", "ter", "-par", "-parn", "200", "--ter-case-sensitive", "-f", "text"]),
    case("detail", ONE + ["--detail", "-f", "text"]),
    case("detail-json-all", ONE + ALL3 + ["-d"]),
    case("detail-b", ONE + ["-d", "-b"]),
    case("detail-confidence-b", R1 + ["-i", "hyp.txt", "-d", "-ci", "-cin", "20", "-b"]),
    case("detail-sentence", R1 + ["-i", "hyp.txt", "-d", "-sl", "-m", "chrf"]),
    case("detail-systems", MULTI + ["-d"]),
    case("detail-confidence-b-json", R1 + ["-i", "hyp.txt", "-d", "-ci", "-cin", "10", "-m", "bleu", "ter", "-b"]),
    case("metric-order-dedup", ONE + ["-m", "ter", "bleu", "ter", "-f", "text"]),
    case("accepted-noops", ONE + ["-q", "-nc", "-j", "2", "--force", "-f", "text"]),
    case("nr2-tsv", [S + "refs.tsv", "-nr", "2", "-i", "hyp.txt", "-f", "text"]),
    case("stdin-b", R1 + ["-b"], stdin="hyp.txt"),
    case("stdin-json-all", R2 + ALL3, stdin="hyp.txt"),
    case("env-format-text", ONE + ALL3, env={"SACREBLEU_FORMAT": "text"}),
    case("env-format-wins", ONE + ["-f", "json"], env={"SACREBLEU_FORMAT": "text"}),
    # sentence level
    case("sentence-bleu", ONE + ["--sentence-level"]),
    case("sentence-chrf-b", ONE + ["-m", "chrf", "-sl", "-b"]),
    case("sentence-ter-short-json", ONE + ["-m", "ter", "--sentence-level", "--short", "-f", "json"]),
    case("sentence-floor-w2", R1 + ["-i", "hyp.txt", "-sl", "-s", "floor", "-w", "2"]),
    # --confidence
    case("confidence-text", ONE + ALL3 + ["--confidence", "-f", "text"]),
    case("confidence-json", R1 + ["-i", "hyp.txt", "-m", "bleu", "chrf", "--confidence", "--confidence-n", "100"]),
    case("confidence-b", R1 + ["-i", "hyp.txt", "-ci", "-b"]),
    case("confidence-b-text", R1 + ["-i", "hyp.txt", "-m", "bleu", "ter", "-ci", "-b", "-f", "text"]),
    case("confidence-short", R1 + ["-i", "hyp.txt"] + ALL3 + ["-ci", "-cin", "50", "--short", "-f", "text"]),
    case("confidence-seed-env", R1 + ["-i", "hyp.txt", "-ci", "-cin", "200", "-f", "text"],
         env={"SACREBLEU_SEED": "7"}),
    # several systems, no test
    case("systems-json", MULTI + ALL3),
    case("systems-text", MULTI + ALL3 + ["-f", "text"]),
    case("systems-latex", MULTI + ["-m", "bleu", "chrf", "-f", "latex", "-w", "2"]),
    case("systems-short", MULTI + ["-m", "ter", "chrf", "--short", "-f", "text"]),
    case("systems-b", MULTI + ["-b"]),
    # paired tests
    case("paired-bs-text", MULTI + ALL3 + ["--paired-bs", "-f", "text"]),
    case("paired-bs-json", MULTI + ["--paired-bs", "--paired-bs-n", "100"]),
    case("paired-bs-short", MULTI + ["-m", "bleu", "chrf", "-pbs", "-pbsn", "200", "--short", "-f", "text"]),
    case("paired-bs-latex", MULTI + ["-m", "bleu", "chrf", "-pbs", "-pbsn", "200", "-f", "latex"]),
    case("paired-bs-seed-env", MULTI + ["-pbs", "-pbsn", "200", "-f", "text"], env={"SACREBLEU_SEED": "7"}),
    case("paired-ar-text", MULTI + ["-m", "bleu", "chrf", "--paired-ar", "--paired-ar-n", "1000", "-f", "text"]),
    case("paired-ar-json", MULTI + ["-par", "-parn", "500"]),
    case("paired-ar-latex-w2", MULTI + ["-m", "ter", "-par", "-parn", "300", "-f", "latex", "-w", "2"]),
    case("paired-ar-baseline-repeated", R1 + ["-i", "hyp.txt", "hyp.txt", S + "sys_a.txt", "-par", "-parn", "300",
                                              "-b", "-f", "text"]),
    # refusals: sacrebleu fails (stdout empty); assay exits 2 with one line
    case("err-sentence-two-metrics", ONE + ["-sl", "-m", "bleu", "chrf"], error=True),
    case("err-sentence-two-systems", MULTI + ["-sl"], error=True),
    case("err-sentence-confidence", ONE + ["-sl", "-ci"], error=True),
    case("err-test-set", ["-t", "wmt23", "-l", "en-de", "-i", "hyp.txt"], error=True),
    case("err-echo", ONE + ["--echo", "src"], error=True),
    case("err-citation", ["--citation"], error=True),
    case("err-no-refs", ["-i", "hyp.txt"], error=True),
    case("err-paired-one-system", ONE + ["--paired-bs"], error=True),
    case("err-confidence-two-systems", MULTI + ["--confidence"], error=True),
    case("err-duplicate-system", R1 + ["-i", S + "sys_a.txt", S + "sys_a.txt"], error=True),
    case("err-lengths", R1 + ["-i", "README.md"], error=True),
    case("err-nr-fields", [S + "refs.tsv", "-nr", "3", "-i", "hyp.txt"], error=True),
    case("err-langpair", ONE + ["-l", "english"], error=True),
    case("err-tok-flores", ONE + ["-tok", "flores101"], error=True),
    case("err-width", ONE + ["-w", "-1", "-b"], error=True),
    case("err-bad-metric", ONE + ["-m", "meteor"], error=True),
    case("err-both-paired", MULTI + ["--paired-bs", "--paired-ar"], error=True),
]


def command_env(extra: dict[str, str]) -> dict[str, str]:
    """The environment of one run: this one, without sacrebleu's own variables, plus the case's."""
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED")}
    env.update(extra)
    return env


def run_sacrebleu(c: dict[str, Any], executable: str) -> tuple[bytes, int]:
    """sacrebleu's stdout and exit status for one case."""
    stdin = (SAMPLE / c["stdin"]).read_bytes() if c["stdin"] else b""
    proc = subprocess.run([executable, *c["args"]], cwd=SAMPLE, input=stdin, capture_output=True,
                          env=command_env(c["env"]), timeout=600)
    return proc.stdout, proc.returncode


def sacrebleu_executable() -> str:
    """The ``sacrebleu`` script next to this interpreter (else on PATH), checked to be 2.6.0."""
    import sacrebleu

    if sacrebleu.__version__ != TOOL_VERSION:
        raise SystemExit(f"regen sacrebleu-cli: sacrebleu {TOOL_VERSION} needed, found {sacrebleu.__version__}")
    here = Path(sys.executable).parent / "sacrebleu"
    found = str(here) if here.exists() else shutil.which("sacrebleu")
    if not found:
        raise SystemExit("regen sacrebleu-cli: no sacrebleu script found")
    return found


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.regen.sacrebleu_cli")
    parser.add_argument("--out", type=Path, default=out)
    args = parser.parse_args(argv or [])
    executable = sacrebleu_executable()
    cases = []
    for c in CASES:
        stdout, status = run_sacrebleu(c, executable)
        if c["error"] != (status != 0):
            raise SystemExit(f"regen sacrebleu-cli: case {c['id']}: sacrebleu exited {status}, "
                             f"expected {'a failure' if c['error'] else 'success'}")
        cases.append({**c, "command": "sacrebleu " + " ".join(c["args"]) + (f" < {c['stdin']}" if c["stdin"] else ""),
                      "stdout": stdout.decode("utf-8"), "returncode": status})
    doc = {"format": "assay-sacrebleu-cli/1",
           "description": "sacrebleu 2.6.0's command line on fixtures/sample (+ fixtures/sacrebleu_cli systems): "
                          "stdout and exit status per command",
           "generated_by": {"command": "PYTHONHASHSEED=0 python -m conformance.regen sacrebleu-cli",
                            "cwd": "fixtures/sample", "python": platform.python_version(),
                            "tools": {"sacrebleu": TOOL_VERSION},
                            "provenance": "subprocess: sacrebleu ARGS (the case's stdin file and env)"},
           "cases": cases}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"regen: wrote {len(cases)} cases to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
