"""Loading the compiled kernels from numba's on-disk cache without the compiler's set-up.

Each ``@njit(cache=True)`` kernel is compiled once per machine and afterwards loaded from the
cache.  Numba's loader first *refreshes* its CPU target: it imports and registers every
lowering and typing registry it has (arrays, sets, dicts, random generators, polynomials,
datetimes, ...), about 0.1-0.2 s per process, which only *compiling* needs: a cached kernel
is object code, linked against the runtime (NRT) alone.  :func:`install` makes the loader
initialise only the runtime; a kernel that misses the cache is compiled as before (the
compiler refreshes the target itself).

Each compiled function also carries an *environment* whose globals are its module's dict:
numba's loader imports that module to rebuild it, and for the numba helpers compiled into our
kernels (``np.zeros``, ``np.empty``, ...) that means importing ``numba.np.arrayobj`` and
``numba.np.arraymath``, another 0.05-0.1 s.  Only object-mode code ever reads those globals;
the helpers are nopython code, so their environments are rebuilt with the module's name alone
(the module is imported as usual the moment anything compiles).

``LITERAKI_NUMBA_FULL_LOAD=1`` turns both off.

Guarded by feature detection: on a numba whose cache loader looks different nothing changes.

A kernel missing from the cache (a fresh install, a new numba, ``NUMBA_CACHE_DIR`` pointed
elsewhere) is compiled, which takes from seconds to minutes the first time.  When stderr is a
terminal, :func:`install` also has numba tell us as it is about to compile one (its
``numba:compile`` event, which a kernel loaded from the cache never raises; object-mode blocks,
compiled every run in a moment, are left out), and the first such
compile prints :data:`FIRST_COMPILE_NOTICE` on stderr: one line a run, however many kernels
compile and in however many forked workers (they share one token, :func:`_watch_compiles`);
nothing when every kernel comes from the cache, nothing in a pipe or a file.
"""

from __future__ import annotations

import os
import sys

_INSTALLED = False

#: Printed on stderr (a terminal) before the first kernel of a run is compiled.
FIRST_COMPILE_NOTICE = (
    "literaki: preparing the engine for first use (compiling; this takes up to a minute or two, once)…"
)

#: Whether this process has looked at stderr (and registered the listener when it is a terminal).
_WATCHING = False


def install() -> bool:
    """Make cached kernels load without the target refresh (once per process); True when active.
    On a terminal, also announce the first compile (:data:`FIRST_COMPILE_NOTICE`)."""
    global _INSTALLED
    _watch_compiles()
    if _INSTALLED:
        return True
    if os.environ.get("LITERAKI_NUMBA_FULL_LOAD"):
        return False
    try:
        from numba.core import caching, environment
        from numba.core.runtime import rtsys
    except ImportError:  # pragma: no cover - another numba layout
        return False
    cache = getattr(caching, "Cache", None)
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if cache is None or not all(hasattr(cache, name) for name in needed) or not hasattr(rtsys, "initialize"):
        return False  # pragma: no cover - another numba layout
    _light_environments(environment)

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


def _light_environments(environment) -> None:
    """Rebuild the environments of numba's own (nopython) helpers without importing their
    modules (see the module's docstring); every other environment as numba does."""
    rebuild = getattr(environment, "_rebuild_env", None)
    if rebuild is None or not hasattr(environment, "lookup_environment") or getattr(rebuild, "light", False):
        return  # pragma: no cover - another numba layout

    def _rebuild_env(modname, consts, env_name):
        if modname in sys.modules or not str(modname).startswith("numba."):
            return rebuild(modname, consts, env_name)
        env = environment.lookup_environment(env_name)
        if env is not None:
            return env
        env = environment.Environment({"__name__": modname})  # read by object mode only
        env.consts[:] = consts
        env.env_name = env_name
        environment.Environment._memo[env_name] = env
        return env

    _rebuild_env.light = True
    environment._rebuild_env = _rebuild_env


def _watch_compiles() -> None:
    """When stderr is a terminal, print :data:`FIRST_COMPILE_NOTICE` as numba starts the first
    compile.  The right to print is one byte in a pipe made here: whoever reads it prints, this
    process or a worker forked from it (pipe reads are atomic: two workers compiling at once
    cannot both get it); everyone else reads nothing."""
    global _WATCHING
    if _WATCHING:
        return
    _WATCHING = True
    if not _on_terminal():
        return
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - another numba layout
        return
    if not hasattr(event, "Listener") or not hasattr(event, "register"):
        return  # pragma: no cover - another numba layout
    token, writer = os.pipe()
    os.write(writer, b"1")
    os.close(writer)
    os.set_blocking(token, False)

    class FirstCompile(event.Listener):
        def __init__(self) -> None:
            self.done = False

        def on_start(self, ev) -> None:
            if self.done or not _cached_kernel(ev):
                return
            self.done = True
            try:
                mine = os.read(token, 1)  # b"": another process took it (or it is gone)
                os.close(token)
            except OSError:
                return
            if mine and _on_terminal():
                try:
                    print(FIRST_COMPILE_NOTICE, file=sys.stderr, flush=True)
                except (OSError, ValueError):
                    pass

        def on_end(self, ev) -> None:
            pass

    event.register("numba:compile", FirstCompile())


def _cached_kernel(ev) -> bool:
    """Whether a ``numba:compile`` event is the compile of a kernel kept in the on-disk cache
    (``cache=True``): one that was not there.  An object-mode block (``with objmode``) is
    compiled afresh every run, in a moment, and has no cache: it is not announced."""
    data = getattr(ev, "data", None)
    dispatcher = data.get("dispatcher") if isinstance(data, dict) else None
    return getattr(getattr(dispatcher, "_cache", None), "cache_path", None) is not None


def _on_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False
