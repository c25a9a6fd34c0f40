"""Regenerate fixtures/ from the live reference tools (never from assay).

    PYTHONHASHSEED=0 python conformance/regen.py [--only sacrebleu,nltk,moses,d2l] [--legacy-python PATH]
        [--d2l-source PATH --d2l-commit HASH [--d2l-repo d2l-ai/d2l-en] [--d2l-path d2l/torch.py]]

sacrebleu 2.x and NLTK run in this interpreter (pinned in tox's ``regen`` env); sacrebleu 1.x
and NLTK 3.5 run in the interpreter given by ``--legacy-python``; the Moses perl scripts run
from ``$ASSAY_MOSES_DIR`` (see conformance/references/moses.py); d2l's ``bleu`` is cut out of a
d2l snapshot file given by ``--d2l-source`` (see conformance/regen_d2l.py). Each expected value records
the tool, its version and the call that produced it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fixture_io import write_specs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="sacrebleu,nltk", help="comma-separated: sacrebleu, nltk, moses, d2l")
    parser.add_argument("--legacy-python", help="interpreter with sacrebleu 1.5.1 and nltk 3.5")
    parser.add_argument("--d2l-source", help="d2l snapshot file defining bleu() (needed for --only d2l)")
    parser.add_argument("--d2l-commit", help="commit of that d2l snapshot")
    parser.add_argument("--d2l-repo", default="d2l-ai/d2l-en", help="repository of the d2l snapshot")
    parser.add_argument("--d2l-path", default="d2l/torch.py", help="path of --d2l-source inside the repo")
    args = parser.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen: set PYTHONHASHSEED=0 so set iteration order is reproducible", file=sys.stderr)
        return 2
    specs = []
    only = set(args.only.split(","))
    if "sacrebleu" in only:
        from conformance import regen_sacrebleu
        specs += regen_sacrebleu.build_fixtures(args.legacy_python)
    if "nltk" in only:
        from conformance.references import nltk_ref
        specs += nltk_ref.build_fixtures(*( [args.legacy_python] if args.legacy_python else []))
    if "moses" in only:  # writes its own files; needs the perl scripts in $ASSAY_MOSES_DIR
        from conformance import regen_moses
        if regen_moses.main([]) != 0:
            return 1
    if "d2l" in only and args.d2l_source:
        if not args.d2l_commit:
            print("regen: --d2l-source needs --d2l-commit", file=sys.stderr)
            return 2
        from conformance import regen_d2l
        specs += regen_d2l.build_fixtures(args.d2l_source, args.d2l_commit, args.d2l_repo, args.d2l_path)
    elif "d2l" in only:
        print("regen: skipping d2l (no --d2l-source given)", file=sys.stderr)
    write_specs(specs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
