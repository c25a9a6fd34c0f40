"""The third-party recordings ship in the package and are found like the metric fixtures.

``setup.py``'s ``build_py`` copies ``fixtures/`` into the built package as ``assay/_fixtures`` (the
wheel's contents); this test runs that build step into a temporary folder and imports assay from
there, in a fresh interpreter with no ``$ASSAY_FIXTURES`` and no checkout next to it, so the only
fixtures it can find are the built package's. The recorded cases of a third-party profile must be
selected from them, with their provenance.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conformance.conftest import REPO_ROOT

PROBE = """
import json, assay
from assay.jobs.conform import recorded, suite
cases = suite.select(suite.Selection("bleu", ["hf-evaluate"]))
print(json.dumps({"assay": assay.__file__, "root": str(suite.fixtures_root()), "cases": len(cases),
                  "recorded": sum(c.family == "thirdparty" for c in cases),
                  "provenance": recorded.provenance(cases)}))
"""


def test_built_package_finds_the_recordings(tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    meta = tmp_path / "meta"         # egg_info (build_py runs it) writes here, not into the checkout
    meta.mkdir()
    build = subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(meta),
                            "build_py", "--build-lib", str(lib)], cwd=REPO_ROOT,
                           capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-2000:]
    assert (lib / "assay" / "_fixtures" / "thirdparty" / "hf-bleu.json").is_file()
    env = {k: v for k, v in os.environ.items() if k not in ("ASSAY_FIXTURES", "PYTHONPATH")}
    env.update(PYTHONPATH=str(lib), ASSAY_PURE="1")     # build_py copies no compiled twin
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout)
    assert Path(out["assay"]).is_relative_to(lib), out["assay"]
    assert Path(out["root"]) == lib / "assay" / "_fixtures"
    assert out["cases"] == out["recorded"] > 1000
    (prov,) = out["provenance"]
    assert (prov["recording"], prov["package"], prov["version"]) == ("hf-bleu", "evaluate", "0.4.6")
    assert prov["call"].startswith("evaluate.load(") and prov["cases"] == out["cases"]
