"""The report's progress bar is the one every job uses (:mod:`assay.core.progress`)."""
from __future__ import annotations

from assay.core.progress import ProgressBar

__all__ = ["ProgressBar"]
