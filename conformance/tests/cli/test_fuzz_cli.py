"""Fuzz of the real command line (issue 17, item 6): hostile files, knob values and options.

Every example runs ``assay.cli.main.main(argv)`` in process (argparse's ``SystemExit`` caught) on
files drawn from the kinds of bad input users meet (invalid UTF-8, a byte-order mark, CR and CRLF
line ends, NUL, empty lines, long lines, mismatched line counts, empty files) with a knob of the
family drawn from its declared domain (``assay.engine.registry.get_family(m).knobset.knobs``) or
from hostile strings, plus hostile ``-w`` values. Whatever it draws, the command must:

- never print a Python traceback;
- never print ``nan`` or ``inf`` as a number (a standalone word in stdout);
- exit with a documented code (README "Exit codes", ``assay.core.errors``): 0, 2, 4 or 130.
  ``conform`` (whose 1-100 counts failures) is not fuzzed here.

The number of examples is capped here (``max_examples``) so the file runs in well under a minute;
a ``HYPOTHESIS_PROFILE`` asking for fewer is respected, and ``derandomize`` makes it deterministic
whatever the profile (Hypothesis's ``ci`` profile included).
"""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.cli.main import main
from assay.cli.significance import CELL_BYTES, MAX_RESAMPLE_BYTES, check_resample_memory, statistics_columns
from assay.core.domains import Boolean, Choice, Number, Optional, PathDomain
from assay.core.errors import KnobError
from assay.engine.registry import get_family
from assay.profiles.registry import profiles_of

#: README "Exit codes" without conform's 1-100 failure counts
DOCUMENTED_EXIT_CODES = {0, 2, 4, 130}
FAMILIES = ("bleu", "nist", "chrf", "ter", "rouge", "cider", "meteor")
#: a standalone nan/inf word (``-inf``, ``NaN``, ``Infinity`` included); words such as "info" do not match
NON_FINITE = re.compile(r"(?<![\w.])[-+]?(nan|inf|infinity)(?![\w])", re.IGNORECASE)
LONG_LINE = 5000
HOSTILE_VALUES = ("nan", "inf", "-inf", "-1", "1e308", "", "x" * 2000, "\x1b[31m", "\u202e", "method99",
                  "0", "1e-320", "true false")
HOSTILE_WIDTHS = ("-1", "0", "nan", "1e308", "99999", "3", "\x1b[31m", "")
WORDS = ("the", "cat", "sat", "on", "mat", "a", "dog", "ran", "über", "日本", "—", ",", ".")
_MAX_EXAMPLES = 300


def _settings_cap() -> int:
    """Our cap, or fewer if the loaded Hypothesis profile asks for fewer."""
    return min(_MAX_EXAMPLES, settings().max_examples)


# ----------------------------------------------------------------------------- knob values
def _format(value: Any) -> str:
    """A Python knob value as the CLI's ``--set`` spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return " ".join(_format(v) for v in value)
    return "" if value is None else str(value)


def _domain_values(knob: Any, paths: dict[str, Path]) -> st.SearchStrategy[str]:
    """Values inside the knob's domain (sizes kept small: a bound that 'only costs time' is not
    what this test is about), as CLI strings."""
    domain = knob.domain
    if isinstance(domain, Optional):
        domain = domain.inner
    if isinstance(domain, Boolean):
        return st.sampled_from(("true", "false"))
    if isinstance(domain, Choice):
        return st.sampled_from([_format(v) for v in domain.values])
    if isinstance(domain, Number):
        low = domain.low if domain.low is not None else -1e6
        high = domain.high if domain.high is not None else 1e6
        if domain.integer:
            return st.integers(int(low), int(min(high, low + 6))).map(str)
        return st.floats(low, min(high, 1e6), allow_nan=False, allow_infinity=False,
                         exclude_min=domain.low_open, exclude_max=domain.high_open).map(repr)
    if isinstance(domain, PathDomain):
        return st.sampled_from(("", str(paths["dir"]), str(paths["hyp"]), str(paths["dir"] / "missing")))
    return st.sampled_from((_format(knob.default), str(paths["hyp"])))


@st.composite
def knob_setting(draw: st.DrawFn, metric: str, paths: dict[str, Path]) -> list[str]:
    """Up to two ``--set KNOB=VALUE`` for knobs of ``metric``, and sometimes a profile (or a
    hostile profile name)."""
    knobs = get_family(metric).knobset.knobs
    argv: list[str] = []
    for _ in range(draw(st.integers(0, 2))):
        knob = draw(st.sampled_from(knobs))
        value = draw(st.one_of(_domain_values(knob, paths), st.sampled_from(HOSTILE_VALUES)))
        argv += ["--set", f"{knob.name}={value}"]
    if draw(st.integers(0, 2)) == 2:
        names = [p.name for p in profiles_of(metric)] + ["\x1b[31m", "nope", ""]
        argv += ["-p", draw(st.sampled_from(names))]
    return argv


# ----------------------------------------------------------------------------- file contents
_line = st.one_of(
    st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join),
    st.just(""),
    st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30),
    st.integers(1, LONG_LINE).map(lambda n: ("word " * (n // 5 + 1))[:n]),
    st.just("a\x00b"),
)
_ending = st.sampled_from(("\n", "\r\n", "\r"))


@st.composite
def file_bytes(draw: st.DrawFn, n_lines: int) -> bytes:
    """A file of ``n_lines`` drawn lines, possibly with a BOM, mixed line ends, invalid UTF-8."""
    if draw(st.integers(0, 20)) == 20:     # rare kinds take the high draw: Hypothesis starts low
        return b""
    lines = [draw(_line) for _ in range(n_lines)]
    ending = draw(_ending)
    data = "".join(line + ending for line in lines).encode("utf-8")
    if draw(st.integers(0, 6)) == 6:
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 8)) == 8:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"))) + data[at:]
    return data


@st.composite
def corpus(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """Hypothesis and reference bytes; the line counts usually agree, sometimes not."""
    n = draw(st.integers(1, 6))
    m = n if draw(st.integers(0, 4)) < 4 else draw(st.integers(0, 7))
    return draw(file_bytes(n)), draw(file_bytes(m))


# ----------------------------------------------------------------------------- commands
@st.composite
def command(draw: st.DrawFn, paths: dict[str, Path]) -> list[str]:
    """One command line over the files in ``paths``."""
    hyp, ref = str(paths["hyp"]), str(paths["ref"])
    kind = draw(st.sampled_from(("score", "significance", "score", "score", "compare", "audit", "profiles", "knobs")))
    metric = draw(st.sampled_from(FAMILIES))
    width = ["-w", draw(st.sampled_from(HOSTILE_WIDTHS))] if draw(st.integers(0, 3)) == 3 else []
    if kind == "score":
        argv = ["score", metric, "-i", hyp, "-r", ref] + draw(knob_setting(metric, paths)) + width
        if metric == "meteor" and "algorithm=meteor-1.5" in argv:
            argv += ["--set", "synonyms=false"]     # the jar's WordNet stage: slow, not what is fuzzed
        return argv + draw(st.sampled_from(([], ["--sentence"], ["-f", "json"])))
    if kind == "significance":
        metric = draw(st.sampled_from(("bleu", "chrf", "ter")))
        mode = draw(st.sampled_from((["--confidence"], ["--paired-bs"], ["--paired-ar"])))
        inputs = [hyp] if mode == ["--confidence"] else [hyp, ref]
        n = draw(st.sampled_from(("2", "5", "1", "0", "-3")))
        return (["significance", metric, "-i", *inputs, "-r", ref, *mode, "-n", n]
                + draw(knob_setting(metric, paths)) + width)
    if kind == "compare":
        metric = draw(st.sampled_from(("bleu", "chrf", "ter", "rouge", "nist")))
        return ["compare", "-i", hyp, "-r", ref, "-m", metric]
    if kind == "audit":
        claim = draw(st.sampled_from(("BLEU 28.4", "chrF nan", "BLEU inf", "BLEU -1", "\x1b[31m", "",
                                      "BLEU 1e308", "TER 40", "BLEU")))
        return ["audit", "-i", hyp, "-r", ref, "--claim", claim]
    if kind == "profiles":
        return ["profiles"] + draw(st.sampled_from(([], [metric], ["\u202e"], ["nope"])))
    return ["knobs", draw(st.sampled_from((metric, "\x1b[31m", "")))]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """Exit code, stdout, stderr of ``assay ARGV`` in process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


def check_run(argv: list[str]) -> None:
    code, out, err = run_cli(argv)
    shown = f"argv={argv!r}\nexit={code}\nstdout={out[:2000]!r}\nstderr={err[-2000:]!r}"
    assert "Traceback" not in err and "Traceback" not in out, shown
    assert code in DOCUMENTED_EXIT_CODES, shown
    bad = NON_FINITE.search(out)
    assert bad is None, f"non-finite number {bad.group(0)!r} printed\n{shown}"


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fuzz_cli")
    (root / "a_dir").mkdir()
    return {"hyp": root / "hyp.txt", "ref": root / "ref.txt", "dir": root / "a_dir"}


def test_fuzz_cli(paths: dict[str, Path]) -> None:
    """Drawn files and command lines: no traceback, no NaN/inf, a documented exit code."""

    @settings(max_examples=_settings_cap(), deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(files=corpus(), argv=command(paths))
    def fuzz(files: tuple[bytes, bytes], argv: list[str]) -> None:
        paths["hyp"].write_bytes(files[0])
        paths["ref"].write_bytes(files[1])
        check_run(argv)

    fuzz()


def test_non_finite_pattern() -> None:
    """The NaN/inf detector flags printed numbers, not words that contain the letters."""
    assert NON_FINITE.search("BLEU = nan 1.0/2.0")
    assert NON_FINITE.search("score: -inf")
    assert NON_FINITE.search('{"score": NaN}')
    assert not NON_FINITE.search("information infinite nano")


# ----------------------------------------------------------------------------- significance -n bound
def test_significance_samples_are_bounded(tmp_path: Path) -> None:
    """``significance -n`` refuses a run over 2 GB of resampling (samples x segments x columns x 8
    bytes) with one line naming the numbers, before drawing anything; a run under it goes ahead."""
    hyp, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyp.write_text("the cat sat on the mat\na dog ran\n", encoding="utf-8")
    ref.write_text("the cat sat on a mat\nthe dog ran\n", encoding="utf-8")
    columns = statistics_columns("bleu", None, {})     # BLEU's row width under its default profile
    assert columns >= 2 * 4     # at least matches and totals per order, n <= 4
    assert statistics_columns("bleu,ter", None, {}) == columns     # the widest metric of the run
    limit = MAX_RESAMPLE_BYTES // (2 * columns * CELL_BYTES)
    for mode in (["--confidence"], ["--paired-bs"], ["--paired-ar"]):
        inputs = [str(hyp)] if mode == ["--confidence"] else [str(hyp), str(ref)]
        code, out, err = run_cli(["significance", "bleu", "-i", *inputs, "-r", str(ref), *mode,
                                  "-n", str(limit + 1)])
        assert code == 2 and out == "", err
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("assay: error: -n "), err
        for number in (str(limit + 1), "2 segments", f"{columns} statistics columns", "2 GB", f"-n {limit} "):
            assert number in lines[0], (number, lines[0])
    code, out, err = run_cli(["significance", "bleu", "-i", str(hyp), "-r", str(ref), "--confidence", "-n", "20"])
    assert code == 0 and "bs:20" in out, err
    with pytest.raises(KnobError):
        check_resample_memory(10 ** 9, 3000, 2)
    check_resample_memory(1000, 3000, 12)    # sacrebleu's default on a WMT-sized test set: 0.3 GB
    check_resample_memory(10000, 3000, 2)    # its AR default with TER's two columns
