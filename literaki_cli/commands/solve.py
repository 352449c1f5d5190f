"""``solve``: every legal move for a position and rack, best first, as a table or JSON."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from literaki_cli.commands.common import JsonOption, LexiconOption, RulesOption, app, output_console
from literaki_cli.commands.position import (
    FormatOption,
    ImageOption,
    LenientOption,
    PositionArgument,
    RackOption,
    VariantOption,
    load_position,
    print_warnings,
)

SOLVE_EPILOG = (
    "\b\nExamples:\n"
    "  literaki solve board.txt --rack ŻÓŁWIA?   the 20 best moves ('?' = blank)\n"
    "  literaki solve game.cgp                   the rack from the CGP\n"
    "  literaki solve game.cgp --json --all      every legal move, for scripts\n"
    "  literaki solve game.cgp --min-tiles 5 --word-contains RZ --at h8\n\n"
    "On an empty board that is its own mirror image, the ranked list shows each opening once "
    "(8H, not also H8); --all lists every legal placement.\n"
)


@app.command("solve", epilog=SOLVE_EPILOG)
def solve_command(
    position: PositionArgument,
    rack: RackOption = None,
    top: Annotated[int, typer.Option("--top", "-n", min=1, help="How many moves to show.")] = 20,
    show_all: Annotated[bool, typer.Option("--all", help="Show every move.")] = False,
    json_out: JsonOption = False,
    min_tiles: Annotated[int, typer.Option(min=0, help="Only moves laying at least N tiles.")] = 0,
    word_contains: Annotated[str | None, typer.Option(help="Only moves whose main word contains this.")] = None,
    at: Annotated[str | None, typer.Option("--at", help="Only moves laying a tile on this square (e.g. h8).")] = None,
    only_bingos: Annotated[bool, typer.Option(help="Only moves laying all 7 tiles.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Only popular words (the computer's vocabulary).")] = False,
    image: ImageOption = None,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
    lexicon: LexiconOption = None,
) -> None:
    """Every legal move for a position and rack, best first."""
    from literaki_cli.analysis.positionquery import checked_rack, solve_filters, solve_record, solving_rack
    from literaki_cli.analysis.solve import solve
    from literaki_cli.engine.lexicon import Lexicon

    pos = load_position(position, variant, rules, fmt, lenient)
    given_rack, warnings = checked_rack(pos, rack, lenient)
    print_warnings(warnings)
    the_rack = solving_rack(pos, given_rack)
    filters = solve_filters(pos.variant, min_tiles, word_contains, at, only_bingos)
    lex = Lexicon.open(lexicon)
    result = solve(pos.board, pos.variant, lex, the_rack, None if show_all else top, filters, popular,
                   fold_mirrors=not show_all)  # fmt: skip
    if image is not None and result.moves:
        from literaki_cli.io.render import write_board_image

        best = result.moves[0]
        write_board_image(image, pos.board.with_tiles(best.tiles), pos.variant, {(t.row, t.col) for t in best.tiles},
                          title=f"{best.coord} {best.display}: {best.score}")  # fmt: skip
    if json_out:
        typer.echo(json.dumps(solve_record(result, the_rack), ensure_ascii=False))
        return
    _print_solutions(result, the_rack, pos.variant.bingo_bonus)


def _print_solutions(result, rack: str, bingo_bonus: int) -> None:
    from rich.table import Table

    console = output_console()
    if not result.moves:
        what = "no legal move" if not result.generated else "no move passes the filters"
        console.print(f"{what} for the rack {rack.upper()}: exchange or pass remain")
        return
    table = Table(title=f"rack {rack.upper()}: {result.count:,} moves ({result.seconds * 1000:.1f} ms)")
    for name, justify in (("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"),
                          ("words", "left"), ("leave", "left")):  # fmt: skip
        table.add_column(name, justify=justify)
    for m in result.moves:
        bonus = f" +{bingo_bonus}" if m.bingo and bingo_bonus else ""
        words = ", ".join(f"{w.word} {w.score}" for w in m.words) + bonus
        table.add_row(str(m.rank), m.coord, m.display, str(m.score), words, m.leave.upper() or "-")
    console.print(table)
    if result.mirrors_folded:
        console.print("each opening is shown once, across: on this empty, symmetric board its mirror image down "
                      "(H8 for 8H) scores the same (--all lists both)")  # fmt: skip
