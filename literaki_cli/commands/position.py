"""Options shared by the commands that read a position (``show``, ``score``, ``solve``), and
loading one with its warnings on stderr."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

VariantOption = Annotated[
    str | None, typer.Option("--variant", help="Game variant (default: the position's own, else literaki).")
]
FormatOption = Annotated[
    str | None,
    typer.Option("--format", help="Position format: text, cgp, json, or gcg for a game record (default: detect)."),
]
PositionArgument = Annotated[
    str, typer.Argument(help="Position file (board text, CGP, JSON) or game record (GCG), '-' or a CGP string.")
]
TurnOption = Annotated[
    str | None,
    typer.Option("--turn", metavar="N|last", help="A game record: the position just before turn N (numbered as "
                 "analyze numbers them), or after the last turn (last)."),
]
RackOption = Annotated[
    str | None, typer.Option("--rack", "-r", help="The mover's rack ('?' = blank); default: the position's.")
]
ImageOption = Annotated[Path | None, typer.Option("--image", help="Draw the board with the move to FILE.svg / .png.")]
LenientOption = Annotated[
    bool,
    typer.Option(
        "--lenient", help="Tile counts beyond the bag, and racks beyond the rack size, are warnings (hypothetical)."
    ),
]


def load_position(position: str, variant: str | None, rules: Path | None, fmt: str | None, lenient: bool,
                  turn: str | None = None, default_turn: str | None = None, command: str = ""):  # fmt: skip
    """The position (from a game record: before ``turn``, else ``default_turn``), its
    warnings printed to stderr; an :class:`~literaki_cli.analysis.positionquery.OpenedPosition`."""
    from literaki_cli.analysis.positionquery import open_game_position, parse_turn

    opened = open_game_position(position, variant, rules, fmt, lenient, parse_turn(turn), default_turn, command)
    print_warnings(opened.warnings)
    return opened


def print_game_turn(opened, console) -> None:
    """Where a position taken from a game record stands: the turn, who is to move, the move
    the record has them play."""
    game = opened.game
    if game is None:
        return
    if game.event is None:
        console.print(f"after turn {game.turns} of {game.turns}" + ("; the game is over" if game.over else
                      f": {game.nick} to move"))  # fmt: skip
        return
    console.print(f"turn {game.number} of {game.turns}: {game.nick} to move; the record plays {game.played} "
                  f"(line {game.event.line})", markup=False, highlight=False)  # fmt: skip


def print_warnings(warnings: list[str]) -> None:
    for warning in warnings:
        sys.stderr.write(f"literaki: warning: {warning}\n")
