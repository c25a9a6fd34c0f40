"""Shared pytest set-up for the conformance suite.

- Hypothesis profiles: ``dev`` (quick) and ``thorough`` (long, randomised). A profile is loaded
  only when ``HYPOTHESIS_PROFILE`` is set, so Hypothesis's built-in ``ci`` profile (loaded
  automatically when ``CI`` is set) is not clobbered.
- ``corpora_dir``: the real corpora in ``../shared/corpora`` (override: ``ASSAY_CORPORA``); tests
  using it are marked ``corpora`` automatically and skip cleanly when the folder is absent.
- ``require_tool``: imports a reference tool (optionally checking its version). When it is
  missing the test FAILS under ``CI`` and is skipped locally.
- ``@pytest.mark.legacy("sacrebleu1")``: a legacy test names the old tool it checks. tox's legacy
  envs set ``ASSAY_LEGACY`` (e.g. ``sacrebleu1`` or ``nltk35``); legacy tests for another tool are
  deselected there, so every legacy env runs only the tests its pinned tool can answer.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import settings

REPO_ROOT = Path(__file__).resolve().parent.parent
#: legacy ids -> (module, exact version) as pinned in tox.ini's legacy envs
LEGACY_TOOLS: dict[str, tuple[str, str]] = {"sacrebleu1": ("sacrebleu", "1.5.1"), "nltk35": ("nltk", "3.5")}

# ----------------------------------------------------------------------------- hypothesis
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=2000, deadline=None, derandomize=False)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

# ----------------------------------------------------------------------------- caches
# Test runs never write Moses outputs into the user's ~/.cache/assay (tokenizers/moses.py): one
# fresh folder per run, unless the caller chose one.
os.environ.setdefault("ASSAY_CACHE_DIR", tempfile.mkdtemp(prefix="assay-test-cache-"))

# ----------------------------------------------------------------------------- assay import
# tox installs the wheel and tests import it (impl/ is never on sys.path there). A bare
# `pytest conformance` in a checkout without an installed assay falls back to the working tree.
try:
    import assay  # noqa: F401
    ASSAY_SOURCE = "installed"
except ImportError:  # pragma: no cover - local convenience only
    sys.path.insert(0, str(REPO_ROOT / "impl"))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(REPO_ROOT / "impl"), os.environ.get("PYTHONPATH", "")) if p)
    import assay  # noqa: F401
    ASSAY_SOURCE = "working tree (not installed)"


from conformance.references.availability import in_ci  # noqa: E402
from conformance.references.availability import require as import_tool  # noqa: E402


def pytest_report_header(config: pytest.Config) -> list[str]:
    legacy = os.environ.get("ASSAY_LEGACY") or "-"
    return [f"assay {assay.__version__} from {Path(assay.__file__).parent} ({ASSAY_SOURCE}); "
            f"CI={'yes' if in_ci() else 'no'}; ASSAY_LEGACY={legacy}; hypothesis profile="
            f"{settings.get_current_profile_name()}"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    corpora = pytest.mark.corpora
    legacy_env = os.environ.get("ASSAY_LEGACY", "").strip()
    keep, drop = [], []
    for item in items:
        if "corpora_dir" in getattr(item, "fixturenames", ()) and item.get_closest_marker("corpora") is None:
            item.add_marker(corpora)
        marker = item.get_closest_marker("legacy")
        if legacy_env and marker is not None and marker.args and legacy_env not in marker.args:
            drop.append(item)
        else:
            keep.append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


# ----------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def sample_dir() -> Path:
    """The bundled sample corpus the project wrote (fixtures/sample)."""
    return REPO_ROOT / "fixtures" / "sample"


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    """``../shared/corpora`` next to the repository (or ``$ASSAY_CORPORA``); skips when absent."""
    path = Path(os.environ.get("ASSAY_CORPORA") or REPO_ROOT.parent / "shared" / "corpora")
    if not path.is_dir():
        pytest.skip(f"corpora not found at {path} (set ASSAY_CORPORA)")
    return path


@pytest.fixture(scope="session")
def require_tool() -> Callable[..., Any]:
    """``require_tool("sacrebleu", "2.6.0")`` -> the module; fails under CI / skips locally if missing."""
    return import_tool


@pytest.fixture
def legacy_tool(request: pytest.FixtureRequest) -> Any:
    """The module named by the test's ``@pytest.mark.legacy("<id>")`` marker, at its pinned version."""
    marker = request.node.get_closest_marker("legacy")
    if marker is None or not marker.args or marker.args[0] not in LEGACY_TOOLS:
        raise pytest.UsageError(f"legacy_tool needs @pytest.mark.legacy(one of {sorted(LEGACY_TOOLS)})")
    module, version = LEGACY_TOOLS[marker.args[0]]
    return import_tool(module, version)
