"""Whole-process time of ``literaki analyze`` over many games (the static review), with one and
with two workers: games per second.

    python benchmarks/bench_analyze_many.py [--lexicon FILE] [--games 100] [--runs 3] [--folder DIR]

The games: ``literaki simulate --games N --gcg`` (normalny against trudny, seed 28), written once
into ``--folder`` (default: a folder under the system's temporary directory, reused when it
already holds them).  Each run is ``literaki analyze FOLDER --endgame-time 0 --json --workers W``
as a whole process (interpreter, imports, the lexicon, every game, the summary); the runs of
one and two workers are interleaved, after one run not counted (the numba cache warm).
Reported: the machine, the median (min, max) wall time, the games per second, peak RSS.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine, run_process  # noqa: E402

DEFAULT_LEXICON = Path("~/.local/share/literaki/sjp.lexicon").expanduser()


def make_games(folder: Path, games: int, lexicon: Path) -> Path:
    """The folder of ``games`` GCG files (simulated once, reused)."""
    gcg = folder / "run" / "gcg"
    if gcg.is_dir() and len(list(gcg.glob("*.gcg"))) == games:
        return gcg
    subprocess.run([sys.executable, "-m", "literaki_cli", "simulate", "--games", str(games), "--players",
                    "normalny,trudny", "--seed", "28", "--gcg", "--out", str(folder / "run"), "--force", "--lexicon",
                    str(lexicon)], check=True, capture_output=True)  # fmt: skip
    return gcg


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "literaki-bench-analyze-many")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon} (build one: literaki build-lexicon; or give --lexicon)")
    gcg = make_games(args.folder, args.games, args.lexicon)
    print(f"machine: {machine()}")
    print(f"{args.games} games of normalny vs trudny in {gcg}, lexicon {args.lexicon}")
    base = [sys.executable, "-m", "literaki_cli", "analyze", str(gcg), "--endgame-time", "0", "--json", "--lexicon",
            str(args.lexicon)]  # fmt: skip
    _, _, code = run_process([*base, "--workers", "1"])  # warm (not counted)
    if code != 0:
        sys.exit(f"literaki analyze failed with exit code {code}")
    runs: dict[int, list[tuple[float, float, int]]] = {1: [], 2: []}
    for _ in range(args.runs):
        for workers in runs:
            runs[workers].append(run_process([*base, "--workers", str(workers)]))
    medians = {}
    for workers, measured in runs.items():
        walls = [r[0] for r in measured]
        medians[workers] = statistics.median(walls)
        rss = max(r[1] for r in measured)
        print(f"workers {workers}: median {medians[workers]:.2f} s (min {min(walls):.2f}, max {max(walls):.2f}) over "
              f"{args.runs} runs: {args.games / medians[workers]:.1f} games/s; peak RSS {rss:.0f} MB (the parent)")
    print(f"two workers / one: x{medians[1] / medians[2]:.2f}")


if __name__ == "__main__":
    main()
