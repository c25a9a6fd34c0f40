"""The on-disk cache of Moses-tokenised streams (:mod:`assay.tokenizers.moses`): a stream tokenised
once is read back without calling the tokenizer, equal to what it returned; the key covers the
lines, the language, ``-a`` and the installed sacremoses; ``ASSAY_CACHE_DIR=off`` disables it; a
damaged entry is tokenised again. The tokenizer is a stand-in (the real one is checked against
tokenizer.perl in tests/audit), so these run without sacremoses."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from assay.tokenizers import moses


class FakeMoses:
    """Records every call; 'tokenises' by spacing out commas (and ``@-@`` with -a)."""

    def __init__(self) -> None:
        self.calls = 0

    def tokenize(self, line: str, return_str: bool, escape: bool, aggressive_dash_splits: bool) -> str:
        self.calls += 1
        out = line.replace(",", " ,")
        return out.replace("-", " @-@ ") if aggressive_dash_splits else out


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeMoses:
    tok = FakeMoses()
    monkeypatch.setattr(moses, "_tokenizer", lambda lang: tok)
    monkeypatch.setattr(moses, "moses_available", lambda: True)
    monkeypatch.setattr(moses, "_tool_version", lambda: "0.2.0")
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(tmp_path))
    return tok


LINES: list[Any] = ["a,b", None, "x-y, z", "", "\ud800 lone surrogate, kept"]


def test_second_call_reads_the_cache(fake: FakeMoses, tmp_path: Path) -> None:
    first = moses.moses_tokenize(LINES, "en")
    assert fake.calls == 4 and first[1] is None
    again = moses.moses_tokenize(list(LINES), "en")
    assert again == first and fake.calls == 4
    assert len(list((tmp_path / "moses").glob("*.json"))) == 1


def test_key_covers_language_aggressive_version_and_lines(fake: FakeMoses, monkeypatch: pytest.MonkeyPatch) -> None:
    moses.moses_tokenize(LINES, "en")
    assert moses.moses_tokenize(LINES, "en", aggressive=True)[2] == "x @-@ y , z"
    moses.moses_tokenize(LINES, "de")
    moses.moses_tokenize(LINES[:-1], "en")
    monkeypatch.setattr(moses, "_tool_version", lambda: "0.2.1")
    moses.moses_tokenize(LINES, "en")
    assert fake.calls == 4 * 4 + 3


def test_off_disables_and_damaged_entries_are_redone(fake: FakeMoses, monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    moses.moses_tokenize(LINES, "en")
    (entry,) = (tmp_path / "moses").glob("*.json")
    entry.write_text('["truncated"', encoding="utf-8")
    assert moses.moses_tokenize(LINES, "en")[0] == "a ,b" and fake.calls == 8
    entry.write_text('["wrong length"]', encoding="utf-8")
    assert moses.moses_tokenize(LINES, "en")[0] == "a ,b" and fake.calls == 12
    monkeypatch.setenv("ASSAY_CACHE_DIR", "off")
    moses.moses_tokenize(LINES, "en")
    moses.moses_tokenize(LINES, "en")
    assert fake.calls == 20


def test_unwritable_cache_only_costs_speed(fake: FakeMoses, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(blocker))
    assert moses.moses_tokenize(LINES, "en")[2] == "x-y , z"
    assert moses.moses_tokenize(LINES, "en")[2] == "x-y , z" and fake.calls == 8
