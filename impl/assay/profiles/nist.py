"""NIST profiles: mteval-v13a/v14 (the default), NLTK and the E2E challenge's mteval-v13a-sig, each with the call it reproduces."""
from __future__ import annotations

from assay.profiles import e2e_metrics
from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_MTEVAL = dict(tokenize="mteval-13a", lowercase=True, lowercase_mode="ascii", max_ngram_order=5,
               multi_ref="union", ref_length="average", empty_order="zero")
_MTEVAL_ARGS = "-r ref.sgm -s src.sgm -t tst.sgm -n   (-c: case_sensitive=true)"

PROFILES: tuple[Profile, ...] = (
    Profile(
        "nist", "mteval-v13a", "mteval-v13a.pl", ("mosesdecoder@34452895f350",), _MTEVAL,
        "mteval-v13a.pl NIST: clip by max count over all references, average reference length.",
        command=f"perl mteval-v13a.pl {_MTEVAL_ARGS}",
        text_format="mteval",
        audit=AuditHint(0.0, grids=(AuditGrid(dict(lowercase=(True, False))),), standard_for=("plain", "captions"))),
    Profile(
        "nist", "mteval-v14", "mteval-v14.pl", ("mosesdecoder@34452895f350",), _MTEVAL,
        "mteval-v14.pl NIST (same scores as v13a).",
        command=f"perl mteval-v14.pl {_MTEVAL_ARGS}",
        text_format="mteval",
        audit=AuditHint(0.2, grids=(AuditGrid(dict(lowercase=(True, False))),))),
    Profile(
        "nist", "nltk", "nltk", ("3.10.4",),
        dict(_MTEVAL, tokenize="none", lowercase=False, multi_ref="best-single", ref_length="chosen",
             empty_order="error"),
        "NLTK corpus_nist/sentence_nist: best single reference per order, that reference's length; "
        "ZeroDivisionError when an order has no hypothesis n-grams.",
        command="nltk.translate.nist_score.corpus_nist(list_of_references, hypotheses, n=5) (sentence level: "
                "sentence_nist(references, hypothesis, n=5)); list_of_references[i] = [r.split() for each "
                "reference r of segment i], hypotheses[i] = hyp.split()",
        audit=AuditHint(0.7, grids=(AuditGrid(dict(lowercase=(True, False))),))),
    Profile(
        "nist", "e2e-mteval-v13a-sig", e2e_metrics.TOOL, e2e_metrics.VERSIONS,
        dict(_MTEVAL, ref_length="corpus-mean"),
        "NIST as the E2E NLG challenge scored it (tuetschek/e2e-metrics measure_scores.py, its "
        "mteval-v13a-sig.pl): mteval-v13a, but missing references are empty segments and the length "
        "penalty divides all reference words by the mean number of non-empty references per segment.",
        command=e2e_metrics.COMMAND, text_format="mteval", audit=e2e_metrics.AUDIT),
)

DEFAULT = "mteval-v13a"
