"""Acceptance: assay's sacrebleu profile equals live sacrebleu on every language pair of the real
corpora (../shared/corpora), every tokenizer, every smoothing method, with 1 and 2 references.

One system per pair (the first in name order) keeps the run short; statistics are compared
exactly and each smoothing method's score to 1e-9. Skipped when the corpora are absent.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import assay
from conformance.fixture_io import within
from conformance.references.availability import importable, require

pytestmark = [pytest.mark.refs, pytest.mark.corpora]
TOKENIZERS = ("13a", "intl", "zh", "char", "none")
SMOOTH = ("none", "floor", "add-k", "exp")


def _read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _pairs(corpora: Path) -> list[tuple[str, list[Path], Path]]:
    out = []
    wmt22 = corpora / "wmt22-general"
    for pair_dir in sorted(p for p in wmt22.iterdir() if p.is_dir()) if wmt22.is_dir() else []:
        refs = sorted(pair_dir.glob("*.ref.*"))
        hyp = sorted(pair_dir.glob("*.hyp.*"))[0]
        out.append((f"wmt22/{pair_dir.name}", refs, hyp))
    wmt17 = corpora / "wmt17-ende-sacrebleu"
    if wmt17.is_dir():
        out.append(("wmt17/en-de", sorted(wmt17.glob("*.ref.de")), sorted(wmt17.glob("*.hyp.de"))[0]))
    return out


def test_every_pair_tokenizer_smoothing_and_reference_count(corpora_dir: Path) -> None:
    require("sacrebleu")
    from sacrebleu.metrics import BLEU
    pairs = _pairs(corpora_dir)
    assert pairs, f"no MT corpora found under {corpora_dir}"
    checked = 0
    for name, ref_paths, hyp_path in pairs:
        hyps = _read(hyp_path)
        tokenizers = TOKENIZERS + (("ja-mecab",) if "-ja" in name and importable("MeCab", "ipadic") else ())
        for nrefs in sorted({1, min(2, len(ref_paths))}):
            refs = [_read(p) for p in ref_paths[:nrefs]]
            for tok in tokenizers:
                want = BLEU(tokenize=tok).corpus_score(hyps, refs)
                stats, config, prof, streams = assay.compute_stats("bleu", hyps, refs, "sacrebleu", tokenize=tok)
                total = stats.total()
                assert [int(x) for x in total[2:6]] == want.counts, (name, nrefs, tok)
                assert [int(x) for x in total[6:10]] == want.totals, (name, nrefs, tok)
                assert (int(total[0]), int(total[1])) == (want.sys_len, want.ref_len), (name, nrefs, tok)
                for smooth in SMOOTH:
                    for eff in (False, True):
                        expected = BLEU.compute_bleu(list(want.counts), list(want.totals), want.sys_len, want.ref_len,
                                                     smooth_method=smooth, effective_order=eff).score
                        got = assay.score_from_stats("bleu", stats, assay.make_config(
                            "bleu", "sacrebleu", smooth_method=smooth, tokenize=tok, effective_order=eff)[0],
                            prof, str(nrefs)).value
                        assert within(expected, got, {"rel": 1e-9, "abs": 1e-12}), (name, nrefs, tok, smooth, eff)
                        checked += 1
    assert checked >= len(pairs) * len(TOKENIZERS) * len(SMOOTH)

