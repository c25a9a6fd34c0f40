"""Black-box adapter for NLTK's ``meteor_score`` / ``single_meteor_score`` with an offline WordNet.

NLTK normally downloads WordNet. Offline, :func:`nltk_data_dir` builds an ``NLTK_DATA`` tree from
the system WordNet 3.0 (Debian ``wordnet-base`` + ``wordnet-sense-index`` in /usr/share/wordnet):
the database files are copied into ``<cache>/corpora/wordnet/`` and a ``lexnames`` file is written
(the 45 lexicographer files of WordNet 3.0 as listed in the ``lexnames(5WN)`` man page:
``NN<TAB>name<TAB>syntactic-category``). The cache is ``$ASSAY_NLTK_WORDNET_CACHE`` or
``~/.cache/assay/nltk_wordnet``. Nothing of NLTK is copied into assay.

Inputs follow assay's orientation (reference streams aligned with hyps); strings are tokenised
with ``str.split()`` (NLTK 3.10.4 itself rejects strings with a TypeError).

Legacy NLTK (<= 3.6.2, e.g. 3.5 in tox's legacy-nltk35 env) takes plain strings and rejects token
lists: :func:`legacy_meteor` calls it in this process with the strings as given, :func:`run_legacy`
in another interpreter (``--legacy-python``). Their ``wordnet=`` argument is not passed on to
``single_meteor_score``, so the WordNet is the global ``nltk.corpus.wordnet`` read from
:func:`nltk_data_dir` (put first on ``nltk.data.path``).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Sequence

SYSTEM_WORDNET = Path(os.environ.get("ASSAY_WORDNET") or "/usr/share/wordnet")
TOLERANCE = {"rel": 1e-9}
TOOL = "nltk"
_LEX = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
        "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
        "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
        "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
        "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
        "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather "
        "adj.ppl").split()
_CATEGORY = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
_FILES = ("index.noun index.verb index.adj index.adv data.noun data.verb data.adj data.adv noun.exc "
          "verb.exc adj.exc adv.exc").split()
_OPTIONAL = ("index.sense", "cntlist.rev")   # wordnet-sense-index; NLTK reads them only for sense keys/counts


def lexnames_text() -> str:
    return "".join(f"{i:02d}\t{name}\t{_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(_LEX))


def nltk_data_dir(source: Path = SYSTEM_WORDNET) -> Path:
    """An NLTK_DATA directory whose corpora/wordnet is the system WordNet (built once, cached)."""
    cache = Path(os.environ.get("ASSAY_NLTK_WORDNET_CACHE") or Path.home() / ".cache" / "assay" / "nltk_wordnet")
    target = cache / "corpora" / "wordnet"
    if not (target / "lexnames").is_file():
        missing = [f for f in _FILES if not (source / f).is_file()]
        if missing:
            raise FileNotFoundError(f"WordNet files {missing} not in {source}: apt-get install wordnet-base "
                                    "wordnet-sense-index")
        tmp = cache / "corpora" / "wordnet.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        for f in [*_FILES, *(x for x in _OPTIONAL if (source / x).is_file())]:
            shutil.copyfile(source / f, tmp / f)
        (tmp / "lexnames").write_text(lexnames_text())
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)
    return cache


_WN: Any = None


def wordnet() -> Any:
    """nltk.corpus.wordnet loaded from :func:`nltk_data_dir`."""
    global _WN
    if _WN is None:
        data = str(nltk_data_dir())
        import nltk
        if data not in nltk.data.path:
            nltk.data.path.insert(0, data)
        from nltk.corpus import wordnet as wn
        wn.ensure_loaded()
        _WN = wn
    return _WN


def version() -> str:
    import nltk
    return nltk.__version__


def _toks(x: Any) -> list[str]:
    return list(x) if isinstance(x, (list, tuple)) else x.split()


def meteor(hyp: Any, refs: Sequence[Any], **kwargs: Any) -> float:
    """``meteor_score(references, hypothesis, **kwargs)`` on split tokens (max over references)."""
    from nltk.translate.meteor_score import meteor_score
    return float(meteor_score([_toks(r) for r in refs], _toks(hyp), wordnet=wordnet(), **kwargs))


def single(hyp: Any, ref: Any, **kwargs: Any) -> float:
    from nltk.translate.meteor_score import single_meteor_score
    return float(single_meteor_score(_toks(ref), _toks(hyp), wordnet=wordnet(), **kwargs))


def sentence_scores(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], **kwargs: Any) -> list[float]:
    """One meteor_score per segment; refs are assay streams (None entries left out)."""
    return [meteor(h, [s[i] for s in refs if s[i] is not None], **kwargs) for i, h in enumerate(hyps)]


def command(kwargs: dict[str, Any] | None = None) -> str:
    extra = "".join(f", {k}={v!r}" for k, v in (kwargs or {}).items())
    return ("[nltk.translate.meteor_score.meteor_score([r.split() for r in refs_i], hyp_i.split(), "
            f"wordnet=<WordNet 3.0 from /usr/share/wordnet>{extra}) for each segment i]")


def lemma_names(word: str) -> set[str]:
    """The synonym set NLTK's METEOR builds for a word: lemma names of wordnet.synsets(word)."""
    return {lemma.name() for s in wordnet().synsets(word) for lemma in s.lemmas()}


# ---------------------------------------------------------------------------- legacy NLTK (strings)
def legacy_kwargs(knobs: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """assay knobs -> legacy ``meteor_score`` keyword arguments (alpha/beta/gamma, identity
    preprocess for ``lowercase=False``, identity stemmer for ``stem=False``) and their text."""
    kw: dict[str, Any] = {k: knobs[k] for k in ("alpha", "beta", "gamma") if k in knobs}
    text = "".join(f", {k}={v!r}" for k, v in kw.items())
    if knobs.get("lowercase") is False:
        kw["preprocess"] = _identity
        text += ", preprocess=lambda x: x"
    if knobs.get("stem") is False:
        kw["stemmer"] = _IdentityStemmer()
        text += ", stemmer=<stem(w) -> w>"
    return kw, text


def _identity(x: Any) -> Any:
    return x


class _IdentityStemmer:
    @staticmethod
    def stem(word: str) -> str:
        return word


def legacy_meteor(hyp: str, refs: Sequence[str], knobs: dict[str, Any] | None = None) -> float:
    """``meteor_score(refs, hyp, **kw)`` of the NLTK imported here (<= 3.6.2), strings as given.

    Legacy ``meteor_score`` does not pass ``preprocess`` on (it always lowercases: black-box,
    ``preprocess=lambda x: x`` still matches ``Zxq`` with ``zxq``), so ``lowercase=False`` calls
    ``single_meteor_score(ref, hyp, preprocess=...)``, which honours it (one reference only)."""
    wordnet()                      # NLTK_DATA first on the path; the global WordNet is the one used
    from nltk.translate.meteor_score import meteor_score, single_meteor_score
    kw, _ = legacy_kwargs(knobs or {})
    if "preprocess" in kw:
        if len(refs) != 1:
            raise ValueError("lowercase=False goes through single_meteor_score: one reference per segment")
        return float(single_meteor_score(refs[0], hyp, **kw))
    return float(meteor_score(list(refs), hyp, **kw))


def legacy_command(knobs: dict[str, Any] | None = None) -> str:
    kw, text = legacy_kwargs(knobs or {})
    call = ("single_meteor_score(ref_i, hyp_i" if "preprocess" in kw else "meteor_score(refs_i, hyp_i")
    return (f"[nltk.translate.meteor_score.{call}{text}) for each segment i, refs_i the segment's reference "
            "strings, hyp_i its hypothesis string (NLTK_DATA: WordNet 3.0 from /usr/share/wordnet)]")


_LEGACY_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
from conformance.references import meteor_nltk_ref as ref
import nltk
requests = json.load(sys.stdin)
out = []
for r in requests:
    scores = [ref.legacy_meteor(h, refs, r["knobs"]) for h, refs in zip(r["hyps"], r["refs"])]
    out.append({"version": nltk.__version__, "scores": scores})
json.dump(out, sys.stdout)
"""


def run_legacy(python: str, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run :func:`legacy_meteor` in another interpreter (one with NLTK <= 3.6.2).

    ``requests``: ``{"hyps": [str], "refs": [[str] per segment], "knobs": {...}}``; returns
    ``{"version", "scores"}`` per request."""
    root = str(Path(__file__).resolve().parent.parent.parent)
    env = dict(os.environ, ASSAY_NLTK_WORDNET_CACHE=str(nltk_data_dir()))
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([python, "-c", _LEGACY_SCRIPT, root], input=json.dumps(requests), capture_output=True,
                          text=True, env=env, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"legacy NLTK run failed ({python}): {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)
