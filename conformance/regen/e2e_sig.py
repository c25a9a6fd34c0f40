"""Regenerate the conform cases of the E2E challenge's mteval script (``mteval-v13a-sig.pl``).

tuetschek/e2e-metrics scores BLEU and NIST with its own copy of mteval, ``mteval/mteval-v13a-sig.pl``
(it adds a required ``-f STATS`` log and, for NIST, counts only non-empty references in the length
penalty). Its wrapper writes every reference slot a segment lacks as an empty ``<seg>`` (the E2E
layout: 1 to 16 references per input). This target runs that script as a black box, through the
Moses adapter (``conformance/references/moses.py`` ``mteval(script_path=...)``: temp dir, scrubbed
``LC_ALL=C`` environment, an official run and a run of a copy whose printf float formats are widened
to ``%.12f``), on

- the Moses target's generated corpora (``generate_corpus(seed, kind="mixed")``, seeds 0..N-1) that
  have at least two reference streams, with references emptied the way the wrapper pads them: each
  segment keeps its first ``k`` references (``k`` drawn per segment), the other slots are ``""``; a
  quarter of the corpora empty random slots after the first instead (a hole in a middle stream);
- hand-made edge cases (``EDGE``): E2E-like sentences with 1 to 4 references, a short hypothesis
  whose closest reference would be an empty one, a segment with no non-empty reference (the script
  dies: ``Illegal division by zero``, recorded as a crash), a reference that is only whitespace or
  ``<skipped>``, an empty hypothesis, an all-empty stream.

In all E2E data the first reference slot is filled, and so it is in the cases above. By default
(``--first-slot empty``) every fourth corpus is recorded again with the first slot emptied in about
half of the segments that keep another reference (``gen-first-NNN``), and ``FIRST_SLOT_EDGE`` is
added: the script counts an empty FIRST reference in BLEU's closest reference length (length 0; ties
go to the shorter), while it ignores empty references in later slots (black-box: the ``-f`` log's
reference length per segment). The profile reproduces this with ``empty_refs=drop-after-first``
(``drop`` ignores every empty reference: edge ``first-slot-empty`` gives 0.889140 from the script,
0.692463 with ``drop``). NIST is unaffected: its length penalty counts the non-empty references, first
slot or not (the NIST profile reproduces these cases unchanged). ``--first-slot filled`` records only
the cases with the first slot filled (the files before that knob value).

Each run is recorded twice: as a ``bleu`` case (0-1 scale) and as a ``nist`` case, profile
``e2e-mteval-v13a-sig``; the script's own command line (no ``-c``: lowercased) gives the cases at
the profile's defaults, ``-c`` the cases with ``lowercase=false``.

The script is read from ``$ASSAY_E2E_METRICS`` (an e2e-metrics checkout) or from the fetched bare
mirror ``/work/.mirror/tuetschek+e2e-metrics/repo`` at ``conformance/tests/e2e/data.py``
``METRICS_COMMIT``; nothing of it is kept: only its outputs, with its commit and sha256.

    PYTHONHASHSEED=0 python -m conformance.regen e2e-sig
    python -m conformance.regen.e2e_sig [--seeds 200] [--jobs 2] [--first-slot empty|filled]
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from conformance.fixture_io import FIXTURES, write_fixture_file
from conformance.generate.corpus import generate_corpus
from conformance.references import moses
from conformance.regen.moses import case, command, expected, parallel
from conformance.tests.e2e.data import METRICS_COMMIT, MIRRORS

REPO = "tuetschek/e2e-metrics"
SCRIPT = "mteval/mteval-v13a-sig.pl"
PROFILE = "e2e-mteval-v13a-sig"
STATS = ("-f", "log.txt")  #: the script refuses to run without a stats file (written in the temp dir)
#: config -> (knobs, moses.mteval kwargs): the wrapper's call (lowercased), and -c
CONFIGS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "default": ({}, {"case_sensitive": False}),
    "c": ({"lowercase": False}, {"case_sensitive": True}),
}

E2E_HYPS = ["The Eagle is a cheap coffee shop near Burger King in the riverside area.",
            "Zizzi is a family-friendly pub serving English food.",
            "There is a Japanese restaurant called The Punter near Caf\u00e9 Sicilia, with a price range of \u00a320-25."]
E2E_REFS = [
    ["The Eagle is a low-priced coffee shop in riverside, near Burger King.",
     "Zizzi is a pub that serves English food and is family friendly.",
     "The Punter is a Japanese restaurant near Caf\u00e9 Sicilia; it costs \u00a320-25."],
    ["Near Burger King in the riverside area you will find The Eagle, a cheap coffee shop.", "",
     "Near Caf\u00e9 Sicilia is The Punter, a Japanese place with prices of \u00a320-25."],
    ["A cheap coffee shop, The Eagle, is by the river near Burger King.", "",
     "The Punter serves Japanese food for \u00a320-25 near Caf\u00e9 Sicilia."],
    ["", "", "Japanese food at The Punter, near Caf\u00e9 Sicilia, is moderately priced (\u00a320-25)."],
]
CAT = "the cat sat on the mat"
#: name -> (note, hyps, refs)
EDGE: dict[str, tuple[str, list[str], list[list[str]]]] = {
    "e2e-like": ("E2E-like outputs: 3, 1 and 4 references (trailing slots empty, as the wrapper pads them)",
                 E2E_HYPS, E2E_REFS),
    "middle-hole": ("an empty reference in the middle stream, non-empty ones after it",
                    ["the cat sat on the mat today", "a dog barked at the postman"],
                    [["the cat sat on a mat today", "a dog barked at a postman"],
                     ["", "the dog barked loudly at the postman"],
                     ["today the cat sat on the mat", "a dog was barking at the postman"]]),
    "short-hyp-empty-closest": (
        "one-word hypotheses: an empty reference (length 0) would be the closest if it counted",
        ["cat", "dog", "the cat sat on the mat"],
        [["the cat sat", "the dog barked", "the cat sat on the mat"],
         ["", "", "a cat sat on the mat"]]),
    "no-ref-segment": ("the second segment has no non-empty reference at all",
                       [CAT, "a dog barked", "the bird sang a song"],
                       [[CAT, "", "a bird sang a song"], ["the cat is on the mat", "", "the bird sang"]]),
    "whitespace-ref": ("a reference of spaces only (empty after tokenisation)",
                       [CAT, "a dog barked loudly"],
                       [[CAT, "the dog barked loudly"], ["   ", "a dog barked"]]),
    "skipped-ref": ("a reference that is only '<skipped>' (removed by mteval's preprocessing)",
                    [CAT, "a dog barked loudly"],
                    [[CAT, "the dog barked loudly"], ["<skipped>", "a dog barked"]]),
    "empty-hyp": ("an empty hypothesis among segments with empty references",
                  ["", CAT, "a dog barked at the postman"],
                  [["the bird sang", CAT, "the dog barked at the postman"],
                   ["a bird sang a song", "", "a dog barked"]]),
    "empty-stream": ("a whole reference stream of empty segments",
                     [CAT, "a dog barked at the postman"],
                     [[CAT, "the dog barked at the postman"], ["", ""], ["the cat is on the mat", ""]]),
    "uneven-counts": ("segments with 1, 2, 3 and 4 non-empty references (length penalty's mean 2.5)",
                      [CAT, "a dog barked at the postman", "the bird sang a song", "it rained all day long"],
                      [["the cat sat on a mat", "the dog barked at the postman", "a bird sang a song",
                        "it rained all day"],
                       ["", "a dog barked at a postman", "the bird sang", "it was raining all day long"],
                       ["", "", "the bird sang a long song", "rain fell all day long"],
                       ["", "", "", "all day long it rained"]]),
    "no-empty": ("no empty reference (mteval-v13a's case: the two scripts agree)",
                 [CAT, "a dog barked at the postman"],
                 [["the cat sat on a mat", "the dog barked at the postman"],
                  ["a cat sat on the mat", "a dog barked"]]),
    "case-and-entities": ("capitals, punctuation and SGML entities, with empty references",
                          ["The CAT &amp; the Dog sat ON the mat.", "\"Hello,\" said Zizzi's owner."],
                          [["the cat &amp; the dog sat on the mat .", "&quot;Hello,&quot; said the owner of Zizzi."],
                           ["", "\"HELLO\" SAID ZIZZI'S OWNER."]]),
}


#: an empty FIRST reference slot (never in E2E data: every MR has a reference, written first). The script
#: then still counts that slot in BLEU's closest reference length (as length 0, ties -> shorter), while
#: empty slots after the first are ignored (BLEU ``empty_refs=drop-after-first``; see the module docstring)
FIRST_SLOT_EDGE: dict[str, tuple[str, list[str], list[list[str]]]] = {
    "first-slot-empty": ("the first reference slot empty, a short hypothesis: the empty slot is its closest length",
                         ["x y", CAT], [["", CAT], ["a b c d", "the cat sat"]]),
    "first-slot-empty-far": ("the first reference slot empty, a longer hypothesis: a non-empty slot is closer",
                             ["x y z w v", CAT], [["", CAT], ["a b c d e f g", "the cat sat"]]),
    "first-slot-spaces": ("the first reference slot only spaces, a one-word hypothesis",
                          ["x", CAT], [["   ", CAT], ["a b c", "the cat sat"]]),
}


def with_holes(seed: int, refs: list[list[str]]) -> tuple[list[list[str]], str]:
    """Empty some reference slots after the first (deterministic per seed); returns the streams and
    how. The first slot stays filled, as in every E2E input."""
    rng = random.Random(f"e2e-sig-{seed}")
    n_refs, n_seg = len(refs), len(refs[0])
    out = [list(stream) for stream in refs]
    if rng.random() < 0.25:
        for i in range(n_seg):
            for j in rng.sample(range(1, n_refs), rng.randint(0, n_refs - 1)):
                out[j][i] = ""
        return out, "random slots after the first emptied"
    for i in range(n_seg):
        for j in range(rng.randint(1, n_refs), n_refs):
            out[j][i] = ""
    return out, "each segment keeps its first k references (k drawn per segment), the other slots are ''"


def first_slot_holes(seed: int, refs: list[list[str]]) -> tuple[list[list[str]], str]:
    """:func:`with_holes`, then the FIRST slot emptied in about half of the segments that keep
    another non-empty reference (deterministic per seed)."""
    out, how = with_holes(seed, refs)
    rng = random.Random(f"e2e-sig-first-{seed}")
    for i in range(len(out[0])):
        if rng.random() < 0.5 and any(stream[i].strip() for stream in out[1:]):
            out[0][i] = ""
    return out, f"{how}; then the first slot emptied in about half of the segments keeping another reference"


def plan(n_seeds: int, first_slot: bool = True) -> list[tuple[str, str, list[str], list[list[str]]]]:
    """``(case id stem, note, hyps, refs)`` for the generated corpora and the edge cases; with
    ``first_slot`` also every fourth corpus again with empty first slots (``gen-first-NNN``) and
    :data:`FIRST_SLOT_EDGE`."""
    out, firsts = [], []
    for seed in range(n_seeds):
        corpus = generate_corpus(seed, kind="mixed")
        if len(corpus["refs"]) < 2:
            continue
        stem = f"generate_corpus({seed}, kind='mixed'): {len(corpus['hyps'])} segments, {len(corpus['refs'])} refs"
        refs, how = with_holes(seed, corpus["refs"])
        out.append((f"e2e-sig/gen-{seed:03d}", f"{stem}; {how}", corpus["hyps"], refs))
        if first_slot and seed % 4 == 0:
            refs, how = first_slot_holes(seed, corpus["refs"])
            firsts.append((f"e2e-sig/gen-first-{seed:03d}", f"{stem}; {how}", corpus["hyps"], refs))
    edges = {**EDGE, **FIRST_SLOT_EDGE} if first_slot else EDGE
    out += [(f"e2e-sig/edge/{name}", note, hyps, refs) for name, (note, hyps, refs) in edges.items()]
    return out + firsts


def script_source(dest: Path) -> tuple[Path, str]:
    """The script (copied to ``dest``) and the commit it is read at."""
    checkout = os.environ.get("ASSAY_E2E_METRICS")
    if checkout:
        path = Path(checkout) / SCRIPT
        rev = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True)
        if rev.returncode != 0:
            raise SystemExit(f"regen e2e-sig: {checkout} is not a git checkout (its commit is the provenance)")
        commit = rev.stdout.strip()
    else:
        mirror = MIRRORS / REPO.replace("/", "+") / "repo"
        show = subprocess.run(["git", "--git-dir", str(mirror), "show", f"{METRICS_COMMIT}:{SCRIPT}"],
                              capture_output=True)
        if show.returncode != 0:
            raise SystemExit(f"regen e2e-sig: fetch {REPO} (mirror {mirror}) or set $ASSAY_E2E_METRICS")
        path, commit = dest / Path(SCRIPT).name, METRICS_COMMIT
        path.write_bytes(show.stdout)
    if not path.is_file():
        raise SystemExit(f"regen e2e-sig: no {SCRIPT} in {checkout}")
    return path, commit


def main(argv: list[str] | None = None, root: Path = FIXTURES) -> int:
    """Run the script on every planned corpus and configuration; write the two fixture files."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--first-slot", choices=("empty", "filled"), default="empty",
                    help="empty: holes may empty the first reference slot too, plus FIRST_SLOT_EDGE (default); "
                         "filled: the first slot stays filled, as in all E2E data")
    args = ap.parse_args(argv if argv is not None else sys.argv[1:])
    with tempfile.TemporaryDirectory(prefix="assay-e2e-sig-") as tmp:
        script, commit = script_source(Path(tmp))
        sha = hashlib.sha256(script.read_bytes()).hexdigest()
        version = f"e2e-metrics@{commit[:12]}"
        runs = [(stem, note, hyps, refs, cfg) for stem, note, hyps, refs in plan(args.seeds, args.first_slot == "empty") for cfg in CONFIGS]
        results = parallel([lambda r=r: moses.mteval(r[2], r[3], script_path=script, extra_args=STATS,
                                                      **CONFIGS[r[4]][1]) for r in runs], args.jobs)
    bleu, nist = [], []
    for (stem, note, hyps, refs, cfg), res in zip(runs, results):
        knobs = CONFIGS[cfg][0]
        full_note = f"{note}; {command(res).split('   ')[0]}"
        for metric, out in (("bleu", bleu), ("nist", nist)):
            out.append(case(f"{stem}/{cfg}", full_note, PROFILE, knobs, hyps, refs,
                            [expected(res, version, metric)]))
    gen_by = {
        "command": f"python -m conformance.regen.e2e_sig --seeds {args.seeds} --first-slot {args.first_slot}"
                   + "   (= python -m conformance.regen e2e-sig at the defaults)",
        "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "unset"),
        "tools": {"e2e-metrics": commit, "perl": moses.perl_version()},
        "repo": REPO, "commit": commit, "path": SCRIPT,
        "scripts_sha256": {Path(SCRIPT).name: sha},
        "provenance": f"{REPO}@{commit} {SCRIPT}, run as a black box by conformance/references/moses.py "
                      "mteval(script_path=...) (LC_ALL=C; SGML as in research §4.3, text written raw, a missing "
                      "reference an empty <seg> as e2e-metrics' create_mteval_file writes it); scores from a "
                      "temporary copy whose printf float formats are widened to %.12f, the official rounded "
                      "output in 'official'",
    }
    desc = ("{what} of e2e-metrics' mteval-v13a-sig.pl (the E2E NLG challenge's scorer) on generate_corpus() "
            "corpora with 2+ reference streams whose slots are partly empty (the E2E layout), and hand-made edge "
            "cases; knobs {{}} = the wrapper's call (lowercased), lowercase=false = -c.")
    write_fixture_file("bleu", "e2e_sig_generated", bleu, desc.format(what="BLEU (0-1 scale)"), gen_by, root)
    write_fixture_file("nist", "e2e_sig_generated", nist, desc.format(what="NIST"), gen_by, root)
    print(f"regen e2e-sig: wrote {len(bleu)} bleu and {len(nist)} nist cases under {root}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
