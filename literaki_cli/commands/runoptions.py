"""The options ``simulate`` and ``leaves train`` share for where their self-play games run:
local worker processes (``--workers``) or a Ray cluster (``--ray``)."""

from __future__ import annotations

import os
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
        "or ray://HOST:PORT (Ray Client). Needs pip install 'literaki[cluster]'.",
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
