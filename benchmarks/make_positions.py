"""Make the fixed benchmark positions in examples/positions/ by greedy self-play.

    python benchmarks/make_positions.py [--lexicon FILE] [--seed 2026]

Self-play (each side plays its best-scoring move) with a seeded bag gives real-looking boards;
11 of them (an empty board, early, middle and late game) each get three racks drawn from the
tiles not on the board, with 0, 1 and 2 blanks: 33 positions, one CGP file each.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from literaki_cli.analysis.solve import found_move  # noqa: E402
from literaki_cli.engine.board import Board  # noqa: E402
from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.engine.movegen import MoveGenerator  # noqa: E402
from literaki_cli.engine.position import Position, validate  # noqa: E402
from literaki_cli.engine.variant import load_variant  # noqa: E402
from literaki_cli.games.bag import Bag, full_bag, unseen_tiles  # noqa: E402
from literaki_cli.io.positionio import write_position  # noqa: E402

STAGES = [("empty", 0, 0, 1), ("early", 8, 25, 3), ("middle", 30, 60, 4), ("late", 66, 90, 3)]


def greedy_turns(generator, variant, rng):
    """Every turn of one seeded greedy game (each side plays its best-scoring move), before its
    move: (board, racks, scores, mover, passes in a row)."""
    board = Board.for_variant(variant)
    bag = Bag(full_bag(variant), rng)
    racks = [bag.draw(7), bag.draw(7)]
    scores = [0, 0]
    mover, idle = 0, 0
    while idle < 2:
        yield board, racks, scores, mover, idle
        moves = generator.generate(board, racks[mover])
        if not len(moves):
            idle += 1
        else:
            idle = 0
            best = found_move(moves.records[moves.ranked()[0]], 1, board, variant, racks[mover])
            board = board.with_tiles(best.tiles)
            scores[mover] += best.score
            racks[mover] = best.leave + bag.draw(len(best.tiles))
            if not racks[mover]:
                break
        mover = 1 - mover


def self_play(generator, variant, rng, snapshots):
    for board, _, scores, mover, _ in greedy_turns(generator, variant, rng):
        snapshots.append((board.copy(), list(scores), mover))


def rack_with_blanks(unseen: list[str], blanks: int, rng: random.Random) -> str | None:
    letters = [t for t in unseen if t != "?"]
    if unseen.count("?") < blanks or len(letters) < 7 - blanks:
        return None
    return "".join(rng.sample(letters, 7 - blanks)) + "?" * blanks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=ROOT / "examples" / "positions")
    args = parser.parse_args()
    variant = load_variant()
    generator = MoveGenerator(Lexicon.open(args.lexicon), variant)
    rng = random.Random(args.seed)
    snapshots = []
    for _ in range(8):
        self_play(generator, variant, rng, snapshots)
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.cgp"):
        old.unlink()
    number = 0
    for stage, low, high, count in STAGES:
        pool = [s for s in snapshots if low <= len(s[0].tiles()) <= high and not s[0].blanks.any()]
        chosen = [pool[i * len(pool) // count] for i in range(count)] if stage != "empty" else pool[:1]
        for board, scores, mover in chosen:
            for blanks in (0, 1, 2):
                rack = rack_with_blanks(unseen_tiles(variant, board), blanks, rng)
                position = Position(variant, board, [rack, ""], [scores[mover], scores[1 - mover]], 0,
                                    {"lex": "SJP-20260201", "gid": f"bench-{number + 1:02d}"})  # fmt: skip
                validate(position)
                number += 1
                name = args.out / f"{number:02d}-{stage}-{len(board.tiles())}tiles-{blanks}blank.cgp"
                name.write_text(write_position(position, "cgp"), encoding="utf-8")
    print(f"wrote {number} positions to {args.out}")


if __name__ == "__main__":
    main()
