"""Loading the compiled kernels from numba's on-disk cache without the compiler's set-up.

Each ``@njit(cache=True)`` kernel is compiled once per machine and afterwards loaded from the
cache.  Numba's loader first *refreshes* its CPU target: it imports and registers every
lowering and typing registry it has (arrays, sets, dicts, random generators, polynomials,
datetimes, ...), about 0.1-0.2 s per process, which only *compiling* needs: a cached kernel
is object code, linked against the runtime (NRT) alone.  :func:`install` makes the loader
initialise only the runtime; a kernel that misses the cache is compiled as before (the
compiler refreshes the target itself).  ``LITERAKI_NUMBA_FULL_LOAD=1`` turns this off.

Guarded by feature detection: on a numba whose cache loader looks different nothing changes.
"""

from __future__ import annotations

import os

_INSTALLED = False


def install() -> bool:
    """Make cached kernels load without the target refresh (once per process); True when active."""
    global _INSTALLED
    if _INSTALLED:
        return True
    if os.environ.get("LITERAKI_NUMBA_FULL_LOAD"):
        return False
    try:
        from numba.core import caching
        from numba.core.runtime import rtsys
    except ImportError:  # pragma: no cover - another numba layout
        return False
    cache = getattr(caching, "Cache", None)
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, name) for name in needed) or not hasattr(rtsys, "initialize"):
        return False  # pragma: no cover - another numba layout

    def load_overload(self, sig, target_context):
        # What numba's own load_overload does, less target_context.refresh(): the runtime
        # (NRT) is all that object code from the cache needs.
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)

    load_overload.__doc__ = cache.load_overload.__doc__
    cache.load_overload = load_overload
    _INSTALLED = True
    return True
