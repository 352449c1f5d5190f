"""Exact endgames: time to solve and spread gained over greedy play, on endgames from self-play.

    python benchmarks/bench_endgame.py [--lexicon FILE] [--positions 200] [--cap 120] [--seed 2026]
                                       [--keep 5] [--play-cap SECONDS] [--json FILE]

Positions: seeded greedy self-play on the real lexicon (each side plays its best-scoring move, a
pass when it has none), taken the moment a move empties the bag with both racks holding 7 tiles
(games where that does not happen are skipped); the player to move is the one after that move.
The same seed gives the same positions.

Per position, on one core with a fresh solver (an empty transposition table): the time of one
``solve`` as ``literaki solve --endgame`` makes it (the ``--keep`` best first moves valued exactly
and the principal variation), capped at ``--cap`` seconds; a position not solved exactly within
the cap counts as not solved, its time as more than the cap.  A throwaway solve first brings the
lexicon into the page cache.

Then each endgame is played out twice against a greedy opponent (best score; a pass when it has
no move): (A) the player to move plays the solver's best move each turn (a new solve each turn,
``keep=1``, no line, capped at ``--play-cap``, by default ``--cap``), (B) it plays greedy too.
The end rules apply: going out gains twice the opponent's leftover value in spread; after 4
passes in a row each player loses their own leftovers (a blank counts 0).  Reported: the mean
spread gained per endgame, A - B, with its 95 % interval and how often A beats, ties and trails
B, and the exact value - B over the positions solved.

Targets (issue): median <= 2 s, p90 <= 20 s to solve exactly on one core (nodes/s quoted);
the mean spread gained over greedy over >= 200 positions.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine, median_p90  # noqa: E402

sys.path.insert(0, str(ROOT))
from literaki_cli.analysis.stats import mean_ci  # noqa: E402
from literaki_cli.endgame.solver import PASSES_TO_END, TIMED_TABLE_BITS, EndgameResult, EndgameSolver  # noqa: E402
from literaki_cli.engine.board import Board  # noqa: E402
from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.engine.move import Tile, rack_needs, take_from_rack  # noqa: E402
from literaki_cli.engine.movegen import SCORE, MoveGenerator, record_tiles  # noqa: E402
from literaki_cli.engine.position import Position, validate  # noqa: E402
from literaki_cli.engine.variant import Variant, load_variant  # noqa: E402
from literaki_cli.errors import LiterakiError  # noqa: E402
from literaki_cli.games.bag import Bag, full_bag  # noqa: E402
from literaki_cli.io.positionio import write_position  # noqa: E402

#: Self-play games tried per position asked for before giving up (about one game in five ends with
#: the bag emptied by a move that draws exactly the last tiles).
GAMES_PER_POSITION = 20
#: The slowest positions listed.
SLOWEST = 5
#: Node budget of the throwaway solve that brings the lexicon into the page cache.
WARM_UP_NODES = 20_000

#: A move: the tiles laid and its score; None is a pass.
Move = tuple[list[Tile], int] | None
#: Chooses a move for (board, rack of the side to move, the other rack, passes in a row).
Chooser = Callable[[Board, str, str, int], Move]


@dataclass
class Endgame:
    game: int  # the self-play game's seed
    board: Board
    racks: tuple[str, str]  # the player to move first
    scores: tuple[int, int]  # the same order
    cgp: str


# ----------------------------------------------------------------------------- the positions


def greedy_move(generator: MoveGenerator, board: Board, rack: str) -> Move:
    """The best-scoring placement (ties in ``solve``'s listing order), None when there is none."""
    moves = generator.generate(board, rack)
    if not len(moves):
        return None
    record = moves.records[moves.ranked()[0]]
    tiles, _ = record_tiles(record)
    return tiles, int(record[SCORE])


def endgame_of_game(generator: MoveGenerator, variant: Variant, game: int) -> Endgame | None:
    """Greedy self-play until a move empties the bag; the endgame then if both racks are full."""
    rng = random.Random(game)
    board = Board.for_variant(variant)
    bag = Bag(full_bag(variant), rng)
    racks = [bag.draw(variant.rack_size), bag.draw(variant.rack_size)]
    scores = [0, 0]
    mover, passes = 0, 0
    while passes < PASSES_TO_END:
        move = greedy_move(generator, board, racks[mover])
        if move is None:
            passes += 1
        else:
            passes = 0
            tiles, score = move
            board = board.with_tiles(tiles)
            scores[mover] += score
            leave, _ = take_from_rack(rack_needs(tiles), racks[mover])
            racks[mover] = leave + bag.draw(len(tiles))
            if not bag:
                if any(len(rack) != variant.rack_size for rack in racks):
                    return None
                to_move = 1 - mover
                position = Position(variant, board, [racks[to_move], racks[mover]],
                                    [scores[to_move], scores[mover]], 0,
                                    {"lex": "SJP-20260201", "gid": f"endgame-{game}"})  # fmt: skip
                validate(position)
                return Endgame(game, board, (racks[to_move], racks[mover]), (scores[to_move], scores[mover]),
                               write_position(position, "cgp").strip())  # fmt: skip
        mover = 1 - mover
    return None


def make_endgames(generator: MoveGenerator, variant: Variant, count: int, seed: int) -> list[Endgame]:
    """``count`` endgames from self-play games seeded ``seed * 100_000 + 0, 1, ...``."""
    found = []
    for game in range(seed * 100_000, seed * 100_000 + count * GAMES_PER_POSITION):
        endgame = endgame_of_game(generator, variant, game)
        if endgame is not None:
            found.append(endgame)
            if len(found) == count:
                return found
    sys.exit(f"only {len(found)} endgames with two full racks in {count * GAMES_PER_POSITION} games")


# ----------------------------------------------------------------------------- the play-outs


def battery(path: Path | None, positions: int, seed: int) -> tuple[Lexicon, Variant, MoveGenerator, list, float]:
    """(the lexicon, the variant, a generator, the ``positions`` endgames of ``seed``, the seconds
    they took to make); exits naming the lexicon when it cannot be opened."""
    try:
        lexicon = Lexicon.open(path)
    except (LiterakiError, OSError) as error:
        sys.exit(f"--lexicon {path}: {error}")
    variant = load_variant()
    generator = MoveGenerator(lexicon, variant)
    started = time.perf_counter()
    endgames = make_endgames(generator, variant, positions, seed)
    return lexicon, variant, generator, endgames, time.perf_counter() - started


def play_out(variant: Variant, board: Board, racks: tuple[str, str], first: Chooser, second: Chooser) -> int:
    """The spread change to the end of the game for the player to move (holding ``racks[0]``),
    who chooses by ``first``, the opponent by ``second``; the end rules applied."""
    hands = list(racks)
    choosers = (first, second)
    spread, side, passes = 0, 0, 0
    while True:
        sign = 1 if side == 0 else -1
        move = choosers[side](board, hands[side], hands[1 - side], passes)
        if move is None:
            passes += 1
            if passes >= PASSES_TO_END:
                return spread - variant.rack_value(hands[0]) + variant.rack_value(hands[1])
        else:
            passes = 0
            tiles, score = move
            board = board.with_tiles(tiles)
            spread += sign * score
            hands[side], missing = take_from_rack(rack_needs(tiles), hands[side])
            if missing:
                raise RuntimeError(f"move {tiles} needs {missing!r} not on rack {hands[side]!r}")
            if not hands[side]:
                return spread + sign * 2 * variant.rack_value(hands[1 - side])
        side = 1 - side


class SolverChooser:
    """The solver's best move each turn (keep=1, no line, capped); notes whether every solve was exact."""

    def __init__(self, solver: EndgameSolver, cap: float) -> None:
        self.solver = solver
        self.cap = cap
        self.all_exact = True
        self.solves = 0

    def __call__(self, board: Board, rack: str, other: str, passes: int) -> Move:
        result = self.solver.solve(board, (rack, other), passes, seconds=self.cap, keep=1, line=False)
        self.solves += 1
        self.all_exact &= result.exact
        return None if result.best.is_pass else (result.best.tiles, result.best.score)


# ----------------------------------------------------------------------------- the report


def seconds_text(value: float, cap: float) -> str:
    return f"> {cap:g} s" if math.isinf(value) else f"{value:.2f} s"


def timed_solve(solver: EndgameSolver, endgame: Endgame, cap: float, keep: int) -> tuple[EndgameResult, float]:
    started = time.perf_counter()
    result = solver.solve(endgame.board, endgame.racks, 0, seconds=cap, keep=keep)
    return result, time.perf_counter() - started


def report(rows: list[dict], cap: float) -> None:
    times = [r["seconds"] if r["exact"] else math.inf for r in rows]
    median, p90 = median_p90(times)
    solved = [r for r in rows if r["exact"]]
    total_seconds = sum(r["seconds"] for r in rows)
    total_nodes = sum(r["nodes"] for r in rows)
    print(f"\nsolve exactly (cap {cap:g} s): solved {len(solved)}/{len(rows)}; median {seconds_text(median, cap)}, "
          f"p90 {seconds_text(p90, cap)}, max {seconds_text(max(times), cap)} "
          "(targets: median <= 2 s, p90 <= 20 s)")  # fmt: skip
    print(f"nodes: {total_nodes:,} in {total_seconds:.1f} s = {total_nodes / total_seconds:,.0f} nodes/s overall; "
          f"per position median {statistics.median(r['nodes'] / r['seconds'] for r in rows):,.0f} nodes/s")  # fmt: skip
    print(f"slowest {min(SLOWEST, len(rows))}:")
    for r in sorted(rows, key=lambda r: (r["exact"], -r["seconds"]))[:SLOWEST]:
        state = "exact" if r["exact"] else "NOT exact"
        print(f"  game {r['game']}: {r['racks'][0].upper():7} vs {r['racks'][1].upper():7} {r['seconds']:7.2f} s "
              f"{r['nodes']:>13,} nodes  {state}, value {r['value']:+d}")  # fmt: skip
    gains = [r["solver_spread"] - r["greedy_spread"] for r in rows]
    mean, low, high = mean_ci(gains)
    interval = f" (95 % interval {low:+.2f} .. {high:+.2f})" if low is not None else ""
    better = sum(g > 0 for g in gains)
    equal = sum(g == 0 for g in gains)
    print(f"\nagainst a greedy opponent, solver (A) vs greedy (B) for the player to move, {len(rows)} endgames:")
    print(f"  mean spread gained per endgame, A - B: {mean:+.2f}{interval}")
    print(f"  A > B {better}, A = B {equal}, A < B {len(gains) - better - equal}")
    not_exact = sum(not r["solver_all_exact"] for r in rows)
    print(f"  A: {sum(r['solver_solves'] for r in rows)} solves in {sum(r['solver_seconds'] for r in rows):.0f} s; "
          f"{not_exact} of the {len(rows)} play-outs had a solve cut by the cap")  # fmt: skip
    exact_gains = [r["value"] - r["greedy_spread"] for r in solved]
    if exact_gains:
        print(f"  mean exact value - B over the {len(solved)} solved: {statistics.fmean(exact_gains):+.2f}")
    fully_exact = [r for r in solved if r["solver_all_exact"]]
    below = sum(r["solver_spread"] < r["value"] for r in fully_exact)
    print(f"  check: A below the exact value (impossible when every solve of A is exact): {below} "
          f"of {len(fully_exact)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=None, help="default: the standard lexicon path")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--cap", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", type=int, default=5, help="first moves valued exactly in the timed solve")
    parser.add_argument("--play-cap", type=float, default=None, help="seconds per solve of play-out A [default: --cap]")
    parser.add_argument("--json", type=Path, default=None, help="write the per-position rows here")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error(f"--positions {args.positions}: at least 1")
    if not args.cap > 0:
        parser.error(f"--cap {args.cap}: must be above 0")
    if args.play_cap is not None and not args.play_cap > 0:
        parser.error(f"--play-cap {args.play_cap}: must be above 0")
    if args.keep < 1:
        parser.error(f"--keep {args.keep}: at least 1")
    if args.seed < 0:
        parser.error(f"--seed {args.seed}: must be 0 or more")
    play_cap = args.play_cap or args.cap
    print(machine())
    lexicon, variant, generator, endgames, seconds = battery(args.lexicon, args.positions, args.seed)
    print(f"{len(endgames)} endgames from self-play (seed {args.seed}) in {seconds:.0f} s; "
          f"one core, cap {args.cap:g} s, keep {args.keep}, play-out A capped at {play_cap:g} s a solve",
          flush=True)  # fmt: skip

    EndgameSolver(lexicon, variant).solve(endgames[0].board, endgames[0].racks, nodes=WARM_UP_NODES)  # page cache
    rows = []
    for number, endgame in enumerate(endgames, 1):
        # an empty table: each position from scratch, as `solve --endgame` searches it
        solver = EndgameSolver(lexicon, variant, table_bits=TIMED_TABLE_BITS)
        result, seconds = timed_solve(solver, endgame, args.cap, args.keep)
        solving = SolverChooser(solver, play_cap)
        play_started = time.perf_counter()
        greedy: Chooser = lambda board, rack, _other, _passes: greedy_move(generator, board, rack)  # noqa: E731
        solver_spread = play_out(variant, endgame.board, endgame.racks, solving, greedy)
        play_seconds = time.perf_counter() - play_started
        greedy_spread = play_out(variant, endgame.board, endgame.racks, greedy, greedy)
        best = result.best
        rows.append({
            "game": endgame.game, "racks": list(endgame.racks), "scores": list(endgame.scores),
            "tiles_on_board": len(endgame.board.tiles()), "cgp": endgame.cgp,
            "exact": result.exact, "seconds": round(seconds, 4), "nodes": result.nodes, "depth": result.depth,
            "value": result.value, "best": {"coord": best.coord, "word": best.word, "score": best.score},
            "solver_spread": solver_spread, "solver_solves": solving.solves, "solver_all_exact": solving.all_exact,
            "solver_seconds": round(play_seconds, 3),
            "greedy_spread": greedy_spread,
        })  # fmt: skip
        print(f"  {number:3}/{len(endgames)} game {endgame.game}: {endgame.racks[0].upper():7} vs "
              f"{endgame.racks[1].upper():7} {seconds:7.2f} s {result.nodes:>12,} nodes "
              f"{'exact' if result.exact else 'NOT exact'} ({result.depth} plies) value {result.value:+4d}; "
              f"A {solver_spread:+4d} ({solving.solves} solves, {play_seconds:.0f} s), B {greedy_spread:+4d}",
              flush=True)  # fmt: skip
    report(rows, args.cap)
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"per-position rows: {args.json}")


if __name__ == "__main__":
    main()
