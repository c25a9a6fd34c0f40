"""Reference-tool availability: fail under CI, skip locally, with a reason that says how to get it."""
from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require(module_name: str, hint: str = "") -> ModuleType:
    """Import a reference tool; missing → ``pytest.fail`` under CI=true, ``pytest.skip`` locally."""
    try:
        return importlib.import_module(module_name)
    except ImportError as exc:
        message = f"reference tool {module_name!r} is not installed ({exc}); {hint or 'run: tox -e refs'}"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
        raise  # unreachable
