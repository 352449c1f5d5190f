"""Self-play speed: games per second on one core and with two workers (full SJP lexicon).

    python benchmarks/bench_simulate.py [--lexicon FILE] [--games N]

Target (issue 5): at least 10 games/s per core for mistrz vs mistrz.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.simulate import RunConfig, run_simulation  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        print(f"{'players':<20}{'workers':>8}{'games/s (median)':>18}{'turns/game':>12}")
        for players in (["mistrz", "mistrz"], ["trudny", "trudny"]):
            for workers in (1, 2):
                config = RunConfig(players=players, games=args.games, seed=2026, lexicon=str(lexicon))
                rates, turns = [], []
                for _ in range(args.runs):
                    result = run_simulation(config, workers, None)
                    rates.append(len(result.outputs) / result.seconds)
                    turns.append(statistics.mean(len(o.turns) for o in result.outputs))
                print(f"{' vs '.join(players):<20}{workers:>8}{statistics.median(rates):>18.1f}"
                      f"{statistics.mean(turns):>12.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
