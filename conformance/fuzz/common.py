"""What every fuzz harness shares: turning fuzzer bytes into hostile text, and the contract checks.

A harness is a module of this package with ``one_input(data: bytes) -> None`` (the function the
fuzzer calls; it raises ``AssertionError`` or lets an unexpected exception escape when the contract
is broken) and ``SEEDS`` (a few inputs that start the fuzzer and that the default-env pytest runs
without atheris). Nothing here needs atheris: :class:`Draw` decodes the bytes itself, so every
crash file replays with ``python -m conformance.fuzz replay TARGET FILE``.

The contract every harness checks: the code under test returns a result of the documented shape
or raises one of assay's own errors (:class:`assay.core.errors.AssayError` and its subclasses),
never another exception.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from assay.core.errors import AssayError

#: Non-ASCII characters (and a few multi-character strings) that tokenizers treat specially: every
#: Unicode space, the separators Python splits on but Perl does not (U+001C-U+001F), a byte-order
#: mark, lone surrogates, CJK and full-width forms (zh's range bug included), case mappings that
#: change length (İ, ß, Σ), numbers that are not ASCII digits, symbols, combining marks, bidi
#: controls, astral characters, entities and ``<skipped>``, clitics and abbreviations (PTB).
EXTRA: tuple[str, ...] = (
    "\x85", "\xa0", "\u1680", "\u2000", "\u2001", "\u2009", "\u200a", "\u200b", "\u2028", "\u2029",
    "\u202f", "\u205f", "\u3000", "\ufeff", "\x1c", "\x1d", "\x1e", "\x1f", "\ud800", "\udc80",
    "\udfff", "\u4e00", "\u6211", "\u2e80", "\u3001", "\u3002", "\uff01", "\uff0c", "\uff10", "\uff21",
    "\uff41", "\uff61", "\u30fb", "\u3042", "\u30a2", "\uac00", "\u20ac", "\u2192", "\u2212", "\u2013",
    "\u2014", "\u2026", "\u201c", "\u201d", "\u2018", "\u2019", "\u00ab", "\u00bb", "\u00bf", "\u00a1",
    "\u0130", "\u00df", "\u03a3", "\u03c2", "\u212a", "\u0301", "\u0308", "\u0307", "\u00e9", "\u00c9",
    "\u00b2", "\u00b3", "\u00b9", "\u00bc", "\u00bd", "\u0663", "\u0966", "\u2160", "\u00a7", "\u00b0",
    "\u00a9", "\u00ae", "\u2122", "\u00d7", "\u00f7", "\u221e", "\u202e", "\u202a", "\u2066", "\u2069",
    "\U00020000", "\U0002a6d6", "\U0002f800", "\U0001f600", "\ue000",
    "\U0010ffff", "\ufffd", "\ufb01", "\u0627", "\u05d0",
    "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>", "<SKIPPED>", "n't", "'s", "'ll",
    "not", "gon", "na", "Inc.", "U.S.", "No.", "Jan.", "The", "...", "--", "3 1/2", "-\n", "\r\n",
    "<t>", "</t>", "<n>", " . ", "2019.", ".5", "1,000", "10-20", "http://x.y/z", "@user", "a@b.c",
    "-LRB-", "(", "``", "''",
)
assert len(EXTRA) == 128, len(EXTRA)   # one per byte value 0x80-0xff


class Draw:
    """Consumes fuzzer bytes front to back; past the end every draw returns its smallest value."""

    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def below(self, n: int) -> int:
        """An integer in ``[0, n)`` (two bytes when ``n`` needs them)."""
        if n <= 1:
            return 0
        value = self.byte()
        if n > 256:
            value = value << 8 | self.byte()
        return value % n

    def flag(self) -> bool:
        return bool(self.byte() & 1)

    def pick(self, options: Sequence[Any]) -> Any:
        return options[self.below(len(options))]

    def chunk(self, max_len: int = 255) -> bytes:
        """Raw bytes: a length, then that many bytes (fewer at the end of the data)."""
        n = self.below(max_len + 1)
        out = self.data[self.pos:self.pos + n]
        self.pos += len(out)
        return out

    def rest(self) -> bytes:
        out = self.data[self.pos:]
        self.pos = len(self.data)
        return out

    def text(self, max_len: int = 255) -> str:
        """A string drawn four ways: UTF-8 (invalid bytes replaced), UTF-8 with lone surrogates
        (``surrogateescape``), an alphabet of ASCII plus :data:`EXTRA` (one byte each, the fastest
        way for the fuzzer to reach odd characters), or arbitrary code points (three bytes each)."""
        mode = self.byte() & 3
        raw = self.chunk(max_len)
        if mode == 0:
            return raw.decode("utf-8", "replace")
        if mode == 1:
            return raw.decode("utf-8", "surrogateescape")
        if mode == 2:
            return "".join(chr(b) if b < 0x80 else EXTRA[b - 0x80] for b in raw)
        return "".join(chr(int.from_bytes(raw[i:i + 3], "big") % 0x110000) for i in range(0, len(raw) - 2, 3))

    def lines(self, max_lines: int = 6, max_len: int = 64) -> list[str]:
        return [self.text(max_len) for _ in range(self.below(max_lines + 1))]


@contextmanager
def assay_errors_only() -> Iterator[None]:
    """The contract: any :class:`AssayError` is an accepted outcome; every other exception escapes
    (the fuzzer reports it as a crash)."""
    try:
        yield
    except AssayError as exc:
        assert str(exc).strip(), f"{type(exc).__name__} with an empty message"


def check_tokens(tokens: Any, where: str, separators: Callable[[str], bool] | None = str.isspace,
                 allow_empty: bool = False) -> None:
    """``tokens`` is a list of strings; unless allowed, none is empty; none holds a character for
    which ``separators`` is true (the tokenizer's documented split set; ``None``: not checked)."""
    assert isinstance(tokens, list), f"{where}: {type(tokens).__name__}, expected a list"
    for t in tokens:
        assert isinstance(t, str), f"{where}: token {t!r} is not a str"
        assert allow_empty or t, f"{where}: empty token in {tokens!r}"
        if separators is not None:
            assert not any(separators(c) for c in t), f"{where}: token {t!r} holds a separator"


def char_in(chars: str) -> Callable[[str], bool]:
    return frozenset(chars).__contains__


LOWERCASES = (None, "unicode", "perl", "ascii")
"""Every lowercasing mode of :data:`assay.tokenizers.base.Lowercase`."""


def fuzz_tokenizer(tok: Any, draw: Draw, separators: Callable[[str], bool] | None = str.isspace,
                   lowercases: Sequence[Any] = LOWERCASES,
                   check: Callable[[list[str], str], None] | None = None) -> None:
    """The :class:`assay.tokenizers.base.Tokenizer` contract on one drawn segment and one drawn corpus:
    ``tokenize`` returns a str; ``tokenize_segment`` a list of non-empty tokens free of the
    tokenizer's separators (``check`` adds a per-tokenizer test); ``tokenize_lines`` equals
    ``tokenize_segment`` line by line (base class docstring: "it must equal the per-segment results
    exactly")."""
    lowercase = draw.pick(lowercases)
    line = draw.text()
    lines = draw.lines()
    with assay_errors_only():
        out = tok.tokenize(line)
        assert isinstance(out, str), f"{tok.name}.tokenize returned {type(out).__name__}"
        tokens = tok.tokenize_segment(line, lowercase)
        check_tokens(tokens, f"{tok.name}.tokenize_segment({line!r}, {lowercase!r})", separators)
        if check is not None:
            check(tokens, line)
        batch = tok.tokenize_lines(lines, lowercase)
        single = [tok.tokenize_segment(ln, lowercase) for ln in lines]
        assert batch == single, (f"{tok.name}.tokenize_lines({lines!r}, {lowercase!r}) = {batch!r}, "
                                 f"per segment {single!r}")


def agrees_with_oracle(tok: Any, reference: Callable[[str], str], line: str) -> None:
    """``tok.tokenize(line)`` gives the same tokens as the literal reference version its docstring
    names as the oracle."""
    with assay_errors_only():
        got, want = tok.tokenize(line).split(), reference(line).split()
        assert got == want, f"{tok.name}.tokenize({line!r}): {got!r}, reference {want!r}"
