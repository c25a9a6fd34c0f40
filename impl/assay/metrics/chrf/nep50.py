"""Row-wise arithmetic of Python code that mixes Python floats with NumPy float32 scalars (NEP 50).

sacrebleu 2.x's bootstrap scores float32 resample sums with its ordinary Python scoring code:
a count divided by a count is a NumPy float32, a constant (eps, 0.0, beta², the number of
orders) is a Python number, and under NumPy 2's NEP 50 promotion rules

- an operation between a Python number and a float32 rounds the Python number to float32 and
  is done in float32;
- an operation between two Python numbers is done in float64 (Python floats);
- an operation between two float32 values is done in float32.

:class:`Mixed` holds one such number per row: its value (a float64 array; float32 values are
exact in it) and a mask of the rows where it is a Python number. Its operators apply the rules
above, so a formula written once with ordinary operators (``(1 + b2) * p * r / (b2 * p + r)``)
computes, row by row, exactly what the tool computes, whichever of its parts are Python floats.
Plain float64 arrays need none of this: the same formula on them is float64 arithmetic.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

F32 = np.float32
Operand = Any      # Mixed, a Python number or a per-row array of Python numbers


class Mixed:
    """Per-row numbers, each a NumPy float32 (``py`` False) or a Python float (``py`` True)."""

    __slots__ = ("value", "py")

    def __init__(self, value: np.ndarray, py: np.ndarray):
        self.value = value
        self.py = py

    @classmethod
    def float32(cls, values: np.ndarray) -> "Mixed":
        """NumPy float32 numbers (e.g. one column of float32 sums)."""
        values = np.asarray(values, dtype=F32).astype(np.float64)
        return cls(values, np.zeros(values.shape, dtype=bool))

    def __add__(self, other: Operand) -> "Mixed":
        return _apply(np.add, self, other)

    def __radd__(self, other: Operand) -> "Mixed":
        return _apply(np.add, other, self)

    def __mul__(self, other: Operand) -> "Mixed":
        return _apply(np.multiply, self, other)

    def __rmul__(self, other: Operand) -> "Mixed":
        return _apply(np.multiply, other, self)

    def __truediv__(self, other: Operand) -> "Mixed":
        return _apply(np.divide, self, other)

    def __rtruediv__(self, other: Operand) -> "Mixed":
        return _apply(np.divide, other, self)

    def __gt__(self, other: Any) -> np.ndarray:
        return self.value > _parts(other)[0]

    def as_tool_array(self) -> np.ndarray:
        """The array NumPy builds from the tool's list of scores: float32 when every score is a
        float32, else float64 (a Python float among them widens them all, exactly)."""
        return self.value if self.py.any() else self.value.astype(F32)


def _parts(x: Operand) -> tuple[np.ndarray, Any]:
    """(float64 value, Python-number mask) of an operand; plain numbers and arrays are Python numbers."""
    if isinstance(x, Mixed):
        return x.value, x.py
    return np.asarray(x, dtype=np.float64), True


def _apply(op: Callable[..., np.ndarray], a: Operand, b: Operand) -> Mixed:
    av, ap = _parts(a)
    bv, bp = _parts(b)
    python = op(av, bv)                                           # two Python numbers: float64
    narrow = op(av.astype(F32), bv.astype(F32)).astype(np.float64)  # any float32 operand: float32
    py = np.logical_and(ap, bp)
    return Mixed(np.where(py, python, narrow), np.broadcast_to(py, narrow.shape))


def where(condition: np.ndarray, a: Any, b: Any) -> Any:
    """``np.where`` for plain arrays; per-row choice of value and kind when either side is :class:`Mixed`."""
    if not isinstance(a, Mixed) and not isinstance(b, Mixed):
        return np.where(condition, a, b)
    av, ap = _parts(a)
    bv, bp = _parts(b)
    return Mixed(np.where(condition, av, bv), np.where(condition, ap, bp))
