"""``solve``: every legal move for a position and rack, best first, as a table or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_INTERRUPTED,
    JsonOption,
    LeavesOption,
    LexiconOption,
    Output,
    RulesOption,
    app,
    output_console,
)
from literaki_cli.commands.position import (
    FormatOption,
    ImageOption,
    LenientOption,
    RackOption,
    TurnOption,
    VariantOption,
    load_position,
    print_game_turn,
    print_warnings,
)
from literaki_cli.commands.simoptions import (
    DEFAULT,
    CandidatesOption,
    PliesOption,
    SeedOption,
    ThreadsOption,
    interval_text,
    number_text,
    refuse_without_sim,
)
from literaki_cli.errors import InputError
from literaki_cli.inputs import dumps_json
from literaki_cli.montecarlo.settings import SimSettings, options_given

SOLVE_EPILOG = (
    "\b\nExamples:\n"
    "  literaki solve board.txt --rack ŻÓŁWIA?   the 20 best moves ('?' = blank)\n"
    "  literaki solve game.cgp                   the rack from the CGP\n"
    "  literaki solve game.cgp --json --all      every legal move, for scripts\n"
    "  literaki solve game.cgp --min-tiles 5 --word-contains RZ --at h8\n"
    "  literaki solve game.cgp --by score        highest score first, leaves ignored\n"
    "  literaki solve game.cgp --sim --iterations 500 --stop 95\n"
    "                                            simulate the 10 best two turns ahead\n"
    "  literaki solve endgame.cgp --endgame      the exact best play once the bag is empty\n"
    "  literaki solve peg.cgp --peg              1 or 2 tiles in the bag: win chance of the best moves\n"
    "  literaki solve game.gcg --turn 12         the position before turn 12 of a game record\n"
    "  literaki solve --batch positions.cgp      one CGP (or JSON) line in, one JSON line out\n"
    "  ... | literaki solve --batch --workers 2  stdin, two processes, the order kept\n\n"
    "Moves are ranked by equity = score + the value of the tiles kept (learned leave values; "
    "--leaves FILE or $LITERAKI_LEAVES for others); the best exchanges are listed among them "
    "while the bag allows one.  On an empty board that is its own mirror image, the ranked "
    "list shows each opening once (8H, not also H8); --all lists every legal placement.\n\n"
    "--sim plays the best --candidates moves (exchanges included) into --iterations random futures: "
    "the opponent's rack drawn from the unseen tiles (a rack the CGP states is kept), then --plies "
    "turns of best static replies; each candidate is valued by the spread it leads to plus the last "
    "leave, and by its chance to win (docs/simulation.md).  Every candidate sees the same futures, "
    "and a --seed gives the same answer whatever --workers is.  Ctrl-C shows the results so far.\n\n"
    "--endgame (bag empty: the opponent holds the unseen tiles, or the rack the CGP states) searches "
    "every move and pass of both players to the end of the game, with the end rules, and shows the "
    "exact value (spread change) of the best --top first moves and the principal variation "
    "(docs/endgame.md).  --depth and --time give the best answer found within the limit, marked "
    "not exact; Ctrl-C shows the last complete iteration's.\n\n"
    "--peg (1 or 2 tiles in the bag) judges the best --candidates moves and the pass over every way the "
    "unseen tiles may lie between the bag and the opponent's rack (with 2 in the bag, --splits of them "
    "sampled when there are more), each ending valued by the endgame search: the win chance and mean "
    "final spread of each, best first (docs/endgame.md, \"The pre-endgame\").  --time S: the search stops "
    "after S seconds, its endgames sharing them, with the candidates judged by then (else a fixed budget of "
    "nodes each: the same answer on every machine); Ctrl-C shows the candidates judged so far.\n"
)

#: Moves ``solve`` lists, and first moves ``--endgame`` values exactly, unless --top says otherwise.
TOP = 20
ENDGAME_TOP = 5
#: Splits ``--peg`` judges at most (sampled when there are more: with 2 tiles in the bag).
PEG_SPLITS = 12  # literaki_cli.endgame.peg.DEFAULT_SPLITS (not imported here: the command starts without it)

SimOption = Annotated[bool, typer.Option("--sim", help="Simulate the best candidates a few turns ahead.")]
SolvePositionArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="POSITION",
        help="Position file (board text, CGP, JSON) or game record (GCG, with --turn), '-' or a CGP string; with "
        "--batch the input: a file or '-' "
        "(stdin, the default).",
    ),
]
BatchOption = Annotated[
    bool,
    typer.Option(
        "--batch",
        help="One position per input line (a CGP line, or a JSON object), one JSON object per output line "
        "(docs/batch.md).",
    ),
]
SolveWorkersOption = Annotated[
    int | None,
    typer.Option(min=1, help="--sim: worker processes (default: all cores); --batch: processes (default: 1)."),
]


@app.command("solve", epilog=SOLVE_EPILOG)
def solve_command(
    position: SolvePositionArgument = None,
    rack: RackOption = None,
    turn: TurnOption = None,
    top: Annotated[
        int | None,
        typer.Option("--top", "-n", min=1, help=f"How many moves to show [default: {TOP}; --endgame: {ENDGAME_TOP}]."),
    ] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every move.")] = False,
    json_out: JsonOption = False,
    min_tiles: Annotated[int, typer.Option(min=0, help="Only moves laying at least N tiles.")] = 0,
    word_contains: Annotated[str | None, typer.Option(help="Only moves whose main word contains this.")] = None,
    at: Annotated[str | None, typer.Option("--at", help="Only moves laying a tile on this square (e.g. h8).")] = None,
    only_bingos: Annotated[bool, typer.Option(help="Only moves laying all 7 tiles.")] = False,
    popular: Annotated[bool, typer.Option("--popular", help="Only popular words (the computer's vocabulary).")] = False,
    by: Annotated[str, typer.Option("--by", help="Rank by 'equity' (score + leave value) or 'score'.")] = "equity",
    exchanges: Annotated[int, typer.Option("--exchanges", min=0, help="How many of the best exchanges to list.")] = 3,
    leaves: LeavesOption = None,
    batch: BatchOption = False,
    sim: SimOption = False,
    iterations: Annotated[int, typer.Option(min=1, help="--sim: futures to play each candidate into.")] = (
        DEFAULT.iterations
    ),
    candidates: CandidatesOption = DEFAULT.candidates,
    plies: PliesOption = DEFAULT.plies,
    seed: SeedOption = DEFAULT.seed,
    workers: SolveWorkersOption = DEFAULT.workers,
    stop: Annotated[
        int | None, typer.Option(help="--sim: stop once the best is ahead of every other at 95 or 99 % confidence.")
    ] = None,
    win_model: Annotated[
        Path | None, typer.Option("--win-model", help="--sim: win-probability model file (default: the shipped one).")
    ] = None,
    endgame: Annotated[
        bool, typer.Option("--endgame", help="Solve the endgame exactly (the bag must be empty).")
    ] = False,
    peg: Annotated[
        bool, typer.Option("--peg", help="Solve the pre-endgame (1 or 2 tiles in the bag): win chance per move.")
    ] = False,
    splits: Annotated[
        int | None,
        typer.Option("--splits", min=1, help=f"--peg: judge at most N splits of the unseen tiles (sampled when there "
                     f"are more; default {PEG_SPLITS})."),
    ] = None,
    depth: Annotated[
        int | None, typer.Option("--depth", min=1, help="--endgame: search at most this many plies (not exact).")
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--time", min=0.001, help="--endgame: stop after about this many seconds (best so far); "
                     "--peg: stop after this many seconds (the candidates judged by then)."),
    ] = None,
    threads: ThreadsOption = None,
    image: ImageOption = None,
    variant: VariantOption = None,
    rules: RulesOption = None,
    fmt: FormatOption = None,
    lenient: LenientOption = False,
    lexicon: LexiconOption = None,
) -> None:
    """Every legal move for a position and rack, best first."""
    options = dict(locals())  # every parameter, and nothing else yet
    if not sim:
        _solve(None, **options)
        return
    so_far = _SimSoFar(SimSettings(iterations, candidates, plies, seed, workers, stop), json_out)
    try:
        _solve(so_far, **options)
    except KeyboardInterrupt:  # before the simulation could answer (Typer would end the run with a silent 130)
        so_far.interrupted()


def _solve(so_far: _SimSoFar | None, position, rack, turn, top, show_all, json_out, min_tiles, word_contains, at,
           only_bingos, popular, by, exchanges, leaves, batch, sim, iterations, candidates, plies, seed, workers, stop,
           win_model, endgame, peg, splits, depth, seconds, threads, image, variant, rules, fmt, lenient,
           lexicon) -> None:  # fmt: skip
    """``solve`` with the options of :func:`solve_command`; ``so_far`` (with --sim) hears of the
    position once it is read, for an answer to a Ctrl-C that comes before the simulation's."""
    from literaki_cli.analysis.positionquery import (
        checked_rack,
        endgame_start,
        refuse_finished,
        solve_filters,
        solve_record,
        solving_rack,
    )
    from literaki_cli.analysis.solve import PositionSolver, SolveRequest, check_ranking
    from literaki_cli.engine.lexicon import Lexicon

    check_ranking(by)  # before the position and the lexicon are read
    if batch:
        refuse_in_batch(rack=rack, sim=sim, endgame=endgame, image=image, iterations=iterations,
                        candidates=candidates, plies=plies, seed=seed, stop=stop, win_model=win_model, depth=depth,
                        seconds=seconds, threads=threads, turn=turn)  # fmt: skip
    elif not peg:
        refuse_without_sim(sim, workers=workers, how="--sim or --batch")
        refuse_without_sim(sim, iterations=iterations, candidates=candidates, plies=plies, seed=seed, stop=stop,
                           win_model=win_model)  # fmt: skip
    if peg:
        _refuse_with_peg(sim=sim, endgame=endgame, batch=batch, depth=depth, iterations=iterations, plies=plies,
                         stop=stop, win_model=win_model, workers=workers)  # fmt: skip
    elif splits is not None:
        raise InputError("--splits: only with --peg")
    limits = [name for name, value in (("--depth", depth), ("--time", seconds), ("--threads", threads))
              if value is not None]  # fmt: skip
    if limits and not (endgame or peg):
        raise InputError(f"{', '.join(limits)}: only with --endgame or --peg")
    listing = (("--all", show_all), ("--by score", by != "equity"), ("--min-tiles", min_tiles),
               ("--word-contains", word_contains), ("--at", at), ("--only-bingos", only_bingos),
               ("--popular", popular), ("--image", image))  # fmt: skip
    listing_only = [name for name, given in listing if given]
    if sim and endgame:
        raise InputError("--sim and --endgame: choose one (with an empty bag, --endgame is exact)")
    if sim:
        settings = SimSettings(iterations, candidates, plies, seed, workers, stop)
        settings.check()
        if listing_only:
            raise InputError(f"--sim does not take {', '.join(listing_only)}: it simulates the best --candidates "
                             "moves by equity over the whole lexicon")  # fmt: skip
    if (endgame or peg) and listing_only:
        raise InputError(f"{'--peg' if peg else '--endgame'} does not take {', '.join(listing_only)}: it searches "
                         "the moves of both players over the whole lexicon")  # fmt: skip

    request = SolveRequest(top or TOP, show_all, by, exchanges, popular, min_tiles, word_contains, at, only_bingos)
    if batch:
        _solve_batch(position, request, workers or 1, lexicon, leaves, variant, rules, fmt, lenient)
        return
    if position is None:
        raise InputError("no POSITION: give a position file, '-' or a CGP string (or --batch for many)")
    opened = load_position(position, variant, rules, fmt, lenient, turn, command="solve")
    refuse_finished(opened.game)
    pos = opened.position
    given_rack, warnings = checked_rack(pos, rack, lenient)
    print_warnings(warnings)
    the_rack = solving_rack(pos, given_rack)
    seen = _Seen(opened, the_rack)
    if so_far is not None:
        so_far.seen = seen
    if endgame:
        racks, passes = endgame_start(pos, the_rack)
        _solve_endgame(racks, passes, Lexicon.open(lexicon), depth, seconds, top or ENDGAME_TOP, json_out, threads,
                       seen)  # fmt: skip
        return
    if peg:
        from literaki_cli.analysis.positionquery import peg_start
        from literaki_cli.endgame.peg import DEFAULT_NODES, PegSettings
        from literaki_cli.equity.leaves import open_leaves

        start = peg_start(pos, the_rack)
        settings = PegSettings(candidates=candidates, nodes=None if seconds else DEFAULT_NODES, seconds=seconds,
                               strict_time=True, splits=splits or PEG_SPLITS, seed=seed)  # fmt: skip
        _solve_peg(start, settings, open_leaves(leaves), Lexicon.open(lexicon), top or TOP, json_out, threads, seen)
        return
    solve_filters(pos.variant, min_tiles, word_contains, at, only_bingos)  # checked before the lexicon is read
    from literaki_cli.equity.leaves import open_leaves

    table = open_leaves(leaves)  # the leave file is checked before the lexicon is looked for
    if sim:
        from literaki_cli.equity.equity import Equity
        from literaki_cli.montecarlo.winmodel import open_win_model

        equity, model = Equity(table, pos.variant), open_win_model(win_model)  # also before the lexicon
        _simulate(the_rack, Lexicon.open(lexicon), equity, settings, model, json_out, seen, so_far)
        return
    solver = PositionSolver(Lexicon.open(lexicon), leaves)
    solver.equity(pos.variant)  # the leave file is read (and checked) before the moves are generated
    result = solver.solve(pos, the_rack, request)
    if image is not None and result.moves:
        from literaki_cli.io.render import write_board_image

        best = result.moves[0]
        write_board_image(image, pos.board.with_tiles(best.tiles), pos.variant, {(t.row, t.col) for t in best.tiles},
                          title=f"{best.coord} {best.display}: {best.score}")  # fmt: skip
    if json_out:
        typer.echo(dumps_json(solve_record(result, the_rack) | seen.record, ensure_ascii=False))
        return
    seen.print()
    _print_solutions(result, the_rack, pos.variant.bingo_bonus)


class _Seen:
    """What ``solve`` says of the position beside its answer: the turn of the game record it
    came from, and the tiles the player to move cannot see."""

    def __init__(self, opened, rack: str) -> None:
        from literaki_cli.analysis.positionquery import seen_record, unseen_tiles_of

        self.opened, self.rack = opened, rack
        self.unseen = unseen_tiles_of(opened.position, rack)
        self.record = seen_record(opened, rack)

    def print(self) -> None:
        console = output_console()
        print_game_turn(self.opened, console)
        console.print(self.unseen.text(), markup=False, highlight=False)


def refuse_in_batch(**given) -> None:
    """InputError naming the options ``--batch`` does not take (``given`` by parameter name,
    differing from their defaults): each line brings its own rack, and a batch only lists."""
    names = {"rack": "--rack (each line brings its rack: the CGP's, or \"rack\" in a JSON line)", "sim": "--sim",
             "endgame": "--endgame", "image": "--image", "depth": "--depth", "seconds": "--time",
             "threads": "--threads", "turn": "--turn (each line brings its own: \"turn\" in a JSON line)"}  # fmt: skip
    refused = [names[name] for name in names if given.get(name)]
    if refused:
        raise InputError(f"--batch does not take {', '.join(refused)}")
    refuse_without_sim(False, how="--sim", **{k: v for k, v in given.items() if k not in names})


def _solve_batch(source: str | None, request, workers: int, lexicon: Path | None, leaves: Path | None,
                 variant: str | None, rules: Path | None, fmt: str | None, lenient: bool) -> None:  # fmt: skip
    from literaki_cli.analysis.batch import PositionReader, SolveLines
    from literaki_cli.analysis.solve import PositionSolver
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.equity.leaves import open_leaves

    forced = _forced_variant(variant, rules)
    open_leaves(leaves)  # checked before the lexicon is looked for
    with open_batch_input(source) as stream:
        solver = PositionSolver(Lexicon.open(lexicon), leaves)
        solver.generator(forced or _default_variant(), request.popular)  # the kernels, before any line (and fork)
        solver.equity(forced or _default_variant())
        run_batch_command(stream, SolveLines(solver, request, PositionReader(forced, fmt, lenient)), workers)


def _forced_variant(variant: str | None, rules: Path | None):
    from literaki_cli.engine.variant import load_variant

    return load_variant(variant or "literaki", rules) if (variant or rules) else None


def _default_variant():
    from literaki_cli.engine.variant import load_variant

    return load_variant()


def open_batch_input(source: str | None):
    """The binary stream of a batch's input: a file, or stdin for '-' (and no argument)."""
    import contextlib

    if source is None or source == "-":
        return contextlib.nullcontext(_stdin_stream())
    path = Path(source)
    if path.is_dir():
        raise InputError(f"{source}: is a directory, not a batch file")
    try:
        return path.open("rb")
    except OSError as exc:
        raise InputError(f"{source}: cannot read: {exc.strerror}") from None


def _stdin_stream():
    """stdin for a batch, as a file object of its own on a duplicate of its descriptor: the
    workers' reader thread may still be blocked reading it when Ctrl-C ends the run, and were it
    ``sys.stdin.buffer``, the interpreter, shutting down, would wait for that lock and abort
    ("could not acquire lock for <stdin> at interpreter shutdown", exit -6 instead of 130)."""
    import os
    import sys

    try:
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    except (AttributeError, OSError, ValueError):  # no stdin, or not a real descriptor
        return sys.stdin.buffer


def run_batch_command(stream, answer, workers: int) -> None:
    """Answer every line of ``stream`` to stdout; the summary of failed lines on stderr and the
    exit code (docs/batch.md, "Exit codes")."""
    from literaki_cli.analysis.batch import BatchSummary, exit_code, read_lines, run_batch

    summary = BatchSummary()
    try:
        run_batch(read_lines(stream), answer, Output(), workers, summary)
    except KeyboardInterrupt:  # (Typer would end the run with a silent 130)
        typer.echo(f"literaki: interrupted: {summary.answered:,} lines answered", err=True)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    if summary.failed:
        first = summary.first_failure
        typer.echo(f"literaki: {summary.failed:,} of {summary.answered:,} lines failed (each has its error object; "
                   f"the first: line {first.line}: {first.error})", err=True)  # fmt: skip
    raise typer.Exit(exit_code(summary))


#: The columns of the moves table: name, justification.
SOLUTION_COLUMNS = [("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"), ("leave", "left"),
                    ("leave value", "right"), ("equity", "right"), ("words", "left")]  # fmt: skip


def _print_solutions(result, rack: str, bingo_bonus: int, terminal: bool | None = None) -> None:
    """The moves table and the lines under it: drawn by rich on a terminal (fitted to the
    window), as plain text of the same look otherwise (:mod:`literaki_cli.io.plaintable`: no
    rich to import).  ``terminal``: whether stdout is one (default: ask it)."""
    import sys

    terminal = sys.stdout.isatty() if terminal is None else terminal
    title, rows, notes = _solution_lines(result, rack, bingo_bonus)
    if not terminal:
        from literaki_cli.io.plaintable import plain_table

        text = plain_table(title, SOLUTION_COLUMNS, rows) if rows else ""
        sys.stdout.write(text + "".join(note + "\n" for note in notes))
        return
    from rich.table import Table

    console = output_console()
    if rows:
        table = Table(title=title)
        for name, justify in SOLUTION_COLUMNS:
            table.add_column(name, justify=justify)
        for row in rows:
            table.add_row(*row)
        console.print(table)
    for note in notes:
        console.print(note)


def _solution_lines(result, rack: str, bingo_bonus: int) -> tuple[str, list[list[str]], list[str]]:
    """The table's title and rows (none when there is no move), and the lines under it."""
    best_exchange = result.exchanges[0] if result.exchanges else None
    if not result.moves:
        what = "no legal move" if not result.generated else "no move passes the filters"
        rest = "exchange or pass remain" if result.exchange_allowed else "pass remains (no exchange: the bag is low)"
        notes = [f"{what} for the rack {rack.upper()}: {rest}"]
        if best_exchange:
            notes.append(f"best exchange: {_exchange_text(best_exchange)}, equity {best_exchange.equity:+.1f}")
        return "", [], notes
    order = "equity" if result.by == "equity" else "score"
    title = (f"rack {rack.upper()}: {result.count:,} moves by {order} ({result.seconds * 1000:.1f} ms, "
             f"bag {result.bag})")  # fmt: skip
    ranked = [(m.equity, 0, m) for m in result.moves]
    if result.by == "equity":  # exchanges take their place among the moves by equity
        ranked += [(e.equity, 1, e) for e in result.exchanges if e.equity > result.moves[-1].equity]
        ranked.sort(key=lambda row: (-row[0], row[1]))
        ranked = ranked[: len(result.moves)]
    rows = []
    for number, (_, is_exchange, item) in enumerate(ranked, 1):
        if is_exchange:
            rows.append([str(number), "-", f"exchange {item.tiles.upper()}", "0", item.keep.upper() or "-",
                         f"{item.equity:+.1f}", f"{item.equity:.1f}", ""])  # fmt: skip
            continue
        bonus = f" +{bingo_bonus}" if item.bingo and bingo_bonus else ""
        words = ", ".join(f"{w.word} {w.score}" for w in item.words) + bonus
        rows.append([str(number), item.coord, item.display, str(item.score), item.leave.upper() or "-",
                     f"{item.leave_value:+.1f}", f"{item.equity:.1f}", words])  # fmt: skip
    notes = []
    if best_exchange and not any(is_exchange for _, is_exchange, _ in ranked):
        notes.append(f"best exchange: {_exchange_text(best_exchange)}, equity {best_exchange.equity:.1f}")
    elif not result.exchange_allowed:
        notes.append(f"no exchange: the bag holds {result.bag} tiles")
    if result.mirrors_folded:
        notes.append("each opening is shown once, across: on this empty, symmetric board its mirror image down "
                     "(H8 for 8H) scores the same (--all lists both)")  # fmt: skip
    return title, rows, notes


def _simulate(rack: str, lexicon, equity, settings, model, json_out: bool, seen: _Seen, so_far: _SimSoFar) -> None:
    from tqdm import tqdm

    from literaki_cli.analysis.lookahead import simulate_position

    with tqdm(total=settings.iterations, unit="it", desc="simulating", disable=None, leave=False) as bar:
        result, answer = simulate_position(seen.opened, rack, lexicon, equity, model, settings, progress=bar.update)
    so_far.answered = True
    if json_out:
        typer.echo(dumps_json(answer, ensure_ascii=False))
    else:
        seen.print()
        _print_sim(result, rack)
    if result.interrupted:
        typer.echo(_sim_interrupted(result.iterations, settings.iterations, len(result.candidates), result.ranked),
                   err=True)  # fmt: skip
        raise typer.Exit(EXIT_INTERRUPTED)


#: What ``solve --sim`` says on stderr when Ctrl-C came before a round of iterations finished.
SIM_NO_ROUND = "interrupted before the first round of the simulation: no simulated results"


def _sim_interrupted(iterations: int, asked: int, candidates: int, ranked: bool) -> str:
    """The line ``solve --sim`` writes on stderr when Ctrl-C ended it."""
    if iterations:
        return f"interrupted: the results of {iterations} of {asked} iterations"
    if not ranked:
        return f"{SIM_NO_ROUND}, and no candidates: they were not ranked yet"
    return f"{SIM_NO_ROUND}; the {candidates} candidates by static equity, not simulated"


class _SimSoFar:
    """What ``solve --sim`` can answer when Ctrl-C comes before the simulation has (while the
    modules load or the position is read): the settings, and the position once read."""

    def __init__(self, settings, json_out: bool) -> None:
        self.settings, self.json_out = settings, json_out
        self.seen: _Seen | None = None
        self.answered = False  # the simulation's own answer is being printed

    def interrupted(self) -> None:
        """Print the answer so far (no candidate: none was ranked), the line on stderr, and exit 130."""
        import os

        from literaki_cli.montecarlo.settings import sim_answer

        if self.answered:  # while the simulation's own answer was printed
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED)
        seen = self.seen
        if self.json_out:
            bag = seen.record.get("bag") if seen is not None else None
            answer = sim_answer(self.settings, 0, None, interrupted=True, bag=bag,
                                workers=self.settings.workers or os.cpu_count() or 1)  # fmt: skip
            typer.echo(dumps_json(answer | (seen.record if seen is not None else {}), ensure_ascii=False))
        elif seen is not None:
            seen.print()
            output_console().print(f"rack {seen.rack.upper()}: no candidates: interrupted before they were ranked")
        typer.echo(_sim_interrupted(0, self.settings.iterations, 0, False), err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _print_sim(result, rack: str) -> None:
    from rich.table import Table

    console = output_console()
    s = result.settings
    if not result.ranked:
        console.print(f"rack {rack.upper()}: no candidates: interrupted before they were ranked")
        return
    if not result.candidates:
        console.print(f"rack {rack.upper()}: no move to simulate (pass)")
        return
    how = ("stopped: the best is ahead at " + f"{s.stop} %" if result.stopped
           else "interrupted (Ctrl-C): the results so far" if result.interrupted else "")  # fmt: skip
    simulated = result.iterations or not result.interrupted
    title = (f"rack {rack.upper()}: {len(result.candidates)} candidates, {result.iterations:,} iterations of "
             f"{s.plies} plies, seed {s.seed}, bag {result.bag} ({result.seconds:.1f} s)" + (f"; {how}" if how else "")
             if simulated else f"rack {rack.upper()}: {len(result.candidates)} candidates by static equity, bag "
             f"{result.bag}; interrupted (Ctrl-C) before the first round of the simulation")  # fmt: skip
    table = Table(title=title)
    columns = [("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"), ("leave", "left"),
               ("static", "right"), ("sim equity", "right"), ("95 % interval", "right"), ("win %", "right"),
               ("95 % interval", "right"), ("iterations", "right")]  # fmt: skip
    columns += [(f"ply {k + 1} score / bingo %", "right") for k in range(s.plies)]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for number, r in enumerate(result.candidates, 1):
        c = r.candidate
        equity, e_lo, e_hi = r.equity
        win, w_lo, w_hi = r.win_pct
        plies = [f"{p['mean_score']:.1f} / {p['bingo_pct']:.0f}" if p["mean_score"] is not None else "-"
                 for p in r.plies()]  # fmt: skip
        table.add_row(str(number), c.coord or "-", c.display if c.coord else f"exchange {c.word[1:]}", str(c.score),
                      c.leave.upper() or "-", f"{c.static_equity:.1f}", number_text(equity), interval_text(e_lo, e_hi),
                      number_text(win), interval_text(w_lo, w_hi), f"{r.iterations:,}" + (" cut" if r.cut else ""),
                      *plies)  # fmt: skip
    console.print(table)
    if not simulated:
        console.print("not simulated: interrupted before the first round (static equity order)")
    if any(r.cut for r in result.candidates):
        console.print(f"cut: stopped early, the best was ahead of it at {s.stop} % confidence (paired over the same "
                      "futures)")  # fmt: skip


def _exchange_text(exchange) -> str:
    return f"{exchange.tiles.upper()} (keeping {exchange.keep.upper() or 'nothing'})"


def _solve_endgame(racks: tuple[str, str], passes: int, lexicon, depth: int | None, seconds: float | None, keep: int,
                   json_out: bool, threads: int | None, seen: _Seen) -> None:  # fmt: skip
    from literaki_cli.analysis.lookahead import solve_endgame
    from literaki_cli.endgame.solver import TIMED_TABLE_BITS, EndgameSolver, all_cores

    solver = EndgameSolver(lexicon, seen.opened.position.variant, threads=threads or all_cores(),
                           table_bits=TIMED_TABLE_BITS)  # fmt: skip
    result, answer = solve_endgame(seen.opened, seen.rack, racks, passes, solver, depth, seconds, keep)
    _show_answer(answer, json_out, seen, lambda: _print_endgame(result, racks, passes),
                 result.interrupted and f"the best of the last complete search, {result.depth} plies deep")


def _show_answer(answer: dict, json_out: bool, seen: _Seen, print_table, interrupted: str | bool) -> None:
    """A look-ahead's answer: its JSON, or the position's lines and its table; then, when Ctrl-C
    cut it short, what the answer holds (on stderr) and the exit code."""
    if json_out:
        typer.echo(dumps_json(answer, ensure_ascii=False))
    else:
        seen.print()
        print_table()
    if interrupted:
        typer.echo(f"interrupted: {interrupted}", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _refuse_with_peg(**given) -> None:
    """InputError naming the options ``--peg`` does not take (``given`` by parameter name)."""
    names = {"sim": "--sim", "endgame": "--endgame", "batch": "--batch", "depth": "--depth"}
    refused = [names[name] for name in names if given.get(name)]
    refused += options_given(**{k: v for k, v in given.items() if k not in names})
    if refused:
        raise InputError(f"--peg does not take {', '.join(refused)}")


def _solve_peg(start, settings, leave_table, lexicon, top: int, json_out: bool, threads: int | None,
               seen: _Seen) -> None:  # fmt: skip
    from tqdm import tqdm

    from literaki_cli.analysis.lookahead import solve_peg
    from literaki_cli.endgame.peg import PreEndgameSolver
    from literaki_cli.endgame.solver import EndgameSolver, all_cores
    from literaki_cli.equity.equity import Equity

    variant = seen.opened.position.variant
    solver = PreEndgameSolver(EndgameSolver(lexicon, variant, threads=threads or all_cores()))
    with tqdm(unit="move", desc="pre-endgame", disable=None, leave=False) as bar:
        def progress(done: int, total: int) -> None:
            bar.total = total
            bar.update(done - bar.n)

        result, answer = solve_peg(seen.opened, seen.rack, start, solver, settings, Equity(leave_table, variant),
                                   progress)  # fmt: skip
    _show_answer(answer, json_out, seen, lambda: _print_peg(result, start, top, settings.seconds), result.interrupted
                 and f"the {len(result.candidates)} of {result.considered} candidates judged before it")


def _print_peg(result, start, top: int, seconds: float | None = None) -> None:
    from rich.table import Table

    console = output_console()
    how = f"all {result.splits} splits" if start.opponent_rack is None else "the opponent's rack as given"
    if result.sampled:
        how = f"{result.splits} of {result.all_splits} splits, sampled"
    console.print(f"pre-endgame: rack {start.rack.upper()} to move, {start.bag} in the bag, spread {start.spread:+d}; "
                  f"{len(result.candidates)} candidates over {how}; {result.endgames:,} endgames in "
                  f"{result.seconds:.2f} s")  # fmt: skip
    judged = f"{len(result.candidates)} of {result.considered} candidates judged within {seconds or 0:g} s (--time)"
    if result.out_of_time and not result.candidates:
        console.print(f"out of time: {judged}: give it more time")
        return
    table = Table(title="best moves (win % and mean final spread over the splits)")
    columns = (("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"), ("static", "right"),
               ("win %", "right"), ("spread", "right"), ("exact", "right"))
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for number, c in enumerate(result.candidates[:top], 1):
        m = c.move
        table.add_row(str(number), m.coord or "-", "pass" if m.is_pass else m.display, str(m.score),
                      f"{c.static_equity:.1f}", f"{100 * c.win:.1f}", f"{c.spread:+.1f}",
                      f"{c.exact}/{c.splits}")  # fmt: skip
    console.print(table)
    console.print("exact: the splits whose every ending was solved to the end, with no reply left out")
    if result.out_of_time:
        console.print(f"out of time: {judged}; the others were not reached")


def _print_endgame(result, racks: tuple[str, str], passes: int) -> None:
    from rich.table import Table

    console = output_console()
    plies = f"{result.depth} ply" if result.depth == 1 else f"{result.depth} plies"
    how = "exact" if result.exact else f"NOT exact: the best found {plies} deep"
    console.print(f"endgame: rack {racks[0].upper()} to move, opponent {racks[1].upper()}"
                  + (f", after {passes} passes in a row" if passes else "")
                  + f"; {how}; {result.nodes:,} nodes in {result.seconds:.2f} s")  # fmt: skip
    found = "" if result.exact else ", as found"
    table = Table(title=f"best first moves (value: spread change to the end of the game{found})")
    for name, justify in (("#", "right"), ("coord", "left"), ("move", "left"), ("score", "right"),
                          ("value", "right")):  # fmt: skip
        table.add_column(name, justify=justify)
    for number, move in enumerate(result.moves, 1):
        table.add_row(str(number), move.coord or "-", "pass" if move.is_pass else move.display, str(move.score),
                      f"{move.value:+d}")  # fmt: skip
    console.print(table)
    line = Table(title="principal variation (both sides' best play)")
    for name, justify in (("ply", "right"), ("player", "left"), ("coord", "left"), ("move", "left"),
                          ("score", "right"), ("spread", "right")):  # fmt: skip
        line.add_column(name, justify=justify)
    spread = 0
    for ply, move in enumerate(result.pv, 1):
        spread += move.score if move.player == 1 else -move.score
        line.add_row(str(ply), "to move" if move.player == 1 else "opponent", move.coord or "-",
                     "pass" if move.is_pass else move.display, str(move.score), f"{spread:+d}")  # fmt: skip
    console.print(line)
    first, second = result.end_points
    if result.ended_by == "out":
        who = "the player to move" if first > 0 else "the opponent"
        console.print(f"{who} goes out: {max(first, second):+d} for the tiles left on the other rack, which loses "
                      f"{min(first, second):+d}")  # fmt: skip
    elif result.ended_by == "passes":
        console.print(f"the game ends by passes: each loses the value of their own tiles ({first:+d} and {second:+d})")
    else:
        console.print("the line stops at the depth searched")
    console.print(f"spread change for the player to move: {spread + first - second:+d}")
