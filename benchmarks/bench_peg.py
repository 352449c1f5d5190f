"""``solve --peg`` on a battery of pre-endgames from self-play: how long an answer takes.

python benchmarks/bench_peg.py [--lexicon L] [--positions 20] [--bag 1] [--seed 30] [--keep DIR] [--time S]

Plays seeded games of ``mistrz`` against itself (the SJP lexicon) and keeps the position before
the first turn played with ``--bag`` tiles in the bag (one a game, the mover's rack, the opponent's
unknown), up to ``--positions`` of them.  Each is solved by ``literaki solve POS --peg --threads 1
--json`` in a process of its own (one core, the command's defaults: 10 candidates and the pass,
a node budget per ending, every split with 1 tile in the bag and 12 sampled with 2; with ``--time S``
the answer's endings share S seconds instead), after one run not counted (the page cache).  Prints
each position's whole-process time and the search's own, then the median and the slowest, and how
many splits were solved exactly (all of them: the more the endgame search does in the budget, the
more are exact).  To compare with another revision, run this script with ``PYTHONPATH`` set to
that revision's tree.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import LITERAKI, ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

TARGET_SECONDS = 10.0


def battery(lexicon: Path, count: int, bag: int, seed: int, folder: Path) -> list[Path]:
    """CGP files of the positions before the first turn with ``bag`` tiles in the bag."""
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.game import Game
    from literaki_cli.games.players import load_levels, make_players
    from literaki_cli.io.positionio import write_cgp

    lex = Lexicon.open(lexicon)
    variant = load_variant()
    players = make_players(["mistrz", "mistrz"], lex, variant, load_levels())
    found: list[Path] = []
    game_id = 0
    while len(found) < count and game_id < 50 * count:
        game = Game(variant, players, lex.words, seed=seed, game_id=game_id)
        while not game.over:
            if len(game.bag) == bag:
                me = game.current
                position = Position(variant, game.board.copy(), [game.racks[me]],
                                    [game.scores[me], game.scores[1 - me]], game.passes_in_row)  # fmt: skip
                path = folder / f"peg{bag}-{game_id:04d}.cgp"
                path.write_text(write_cgp(position) + "\n", encoding="utf-8")
                found.append(path)
                break
            game.step()
        game_id += 1
    return found


def solve(position: Path, lexicon: Path, seconds: float | None) -> tuple[float, dict]:
    started = time.perf_counter()
    limit = ["--time", str(seconds)] if seconds else []
    done = subprocess.run([*LITERAKI, "solve", str(position), "--peg", "--threads", "1", "--json", "--lexicon",
                           str(lexicon), *limit], capture_output=True, text=True, check=True)  # fmt: skip
    return time.perf_counter() - started, json.loads(done.stdout)["peg"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--bag", type=int, default=1, choices=[1, 2])
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--keep", type=Path, default=None, help="write the battery's CGP files here")
    parser.add_argument("--time", type=float, default=None, help="seconds an answer's endings share (else nodes)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        positions = battery(lexicon, args.positions, args.bag, args.seed, folder)
        print(f"{len(positions)} positions with {args.bag} tile(s) in the bag (mistrz self-play, seed {args.seed})")
        loaded, _ = solve(positions[0], lexicon, args.time)
        print(f"first run (not counted): {loaded:.1f} s; " + (f"--time {args.time:g}" if args.time else "node budgets"))
        walls, searches, exact_splits, all_splits = [], [], 0, 0
        for path in positions:
            wall, peg = solve(path, lexicon, args.time)
            walls.append(wall)
            searches.append(peg["seconds"])
            best = peg["candidates"][0]
            exact = sum(c["exact_splits"] for c in peg["candidates"])
            total = sum(c["splits"] for c in peg["candidates"])
            exact_splits, all_splits = exact_splits + exact, all_splits + total
            print(f"  {path.name}: {wall:5.2f} s (search {peg['seconds']:5.2f} s), {peg['judged']} moves x "
                  f"{peg['splits']} splits{' sampled' if peg['sampled'] else ''}, {peg['endgames']} endgames, "
                  f"best {best['coord'] or '-'} {best['word']} win {best['win_pct']:.1f} %, "
                  f"exact splits {exact}/{total}", flush=True)  # fmt: skip
    print(f"whole process: median {statistics.median(walls):.2f} s, slowest {max(walls):.2f} s; search alone: median "
          f"{statistics.median(searches):.2f} s, slowest {max(searches):.2f} s; within {TARGET_SECONDS:g} s: "
          f"{sum(w <= TARGET_SECONDS for w in walls)}/{len(walls)}; "
          f"exact splits {exact_splits}/{all_splits}")  # fmt: skip


if __name__ == "__main__":
    main()
