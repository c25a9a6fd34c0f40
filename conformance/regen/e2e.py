"""Regenerate fixtures/e2e/oracle.json: the E2E NLG challenge's official scoring script run on the
challenge's 21 primary systems, with the mteval statistics it writes.

    PYTHONHASHSEED=0 python -m conformance.regen e2e      # needs the inputs below
    python -m conformance.regen.e2e --published           # fixtures/e2e/published.json from the page

The oracle is tuetschek/e2e-metrics (``measure_scores.py``: pycocoevalcap's PTBTokenizer, METEOR 1.5
jar, Rouge and Cider, and ``mteval/mteval-v13a-sig.pl`` for BLEU and NIST), run as a black box in
its own interpreter (``$ASSAY_E2E_PYTHON``, default this one; it needs the script's requirements:
``future``, and ``matplotlib``/``scikit-image`` only for pycocotools' drawing code) with the checkout
in ``$ASSAY_E2E_METRICS`` (its jars are Git LFS-sized files: copy ``stanford-corenlp-3.4.1.jar``,
``meteor-1.5.jar`` and ``paraphrase-en.gz`` from pycocoevalcap 1.2 if the checkout lacks them).
Per system this records

- the five values ``measure_scores.py`` prints (``'%.4f'``) and the full floats COCOEvalCap keeps;
- the statistics ``mteval-v13a-sig.pl -f LOG`` writes per segment (Kevin Gimpel's significance
  log: n-gram matches, test and reference n-gram counts, matched information per order), summed
  over the corpus (one block per metric is written; their information sums differ in the last
  bits, as Perl's hash order changes the order of the additions: the last block, NIST's, is kept),
  plus the number of segments and of non-empty references. These numbers are
  the tool's, and are enough to recompute its BLEU and NIST, so the default test environment
  checks assay's score stage against them without the system outputs (whose repository,
  tuetschek/e2e-eval, states no licence: they are not committed).

The BLEU/NIST half repeats ``measure_scores.run_mteval``'s command with ``-f`` kept (the wrapper
deletes its temporary directory); its ``.sgm`` files come from the wrapper's own
``create_mteval_file``. Inputs: ``$ASSAY_E2E`` (see ``conformance/tests/e2e/data.py``) or the
fetched mirrors of tuetschek/e2e-eval and tuetschek/e2e-dataset.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from conformance.paths import FIXTURES
from conformance.tests.e2e import data

OUT = FIXTURES / "e2e" / "oracle.json"
FORMAT = "assay-e2e-oracle/1"

#: run inside the oracle's interpreter, cwd = the e2e-metrics checkout; argv: REF.csv SYS.tsv
_CHILD = r'''
import json, os, re, subprocess, sys, tempfile, shutil
sys.path.insert(0, os.getcwd())
import measure_scores as ms
ref_file, sys_file = sys.argv[1:3]
src, refs, hyps = ms.load_data(ref_file, sys_file)
coco = ms.run_coco_eval(refs, hyps)
tmp = tempfile.mkdtemp(prefix="assay-e2e-")
try:
    paths = {k: os.path.join(tmp, k + ".sgm") for k in ("ref", "tst", "src")}
    ms.create_mteval_file(refs, paths["ref"], "ref")
    ms.create_mteval_file(hyps, paths["tst"], "tst")
    ms.create_mteval_file(src, paths["src"], "src")
    log = os.path.join(tmp, "log.txt")
    out = subprocess.check_output(["perl", os.path.join("mteval", "mteval-v13a-sig.pl"), "-r", paths["ref"],
                                   "-s", paths["src"], "-t", paths["tst"], "-f", log],
                                  stderr=subprocess.STDOUT).decode("utf-8")
    stats = open(log, encoding="utf-8").read().splitlines()
finally:
    shutil.rmtree(tmp)
res = {"METEOR": coco.eval["METEOR"], "ROUGE_L": coco.eval["ROUGE_L"], "CIDEr": coco.eval["CIDEr"],
       "NIST": float(re.search(r"NIST score = ([0-9.]+)", out).group(1)),
       "BLEU": float(re.search(r"BLEU score = ([0-9.]+)", out).group(1)),
       "segments": len(hyps), "references": sum(len([r for r in rs if r]) for rs in refs),
       "log": stats}
json.dump(res, sys.stdout)
'''

METRICS = ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr")


def _sum_log(lines: list[str], segments: int) -> dict[str, Any]:
    """Sum the per-segment lines of the ``-f`` log (``nrefsys | bleu_ref_len | match.. | tst.. | ref.. |
    tst_info.. | ref_info.. | sys``). The script writes one block per metric it scores (BLEU, then
    NIST); their counts are checked equal, their information sums equal to 1e-9, and the last
    block is summed."""
    rows = [ln.split("|") for ln in lines if ln.strip()]
    if len(rows) % segments:
        raise SystemExit(f"regen e2e: the mteval log has {len(rows)} lines for {segments} segments")
    blocks = [rows[i:i + segments] for i in range(0, len(rows), segments)]
    sums = [_sum_block(b) for b in blocks]
    for other in sums[:-1]:
        for key, vals in other.items():
            last = sums[-1][key]
            same = (vals == last if not key.endswith("info") else
                    all(abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0) for a, b in zip(vals, last)))
            if not same:
                raise SystemExit(f"regen e2e: the mteval log's blocks differ in {key}")
    return sums[-1]


def _sum_block(block: list[list[str]]) -> dict[str, Any]:
    out: dict[str, Any] = {"bleu_ref_length": 0}
    keys = ("match", "tst", "ref", "tst_info", "ref_info")
    for row in block:
        out["bleu_ref_length"] += int(row[1])
        for key, field in zip(keys, row[2:7]):
            vals = [float(v) if key.endswith("info") else int(v) for v in field.split()]
            acc = out.setdefault(key, [0] * len(vals))
            out[key] = [a + v for a, v in zip(acc, vals)]
    return out


def run_system(name: str, ref_csv: Path, sys_tsv: Path, metrics_dir: Path, python: str) -> dict[str, Any]:
    proc = subprocess.run([python, "-c", _CHILD, str(ref_csv), str(sys_tsv)], cwd=metrics_dir,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1:] or ["?"]
        return {"error": tail[0][:300]}
    got = json.loads(proc.stdout)
    entry = {m: got[m] for m in METRICS}
    entry["printed"] = {m: "%.4f" % got[m] for m in METRICS}
    entry["segments"] = got["segments"]
    entry["references"] = got["references"]
    entry["mteval_stats"] = _sum_log(got["log"], got["segments"])
    return entry


PUBLISHED = FIXTURES / "e2e" / "published.json"


def write_published(out: Path = PUBLISHED) -> int:
    """Transcribe the challenge page's "Automatic Metrics" table into ``published.json``: each row as
    printed, a primary row under the e2e-eval label of its output (``systems``), any other under its
    file in e2e-eval ``system_outputs/all/`` (``submissions``); a row with no published output is
    kept apart with the reason (``unmatched``)."""
    page = data.challenge_page()
    if page is None:
        print(f"regen e2e --published: fetch {data.WEB_REPO} (or set $ASSAY_E2E_WEB to its index.html)",
              file=sys.stderr)
        return 2
    rows = data.published_rows(page)
    systems = {data.PRIMARY_LABELS[r["system"]]: r for r in rows if r["primary"] and r["system"] in data.PRIMARY_LABELS}
    submissions = {data.SUBMISSION_FILES[r["system"]]: r for r in rows
                   if not r["primary"] and r["system"] in data.SUBMISSION_FILES}
    unmatched = {r["system"]: {**r, "cause": "no output to score: tuetschek/e2e-eval publishes no output of this "
                               "anonymous team"}
                 for r in rows if r["system"] not in data.PRIMARY_LABELS and r["system"] not in data.SUBMISSION_FILES}
    for r in (*systems.values(), *submissions.values()):
        del r["primary"]
    doc = {
        "format": "assay-e2e-published/2",
        "provenance": {
            "source": "the E2E NLG Challenge page (http://www.macs.hw.ac.uk/InteractionLab/E2E/, section Results, "
                      "'Automatic Metrics': 'obtained using the metrics scripts provided with the baseline'), "
                      "as kept in its repository",
            "repo": data.WEB_REPO, "commit": data.WEB_COMMIT, "path": "index.html",
            "table": "the sortable Automatic Metrics table (Submitter, Affiliation, System name, P?, BLEU, NIST, "
                     "METEOR, ROUGE_L, CIDEr): all 57 rows, 22 ticked P? (primary); values as printed (4 decimals)",
            "history": "first published in commit d9cedd2 (2017-12-08, 'Autom Results'); the numbers last "
                       "changed in 342f27f (2018-01-15, the UKP-TUDA row added); later commits rename and "
                       "de-anonymise rows only",
            "paper": "the primary systems' numbers as printed in Dušek, Novikova & Rieser, 'Findings of the E2E "
                     "NLG Challenge', INLG 2018 (arXiv 1810.01170), and arXiv 1901.07931: the paper's table "
                     "could not be read here; its TGen row (0.6593 8.6094 0.4483 0.6850 2.2338, also listed "
                     "on paperswithcode.com) equals the page's",
            "mapping": "page 'System name' -> e2e-eval output: a primary row's label (system_outputs/primary/"
                       "LABEL.tsv; conformance/tests/e2e/data.py PRIMARY_LABELS, after the e2e-eval README's label "
                       "table), any other row's file (system_outputs/all/PATH; data.py SUBMISSION_FILES, by team "
                       "folder and file name)",
            "regen": "python -m conformance.regen.e2e --published (parses the table from the fetched mirror)",
        },
        "systems": {k: systems[k] for k in sorted(systems)},
        "submissions": {k: submissions[k] for k in sorted(submissions)},
        "unmatched": unmatched,
    }
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"regen e2e --published: wrote {out} ({len(systems)} primary, {len(submissions)} other, "
          f"{len(unmatched)} unmatched)",
          file=sys.stderr)
    return 0


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", default="", help="comma-separated subset of the primary systems")
    ap.add_argument("--jobs", type=int, default=1, help="systems scored at once (each runs two JVMs)")
    ap.add_argument("--published", action="store_true",
                    help="only transcribe the challenge page's table into fixtures/e2e/published.json")
    args = ap.parse_args(argv or [])
    if args.published:
        return write_published()
    metrics_dir = Path(os.environ.get("ASSAY_E2E_METRICS", ""))
    if not (metrics_dir / "measure_scores.py").is_file():
        print("regen e2e: set $ASSAY_E2E_METRICS to a tuetschek/e2e-metrics checkout", file=sys.stderr)
        return 2
    source = data.locate()
    if source is None:
        print(f"regen e2e: no E2E data ({data.WHERE})", file=sys.stderr)
        return 2
    python = os.environ.get("ASSAY_E2E_PYTHON", sys.executable)
    names = [n for n in args.systems.split(",") if n] or source.systems()
    old = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    systems = dict(old.get("systems", {}))
    with tempfile.TemporaryDirectory(prefix="assay-e2e-in-") as tmp:
        ref_csv = Path(tmp) / "testset_w_refs.csv"
        ref_csv.write_bytes(source.reference_bytes())
        quoted = set()
        for name in names:
            raw, was_quoted = data.unquoted(source.system_bytes(name))
            (Path(tmp) / f"{name}.tsv").write_bytes(raw)
            if was_quoted:
                quoted.add(name)

        def one(name: str) -> tuple[str, dict[str, Any]]:
            print(f"regen e2e: {name}", file=sys.stderr)
            return name, run_system(name, ref_csv, Path(tmp) / f"{name}.tsv", metrics_dir, python)

        with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            for name, entry in pool.map(one, names):
                systems[name] = entry
                if name in quoted:
                    entry["input"] = ("quotes around every MR and output removed (conformance/tests/e2e/data.py "
                                      "unquoted(); the organisers' segscores file shows them unquoted)")
    doc = {
        "format": FORMAT,
        "provenance": {
            "tool": "tuetschek/e2e-metrics measure_scores.py (pycocoevalcap with stanford-corenlp-3.4.1.jar, "
                    "meteor-1.5.jar; mteval/mteval-v13a-sig.pl)",
            "version": f"e2e-metrics@{data.METRICS_COMMIT}",
            "command": "python measure_scores.py testset_w_refs.csv SYSTEM.tsv (values as printed: '%.4f'; full "
                       "floats from COCOEvalCap.eval); perl mteval/mteval-v13a-sig.pl -r ref.sgm -s src.sgm "
                       "-t tst.sgm -f log.txt on the wrapper's own create_mteval_file() output (log summed)",
            "inputs": {"references": f"tuetschek/e2e-dataset@{data.DATASET_COMMIT} testset_w_refs.csv (CC BY-SA 4.0)",
                       "systems": f"tuetschek/e2e-eval@{data.EVAL_COMMIT} system_outputs/primary/*.tsv "
                                  "(not committed: no licence stated)"},
            "regen": "PYTHONHASHSEED=0 python -m conformance.regen e2e",
            "note": "a system whose TSV the wrapper rejects records the wrapper's error",
        },
        "systems": {k: systems[k] for k in sorted(systems)},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"regen e2e: wrote {out} ({len(systems)} systems)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
