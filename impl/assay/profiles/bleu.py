"""BLEU profiles: one entry per reproduced tool (and version), each with the call it reproduces."""
from __future__ import annotations

from assay.profiles import e2e_metrics
from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_SACREBLEU = dict(tokenize="13a", lowercase=False, lowercase_mode="unicode", smooth_method="exp",
                  smooth_value=None, effective_order=False, max_ngram_order=4, weights="uniform",
                  missing_order="stop", no_match="zero", zero_precision="zero",
                  per_segment_min_total=0, ref_length="closest", empty_refs="keep", scale=100,
                  epsilon="none", score_arithmetic="sacrebleu")
_NLTK = dict(_SACREBLEU, tokenize="none", smooth_method="float-min", weights=(0.25, 0.25, 0.25, 0.25),
             zero_precision="skip", per_segment_min_total=1, scale=1, auto_reweigh=False, score_arithmetic="nltk")
#: the operation order of tools whose last bits are not verified (the Moses scripts print rounded numbers;
#: the third-party implementations below keep the order they were fitted with)
_UNVERIFIED = "weighted-logs"
_MTEVAL = dict(_SACREBLEU, tokenize="mteval-13a", lowercase=True, lowercase_mode="ascii",
               missing_order="one", no_match="smooth", scale=1, score_arithmetic=_UNVERIFIED)

_NLTK_CALL = ("nltk.translate.bleu_score.corpus_bleu(list_of_references, hypotheses) (sentence level: "
              "sentence_bleu(references, hypothesis)); list_of_references[i] = [r.split() for each reference r "
              "of segment i], hypotheses[i] = hyp.split(); smoothing=methodK passes "
              "smoothing_function=SmoothingFunction().methodK")
_MTEVAL_ARGS = "-r ref.sgm -s src.sgm -t tst.sgm -b   (-c: case_sensitive=true)"

PROFILES: tuple[Profile, ...] = (
    Profile(
        "bleu", "sacrebleu", "sacrebleu", ("2.6.0",), dict(_SACREBLEU, resample_arithmetic="float32"),
        "sacrebleu 2.x BLEU(): corpus_score / CLI defaults (13a, exp, eff off); sentence level = sentence_bleu "
        "(eff on); significance resamples in float32 as its bootstrap does.",
        sentence_knobs={"effective_order": True}, default_width=1, signature_grammar="sacrebleu2",
        command="sacrebleu.metrics.BLEU().corpus_score(hyps, [refs]) (sentence level: "
                "BLEU(effective_order=True).sentence_score(hyp, [refs of that segment])); "
                "CLI: sacrebleu ref.txt -i hyp.txt -m bleu",
        text_format="sacrebleu",
        audit=AuditHint(0.0, grids=(
            AuditGrid(dict(tokenize=("13a", "intl", "none", "zh", "char"), lowercase=(False, True),
                           smooth_method=("exp", "none", "floor", "add-k"), effective_order=(False, True),
                           scale=(100, 1)),
                      when="raw", follows_claim=("max_ngram_order",), rank=0),
            AuditGrid(dict(tokenize=("none",), lowercase=(False, True),
                           smooth_method=("exp", "none", "floor", "add-k"), effective_order=(False, True),
                           scale=(100, 1)),
                      when="tokenised", follows_claim=("max_ngram_order",), rank=0)),
            standard_for=("plain",), standard_follows=("max_ngram_order",))),
    Profile(
        "bleu", "sacrebleu@1", "sacrebleu", ("1.5.1",),
        {**_SACREBLEU, "no_match": "smooth", "empty_refs": "drop", "segment_without_refs": "error"},
        "sacrebleu 1.5.x: like 2.x but a corpus with no matching n-gram is still smoothed (2.0.0 made it 0, #141); "
        "empty reference lines are dropped, and a segment left without references fails (EOFError).",
        sentence_knobs={"effective_order": True}, default_width=2,
        signature_grammar="sacrebleu1", drops_empty_refs=True,
        command="sacrebleu.corpus_bleu(hyps, [refs]) (sentence level: sacrebleu.sentence_bleu(hyp, "
                "[refs of that segment])), sacrebleu 1.5.1",
        text_format="sacrebleu",
        audit=AuditHint(0.6, grids=(
            AuditGrid(dict(tokenize=("13a", "intl", "none", "zh", "char"), lowercase=(False, True),
                           smooth_method=("exp", "none", "floor", "add-k"), effective_order=(False, True),
                           scale=(100, 1)),
                      when="raw", follows_claim=("max_ngram_order",), rank=1),
            AuditGrid(dict(tokenize=("none",), lowercase=(False, True),
                           smooth_method=("exp", "none", "floor", "add-k"), effective_order=(False, True),
                           scale=(100, 1)),
                      when="tokenised", follows_claim=("max_ngram_order",), rank=1)))),
    Profile(
        "bleu", "nltk", "nltk", ("3.10.4",), _NLTK,
        "NLTK corpus_bleu/sentence_bleu on whitespace tokens: max(1, #n-grams) per segment, method0 (float-min), "
        "zero precisions skipped, 0-1 scale.",
        command=_NLTK_CALL,
        audit=AuditHint(0.7, grids=(
            AuditGrid(dict(smooth_method=("float-min", "floor", "add-k", "exp", "nltk-method4"),
                           lowercase=(False, True), scale=(1, 100)),
                      fixed={"tokenize": "none"}, follows_claim=("weights", "max_ngram_order"), rank=3),
            # methods 5-7 read extra 5-gram columns (their own statistics): cased raw text only
            AuditGrid(dict(smooth_method=("nltk-method5", "nltk-method6", "nltk-method7"), scale=(1, 100)),
                      when="raw", fixed={"tokenize": "none"}, follows_claim=("weights", "max_ngram_order"),
                      rank=4)))),
    Profile(
        "bleu", "nltk@3.5", "nltk", ("3.5",),
        dict(_NLTK, add_k_unigrams=True, auto_reweigh_orders="drop", nltk_method4="index", weight_lists="error"),
        "NLTK 3.5: as nltk, but SmoothingFunction.method2 also smooths unigrams (changed in 3.6.2).",
        command=_NLTK_CALL + " (nltk 3.5)",
        audit=AuditHint(1.3, subsets=False, grids=(
            AuditGrid(dict(smooth_method=("float-min", "add-k", "nltk-method4"), scale=(1, 100)),
                      follows_claim=("weights", "max_ngram_order"), rank=5),))),
    Profile(
        "bleu", "multi-bleu", "multi-bleu.perl", ("mosesdecoder@34452895f350",),
        dict(_SACREBLEU, tokenize="multi-bleu", smooth_method="none", lowercase_mode="ascii",
             score_arithmetic=_UNVERIFIED),
        "Moses multi-bleu.perl: bytes split on ASCII whitespace, -lc ASCII-only, no smoothing (any zero order -> 0).",
        command="perl multi-bleu.perl [-lc] ref < hyp   (several references: files ref0, ref1, ...)",
        text_format="multi-bleu",
        audit=AuditHint(0.4, grids=(
            AuditGrid(dict(lowercase=(False, True), scale=(100, 1)), follows_claim=("max_ngram_order",),
                      rank=2, lockstep="multi-bleu"),))),
    Profile(
        "bleu", "multi-bleu-detok", "multi-bleu-detok.perl", ("mosesdecoder@34452895f350",),
        dict(_SACREBLEU, tokenize="13a", smooth_method="none", lowercase_mode="perl",
             lowercase_refs_after_tokenizing=True, chop_unterminated_last_line=True, score_arithmetic=_UNVERIFIED),
        "Moses multi-bleu-detok.perl: 13a tokens, Perl lc (-lc: hyp before tokenising, refs after), no "
        "smoothing; chop drops the last character of an unterminated last line.",
        command="perl multi-bleu-detok.perl [-lc] ref < hyp   (several references: files ref0, ref1, ...)",
        text_format="multi-bleu",
        audit=AuditHint(0.9, subsets=False, grids=(
            AuditGrid(dict(lowercase=(False, True), scale=(100, 1)), when="raw",
                      follows_claim=("max_ngram_order",), rank=2, lockstep="multi-bleu"),))),
    Profile(
        "bleu", "mteval-v13a", "mteval-v13a.pl", ("mosesdecoder@34452895f350",), _MTEVAL,
        "NIST mteval-v13a.pl BLEU: its tokeniser, ASCII lowercasing unless -c, exp smoothing even with no match, "
        "orders without n-grams count as precision 1, 0-1 scale.",
        command=f"perl mteval-v13a.pl {_MTEVAL_ARGS}",
        text_format="mteval",
        audit=AuditHint(1.0, subsets=False, grids=(
            AuditGrid(dict(lowercase=(True, False), tokenize=("mteval-13a", "mteval-intl"), scale=(1, 100)),
                      when="raw", links=(("tokenize", "mteval-intl", {"lowercase_mode": "perl"}),),
                      follows_claim=("max_ngram_order",), rank=7),))),
    Profile(
        "bleu", "mteval-v14", "mteval-v14.pl", ("mosesdecoder@34452895f350",), _MTEVAL,
        "NIST mteval-v14.pl BLEU: as v13a (scores equal); v14 survives an empty system output.",
        command=f"perl mteval-v14.pl {_MTEVAL_ARGS}",
        text_format="mteval",
        audit=AuditHint(1.2, subsets=False, grids=(
            AuditGrid(dict(lowercase=(True, False), tokenize=("mteval-13a", "mteval-intl"), scale=(1, 100)),
                      when="raw", links=(("tokenize", "mteval-intl", {"lowercase_mode": "perl"}),),
                      follows_claim=("max_ngram_order",), rank=8),))),
    Profile(
        "bleu", "e2e-mteval-v13a-sig", e2e_metrics.TOOL, e2e_metrics.VERSIONS,
        dict(_MTEVAL, empty_refs="drop-after-first"),
        "BLEU as the E2E NLG challenge scored it (tuetschek/e2e-metrics measure_scores.py, its "
        "mteval-v13a-sig.pl): mteval-v13a, but a segment's missing references are written as empty segments, "
        "which the script does not count as references, except an empty FIRST reference: that one still "
        "competes for the closest reference length as length 0 (empty_refs=drop-after-first).",
        command=e2e_metrics.COMMAND, text_format="mteval", audit=e2e_metrics.AUDIT),
    Profile(
        "bleu", "d2l", "d2l (d2l-ai/d2l-en)", ("d2l-ai/d2l-en@23d7a5aeccee",),
        dict(_SACREBLEU, tokenize="space", smooth_method="none", weights="halving", missing_order="one", scale=1,
             score_arithmetic="d2l"),
        "Dive-into-Deep-Learning bleu(pred_seq, label_seq, k): str.split(' ') tokens, weights 1/2^n, "
        "BP exp(min(0, 1 - len(label)/len(pred))), one reference; orders above len(pred) are skipped "
        "(since d2l-en 03f5ae51, 2022).", max_refs=1,
        command="d2l.bleu(pred_seq, label_seq, k=4) per segment (d2l/torch.py at d2l-ai/d2l-en@23d7a5aeccee)",
        audit=AuditHint(2.0, subsets=False, grids=(
            AuditGrid(dict(scale=(1, 100)), follows_claim=("max_ngram_order",), rank=9),))),
    Profile(
        "bleu", "d2l@2021", "d2l (seed 002)", ("seed-002",),
        dict(_SACREBLEU, tokenize="none", smooth_method="none", weights="halving", missing_order="error", scale=1,
             score_arithmetic="d2l"),
        "d2l's bleu before 2022 (the version seed 002 prints): every order up to k, so a hypothesis shorter "
        "than k tokens divides by len(pred) - n + 1 = 0 (ZeroDivisionError).", max_refs=1,
        command="bleu(label.split(), pred.split(), k=4) as printed in seed 002 (d2l before 2022)",
        audit=AuditHint(2.5)),
    Profile(
        "bleu", "coco", "pycocoevalcap", ("1.2",),
        dict(_SACREBLEU, tokenize="none", smooth_method="none", missing_order="one", no_match="smooth",
             ref_length="closest", scale=1, epsilon="coco", score_arithmetic=_UNVERIFIED),
        "pycocoevalcap Bleu(4) (BleuScorer, option 'closest'): str.split() of pre-tokenised captions (COCOEvalCap "
        "runs PTBTokenizer first), p_n = (correct+1e-15)/(total+1e-9), ratio (c+1e-15)/(r+1e-9); value Bleu_4, "
        "components Bleu_1..Bleu_4; sentence level the same formula per segment.",
        command="pycocoevalcap.bleu.bleu.Bleu(4).compute_score(gts, res)[0][3] (sentence level: "
                "compute_score(gts, res)[1][3][i])",
        audit=AuditHint(1.0, grids=(
            AuditGrid(dict(scale=(1, 100), lowercase=(False, True)), follows_claim=("max_ngram_order",),
                      rank=6),),
            standard_for=("captions",), standard_follows=("max_ngram_order",))),
    # third-party implementations (fixtures/thirdparty, recorded by conformance/regen/thirdparty.py)
    Profile(
        "bleu", "hf-evaluate", "HF evaluate bleu (TF NMT compute_bleu)", ("evaluate 0.4.6",),
        dict(_SACREBLEU, smooth_method="none", ref_length="shortest", zero_length="error", scale=1,
             score_arithmetic=_UNVERIFIED),
        "Hugging Face evaluate's `bleu` (evaluate 0.4.6, metrics/bleu at v0.4.6): its copy of sacrebleu's 13a "
        "tokeniser, then TensorFlow NMT's compute_bleu: shortest reference length, no smoothing, 0-1 scale; a "
        "hypothesis or reference length of 0 raises ZeroDivisionError. Sentence level: compute on one segment.",
        command="evaluate.load('bleu').compute(predictions=hyps, references=[[refs of segment i] ...])['bleu'] "
                "(evaluate 0.4.6; sentence level: the same call on a one-segment corpus)",
        recorded=("hf-bleu",)),
    Profile(
        "bleu", "torchmetrics", "torchmetrics BLEUScore", ("torchmetrics 1.9.0",),
        dict(_SACREBLEU, tokenize="none", smooth_method="none", ref_length="closest-first", scale=1,
             score_arithmetic=_UNVERIFIED),
        "torchmetrics BLEUScore() defaults (n_gram 4, smooth False): str.split() tokens, no smoothing, the closest "
        "reference length with ties to the first listed reference, 0-1 scale (float32 tensors: agrees to ~1e-7).",
        command="torchmetrics.text.BLEUScore()(preds, [[refs of segment i] ...]) (torchmetrics 1.9.0, torch 2.13.0; "
                "sentence level: a one-segment corpus)",
        recorded=("tm-bleu",), recorded_tolerance=1e-6),
    Profile(
        "bleu", "torchmetrics-sacrebleu", "torchmetrics SacreBLEUScore", ("torchmetrics 1.9.0",),
        dict(_SACREBLEU, smooth_method="none", ref_length="closest-first", scale=1, score_arithmetic=_UNVERIFIED),
        "torchmetrics SacreBLEUScore() defaults (tokenize 13a, lowercase False, smooth False): sacrebleu's 13a "
        "tokens, but no smoothing, ties of the closest reference length to the first listed, 0-1 scale (float32).",
        command="torchmetrics.text.SacreBLEUScore()(preds, [[refs of segment i] ...]) (torchmetrics 1.9.0; "
                "sentence level: a one-segment corpus)",
        recorded=("tm-sacrebleu",), recorded_tolerance=1e-6),
    Profile(
        "bleu", "compare-mt", "compare-mt BleuScorer", ("compare-mt 0.2.10",),
        dict(_NLTK, smooth_method="none", scale=100, score_arithmetic=_UNVERIFIED),
        "compare-mt's BleuScorer (corpus only, one reference): token lists, max(1, #n-grams) per segment, no "
        "smoothing, a zero precision contributes log 1 (as NLTK's skip), no matching unigram -> 0, 0-100 scale.",
        max_refs=1,
        command="compare_mt.scorers.BleuScorer().score_corpus([r.split() for r in refs], [h.split() for h in hyps])[0] "
                "(compare-mt 0.2.10)",
        recorded=("compare-mt",)),
    Profile(
        "bleu", "fast-bleu", "fast-bleu BLEU", ("fast-bleu 0.0.90",),
        dict(_NLTK, smooth_method="floor", score_arithmetic=_UNVERIFIED),
        "fast-bleu's BLEU (C++ port of NLTK sentence_bleu) with its default smoothing_func=1: NLTK method1 (a zero "
        "match count becomes 0.1), whitespace tokens, 0-1 scale; it scores sentences only (the corpus level here is "
        "NLTK corpus_bleu with method1).",
        command="fast_bleu.BLEU([r.split() for r in refs of the segment], {4: (0.25,)*4})"
                ".get_score([hyp.split()])[4][0] (fast-bleu 0.0.90)",
        recorded=("fast-bleu",)),
)

DEFAULT = "sacrebleu"
