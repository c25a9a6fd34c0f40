"""The compiled ROUGE twins equal the pure specification exactly.

- ``assay.metrics.rouge._text_c``: ``tokenize`` equals ``text._tok_rouge155`` / ``_tok_rouge_score`` on
  random Unicode text; the :class:`Interner` ids equal ``dict.setdefault`` interning;
- ``assay.stemmers._porter_c``: ``stem`` equals ``PorterStemmer.stem_py`` in every variant;
- ``assay.metrics.rouge._lcs_c``: LCS length, the tools' backtrack positions and ROUGE-W's weighted
  LCS equal ``lcs.*_py`` on random token sequences with repeats and empty sides, with the rows kept
  whole and checkpointed (tiny budgets); the store-level L, Lsum and W hits equal the pure
  :class:`~assay.metrics.rouge.measures.PairBatch` and the per-pair functions;
- ``assay.metrics.rouge._measures_c``: n-gram, skip-bigram and SU counts equal the pure PairBatch;
- ``assay.metrics.rouge._bootstrap_c``: the resampled sums equal the pure draws bit for bit;
- ``assay.metrics.rouge._combine_c``: ``round5_array`` equals ``float(f"{x:.5f}")`` bit for bit
  (sign of zero, ties to even, nan and inf included);
- end to end: the text stores of :class:`~assay.metrics.rouge.documents.Encoder` equal the
  :class:`~assay.metrics.rouge.documents.Doc` objects', and ``segment_rows`` gives the same rows.
"""
from __future__ import annotations

import random
from contextlib import ExitStack, contextmanager
from typing import Any, Callable, Iterator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.engine.api import make_config
from assay.metrics.rouge import bootstrap, combine, documents, lcs, measures, rows, text
from assay.metrics.rouge.documents import Corpus, Encoder
from assay.metrics.rouge.measures import PairBatch, Store
from assay.stemmers import porter

relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

MODULES = {"lcs": "assay.metrics.rouge._lcs_c", "measures": "assay.metrics.rouge._measures_c",
           "text": "assay.metrics.rouge._text_c", "bootstrap": "assay.metrics.rouge._bootstrap_c",
           "combine": "assay.metrics.rouge._combine_c", "porter": "assay.stemmers._porter_c"}


@pytest.fixture(scope="module")
def mods(twin: Callable[[str], Any]) -> dict[str, Any]:
    return {k: twin(v) for k, v in MODULES.items()}


@contextmanager
def path(mods: dict[str, Any], compiled: bool) -> Iterator[None]:
    """Run the compiled twins (``compiled``) or the pure path, whatever ``ASSAY_PURE`` says."""
    def pick(key: str) -> Any:
        return mods[key] if compiled else None

    with ExitStack() as stack:
        for obj, name, value in ((lcs, "_compiled", pick("lcs")), (measures, "_compiled", pick("measures")),
                                 (measures, "_lcs_twin", pick("lcs")), (measures, "COMPILED", compiled),
                                 (rows, "COMPILED", compiled), (documents, "_compiled", pick("text")),
                                 (bootstrap, "_compiled", pick("bootstrap")), (porter, "_compiled", pick("porter")),
                                 (combine, "_compiled", pick("combine"))):
            stack.enter_context(pytest.MonkeyPatch.context()).setattr(obj, name, value)
        yield


@contextmanager
def tiny_budgets(mod: Any) -> Iterator[None]:
    """Checkpoint every long LCS (rows and weighted-LCS cells budgets of 1)."""
    old = mod.set_budgets(1, 1)
    try:
        yield
    finally:
        mod.set_budgets(*old)


# ----------------------------------------------------------------------------- tokenisers
UNICODE = st.text(st.one_of(st.sampled_from(list("abzAZ09 \t\n\r-_.,'$é\u00a0\u3000İıKßſﬁ\u0307我😀")),
                            st.characters()), max_size=40)


PURE_TOKENIZERS = {"rouge155": text._tok_rouge155, "rouge-score": text._tok_rouge_score, "space": text._tok_space}


@given(UNICODE)
def test_tokenizers_equal_pure(mods: dict[str, Any], sentence: str) -> None:
    codes = mods["text"].TOKENIZERS
    assert set(codes) == set(PURE_TOKENIZERS)
    for name, pure in PURE_TOKENIZERS.items():
        for lowercase in (True, False):
            assert mods["text"].tokenize(sentence, codes[name], lowercase) == pure(sentence, lowercase)


@given(st.lists(UNICODE, max_size=6), st.booleans(), st.sampled_from(sorted(PURE_TOKENIZERS)))
def test_interner_ids_equal_dict_interning(mods: dict[str, Any], sentences: list[str], lowercase: bool,
                                           name: str) -> None:
    vocab: dict[str, int] = {}
    expected = [[vocab.setdefault(t, len(vocab)) for t in PURE_TOKENIZERS[name](s, lowercase)] for s in sentences]
    interner = mods["text"].Interner()
    ids, lengths = interner.encode(sentences, mods["text"].TOKENIZERS[name], lowercase)
    assert ids.tolist() == [i for s in expected for i in s]
    assert lengths.tolist() == [len(s) for s in expected]
    assert interner.strings() == list(vocab) and len(interner) == len(vocab)


# ----------------------------------------------------------------------------- Porter
SUFFIXES = ["ational", "tional", "enci", "anci", "izer", "alli", "entli", "eli", "ousli", "ization", "ation",
            "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "bli", "abli", "logi",
            "fulli", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic",
            "able", "ible", "ant", "ement", "ment", "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous",
            "ive", "ize", "sses", "ies", "ss", "s", "eed", "ed", "ing", "y", "e", "ll", "ied", "yy"]
words = st.tuples(st.text("abcdeilmnorstuvwyz0", max_size=8), st.lists(st.sampled_from(SUFFIXES), max_size=3)) \
    .map(lambda t: t[0] + "".join(t[1]))


@given(st.one_of(words, st.sampled_from(sorted(porter._NLTK_IRREGULAR)), st.text(max_size=6)))
def test_porter_equals_pure(mods: dict[str, Any], word: str) -> None:
    for code, variant in enumerate(porter.VARIANTS):
        assert mods["porter"].VARIANT_CODES[variant] == code
        got = mods["porter"].stem(word, code, porter._NLTK_IRREGULAR)
        if not word.isascii():
            assert got is None      # the pure stemmer handles it
            continue
        assert got == porter.PorterStemmer(variant).stem_py(word)


# ----------------------------------------------------------------------------- LCS kernels
seqs = st.lists(st.integers(0, 6), max_size=20)
long_seqs = st.lists(st.integers(0, 12), min_size=65, max_size=100)


def _kernels_agree(mod: Any, a: list[int], b: list[int], weights: tuple[float, ...] = (1.2, 2.0)) -> None:
    assert mod.lcs_length(a, b) == lcs.lcs_length_py(a, b)
    assert mod.lcs_ref_positions(a, b) == lcs.lcs_ref_positions_py(a, b)
    for weight in weights:
        gain = np.array(lcs.wlcs_weights(min(len(a), len(b)), weight)[0])
        assert mod.wlcs_positions(a, b, gain) == lcs.wlcs_positions_py(a, b, weight)


@given(seqs, seqs)
def test_lcs_kernels_equal_pure(mods: dict[str, Any], a: list[int], b: list[int]) -> None:
    _kernels_agree(mods["lcs"], a, b)


@relaxed
@given(long_seqs, long_seqs)
def test_lcs_kernels_equal_pure_on_several_words(mods: dict[str, Any], a: list[int], b: list[int]) -> None:
    _kernels_agree(mods["lcs"], a, b, (1.2,))


@relaxed
@given(long_seqs, long_seqs)
def test_lcs_kernels_equal_pure_checkpointed(mods: dict[str, Any], a: list[int], b: list[int]) -> None:
    with tiny_budgets(mods["lcs"]):
        _kernels_agree(mods["lcs"], a, b, (1.5,))


# ----------------------------------------------------------------------------- store level
documents_ = st.lists(st.lists(st.lists(st.integers(0, 7), max_size=10), max_size=4), min_size=1, max_size=5)
# sentences and documents past 64 and 256 tokens: every kernel (one word, a few dense words, sorted
# positions) runs in one call, so a table one pair leaves dirty would show in the next
SIZES = st.sampled_from([0, 3, 64, 65, 120, 200, 256, 257, 300])


@st.composite
def long_documents(draw: st.DrawFn) -> list[list[list[int]]]:
    rng = random.Random(draw(st.integers(0, 2 ** 32)))
    vocab = draw(st.sampled_from([3, 30]))
    shapes = draw(st.lists(st.lists(SIZES, min_size=1, max_size=3), min_size=2, max_size=5))
    return [[[rng.randrange(vocab) for _ in range(n)] for n in doc] for doc in shapes]


@st.composite
def batches(draw: st.DrawFn, docs_strategy: Any = documents_) -> tuple[list[list[list[int]]], np.ndarray, np.ndarray]:
    docs = draw(docs_strategy)
    n_pairs = draw(st.integers(1, 8))
    idx = st.integers(0, len(docs) - 1)
    return docs, np.array(draw(st.lists(idx, min_size=n_pairs, max_size=n_pairs)), dtype=np.int64), \
        np.array(draw(st.lists(idx, min_size=n_pairs, max_size=n_pairs)), dtype=np.int64)


def _all_counts(docs: list[list[list[int]]], ph: np.ndarray, pr: np.ndarray, vocab: int = 8,
                gaps: tuple[int | None, ...] = (1, None)) -> list[np.ndarray]:
    flat = [[t for s in d for t in s] for d in docs]
    batch = PairBatch(flat, docs, ph, pr, vocab)
    out = []
    for n in (1, 2, 3):
        out += batch.ngrams(n)
    for gap in gaps:
        for unigrams in (None, "skip", "count"):
            out += batch.skip_bigrams(gap, unigrams)
    out += batch.lcs()
    out += batch.union_lcs()
    out.append(batch.union_wlcs(1.2))
    return [np.asarray(x, dtype=np.float64) for x in out]


@relaxed
@given(batches())
def test_pair_batch_counts_equal_pure(mods: dict[str, Any], batch: Any) -> None:
    docs, ph, pr = batch
    with path(mods, compiled=True):
        got = _all_counts(docs, ph, pr)
    with path(mods, compiled=False):
        want = _all_counts(docs, ph, pr)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.tolist() == w.tolist()


@relaxed
@given(batches(long_documents()))
def test_store_counts_equal_the_per_pair_functions_on_long_documents(mods: dict[str, Any], batch: Any) -> None:
    docs, ph, pr = batch
    flat = [[t for s in d for t in s] for d in docs]
    with path(mods, compiled=True):
        pb = PairBatch(flat, docs, ph, pr, 31)
        got = {"n2": pb.ngrams(2)[0], "su2": pb.skip_bigrams(2, "skip")[0], "l": pb.lcs()[0], "lsum": pb.union_lcs()[0]}
    with path(mods, compiled=False):
        for k, (h, r) in enumerate(zip(ph.tolist(), pr.tolist())):
            hc, rc = measures.ngram_counts(flat[h], 1), measures.ngram_counts(flat[r], 1)
            assert got["n2"][k] == measures.clipped_hits(measures.ngram_counts(flat[h], 2),
                                                         measures.ngram_counts(flat[r], 2))
            assert got["su2"][k] == measures.clipped_hits(measures.skip_bigram_counts(flat[h], 2, "skip"),
                                                          measures.skip_bigram_counts(flat[r], 2, "skip"))
            assert got["l"][k] == lcs.lcs_length_py(flat[r], flat[h])
            assert got["lsum"][k] == measures.union_lcs_hits(docs[h], docs[r], hc, rc)


@relaxed
@given(batches())
def test_union_hits_equal_the_per_pair_functions(mods: dict[str, Any], batch: Any) -> None:
    docs, ph, pr = batch
    flat = [[t for s in d for t in s] for d in docs]
    st_ = Store(docs)
    fl = Store([[f] for f in flat])
    args = (st_.tokens, st_.start, st_.length, st_.first, st_.count, fl.tokens, fl.doc_start, fl.doc_len, ph, pr, 8)
    lsum = mods["lcs"].union_lcs_hits(*args)
    wsum = mods["lcs"].union_wlcs_hits(*args, *(np.array(x) for x in lcs.wlcs_weights(10, 1.2)))
    plain = mods["lcs"].lcs_hits(fl.tokens, fl.doc_start, fl.doc_len, ph, pr, 8)
    with path(mods, compiled=False):
        for k, (h, r) in enumerate(zip(ph.tolist(), pr.tolist())):
            hc, rc = measures.ngram_counts(flat[h], 1), measures.ngram_counts(flat[r], 1)
            assert lsum[k] == measures.union_lcs_hits(docs[h], docs[r], hc, rc)
            assert wsum[k] == measures.union_wlcs_hits(docs[h], docs[r], hc, rc, 1.2)
            assert plain[k] == lcs.lcs_length_py(flat[r], flat[h])


@given(st.integers(1, 30), st.integers(1, 4), st.integers(1, 40), st.integers(0, 2 ** 32 - 1))
def test_bootstrap_sums_equal_pure(mods: dict[str, Any], n_docs: int, width: int, samples: int, seed: int) -> None:
    values = np.round(np.random.default_rng(seed).random((n_docs, width)), 5)
    pure = bootstrap._sequential_sample_sums(values, bootstrap._draw_matrix(n_docs, samples))
    assert mods["bootstrap"].sample_sums(values, samples).tolist() == pure.tolist()


ratios = st.one_of(st.floats(0, 1), st.integers(0, 10 ** 7).map(lambda k: k / 10 ** 6),
                   st.integers(0, 2 ** 20).map(lambda k: k / 2 ** 20), st.integers(-2 ** 40, 2 ** 40).map(lambda k: k / 64),
                   st.floats(allow_nan=True, allow_infinity=True))


@given(st.lists(ratios, max_size=20))
def test_round5_equals_python_formatting(mods: dict[str, Any], values: list[float]) -> None:
    got = mods["combine"].round5_array(np.array(values, dtype=np.float64))
    want = combine.round5_array_py(np.array(values, dtype=np.float64))
    assert got.tobytes() == want.tobytes() or np.array_equal(got, want, equal_nan=True) and \
        np.signbit(got).tolist() == np.signbit(want).tolist()


# ----------------------------------------------------------------------------- text -> rows
SENTENCE = st.lists(st.sampled_from(["The", "cats", "sat", "on", "mats", "running", "agreement", "a", "of",
                                     "dogs'", "İstanbul", "naïve", "3.5", "-", "", "  ", "\t"]),
                    max_size=8).map(" ".join)
TEXT = st.lists(SENTENCE, max_size=4).map("\n".join)
CONFIGS = [
    ("rouge-score", {"types": "rouge1,rouge2,rougeL,rougeLsum"}),
    ("rouge-score", {"types": "rouge3,rougeLsum,rougeSU2", "stemmer": "porter-nltk", "multi_ref": "average"}),
    ("rouge-1.5.5", {"types": "rouge1,rouge2,rougeLsum,rougeW,rougeS4,rougeSU4", "stemmer": "rouge155"}),
    ("rouge-1.5.5", {"types": "rouge2,rougeLsum,rougeW,rougeS*", "stopwords": "smart", "length_limit_bytes": 25,
                     "multi_ref": "best-recall"}),
    ("rouge-1.5.5", {"types": "rougeLsum,rougeW", "length_limit_words": 5, "averaging": "token"}),
    ("coco", {}),
]


@st.composite
def corpora(draw: st.DrawFn) -> tuple[list[str], list[list[str | None]]]:
    n = draw(st.integers(1, 4))
    hyps = draw(st.lists(TEXT, min_size=n, max_size=n))
    refs = [draw(st.lists(TEXT, min_size=n, max_size=n)) for _ in range(draw(st.integers(1, 3)))]
    return hyps, refs


@relaxed
@given(corpora(), st.sampled_from(CONFIGS))
def test_encoder_stores_equal_documents(mods: dict[str, Any], corpus: Any, config: Any) -> None:
    hyps, refs = corpus
    cfg, _ = make_config("rouge", config[0], **config[1])
    texts = list(dict.fromkeys(hyps + [r for stream in refs for r in stream]))
    with path(mods, compiled=True):
        enc = Encoder(Corpus(cfg))
        for t in texts:
            enc.add(t)
        flat, lcs_store, vocab = enc.encode()
    with path(mods, compiled=False):
        pure_corpus = Corpus(cfg)
        docs = [pure_corpus.document(t) for t in texts]
    want_flat, want_lcs = Store([[d.flat] for d in docs]), Store([d.lcs_side for d in docs])
    assert vocab == len(pure_corpus.vocab)
    assert flat.tokens.tolist() == want_flat.tokens.tolist() and flat.doc_len.tolist() == want_flat.doc_len.tolist()
    for field in ("tokens", "length", "count"):
        assert getattr(lcs_store, field).tolist() == getattr(want_lcs, field).tolist()


@relaxed
@given(corpora(), st.sampled_from(CONFIGS))
def test_segment_rows_equal_pure(mods: dict[str, Any], corpus: Any, config: Any) -> None:
    hyps, refs = corpus
    cfg, _ = make_config("rouge", config[0], **config[1])
    with path(mods, compiled=True):
        got = rows.segment_rows(hyps, refs, cfg).rows
    with path(mods, compiled=False):
        want = rows.segment_rows(hyps, refs, cfg).rows
    assert got.tolist() == want.tolist()
