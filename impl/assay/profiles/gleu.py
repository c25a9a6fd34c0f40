"""GLEU profiles: NLTK's ``gleu_score`` (3.10.4) and Hugging Face evaluate's ``google_bleu`` (0.4.6).

Both pool n-grams of orders 1-4, keep per segment the reference with the highest matches/total
(first on ties) and divide summed matches by summed totals, on a 0-1 scale; they differ only in
tokenisation: NLTK scores the caller's token lists (``str.split()`` here: ``tokenize=none``), evaluate
tokenises with its copy of sacrebleu's 13a tokenizer (``tokenizer_13a``), with no lowercasing.
The default profile is ``hf-evaluate`` (it reads raw text, as ``evaluate.load("google_bleu")`` does;
``nltk`` is NLTK on whitespace tokens), which is also what ``assay audit`` calls the standard GLEU.
Verified against the live NLTK (fixtures/gleu, ``conformance/regen/gleu.py``) and against evaluate's
recorded answers (fixtures/thirdparty/hf-google_bleu*.json, ``conformance/regen/thirdparty.py``).
"""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_NLTK = dict(tokenize="none", lowercase=False, lowercase_mode="unicode", min_ngram_order=1, max_ngram_order=4,
             multi_ref="best", averaging="corpus", scale=1)
#: what ``assay audit`` varies around both tools: casing, the reference kept, averaging, the printed scale
#: (papers print GLEU x 100); ``GLEU-2`` sets the highest order
_AXES = dict(lowercase=(False, True), multi_ref=("best", "first"), averaging=("corpus", "segments"), scale=(1, 100))

PROFILES: tuple[Profile, ...] = (
    Profile(
        "gleu", "nltk", "nltk", ("3.10.4",), _NLTK,
        "NLTK corpus_gleu/sentence_gleu(min_len=1, max_len=4) on str.split() tokens: orders 1-4 pooled, per "
        "segment the reference with the highest matches/max(hyp, ref n-grams) (first on ties), corpus = summed "
        "matches / summed totals; 0-1.",
        command="nltk.translate.gleu_score.corpus_gleu([[r.split() for r in refs of segment i] ...], "
                "[h.split() for h in hyps], min_len=1, max_len=4) (sentence: sentence_gleu(refs, hyp))",
        audit=AuditHint(0.3, grids=(AuditGrid(_AXES, follows_claim=("max_ngram_order",)),))),
    Profile(
        "gleu", "hf-evaluate", "HF evaluate google_bleu (NLTK corpus_gleu)", ("evaluate 0.4.6",),
        dict(_NLTK, tokenize="13a"),
        "Hugging Face evaluate's `google_bleu` (evaluate 0.4.6, metrics/google_bleu at v0.4.6): its copy of "
        "sacrebleu's 13a tokenizer (tokenizer_13a), then NLTK corpus_gleu(min_len=1, max_len=4); 0-1. Sentence "
        "level: compute on a one-segment corpus.",
        command="evaluate.load('google_bleu').compute(predictions=hyps, references=[[refs of segment i] ...])"
                "['google_bleu'] (evaluate 0.4.6; sentence level: the same call on a one-segment corpus)",
        recorded=("hf-google_bleu",),
        audit=AuditHint(0.0, grids=(AuditGrid(dict(tokenize=("13a", "intl", "char"), **_AXES),
                                              follows_claim=("max_ngram_order",)),),
                        standard_for=("plain",), standard_follows=("max_ngram_order",))),
)

DEFAULT = "hf-evaluate"
