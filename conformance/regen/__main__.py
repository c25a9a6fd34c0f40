"""Regenerate fixtures/ from the live reference tools (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen [TARGET ...] [--list] [--out DIR]
        [--legacy-python PATH] [--vrama91-dir DIR]
        [--d2l-source PATH --d2l-commit HASH [--d2l-repo d2l-ai/d2l-en] [--d2l-path d2l/torch.py]]

TARGET is a name from ``--list`` or ``all`` (the default: every target needing nothing outside
PyPI, java and perl); ``--only a,b`` is accepted as well. ``--out DIR`` writes the files under DIR
instead of fixtures/ (to compare a regeneration with the committed files: ``diff -r``).
Each expected value records the tool, its version and the call that produced it.
"""
from __future__ import annotations

import argparse
import os
import sys
import textwrap
from pathlib import Path

from conformance.fixture_io import write_specs
from conformance.paths import FIXTURES
from conformance.regen.registry import DEFAULT, TARGETS, Options, Target, resolve


def describe(target: Target) -> str:
    """The ``--list`` entry of one target."""
    lines = [f"{target.name}{'' if target.default else '   (explicit: not in all)'}",
             f"  tool:    {target.tool}", f"  version: {target.version}", f"  call:    {target.command}",
             f"  writes:  {', '.join(target.writes)}"]
    if target.legacy_writes:
        lines.append(f"  + with --legacy-python: {', '.join(target.legacy_writes)}")
    if target.optional_writes:
        lines.append(f"  + with its extra input: {', '.join(target.optional_writes)}")
    if target.needs:
        lines.append(f"  needs:   {target.needs}")
    lines.append(f"  module:  {target.module}")
    return "\n".join(textwrap.fill(line, 118, subsequent_indent=" " * 11) for line in lines)


def run(target: Target, opts: Options) -> int:
    """Run one target, writing its files under ``opts.root``; the exit status."""
    print(f"regen: {target.name} ({target.tool}; {target.version})", flush=True)
    module = target.load()
    if target.build is not None:
        write_specs(target.build(module, opts), opts.root)
        return 0
    assert target.write is not None
    return target.write(module, opts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.regen", description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"targets or 'all' (default: all = {','.join(DEFAULT)})")
    parser.add_argument("--only", help="comma-separated targets (the same as naming them)")
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    parser.add_argument("--out", type=Path, default=FIXTURES, help="fixture root to write under (default fixtures/)")
    parser.add_argument("--legacy-python", help="interpreter with sacrebleu 1.5.1 and nltk 3.5")
    parser.add_argument("--vrama91-dir", help="checkout of vrama91/cider (Python 3) for the cider/vrama91 cases")
    parser.add_argument("--d2l-source", help="d2l snapshot file defining bleu() (needed for the d2l target)")
    parser.add_argument("--d2l-commit", help="commit of that d2l snapshot")
    parser.add_argument("--d2l-repo", default="d2l-ai/d2l-en", help="repository of the d2l snapshot")
    parser.add_argument("--d2l-path", default="d2l/torch.py", help="path of --d2l-source inside the repo")
    args = parser.parse_args(argv)
    if args.list:
        print("\n\n".join(describe(t) for t in TARGETS))
        return 0
    names = args.targets + [n.strip() for n in (args.only or "").split(",") if n.strip()]
    targets = resolve(names or ["all"])
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen: set PYTHONHASHSEED=0 so set iteration order is reproducible", file=sys.stderr)
        return 2
    opts = Options(root=args.out.resolve(), legacy_python=args.legacy_python, vrama91_dir=args.vrama91_dir,
                   d2l_source=args.d2l_source, d2l_commit=args.d2l_commit, d2l_repo=args.d2l_repo,
                   d2l_path=args.d2l_path)
    for target in targets:
        status = run(target, opts)
        if status != 0:
            print(f"regen: {target.name} failed (exit status {status})", file=sys.stderr)
            return status
    return 0


if __name__ == "__main__":
    sys.exit(main())
