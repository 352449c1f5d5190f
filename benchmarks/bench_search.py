"""The search at engine speed (issue 26): the best move, simulation, self-play and batch, measured at
two revisions in one run.

    python benchmarks/bench_search.py --base REV [--lexicon FILE] [--rounds 3] [--positions 1000]
                                      [--only best,sim,selfplay,batch]

REV is checked out into a temporary git worktree; both trees are measured in fresh processes by
turns (base, current, base, current, ...), so that both see the same machine, and the median over
rounds is printed with the ratio current / base.  Every figure is on one core:

* **best**: the best move by equity with leaves (``Equity.for_rack`` + ``MoveGenerator.best``) on
  ``--positions`` mid-game positions (20-80 tiles on the board) of seeded greedy self-play, each
  with the rack it had (blanks as they come); per position the median of 3 runs; the median and
  mean over positions, and the mean by number of blanks.
* **sim**: ``solve --sim`` in-process on the mid-game example positions (examples/positions/
  *-middle-*): 10 candidates, 2 plies, 64 iterations, one worker: candidate-iterations per second
  (the median over the positions).
* **selfplay**: ``mistrz`` against ``mistrz`` with its endgame search off (a levels file with
  ``endgame_nodes = 0``: the middle game is measured), 40 games: games per second.
* **batch**: ``literaki solve --batch`` as a whole process on 1,200 self-play positions (top 20,
  JSON, one worker): positions per second.

Besides the ratio of the medians, the median of the rounds' own ratios is printed: steadier where
the machine's speed drifts between rounds (use more rounds for the best move alone: a round of it
takes seconds).  Targets (issue 40, the Rust core, against 217838c): best median and mean <= 0.25x
the base, with one blank <= 0.3x; sim >= 4x; self-play >= 4x; batch >= 500 positions/s.  Measured
(AMD EPYC, 2 cores, 5 rounds, 400 positions): best median 276 -> 79 us (x0.29; per round x0.28),
mean 445 -> 131 (x0.30), one blank 1,604 -> 433 (x0.27); sim 865 -> 2,907 candidate-iterations/s
(x3.36); self-play 52.8 -> 79.8 games/s (x1.51; per round x1.65); batch 455 -> 542 positions/s.
Later (one walk a search, a hash index of the leave keys; 9 rounds of best, 3 of sim and
self-play): best median 250.6 -> 69.4 us (x0.28; per round x0.26), mean x0.29 (x0.28), one blank
x0.26 (x0.25); sim 922 -> 3,374 (x3.66); self-play 56.3 -> 104.4 games/s (x1.85).  After issue
41 and a simulation round's answers taken a column at a time (5 rounds of everything): best median
217.0 -> 45.6 us (x0.21), mean 331.4 -> 79.6 (x0.24), one blank 1,192 -> 284 (x0.24); sim 1,199
-> 5,143 (x4.29); self-play 72.0 -> 150.5 games/s (x2.09); batch 653 -> 978 positions/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, base_worktree, build_core, machine  # noqa: E402

#: Runs inside the tree under test (on PYTHONPATH): prints one JSON object of figures.
PROBE = r"""
import json, statistics, sys, time
from pathlib import Path
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.movegen import MoveGenerator, warm_up
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.io.positionio import load_position, read_cgp

task, positions_file, lexicon_path, levels_file = sys.argv[1:5]
lexicon = Lexicon.open(Path(lexicon_path))
out = {}
if task == "warm-up":  # compile every kernel the tasks use: a best move, a short simulation, one game
    from literaki_cli.analysis.simulate import RunConfig, run_simulation
    from literaki_cli.montecarlo.settings import SimSettings
    from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates
    from literaki_cli.montecarlo.winmodel import open_win_model
    row = json.loads(Path(positions_file).read_text(encoding="utf-8").splitlines()[0])
    position = read_cgp(row["cgp"], None, "bench")
    equity = Equity(open_leaves(), position.variant)
    MoveGenerator(lexicon, position.variant).best(position.board, position.rack, equity.for_rack(position.rack, 50))
    sim = SimPosition.of(position, position.rack)
    simulate_candidates(sim, lexicon, equity, open_win_model(), SimSettings(2, 2, 2, 1, 1))
    run_simulation(RunConfig(players=["mistrz", "mistrz"], games=1, seed=1, lexicon=lexicon_path, levels=levels_file),
                   1, None)
elif task == "best":
    lines = [json.loads(line) for line in Path(positions_file).read_text(encoding="utf-8").splitlines()]
    positions = [(read_cgp(row["cgp"], None, "bench"), row["bag"]) for row in lines]
    variant = positions[0][0].variant
    generator = MoveGenerator(lexicon, variant)
    warm_up(generator)
    equity = Equity(open_leaves(), variant)
    times, blanks = [], []
    for position, bag in positions:
        rack = position.rack
        generator.best(position.board, rack, equity.for_rack(rack, bag))  # the first call may compile
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            generator.best(position.board, rack, equity.for_rack(rack, bag))
            runs.append(time.perf_counter() - started)
        times.append(statistics.median(runs) * 1e6)
        blanks.append(rack.count("?"))
    out["best_median_us"] = statistics.median(times)
    out["best_mean_us"] = statistics.fmean(times)
    for b in (0, 1, 2):
        chosen = [t for t, n in zip(times, blanks) if n == b]
        out[f"best_mean_us_{b}_blanks"] = statistics.fmean(chosen) if chosen else None
        out[f"positions_{b}_blanks"] = len(chosen)
elif task == "sim":
    from literaki_cli.montecarlo.settings import SimSettings
    from literaki_cli.montecarlo.simulation import SimPosition, simulate_candidates
    from literaki_cli.montecarlo.winmodel import open_win_model
    paths = sorted(Path(positions_file).glob("*-middle-*.cgp"))
    loaded = [load_position(str(p)) for p in paths]
    equity = Equity(open_leaves(), loaded[0].variant)
    model = open_win_model()
    def rate(position, iterations, candidates):
        sim = SimPosition.of(position, position.rack)
        result = simulate_candidates(sim, lexicon, equity, model, SimSettings(iterations, candidates, 2, 7, 1))
        return result.candidate_iterations / result.seconds
    rate(loaded[0], 4, 2)
    out["sim_cand_iter_per_s"] = statistics.median(rate(p, 64, 10) for p in loaded)
elif task == "selfplay":
    from literaki_cli.analysis.simulate import RunConfig, run_simulation
    def games_per_s(games):
        config = RunConfig(players=["mistrz", "mistrz"], games=games, seed=2026, lexicon=lexicon_path,
                           levels=levels_file)
        result = run_simulation(config, 1, None)
        return len(result.outputs) / result.seconds
    games_per_s(1)
    out["selfplay_games_per_s"] = games_per_s(40)
loaded = [getattr(m, "__file__", None) for name, m in sys.modules.items() if name.startswith("literaki_cli")]
out["files"] = [f for f in loaded if f]
try:
    from literaki_cli import _core
    out["core_build"] = _core.BUILD
except ImportError:
    out["core_build"] = None
print(json.dumps(out))
"""


def mid_game_positions(lexicon: Path, count: int, seed: int) -> list[dict]:
    """``count`` mid-game positions of seeded greedy self-play (current tree), with their racks."""
    from make_positions import greedy_turns

    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.games.bag import unseen_tiles
    from literaki_cli.io.positionio import write_position

    variant = load_variant()
    generator = MoveGenerator(Lexicon.open(lexicon), variant)
    rng = random.Random(seed)
    rows: list[dict] = []
    while len(rows) < count:
        for board, racks, scores, mover, idle in greedy_turns(generator, variant, rng):
            on_board = int((board.letters != 0).sum())
            if 20 <= on_board <= 80 and racks[mover] and len(rows) < count:
                position = Position(variant, board.copy(), [racks[mover], ""], [scores[mover], scores[1 - mover]],
                                    idle, {})  # fmt: skip
                bag = len(unseen_tiles(variant, board, [racks[mover]])) - len(racks[1 - mover])
                rows.append({"cgp": write_position(position, "cgp").strip(), "bag": bag})
    return rows


def batch_lines(lexicon: Path, count: int, seed: int) -> list[str]:
    from bench_batch import self_play_positions

    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.variant import load_variant

    return self_play_positions(MoveGenerator(Lexicon.open(lexicon), load_variant()), count, seed)


def endgame_off_levels(path: Path) -> None:
    """The shipped levels with mistrz's endgame search turned off."""
    text = (ROOT / "literaki_cli" / "games" / "levels.toml").read_text(encoding="utf-8")
    path.write_text(text.replace("endgame_nodes = 50000", "endgame_nodes = 0"), encoding="utf-8")


def probe(tree: Path, task: str, inputs: Path, lexicon: Path, levels: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run([sys.executable, "-c", PROBE, task, str(inputs), str(lexicon), str(levels)], cwd=work,
                              env=env, capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        sys.exit(f"measuring {task} in {tree} failed:\n{done.stderr}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result.pop("core_build") == "debug":
        sys.exit(f"{tree}: its Rust core is a debug build: never measured (build it with --release)")
    strays = [f for f in result.pop("files") if not f.startswith(str(tree) + os.sep)]
    if strays:
        sys.exit(f"measuring {tree} imported modules from elsewhere: {strays}")
    return result


def batch_rate(tree: Path, lines: Path, lexicon: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    command = [sys.executable, "-m", "literaki_cli", "solve", "--batch", str(lines), "--lexicon", str(lexicon),
               "--workers", "1"]  # fmt: skip
    with tempfile.TemporaryDirectory() as work:
        started = time.perf_counter()
        done = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    if done.returncode not in (0, 4):
        sys.exit(f"solve --batch in {tree} failed:\n{done.stderr}")
    return {"batch_positions_per_s": len(done.stdout.splitlines()) / seconds}


FIGURES = [
    ("best", "best_median_us", "best move, median (us)"),
    ("best", "best_mean_us", "best move, mean (us)"),
    ("best", "best_mean_us_0_blanks", "  mean with 0 blanks (us)"),
    ("best", "best_mean_us_1_blanks", "  mean with 1 blank (us)"),
    ("best", "best_mean_us_2_blanks", "  mean with 2 blanks (us)"),
    ("sim", "sim_cand_iter_per_s", "solve --sim, candidate-iterations/s"),
    ("selfplay", "selfplay_games_per_s", "mistrz vs mistrz (no endgame), games/s"),
    ("batch", "batch_positions_per_s", "solve --batch, positions/s"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare against")
    parser.add_argument("--lexicon", type=Path, default=Path.home() / ".local/share/literaki/sjp.lexicon")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", default="best,sim,selfplay,batch")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon}: build one with `literaki build-lexicon` or give --lexicon")
    tasks = args.only.split(",")
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        positions = tmp / "positions.jsonl"
        rows = mid_game_positions(args.lexicon, args.positions, args.seed)
        positions.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        lines = tmp / "batch.txt"
        lines.write_text("\n".join(batch_lines(args.lexicon, 1200, args.seed)) + "\n", encoding="utf-8")
        levels = tmp / "levels.toml"
        endgame_off_levels(levels)
        inputs = {"best": positions, "sim": ROOT / "examples" / "positions", "selfplay": positions}
        with base_worktree(args.base, tmp) as base_tree:
            trees = {f"base ({args.base})": base_tree, "current": ROOT}
            for name, tree in trees.items():
                print(f"{name}: {build_core(tree)}", flush=True)
            for tree in trees.values():  # each tree compiles its kernels (numba's cache) before any timing
                probe(tree, "warm-up", positions, args.lexicon, levels)
                batch_rate(tree, lines, args.lexicon)
            results: dict[str, list[dict]] = {name: [] for name in trees}
            for round_number in range(args.rounds):
                for name, tree in trees.items():
                    figures: dict = {}
                    for task in tasks:
                        if task == "batch":
                            figures.update(batch_rate(tree, lines, args.lexicon))
                        else:
                            figures.update(probe(tree, task, inputs[task], args.lexicon, levels))
                    results[name].append(figures)
                    print(f"round {round_number + 1}, {name}: {json.dumps(figures)}", flush=True)
    first = results[next(iter(results))][0]
    print(f"{args.positions} best-move positions: " + ", ".join(f"{first.get(f'positions_{b}_blanks')} with {b} "
          f"blank{'s' if b != 1 else ''}" for b in range(3)) if "best" in tasks else "")  # fmt: skip
    print(f"medians over {args.rounds} rounds, interleaved; 'per round': the median of the rounds' own ratios "
          "(steadier where the machine's speed drifts between rounds)")  # fmt: skip
    names = list(results)
    print(f"{'':42}" + "".join(f"{n:>22}" for n in names) + f"{'current/base':>14}{'per round':>11}")
    for task, key, label in FIGURES:
        if task not in tasks:
            continue
        values = []
        for name in names:
            found = [r[key] for r in results[name] if r.get(key) is not None]
            values.append(statistics.median(found) if found else float("nan"))
        rounds = zip(*results.values(), strict=True)
        pairs = [(b[key], c[key]) for b, c in rounds if b.get(key) and c.get(key) is not None]
        per_round = statistics.median(c / b for b, c in pairs) if pairs else float("nan")
        print(f"{label:42}" + "".join(f"{v:>22.1f}" for v in values) + f"{values[1] / values[0]:>13.2f}x"
              f"{per_round:>10.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
