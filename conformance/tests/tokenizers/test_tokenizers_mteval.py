"""mteval-v13a/v14 tokenisation (default, -c, --international-tokenization) against frozen mteval output.

fixtures/tokenizers/mteval.json holds what the perl scripts printed with ``-d 3`` (see its
``generated_by``): tokens separated by single spaces; ``lowercase`` is what the metric passes
(``ascii`` = mteval default tr/A-Z/a-z/, ``unicode`` = Perl lc of the international tokenizer,
None = ``-c``).
"""
from __future__ import annotations

import json
from collections import defaultdict

import pytest

from assay.tokenizers import get_tokenizer
from conformance.fixture_io import FIXTURES

DOC = json.loads((FIXTURES / "tokenizers" / "mteval.json").read_text(encoding="utf-8"))
GROUPS: dict[tuple[str, str | None, str], list[dict]] = defaultdict(list)
for _case in DOC["cases"]:
    GROUPS[(_case["tokenizer"], _case["lowercase"], _case["tool"])].append(_case)


@pytest.mark.parametrize("group", sorted(GROUPS, key=str), ids=lambda g: f"{g[2]}:{g[0]}:lc={g[1]}")
def test_mteval_tokens(group):
    tokenizer_name, lowercase, _tool = group
    cases = GROUPS[group]
    tokenizer = get_tokenizer(tokenizer_name)
    got = tokenizer.tokenize_lines([c["input"] for c in cases], lowercase)
    mismatches = [(c["input"], c["expected"], " ".join(g)) for c, g in zip(cases, got)
                  if " ".join(g) != c["expected"]]
    assert not mismatches, f"{len(mismatches)}/{len(cases)} differ, e.g. {mismatches[:3]!r}"
