"""The 5x5 grid search on the full SJP lexicon: time per grid after warm-up.

    python benchmarks/bench_anagram.py [--lexicon FILE] [--grids N]

Target (issue 6): every word of a grid in at most 50 ms after warm-up.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine, median_p90  # noqa: E402

from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.games.grid5 import draw_grid, find_words, load_grid_rules, rack_anagrams  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--grids", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = Lexicon.open(ensure_lexicon(args.lexicon, Path(tmp)))
        rules = load_grid_rules()
        rng = random.Random(2026)
        grids = [draw_grid(rng, rules.letter_frequencies) for _ in range(args.grids)]
        find_words(grids[0], lexicon.words, rules)  # warm-up (compile or load the cache)
        per_grid, counts = [], []
        for grid in grids:
            times = []
            for _ in range(args.runs):
                t = time.perf_counter()
                words = find_words(grid, lexicon.words, rules)
                times.append(time.perf_counter() - t)
            per_grid.append(statistics.median(times))
            counts.append(len(words))
        med, p90 = median_p90(per_grid)
        print(f"grid search ({args.grids} seeded grids, median of {args.runs} runs each): "
              f"median {med * 1e3:.2f} ms, p90 {p90 * 1e3:.2f} ms, max {max(per_grid) * 1e3:.2f} ms (target 50 ms); "
              f"words per grid {min(counts)}/{int(statistics.median(counts))}/{max(counts)}")  # fmt: skip
        racks = ["żółwia?", "aeiorst", "kot??", "ąęćńśźż"]
        rack_anagrams(racks[0], lexicon.words)
        for rack in racks:
            t = time.perf_counter()
            groups = rack_anagrams(rack, lexicon.words)
            print(f"rack anagrams {rack.upper()}: {(time.perf_counter() - t) * 1e3:.1f} ms, "
                  f"{sum(map(len, groups.values()))} words")  # fmt: skip


if __name__ == "__main__":
    main()
