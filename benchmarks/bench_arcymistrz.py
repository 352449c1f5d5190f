"""How much stronger is ``arcymistrz`` than ``mistrz``, and what does each of its parts add?

python benchmarks/bench_arcymistrz.py --lexicon L [--player arcymistrz] [--games 600] [--workers 2]
                                      [--results FILE.jsonl] [--report-only] [--paired BASE.jsonl]

Plays ``--games`` games of ``--player`` against ``mistrz`` (fixed seeds; game ``i`` is started by
seat ``i % 2``, so each side starts half), each game in one process on one core, and prints the
first player's win rate with its 95 % interval, the mean spread, bingos per game, and the
thinking time per move of each side (CPU seconds of the process, i.e. on one core), with the
pre-endgame's moves apart.  ``--player`` may also be ``arcymistrz-sim`` (arcymistrz without the
pre-endgame: simulation alone) or ``arcymistrz-peg`` (without the simulation: pre-endgame alone),
or ``mistrz`` (mistrz against itself: the baseline of a paired comparison).

``--paired BASE.jsonl`` compares game by game with another run of the same seeds (the baseline,
``--player mistrz``): ``arcymistrz-peg`` is ``mistrz`` until its first pre-endgame move, so its
games without one must end as the baseline's, and the games with one show the pre-endgame's own
effect, free of the luck of the draw before it.  Likewise ``arcymistrz`` paired with an
``arcymistrz-sim`` run: the pre-endgame's effect on top of the simulation.

Every finished game is appended to ``--results`` at once (one JSON line); a run started again
with the same file plays only the games it lacks, so an interrupted run loses nothing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.stats import wilson  # noqa: E402

SEED = 30
OPPONENT = "mistrz"
_STATE: dict = {}


def levels():
    """The shipped levels and the two ablations of arcymistrz."""
    from literaki_cli.games.players import load_levels

    found = load_levels()
    top = found["arcymistrz"]
    found["arcymistrz-sim"] = replace(top, name="arcymistrz-sim", peg_nodes=0)
    found["arcymistrz-peg"] = replace(top, name="arcymistrz-peg", sim_iterations=0)
    return found


def _setup(lexicon: str, player: str) -> None:
    from literaki_cli.analysis.lookahead import level_lookahead
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.players import make_players

    lex = Lexicon.open(Path(lexicon))
    variant = load_variant()
    players = make_players([player, OPPONENT], lex, variant, levels(), lookahead_factory=level_lookahead)
    _STATE.update(lexicon=lex, variant=variant, players=players)


def play(game_id: int) -> dict:
    """Game ``game_id``, with each move's thinking time (CPU seconds) per seat."""
    from literaki_cli.games.game import Game

    players = _STATE["players"]
    game = Game(_STATE["variant"], players, _STATE["lexicon"].words, seed=SEED, game_id=game_id, first=game_id % 2)
    think = [[], []]
    peg = []
    while not game.over:
        seat, bag = game.current, len(game.bag)
        started = time.process_time()
        game.step()
        spent = time.process_time() - started
        think[seat].append(spent)
        if seat == 0 and 1 <= bag <= 2:
            peg.append(spent)
    bingos = [sum(t.bingo for t in game.turns if t.player == seat) for seat in (0, 1)]
    return {"game": game_id, "first": game_id % 2, "scores": game.scores, "bingos": bingos, "think": think,
            "peg": peg}  # fmt: skip


def report(rows: list[dict], player: str) -> None:
    n = len(rows)
    spreads = [r["scores"][0] - r["scores"][1] for r in rows]
    wins = sum(s > 0 for s in spreads) + 0.5 * sum(s == 0 for s in spreads)
    lo, hi = wilson(wins, n)
    print(f"{player} vs {OPPONENT}: {n} games (seed {SEED}), {player} first in {sum(r['first'] == 0 for r in rows)}")
    sd = statistics.stdev(spreads) if n > 1 else 0.0
    print(f"  wins {100 * wins / n:.1f} % (95 % interval {100 * lo:.1f}-{100 * hi:.1f} %), "
          f"mean spread {statistics.mean(spreads):+.1f} (sd {sd:.0f})")  # fmt: skip
    for seat, name in ((0, player), (1, OPPONENT)):
        moves = [t for r in rows for t in r["think"][seat]]
        score = statistics.mean(r["scores"][seat] for r in rows)
        print(f"  {name:<16} mean score {score:6.1f}, bingos per game "
              f"{statistics.mean(r['bingos'][seat] for r in rows):.2f}, thinking {statistics.mean(moves):.3f} s "
              f"per move (median {statistics.median(moves):.3f}, max {max(moves):.2f}), {len(moves)} moves")
    peg = [t for r in rows for t in r["peg"]]
    if peg:
        print(f"  {player}'s moves with 1-2 tiles in the bag: {len(peg)}, median {statistics.median(peg):.2f} s, "
              f"max {max(peg):.2f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--player", default="arcymistrz",
                        choices=["arcymistrz", "arcymistrz-sim", "arcymistrz-peg", "mistrz"])  # fmt: skip
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--results", type=Path, default=None, help="JSON lines of finished games (kept, resumed)")
    parser.add_argument("--report-only", action="store_true", help="only report the games of --results")
    parser.add_argument("--paired", type=Path, default=None, help="a baseline run of the same seeds to compare with")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    results = args.results or Path(f"bench-{args.player}.jsonl")
    done = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    done = [r for r in done if r["game"] < args.games]
    pending = sorted(set(range(args.games)) - {r["game"] for r in done})
    if pending and not args.report_only:
        with tempfile.TemporaryDirectory() as tmp:
            lexicon = ensure_lexicon(args.lexicon, Path(tmp))
            context = multiprocessing.get_context("fork")
            with context.Pool(args.workers, initializer=_setup, initargs=(str(lexicon), args.player)) as pool, \
                    results.open("a") as out:  # fmt: skip
                started = time.perf_counter()
                for k, row in enumerate(pool.imap_unordered(play, pending), 1):
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    done.append(row)
                    if k % 25 == 0:
                        print(f"  {k} of {len(pending)} games, {time.perf_counter() - started:.0f} s", flush=True)
    if done:
        report(sorted(done, key=lambda r: r["game"]), args.player)
    if done and args.paired:
        paired(done, [json.loads(line) for line in args.paired.read_text().splitlines()], args.player)


def paired(rows: list[dict], base: list[dict], player: str) -> None:
    """Game by game against the baseline's game of the same seed: the change in seat 0's result
    (a win 1, a draw 1/2) and spread, over the games where the player's pre-endgame moved and
    over all; the games without such a move must be the baseline's."""
    by_game = {r["game"]: r for r in base}

    def result(r: dict) -> float:
        spread = r["scores"][0] - r["scores"][1]
        return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0

    moved, still = [], 0
    for r in rows:
        b = by_game.get(r["game"])
        if b is None:
            continue
        if r["peg"]:
            moved.append((result(r) - result(b), (r["scores"][0] - r["scores"][1]) - (b["scores"][0] - b["scores"][1])))
        elif r["scores"] != b["scores"]:
            still += 1
    print(f"paired with the baseline: {len(moved)} games with a move of 1-2 tiles in the bag by {player}; "
          f"{still} other games differ from the baseline's (0 expected when the player is the baseline's level "
          "plus the pre-endgame: arcymistrz-peg against mistrz, arcymistrz against arcymistrz-sim)")  # fmt: skip
    if len(moved) > 1:
        for name, values in (("result", [m[0] for m in moved]), ("spread", [m[1] for m in moved])):
            mean, sd = statistics.mean(values), statistics.stdev(values)
            half = 1.96 * sd / len(values) ** 0.5
            print(f"  change in {name} per such game: {mean:+.3f} (95 % interval {mean - half:+.3f} to "
                  f"{mean + half:+.3f}); better {sum(v > 0 for v in values)}, worse {sum(v < 0 for v in values)}")


if __name__ == "__main__":
    main()
