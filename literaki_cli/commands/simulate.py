"""``simulate`` and ``report``: computer-vs-computer games, and the statistics report of a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    JsonOption,
    LeavesOption,
    LexiconOption,
    RulesOption,
    app,
    output_console,
)
from literaki_cli.commands.runoptions import RayOption, WorkersOption, absolute, game_runner, given_on_command_line

# The options that are settings of a run (recorded in run.json): on --resume they come from the
# record, and one stated on the command line must agree with it.
RUN_SETTINGS = ("games", "players", "seed", "variant", "game", "rules", "levels", "gcg", "lexicon", "leaves")


SIMULATE_EPILOG = """\b
Examples:
  literaki simulate --games 1000 --players trudny,normalny --seed 7 --out runs/tn --gcg
  literaki simulate --games 200 --players mistrz,trudny,normalny,latwy --workers 2
  literaki simulate --game grid5 --players trudny,latwy
  literaki simulate --resume runs/tn                  continue an interrupted run
  literaki simulate --games 100000 --players mistrz,trudny --ray auto --out runs/big
                                                      on the Ray cluster this machine is a node of
"""

REPORT_EPILOG = """\b
Examples:
  literaki report runs/tn
  literaki report runs/tn --json
"""


@app.command("simulate", epilog=SIMULATE_EPILOG)
def simulate_command(
    ctx: typer.Context,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="How many games.")] = 100,
    players: Annotated[
        str, typer.Option("--players", "-p", help="Comma-separated levels: latwy, normalny, trudny, mistrz.")
    ] = "trudny,normalny",
    seed: Annotated[int, typer.Option(help="Seed of every game's bag and choices.")] = 1,
    workers: WorkersOption = None,
    ray: RayOption = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for tables, GCG and report (new or empty).")
    ] = None,
    gcg: Annotated[bool, typer.Option("--gcg", help="Also write one GCG file per game.")] = False,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue the run in this folder, with its recorded settings.")
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Replace an earlier run in --out (deletes its tables, report and GCG).")
    ] = False,
    levels: Annotated[
        Path | None, typer.Option("--levels", help="Level parameters (TOML) instead of the built-in.")
    ] = None,
    variant: Annotated[str, typer.Option("--variant", help="Game variant.")] = "literaki",
    game: Annotated[
        str, typer.Option("--game", help="literaki (board games) or grid5 (the 5x5 letter grid).")
    ] = "literaki",
    rules: RulesOption = None,
    lexicon: LexiconOption = None,
    leaves: LeavesOption = None,
) -> None:
    """Computer-vs-computer games, with per-turn and per-game tables and a statistics report."""
    from datetime import datetime

    from tqdm import tqdm

    from literaki_cli.analysis.report import write_report
    from literaki_cli.analysis.simulate import RunConfig, check_run_config, open_run
    from literaki_cli.engine.lexicon import Lexicon, resolve_lexicon_path
    from literaki_cli.errors import InputError

    runner = game_runner(ray, workers)
    settings = {
        "games": games, "players": [p.strip() for p in players.split(",") if p.strip()], "seed": seed,
        "variant": variant, "game": game, "rules": absolute(rules), "levels": absolute(levels), "gcg": gcg,
        "leaves": absolute(leaves),
    }  # fmt: skip
    if resume is None:
        # The files the user just wrote (rules, levels, leaves) are judged before the lexicon is
        # looked for: their errors are the news, a missing default lexicon is not.
        check_run_config(RunConfig(**settings))
    settings["lexicon"] = str(resolve_lexicon_path(lexicon).resolve()) if resume is None or lexicon else None
    if resume is not None:
        if force:
            raise InputError("--force replaces a run; --resume continues one: give one of them")
        if out is not None and out.resolve() != resume.resolve():
            raise InputError("give either --out or --resume (the run continues in its own folder)")
        given = {key: settings[key] for key in RUN_SETTINGS if given_on_command_line(ctx, key)}
        run_context = open_run(resume, resume=True, given=given)
        out_dir = resume
    else:
        out_dir = out or Path(f"sim-{datetime.now():%Y%m%d-%H%M%S}")
        Lexicon.open(Path(settings["lexicon"]))  # a bad lexicon fails here, once, before the folder is made
        run_context = open_run(out_dir, RunConfig(**settings), force=force)
    with run_context as run:
        if resume is not None:
            Lexicon.open(Path(run.config.lexicon))
        elif out is None:  # a folder named here, in the current one: say which, before the games
            typer.echo(f"literaki: writing the run to {out_dir}/ in the current folder (give --out DIR to choose)",
                       err=True)  # fmt: skip
        total = run.config.games
        bar = tqdm(total=total, initial=len(run.done), unit="game", desc="simulating", disable=None, smoothing=0.05)
        result = run.play(runner, on_game=lambda _: bar.update(1))
        bar.close()
        if not result.outputs:
            hint = f"; continue with --resume {out_dir}" if result.interrupted else ""
            raise InputError(f"no game finished{hint}",
                             exit_code=EXIT_INTERRUPTED if result.interrupted else EXIT_ERROR)  # fmt: skip
        report, files = write_report(out_dir)
    _print_report(report)
    played = len(result.outputs)
    typer.echo(f"{played} games in {out_dir}/ ({', '.join(f.name for f in files)})", err=True)
    if result.interrupted:
        typer.echo(f"interrupted: {played} of {total} games kept; continue with --resume {out_dir}", err=True)
        raise typer.Exit(EXIT_INTERRUPTED)


@app.command("report", epilog=REPORT_EPILOG)
def report_command(
    folder: Annotated[Path, typer.Argument(help="A simulate output folder.")],
    json_out: JsonOption = False,
) -> None:
    """Recompute the statistics report of a simulate run (tables, Markdown, JSON, charts)."""
    from literaki_cli.analysis.report import report_json, write_report

    report, _ = write_report(folder)
    if json_out:
        typer.echo(report_json(report))
    else:
        _print_report(report)


def _print_report(report: dict, console=None) -> None:
    from rich.table import Table

    from literaki_cli.analysis.report import interval_text

    console = console or output_console()
    columns = ("player", "level", "win % (95 % CI)", "p", "mean score (95 % CI)", "bingos", "pts/turn")
    rows = []
    for p in report["players"]:
        rows.append([p["player"], p["level"], f"{100 * p['win_rate']:.1f} {interval_text(p['win_rate_ci95'], 100)}",
                     f"{p['p_value']:.2g}", f"{p['mean_score']:.1f} {interval_text(p['mean_score_ci95'])}",
                     f"{p['bingos_per_game']:.2f}", f"{p['points_per_turn']:.1f}"])  # fmt: skip
    table = Table(title=f"{report['games']} games")
    needed = len(columns) + 1  # the borders
    for i, col in enumerate(columns):
        # a column never narrower than its longest number or heading word: a cell wraps between
        # the value and its interval instead of cutting either
        longest = max(len(word) for text in (col, *(row[i] for row in rows)) for word in text.split())
        table.add_column(col, justify="left" if i < 2 else "right", min_width=longest, overflow="fold")
        needed += longest + 2  # the padding
    for row in rows:
        table.add_row(*row)
    if needed <= console.width:
        console.print(table)
    else:  # too narrow even for the numbers: one wrapped paragraph per player instead of a cut table
        console.print(f"{report['games']} games")
        for row in rows:
            cells = zip(columns[2:], row[2:], strict=True)
            console.print(f"{row[0]} ({row[1]}): " + "; ".join(f"{name} {value}" for name, value in cells))
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
