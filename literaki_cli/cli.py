"""The ``literaki`` command: a thin Typer layer that parses arguments and prints.

Every piece of logic lives in importable modules; this file only turns arguments into calls
and results into text (for humans) or JSON (for scripts).  Exit codes (README, "Exit codes"):
0 success, 1 a negative answer (an invalid word), 2 bad usage, input or lexicon, 130 interrupted.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli import __version__
from literaki_cli.errors import LiterakiError

EXIT_OK = 0
EXIT_NEGATIVE = 1
EXIT_ERROR = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="literaki",
    help="Literaki toolkit: lexicon, word checks, scoring, solving and self-play.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LexiconOption = Annotated[
    Path | None,
    typer.Option("--lexicon", "-l", help="Lexicon file (default: $LITERAKI_LEXICON, then the user data directory)."),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def _colour_enabled(stream) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"literaki {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version_callback, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Literaki toolkit."""


# --------------------------------------------------------------------------- build-lexicon


@app.command("build-lexicon")
def build_lexicon_command(
    source: Annotated[
        Path | None,
        typer.Argument(help="SJP dump (sjp-YYYYMMDD.zip), odm.txt/zip, or a word list (plain, gzip, tar)."),
    ] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Lexicon file to write.")] = None,
    download: Annotated[bool, typer.Option("--download", help="Download the current SJP.PL games dump first.")] = False,
    url: Annotated[
        str | None, typer.Option("--url", help="Index page or zip address for --download (or $LITERAKI_SJP_URL).")
    ] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            help="Source kind, overriding detection: sjp-games, sjp-inflections, spelling-dictionary, word-list."
        ),
    ] = None,
    popular_zipf: Annotated[
        float | None, typer.Option(help="Zipf frequency a word needs to be 'popular' (default 2.5).")
    ] = None,
    variant: Annotated[str, typer.Option(help="Variant whose word rules filter the source.")] = "literaki",
    rules: Annotated[Path | None, typer.Option(help="Variant file (TOML) instead of a built-in variant.")] = None,
    json_out: JsonOption = False,
) -> None:
    """Compile a word list into a lexicon file that loads instantly."""
    from lexicon_build import build, popular
    from literaki_cli.engine import lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.errors import InputError

    if (source is None) == (not download):
        raise InputError("give a SOURCE file or --download (not both)")
    chosen_variant = load_variant(variant, rules)
    target = output or lexicon.default_lexicon_path()
    if download:
        source = _download(target.parent / "downloads", url)
    from tqdm import tqdm

    with tqdm(total=len(build.STAGES), desc="building", unit="step", disable=None, leave=False) as bar:

        def on_stage(name: str) -> None:
            bar.set_postfix_str(name)
            bar.update(1)

        report = build.build_lexicon(
            source,
            target,
            chosen_variant,
            kind=kind,
            popular_zipf=popular.DEFAULT_ZIPF_THRESHOLD if popular_zipf is None else popular_zipf,
            on_stage=on_stage,
        )
    if json_out:
        typer.echo(
            json.dumps(
                {
                    "output": str(report.output),
                    "file_size": report.file_size,
                    "seconds": report.seconds,
                    "stage_seconds": report.stage_seconds,
                    "word_count": report.kept,
                    "dropped": report.dropped,
                    "popular_count": report.popular_count,
                    "meta": report.meta,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    _print_build_report(report)


def _download(dest: Path, url: str | None) -> Path:
    from tqdm import tqdm

    from lexicon_build.download import download_dump

    bar = tqdm(unit="B", unit_scale=True, desc="downloading", disable=None, leave=False)

    def on_progress(n: int, total: int | None) -> None:
        if total and bar.total != total:
            bar.total = total
        bar.update(n)

    try:
        path = download_dump(dest, url, on_progress)
    finally:
        bar.close()
    typer.echo(f"downloaded {path}", err=True)
    return path


def _print_build_report(report) -> None:
    from rich.console import Console
    from rich.table import Table

    from literaki_cli.engine.wordrules import REASONS

    meta = report.meta
    console = Console()
    table = Table(title=f"{meta['source']['name']} ({meta['source']['kind_label']}, {meta['source']['encoding']})")
    table.add_column("words")
    table.add_column("count", justify="right")
    table.add_row("kept", f"{report.kept:,}", style="green")
    for reason, count in sorted(report.dropped.items(), key=lambda item: -item[1]):
        table.add_row(f"dropped: {REASONS[reason]}", f"{count:,}")
    table.add_row(f"popular (Zipf >= {meta['popular']['zipf_threshold']:g})", f"{report.popular_count:,}")
    console.print(table)
    console.print(
        f"wrote {report.output} ({report.file_size / 1e6:.2f} MB, {report.arcs:,} arcs) in {report.seconds:.1f} s"
    )


# --------------------------------------------------------------------------- lexicon-info


@app.command("lexicon-info")
def lexicon_info_command(lexicon: LexiconOption = None, json_out: JsonOption = False) -> None:
    """Show a lexicon file's metadata: source, word counts, build date."""
    from literaki_cli.engine.lexicon import Lexicon

    lex = Lexicon.open(lexicon)
    info = dict(lex.meta)
    info["path"] = str(lex.path)
    info["file_size"] = lex.path.stat().st_size
    if json_out:
        typer.echo(json.dumps(info, ensure_ascii=False, indent=2))
        return
    src = info["source"]
    rows = [
        ("file", f"{info['path']} ({info['file_size'] / 1e6:.2f} MB)"),
        ("source", f"{src['name']} — {src['kind_label']}"),
        ("source sha256", src["sha256"]),
        ("words", f"{info['word_count']:,} ({info['min_length']}..{info['max_length']} letters)"),
        ("popular words", f"{info['popular']['word_count']:,} (Zipf >= {info['popular']['zipf_threshold']:g})"),
        ("letters", info["alphabet"]),
        ("built", f"{info['built_at']} by literaki {info['tool_version']}"),
        (
            "per length",
            " ".join(f"{k}:{v}" for k, v in sorted(info["length_counts"].items(), key=lambda kv: int(kv[0]))),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    for key, value in rows:
        typer.echo(f"{key:<{width}}  {value}")


# --------------------------------------------------------------------------- check-word


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
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.wordrules import WordRules
    from literaki_cli.errors import InputError

    words = words or []
    if not words and file is None:
        raise InputError("give words to check, --file FILE, or '-' to read from stdin")
    lex = Lexicon.open(lexicon)
    rules_meta = lex.meta.get("rules", {})
    rules = WordRules(
        rules_meta.get("letters", lex.meta["alphabet"]),
        int(rules_meta.get("min_length", lex.meta["min_length"])),
        int(rules_meta.get("max_length", lex.meta["max_length"])),
    )
    word_set = lex.popular if popular else lex.words
    lines = _word_lines(words, file)
    out = sys.stdout
    colour = _colour_enabled(out)
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


def _word_lines(words: list[str], file: Path | None):
    """Every input line: the arguments, then stdin where '-' stands, then the file."""
    from literaki_cli.errors import InputError

    for word in words:
        if word == "-":
            stdin = sys.stdin
            if stdin is None:
                raise InputError("'-' given but there is no standard input")
            yield from stdin
        else:
            yield word
    if file is not None:
        try:
            handle = open(file, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{file}: cannot read: {exc.strerror}") from None
        with handle:
            line_no = 0
            try:
                for line in handle:
                    line_no += 1
                    yield line
            except UnicodeDecodeError:
                raise InputError(f"{file}:{line_no + 1}: not UTF-8 text") from None


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


# --------------------------------------------------------------------------- positions and score

VariantOption = Annotated[
    str | None, typer.Option("--variant", help="Game variant (default: the position's own, else literaki).")
]
RulesOption = Annotated[Path | None, typer.Option("--rules", help="Variant file (TOML) with your own rules.")]
FormatOption = Annotated[
    str | None, typer.Option("--format", help="Position format: text, cgp, json (default: detect).")
]
PositionArgument = Annotated[str, typer.Argument(help="Position file (board text, CGP, JSON), '-' or a CGP string.")]
RackOption = Annotated[
    str | None, typer.Option("--rack", "-r", help="The mover's rack ('?' = blank); default: the position's.")
]
ImageOption = Annotated[Path | None, typer.Option("--image", help="Draw the board with the move to FILE.svg / .png.")]
LenientOption = Annotated[
    bool, typer.Option("--lenient", help="Tile counts beyond the bag are warnings (hypothetical positions).")
]


def _load_position(position: str, variant: str | None, rules: Path | None, fmt: str | None, lenient: bool):
    from literaki_cli.engine.position import validate
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.io.positionio import load_position

    chosen = load_variant(variant or "literaki", rules) if (variant or rules) else None
    pos = load_position(position, chosen, fmt)
    for warning in validate(pos, lenient=lenient, source=position):
        sys.stderr.write(f"literaki: warning: {warning}\n")
    return pos


def _rack_for(pos, rack: str | None) -> str | None:
    """The mover's rack: ``--rack`` when given, else the position's own (None when unknown)."""
    from literaki_cli.engine.position import normalize_rack

    return normalize_rack(rack) if rack is not None else (pos.rack or None)


@app.command("show")
def show_command(
    position: PositionArgument,
    to: Annotated[str | None, typer.Option("--to", help="Write the position as text, cgp or json.")] = None,
    image: Annotated[Path | None, typer.Option("--image", help="Draw the board to FILE.svg / .png.")] = None,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
) -> None:
    """Show a position (board with square colours), or convert it between formats."""
    from literaki_cli.io.positionio import write_position

    pos = _load_position(position, variant, rules, fmt, lenient)
    if image is not None:
        from literaki_cli.io.render import write_board_image

        write_board_image(image, pos.board, pos.variant)
    if to is not None:
        sys.stdout.write(write_position(pos, to))
        return
    from rich.console import Console

    from literaki_cli.io.render import board_to_rich

    console = Console(highlight=False)
    console.print(board_to_rich(pos.board, pos.variant))
    if pos.racks:
        console.print("racks: " + " / ".join(r.upper() or "-" for r in pos.racks))
    if pos.scores:
        console.print("scores: " + " / ".join(map(str, pos.scores)))


@app.command("score")
def score_command(
    position: PositionArgument,
    move: Annotated[list[str], typer.Argument(help="The move: '8H ŻÓŁW' across, 'H8 ŻÓŁW' down, '-ABC', '-'.")],
    rack: RackOption = None,
    json_out: JsonOption = False,
    image: ImageOption = None,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
    lexicon: LexiconOption = None,
) -> None:
    """The exact score of a move, word by word.  Exit 1 when the move is not legal."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.move import Exchange, Pass, Placement, parse_move, rack_needs, take_from_rack
    from literaki_cli.engine.scoring import evaluate_placement

    pos = _load_position(position, variant, rules, fmt, lenient)
    the_rack = _rack_for(pos, rack)
    parsed = parse_move(" ".join(move), pos.variant)
    if not isinstance(parsed, Placement):
        problems = []
        if isinstance(parsed, Exchange) and the_rack is not None:
            _, missing = take_from_rack(parsed.tiles, the_rack)
            if missing:
                problems.append(f"the rack {the_rack.upper()} lacks {missing.upper()}")
        kind = "pass" if isinstance(parsed, Pass) else "exchange"
        if json_out:
            typer.echo(json.dumps({"move": " ".join(move), "kind": kind, "total": 0, "valid": not problems,
                                   "bingo": 0, "words": [], "problems": problems}, ensure_ascii=False))  # fmt: skip
        else:
            typer.echo(f"{kind}: 0 points" + ("" if not problems else " — " + "; ".join(problems)))
        raise typer.Exit(EXIT_NEGATIVE if problems else EXIT_OK)

    lex = Lexicon.open(lexicon)
    result = evaluate_placement(pos.board, pos.variant, parsed, the_rack, lex.words.lookup)
    after = pos.board.with_tiles(result.tiles)
    new_squares = {(t.row, t.col) for t in result.tiles}
    if image is not None:
        from literaki_cli.io.render import write_board_image

        write_board_image(image, after, pos.variant, new_squares, title=f"{parsed.text}: {result.total}")
    leave = take_from_rack(rack_needs(result.tiles), the_rack)[0] if the_rack is not None else None
    if json_out:
        report = {
            "move": parsed.text,
            "kind": "place",
            "coord": parsed.coord,
            "total": result.total,
            "valid": result.valid,
            "bingo": result.bingo,
            "tiles_placed": len(result.tiles),
            "words": [w.as_dict() for w in result.words],
            "placed": [{"row": t.row, "col": t.col, "letter": t.letter, "blank": t.blank} for t in result.tiles],
            "leave": leave.upper() if leave is not None else None,
            "problems": result.problems,
        }
        typer.echo(json.dumps(report, ensure_ascii=False))
    else:
        _print_move_score(parsed, result, after, pos.variant, new_squares, leave)
    raise typer.Exit(EXIT_OK if result.valid else EXIT_NEGATIVE)


def _print_move_score(parsed, result, board, variant, new_squares, leave) -> None:
    from rich.console import Console

    from literaki_cli.io.render import board_to_rich

    console = Console(highlight=False)
    console.print(board_to_rich(board, variant, new_squares))
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


@app.command("solve")
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
    from literaki_cli.analysis.solve import Filters, solve
    from literaki_cli.engine import alphabet
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.errors import InputError

    pos = _load_position(position, variant, rules, fmt, lenient)
    the_rack = _rack_for(pos, rack)
    if not the_rack:
        raise InputError("no rack: give --rack LETTERS (or a position with racks, such as CGP)")
    if len(the_rack) > pos.variant.rack_size:
        raise InputError(f"rack {the_rack.upper()!r} holds {len(the_rack)} tiles, at most {pos.variant.rack_size}")
    filters = Filters(min_tiles, alphabet.normalize(word_contains) if word_contains else None, at, only_bingos)
    if at:
        from literaki_cli.engine.coords import parse_square

        parse_square(at, pos.variant.board.rows, pos.variant.board.columns)
    lex = Lexicon.open(lexicon)
    result = solve(pos.board, pos.variant, lex, the_rack, None if show_all else top, filters, popular)
    if image is not None and result.moves:
        from literaki_cli.io.render import write_board_image

        best = result.moves[0]
        write_board_image(image, pos.board.with_tiles(best.tiles), pos.variant, {(t.row, t.col) for t in best.tiles},
                          title=f"{best.coord} {best.display}: {best.score}")  # fmt: skip
    if json_out:
        typer.echo(json.dumps({
            "rack": the_rack.upper(),
            "count": result.count,
            "generated": result.generated,
            "generation_ms": round(result.seconds * 1000, 3),
            "moves": [m.as_dict() for m in result.moves],
        }, ensure_ascii=False))  # fmt: skip
        return
    _print_solutions(result, the_rack)


def _print_solutions(result, rack: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    if not result.moves:
        what = "no legal move" if not result.generated else "no move passes the filters"
        console.print(f"{what} for the rack {rack.upper()}: exchange or pass remain")
        return
    table = Table(title=f"rack {rack.upper()}: {result.count:,} moves ({result.seconds * 1000:.1f} ms)")
    for name, justify in (("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"),
                          ("words", "left"), ("leave", "left")):  # fmt: skip
        table.add_column(name, justify=justify)
    for m in result.moves:
        words = ", ".join(f"{w.word} {w.score}" for w in m.words) + (" +50" if m.bingo else "")
        table.add_row(str(m.rank), m.coord, m.display, str(m.score), words, m.leave.upper() or "-")
    console.print(table)


# --------------------------------------------------------------------------- anagram


@app.command("anagram")
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
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.position import normalize_rack
    from literaki_cli.errors import InputError
    from literaki_cli.games import grid5

    if letters is not None:
        if grid:
            raise InputError("give either a GRID or --letters, not both")
        rack = normalize_rack(letters, "--letters")
        if not rack:
            raise InputError("--letters is empty")
        lex = Lexicon.open(lexicon)
        groups = grid5.rack_anagrams(rack, lex.popular if popular else lex.words)
        groups = {n: words for n, words in groups.items() if n >= min_len}
        if json_out:
            typer.echo(json.dumps({"letters": rack.upper(), "count": sum(map(len, groups.values())),
                                   "groups": [{"length": n, "words": w} for n, w in groups.items()]},
                                  ensure_ascii=False))  # fmt: skip
            return
        if not groups:
            typer.echo(f"no word can be made from {rack.upper()}")
        for n, words in groups.items():
            typer.echo(f"{n} letters ({len(words)}): {' '.join(words)}")
        return
    if not grid:
        raise InputError("give a GRID (25 letters, a file or '-') or --letters")
    text, source = _grid_text(grid)
    rules_ = grid5.load_grid_rules(rules)
    if class_values:
        try:
            rules_ = rules_.with_class_values(tuple(int(v) for v in class_values.split(",")))
        except ValueError:
            raise InputError(f"--class-values {class_values!r}: whole numbers separated by commas") from None
    cells = grid5.parse_grid(text, rules_.size, source)
    lex = Lexicon.open(lexicon)
    found = [
        w for w in grid5.find_words(cells, lex.popular if popular else lex.words, rules_) if len(w.word) >= min_len
    ]
    shown = found if top is None else found[:top]
    if json_out:
        typer.echo(json.dumps({"grid": ["".join(cells[r * rules_.size:(r + 1) * rules_.size]).upper()
                                        for r in range(rules_.size)],
                               "premiums": grid5.premiums(cells, rules_).tolist(), "count": len(found),
                               "words": [w.as_dict() for w in shown]}, ensure_ascii=False))  # fmt: skip
        return
    _print_grid(cells, rules_, shown, len(found))


def _grid_text(args: list[str]) -> tuple[str, str]:
    from literaki_cli.errors import InputError

    if args == ["-"]:
        return sys.stdin.read(), "<stdin>"
    if len(args) == 1 and Path(args[0]).is_file():
        try:
            return Path(args[0]).read_text(encoding="utf-8"), args[0]
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{args[0]}: cannot read: {exc}") from None
    return " ".join(args), "grid"


def _print_grid(cells, rules, words, total: int) -> None:
    from rich.console import Console
    from rich.text import Text

    from literaki_cli.engine.coords import square_name
    from literaki_cli.games import grid5

    console = Console(highlight=False)
    n = rules.size
    prem = grid5.premiums(cells, rules)
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
    console.print(f"{total} words" + (f", the best {len(words)}:" if len(words) < total else ":"))
    for w in words:
        console.print(f"{w.score:>4}  {w.word.upper():<16} " + " ".join(square_name(r, c) for r, c in w.path))


# --------------------------------------------------------------------------- play


@app.command("play")
def play_command(
    level: Annotated[str, typer.Option("--level", help="latwy, normalny or trudny.")] = "normalny",
    variant: Annotated[str, typer.Option("--variant", help="Game variant.")] = "literaki",
    rules: RulesOption = None,
    lang: Annotated[str, typer.Option("--lang", help="Interface language: pl or en.")] = "pl",
    load: Annotated[Path | None, typer.Option("--load", help="Resume a game saved as GCG.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the bag and the computer's choices.")] = None,
    lexicon: LexiconOption = None,
) -> None:
    """A game of Literaki against the computer in the terminal."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.play import PlaySession, Texts

    Texts(lang)  # a bad --lang fails before anything else
    session = PlaySession(load_variant(variant, rules), Lexicon.open(lexicon), level, lang, seed=seed)
    try:
        import readline  # noqa: F401  (line editing and history for input())
    except ImportError:
        pass
    if load is not None:
        session.load(load)
    session.run(loaded=load is not None)


# --------------------------------------------------------------------------- self-play


@app.command("simulate")
def simulate_command(
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 100,
    players: Annotated[
        str, typer.Option("--players", "-p", help="Comma-separated levels: latwy, normalny, trudny, mistrz.")
    ] = "trudny,normalny",
    seed: Annotated[int, typer.Option(help="Seed of every game's bag and choices.")] = 1,
    workers: Annotated[int | None, typer.Option(min=1, help="Worker processes (default: all cores).")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for tables, GCG and report.")] = None,
    gcg: Annotated[bool, typer.Option("--gcg", help="Also write one GCG file per game.")] = False,
    resume: Annotated[Path | None, typer.Option("--resume", help="Continue the run in this folder.")] = None,
    levels: Annotated[
        Path | None, typer.Option("--levels", help="Level parameters (TOML) instead of the built-in.")
    ] = None,
    variant: Annotated[str, typer.Option("--variant", help="Game variant.")] = "literaki",
    game: Annotated[
        str, typer.Option("--game", help="literaki (board games) or grid5 (the 5x5 letter grid).")
    ] = "literaki",
    rules: RulesOption = None,
    lexicon: LexiconOption = None,
) -> None:
    """Computer-vs-computer games, with per-turn and per-game tables and a statistics report."""
    from datetime import datetime

    from tqdm import tqdm

    from literaki_cli.analysis.simulate import RunConfig, run_simulation
    from literaki_cli.engine.lexicon import resolve_lexicon_path
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.errors import InputError
    from literaki_cli.games.players import load_levels

    specs = [p.strip() for p in players.split(",") if p.strip()]
    known = load_levels(levels)
    for spec in specs:
        if spec not in known:
            raise InputError(f"unknown player level {spec!r}; choose one of: {', '.join(known)}")
    if game == "grid5":
        from literaki_cli.games.grid5 import load_grid_rules

        chosen = load_grid_rules(rules)
        name = "grid5"
        if gcg:
            raise InputError("--gcg records board games; the grid game has no GCG")
    elif game == "literaki":
        chosen = load_variant(variant, rules)
        name = chosen.name
    else:
        raise InputError(f"unknown game {game!r}; choose literaki or grid5")
    if not chosen.min_players <= len(specs) <= chosen.max_players:
        raise InputError(f"{name} needs {chosen.min_players} to {chosen.max_players} players, got {len(specs)}")
    if resume is not None and out is not None and resume != out:
        raise InputError("give either --out or --resume (the run continues in its own folder)")
    out_dir = resume or out or Path(f"sim-{datetime.now():%Y%m%d-%H%M%S}")
    lexicon_path = resolve_lexicon_path(lexicon)
    config = RunConfig(
        players=specs, games=games, seed=seed, variant=variant, rules=str(rules) if rules else None,
        levels=str(levels) if levels else None, lexicon=str(lexicon_path.resolve()), gcg=gcg, game=game,
    )  # fmt: skip
    from literaki_cli.engine.lexicon import Lexicon

    Lexicon.open(lexicon_path)  # a bad lexicon fails here, once, not in every worker
    n_workers = workers or os.cpu_count() or 1
    bar = tqdm(total=games, unit="game", desc="simulating", disable=None, smoothing=0.05)
    result = run_simulation(config, n_workers, out_dir, resume=resume is not None, on_game=lambda _: bar.update(1))
    bar.update(len(result.outputs) - bar.n)
    bar.close()
    if not result.outputs:
        raise InputError("no game finished", exit_code=EXIT_INTERRUPTED if result.interrupted else EXIT_ERROR)
    from literaki_cli.analysis.report import write_report

    report, files = write_report(out_dir)
    _print_report(report)
    played = len(result.outputs)
    typer.echo(f"{played} games in {out_dir}/ ({', '.join(f.name for f in files)})", err=True)
    if result.interrupted:
        typer.echo(f"interrupted: {played} of {games} games kept; continue with --resume {out_dir}", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command("report")
def report_command(
    folder: Annotated[Path, typer.Argument(help="A simulate output folder.")],
    json_out: JsonOption = False,
) -> None:
    """Recompute the statistics report of a simulate run (tables, Markdown, JSON, charts)."""
    from literaki_cli.analysis.report import write_report

    report, _ = write_report(folder)
    if json_out:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        _print_report(report)


def _print_report(report: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    table = Table(title=f"{report['games']} games")
    for col in ("player", "level", "win % (95 % CI)", "p", "mean score (95 % CI)", "bingos", "pts/turn"):
        table.add_column(col, justify="left" if col in ("player", "level") else "right")
    for p in report["players"]:
        lo, hi = p["win_rate_ci95"]
        mlo, mhi = p["mean_score_ci95"]
        table.add_row(p["player"], p["level"], f"{100 * p['win_rate']:.1f} ({100 * lo:.1f}–{100 * hi:.1f})",
                      f"{p['p_value']:.2g}", f"{p['mean_score']:.1f} ({mlo:.1f}–{mhi:.1f})",
                      f"{p['bingos_per_game']:.2f}", f"{p['points_per_turn']:.1f}")  # fmt: skip
    console.print(table)
    fl = report["game_length_turns"]
    console.print(f"first player wins {100 * (report['first_player_win_rate'] or 0):.1f} %; "
                  f"{fl['mean']:.1f} turns per game; ended by "
                  f"{', '.join(f'{k} {v}' for k, v in sorted(report['ended_by'].items()))}")  # fmt: skip
    console.print(
        "exchanges / passes per game: "
        + ", ".join(
            f"{p['player']} {p['exchanges_per_game']:.2f} / {p['passes_per_game']:.2f}" for p in report["players"]
        )
    )
    console.print("most played: " + ", ".join(f"{w['word']} {w['count']}" for w in report["top_words"][:10]))


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; every error becomes one line on stderr and an exit code, never a traceback."""
    try:
        code = app(args=argv, prog_name="literaki", standalone_mode=False)
    except LiterakiError as exc:
        _flush_quietly()
        sys.stderr.write(f"literaki: error: {exc}\n")
        return exc.exit_code
    except typer.Exit as exc:
        _flush_quietly()
        return exc.exit_code
    except KeyboardInterrupt:
        _flush_quietly()
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except typer.Abort:
        sys.stderr.write("literaki: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:
        # A usage error of the (vendored or external) click: it knows how to show itself.
        if hasattr(exc, "show") and isinstance(getattr(exc, "exit_code", None), int):
            exc.show()
            return exc.exit_code
        if os.environ.get("LITERAKI_DEBUG"):
            raise
        _flush_quietly()
        sys.stderr.write(
            f"literaki: internal error: {type(exc).__name__}: {exc} (a bug: please report it; "
            "LITERAKI_DEBUG=1 shows the traceback)\n"
        )
        return EXIT_INTERNAL
    _flush_quietly()
    return code if isinstance(code, int) else EXIT_OK


def _flush_quietly() -> int:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    return 0


def _silence_stdout() -> None:
    # Python flushes stdout at exit; point it at devnull so a closed pipe raises nothing more.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
