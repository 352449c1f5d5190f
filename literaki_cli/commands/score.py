"""``show`` and ``score``: a position drawn or converted, and the exact score of one move."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_NEGATIVE,
    EXIT_OK,
    JsonOption,
    LexiconOption,
    RulesOption,
    app,
    output_console,
)
from literaki_cli.commands.position import (
    FormatOption,
    ImageOption,
    LenientOption,
    PositionArgument,
    RackOption,
    TurnOption,
    VariantOption,
    load_position,
    print_game_turn,
    print_warnings,
)
from literaki_cli.errors import InputError
from literaki_cli.inputs import dumps_json

SHOW_EPILOG = """\b
Examples:
  literaki show board.txt                 the board, with its square colours
  literaki show game.cgp --to json        convert: text, cgp or json
  literaki show board.txt --image b.svg   draw it to an SVG or PNG file
  literaki show <(cat board.txt)          a pipe; '-' reads stdin
  literaki show game.gcg                  a game record: the position after its last turn
  literaki show game.gcg --turn 12 --to cgp    the position before turn 12, as CGP
  literaki show game.gcg --turn 12 --json      the same with the unseen tiles, for scripts
"""

SCORE_EPILOG = """\b
Examples:
  literaki score board.txt 8H ŻÓŁW       across from h8 (H8 ŻÓŁW: down)
  literaki score board.txt 8H żÓŁW -r ŻÓŁW?AB    lower case = a blank
  literaki score game.cgp 8G KOT --json
  literaki score board.txt -- -ABC?      exchange: '--' first, else -ABC?
                                         reads as an option
  literaki score board.txt -             a pass
  literaki score game.gcg --turn 12 8H KOT    on the board before turn 12, with that
                                         turn's rack
"""


@app.command("show", epilog=SHOW_EPILOG)
def show_command(
    position: PositionArgument,
    to: Annotated[str | None, typer.Option("--to", help="Write the position as text, cgp or json.")] = None,
    image: Annotated[Path | None, typer.Option("--image", help="Draw the board to FILE.svg / .png.")] = None,
    turn: TurnOption = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="The position, the unseen tiles and the bag as JSON (for scripts).")
    ] = False,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
) -> None:
    """Show a position (board with square colours, the unseen tiles), or convert it between
    formats; from a game record, the position before any turn (--turn; default: after the last)."""
    from literaki_cli.analysis.positionquery import unseen_tiles_of
    from literaki_cli.inputs import LAST
    from literaki_cli.io.positionio import position_to_json, write_position

    if to is not None and json_out:
        raise InputError("--to and --json: choose one (--to json writes the position alone)")
    opened = load_position(position, variant, rules, fmt, lenient, turn, default_turn=LAST)
    pos = opened.position
    if image is not None:
        from literaki_cli.io.render import write_board_image

        write_board_image(image, pos.board, pos.variant)
    if to is not None:
        sys.stdout.write(write_position(pos, to))
        return
    unseen = unseen_tiles_of(pos, pos.rack or None)
    if json_out:
        record = {"position": position_to_json(pos), **unseen.as_dict(),
                  "game": opened.game.as_dict() if opened.game else None}  # fmt: skip
        typer.echo(dumps_json(record, ensure_ascii=False))
        return

    from literaki_cli.io.render import board_to_rich

    console = output_console()
    console.print(board_to_rich(pos.board, pos.variant))
    print_game_turn(opened, console)
    if pos.racks:
        console.print("racks: " + " / ".join(r.upper() or "-" for r in pos.racks))
    if pos.scores:
        console.print("scores: " + " / ".join(map(str, pos.scores)))
    console.print(unseen.text(), markup=False, highlight=False)


@app.command("score", epilog=SCORE_EPILOG)
def score_command(
    position: Annotated[
        str | None,
        typer.Argument(
            metavar="POSITION",
            help="Position file (board text, CGP, JSON) or game record (GCG, with --turn), '-' or a CGP string; "
            "with --batch the input: a file or "
            "'-' (stdin, the default).",
        ),
    ] = None,
    move: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="MOVE",
            help="The move: '8H ŻÓŁW' across, 'H8 ŻÓŁW' down (lower case = a blank); an exchange '-- -ABC?' "
            "(needs '--' first); '-' passes.",
        ),
    ] = None,
    rack: RackOption = None,
    turn: TurnOption = None,
    json_out: JsonOption = False,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch",
            help='One move per input line, a JSON object {"id", "position", "move", "rack"}; one JSON object per '
            "output line (docs/batch.md).",
        ),
    ] = False,
    workers: Annotated[int | None, typer.Option(min=1, help="--batch: worker processes (default: 1).")] = None,
    image: ImageOption = None,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
    lexicon: LexiconOption = None,
) -> None:
    """The exact score of a move, word by word.  Exit 1 when the move is not legal."""
    from literaki_cli.analysis.positionquery import TurnScore, checked_rack, refuse_finished, score_move
    from literaki_cli.engine.lexicon import Lexicon

    if batch:
        if turn is not None:
            raise InputError('--batch does not take --turn: each line brings its own ("turn" in a JSON line)')
        _score_batch(position, move, rack, image, workers or 1, variant, rules, fmt, lenient, lexicon)
        return
    if workers is not None:
        raise InputError("--workers: only with --batch")
    if position is None or not move:
        raise InputError("give a POSITION and a MOVE (or --batch for many)")
    opened = load_position(position, variant, rules, fmt, lenient, turn, command="score")
    refuse_finished(opened.game)
    pos = opened.position
    the_rack, warnings = checked_rack(pos, rack, lenient)
    print_warnings(warnings)
    text = " ".join(move)
    scored = score_move(pos, text, the_rack, lambda: Lexicon.open(lexicon), lenient)
    if isinstance(scored, TurnScore):
        if json_out:
            typer.echo(dumps_json(scored.as_dict(), ensure_ascii=False))
        else:
            typer.echo(f"{scored.kind}: 0 points" + ("" if scored.valid else " — " + "; ".join(scored.problems)))
        raise typer.Exit(EXIT_OK if scored.valid else EXIT_NEGATIVE)

    if image is not None:
        from literaki_cli.io.render import write_board_image

        write_board_image(image, scored.board_after, pos.variant, scored.new_squares,
                          title=f"{scored.move.text}: {scored.result.total}")  # fmt: skip
    if json_out:
        typer.echo(dumps_json(scored.as_dict(), ensure_ascii=False))
    else:
        _print_move_score(scored, pos.variant)
    raise typer.Exit(EXIT_OK if scored.valid else EXIT_NEGATIVE)


def _score_batch(source: str | None, move: list[str] | None, rack: str | None, image: Path | None, workers: int,
                 variant: str | None, rules: Path | None, fmt: str | None, lenient: bool,
                 lexicon: Path | None) -> None:  # fmt: skip
    from literaki_cli.analysis.batch import PositionReader, ScoreLines
    from literaki_cli.commands.solve import _forced_variant, open_batch_input, run_batch_command
    from literaki_cli.engine.lexicon import Lexicon

    refused = [name for name, given in (("MOVE", move), ("--rack", rack), ("--image", image)) if given]
    if refused:
        raise InputError(f"--batch does not take {', '.join(refused)}: each line brings its position, move and rack")
    forced = _forced_variant(variant, rules)
    with open_batch_input(source) as stream:
        lex = Lexicon.open(lexicon)  # before any line (and before the workers fork)
        run_batch_command(stream, ScoreLines(lambda: lex, PositionReader(forced, fmt, lenient)), workers)


def _print_move_score(scored, variant) -> None:

    from literaki_cli.io.render import board_to_rich

    result, leave = scored.result, scored.leave
    console = output_console()
    console.print(board_to_rich(scored.board_after, variant, scored.new_squares))
    for w in result.words:
        parts = []
        for ls in w.letters:
            shown = ls.letter if ls.blank else ls.letter.upper()
            if ls.new and ls.value != ls.base:
                parts.append(f"{shown} {ls.base}→{ls.value} ({ls.square})")
            elif ls.new and ls.blank:
                parts.append(f"{shown} 0 (blank)")
            else:
                parts.append(f"{shown} {ls.value}")
        mult = "".join(f" × {f} ({sq})" for sq, f in w.multipliers)
        mark = "[green]✓[/]" if w.valid else "[red]✗ not in the word list[/]"
        console.print(f"[bold]{w.word}[/] {w.coord}: " + " + ".join(parts) + f" = {w.letter_sum}{mult} = "
                      f"[bold]{w.score}[/] {mark}")  # fmt: skip
    if result.bingo:
        console.print(f"all {len(result.tiles)} tiles: +{result.bingo}")
    console.print(f"[bold]total {result.total}[/]" + (f"   leave: {leave.upper() or '-'}" if leave is not None else ""))
    if result.problems:
        console.print("[red]not legal:[/] " + "; ".join(result.problems))
