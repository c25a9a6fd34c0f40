"""The bundled sample's report, written once per test session (``assay report``: ~15 s)."""
from __future__ import annotations

from pathlib import Path

import pytest

from assay.cli.main import main


@pytest.fixture(scope="session")
def sample_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "sample"
    assert main(["report", "-o", str(out), "--no-progress"]) == 0
    return out
