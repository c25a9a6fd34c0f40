"""Run benchmarks, each in its own process: ``python -m conformance.bench all|NAME ... [options]``.

Options after the names (e.g. ``--quick``, ``--repeats 1``, ``--memory tracemalloc``) go to every
benchmark. ``all`` runs them in the order below; a failing benchmark does not stop the others, and
the exit status is 1 when any failed.
"""
from __future__ import annotations

import os
import subprocess
import sys

from conformance.paths import REPO_ROOT

#: every benchmark module of this package, in the order ``all`` runs them
BENCHES = ("bleu", "chrf", "ter", "nist", "significance", "rouge", "coco", "ptb", "meteor", "meteor15", "report", "report_page", "audit",
           "conform", "dask")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names: list[str] = []
    while args and not args[0].startswith("-"):
        names.append(args.pop(0))
    if not names:   # -h, --help, or nothing to run
        print(__doc__ + f"\nbenchmarks: {', '.join(BENCHES)}")
        return 0 if args[:1] in (["-h"], ["--help"]) else 2
    unknown = [n for n in names if n != "all" and n not in BENCHES]
    if unknown:
        print(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHES)}, all", file=sys.stderr)
        return 2
    chosen = BENCHES if "all" in names else tuple(dict.fromkeys(names))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH")) if p))
    failed = []
    for name in chosen:
        print(f"\n$ python -m conformance.bench.{name} {' '.join(args)}".rstrip(), flush=True)
        if subprocess.run([sys.executable, "-m", f"conformance.bench.{name}", *args], env=env).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
