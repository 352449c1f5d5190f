"""``analyze``: a played game (GCG) reviewed turn by turn: the move played, the best move by
static equity (by the exact endgame search once the bag is empty), the equity lost; a summary
per player.  The work is :mod:`literaki_cli.review.game_review` and
:mod:`literaki_cli.review.endgame_review`; this only parses the options and prints."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_INTERRUPTED,
    JsonOption,
    LeavesOption,
    LexiconOption,
    app,
    output_console,
)
from literaki_cli.commands.simoptions import (
    DEFAULT,
    CandidatesOption,
    PliesOption,
    SeedOption,
    ThreadsOption,
    WorkersOption,
    number_text,
    refuse_without_sim,
)
from literaki_cli.errors import InputError
from literaki_cli.montecarlo.settings import SimSettings

ANALYZE_EPILOG = """\b
Examples:
  literaki analyze game.gcg                    a table per turn and a summary per player
  literaki analyze game.gcg --json             the same for scripts
  literaki analyze game.gcg --out review/      turns.parquet, turns.csv and analysis.png
  literaki analyze literki.gcg --variant literki
  literaki analyze game.gcg --leaves my.leaves --top 3
  literaki analyze game.gcg --sim 200          each turn simulated too (200 iterations)
  literaki analyze game.gcg --endgame-time 30  up to 30 s of exact endgame search per turn
  literaki analyze game.gcg --endgame-time 0   static equity for the endgame turns too
  literaki analyze game.gcg --peg-time 10      1-2 tiles in the bag: the pre-endgame search
  literaki analyze club/ --workers 2           every *.gcg of a folder, two at a time, and a
                                               summary per player over them all
  literaki analyze 'season/*.gcg' --out rep/   games, turns, players (Parquet, CSV),
                                               report.md and a chart
  literaki analyze club/ --ray auto            the games reviewed on a Ray cluster

Reads our saves (play), simulate --gcg games and other programs' GCG files.  Each turn whose
rack the file records is valued by equity = score + the value of the tiles kept (for the bag at
that moment); the best move is the best placement, or the best exchange when it is worth more
and the rules allow one.  A turn without a rack is reported as not analysable, never guessed.
--sim N also simulates each turn (as solve --sim does) with the move played among the candidates:
the best move by simulation and the equity the move played lost by simulation.  Turns played with
the bag empty in a two-player game are valued by the exact endgame search instead (solve
--endgame): values are the spread change to the end of the game, exact when the search finishes
within --endgame-time.  With --peg-time, the turns played with 1 or 2 tiles in the bag are valued
by the pre-endgame search (solve --peg): the best move by the chance to win, equity = the mean spread
change to the end, both chances to win shown.  See docs/analyze.md.
"""

GameArgument = Annotated[
    list[str],
    typer.Argument(help="The game record (GCG; '-' for standard input, or a pipe such as <(cmd)); several, a "
                   "folder (its *.gcg) or a quoted pattern ('club/*.gcg') for a summary over many games.",
                   show_default=False, metavar="GAME..."),
]


@app.command("analyze", epilog=ANALYZE_EPILOG)
def analyze_command(
    games: GameArgument,
    json_out: JsonOption = False,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write turns.parquet, turns.csv and analysis.png to this folder.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", help="Game variant (default: the file's #variant, else literaki).")
    ] = None,
    top: Annotated[int, typer.Option("--top", "-n", min=0, help="How many of each player's biggest mistakes.")] = 5,
    sim: Annotated[
        int | None, typer.Option("--sim", min=1, help="Also simulate each turn: N iterations (see solve --sim).")
    ] = None,
    candidates: CandidatesOption = DEFAULT.candidates,
    plies: PliesOption = DEFAULT.plies,
    seed: SeedOption = DEFAULT.seed,
    workers: WorkersOption = DEFAULT.workers,
    endgame_time: Annotated[
        str,
        typer.Option(
            "--endgame-time",
            metavar="SECONDS",
            help="Exact endgame search per bag-empty turn, at most about this long (0: static equity).",
        ),
    ] = "5",  # review.endgame_review.DEFAULT_ENDGAME_SECONDS (not imported here: it brings NumPy)
    peg_time: Annotated[
        str,
        typer.Option(
            "--peg-time",
            metavar="SECONDS",
            help="Pre-endgame search (solve --peg) per turn with 1 or 2 tiles in the bag, about this long "
            "(0: static equity).",
        ),
    ] = "0",
    threads: ThreadsOption = None,
    grades: Annotated[
        str,
        typer.Option("--grades", metavar="SMALL,LARGE", help="Many games: a mistake losing less equity than SMALL is "
                     "small, less than LARGE medium, else large."),
    ] = "5,15",  # review.many.DEFAULT_GRADES
    ray: Annotated[
        str | None,
        typer.Option("--ray", metavar="ADDRESS", help="Many games: review them on a Ray cluster (auto, HOST:PORT of "
                     "its head, or ray://HOST:PORT); --workers then counts its actors. Needs Ray: pip install "
                     "'.\\[cluster]' in literaki's checkout."),
    ] = None,
    leaves: LeavesOption = None,
    lexicon: LexiconOption = None,
) -> None:
    """Review a played game: each turn's move against the best by equity, the equity lost;
    several games: each reviewed, and a summary per player over them all."""
    from literaki_cli.review.many import is_many

    if is_many(games):
        _analyze_many(games, json_out, out, variant, top, sim, candidates, plies, seed, workers, endgame_time,
                      peg_time, threads, grades, leaves, lexicon, ray)  # fmt: skip
        return
    if ray is not None:
        raise InputError("--ray: only for many games (several files, a folder or a pattern)")
    game = Path(games[0])
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.io.gcg import read_gcg
    from literaki_cli.review.endgame_review import EndgameReviewer
    from literaki_cli.review.game_review import write_outputs

    seconds, peg_seconds = _search_seconds(endgame_time, peg_time, threads)
    record = read_gcg(game, variant)
    equity = Equity(open_leaves(leaves), record.variant)
    refuse_without_sim(sim is not None, "--sim N", candidates=candidates, plies=plies, seed=seed, workers=workers)
    lex = Lexicon.open(lexicon)
    settings = None
    if sim is not None:
        settings = SimSettings(sim, candidates, plies, seed, workers)
        settings.check()
    endgame = EndgameReviewer(lex, record.variant, seconds, threads=threads) if seconds > 0 else None
    pre_endgame = None
    if peg_seconds > 0:
        from literaki_cli.review.peg_review import PegReviewer

        pre_endgame = PegReviewer(lex, record.variant, peg_seconds, equity, threads=threads)
    review, stopped = _analyze(record, lex, equity, top, settings, endgame, pre_endgame)
    written = write_outputs(review, out) if out is not None else []
    if json_out:
        typer.echo(json.dumps(review.as_dict(), ensure_ascii=False, allow_nan=False))
    else:
        _print_review(review)
        for path in written:
            output_console().print(f"wrote {path}")
    if stopped:
        typer.echo(f"interrupted: {' and '.join(stopped)} (the static review is whole)", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


def _search_seconds(endgame_time: str, peg_time: str, threads: int | None) -> tuple[float, float]:
    """The seconds of --endgame-time and --peg-time; --threads only with one of the searches."""
    from literaki_cli.review.endgame_review import endgame_seconds

    seconds = endgame_seconds(endgame_time)
    peg_seconds = endgame_seconds(peg_time, "--peg-time", "pre-endgame search")
    if threads is not None and not (seconds > 0 or peg_seconds > 0):
        raise InputError("--threads: only with an endgame search (--endgame-time or --peg-time above 0)")
    return seconds, peg_seconds


def _grades(text: str) -> tuple[float, float]:
    from literaki_cli.inputs import shown
    from literaki_cli.review.many import check_grades

    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        small, large = (float(part) for part in parts)
    except ValueError:
        raise InputError(f"--grades {shown(text)}: two numbers, SMALL,LARGE (such as 5,15)") from None
    return check_grades((small, large))


def _analyze_many(arguments: list[str], json_out: bool, out: Path | None, variant: str | None, top: int,
                  sim: int | None, candidates: int, plies: int, seed: int, workers: int | None, endgame_time: str,
                  peg_time: str, threads: int | None, grades_text: str, leaves: Path | None, lexicon: Path | None,
                  ray: str | None) -> None:  # fmt: skip
    """``analyze`` over many games: each reviewed (``--workers`` at a time), then the summary."""
    from literaki_cli.commands.common import EXIT_BATCH_FAILED
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.equity.leaves import open_leaves
    from literaki_cli.review.many import ReviewSettings, game_files

    grades = _grades(grades_text)
    seconds, peg_seconds = _search_seconds(endgame_time, peg_time, threads)
    refuse_without_sim(sim is not None, "--sim N", candidates=candidates, plies=plies, seed=seed)
    if variant is not None:
        load_variant(variant)  # an unknown name is one error before any game
    files = game_files(arguments)
    open_leaves(leaves)  # checked before the lexicon is looked for
    Lexicon.open(lexicon)  # a missing lexicon is one error, not one per game
    processes = workers or 1
    settings = None
    if sim is not None:
        settings = SimSettings(sim, candidates, plies, seed, 1)  # the games share the cores, not each turn
        settings.check()
    review = ReviewSettings(str(lexicon) if lexicon else None, str(leaves) if leaves else None, variant, top,
                            settings, seconds, threads or (1 if processes > 1 else None), peg_seconds)  # fmt: skip
    cluster = None
    if ray is not None:
        from literaki_cli.commands.runoptions import game_runner

        cluster = game_runner(ray, workers)  # joined before any game: no cluster is one error first
    outcomes, interrupted = _review_many(files, review, processes, cluster)
    _report_many(outcomes, grades, json_out, out)
    failed = sum(1 for o in outcomes if o.error is not None)
    if interrupted:
        typer.echo(f"interrupted: {len(outcomes)} of {len(files)} games reviewed (their summary is above)", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)
    if failed:
        first = next(o for o in outcomes if o.error is not None)
        typer.echo(f"literaki: {failed} of {len(files)} games could not be reviewed (the first: {first.error})",
                   err=True)  # fmt: skip
        raise typer.Exit(EXIT_BATCH_FAILED)


def _review_many(files: list[str], settings, workers: int, cluster=None):
    """The outcomes of the games reviewed, in order, with a bar over the games on a terminal;
    and whether Ctrl-C stopped the review (the games finished are kept)."""
    from literaki_cli.review.many import review_games

    outcomes = []
    bar = None
    if sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=len(files), unit="game", desc="reviewing", leave=False)
    reviewing = review_games(files, settings, workers, cluster)
    try:
        for outcome in reviewing:
            outcomes.append(outcome)
            if bar is not None:
                bar.update(1)
            if outcome.interrupted:  # Ctrl-C reached a simulation or an endgame search: the run stops too
                reviewing.close()
                return sorted(outcomes, key=lambda o: o.index), True
    except KeyboardInterrupt:
        reviewing.close()
        return sorted(outcomes, key=lambda o: o.index), True
    finally:
        if bar is not None:
            bar.close()
    return sorted(outcomes, key=lambda o: o.index), False


def _report_many(outcomes, grades: tuple[float, float], json_out: bool, out: Path | None) -> None:
    from literaki_cli.review.many import game_row, season, write_season

    players = season(outcomes, grades)
    written = write_season(outcomes, players, out, grades) if out is not None else []
    if json_out:
        record = {"games": [game_row(o) | {"review": o.review} for o in outcomes],
                  "players": [p.as_dict() for p in players], "grades": list(grades)}  # fmt: skip
        typer.echo(json.dumps(record, ensure_ascii=False, allow_nan=False))
        return
    from rich.table import Table

    console = output_console()
    games = Table(title=f"{sum(1 for o in outcomes if o.review)} games reviewed")
    for name, justify in (("#", "right"), ("file", "left"), ("players", "left"), ("scores", "right"),
                          ("turns", "right"), ("analysed", "right"), ("remarks", "left")):  # fmt: skip
        games.add_column(name, justify=justify)
    for outcome in outcomes:
        row = game_row(outcome)
        games.add_row(str(row["game"]), row["file"], row["players"] or "-", row["scores"] or "-", str(row["turns"]),
                      str(row["turns_analysed"]), row["error"] or outcome.interrupted or "")  # fmt: skip
    console.print(games)
    summary = Table(title=f"per player (mistakes: small below {grades[0]:g}, medium below {grades[1]:g}, large "
                          "from there, in equity lost)")  # fmt: skip
    for name in ("player", "games", "analysed", "equity lost per turn", "95 % interval", "small", "medium", "large",
                 "bingos", "missed", "withdrawn"):  # fmt: skip
        summary.add_column(name, justify="left" if name == "player" else "right")
    for player in players:
        r = player.as_dict()
        summary.add_row(player.player, str(player.games), str(player.analysed), number_text(r["mean_equity_lost"]),
                        f"{number_text(r['mean_equity_lost_low'])} to {number_text(r['mean_equity_lost_high'])}",
                        *(str(player.mistakes[g]) for g in ("small", "medium", "large")), str(player.bingos),
                        str(player.bingos_missed), str(player.withdrawn))  # fmt: skip
    console.print(summary)
    for player in players:
        if player.best:
            console.print(f"{player.player}'s best move: {player.best['played']} ({player.best['score']} points), "
                          f"{player.best['file']} turn {player.best['turn']}", markup=False)  # fmt: skip
        if player.worst:
            console.print(f"{player.player}'s worst turn: {player.worst['played']} instead of {player.worst['best']} "
                          f"({-player.worst['equity_loss']:+.1f}), {player.worst['file']} turn "
                          f"{player.worst['turn']}", markup=False)  # fmt: skip
    for path in written:
        console.print(f"wrote {path}", markup=False)


def _analyze(record, lexicon, equity, top: int, settings: SimSettings | None, endgame, pre_endgame=None):
    """The review, with the simulation, the endgame and pre-endgame searches when asked (a bar
    per turn on a terminal once it takes a while); and what a Ctrl-C stopped."""
    from literaki_cli.review.game_review import analyze_game

    simulate = None
    if settings is not None:
        from literaki_cli.montecarlo.turns import TurnSimulator
        from literaki_cli.montecarlo.winmodel import open_win_model

        simulate = TurnSimulator(lexicon, equity, open_win_model(), settings)
    with _progress_bar(record, "simulating" if settings else "reviewing", 0 if settings else 0.5) as bar:
        if endgame is not None and bar is not None:
            endgame.on_turn = lambda position: bar.set_description("solving an endgame")
        if pre_endgame is not None and bar is not None:
            pre_endgame.on_turn = lambda position: bar.set_description("solving a pre-endgame")
        review = analyze_game(record, lexicon, equity, mistakes=top, simulate=simulate, endgame=endgame,
                              progress=bar.update if bar is not None else None, pre_endgame=pre_endgame)  # fmt: skip
    stopped = []
    if simulate is not None and simulate.interrupted:
        stopped.append("the later turns were not simulated")
    if endgame is not None and endgame.interrupted:
        stopped.append("the later endgame turns were not solved")
    if pre_endgame is not None and pre_endgame.interrupted:
        stopped.append("the later pre-endgame turns were not solved")
    return review, stopped


@contextmanager
def _progress_bar(record, what: str, delay: float):
    """A bar counting the turns on a terminal (shown after ``delay`` seconds); None elsewhere
    (tqdm is not even imported: a quick review stays quick)."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    turns = sum(1 for event in record.turns if event.is_turn)
    with tqdm(total=turns, unit="turn", desc=what, leave=False, delay=delay) as bar:
        yield bar


def _print_review(review) -> None:
    from rich.table import Table

    from literaki_cli.review.game_review import ENDGAME, PEG, SEARCHED

    console = output_console()
    game = review.game
    title = f"{game.source}: {' vs '.join(p.label for p in game.players)} ({game.variant.name})"
    table = Table(title=title)
    simulated = any(turn.best_sim is not None for turn in review.turns)
    solved = any(turn.method in SEARCHED for turn in review.turns)
    for name, justify in (("#", "right"), ("player", "left"), ("rack", "left"), ("bag", "right"),
                          *((("by", "left"),) if solved else ()),
                          ("played", "left"), ("score", "right"), ("equity", "right"), ("best", "left"),
                          ("best score", "right"), ("best equity", "right"), ("lost", "right"),
                          *((("best by simulation", "left"), ("sim equity", "right"), ("lost by sim", "right"))
                            if simulated else ()), ("remarks", "left")):  # fmt: skip
        table.add_column(name, justify=justify)
    for turn in review.turns:
        played, best = turn.played, turn.best
        marks = []
        if turn.withdrawn:
            marks.append("withdrawn")
        if turn.bingo_missed:
            marks.append("bingo missed")
        if not turn.analysable:
            marks.append("not analysable")
        elif turn.notes:
            marks.append("see notes")
        lost = number_text(turn.equity_loss)
        if turn.equity_loss:
            lost = f"[bold]{lost}[/bold]"
        table.add_row(
            str(turn.turn), turn.nick, turn.rack.upper() if turn.rack is not None else "-",
            str(turn.bag) if turn.bag is not None else "-", *((_method_text(turn),) if solved else ()),
            _move_text(played), str(played.score),
            number_text(played.equity), _move_text(best) if best else "-", str(best.score) if best else "-",
            number_text(best.equity if best else None), lost,
            *((_move_text(turn.best_sim) if turn.best_sim else "-", number_text(turn.played_sim_equity),
               number_text(turn.sim_equity_loss)) if simulated else ()), ", ".join(marks),
        )  # fmt: skip
    console.print(table)
    for note in review.notes:
        console.print(f"note: {note}", markup=False, highlight=False)
    if any(turn.method == ENDGAME for turn in review.turns):
        console.print("by endgame: the exact endgame search (bag empty); equity = the spread change to the end of the "
                      "game (~: the search stopped at --endgame-time, an estimate)", markup=False)  # fmt: skip
    if any(turn.method == PEG for turn in review.turns):
        console.print("by peg: the pre-endgame search (1-2 tiles in the bag); best = the best chance to win; "
                      "equity = the mean spread change to the end (~: not every ending solved to the end)",
                      markup=False)  # fmt: skip
    _print_notes(console, review.turns)
    summary = Table(title="per player")
    for name, justify in (("player", "left"), ("score", "right"), ("turns", "right"), ("analysed", "right"),
                          ("equity lost", "right"), ("per turn", "right"), ("bingos", "right"),
                          ("bingos missed", "right")):  # fmt: skip
        summary.add_column(name, justify=justify)
    for player in review.players:
        summary.add_row(player.nick, str(player.score), str(player.turns), str(player.analysed),
                        number_text(player.equity_lost), number_text(player.mean_equity_lost), str(player.bingos),
                        str(player.bingos_missed))  # fmt: skip
    console.print(summary)
    if review.end is not None:
        console.print(f"end of the game: {review.end.note}", markup=False, highlight=False)
    for player in review.players:
        if not player.mistakes:
            continue
        console.print(f"{player.nick}'s biggest mistakes:")
        for turn in player.mistakes:
            what = {ENDGAME: "endgame value", PEG: "pre-endgame value"}.get(turn.method, "equity")
            console.print(f"  turn {turn.turn}: {_move_text(turn.played)} ({what} {number_text(turn.played.equity)}) "
                          f"instead of {_move_text(turn.best)} ({number_text(turn.best.equity)}): "
                          f"{number_text(-turn.equity_loss, signed=True)}", markup=False)  # fmt: skip


def _print_notes(console, turns) -> None:
    """Each turn's notes; a note many turns share (no rack recorded) once, with their numbers."""
    shared: dict[str, list[int]] = {}
    for turn in turns:
        for note in turn.notes:
            shared.setdefault(note, []).append(turn.turn)
    lines = []
    for turn in turns:
        own = [note for note in turn.notes if len(shared[note]) == 1]
        if own:
            lines.append(f"  turn {turn.turn} (line {turn.line}): {'; '.join(own)}")
    for note, numbers in shared.items():
        if len(numbers) > 1:
            lines.append(f"  turns {', '.join(map(str, numbers))}: {note}")
    if lines:
        console.print("notes:")
        for line in lines:
            console.print(line, markup=False)


def _method_text(turn) -> str:
    """How the turn's best move was found: static, sim, endgame, peg (~ when not exact)."""
    if turn.method in ("endgame", "peg") and not turn.exact:
        return f"{turn.method}~"
    return turn.method or "-"


def _move_text(move) -> str:
    if move.kind == "exchange":
        return f"exchange {move.word[1:]}"
    if move.kind == "pass":
        return "pass"
    return f"{move.coord} {move.display or move.word}"
