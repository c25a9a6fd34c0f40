"""Reference-tool availability: fail under CI, skip locally, with a reason that says how to get it."""
from __future__ import annotations

import importlib
import os
from types import ModuleType


def importable(*module_names: str) -> bool:
    """True when every named module imports (e.g. ``importable("MeCab", "ipadic")`` for ja-mecab)."""
    try:
        for name in module_names:
            importlib.import_module(name)
    except ImportError:
        return False
    return True


def in_ci() -> bool:
    """True when ``CI`` is set to anything but false/0/no/empty (CI runs with ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing(reason: str) -> None:
    """A reference tool (or other prerequisite) is missing: fail under CI, skip locally."""
    import pytest  # only tests call this; regen scripts import this module without pytest
    if in_ci():
        pytest.fail(f"{reason} (CI is set: tests that need a reference tool must not skip)", pytrace=False)
    pytest.skip(reason)


def require(module_name: str, version: str | None = None, hint: str = "run: tox -e refs") -> ModuleType:
    """Import a reference tool (checking its exact version when given), else :func:`missing`."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        missing(f"reference tool {module_name!r} is not installed ({exc}); {hint}")
        raise  # unreachable: missing() raises
    found = getattr(module, "__version__", None)
    if version is not None and found != version:
        missing(f"reference tool {module_name}=={version} is needed, found {found}; {hint}")
    return module
