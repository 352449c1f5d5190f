"""``simulate`` and ``report``: computer-vs-computer games, and the statistics report of a run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    JsonOption,
    LexiconOption,
    RulesOption,
    app,
)


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
    from dataclasses import replace
    from datetime import datetime

    from tqdm import tqdm

    from literaki_cli.analysis.simulate import RunConfig, check_run_config, run_simulation
    from literaki_cli.engine.lexicon import Lexicon, resolve_lexicon_path
    from literaki_cli.errors import InputError

    config = RunConfig(
        players=[p.strip() for p in players.split(",") if p.strip()], games=games, seed=seed, variant=variant,
        rules=str(rules) if rules else None, levels=str(levels) if levels else None, gcg=gcg, game=game,
    )  # fmt: skip
    check_run_config(config)
    if resume is not None and out is not None and resume != out:
        raise InputError("give either --out or --resume (the run continues in its own folder)")
    out_dir = resume or out or Path(f"sim-{datetime.now():%Y%m%d-%H%M%S}")
    lexicon_path = resolve_lexicon_path(lexicon)
    config = replace(config, lexicon=str(lexicon_path.resolve()))
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
