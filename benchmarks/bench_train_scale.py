"""Leave training at scale: time and peak memory of ``leaves train`` over tens of millions of
turns, which it scans lazily with Polars (only the columns it needs, aggregated per leave).

    python benchmarks/bench_train_scale.py [--turns 20000000] [--per-run 1000000] [--runs 3]

The turns are synthetic (no engine would play 20 million turns in a benchmark's time): games of
28 turns between two players, scores 0-99, leaves drawn from 60,000 distinct tile sets, bags
emptying over the game, written as one ``simulate`` run folder per ``--per-run`` turns.  The
aggregation does the same work whatever the values are.  For scale, the peak is set against the
memory the same tables take when read whole (Polars' estimate, summed over the runs).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from common import machine, run_process  # noqa: E402

TURNS_PER_GAME = 28
DISTINCT_LEAVES = 60_000
LETTERS = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż?"


def leave_pool(rng: np.random.Generator) -> list[str]:
    pool = {""}
    while len(pool) < DISTINCT_LEAVES:
        size = int(rng.integers(1, 7))
        pool.add("".join(sorted(rng.choice(list(LETTERS), size))))
    return sorted(pool)


def write_run(folder: Path, turns: int, first_game: int, pool: pl.Series, rng: np.random.Generator) -> None:
    folder.mkdir(parents=True)
    index = np.arange(turns)
    game = first_game + index // TURNS_PER_GAME
    turn = index % TURNS_PER_GAME
    frame = pl.DataFrame({
        "gameID": game, "playerID": np.where(turn % 2 == 0, "p1", "p2"), "turn": turn,
        "score": rng.integers(0, 100, turns), "leave": pool.gather(rng.integers(0, len(pool), turns)),
        "tilesremaining": np.maximum(0, 86 - 7 * turn // 2),
        "kind": np.where(rng.random(turns) < 0.97, "place", "exchange"),
    })  # fmt: skip
    frame.write_parquet(folder / "turns.parquet")
    (folder / "run.json").write_text(json.dumps({"players": ["p1", "p2"], "games": 1, "seed": 1}), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=20_000_000)
    parser.add_argument("--per-run", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3, help="timed trainings (median kept)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    rng = np.random.default_rng(2026)
    pool = pl.Series(leave_pool(rng))
    with tempfile.TemporaryDirectory() as tmp:
        folders = []
        for start in range(0, args.turns, args.per_run):
            folder = Path(tmp) / f"run{len(folders):03d}"
            write_run(folder, min(args.per_run, args.turns - start), start // TURNS_PER_GAME, pool, rng)
            folders.append(folder)
        on_disk = sum((f / "turns.parquet").stat().st_size for f in folders)
        whole = sum(pl.read_parquet(f / "turns.parquet").estimated_size() for f in folders[:1]) * len(folders)
        out = Path(tmp) / "scale.leaves"
        command = [sys.executable, "-m", "literaki_cli", "leaves", "train", *map(str, folders), "--out", str(out)]
        timings = [run_process(command) for _ in range(args.runs)]
        if any(code != 0 for _, _, code in timings):
            raise SystemExit(subprocess.run(command, capture_output=True, text=True).stderr[-2000:])
        report = subprocess.run([*command, "--json"], capture_output=True, text=True, check=True).stdout
        training = json.loads(report)["training"]
    print(f"{args.turns:,} turns in {len(folders)} runs: {on_disk / 2**20:,.0f} MB of Parquet, "
          f"{whole / 2**20:,.0f} MB when read whole")  # fmt: skip
    print(f"leaves train: {statistics.median(t for t, _, _ in timings):.1f} s, "
          f"peak RSS {statistics.median(m for _, m, _ in timings):,.0f} MB (median of {args.runs}); "
          f"{training['turns']:,} turns used, {training['distinct_leaves']:,} distinct leaves")  # fmt: skip


if __name__ == "__main__":
    main()
