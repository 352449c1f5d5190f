"""Files the analysis reads besides the lexicon: model files chosen by option, environment
variable or the copy shipped with the package, and the tables of ``simulate`` runs."""

from __future__ import annotations

import json
import os
from pathlib import Path

from literaki_cli.errors import InputError


def chosen_file(path: Path | str | None, env_var: str, shipped: Path, what: str) -> tuple[str, float]:
    """(path, modification time) of the file to read: ``path``, else ``$env_var``, else
    ``shipped``.  InputError naming it (and the variable it came from) when it does not exist;
    the time lets a cache notice a file rewritten in place."""
    from_env = path is None and bool(os.environ.get(env_var))
    chosen = Path(path if path is not None else os.environ.get(env_var) or shipped).expanduser()
    try:
        return str(chosen), chosen.stat().st_mtime
    except OSError:
        raise InputError(f"{chosen}{f' (from ${env_var})' if from_env else ''}: no such {what}") from None


def scan_run_table(run_dir: Path, stem: str, columns: tuple[str, ...]):
    """One table of a ``simulate --out`` folder (``stem``.parquet, else .csv), scanned lazily with
    Polars and checked for ``columns``: InputError naming the folder or file otherwise."""
    import polars as pl

    for path in (run_dir / f"{stem}.parquet", run_dir / f"{stem}.csv"):
        if path.is_file():
            break
    else:
        raise InputError(f"{run_dir}: no {stem} table ({stem}.parquet or {stem}.csv from `literaki simulate --out`)")
    frame = pl.scan_parquet(path) if path.suffix == ".parquet" else pl.scan_csv(path)
    try:
        names = frame.collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as e:
        raise InputError(f"{path}: cannot read the table ({str(e).splitlines()[0]})") from None
    missing = [c for c in columns if c not in names]
    if missing:
        raise InputError(f"{path}: not a {stem} table of `literaki simulate` (no column {missing[0]!r})")
    return frame


def board_run_settings(run_dir: Path, needs: str) -> dict:
    """The settings a ``simulate`` run recorded (its run.json; {} without one: a board game of
    Literaki is assumed), refusing a run of the letter grid, which has no ``needs``."""
    try:
        settings = json.loads((Path(run_dir) / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        settings = {}
    if not isinstance(settings, dict):
        settings = {}
    if settings.get("game", "literaki") != "literaki":
        raise InputError(f"{run_dir}: a {settings.get('game')} run has no {needs}")
    return settings
