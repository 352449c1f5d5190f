"""The options ``solve --sim`` and ``analyze --sim`` share, their defaults taken from
:class:`~literaki_cli.montecarlo.settings.SimSettings`, and the text both tables print."""

from __future__ import annotations

from typing import Annotated

import typer

from literaki_cli.errors import InputError
from literaki_cli.montecarlo.settings import DEFAULT, MAX_PLIES, options_given

CandidatesOption = Annotated[int, typer.Option(min=1, help="--sim: how many of the best static moves to simulate.")]
PliesOption = Annotated[int, typer.Option(min=1, max=MAX_PLIES, help="--sim: turns played after each candidate.")]
SeedOption = Annotated[int, typer.Option(help="--sim: seed of the random futures.")]
WorkersOption = Annotated[int | None, typer.Option(min=1, help="--sim: worker processes (default: all cores).")]
ThreadsOption = Annotated[
    int | None,
    typer.Option("--threads", min=1, help="Endgame search threads sharing one table (default: all cores)."),
]


def refuse_without_sim(simulating: bool, how: str = "--sim", **values) -> None:
    """InputError naming the simulation options given (``values`` by setting name, differing
    from their defaults) when nothing is simulated."""
    given = options_given(**values)
    if given and not simulating:
        raise InputError(f"{', '.join(given)}: only with {how}")


def number_text(value: float | None, signed: bool = False) -> str:
    """One decimal, "-" for a value there is none of."""
    if value is None:
        return "-"
    return f"{value:+.1f}" if signed else f"{value:.1f}"


def interval_text(lo: float | None, hi: float | None) -> str:
    """A 95 % interval; "-" until there are two iterations to measure the spread by."""
    return "-" if lo is None or hi is None else f"{lo:.1f} .. {hi:.1f}"


__all__ = ["DEFAULT", "CandidatesOption", "PliesOption", "SeedOption", "ThreadsOption", "WorkersOption",
           "refuse_without_sim",
           "number_text", "interval_text"]  # fmt: skip
