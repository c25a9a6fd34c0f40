"""Speed benchmarks: assay vs each reference tool side by side (``harness``), one module per family.

    python -m conformance.bench all [--quick]          # every benchmark, each in its own process
    python -m conformance.bench.bleu --help            # one benchmark

Importing the package puts the working tree's ``impl/`` on ``sys.path`` when assay is not installed.
"""
from conformance.paths import ensure_assay_importable

ensure_assay_importable()
