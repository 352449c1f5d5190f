"""Equity: a leave-valuing level against a greedy player, and self-play speed with leaves on.

    python benchmarks/bench_equity.py match [--leaves FILE] [--games 2000] [--seed 1] [--workers 2]
                                            [--player mistrz] [--against greedy] [--levels FILE]
    python benchmarks/bench_equity.py speed [--leaves FILE] [--games 200] [--runs 3]

``match`` plays ``--player`` (default mistrz: best equity with the leave values) against
``--against`` (default ``greedy``: the whole lexicon, always the top score, never exchanging
by choice, ``leaves = "none"``), seats alternating, fixed seeds, and prints the win share with
its 95 % Wilson interval (a draw counts half), the mean final spread with its 95 % interval,
mean scores, bingos and exchanges per game.  ``speed`` times mistrz vs mistrz on one core.

Targets (issue 13): wins >= 60 % with the interval above 55 %, spread >= +25 per game over
2,000 games; >= 50 games/s on one core with leaves on.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.simulate import RunConfig, run_simulation  # noqa: E402
from literaki_cli.analysis.stats import wilson  # noqa: E402

BUILTIN_LEVELS = Path(__file__).resolve().parent.parent / "literaki_cli" / "games" / "levels.toml"
#: The greedy opponent of the targets, added to the built-in levels for the match.
GREEDY_LEVEL = """
[greedy]
title = "Greedy"
vocabulary = "all"
quantile = [0, 0]          # always the top score
exchange_below = -100000   # never exchanges by choice (only with no legal move)
keep = ""
keep_max = 0
leaves = "none"
"""


def levels_file(folder: Path, extra: Path | None) -> Path:
    """The built-in levels plus the greedy one (or the user's levels file as given)."""
    if extra is not None:
        return extra
    path = folder / "levels.toml"
    path.write_text(BUILTIN_LEVELS.read_text("utf-8") + GREEDY_LEVEL, encoding="utf-8")
    return path


def match(args: argparse.Namespace, lexicon: Path, folder: Path) -> dict:
    levels = levels_file(folder, args.levels)
    config = RunConfig(
        players=[args.player, args.against], games=args.games, seed=args.seed, lexicon=str(lexicon),
        levels=str(levels), leaves=str(args.leaves.resolve()) if args.leaves else None,
    )  # fmt: skip
    result = run_simulation(config, args.workers, None)
    wins = spreads = 0.0
    spread_list, mine, theirs, bingos, exchanges, pass_ends = [], [], [], [], [], 0
    for output in result.outputs:
        by_level = {p["level"]: p for p in output.players}
        me, other = by_level[args.player], by_level[args.against]
        spread_list.append(me["score"] - other["score"])
        wins += 1.0 if me["score"] > other["score"] else 0.5 if me["score"] == other["score"] else 0.0
        mine.append(me["score"])
        theirs.append(other["score"])
        bingos.append((me["bingos"], other["bingos"]))
        exchanges.append((me["exchanges"], other["exchanges"]))
        pass_ends += output.game.get("ended_by") == "passes"
    n = len(spread_list)
    spreads = statistics.mean(spread_list)
    half = 1.96 * statistics.stdev(spread_list) / math.sqrt(n) if n > 1 else float("nan")
    lo, hi = wilson(wins, n)
    return {
        "games": n, "win_pct": 100 * wins / n, "win_ci": (100 * lo, 100 * hi), "spread": spreads,
        "spread_ci": (spreads - half, spreads + half), "score": statistics.mean(mine),
        "opponent_score": statistics.mean(theirs), "bingos": statistics.mean(b for b, _ in bingos),
        "opponent_bingos": statistics.mean(b for _, b in bingos), "exchanges": statistics.mean(e for e, _ in exchanges),
        "opponent_exchanges": statistics.mean(e for _, e in exchanges), "ended_by_passes": pass_ends,
        "seconds": result.seconds,
    }  # fmt: skip


def print_match(args: argparse.Namespace, r: dict) -> None:
    print(f"{args.player} vs {args.against}, {r['games']} games, seed {args.seed}, leaves {args.leaves or 'default'}")
    print(f"  wins     {r['win_pct']:.1f} %  (95 % interval {r['win_ci'][0]:.1f} - {r['win_ci'][1]:.1f} %)")
    print(f"  spread   {r['spread']:+.1f}  (95 % interval {r['spread_ci'][0]:+.1f} .. {r['spread_ci'][1]:+.1f})")
    print(f"  scores   {r['score']:.1f} vs {r['opponent_score']:.1f}")
    print(f"  bingos   {r['bingos']:.2f} vs {r['opponent_bingos']:.2f} per game")
    print(f"  exchanges {r['exchanges']:.2f} vs {r['opponent_exchanges']:.2f} per game")
    print(f"  ended by passes: {r['ended_by_passes']}; {r['games'] / r['seconds']:.1f} games/s")


def speed(args: argparse.Namespace, lexicon: Path) -> None:
    print(f"{'players':<18}{'leaves':<10}{'games/s (median, 1 core)':>26}")
    for label, leaves_none in (("on", False), ("off", True)):
        with tempfile.TemporaryDirectory() as tmp:
            levels = None
            if leaves_none:
                text = BUILTIN_LEVELS.read_text("utf-8")
                levels = Path(tmp) / "levels.toml"
                levels.write_text(text.replace('leaves = "default"', 'leaves = "none"'), encoding="utf-8")
            config = RunConfig(
                players=["mistrz", "mistrz"], games=args.games, seed=2026, lexicon=str(lexicon),
                levels=str(levels) if levels else None, leaves=str(args.leaves.resolve()) if args.leaves else None,
            )  # fmt: skip
            rates = []
            for _ in range(args.runs):
                result = run_simulation(config, 1, None)
                rates.append(len(result.outputs) / result.seconds)
            print(f"{'mistrz vs mistrz':<18}{label:<10}{statistics.median(rates):>26.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["match", "speed"])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--leaves", type=Path, default=None)
    parser.add_argument("--levels", type=Path, default=None, help="levels file holding both players")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--player", default="mistrz")
    parser.add_argument("--against", default="greedy")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        if args.what == "match":
            args.games = args.games or 2000
            print_match(args, match(args, lexicon, Path(tmp)))
        else:
            args.games = args.games or 200
            speed(args, lexicon)


if __name__ == "__main__":
    main()
