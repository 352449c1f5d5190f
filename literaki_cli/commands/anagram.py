"""``anagram``: every word on a 5x5 letter grid, or every word of a rack."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import JsonOption, LexiconOption, app, output_console
from literaki_cli.inputs import dumps_json

ANAGRAM_EPILOG = """\b
Examples:
  literaki anagram kotła zerwą imion pasek ruchy   every word on the grid
  literaki anagram grid.txt --top 10 --min-len 4   a grid file (or '-')
  literaki anagram KOTŁAZERWĄIMIONPASEKRUCHY --json
  literaki anagram --letters "ŻÓŁW?"              every word of a rack
  literaki anagram --letters KOTY --popular       popular words only
"""


@app.command("anagram", epilog=ANAGRAM_EPILOG)
def anagram_command(
    grid: Annotated[
        list[str] | None, typer.Argument(help="The 25 letters of a 5x5 grid (one string, five words, a file, '-').")
    ] = None,
    letters: Annotated[
        str | None, typer.Option("--letters", help="Rack anagrams instead: every word of LETTERS (? = blank).")
    ] = None,
    top: Annotated[int | None, typer.Option("--top", "-n", min=1, help="Show the N best words (default: all).")] = None,
    min_len: Annotated[int, typer.Option("--min-len", min=1, help="Only words of at least N letters.")] = 2,
    class_values: Annotated[
        str | None, typer.Option("--class-values", help="Premium per letter class, e.g. 1,2,3,4,5 (the default).")
    ] = None,
    popular: Annotated[bool, typer.Option("--popular", help="Only popular words.")] = False,
    json_out: JsonOption = False,
    rules: Annotated[Path | None, typer.Option("--rules", help="Grid game rules (TOML).")] = None,
    lexicon: LexiconOption = None,
) -> None:
    """Every word on a 5x5 letter grid with its best path and score, or every word of a rack."""
    from literaki_cli.analysis.anagram import grid_query, rack_answer, rack_letters
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.errors import InputError

    if letters is not None:
        if grid:
            raise InputError("give either a GRID or --letters, not both")
        rack = rack_letters(letters)
        lex = Lexicon.open(lexicon)
        found = rack_answer(rack, lex.popular if popular else lex.words, min_len)
        if json_out:
            typer.echo(dumps_json(found.as_dict(), ensure_ascii=False))
            return
        if not found.groups:
            typer.echo(f"no word can be made from {rack.upper()}")
        for n, words in found.groups.items():
            typer.echo(f"{n} letters ({len(words)}): {' '.join(words)}")
        return
    if not grid:
        raise InputError("give a GRID (25 letters, a file or '-') or --letters")
    query = grid_query(grid, rules, class_values)
    lex = Lexicon.open(lexicon)
    answer = query.answer(lex.popular if popular else lex.words, min_len, top)
    if json_out:
        typer.echo(dumps_json(answer.as_dict(), ensure_ascii=False))
        return
    _print_grid(answer)


def _print_grid(answer) -> None:
    from rich.text import Text

    from literaki_cli.engine.coords import square_name

    console = output_console()
    cells, n, prem, words = answer.cells, answer.rules.size, answer.premiums, answer.words
    best = words[0] if words else None
    order = {cell: i for i, cell in enumerate(best.path, 1)} if best else {}
    text = Text()
    for r in range(n):
        for c in range(n):
            mark = order.get((r, c))
            text.append(f" {cells[r * n + c].upper()} ", style="bold black on #fbe7a1" if mark else "bold")
            text.append(f"{mark:<2}" if mark else "  ", style="dim")
        text.append("\n")
        if r < n - 1:
            text.append("    " + "".join(f"{int(prem[r, c]):<5}" for c in range(n - 1)) + "\n", style="cyan")
    console.print(text)
    if best:
        console.print(
            f"best: [bold]{best.word.upper()}[/] {best.score} — " + " ".join(square_name(r, c) for r, c in best.path)
        )
    console.print(f"{answer.count} words" + (f", the best {len(words)}:" if len(words) < answer.count else ":"))
    for w in words:
        console.print(f"{w.score:>4}  {w.word.upper():<16} " + " ".join(square_name(r, c) for r, c in w.path))
