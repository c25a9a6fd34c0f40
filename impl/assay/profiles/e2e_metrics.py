"""The E2E NLG challenge's scoring script, described once for the profiles that reproduce it.

tuetschek/e2e-metrics ``measure_scores.py`` runs ``mteval/mteval-v13a-sig.pl`` for BLEU and NIST;
``bleu/e2e-mteval-v13a-sig`` and ``nist/e2e-mteval-v13a-sig`` share its name, version, command line
and audit hint (each profile states its own knobs).
"""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint

TOOL = "e2e-metrics mteval-v13a-sig.pl"
VERSIONS = ("e2e-metrics@1b9c4d87fd0b",)
COMMAND = ("python measure_scores.py testset_w_refs.csv system-output.tsv   (runs perl "
           "mteval/mteval-v13a-sig.pl -r ref.sgm -s src.sgm -t tst.sgm -f log.txt)")
AUDIT = AuditHint(0.3, grids=(AuditGrid(dict(lowercase=(True, False))),))
