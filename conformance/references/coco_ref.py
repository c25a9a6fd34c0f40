"""Black-box adapter for pycocoevalcap 1.2 (the COCO caption toolkit): live calls, never a copy.

- :func:`scorers` runs its ``Bleu(4)``, ``Rouge()`` and ``Cider()`` in-process on captions that
  are already tokenised (``{image_id: [captions]}`` / ``{image_id: [one caption]}``), exactly as
  ``COCOEvalCap.evaluate`` calls them after tokenising;
- :func:`ptb_tokenize` runs its ``PTBTokenizer`` (Stanford CoreNLP 3.4.1 jar, Java) in a child
  interpreter with a timeout (the wrapper itself waits forever on Java);
- :func:`evaluate` is the COCOEvalCap pipeline without METEOR/SPICE: tokenise references and
  results separately, then the three scorers.

Availability: :func:`require` (pycocoevalcap==1.2) and :func:`require_java` call
``conformance.references.availability.missing`` (fail under CI, skip locally).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any, Mapping, Sequence

VERSION = "1.2"
JAVA_TIMEOUT = float(os.environ.get("ASSAY_JAVA_TIMEOUT", "600"))
HINT = "run: tox -e refs (pycocoevalcap==1.2; Java on PATH, e.g. default-jre-headless)"
NAMES = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr")


def version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version as dist_version
        return dist_version("pycocoevalcap")
    except PackageNotFoundError:
        return None


def require(wanted: str = VERSION) -> None:
    """pycocoevalcap importable at the pinned version, else ``missing`` (CI fails, local skips)."""
    from .availability import importable, missing
    found = version()
    if found is None or not importable("pycocoevalcap.cider.cider"):
        missing(f"reference tool pycocoevalcap is not installed; {HINT}")
    elif found != wanted:
        missing(f"reference tool pycocoevalcap=={wanted} is needed, found {found}; {HINT}")


def require_java() -> str:
    from .availability import missing
    java = shutil.which("java")
    if java is None:
        missing(f"Java is not on PATH (pycocoevalcap's PTBTokenizer runs a jar); {HINT}")
    return java or "java"


# ----------------------------------------------------------------------------- in-process scorers
def to_dicts(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]
             ) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """assay's (hyps, reference streams) -> pycocoevalcap's gts/res dicts keyed 0..n-1."""
    gts = {i: [s[i] for s in refs if s[i] is not None] for i in range(len(hyps))}
    res = {i: [h] for i, h in enumerate(hyps)}
    return gts, res


def scorers(gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]],
            which: Sequence[str] = ("bleu", "rouge", "cider")) -> dict[str, Any]:
    """Corpus scores under pycocoevalcap's names plus per-image lists (``per_image[name]``)."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge
    gts, res = dict(gts), dict(res)
    out: dict[str, Any] = {"per_image": {}, "image_ids": list(gts)}
    if "bleu" in which:
        score, scores = Bleu(4).compute_score(gts, res, verbose=0)
        for k in range(4):
            out[f"Bleu_{k + 1}"] = float(score[k])
            out["per_image"][f"Bleu_{k + 1}"] = [float(x) for x in scores[k]]
    if "rouge" in which:
        score, scores = Rouge().compute_score(gts, res)
        out["ROUGE_L"] = float(score)
        out["per_image"]["ROUGE_L"] = [float(x) for x in scores]
    if "cider" in which:
        score, scores = Cider().compute_score(gts, res)
        out["CIDEr"] = float(score)
        out["per_image"]["CIDEr"] = [float(x) for x in scores]
    return out


def bleu_scorer(gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]], option: str | None) -> list[float]:
    """``BleuScorer(n=4)`` fed every (hypothesis, references) pair, ``compute_score(option=...)``."""
    from pycocoevalcap.bleu.bleu_scorer import BleuScorer
    scorer = BleuScorer(n=4)
    for key in gts:
        scorer += (res[key][0], gts[key])
    score, _ = scorer.compute_score(option=option) if option else scorer.compute_score()
    return [float(x) for x in score]


# ----------------------------------------------------------------------------- PTBTokenizer (Java)
_CHILD = r"""
import json, sys
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
data = json.load(sys.stdin)
captions = {k: [{"caption": c} for c in v] for k, v in data.items()}
json.dump(PTBTokenizer().tokenize(captions), sys.stdout)
"""


def ptb_tokenize(captions: Mapping[str, Sequence[str]], timeout: float = JAVA_TIMEOUT,
                 python: str | None = None) -> dict[str, list[str]]:
    """pycocoevalcap's ``PTBTokenizer().tokenize`` on ``{key: [captions]}`` (keys become strings).

    Runs in a child interpreter so that the Java call has a timeout; raises ``RuntimeError`` on
    failure or ``subprocess.TimeoutExpired``.
    """
    payload = json.dumps({str(k): list(v) for k, v in captions.items()})
    proc = subprocess.run([python or sys.executable, "-c", _CHILD], input=payload, capture_output=True,
                          text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"PTBTokenizer failed (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout)


def ptb_tokenize_list(captions: Sequence[str], timeout: float = JAVA_TIMEOUT) -> list[str]:
    """One tokenised string per caption (one Java run)."""
    out = ptb_tokenize({str(i): [c] for i, c in enumerate(captions)}, timeout)
    return [out[str(i)][0] for i in range(len(captions))]


def evaluate(gts_raw: Mapping[Any, Sequence[str]], res_raw: Mapping[Any, str], timeout: float = JAVA_TIMEOUT
             ) -> dict[str, Any]:
    """COCOEvalCap.evaluate() minus METEOR and SPICE: tokenise gts and res (separately), then score.

    Returns the scorer output plus ``tokenized`` (the PTB strings, for diagnosis).
    """
    keys = list(res_raw)
    key_map = {str(k): k for k in keys}
    gts_tok = ptb_tokenize({str(k): list(gts_raw[k]) for k in keys}, timeout)
    res_tok = ptb_tokenize({str(k): [res_raw[k]] for k in keys}, timeout)
    gts = {key_map[k]: v for k, v in gts_tok.items()}
    res = {key_map[k]: v for k, v in res_tok.items()}
    out = scorers({k: gts[k] for k in keys}, {k: res[k] for k in keys})
    out["tokenized"] = {"gts": gts, "res": res}
    return out


COMMANDS = {
    "scorers": "pycocoevalcap 1.2: Bleu(4).compute_score(gts, res), Rouge().compute_score(gts, res), "
               "Cider().compute_score(gts, res) on gts = {i: [refs of image i]}, res = {i: [hyp i]} (captions "
               "as given: the scorers split them on whitespace / ' ')",
    "pipeline": "pycocoevalcap 1.2 COCOEvalCap-like: PTBTokenizer().tokenize(gts) and .tokenize(res) "
                "(stanford-corenlp-3.4.1 jar, Java), then Bleu(4), Rouge(), Cider() on the tokenised strings",
}
