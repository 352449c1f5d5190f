"""Are the computer levels ordered?  Head-to-head win rates with 95 % intervals and p-values.

python benchmarks/levels_ladder.py [--lexicon FILE] [--games N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.simulate import RunConfig, run_simulation  # noqa: E402
from literaki_cli.analysis.stats import p_value, wilson  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        print(f"{'match':<24}{'games':>7}{'win % of the first':>20}{'95 % CI':>18}{'p-value':>10}{'mean scores':>16}")
        for stronger, weaker in (("trudny", "normalny"), ("normalny", "latwy"), ("trudny", "latwy"),
                                 ("mistrz", "trudny")):  # fmt: skip
            config = RunConfig(players=[stronger, weaker], games=args.games, seed=7, lexicon=str(lexicon))
            result = run_simulation(config, args.workers, None)
            rows = [p for o in result.outputs for p in o.players]
            mine = [r for r in rows if r["player"] == stronger]
            theirs = [r for r in rows if r["player"] == weaker]
            wins = sum(r["won"] for r in mine) + 0.5 * sum(r["draw"] for r in mine)
            lo, hi = wilson(wins, len(mine))
            means = (
                f"{sum(r['score'] for r in mine) / len(mine):.0f} / {sum(r['score'] for r in theirs) / len(theirs):.0f}"
            )
            interval = f"{100 * lo:.1f}–{100 * hi:.1f}"
            print(f"{stronger + ' vs ' + weaker:<24}{len(mine):>7}{100 * wins / len(mine):>19.1f}%"
                  f"{interval:>18}{p_value(wins, len(mine), 0.5):>10.1e}{means:>16}")  # fmt: skip


if __name__ == "__main__":
    main()
