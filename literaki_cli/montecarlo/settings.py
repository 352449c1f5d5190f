"""How a simulation runs: the settings ``solve --sim`` and ``analyze --sim`` share, with their
defaults and checks.  A module of its own, light to import: the command line reads the defaults
before it knows whether anything will be simulated."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from literaki_cli.errors import InputError, said

#: ``--stop``: confidence level (percent) -> two-sided normal quantile.
STOP_LEVELS = {95: 1.959964, 99: 2.575829}
#: The most plies a simulation plays after a candidate.
MAX_PLIES = 10


@dataclass(frozen=True)
class SimSettings:
    """The options of a simulation (see docs/simulation.md)."""

    iterations: int = 1000
    candidates: int = 10
    plies: int = 2
    seed: int = 1
    workers: int | None = None  # None: every core
    stop: int | None = None  # 95 or 99: stop once the best is separated at that confidence

    def check(self) -> None:
        """InputError naming the first option out of its range."""
        if self.iterations < 1:
            raise InputError(said("--iterations {value}: at least 1", value=self.iterations))
        if self.candidates < 1:
            raise InputError(said("--candidates {value}: at least 1", value=self.candidates))
        if not 1 <= self.plies <= MAX_PLIES:
            raise InputError(said("--plies {value}: from 1 to {most}", value=self.plies, most=MAX_PLIES))
        if self.workers is not None and self.workers < 1:
            raise InputError(said("--workers {value}: at least 1", value=self.workers))
        if self.stop is not None and self.stop not in STOP_LEVELS:
            raise InputError(said("--stop {value}: the confidence is {levels}", value=self.stop,
                                  levels=" or ".join(map(str, STOP_LEVELS))))  # fmt: skip


#: The defaults, as the command line shows them.
DEFAULT = SimSettings()


def sim_answer(settings: SimSettings, iterations: int, candidates: list[dict] | None, *, stopped: bool = False,
               interrupted: bool = False, bag: int | None = None, seconds: float = 0.0,
               workers: int = 1) -> dict:  # fmt: skip
    """What ``solve --sim --json`` prints of a simulation (docs/simulation.md); ``candidates``
    None: not known, Ctrl-C came before they were ranked.  Here, light to import, so that
    ``solve --sim`` can answer a Ctrl-C that came while the simulation's modules loaded."""
    return {"sim": {"iterations": iterations, "plies": settings.plies, "seed": settings.seed, "stop": settings.stop,
                    "stopped": stopped, "interrupted": interrupted, "bag": bag, "seconds": round(seconds, 3),
                    "workers": workers, "candidates": candidates}}  # fmt: skip


def options_given(**values) -> list[str]:
    """The ``--options`` among ``values`` (by setting name) that differ from their defaults (an
    option that is not a setting, such as ``win_model``, defaults to None)."""
    defaults = asdict(DEFAULT)
    return [f"--{name.replace('_', '-')}" for name, value in values.items() if value != defaults.get(name)]
