"""Files the analysis reads besides the lexicon: model files chosen by option, environment
variable or the copy shipped with the package, and the tables of ``simulate`` runs.

A run folder is handed over by the user, so each of its files is checked before it is used: the
run's settings (run.json) are strict JSON with a value of the right type for every key read, and
each column a command reads from a table must hold what it should (whole numbers in a range, or
text), every fault one InputError naming the file and the key or column."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from literaki_cli.errors import InputError, said
from literaki_cli.inputs import read_json_file, shown

#: The settings file of a ``simulate --out`` folder.
RUN_FILE = "run.json"
#: What each setting of a run.json must be (see ``literaki_cli.analysis.simulate.RunConfig``).
RUN_SETTING_TYPES: dict[str, tuple[type, ...]] = {
    "players": (list,), "games": (int,), "seed": (int,), "variant": (str,), "rules": (str, type(None)),
    "levels": (str, type(None)), "lexicon": (str,), "gcg": (bool,), "game": (str,), "leaves": (str, type(None)),
}  # fmt: skip
_TYPE_WORDS = {list: said("a list"), int: said("a whole number"), str: said("a text"), bool: said("true or false"),
               type(None): said("null")}  # fmt: skip


def chosen_file(path: Path | str | None, env_var: str, shipped: Path, what: str) -> tuple[str, float]:
    """(path, modification time) of the file to read: ``path``, else ``$env_var``, else
    ``shipped``.  InputError naming it (and the variable it came from) when it does not exist;
    the time lets a cache notice a file rewritten in place."""
    from_env = path is None and bool(os.environ.get(env_var))
    chosen = Path(path if path is not None else os.environ.get(env_var) or shipped).expanduser()
    try:
        return str(chosen), chosen.stat().st_mtime
    except (OSError, ValueError):  # ValueError: a NUL byte in the name
        source = shown(str(chosen), 200, quote=False)
        if from_env:
            raise InputError(said("{source} (from ${variable}): no such {what}", source=source, variable=env_var,
                                  what=what)) from None
        raise InputError(said("{source}: no such {what}", source=source, what=what)) from None


# --------------------------------------------------------------------------- tables of a run


@dataclass(frozen=True)
class Column:
    """What a column of a run's table must hold: ``holds`` is WHOLE (integers in [low, high]),
    TEXT, or NAMES (text or whole numbers, as a player's name may be read from a CSV file);
    ``empty`` allows empty cells (a CSV file reads an empty text as one)."""

    holds: str
    low: int = 0
    high: int = 0
    empty: bool = False


WHOLE = said("whole numbers")
TEXT = said("text")
NAMES = said("names")


def whole_numbers(low: int, high: int) -> Column:
    return Column(WHOLE, low, high)


def _table_path(run_dir: Path, stem: str) -> Path:
    for path in (Path(run_dir) / f"{stem}.parquet", Path(run_dir) / f"{stem}.csv"):
        if os.path.isfile(path):
            return path
    raise InputError(said("{source}: no {stem} table ({stem}.parquet or {stem}.csv from `literaki simulate --out`)",
                          source=run_dir, stem=stem))


def polars_fault(where: Path | str, error: BaseException, what: str = said("the table")) -> InputError:
    """The InputError for a Polars error reading ``where``: its first line, shortened."""
    lines = str(error).strip().splitlines()
    return InputError(said("{source}: cannot read {what} ({error})", source=where, what=what,
                           error=shown(lines[0] if lines else type(error).__name__, 160, quote=False)))


def _scan(path: Path, stem: str, columns: tuple[str, ...]):
    import polars as pl

    frame = pl.scan_parquet(path) if path.suffix == ".parquet" else pl.scan_csv(path)
    try:
        names = frame.collect_schema().names()
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as e:
        raise polars_fault(path, e) from None
    missing = [c for c in columns if c not in names]
    if missing:
        raise InputError(said("{source}: not a {stem} table of `literaki simulate` (no column {column!r})", source=path,
                              stem=stem, column=missing[0]))
    return frame


def scan_run_table(run_dir: Path, stem: str, columns: tuple[str, ...]):
    """One table of a ``simulate --out`` folder (``stem``.parquet, else .csv), scanned lazily with
    Polars and checked for ``columns``: InputError naming the folder or file otherwise."""
    return _scan(_table_path(run_dir, stem), stem, columns)


def _holds(dtype) -> str:
    import polars as pl

    if dtype.is_integer():
        return WHOLE
    if dtype.is_float() or dtype.is_decimal():
        return said("decimal numbers")
    if isinstance(dtype, pl.String | pl.Categorical | pl.Enum):
        return TEXT
    if isinstance(dtype, pl.Boolean):
        return said("true/false values")
    return said("values of type {dtype}", dtype=dtype)


def _fits(dtype, holds: str) -> bool:
    import polars as pl

    if isinstance(dtype, pl.Null):  # no value at all: the empty cells are counted below
        return True
    text = isinstance(dtype, pl.String | pl.Categorical | pl.Enum)
    return {WHOLE: dtype.is_integer(), TEXT: text, NAMES: text or dtype.is_integer()}[holds]


def checked_run_table(run_dir: Path, stem: str, columns: dict[str, Column]):
    """:func:`scan_run_table` with every column of ``columns`` checked over the whole table (one
    pass: each column's type, empty cells, and the smallest and largest whole number), so the
    lazy frame it returns can be cast and aggregated without a conversion error.  InputError
    naming the file and the column otherwise."""
    import polars as pl

    path = _table_path(run_dir, stem)
    frame = _scan(path, stem, tuple(columns))
    schema = frame.collect_schema()
    for name, column in columns.items():
        if not _fits(schema[name], column.holds):
            raise InputError(said("{source}: column {name!r} holds {holds}, not {expected}", source=path, name=name,
                                  holds=_holds(schema[name]), expected=column.holds))
    checks = []
    for name, column in columns.items():
        checks.append(pl.col(name).null_count().alias(f"{name}/empty"))
        if column.holds == WHOLE and not isinstance(schema[name], pl.Null):
            checks += [pl.col(name).min().alias(f"{name}/min"), pl.col(name).max().alias(f"{name}/max")]
    try:
        stats = frame.select(checks).collect().row(0, named=True)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as e:
        raise polars_fault(path, e) from None
    for name, column in columns.items():
        empty = stats[f"{name}/empty"]
        if empty and not column.empty:
            if empty > 1:
                raise InputError(said("{source}: column {name!r} has {count:,} empty cells", source=path, name=name,
                                      count=empty))
            raise InputError(said("{source}: column {name!r} has {count:,} empty cell", source=path, name=name,
                                  count=empty))
        if column.holds != WHOLE or stats.get(f"{name}/min") is None:
            continue
        for value in (stats[f"{name}/min"], stats[f"{name}/max"]):
            if not column.low <= value <= column.high:
                raise InputError(said("{source}: column {name!r} holds {value}, not between {low:,} and {high:,}",
                                      source=path, name=name, value=shown(value), low=column.low, high=column.high))
    return frame


# --------------------------------------------------------------------------- a run's settings


def read_run_settings(run_dir: Path) -> dict:
    """The settings a ``simulate`` run recorded (its run.json), {} when it has none; an existing
    run.json must be a strict JSON object whose keys each have a value of their type
    (RUN_SETTING_TYPES; other keys are left to whoever reads them), else InputError naming it."""
    path = Path(run_dir) / RUN_FILE
    if not os.path.lexists(path):
        return {}
    settings = read_json_file(path, said("run record"))
    if not isinstance(settings, dict):
        raise InputError(said("{source}: not a run record (a JSON object)", source=path))
    for key, types in RUN_SETTING_TYPES.items():
        if key not in settings:
            continue
        value = settings[key]
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            expected = _TYPE_WORDS[types[0]]
            for other in types[1:]:
                expected = said("{one} or {other}", one=expected, other=_TYPE_WORDS[other])
            raise InputError(said("{source}: key {key!r} must be {expected}, not {value}", source=path, key=key,
                                  expected=expected, value=shown(value)))
        if key in ("game", "variant") and not value.strip():
            raise InputError(said("{source}: key {key!r} is empty", source=path, key=key))
    if not all(isinstance(player, str) for player in settings.get("players", [])):
        raise InputError(said("{source}: key 'players' must be a list of names, not {value}", source=path,
                              value=shown(settings["players"])))
    return settings


def board_run_settings(run_dir: Path, needs: str) -> dict:
    """The settings a ``simulate`` run recorded (:func:`read_run_settings`; {} without a
    run.json: a board game of Literaki is assumed), refusing a run of the letter grid, which has
    no ``needs``."""
    settings = read_run_settings(run_dir)
    if settings.get("game", "literaki") != "literaki":
        raise InputError(said("{source}: a {game} run has no {needs}", source=run_dir, game=shown(settings["game"]),
                              needs=needs))
    return settings
