"""``check-word``: is a word allowed?  Prints one verdict per word (text or JSON Lines)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import EXIT_NEGATIVE, EXIT_OK, LexiconOption, Output, app, colour_enabled
from literaki_cli.inputs import dumps_json


@app.command(
    "check-word",
    epilog=(
        "Examples:\n"
        "  literaki check-word ŻÓŁW quiz warszawa\n"
        "  literaki check-word --file words.txt --invalid-only\n"
        "  some-command | literaki check-word - --json\n"
        '  literaki check-word --quiet "$WORD" && echo allowed\n'
        "  literaki check-word -e kot --limit 10\n"
        "  literaki check-word --since sjp-20250101.zip kotek   mark words new since an older list"
    ),
)
def check_word_command(
    words: Annotated[
        list[str] | None, typer.Argument(metavar="WORD", help="Words to check; '-' reads words from stdin.")
    ] = None,
    file: Annotated[
        Path | None, typer.Option("--file", "-f", metavar="FILE", help="Read words from a file, one per line.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object per word (JSON Lines).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing; only the exit code.")] = False,
    invalid_only: Annotated[bool, typer.Option("--invalid-only", help="Print only the invalid words.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Check against the popular subset instead.")] = False,
    extensions: Annotated[
        bool, typer.Option("--extensions", "-e", help="List the lexicon words containing each word (hooks too).")
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(min=0, metavar="N", help="With --extensions: list at most N containing words (0 = all)."),
    ] = None,
    since: Annotated[
        Path | None,
        typer.Option("--since", metavar="OLD", help="Mark valid words new since OLD (an older lexicon or SJP dump)."),
    ] = None,
    lexicon: LexiconOption = None,
) -> None:
    """Is a word allowed?  Exit 0 when all are valid, 1 when any is invalid (an empty word too), 2 on errors.

    Words come from the arguments, stdin ('-': each line is answered as soon as it arrives) and --file.
    An empty stdin or file and no other word is an error (exit 2: no word given).

    Files and stdin hold one word per line, in UTF-8 (with or without a BOM), Windows-1250 or ISO-8859-2.
    """
    from literaki_cli.analysis import wordcheck
    from literaki_cli.analysis.wordinput import lexicon_word_rules, word_batches
    from literaki_cli.engine.lexicon import Lexicon

    batches = word_batches(words or [], file, require_word=True)
    lex = Lexicon.open(lexicon)
    rules = lexicon_word_rules(lex.meta)
    word_set = lex.popular if popular else lex.words
    marker = None
    if since is not None:
        from literaki_cli.errors import InputError
        from literaki_cli.wordstudy.versions import NewSince

        if extensions:
            raise InputError("give --since or --extensions, not both")
        marker = NewSince.open(since, rules)
    out = None if quiet else Output()
    colour = out is not None and colour_enabled(out)
    finder = wordcheck.ExtensionFinder.of(word_set) if extensions and not quiet else None
    shown_limit = (limit or None) if json_out else (20 if limit is None else limit or None)
    any_invalid = False

    for batch in wordcheck.check_stream(batches, word_set, rules):
        any_invalid |= not all(v.valid for v in batch)
        if out is None:
            continue
        shown = [v for v in batch if not v.valid] if invalid_only else batch
        if marker is not None:
            new = marker.new_flags([v.normalized for v in shown], [v.valid for v in shown])
            for v, is_new in zip(shown, new, strict=True):
                if json_out:
                    out.write(dumps_json(v.as_dict() | {"new_since": is_new}, ensure_ascii=False) + "\n")
                else:
                    out.write(_verdict_line(v, colour).rstrip("\n") + (f"\t{marker.note}\n" if is_new else "\n"))
        elif finder is not None:
            found = finder.extensions([v.normalized for v in shown], shown_limit)
            for v, (_, ext) in zip(shown, found, strict=True):
                if json_out:
                    record = v.as_dict() | {"extensions": ext.as_dict()}
                    out.write(dumps_json(record, ensure_ascii=False) + "\n")
                else:
                    out.write(_verdict_line(v, colour) + _extensions_text(ext))
        elif json_out:
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


def _extensions_text(ext) -> str:
    shown = ext.containing
    more = ext.containing_count - len(shown)
    lines = [
        f"  front hooks: {' '.join(ext.front_hooks) or '-'}",
        f"  back hooks:  {' '.join(ext.back_hooks) or '-'}",
        f"  in {ext.containing_count:,} longer words: {' '.join(shown) or '-'}" + (f" … (+{more:,})" if more else ""),
    ]
    return "\n".join(lines) + "\n"
