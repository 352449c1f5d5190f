"""``check-word``: is a word allowed?  Prints one verdict per word (text or JSON Lines)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import EXIT_NEGATIVE, EXIT_OK, LexiconOption, app, colour_enabled


@app.command("check-word")
def check_word_command(
    words: Annotated[list[str] | None, typer.Argument(help="Words to check; '-' reads words from stdin.")] = None,
    file: Annotated[Path | None, typer.Option("--file", "-f", help="Read words from a file, one per line.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per word (JSON Lines).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing; only the exit code.")] = False,
    invalid_only: Annotated[bool, typer.Option("--invalid-only", help="Print only the invalid words.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Check against the popular subset instead.")] = False,
    extensions: Annotated[
        bool, typer.Option("--extensions", "-e", help="List the lexicon words containing each word (hooks too).")
    ] = False,
    limit: Annotated[
        int | None, typer.Option(min=0, help="With --extensions: list at most N containing words (0 = all).")
    ] = None,
    lexicon: LexiconOption = None,
) -> None:
    """Is a word allowed?  Exit 0 when all are valid, 1 when any is invalid, 2 on errors."""
    from literaki_cli.analysis import wordcheck
    from literaki_cli.analysis.wordinput import lexicon_word_rules, word_lines
    from literaki_cli.engine.lexicon import Lexicon

    lines = word_lines(words or [], file)
    lex = Lexicon.open(lexicon)
    rules = lexicon_word_rules(lex.meta)
    word_set = lex.popular if popular else lex.words
    out = sys.stdout
    colour = colour_enabled(out)
    any_invalid = False

    if extensions:
        verdicts = [v for batch in wordcheck.check_stream(lines, word_set, rules) for v in batch]
        found = wordcheck.find_extensions([v.normalized for v in verdicts], word_set.text())
        for v in verdicts:
            any_invalid |= not v.valid
            ext = found[v.normalized]
            if quiet:
                continue
            if json_out:
                record = v.as_dict() | {"extensions": ext.as_dict(limit or None)}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
            else:
                out.write(_verdict_line(v, colour) + _extensions_text(ext, 20 if limit is None else limit))
        raise typer.Exit(EXIT_NEGATIVE if any_invalid else EXIT_OK)

    for batch in wordcheck.check_stream(lines, word_set, rules):
        any_invalid |= not all(v.valid for v in batch)
        if quiet:
            continue
        shown = [v for v in batch if not v.valid] if invalid_only else batch
        if json_out:
            out.write("".join(v.json_line() for v in shown))
        else:
            out.write("".join(_verdict_line(v, colour) for v in shown))
        out.flush()
    raise typer.Exit(EXIT_NEGATIVE if any_invalid else EXIT_OK)


def _verdict_line(v, colour: bool) -> str:
    if v.valid:
        status = "\x1b[32mvalid\x1b[0m" if colour else "valid"
        return f"{v.word}\t{status}\n"
    status = "\x1b[31minvalid\x1b[0m" if colour else "invalid"
    return f"{v.word}\t{status}\t{v.detail}\n"


def _extensions_text(ext, limit: int) -> str:
    shown = ext.containing if not limit else ext.containing[:limit]
    more = len(ext.containing) - len(shown)
    lines = [
        f"  front hooks: {' '.join(ext.front_hooks) or '-'}",
        f"  back hooks:  {' '.join(ext.back_hooks) or '-'}",
        f"  in {len(ext.containing):,} longer words: {' '.join(shown) or '-'}" + (f" … (+{more:,})" if more else ""),
    ]
    return "\n".join(lines) + "\n"
