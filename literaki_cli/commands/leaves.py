"""``leaves``: learn leave values from self-play (``train``) and look them up (``show``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from literaki_cli.commands.common import JsonOption, LeavesOption, app, output_console

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
    runs: Annotated[list[Path], typer.Argument(help="Run folders of `literaki simulate --out` (their turns tables).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="The leave file to write.")],
    min_count: Annotated[
        int,
        typer.Option("--min-count", min=1, help="Store leaves kept at least this often; the model values the rest."),
    ] = 3,
    prior: Annotated[
        float | None,
        typer.Option("--prior", min=0.0, help="Shrinkage strength K (default: estimated from the data)."),
    ] = None,
    note: Annotated[str, typer.Option("--note", help="A note stored in the file (e.g. the generation).")] = "",
    json_out: JsonOption = False,
) -> None:
    """Learn leave values from the turns of self-play runs."""
    from dataclasses import asdict

    from literaki_cli.equity.train import run_variant, train

    variant = run_variant(runs)
    table, report = train(runs, variant, min_count=min_count, prior=prior, note=note)
    table.save(out)
    if json_out:
        typer.echo(json.dumps({"out": str(out), "training": asdict(report)}, ensure_ascii=False))
        return
    console = output_console()
    console.print(
        f"{report.turns:,} turns of {report.games:,} games ({len(runs)} runs): {report.distinct_leaves:,} distinct "
        f"leaves, {report.stored_leaves:,} stored (kept >= {min_count} times), "
        f"shrinkage K = {report.prior_strength:.0f} "
        f"({report.seconds:.1f} s)"
    )
    _print_values(table, ["?", *variant.tile_letters], title="single tiles")
    console.print(f"written {out} ({out.stat().st_size:,} bytes)")


@leaves_app.command("show", epilog=SHOW_EPILOG)
def show_command(
    leaves_text: Annotated[list[str], typer.Argument(metavar="LEAVE...", help="Leaves to look up ('?' = blank).")],
    leaves: LeavesOption = None,
    json_out: JsonOption = False,
) -> None:
    """The value of keeping these tiles, from a leave file."""
    from literaki_cli.equity.leaves import leave_counts, open_leaves

    table = open_leaves(leaves)
    for text in leaves_text:
        leave_counts(text)  # every leave checked before anything is printed
    if json_out:
        for text in leaves_text:
            typer.echo(json.dumps(_record(table, text), ensure_ascii=False))
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
