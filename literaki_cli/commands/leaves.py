"""``leaves``: learn leave values from self-play (``train``) and look them up (``show``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import JsonOption, LeavesOption, LexiconOption, app, output_console
from literaki_cli.commands.runoptions import RayOption, WorkersOption, absolute, game_runner, given_on_command_line

LEAVES_EPILOG = """\b
Examples:
  literaki leaves show "ŻÓŁ?"                 the value of keeping Ż, Ó, Ł and a blank
  literaki leaves show ? ?? A AA --json
  literaki simulate --games 20000 --players mistrz,mistrz --out runs/g1
  literaki leaves train runs/g1 --out my.leaves
  literaki solve game.cgp --leaves my.leaves
"""

TRAIN_EPILOG = """\b
Examples:
  literaki simulate --games 20000 --players mistrz,mistrz --seed 1 --out runs/g1
  literaki leaves train runs/g1 --out g1.leaves
  literaki simulate --games 20000 --players mistrz,mistrz --seed 2 --leaves g1.leaves --out runs/g2
  literaki leaves train runs/g2 --out g2.leaves --min-count 5

Or self-play and training in one command (again to continue after Ctrl-C), here on a Ray cluster:
  literaki leaves train --generations 2 --games 20000 --players mistrz,mistrz --out g2.leaves --ray auto

The method and the numbers of each generation of the shipped values: docs/leaves.md.
"""

SHOW_EPILOG = """\b
Examples:
  literaki leaves show "ŻÓŁ?"
  literaki leaves show ? ?? A AA AAA --leaves g1.leaves
  literaki leaves show ĄĘ --json

Letters in any order and case; '?' is a blank.  'learned' values come from training games
(the leave was kept often enough), 'model' values from the fitted model for rarer leaves.
"""

leaves_app = typer.Typer(
    help="Leave values: what the tiles kept after a move are worth (learn them, look them up).",
    epilog=LEAVES_EPILOG,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.add_typer(leaves_app, name="leaves")


@leaves_app.command("train", epilog=TRAIN_EPILOG)
def train_command(
    ctx: typer.Context,
    out: Annotated[Path, typer.Option("--out", "-o", help="The leave file to write.")],
    runs: Annotated[
        list[Path] | None,
        typer.Argument(help="Run folders of `literaki simulate --out` (their turns tables); none with --generations."),
    ] = None,
    min_count: Annotated[
        int,
        typer.Option("--min-count", min=1, help="Store leaves kept at least this often; the model values the rest."),
    ] = 3,
    prior: Annotated[
        float | None,
        typer.Option("--prior", min=0.0, help="Shrinkage strength K (default: estimated from the data)."),
    ] = None,
    note: Annotated[str, typer.Option("--note", help="A note stored in the file (e.g. the generation).")] = "",
    generations: Annotated[
        int | None,
        typer.Option(
            "--generations", min=1, help="Self-play first: this many generations, each learning from the last."
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="--generations: games per generation.")] = 20000,
    players: Annotated[
        str, typer.Option("--players", "-p", help="--generations: the self-play levels, comma-separated.")
    ] = "mistrz,mistrz",
    seed: Annotated[int, typer.Option(help="--generations: seed of the first generation (then +1 each).")] = 1,
    work: Annotated[
        Path | None,
        typer.Option(
            "--work", help="--generations: folder for each generation's games and values (default: OUT.runs)."
        ),
    ] = None,
    leaves: Annotated[
        Path | None,
        typer.Option("--leaves", help="--generations: the values generation 1 plays with (default: the shipped ones)."),
    ] = None,
    levels: Annotated[
        Path | None, typer.Option("--levels", help="--generations: level parameters (TOML) instead of the built-in.")
    ] = None,
    lexicon: LexiconOption = None,
    workers: WorkersOption = None,
    ray: RayOption = None,
    json_out: JsonOption = False,
) -> None:
    """Learn leave values from the turns of self-play runs, or play the runs first (--generations)."""
    from dataclasses import asdict, replace

    from literaki_cli.analysis.leave_generations import GenerationPlan, check_generation_options
    from literaki_cli.analysis.simulate import check_run_config
    from literaki_cli.engine.lexicon import resolve_lexicon_path
    from literaki_cli.equity.leaves import LEAVE_FILE_EXAMPLE
    from literaki_cli.equity.train import check_training_options, run_variant, train
    from literaki_cli.errors import InputError
    from literaki_cli.inputs import dumps_json
    from literaki_cli.outputs import check_output_file

    # Every number and the output first: nothing is played, read or learned for a command that cannot finish.
    min_count, prior = check_training_options(min_count, prior, note)
    if generations is not None:
        check_generation_options(generations, games, seed, workers)
    out = check_output_file(out, "leave file", LEAVE_FILE_EXAMPLE)
    if generations is not None:
        if runs:
            raise InputError("--generations plays its own runs: give run folders or --generations, not both")
        plan = GenerationPlan(
            generations, games, [p.strip() for p in players.split(",") if p.strip()], seed,
            work or out.with_name(out.name + ".runs"), "",
            levels=absolute(levels), start_leaves=absolute(leaves), min_count=min_count, prior=prior, note=note,
        )  # fmt: skip
        check_run_config(plan.run_config(1))  # the levels and leave files before the lexicon is looked for
        plan = replace(plan, lexicon=str(resolve_lexicon_path(lexicon).resolve()))
        _train_generations(plan, game_runner(ray, workers), out, json_out)
        return
    stated = [f"--{name.replace('_', '-')}" for name in SELF_PLAY_OPTIONS if given_on_command_line(ctx, name)]
    if stated:
        raise InputError(f"{stated[0]} is for self-play: give --generations N with it, or leave it out")
    if not runs:
        raise InputError("give run folders to learn from (from `literaki simulate --out DIR`), or --generations N")
    variant = run_variant(runs)
    table, report = train(runs, variant, min_count=min_count, prior=prior, note=note)
    table.save(out)
    if json_out:
        typer.echo(dumps_json({"out": str(out), "training": asdict(report)}, ensure_ascii=False))
        return
    _print_training(report, f"{len(runs)} runs", min_count)
    _print_values(table, ["?", *variant.tile_letters], title="single tiles")
    output_console().print(f"written {out} ({out.stat().st_size:,} bytes)")


#: train's options that only self-play (--generations) uses.
SELF_PLAY_OPTIONS = ("games", "players", "seed", "work", "leaves", "levels", "lexicon", "workers", "ray")


def _train_generations(plan, runner, out: Path, json_out: bool) -> None:
    """Play and learn the generations of ``plan`` with a progress bar each, then write ``out``."""
    from dataclasses import asdict

    from tqdm import tqdm

    from literaki_cli.analysis.leave_generations import publish, train_generations
    from literaki_cli.commands.common import EXIT_INTERRUPTED
    from literaki_cli.errors import InputError
    from literaki_cli.inputs import dumps_json

    bars = []

    def on_run(generation: int, total: int, done: int):
        bar = tqdm(total=total, initial=done, unit="game", desc=f"generation {generation}", disable=None)
        bars.append(bar)
        return lambda _: bar.update(1)

    try:
        result = train_generations(plan, runner, on_run)
    finally:
        for bar in bars:
            bar.close()
    if result.interrupted:
        generation = len(result.generations) + 1
        raise InputError(
            f"interrupted: {len(result.run.outputs)} of {plan.games} games of generation {generation} kept in "
            f"{plan.run_dir(generation)}; run the same command again to continue", exit_code=EXIT_INTERRUPTED,
        )  # fmt: skip
    publish(result, out)
    if json_out:
        records = [{"generation": g.generation, "run": str(g.run), "leaves": str(g.leaves), "games_played": g.played,
                    "training": asdict(g.report) if g.report else None} for g in result.generations]  # fmt: skip
        typer.echo(dumps_json({"out": str(out), "generations": records}, ensure_ascii=False))
        return
    console = output_console()
    for g in result.generations:
        if g.report is None:
            console.print(f"generation {g.generation}: already learned ({g.leaves})")
        else:
            _print_training(g.report, f"generation {g.generation}, {g.played:,} games played", plan.min_count)
    console.print(f"written {out} (generation {result.generations[-1].generation}; every generation in {plan.work})")


def _print_training(report, source: str, min_count: int) -> None:
    output_console().print(
        f"{report.turns:,} turns of {report.games:,} games ({source}): {report.distinct_leaves:,} distinct "
        f"leaves, {report.stored_leaves:,} stored (kept >= {min_count} times), "
        f"shrinkage K = {report.prior_strength:.0f} ({report.seconds:.1f} s)"
    )


@leaves_app.command("show", epilog=SHOW_EPILOG)
def show_command(
    leaves_text: Annotated[list[str], typer.Argument(metavar="LEAVE...", help="Leaves to look up ('?' = blank).")],
    leaves: LeavesOption = None,
    json_out: JsonOption = False,
) -> None:
    """The value of keeping these tiles, from a leave file."""
    from literaki_cli.equity.leaves import leave_counts, open_leaves
    from literaki_cli.inputs import dumps_json

    table = open_leaves(leaves)
    for text in leaves_text:
        leave_counts(text)  # every leave checked before anything is printed
    if json_out:
        for text in leaves_text:
            typer.echo(dumps_json(_record(table, text), ensure_ascii=False))
        return
    _print_values(table, leaves_text, title=f"leave values ({table.source})")


def _record(table, text: str) -> dict:
    from literaki_cli.equity.leaves import counts_text, leave_counts

    return {
        "leave": counts_text(leave_counts(text)).upper(),
        "value": round(table.value(text), 3),
        "source": "learned" if table.learned(text) else ("empty" if not text.strip() else "model"),
        "model": round(table.model(text), 3),
    }


def _print_values(table, leaves: list[str], title: str) -> None:
    from rich.table import Table

    shown = Table(title=title)
    for name, justify in (("leave", "left"), ("value", "right"), ("from", "left"), ("model", "right")):
        shown.add_column(name, justify=justify)
    for text in leaves:
        r = _record(table, text)
        shown.add_row(r["leave"] or "-", f"{r['value']:+.2f}", r["source"], f"{r['model']:+.2f}")
    output_console().print(shown)
