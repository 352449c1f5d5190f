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
    str | None, typer.Option("--format", help="Position format: text, cgp, json (default: detect).")
]
PositionArgument = Annotated[str, typer.Argument(help="Position file (board text, CGP, JSON), '-' or a CGP string.")]
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


def load_position(position: str, variant: str | None, rules: Path | None, fmt: str | None, lenient: bool):
    """The position, its warnings printed to stderr."""
    from literaki_cli.analysis.positionquery import open_position

    pos, warnings = open_position(position, variant, rules, fmt, lenient)
    print_warnings(warnings)
    return pos


def print_warnings(warnings: list[str]) -> None:
    for warning in warnings:
        sys.stderr.write(f"literaki: warning: {warning}\n")
