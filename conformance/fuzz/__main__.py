"""``python -m conformance.fuzz``: run harnesses under atheris (libFuzzer), one process per target.

    python -m conformance.fuzz all --seconds 15              # every target, 15 s each
    python -m conformance.fuzz tok_13a coco_json --runs 200000
    python -m conformance.fuzz all --runs 100000 --jobs 2    # two targets at a time
    python -m conformance.fuzz replay coco_json crash-1a2b…  # rerun a crash file without atheris
    python -m conformance.fuzz list

``--runs`` and ``--seconds`` are per target (whichever comes first; at least one is needed). Each
target's corpus is kept in ``OUT/corpus/TARGET`` (seeded from the harness's ``SEEDS``, so a second
run starts where the first stopped), its libFuzzer log in ``OUT/logs/TARGET.log`` and a crashing
input in ``OUT/crashes/TARGET-crash-…``. A summary table gives inputs run, seconds and the outcome
per target; the exit status is 1 when any target crashed, hung or ran out of memory.

Only the ``assay`` package is instrumented for coverage. ``--pure`` sets ``ASSAY_PURE=1`` (the
pure-Python path instead of the compiled twins).
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from hashlib import sha1
from pathlib import Path

from conformance.fuzz import TARGETS

DEFAULT_OUT = Path(os.environ.get("ASSAY_FUZZ_DIR", ".fuzz"))
MAX_LEN = 8192            # bytes of one input
INPUT_TIMEOUT = 30        # seconds one input may take before libFuzzer calls it a hang
RSS_LIMIT_MB = 3072


@dataclass
class Outcome:
    target: str
    runs: int
    seconds: float
    status: str           # ok | crash | timeout | oom | failed
    detail: str = ""


def _harness(target: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(f"conformance.fuzz.{target}")


def _prepare(target: str, out: Path) -> tuple[Path, Path | None]:
    """The target's corpus folder with its seeds written in, and its dictionary file (if any)."""
    module = _harness(target)
    corpus = out / "corpus" / target
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in module.SEEDS:
        (corpus / f"seed-{sha1(seed).hexdigest()[:16]}").write_bytes(seed)
    words = getattr(module, "DICTIONARY", None)
    if not words:
        return corpus, None
    dict_path = out / "dicts" / f"{target}.dict"
    dict_path.parent.mkdir(parents=True, exist_ok=True)
    dict_path.write_text("".join(f"{_dict_entry(w)}\n" for w in words), encoding="utf-8")
    return corpus, dict_path


def _dict_entry(word: str) -> str:
    body = "".join(c if 0x20 <= ord(c) < 0x7f and c not in '"\\' else "".join(f"\\x{b:02x}" for b in c.encode())
                   for c in word)
    return f'"{body}"'


_DONE = re.compile(r"stat::number_of_executed_units:\s*(\d+)")
_DONE_LINE = re.compile(r"Done (\d+) runs in (\d+) second")
_ARTIFACT = re.compile(r"Test unit written to (\S+)")


def _fuzz(target: str, args: argparse.Namespace) -> Outcome:
    out: Path = args.out
    corpus, dict_path = _prepare(target, out)
    (out / "logs").mkdir(parents=True, exist_ok=True)
    (out / "crashes").mkdir(parents=True, exist_ok=True)
    flags = [f"-max_len={MAX_LEN}", f"-timeout={INPUT_TIMEOUT}", f"-rss_limit_mb={RSS_LIMIT_MB}",
             "-print_final_stats=1", f"-artifact_prefix={out / 'crashes'}/{target}-"]
    if args.runs:
        flags.append(f"-runs={args.runs}")
    if args.seconds:
        flags.append(f"-max_total_time={args.seconds}")
    if dict_path is not None:
        flags.append(f"-dict={dict_path}")
    env = dict(os.environ)
    if args.pure:
        env["ASSAY_PURE"] = "1"
    log = out / "logs" / f"{target}.log"
    start = time.monotonic()
    with open(log, "w", encoding="utf-8") as fh:
        code = subprocess.call([sys.executable, "-m", "conformance.fuzz", "_child", target, *flags, str(corpus)],
                               stdout=fh, stderr=subprocess.STDOUT, env=env)
    seconds = time.monotonic() - start
    text = log.read_text(encoding="utf-8", errors="replace")
    runs = max([int(n) for n in _DONE.findall(text)] + [int(m[0]) for m in _DONE_LINE.findall(text)] + [0])
    artifact = _ARTIFACT.search(text)
    if code == 0:
        return Outcome(target, runs, seconds, "ok")
    status = ("timeout" if "libFuzzer: timeout" in text else "oom" if "out-of-memory" in text
              else "crash" if artifact else "failed")
    detail = artifact.group(1) if artifact else f"exit status {code}; see {log}"
    return Outcome(target, runs, seconds, status, detail)


def _child(target: str, flags: list[str]) -> None:
    """Runs inside the per-target process: instrument assay, then hand over to libFuzzer."""
    import atheris  # local: only the fuzz env installs it

    with atheris.instrument_imports(include=["assay"]):
        module = _harness(target)
    atheris.Setup([sys.argv[0], *flags], module.one_input)
    atheris.Fuzz()


def _replay(target: str, files: list[str]) -> int:
    module = _harness(target)
    failed = 0
    for name in files:
        try:
            module.one_input(Path(name).read_bytes())
        except Exception:
            failed += 1
            print(f"{name}: FAILS", file=sys.stderr)
            traceback.print_exc()
        else:
            print(f"{name}: passes")
    return 1 if failed else 0


def _table(outcomes: list[Outcome], wall: float) -> str:
    rows = [f"{'target':<18} {'inputs':>10} {'seconds':>8} {'inputs/s':>9}  outcome"]
    for o in outcomes:
        rate = o.runs / o.seconds if o.seconds else 0.0
        rows.append(f"{o.target:<18} {o.runs:>10} {o.seconds:>8.1f} {rate:>9.0f}  {o.status}"
                    + (f" ({o.detail})" if o.detail else ""))
    total = sum(o.runs for o in outcomes)
    rows.append(f"{'total':<18} {total:>10} {wall:>8.1f}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_child"]:
        _child(argv[1], argv[2:])
        return 0
    if argv[:1] == ["list"]:
        print("\n".join(TARGETS))
        return 0
    if argv[:1] == ["replay"]:
        if len(argv) < 3 or argv[1] not in TARGETS:
            print("usage: python -m conformance.fuzz replay TARGET FILE [FILE ...]", file=sys.stderr)
            return 2
        return _replay(argv[1], argv[2:])
    p = argparse.ArgumentParser(prog="python -m conformance.fuzz", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("targets", nargs="+", help=f"'all' or any of: {', '.join(TARGETS)}")
    p.add_argument("--runs", type=int, default=0, help="inputs per target")
    p.add_argument("--seconds", type=int, default=0, help="time per target")
    p.add_argument("--jobs", type=int, default=1, help="targets fuzzed at the same time (default 1)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="corpora, logs and crashes (default .fuzz)")
    p.add_argument("--pure", action="store_true", help="ASSAY_PURE=1: fuzz the pure-Python path")
    args = p.parse_args(argv)
    targets = list(TARGETS) if args.targets == ["all"] else args.targets
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        p.error(f"unknown target(s) {', '.join(unknown)}; known: all, {', '.join(TARGETS)}")
    if args.runs <= 0 and args.seconds <= 0:
        p.error("give --runs N and/or --seconds T (per target)")
    try:
        import atheris  # noqa: F401  # local: only the fuzz env installs it
    except ImportError:
        p.error("atheris is not installed (pip install atheris; or run `tox -e fuzz`)")
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = []
        for outcome in pool.map(lambda t: _fuzz(t, args), targets):
            print(f"{outcome.target}: {outcome.runs} inputs in {outcome.seconds:.1f} s: {outcome.status}"
                  + (f" ({outcome.detail})" if outcome.detail else ""), flush=True)
            outcomes.append(outcome)
    print(_table(outcomes, time.monotonic() - start))
    return 0 if all(o.status == "ok" for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
