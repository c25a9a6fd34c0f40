"""Regenerate fixtures/tokenizers/ptb_e2e.json: the CoreNLP 3.4.1 PTBTokenizer jar (as pycocoevalcap
1.2 runs it: ``-preserveLines -lowerCase``) on real text, frozen for the default test environment.

    PYTHONHASHSEED=0 python -m conformance.regen ptb-e2e     # needs java and the E2E references

Inputs: the E2E NLG challenge's test references (tuetschek/e2e-dataset ``testset_w_refs.csv``,
CC BY-SA 4.0: the fixture carries that licence and the attribution), read through
``conformance/tests/e2e/data.py`` (``$ASSAY_E2E`` or the fetched mirror), and the cases below, which
exercise each difference class found by running the jar and assay on all E2E references and outputs,
the COCO captions, DART, CNN/DM summaries and WMT22 English lines (see
``conformance/tests/tokenizers/test_ptb_corpora_refs.py``). The references are taken in file order,
distinct ones only, those holding a character other than a letter, digit or space first (the rare
patterns), then the rest, up to ``LIMIT`` lines; the cases come last. All of it is ONE jar run (one
caption per line, as the wrapper does), so each line's tokens are the jar's in that batch.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from conformance.paths import FIXTURES
from conformance.references import ptb_ref
from conformance.tests.e2e import data

OUT = FIXTURES / "tokenizers" / "ptb_e2e.json"
FORMAT = "assay-ptb-frozen/1"
LIMIT = 3000

#: one or more cases per difference class found on real text (written here, not copied)
CASES = [
    # a word or number before ".," ".;" ".:" keeps its period (E2E: "the city center., near")
    "It is located in the city center., near the river.", "A pub in the Centre.; cheap food.",
    "Open till 5., daily.", "A café., with seats.", "A family-friendly., cheap place.", "It is a pub.: yes",
    # a period right before a hyphen joins ("day.-xinhua", "u.s.-iranian", "1.-go")
    "Beijing, one day.-Xinhua", "the U.S.-Iranian talks", "1.-Go to the shop.", "ab.-cd.-ef",
    # the jar's own bracket escapes stay one token
    "a car -LRB- shown -RRB- here", "-LSB- sic -RSB- and -LCB- x -RCB-", "(-LRB-)", "-lrb- x -rrb-",
    # "'n" is a token only before a space, a quote or the end
    "rock 'n roll", "rock 'n' roll", "called them 'n*****' twice", "'n, x", "'n1 x",
    # No./Nos./ca. before a number
    "(Nos. 2 and 3)", "address No.555 north", "NO.5", "since ca. 1900", "ca.5", "no. x",
    # hashtags with non-ASCII letters
    "the #café menu", "tag #Ελλάδα here", "#a1 and #1",
]


def _select(refs: list[str], limit: int) -> list[str]:
    distinct = list(dict.fromkeys(r.replace("\n", " ") for r in refs if r.strip()))
    rare = [r for r in distinct if re.search(r"[^A-Za-z0-9 ]", r.replace(".", "").replace(",", ""))]
    rest = [r for r in distinct if r not in set(rare)]
    return (rare + rest)[:limit]


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--limit", type=int, default=LIMIT)
    args = ap.parse_args(argv or [])
    reason = ptb_ref.unavailable_reason()
    if reason:
        print(f"regen ptb-e2e: {reason}", file=sys.stderr)
        return 2
    source = data.locate()
    if source is None:
        print(f"regen ptb-e2e: no E2E references ({data.WHERE})", file=sys.stderr)
        return 2
    refs = [ref for _, ref in data.rows(source.reference_bytes())]
    lines = _select(refs, args.limit) + CASES
    jar = ptb_ref.jar_lines(lines, timeout=600)[:len(lines)]
    doc = {
        "format": FORMAT,
        "provenance": {
            "tool": "Stanford CoreNLP PTBTokenizer (stanford-corenlp-3.4.1.jar as pycocoevalcap 1.2 ships it)",
            "command": "java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines "
                       "-lowerCase FILE (FILE = the lines below joined by newlines: one batch)",
            "inputs": f"E2E NLG challenge test references (tuetschek/e2e-dataset@{data.DATASET_COMMIT} "
                      "testset_w_refs.csv, by Novikova, Dušek and Rieser, licensed CC BY-SA 4.0: "
                      "https://creativecommons.org/licenses/by-sa/4.0/; selected, not modified), then the "
                      "cases of conformance/regen/ptb_e2e.py CASES",
            "license": "the 'lines' taken from the E2E dataset are CC BY-SA 4.0 (attribution above); this "
                       "file is shared under the same licence",
            "regen": "PYTHONHASHSEED=0 python -m conformance.regen ptb-e2e",
        },
        "lines": lines,
        "jar": jar,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"regen ptb-e2e: wrote {out} ({len(lines)} lines)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
