"""NLTK SmoothingFunction methods 4-7 (placeholder; implemented in the NLTK work)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..errors import KnobError


def nltk_methods(method: str, p: list[float], correct: list[float], total: list[float], sys_len: float,
                 config: Any, columns: Sequence[str], last: np.ndarray | None) -> list[float]:
    raise KnobError(f"smooth_method {method!r} is not implemented yet")
