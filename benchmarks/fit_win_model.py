"""How well the win-probability model predicts held-out games, and what a lookup costs.

Fits the model on the games of folds 1..4 of the runs (``literaki_cli.montecarlo.winmodel``:
a game's fold is fixed by its id) and scores the turns of fold 0, which the fit never saw,
against simpler predictors: a coin (0.5), one logistic curve in the spread for every bag size,
and a curve per bag size fitted without smoothing.  Prints log loss and Brier score per turn,
a calibration table (turns binned by predicted probability: mean prediction against the share
won) overall and per stage of the game, then the time of ``WinModel.probability``.

    python benchmarks/fit_win_model.py /work/runs/gen2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import machine  # noqa: E402
from literaki_cli.montecarlo import winmodel  # noqa: E402

STAGES = ((0, 0), (1, 6), (7, 20), (21, 50), (51, 86))


def subset(data: winmodel.Outcomes, mask: np.ndarray) -> winmodel.Outcomes:
    return replace(
        data, fold=data.fold[mask], bag=data.bag[mask], spread=data.spread[mask], turns=data.turns[mask],
        wins=data.wins[mask], wins_squared=data.wins_squared[mask],
    )  # fmt: skip


def scores(p: np.ndarray, data: winmodel.Outcomes) -> tuple[float, float]:
    """(log loss, Brier score) per turn; a draw is the outcome 1/2."""
    p = np.clip(p, 1e-12, 1 - 1e-12)
    n = data.turns.sum()
    log_loss = -np.sum(data.wins * np.log(p) + (data.turns - data.wins) * np.log1p(-p)) / n
    brier = np.sum(data.turns * p * p - 2 * p * data.wins + data.wins_squared) / n
    return float(log_loss), float(brier)


def calibration(p: np.ndarray, data: winmodel.Outcomes, edges=np.linspace(0, 1, 11)) -> list[str]:
    rows = []
    bins = np.clip(np.digitize(p, edges) - 1, 0, len(edges) - 2)
    for i in range(len(edges) - 1):
        m = bins == i
        n = data.turns[m].sum()
        if n == 0:
            continue
        predicted = np.sum(p[m] * data.turns[m]) / n
        observed = data.wins[m].sum() / n
        half_width = 1.96 * np.sqrt(max(observed * (1 - observed), 1e-9) / n)
        interval = f"{observed:.3f} ± {half_width:.3f}"
        rows.append(f"| {edges[i]:.1f}–{edges[i + 1]:.1f} | {int(n):,} | {predicted:.3f} | {interval} |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=7, help="timing runs (median)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    data = winmodel.read_outcomes(args.runs)
    train, test = subset(data, data.fold != 0), subset(data, data.fold == 0)
    print(f"train: {int(train.turns.sum()):,} turns (folds 1-4); held out: {int(test.turns.sum()):,} turns (fold 0)")

    model = winmodel.fit_win_model(args.runs, outcomes=train)
    print(f"smoothing chosen by cross-validation on the training folds: {model.meta['smoothing']:g}")
    raw = winmodel.fit_win_model(args.runs, smoothing=1e-6, outcomes=train)
    single = winmodel._logistic_newton(np.zeros(2), train.spread / 100, train.turns, train.wins, 25)
    one_curve_at_zero = winmodel.fit_win_model(
        args.runs, smoothing=model.meta["smoothing"], outcomes=train, empty_bag_mixture=False
    )
    predictors = {
        "coin (0.5)": np.full(test.bag.shape, 0.5),
        "one curve for all bag sizes (spread only)": winmodel._logistic(single[0] + single[1] * test.spread / 100),
        "a curve per bag size, unsmoothed (two curves at bag 0)": raw.probability(test.spread, test.bag),
        "a curve per bag size, smoothed, one curve at bag 0": one_curve_at_zero.probability(test.spread, test.bag),
        "shipped method (smoothed, two curves at bag 0)": model.probability(test.spread, test.bag),
    }
    print("\n| predictor | log loss | Brier |\n|---|---|---|")
    for name, p in predictors.items():
        log_loss, brier = scores(p, test)
        print(f"| {name} | {log_loss:.4f} | {brier:.4f} |")
    p = predictors["shipped method (smoothed, two curves at bag 0)"]
    print("\nCalibration on the held-out turns (all stages):\n")
    print("| predicted | turns | mean predicted | won (95 % interval) |\n|---|---|---|---|")
    print("\n".join(calibration(p, test)))
    print("\nPer stage (bag after the move):\n")
    print("| bag | turns | log loss (model) | log loss (one curve) | Brier (model) | Brier (one curve) | worst bin |")
    print("|---|---|---|---|---|---|---|")
    spread_only = predictors["one curve for all bag sizes (spread only)"]
    for low, high in STAGES:
        m = (test.bag >= low) & (test.bag <= high)
        part = subset(test, m)
        (ll, br), (ll1, br1) = scores(p[m], part), scores(spread_only[m], part)
        worst = _worst_bin(p[m], part)
        print(f"| {low}–{high} | {int(part.turns.sum()):,} | {ll:.4f} | {ll1:.4f} | {br:.4f} | {br1:.4f} | {worst} |")

    shipped = winmodel.open_win_model()
    rng = np.random.default_rng(1)
    spreads = rng.normal(0, 60, 100_000)
    bags = rng.integers(0, 87, 100_000)
    vector, scalar = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        shipped.probability(spreads, bags)
        vector.append((time.perf_counter() - start) / spreads.size)
        start = time.perf_counter()
        for s, b in zip(spreads[:20_000].tolist(), bags[:20_000].tolist(), strict=True):
            shipped.probability(s, b)
        scalar.append((time.perf_counter() - start) / 20_000)
    print(f"\nprobability(): {statistics.median(vector) * 1e9:.1f} ns per value over arrays of 100,000; "
          f"{statistics.median(scalar) * 1e9:.0f} ns per call with two numbers (median of {args.repeat})")  # fmt: skip


def _worst_bin(p: np.ndarray, data: winmodel.Outcomes) -> str:
    """The decile of prediction (with at least 200 turns) whose share won is furthest from the prediction."""
    edges = np.linspace(0, 1, 11)
    bins = np.clip(np.digitize(p, edges) - 1, 0, 9)
    worst, text = -1.0, ""
    for i in range(10):
        m = bins == i
        n = data.turns[m].sum()
        if n < 200:
            continue
        predicted, observed = np.sum(p[m] * data.turns[m]) / n, data.wins[m].sum() / n
        if abs(predicted - observed) > worst:
            worst, text = abs(predicted - observed), f"{predicted:.3f} vs {observed:.3f} ({int(n):,})"
    return text


if __name__ == "__main__":
    main()
