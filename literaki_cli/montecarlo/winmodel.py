"""The win-probability model: P(the player who has just moved wins) from the spread and the bag.

A Monte Carlo look-ahead plays a few plies and must then judge the position it reached; points
alone are a poor judge late in the game (a 30-point lead with 80 tiles to come is little more
than a coin toss, with none to come it nearly decides the game).  The model is a logistic curve
per bag size ``b`` (tiles in the bag after the move), plus, where it predicts better, a second
flatter one mixed in:

    P(win) = (1 - w[b]) * L(intercept[b] + slope[b] * spread) + w[b] * L(tail_intercept[b] + tail_slope[b] * spread)

with L(z) = 1 / (1 + exp(-z)), ``spread`` the mover's score minus the opponent's and a draw
counting one half.  Fitting (``fit_win_model``, on ``literaki simulate`` runs): one (intercept,
slope) pair per bag size by penalised maximum likelihood, neighbouring bag sizes tied by a
second-difference penalty whose strength is chosen by cross-validation over games.  The empty
bag is its own regime (nobody draws again; the opponent may go out with a big last move): it is
not tied to the others, and it gets the two-curve mixture (fitted by EM) when that predicts
held-out games better.  Turns that end the game are not used: a finished game needs no model.
docs/winmodel.md gives the data and the calibration measured.

File format (``FORMAT``, version ``FORMAT_VERSION``): JSON, ``{"format", "version",
"intercept", "slope", "tail_weight", "tail_intercept", "tail_slope", "meta"}``, each list with
entry ``b`` for ``b`` tiles in the bag (the three ``tail_`` lists optional, zero by default),
slopes per point of spread and non-negative, tail weights in [0, 1].

Refit: ``python -m literaki_cli.montecarlo.winmodel RUN_DIR... --out FILE``.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np

from literaki_cli.datafiles import board_run_settings, chosen_file, scan_run_table
from literaki_cli.errors import InputError, LiterakiError, said
from literaki_cli.inputs import dumps_json, read_json_file, shown

FORMAT = "literaki-win-model"
FORMAT_VERSION = 1
#: The environment variable naming a win-model file to use instead of the shipped one.
ENV_VAR = "LITERAKI_WIN_MODEL"
#: The model shipped with the package (fitted on mistrz-vs-mistrz self-play, docs/winmodel.md).
SHIPPED = Path(__file__).with_name("literaki.model")
#: Smoothing strengths tried by cross-validation when none is given (penalty per squared
#: second difference of the intercepts and of the slopes per 100 points of spread).
SMOOTHING_GRID = (1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0, 1000000.0)
FOLDS = 5
#: Spreads are scaled to hundreds of points inside the fit, so intercepts and slopes have like sizes.
_SPREAD_UNIT = 100.0
#: Spreads and bag sizes of the summary table the command prints.
SUMMARY_SPREADS = (-50, -20, 0, 20, 50)
SUMMARY_BAGS = (0, 1, 3, 7, 14, 28, 50, 70, 86)
_NUMBERS = (int, float, np.integer, np.floating)
#: Types of one bag and one spread that the scalar path takes as they are (exact types: no bool).
_PLAIN_BAGS = frozenset({int, np.int64, np.int32})
_PLAIN_SPREADS = frozenset({int, float, np.int64, np.float64})
_NUMBER_LIST = re.compile(r"\[\s*(-?[\d.eE+-]+(?:,\s*-?[\d.eE+-]+)*)\s*\]")
_CURVES = ("intercept", "slope", "tail_weight", "tail_intercept", "tail_slope")
#: The largest magnitude of a curve's number (fitted ones stay within a few units).
CURVE_BOUND = 1e6


def _logistic(z):
    """1 / (1 + exp(-z)) without overflow, for numbers and arrays."""
    return 0.5 + 0.5 * np.tanh(0.5 * z)


@dataclass(frozen=True)
class WinModel:
    """P(win) curves in the spread, one per bag size (entry ``b``: ``b`` tiles left in the bag)."""

    intercept: np.ndarray  # float64, one per bag size 0..max_bag
    slope: np.ndarray  # float64 >= 0, per point of spread
    tail_weight: np.ndarray | None = None  # float64 in [0, 1]: the share of the second curve (None: 0)
    tail_intercept: np.ndarray | None = None
    tail_slope: np.ndarray | None = None  # float64 >= 0
    meta: dict = field(default_factory=dict)
    source: str = ""  # the file it was read from, if any

    def __post_init__(self) -> None:
        zeros = np.zeros_like(self.intercept, dtype=np.float64)
        for name in ("tail_weight", "tail_intercept", "tail_slope"):
            if getattr(self, name) is None:
                object.__setattr__(self, name, zeros)
        # Plain lists for the scalar path: indexing a list beats indexing an array for one value.
        for name in _CURVES:
            object.__setattr__(self, f"_{name}s", getattr(self, name).tolist())
        object.__setattr__(self, "_top", len(self.intercept) - 1)
        object.__setattr__(self, "_tail_bags", np.flatnonzero(self.tail_weight > 0))

    @property
    def max_bag(self) -> int:
        """The largest bag size with a curve of its own; larger bags use this one."""
        return self._top

    def probability(self, spread, bag):
        """P(the player who has just moved wins), a draw counting half, for ``spread`` (their score
        minus the opponent's, fractional allowed) with ``bag`` tiles left in the bag.

        Broadcasts over NumPy arrays; a bag below 0 counts as 0, above ``max_bag`` as ``max_bag``,
        a fractional bag is rounded.  Two numbers (not arrays) give a float."""
        if type(bag) in _PLAIN_BAGS and type(spread) in _PLAIN_SPREADS:
            b = int(bag) if 0 <= bag <= self._top else (0 if bag < 0 else self._top)
            p = 0.5 + 0.5 * math.tanh(0.5 * (self._intercepts[b] + self._slopes[b] * spread))
            w = self._tail_weights[b]
            if w:
                p += w * (0.5 + 0.5 * math.tanh(0.5 * (self._tail_intercepts[b] + self._tail_slopes[b] * spread)) - p)
            return p
        if isinstance(bag, _NUMBERS) and isinstance(spread, _NUMBERS):  # NumPy scalars: as plain numbers
            return self.probability(float(spread), int(round(float(bag))))
        bags = np.asarray(bag)
        if bags.dtype.kind == "f":
            bags = np.rint(bags)
        index = np.clip(bags, 0, self._top).astype(np.intp, copy=False)
        spreads = np.asarray(spread, dtype=np.float64)
        p = _logistic(self.intercept[index] + self.slope[index] * spreads)
        if self._tail_bags.size:
            index, spreads = np.broadcast_arrays(index, spreads)
            mixed = np.isin(index, self._tail_bags) if self._tail_bags.size > 1 else index == self._tail_bags[0]
            b, x = index[mixed], spreads[mixed]
            p[mixed] += self.tail_weight[b] * (_logistic(self.tail_intercept[b] + self.tail_slope[b] * x) - p[mixed])
        return p

    def midpoint(self) -> np.ndarray:
        """The spread at which the mover's chance is one half, per bag size (by bisection: P rises
        with the spread; +-inf where it stays on one side within +-10,000 points)."""
        bags = np.arange(self._top + 1)
        low, high = np.full(bags.shape, -1e4), np.full(bags.shape, 1e4)
        for _ in range(60):
            middle = 0.5 * (low + high)
            above = self.probability(middle, bags) >= 0.5
            high, low = np.where(above, middle, high), np.where(above, low, middle)
        result = 0.5 * (low + high)
        result[self.probability(np.full(bags.shape, 1e4), bags) < 0.5] = np.inf
        result[self.probability(np.full(bags.shape, -1e4), bags) >= 0.5] = -np.inf
        return result

    def save(self, path: Path | str) -> None:
        """Write the model as JSON (format and version first, so a reader can tell what it holds)."""
        document = {"format": FORMAT, "version": FORMAT_VERSION}
        for name in _CURVES:
            document[name] = [float(f"{v:.9g}") for v in getattr(self, name)]
        document["meta"] = self.meta
        text = dumps_json(document, ensure_ascii=False, indent=1)
        # A list of numbers on one line: the file stays a few KB and readable.
        text = _NUMBER_LIST.sub(lambda m: "[" + " ".join(m[1].split()) + "]", text)
        Path(path).write_text(text + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- reading a model


def _bad(path: Path, why: str) -> InputError:
    return InputError(said("{source}: not a usable win-model file ({why})", source=path, why=why))


def load_win_model(path: Path | str) -> WinModel:
    """Read and check a win-model file; InputError naming the file and the fault otherwise."""
    path = Path(path)
    try:
        document = read_json_file(path, said("win-model file"))
    except InputError as exc:
        raise _bad(path, str(exc).removeprefix(f"{path}: ")) if path.is_file() else exc from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _bad(path, said("format is not {format!r}", format=FORMAT))
    if document.get("version") != FORMAT_VERSION:
        raise _bad(path, said("format version {version}; this literaki reads version {supported}",
                              version=shown(document.get("version")), supported=FORMAT_VERSION))
    arrays = {}
    for name in _CURVES:
        values = document.get(name)
        if values is None and name.startswith("tail_"):
            continue
        if not isinstance(values, list) or not values:
            raise _bad(path, said("{name!r} must be a non-empty list of numbers", name=name))
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            raise _bad(path, said("{name!r} must hold numbers only", name=name))
        if not all(-CURVE_BOUND <= v <= CURVE_BOUND for v in values):  # also before float(): 10**400 overflows it
            raise _bad(path, said("{name!r} must hold numbers between {low:g} and {high:g}", name=name,
                                  low=-CURVE_BOUND, high=CURVE_BOUND))
        arrays[name] = np.array(values, dtype=np.float64)
        if arrays[name].shape != arrays["intercept"].shape:
            expected = len(arrays["intercept"])
            raise _bad(path, said("{name!r} has {count} entries, 'intercept' {expected}: one per bag size each",
                                  name=name, count=len(values), expected=expected))
    for name in ("slope", "tail_slope"):
        if name in arrays and np.any(arrays[name] < 0):
            raise _bad(path, said("a negative {name!r} (more spread would lower the chance)", name=name))
    if "tail_weight" in arrays and np.any((arrays["tail_weight"] < 0) | (arrays["tail_weight"] > 1)):
        raise _bad(path, said("'tail_weight' must lie in [0, 1]"))
    meta = document.get("meta", {})
    if not isinstance(meta, dict):
        raise _bad(path, said("'meta' must be an object"))
    return WinModel(**arrays, meta=meta, source=str(path))


@lru_cache(maxsize=8)
def _cached(path: str, mtime: float) -> WinModel:
    return load_win_model(Path(path))


def open_win_model(path: Path | str | None = None) -> WinModel:
    """The win model ``path``, else ``$LITERAKI_WIN_MODEL``, else the shipped one (each read once)."""
    return _cached(*chosen_file(path, ENV_VAR, SHIPPED, said("win-model file")))


# --------------------------------------------------------------------------- reading self-play runs

TURN_COLUMNS = ("gameID", "playerID", "turn", "totalscore", "oppscore", "tilesremaining")
PLAYER_COLUMNS = ("gameID", "player", "won", "draw")


@dataclass
class Outcomes:
    """Every usable turn, aggregated: per (fold, bag, spread) how many turns and how many wins."""

    fold: np.ndarray  # int64: the game's cross-validation fold
    bag: np.ndarray  # int64
    spread: np.ndarray  # float64
    turns: np.ndarray  # float64: turns with this (fold, bag, spread)
    wins: np.ndarray  # float64: the movers' wins among them, a draw counting half
    wins_squared: np.ndarray  # float64: the sum of squared results (differs from wins by the draws; for Brier scores)
    counts: dict  # what was read and what was left out (for the meta and the summary)


def read_outcomes(runs: list[Path], folds: int = FOLDS) -> Outcomes:
    """Join each turn of the runs to whether its mover won the game and aggregate, with Polars.

    Used: the turns of finished two-player games, except the turn that ended each game (its
    result needs no model).  Everything left out is counted in ``counts``."""
    import polars as pl

    if not runs:
        raise InputError(said("give at least one run folder (from `literaki simulate --out DIR`)"))
    turn_frames, player_frames, variants = [], [], set()
    for index, run in enumerate(runs):
        run = Path(run)
        if not run.is_dir():
            raise InputError(said("{source}: no such run folder", source=run))
        settings = board_run_settings(run, said("bag (tilesremaining counts rounds there)"))
        variants.add(settings.get("variant", "literaki"))
        run_id = pl.lit(index, dtype=pl.Int64).alias("run")
        turns = scan_run_table(run, "turns", TURN_COLUMNS)
        players = scan_run_table(run, "players", PLAYER_COLUMNS)
        turn_frames.append(turns.select(
            run_id, pl.col("gameID").cast(pl.Int64), pl.col("playerID").cast(pl.Utf8), pl.col("turn").cast(pl.Int64),
            (pl.col("totalscore").cast(pl.Float64) - pl.col("oppscore").cast(pl.Float64)).alias("spread"),
            pl.col("tilesremaining").cast(pl.Int64).alias("bag"),
        ))  # fmt: skip
        player_frames.append(players.select(
            run_id, pl.col("gameID").cast(pl.Int64), pl.col("player").cast(pl.Utf8).alias("playerID"),
            (pl.col("won").cast(pl.Float64) + 0.5 * pl.col("draw").cast(pl.Float64)).alias("result"),
        ))  # fmt: skip
    if len(variants) > 1:
        raise InputError(said("the runs were played with different variants: {variants}", variants=sorted(variants)))
    turns, players = pl.concat(turn_frames), pl.concat(player_frames)
    game = ["run", "gameID"]
    sizes = players.group_by(game).agg(pl.len().alias("players"), pl.col("result").sum().alias("results"))
    last = turns.group_by(game).agg(pl.col("turn").max().alias("last_turn"))
    joined = (
        turns.join(last, on=game)
        .join(sizes, on=game, how="left")
        .join(players, on=[*game, "playerID"], how="left")
        .with_columns(
            pl.when(pl.col("players").is_null())
            .then(pl.lit("unfinished"))
            .when(pl.col("players") != 2)
            .then(pl.lit("not two players"))
            .when(pl.col("result").is_null() | (pl.col("results") != 1))
            .then(pl.lit("no result"))
            .when(pl.col("bag").is_null() | (pl.col("bag") < 0) | pl.col("spread").is_null())
            .then(pl.lit("bad row"))
            .when(pl.col("turn") == pl.col("last_turn"))
            .then(pl.lit("ended the game"))
            .otherwise(pl.lit("used"))
            .alias("use"),
            ((pl.col("gameID") * 7919 + pl.col("run") * 104729) % folds).alias("fold"),
        )  # fmt: skip
    )
    tally = joined.group_by("use").agg(pl.len().alias("turns"), pl.struct(game).n_unique().alias("games")).collect()
    counts = {row["use"]: {"turns": row["turns"], "games": row["games"]} for row in tally.iter_rows(named=True)}
    used = (
        joined.filter(pl.col("use") == "used")
        .group_by("fold", "bag", "spread")
        .agg(
            pl.len().cast(pl.Float64).alias("turns"),
            pl.col("result").sum().alias("wins"),
            (pl.col("result") * pl.col("result")).sum().alias("wins_squared"),
        )
        .sort("fold", "bag", "spread")
        .collect()
    )
    if used.height == 0:
        raise InputError(said("{source}: no usable turns (finished two-player games) to fit",
                              source=", ".join(map(str, runs))))
    return Outcomes(
        used["fold"].to_numpy().astype(np.int64), used["bag"].to_numpy().astype(np.int64),
        used["spread"].to_numpy().astype(np.float64), used["turns"].to_numpy(), used["wins"].to_numpy(),
        used["wins_squared"].to_numpy(), {"variant": variants.pop(), **counts},
    )  # fmt: skip


# --------------------------------------------------------------------------- fitting


def _penalty(size: int, free_empty_bag: bool) -> np.ndarray:
    """D'D for the second differences of consecutive bag sizes (from bag 1 when bag 0 stands alone)."""
    start = 1 if free_empty_bag else 0
    n = size - start
    if n < 3:
        return np.zeros((size, size))
    diff = np.zeros((n - 2, size))
    for row in range(n - 2):
        diff[row, start + row : start + row + 3] = (1.0, -2.0, 1.0)
    return diff.T @ diff


def _fit_curves(bag, x, turns, wins, size: int, smoothing: float, iterations: int = 50) -> tuple[np.ndarray, ...]:
    """Penalised maximum likelihood (Newton's method) of an (intercept, slope) pair per bag size.

    ``x`` is the spread in hundreds of points.  The log-likelihood is concave and the penalty
    convex, so Newton from all zeros converges; a halving line search keeps each step uphill."""
    has_data = np.bincount(bag, weights=turns, minlength=size) > 0
    free_empty = bool(has_data[0])
    penalty = smoothing * _penalty(size, free_empty)
    big = np.zeros((2 * size, 2 * size))
    big[:size, :size] = penalty
    big[size:, size:] = penalty
    ridge = 1e-9 * np.eye(2 * size)  # only decides a bag size no data and no neighbour pins down

    def objective(theta: np.ndarray) -> float:
        z = theta[bag] + theta[size + bag] * x
        loglik = np.sum(wins * z - turns * np.logaddexp(0.0, z))
        return loglik - 0.5 * theta @ big @ theta

    theta = np.zeros(2 * size)
    current = objective(theta)
    for _ in range(iterations):
        z = theta[bag] + theta[size + bag] * x
        p = 0.5 + 0.5 * np.tanh(0.5 * z)
        residual, weight = wins - turns * p, turns * p * (1.0 - p)
        gradient = np.concatenate([
            np.bincount(bag, residual, size), np.bincount(bag, residual * x, size),
        ]) - big @ theta  # fmt: skip
        hessian = big + ridge
        index = np.arange(size)
        hessian[index, index] += np.bincount(bag, weight, size)
        hessian[index, size + index] += np.bincount(bag, weight * x, size)
        hessian[size + index, index] += np.bincount(bag, weight * x, size)
        hessian[size + index, size + index] += np.bincount(bag, weight * x * x, size)
        step = np.linalg.solve(hessian, gradient)
        for _ in range(30):
            candidate = objective(theta + step)
            if candidate >= current - 1e-9 * abs(current):
                break
            step *= 0.5
        theta, previous, current = theta + step, current, candidate
        if abs(current - previous) < 1e-10 * max(1.0, abs(current)) and np.max(np.abs(step)) < 1e-8:
            break
    return theta[:size], theta[size:]


def _logistic_newton(theta: np.ndarray, x, turns, wins, steps: int = 4) -> np.ndarray:
    """A few Newton steps of one weighted logistic curve (intercept, slope) from ``theta``."""
    for _ in range(steps):
        p = _logistic(theta[0] + theta[1] * x)
        residual, weight = wins - turns * p, turns * p * (1.0 - p)
        gradient = np.array([residual.sum(), (residual * x).sum()])
        hessian = np.array([[weight.sum(), (weight * x).sum()], [(weight * x).sum(), (weight * x * x).sum()]])
        hessian += 1e-9 * np.eye(2)
        theta = theta + np.linalg.solve(hessian, gradient)
    return theta


def _mixture_loss(params, x, turns, wins) -> float:
    """Negative log-likelihood of the two-curve mixture (weight, a1, c1, a2, c2)."""
    w, a1, c1, a2, c2 = params
    p = (1 - w) * _logistic(a1 + c1 * x) + w * _logistic(a2 + c2 * x)
    p = np.clip(p, 1e-300, 1 - 1e-16)
    return float(-np.sum(wins * np.log(p) + (turns - wins) * np.log1p(-p)))


def _fit_mixture(x, turns, wins, start: np.ndarray, iterations: int = 3000) -> np.ndarray:
    """Maximum likelihood of P = (1-w) L(a1 + c1 x) + w L(a2 + c2 x) by EM, from the single
    curve ``start`` with a flatter second curve beside it.  Returns (w, a1, c1, a2, c2), c >= 0."""
    w, main, tail = 0.2, start.astype(np.float64), np.array([start[0] - 0.5, start[1] / 3])
    losses = turns - wins
    previous = math.inf
    for _ in range(iterations):
        p1, p2 = _logistic(main[0] + main[1] * x), _logistic(tail[0] + tail[1] * x)
        p = np.clip((1 - w) * p1 + w * p2, 1e-300, 1 - 1e-16)
        loss = float(-np.sum(wins * np.log(p) + losses * np.log1p(-p)))
        if previous - loss < 1e-10 * abs(loss):
            break
        previous = loss
        # E step: the share of each outcome owed to the second curve (wins and losses apart).
        share_won, share_lost = w * p2 / p, w * (1 - p2) / (1 - p)
        tail_wins, tail_losses = wins * share_won, losses * share_lost
        w = float((tail_wins.sum() + tail_losses.sum()) / turns.sum())
        # M step: each curve fitted to the outcomes it owns.
        tail = _logistic_newton(tail, x, tail_wins + tail_losses, tail_wins, 2)
        main = _logistic_newton(main, x, turns - tail_wins - tail_losses, wins - tail_wins, 2)
    return np.array([w, main[0], max(main[1], 0.0), tail[0], max(tail[1], 0.0)])


def _log_loss(intercept, slope, bag, x, turns, wins) -> float:
    """Total negative log-likelihood of outcomes (a draw counts as half a win and half a loss)."""
    b = np.minimum(bag, len(intercept) - 1)
    z = intercept[b] + slope[b] * x
    return float(np.sum(turns * np.logaddexp(0.0, z) - wins * z))


def _choose_smoothing(data: Outcomes, x: np.ndarray, size: int, folds: int) -> dict[float, float]:
    """Held-out log loss per turn of each ``SMOOTHING_GRID`` strength (folds of games)."""
    losses = {}
    for strength in SMOOTHING_GRID:
        loss = 0.0
        for fold in range(folds):
            train, test = data.fold != fold, data.fold == fold
            if not test.any() or not train.any():
                continue
            a, c = _fit_curves(data.bag[train], x[train], data.turns[train], data.wins[train], size, strength)
            loss += _log_loss(a, np.maximum(c, 0.0), data.bag[test], x[test], data.turns[test], data.wins[test])
        losses[strength] = loss / float(data.turns.sum())
    return losses


def _empty_bag_mixture(data: Outcomes, x: np.ndarray, folds: int) -> tuple[np.ndarray | None, dict]:
    """The two-curve mixture for the empty bag if it predicts held-out games better than one
    curve (log loss per turn, folds of games), else None; and both losses."""
    at_zero = data.bag == 0
    if not at_zero.any():
        return None, {}
    single_loss = mixture_loss = 0.0
    for fold in range(folds):
        train, test = at_zero & (data.fold != fold), at_zero & (data.fold == fold)
        if not test.any() or not train.any():
            continue
        single = _logistic_newton(np.zeros(2), x[train], data.turns[train], data.wins[train], 25)
        mixture = _fit_mixture(x[train], data.turns[train], data.wins[train], single)
        single_loss += _mixture_loss((0.0, *single, 0.0, 0.0), x[test], data.turns[test], data.wins[test])
        mixture_loss += _mixture_loss(mixture, x[test], data.turns[test], data.wins[test])
    n = float(data.turns[at_zero].sum())
    losses = {"one_curve": round(single_loss / n, 6), "two_curves": round(mixture_loss / n, 6)}
    if not mixture_loss < single_loss:
        return None, losses
    single = _logistic_newton(np.zeros(2), x[at_zero], data.turns[at_zero], data.wins[at_zero], 25)
    return _fit_mixture(x[at_zero], data.turns[at_zero], data.wins[at_zero], single), losses


def fit_win_model(
    runs: list[Path],
    smoothing: float | None = None,
    folds: int = FOLDS,
    outcomes: Outcomes | None = None,
    empty_bag_mixture: bool = True,
) -> WinModel:
    """Fit the model on self-play runs (folders written by ``literaki simulate --out``).

    ``smoothing`` ties neighbouring bag sizes (None: the value of ``SMOOTHING_GRID`` with the
    least log loss on held-out games, ``folds``-fold cross-validation over games).  ``outcomes``
    (from :func:`read_outcomes`) skips reading the runs again.  ``empty_bag_mixture=False``
    keeps one curve at bag 0 (for comparison)."""
    if smoothing is not None and (not math.isfinite(smoothing) or smoothing < 0):
        raise InputError(said("smoothing {value!r}: must be a finite number >= 0", value=smoothing))
    data = outcomes or read_outcomes([Path(r) for r in runs], folds)
    size = int(data.bag.max()) + 1
    x = data.spread / _SPREAD_UNIT
    cross_validation = {}
    if smoothing is None:
        cross_validation = _choose_smoothing(data, x, size, folds)
        smoothing = min(cross_validation, key=cross_validation.get)
    intercept, slope = _fit_curves(data.bag, x, data.turns, data.wins, size, smoothing)
    flat = int(np.sum(slope < 0))
    slope = np.maximum(slope, 0.0)
    tail = np.zeros((3, size))
    mixture, empty_bag_losses = _empty_bag_mixture(data, x, folds) if empty_bag_mixture else (None, {})
    if mixture is not None:
        tail[0, 0], intercept[0], slope[0], tail[1, 0], tail[2, 0] = mixture
    model = WinModel(intercept, slope / _SPREAD_UNIT, tail[0], tail[1], tail[2] / _SPREAD_UNIT)  # per point
    p = np.clip(model.probability(data.spread, data.bag), 1e-300, 1 - 1e-16)
    log_loss = -np.sum(data.wins * np.log(p) + (data.turns - data.wins) * np.log1p(-p)) / data.turns.sum()
    used = data.counts.get("used", {"turns": 0, "games": 0})
    meta = {
        "method": "a logistic curve in the spread per bag size, penalised maximum likelihood (second differences "
        "of neighbouring bag sizes from 1 up tied, smoothing by cross-validation over games); the empty bag "
        "alone, a mixture of two curves (EM) where that predicts held-out games better",
        "runs": [str(Path(r).resolve()) for r in runs],
        "variant": data.counts.get("variant"),
        "rows": used["turns"],
        "games": used["games"],
        "left_out": {use: n for use, n in data.counts.items() if use not in ("used", "variant")},
        "smoothing": smoothing,
        "cross_validation_log_loss": {f"{k:g}": round(v, 6) for k, v in cross_validation.items()},
        "empty_bag_cross_validation_log_loss": empty_bag_losses,
        "negative_slopes_set_to_zero": flat,
        "log_loss": round(float(log_loss), 6),
        "date": date.today().isoformat(),
    }
    return WinModel(model.intercept, model.slope, model.tail_weight, model.tail_intercept, model.tail_slope, meta)


# --------------------------------------------------------------------------- the refit command


def summary(model: WinModel, spreads=SUMMARY_SPREADS, bags=SUMMARY_BAGS) -> str:
    """A short table of the fitted P(win) (rows: bag sizes; columns: spreads) and each bag
    size's midpoint (the spread of an even chance)."""
    lines = ["bag  " + "".join(f"{s:>+8d}" for s in spreads) + "   midpoint"]
    midpoints = model.midpoint()
    for bag in (b for b in bags if b <= model.max_bag):
        cells = "".join(f"{model.probability(float(s), bag):8.3f}" for s in spreads)
        lines.append(f"{bag:>3d}  {cells}   {midpoints[bag]:+8.1f}")
    return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, not argparse's usage block
        self.exit(2, f"{self.prog}: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    """Refit the model on self-play run folders and write it; errors are one line, exit 2."""
    parser = _Parser(
        prog="python -m literaki_cli.montecarlo.winmodel",
        description="Fit the win-probability model on `literaki simulate` run folders.",
    )
    parser.add_argument("runs", nargs="+", type=Path, metavar="RUN_DIR", help="folders written by literaki simulate")
    parser.add_argument("--out", type=Path, required=True, help="the model file to write")
    parser.add_argument("--smoothing", type=float, default=None, help="fixed smoothing (default: cross-validated)")
    args = parser.parse_args(argv)
    try:
        model = fit_win_model(args.runs, smoothing=args.smoothing)
        try:
            model.save(args.out)
        except OSError as e:
            raise InputError(said("{source}: cannot write the model ({error})", source=args.out,
                                  error=e.strerror or str(e))) from None
    except LiterakiError as e:
        sys.stderr.write(f"{parser.prog}: error: {e}\n")
        return e.exit_code
    meta = model.meta
    print(f"{meta['rows']:,} turns of {meta['games']:,} games used; left out: "
          + (", ".join(f"{k} {v['turns']:,} turns" for k, v in meta["left_out"].items()) or "nothing"))  # fmt: skip
    print(f"smoothing {meta['smoothing']:g}; log loss {meta['log_loss']:.4f} per turn; wrote {args.out}")
    print("P(the player who just moved wins) by spread:")
    print(summary(model))
    return 0


if __name__ == "__main__":
    sys.exit(main())
