"""The few statistics the reports and the simulation share: 95 % intervals of a proportion
(Wilson's) and of a mean (normal approximation), and a two-sided test of a proportion.  NumPy
only, so the simulation's workers do not import Polars."""

from __future__ import annotations

import math

import numpy as np

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def p_value(successes: float, n: int, p0: float) -> float:
    """Two-sided p-value of H0: proportion = p0 (normal approximation)."""
    if n == 0:
        return 1.0
    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return math.erfc(abs(z) / math.sqrt(2))


def mean_ci(values) -> tuple[float | None, float | None, float | None]:
    """Mean of ``values`` (an array or a Polars series) and its 95 % interval; None where there
    is none (no value; one value has no spread), so the JSON says null rather than the invalid NaN."""
    values = np.asarray(values, dtype=np.float64)
    n = values.shape[0]
    if n == 0:
        return None, None, None
    mean = float(values.mean())
    if n == 1:
        return mean, None, None
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half
