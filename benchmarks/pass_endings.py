"""How often do games between the popular-word levels end with every player passing?

Real games almost never end that way; computer levels whose vocabulary is too small do (both
players stuck with letters such as Ź or Ń once the bag is empty).  For every pairing of
latwy / normalny / trudny this plays N seeded games and prints the share ended by passes with
its 95 % Wilson interval, the win % of the stronger level, the mean scores, the main words'
length (share of two-letter words, mean length), the ten most played words, and for the games
ended by passes the tiles left in the bag when the passes began and the letters held then.

python benchmarks/pass_endings.py [--lexicon FILE] [--games N] [--workers N] [--levels FILE]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.simulate import RunConfig, RunResult, run_simulation  # noqa: E402
from literaki_cli.analysis.stats import wilson  # noqa: E402

PAIRINGS = (("trudny", "normalny"), ("normalny", "latwy"), ("trudny", "latwy"))


def pairing_figures(result: RunResult, stronger: str, weaker: str) -> dict:
    """The figures of one pairing's games (see the module docstring)."""
    games = [o.game for o in result.outputs]
    rows = [p for o in result.outputs for p in o.players]
    mine = [r for r in rows if r["player"] == stronger]
    theirs = [r for r in rows if r["player"] == weaker]
    main_words = [t["words"].split(" ")[0].lower() for o in result.outputs for t in o.turns if t["kind"] == "place"]
    passes = sum(g["ended_by"] == "passes" for g in games)
    stuck = [stuck_racks(o.turns) for o in result.outputs if o.game["ended_by"] == "passes"]
    wins = sum(r["won"] for r in mine) + 0.5 * sum(r["draw"] for r in mine)
    return {
        "games": len(games),
        "passes": passes,
        "passes_interval": wilson(passes, len(games)),
        "win": wins / len(mine),
        "means": (sum(r["score"] for r in mine) / len(mine), sum(r["score"] for r in theirs) / len(theirs)),
        "two_letter": sum(len(w) == 2 for w in main_words) / len(main_words),
        "mean_length": sum(map(len, main_words)) / len(main_words),
        "top": Counter(main_words).most_common(10),
        "stuck_bags": Counter(bag for bag, _ in stuck),
        "stuck_letters": Counter(letter for _, racks in stuck for rack in racks for letter in rack.lower()),
        "stuck_racks": sum(len(racks) for _, racks in stuck),
    }


def stuck_racks(turns: list[dict]) -> tuple[int, list[str]]:
    """Of a game ended by passes: the tiles in the bag when its last run of passes began, and the
    rack each player held then."""
    start = len(turns)
    while start and turns[start - 1]["kind"] == "pass":
        start -= 1
    bag = turns[start - 1]["tilesremaining"] if start else -1
    seen: dict[str, str] = {}
    for t in turns[start:]:
        seen.setdefault(t["playerID"], t["rack"])
    return bag, list(seen.values())


def lexicon_line(path: Path) -> str:
    from literaki_cli.engine.lexicon import Lexicon

    meta = Lexicon.open(path).meta
    rule = meta["popular"].get("rule", "word")
    return f"lexicon: {path} ({meta['popular']['word_count']:,} popular words, {rule} Zipf >= " \
           f"{meta['popular']['zipf_threshold']:g})"  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None, help="lexicon file (default: built from the SJP dump)")
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--levels", type=Path, default=None, help="levels file instead of the built-in")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        sys.exit(f"--games {args.games} / --workers {args.workers}: both must be at least 1")
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        print(lexicon_line(lexicon))
        print(f"{args.games} games per pairing, seed {args.seed}, {args.workers} worker(s)"
              + (f", levels {args.levels}" if args.levels else ""))  # fmt: skip
        header = f"{'pairing':<20}{'ended by passes (95 % CI)':>28}{'win % 1st':>11}{'mean scores':>14}"
        print(header + f"{'2-letter':>10}{'length':>8}{'seconds':>9}")
        tops = []
        for stronger, weaker in PAIRINGS:
            config = RunConfig(players=[stronger, weaker], games=args.games, seed=args.seed, lexicon=str(lexicon),
                               levels=str(args.levels) if args.levels else None)  # fmt: skip
            started = time.perf_counter()
            result = run_simulation(config, args.workers, None)
            seconds = time.perf_counter() - started
            f = pairing_figures(result, stronger, weaker)
            lo, hi = f["passes_interval"]
            share = f"{100 * f['passes'] / f['games']:.1f} % ({100 * lo:.1f}–{100 * hi:.1f})"
            means = f"{f['means'][0]:.0f} / {f['means'][1]:.0f}"
            print(f"{stronger + ' vs ' + weaker:<20}{share:>28}{100 * f['win']:>10.1f}%{means:>14}"
                  f"{100 * f['two_letter']:>9.1f}%{f['mean_length']:>8.2f}{seconds:>9.1f}")  # fmt: skip
            tops.append((f"{stronger} vs {weaker}", f["top"], f))
        print("most played main words:")
        for name, top, _ in tops:
            print(f"  {name:<20}" + ", ".join(f"{w} {c}" for w, c in top))
        print("games ended by passes: tiles in the bag when the passes began; letters the players held then:")
        for name, _, f in tops:
            bags = ", ".join(f"{bag}: {n}" for bag, n in sorted(f["stuck_bags"].items())) or "none"
            held = sum(f["stuck_letters"].values())
            letters = ", ".join(f"{ch} {100 * n / held:.0f} %" for ch, n in f["stuck_letters"].most_common(6))
            tiles = f"{held / f['stuck_racks']:.1f} tiles per rack; " if f["stuck_racks"] else ""
            print(f"  {name:<20}bag {bags}; {tiles}{letters}")


if __name__ == "__main__":
    main()
