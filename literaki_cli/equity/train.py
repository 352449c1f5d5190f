"""Learning leave values from self-play tables (``literaki leaves train``).

The method (docs/leaves.md has the numbers of each generation):

1. For every turn that kept a leave of 1..6 tiles with tiles still in the bag (placements and
   exchanges), the *outcome* is the points that player scored on their next turn minus the mean
   next-turn score of all turns at the same stage of the game (bag size in steps of
   ``STAGE_WIDTH`` tiles).  Turns whose player had no next turn are left out.
2. Outcomes are averaged per leave (tiles sorted, so the order kept does not matter).
3. A parametric model (per-tile values, extra copies, both blanks, vowel/consonant balance,
   same-colour pairs: :mod:`literaki_cli.equity.leaves`) is fitted to every turn's outcome by
   least squares (each leave weighted by how often it was kept).
4. Each leave's value is its mean shrunk toward the model, ``(n * mean + K * model) / (n + K)``,
   with the prior strength ``K = within-leave variance / between-leave variance`` estimated from
   the data (empirical Bayes) unless given.
5. Values are shifted so that the empty leave (all tiles played) is worth 0; the file keeps the
   leaves kept at least ``min_count`` times, the model values the rest.

The aggregation runs in Polars over lazily scanned tables, so large runs stay within memory.
"""

from __future__ import annotations

import datetime
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from literaki_cli.datafiles import (
    NAMES,
    TEXT,
    Column,
    board_run_settings,
    checked_run_table,
    polars_fault,
    whole_numbers,
)
from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import core_call
from literaki_cli.engine.position import BLANK
from literaki_cli.equity.leaves import (
    CORE_LAYOUT,
    F_BALANCE,
    MAX_LEAVE,
    MAX_LEAVE_VALUE,
    N_BALANCE,
    N_FEATURES,
    N_SLOTS,
    LeaveTable,
)
from literaki_cli.errors import InputError
from literaki_cli.inputs import finite_number, shown, whole_number

STAGE_WIDTH = 10
DEFAULT_MIN_COUNT = 3
#: Ridge penalty, in turns: a feature seen in far fewer turns than this (keeping both blanks is
#: rare) stays near 0 instead of taking the value of its few noisy outcomes, and one never seen (a
#: letter without tiles, a colour pair the tile set lacks) is exactly 0.  Features seen in
#: thousands of turns are not affected.
RIDGE = 50.0
#: Leaves kept at least this often estimate the between-leave variance.
PRIOR_ESTIMATE_MIN_COUNT = 20
#: The largest shrinkage strength K (``--prior``): far past the point where every value is the model's.
MAX_PRIOR = 1e15
#: The longest --note (a note says which generation a file is, or how it was made).
MAX_NOTE = 10_000
#: The largest --min-count: more turns than any run has (the file then keeps no leave: all are the model's).
MAX_MIN_COUNT = 10**12
#: Bounds of the turns table's numbers: a Literaki move scores a few hundred points at most, a
#: game has about 30 turns and a bag 100 tiles; far larger numbers are a broken table, and would
#: overflow the integer sums (or size an array by the bag).
MAX_TURN_SCORE = 100_000
MAX_TURN = 1_000_000
MAX_BAG = 10_000
#: What each column read from a turns table must hold.
TURN_COLUMNS = {
    "gameID": whole_numbers(0, 2**63 - 1),
    "playerID": Column(NAMES),
    "turn": whole_numbers(0, MAX_TURN),
    "score": whole_numbers(-MAX_TURN_SCORE, MAX_TURN_SCORE),
    "leave": Column(TEXT, empty=True),  # a CSV file reads an empty leave (all tiles played) as an empty cell
    "tilesremaining": whole_numbers(0, MAX_BAG),
    "kind": Column(TEXT),
}
NEEDED_COLUMNS = tuple(TURN_COLUMNS)


@dataclass
class TrainingReport:
    runs: list[str]
    games: int
    turns: int  # turns whose outcome was used
    distinct_leaves: int
    stored_leaves: int
    prior_strength: float
    within_variance: float
    between_variance: float | None  # None: too few frequent leaves to estimate it (K is then a default)
    empty_leave_offset: float
    mean_next_score: float
    seconds: float


# --------------------------------------------------------------------------- reading runs


def scan_turns(run_dirs: list[Path]):
    """One lazy frame of every run's turns, with a ``run`` column keeping their games apart."""
    import polars as pl

    if not run_dirs:
        raise InputError("give at least one run folder (from `literaki simulate --out DIR`)")
    frames = []
    for index, run_dir in enumerate(run_dirs):
        frame = checked_run_table(Path(run_dir), "turns", TURN_COLUMNS)
        frames.append(
            frame.select(
                pl.lit(index, dtype=pl.Int32).alias("run"),
                pl.col("gameID").cast(pl.Int64),
                pl.col("playerID").cast(pl.Utf8),
                pl.col("turn").cast(pl.Int64),
                pl.col("score").cast(pl.Int64),
                pl.col("leave").cast(pl.Utf8).fill_null(""),
                pl.col("tilesremaining").cast(pl.Int64),
                pl.col("kind").cast(pl.Utf8),
            )  # fmt: skip
        )
    return pl.concat(frames)


def leave_outcomes(turns):
    """Per leave (lower case, tiles sorted): how often it was kept, the mean and variance of the
    next-turn outcome.  ``turns``: :func:`scan_turns`.  Returns (frame, turns used, games, mean).

    Polars adds floats in whatever order its threads finish, so float means differ in the last
    bit from run to run, and so would the values learned (and the games played with them).
    Polars therefore only counts and adds integers (exact in any order) per leave and stage;
    the floats are computed here from those sums in one fixed order, and training the same
    runs twice gives the same file to the bit."""
    import polars as pl

    try:
        return _leave_outcomes(turns)
    except (pl.exceptions.PolarsError, pl.exceptions.PanicException, OSError) as e:
        raise polars_fault("the runs", e, "their turns tables") from None


def _leave_outcomes(turns):
    import polars as pl

    per_player = ["run", "gameID", "playerID"]
    same_player_next = pl.all_horizontal([pl.col(c).shift(-1) == pl.col(c) for c in per_player])
    samples = (
        turns.sort([*per_player, "turn"])  # a player's next turn is the next row, if it is the same player's
        .with_columns(pl.when(same_player_next).then(pl.col("score").shift(-1)).alias("next_score"))
        .filter(
            pl.col("kind").is_in(["place", "exchange"])
            & (pl.col("tilesremaining") > 0)
            & pl.col("next_score").is_not_null()
            & (pl.col("leave").str.len_chars() <= MAX_LEAVE)
        )
        .select("run", "gameID", (pl.col("tilesremaining") // STAGE_WIDTH).alias("stage"), "next_score", "leave")
        .collect()  # only what the sums need, once: both aggregations below read it
        .lazy()
    )
    sums = [pl.len().alias("n"), pl.col("next_score").sum().alias("total"),
            (pl.col("next_score") * pl.col("next_score")).sum().alias("squares")]  # fmt: skip
    # summed per leave as written first (far fewer rows than turns), then per leave with its tiles sorted
    written = samples.group_by("leave", "stage").agg(sums)
    spellings = written.select(pl.col("leave").unique()).with_columns(
        pl.col("leave").str.to_lowercase().str.split("").list.sort().list.join("").alias("sorted")
    )
    cells = (
        written.join(spellings, on="leave")
        .group_by(pl.col("sorted").alias("leave"), "stage")
        .agg(pl.col("n").sum(), pl.col("total").sum(), pl.col("squares").sum())
        .sort("leave", "stage")
    )
    games = samples.select(pl.struct("run", "gameID").n_unique().alias("games"))
    cells, games = pl.collect_all([cells, games])
    games = games.item()
    return _per_leave(cells), int(cells["n"].sum() or 0), int(games or 0), _mean_next(cells)


def _mean_next(cells) -> float:
    used = int(cells["n"].sum() or 0)
    return int(cells["total"].sum() or 0) / used if used else 0.0


def _per_leave(cells):
    """Count, mean and variance (ddof 1; NaN for a single turn) of the outcome per leave, from the
    integer sums per (leave, stage): outcome = next-turn score - the stage's mean next-turn score."""
    import polars as pl

    if cells.height == 0:
        schema = {"leave": pl.Utf8, "n": pl.Int64, "mean": pl.Float64, "var": pl.Float64}
        return pl.DataFrame({name: [] for name in schema}, schema=schema)
    n = cells["n"].to_numpy().astype(np.float64)
    total = cells["total"].to_numpy().astype(np.float64)
    squares = cells["squares"].to_numpy().astype(np.float64)
    stage = cells["stage"].to_numpy()
    stages = int(stage.max()) + 1
    stage_mean = np.bincount(stage, total, stages) / np.maximum(np.bincount(stage, n, stages), 1)
    mu = stage_mean[stage]
    deviation = total - n * mu  # sum of (x - mu) over the cell's turns
    deviation_sq = squares - 2 * mu * total + n * mu * mu  # sum of (x - mu)^2
    leaves = cells["leave"].to_numpy()
    starts = np.flatnonzero(np.r_[True, leaves[1:] != leaves[:-1]])
    count = np.add.reduceat(n, starts)
    mean = np.add.reduceat(deviation, starts) / count
    spread = np.add.reduceat(deviation_sq, starts) - count * mean * mean
    with np.errstate(invalid="ignore", divide="ignore"):
        var = np.where(count > 1, np.maximum(spread, 0.0) / (count - 1), np.nan)
    return pl.DataFrame({"leave": leaves[starts], "n": count.astype(np.int64), "mean": mean, "var": var})


# --------------------------------------------------------------------------- fitting


def _normal_equations(counts, weights, targets, colour_of, vowel) -> tuple[np.ndarray, np.ndarray]:
    """X'WX and X'Wy of the model's features over the leaves (in the Rust core)."""
    from literaki_cli import _core

    return core_call(_core.leave_normal_equations, CORE_LAYOUT, np.ascontiguousarray(counts, dtype=np.int64),
                     np.ascontiguousarray(weights, dtype=np.float64), np.ascontiguousarray(targets, dtype=np.float64),
                     *_tiles(colour_of, vowel), N_FEATURES)  # fmt: skip


def _predict(counts, coef, colour_of, vowel) -> np.ndarray:
    """The model's value of each leave (in the Rust core)."""
    from literaki_cli import _core

    return core_call(_core.leave_predict, CORE_LAYOUT, np.ascontiguousarray(counts, dtype=np.int64),
                     np.ascontiguousarray(coef, dtype=np.float64), *_tiles(colour_of, vowel))  # fmt: skip


def _tiles(colour_of, vowel) -> tuple[np.ndarray, np.ndarray]:
    return np.ascontiguousarray(colour_of, dtype=np.int64), np.ascontiguousarray(vowel, dtype=np.int64)


def counts_matrix(leaves: list[str]) -> np.ndarray:
    """Tile counts (blank in slot 0) of each leave written as text."""
    out = np.zeros((len(leaves), N_SLOTS), dtype=np.int64)
    for i, leave in enumerate(leaves):
        for ch in leave:
            slot = 0 if ch == BLANK else alphabet.CODE_OF.get(ch, N_SLOTS)
            if slot >= N_SLOTS:
                raise InputError(f"leave {leave!r} in the turns table: {ch!r} is not a tile")
            out[i, slot] += 1
    return out


def fit_model(counts: np.ndarray, n: np.ndarray, means: np.ndarray, colour_of, vowel) -> np.ndarray:
    """Least-squares model coefficients, every turn weighted alike (a leave by its count)."""
    xtwx, xtwy = _normal_equations(counts, n.astype(np.float64), means.astype(np.float64), colour_of, vowel)
    return np.linalg.solve(xtwx + RIDGE * np.eye(N_FEATURES), xtwy)


def prior_strength(
    n: np.ndarray, means: np.ndarray, variances: np.ndarray, model: np.ndarray
) -> tuple[float, float, float]:
    """K = within-leave variance / between-leave variance (around the model); and both variances."""
    several = n >= 2
    within = float(np.sum((n[several] - 1) * variances[several]) / max(1, np.sum(n[several] - 1)))
    frequent = n >= PRIOR_ESTIMATE_MIN_COUNT
    if not frequent.any():
        return 50.0, within, float("nan")
    excess = (means[frequent] - model[frequent]) ** 2 - within / n[frequent]
    between = max(float(np.mean(excess)), within / 1e4, 1e-9)
    return float(np.clip(within / between, 1.0, 1e4)), within, between


def train(
    run_dirs: list[Path], variant, min_count: int = DEFAULT_MIN_COUNT, prior: float | None = None,
    note: str = "",
) -> tuple[LeaveTable, TrainingReport]:  # fmt: skip
    """Leave values learned from the turns tables of ``run_dirs`` (see the module docstring).
    InputError for options out of range (before any work), tables that are not a run's, and
    values that would not make a leave file literaki can read."""
    from literaki_cli.equity.leaves import tile_classes

    min_count, prior = check_training_options(min_count, prior, note)
    started = time.perf_counter()
    per_leave, used, games, mean_next = leave_outcomes(scan_turns(run_dirs))
    if used == 0:
        raise InputError("the runs hold no turn that kept tiles with tiles left in the bag: nothing to learn from")
    leaves = per_leave["leave"].to_list()
    n = per_leave["n"].to_numpy().astype(np.float64)
    means = per_leave["mean"].to_numpy().astype(np.float64)
    variances = np.nan_to_num(per_leave["var"].to_numpy().astype(np.float64))
    counts = counts_matrix(leaves)
    colour_of, vowel = tile_classes(variant)
    coef = fit_model(counts, n, means, colour_of, vowel)
    model = _predict(counts, coef, colour_of, vowel)
    k, within, between = prior_strength(n, means, variances, model)
    if prior is not None:
        k = prior
    values = (n * means + k * model) / (n + k)
    is_empty = np.array([leave == "" for leave in leaves])
    offset = float(values[is_empty][0]) if is_empty.any() else float(coef[F_BALANCE])
    values -= offset
    coef = coef.copy()
    coef[F_BALANCE : F_BALANCE + N_BALANCE] -= offset
    keep = (n >= min_count) & ~is_empty
    _check_learned(run_dirs, values[keep], coef)
    keys = _keys(counts[keep])
    order = np.argsort(keys)
    report = TrainingReport(
        [str(r) for r in run_dirs], games, used, len(leaves), int(keep.sum()), float(k), within,
        between if np.isfinite(between) else None, offset, mean_next, time.perf_counter() - started,
    )  # fmt: skip
    meta = {
        "variant": variant.name,
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "method": "next-turn outcome per leave, shrunk toward a least-squares model (literaki_cli.equity.train)",
        "stage_width": STAGE_WIDTH,
        "min_count": min_count,
        "training": asdict(report),
        "note": note,
    }
    table = LeaveTable(keys[order], values[keep][order], coef, colour_of, vowel, meta)
    return table, report


def check_training_options(min_count: object, prior: object, note: object = "") -> tuple[int, float | None]:
    """``--min-count``, ``--prior`` and ``--note`` checked (InputError naming the option): a
    whole number from 1 to MAX_MIN_COUNT, None (estimate K) or a finite number from 0 to
    MAX_PRIOR, and text of at most MAX_NOTE characters."""
    min_count = whole_number(min_count, "--min-count", 1, MAX_MIN_COUNT)
    if prior is not None:
        prior = finite_number(prior, "--prior", 0.0, MAX_PRIOR)
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise InputError(f"--note: {shown(note)} is not a text of at most {MAX_NOTE:,} characters")
    try:
        note.encode("utf-8")
    except UnicodeEncodeError:  # bytes of another encoding on the command line
        raise InputError(f"--note: {shown(note)} is not UTF-8 text") from None
    return min_count, prior


def _check_learned(run_dirs: list[Path], values: np.ndarray, coef: np.ndarray) -> None:
    """Refuse values no leave file may hold (see ``MAX_LEAVE_VALUE``): a table with absurd
    scores, not a file literaki would then refuse to read."""
    for name, array in (("leave values", values), ("model coefficients", coef)):
        bad = ~np.isfinite(array) | (np.abs(array) > MAX_LEAVE_VALUE)
        if np.any(bad):
            runs = ", ".join(str(r) for r in run_dirs[:3]) + (", ..." if len(run_dirs) > 3 else "")
            raise InputError(f"the {name} learned from {runs} reach {float(array[np.argmax(bad)]):g} points; "
                             f"a leave is worth between {-MAX_LEAVE_VALUE:g} and {MAX_LEAVE_VALUE:g} "
                             "(are the scores of the turns tables real ones?)")  # fmt: skip


def _keys(counts: np.ndarray) -> np.ndarray:
    from literaki_cli.equity.leaves import leave_key

    return np.array([leave_key(row) for row in counts], dtype=np.int64)


def run_variant(run_dirs: list[Path]):
    """The variant the runs were played with (all must agree), from their run.json."""
    from literaki_cli.engine.variant import load_variant

    seen = set()
    for run_dir in run_dirs:
        if not os.path.isdir(run_dir):
            raise InputError(f"{run_dir}: no such run folder (from `literaki simulate --out DIR`)")
        data = board_run_settings(run_dir, "racks to learn leaves from")
        seen.add((data.get("variant", "literaki"), data.get("rules")))
    if len(seen) > 1:
        raise InputError(f"the runs were played with different rules: {sorted(seen, key=str)}")
    name, rules = seen.pop()
    return load_variant(name, Path(rules) if rules else None)
