"""The options ``simulate`` and ``leaves train`` share for where their self-play games run:
local worker processes (``--workers``) or a Ray cluster (``--ray``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

WorkersOption = Annotated[
    int | None,
    typer.Option(
        min=1, help="Worker processes (default: all cores); with --ray, actors (default: the cluster's CPUs)."
    ),
]
RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="Play the games on a Ray cluster: auto (the one this machine is a node of), HOST:PORT of its head, "
        "or ray://HOST:PORT (Ray Client). Needs Ray: pip install '.\\[cluster]' in literaki's checkout.",
    ),
]


def game_runner(ray: str | None, workers: int | None):
    """What plays the games: a Ray runner for ``--ray`` (connected before any work, so a missing
    Ray or cluster fails first), else the number of local worker processes."""
    if ray is None:
        return workers or os.cpu_count() or 1
    from literaki_cli.cluster import RayRunner

    runner = RayRunner(ray, workers)
    runner.connect()
    return runner


def given_on_command_line(ctx: typer.Context, name: str) -> bool:
    """Whether option ``name`` was given on the command line (not left at its default)."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name in ("COMMANDLINE", "ENVIRONMENT")


def absolute(path: Path | None) -> str | None:
    """A file setting as a run records it: absolute, so --resume finds it from any folder."""
    return str(path.resolve()) if path else None
