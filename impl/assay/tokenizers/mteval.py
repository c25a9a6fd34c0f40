"""``mteval-13a`` / ``mteval-intl``: the tokens NIST mteval-v13a.pl / mteval-v14.pl score.

Everything below was established by running the Moses copies of mteval-v13a.pl and mteval-v14.pl
(commit 34452895f350) as black boxes on SGML-wrapped segments and reading the tokens they print
with ``-d 3`` (the ``sys 'sys', seg N:`` lines).

Pipeline per segment, in this order:

0. mteval's SGML reader turns every run of Perl ``\\s`` into one space before tokenising but
   trims nothing: leading and trailing whitespace survive as one space, and they matter to the
   international rules (``x 2019.`` keeps ``2019.``, ``x 2019. `` gives ``2019 .``, `` .5`` gives
   ``. 5``; sacrebleu instead ``rstrip``s every segment). Hence ``-\\n`` never reaches the
   tokenizer (``state-\\nof`` gives ``state- of``, not ``stateof``) and neither does the
   international tokenizer's ``\\p{Hyphen}\\p{Zl}`` line join (``state-\\u2028of`` gives
   ``state - of`` in v13a and v14 alike): both joins are dead code in practice, so v13a and v14
   give the same tokens.
1. ``<skipped>`` removed (case-sensitive, before lowercasing: ``<SKIPPED>`` without ``-c``
   comes out as ``< skipped >``).
2. Entities: ``&quot; &amp; &lt; &gt;`` (default) or ``&quot; &amp; &lt; &gt; &apos;``
   (international), in that order, so ``&amp;lt;`` -> ``<``, ``&amp;quot;`` -> ``& quot ;``,
   ``&amp;apos;`` -> ``'`` (international only; the default leaves ``&apos;`` as ``& apos ;``).
3. **Lowercasing happens here, after steps 1-2** (observed: ``&QUOT;`` is not unescaped and
   ``<SKIPPED>`` is not removed when mteval lowercases). mteval lowercases unless ``-c``:
   the default tokenizer with ASCII ``tr/A-Z/a-z/`` (``ÉCOLE`` -> ``École``), the international
   one with Perl ``lc`` (``ÉCOLE`` -> ``école``; Perl has no final-sigma rule: ``ΟΔΟΣ`` ->
   ``οδοσ``, Python's ``lower()`` gives ``οδος``). The metric passes ``lowercase='ascii'``,
   ``'perl'`` (``'unicode'`` is accepted as a synonym: mteval has no other Unicode lowercasing)
   or ``None`` (``-c``). Lowercasing commutes with the rewrite rules that follow (no case
   mapping changes a character's P/S/N class or touches ASCII punctuation; checked on every
   code point), so "before the rules" and "after the rules" give the same tokens.
4. Rewrite rules: default = the 13a regex rules 4a-4d (see :mod:`assay.tokenizers.tok_13a`) on
   the space-padded text; international = sacrebleu ``intl``'s three Unicode regexes (see
   :mod:`assay.tokenizers.intl`), then ``\\p{Z}+`` -> one space (a no-op for the tokens: every
   ``\\p{Z}`` character is Perl whitespace).
5. Tokens: Perl ``split`` on ``\\s``, which on decoded text is Python's ``str.isspace`` set
   **minus U+001C-U+001F** (probed on every code point with perl 5.36; U+0085, NBSP, U+1680,
   U+2000-U+200A, U+2028/9, U+202F, U+205F, U+3000 all split). So ``a\\x1cb`` is one token here
   and two in sacrebleu ``13a`` — the only difference research found between the two on
   3000 random strings.

Checked: 0 differences from mteval-v13a.pl and mteval-v14.pl on 16 x 400 random strings (ASCII
punctuation, entities, ``<skipped>``/``<SKIPPED>``, U+001C-U+001F, U+0085, NBSP, U+2028, Σ, İ,
CJK, symbols, numbers, leading/trailing whitespace) in all four modes (``-c`` or not, default or
``--international-tokenization``), and every case of ``fixtures/tokenizers/mteval.json``.

Compiled twins: steps 1-3 stay Python (a plain ``str`` pass, only where ``<skipped>`` or ``&``
occurs, then the lowercasing), then the 13a engine of ``assay.tokenizers._tok_13a_c`` (Perl
whitespace) or the international one of ``assay.tokenizers._intl_c`` (Perl whitespace, no
``rstrip``) cut the tokens. Step 0 is skipped there: collapsing a run of Perl whitespace into one
space changes no token (every rule sees a whitespace character as a non-digit, non-number,
non-mark, and the split removes the runs) and cannot create or break an entity or ``<skipped>``
(neither contains whitespace). ``tokenize_lines`` and ``id_encoder`` use them.

Not reproduced: mteval's ``-e`` option (spaces around non-ASCII characters). The international
classes come from the ``regex`` module, whose Unicode tables are newer than perl 5.36's
(Unicode 14): characters assigned after Unicode 14 may be classed differently by mteval.
"""
from __future__ import annotations

from functools import partial
from typing import Optional, Sequence

from assay.tokenizers.base import (IdEncoder, Lowercase, Tokenizer, choose_separator, distinct_batch, id_encoder_from,
                                   lowercase_text, perl_collapse, perl_lc, perl_split)
from assay.tokenizers.intl import apply_intl_regexes, intl_batch, intl_id_encoder, intl_tokenize_lines
from assay.tokenizers.tok_13a import SEPARATOR_CANDIDATES, _apply_bytes, _compiled, _NoPlaceholder, apply_13a_regexes


def _lower(text: str, lowercase: Lowercase) -> str:
    return perl_lc(text) if lowercase in ("unicode", "perl") else lowercase_text(text, lowercase)


def read_segment(line: str) -> str:
    """Step 0: what mteval's SGML reader hands to the tokenizer (Perl-whitespace runs collapsed,
    nothing trimmed)."""
    return perl_collapse(line)


class _Mteval(Tokenizer):
    """Shared pipeline; subclasses provide the entity list and the rewrite rules."""

    _entities: tuple[tuple[str, str], ...] = ()

    def prepare(self, line: str, lowercase: Lowercase = None) -> str:
        """Steps 0-3."""
        return self.prepare_tokens(read_segment(line), lowercase)

    def prepare_tokens(self, line: str, lowercase: Lowercase = None) -> str:
        """Steps 1-3 without step 0 (the same tokens: see the module docstring); the compiled path."""
        if "<skipped>" in line:
            line = line.replace("<skipped>", "")
        if "&" in line:
            for entity, char in self._entities:
                line = line.replace(entity, char)
        return _lower(line, lowercase)

    def rewrite(self, text: str) -> str:
        raise NotImplementedError

    def rewrite_batch(self, texts: list[str]) -> list[str]:
        return [self.rewrite(text) for text in texts]

    def tokenize(self, line: str) -> str:
        """The tokens of ``mteval -c`` (no lowercasing), joined by single spaces."""
        return " ".join(self.tokenize_segment(line))

    def split(self, text: str) -> list[str]:
        return perl_split(text)

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        return perl_split(self.rewrite(self.prepare(line, lowercase)))

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        return distinct_batch(lines, lambda distinct: self._batch(distinct, lowercase))

    def _twin_tokens(self, lines: list[str], lowercase: Lowercase) -> Optional[list[list[str]]]:
        """The compiled tokens of ``lines`` (None on the pure path)."""
        raise NotImplementedError

    def _batch(self, lines: list[str], lowercase: Lowercase) -> list[list[str]]:
        if not lines:
            return []
        out = self._twin_tokens(lines, lowercase)
        if out is not None:
            return out
        texts = [self.prepare(line, lowercase) for line in lines]
        return [perl_split(text) for text in self.rewrite_batch(texts)]


class TokenizerMteval13a(_Mteval):
    name = "mteval-13a"
    signature_name = "mteval-13a"
    _entities = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))

    def rewrite(self, text: str) -> str:
        return apply_13a_regexes(f" {text} ")

    def _twin_tokens(self, lines: list[str], lowercase: Lowercase) -> Optional[list[list[str]]]:
        if _compiled is None:
            return None
        return _compiled.tokenize_lines(lines, partial(self.prepare_tokens, lowercase=lowercase), None, 0,
                                        perl_space=True)

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """Compiled path only: ``tokenize_lines`` straight to ids (see the base class)."""
        if _compiled is None:
            return None
        prepare = partial(self.prepare_tokens, lowercase=lowercase)
        return id_encoder_from(_compiled.CodeTable, lambda table, lines: table.encode_lines(lines, prepare, None, 0,
                                                                                            perl_space=True),
                               (self.name, lowercase))

    def rewrite_batch(self, texts: list[str]) -> list[str]:
        found = choose_separator(texts, SEPARATOR_CANDIDATES, " {} ")
        if found is not None:
            sep, text = found
            try:
                data = _apply_bytes(f" {text} ".encode("utf-8", "surrogatepass"))
            except _NoPlaceholder:
                pass
            else:
                return data.decode("utf-8", "surrogatepass").split(sep)
        return [self.rewrite(text) for text in texts]


class TokenizerMtevalIntl(_Mteval):
    name = "mteval-intl"
    signature_name = "mteval-intl"
    _entities = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&apos;", "'"))

    def rewrite(self, text: str) -> str:
        return apply_intl_regexes(text)

    def _twin_tokens(self, lines: list[str], lowercase: Lowercase) -> Optional[list[list[str]]]:
        return intl_tokenize_lines(lines, partial(self.prepare_tokens, lowercase=lowercase), perl_space=True,
                                   rstrip=False)

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """Compiled path only: ``tokenize_lines`` straight to ids (see the base class)."""
        return intl_id_encoder(partial(self.prepare_tokens, lowercase=lowercase), perl_space=True, rstrip=False,
                               key=(self.name, lowercase))

    def rewrite_batch(self, texts: list[str]) -> list[str]:
        return intl_batch(texts)
