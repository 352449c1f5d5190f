"""Whole-process time of ``literaki analyze`` on a 30-turn game, without simulation.

    python benchmarks/bench_analyze.py [--lexicon FILE] [--game FILE.gcg] [--runs N]

Reports the machine, the median (and min/max) wall time and peak RSS of ``literaki analyze
GAME --json`` and of the table for people, each as a whole process over N runs (a warm numba
cache: one run first, not counted),
and where one run's time goes: interpreter and imports, reading the game, the lexicon, the
leave file, the first turn (which loads the compiled kernels from the cache) and the other
turns.  Target (issue 14): <= 2 s whole process for a 30-turn game.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine, run_process  # noqa: E402

DEFAULT_LEXICON = Path("~/.local/share/literaki/sjp.lexicon").expanduser()
DEFAULT_GAME = ROOT / "examples" / "simulated-game.gcg"
TARGET_SECONDS = 2.0

# One run's phases, timed inside a fresh interpreter (what the command does, step by step).
_PHASES = """
import json, sys, time
started = time.perf_counter()
from literaki_cli.review import game_review as review
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.io.gcg import read_gcg
imported = time.perf_counter()
game = read_gcg(sys.argv[1])
read = time.perf_counter()
lexicon = Lexicon.open(sys.argv[2])
opened = time.perf_counter()
equity = Equity(open_leaves(None), game.variant)
leaves = time.perf_counter()
times = []
def timed(position, turn):
    times.append(time.perf_counter())
review.analyze_game(game, lexicon, equity, simulate=timed)
done = time.perf_counter()
first = times[0] - leaves if times else 0.0
print(json.dumps({"imports": imported - started, "read": read - imported, "lexicon": opened - read,
                  "leaves": leaves - opened, "first turn": first, "other turns": done - leaves - first,
                  "turns": len(times)}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--game", type=Path, default=DEFAULT_GAME)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon} (build one: literaki build-lexicon; or give --lexicon)")
    turns = sum(1 for line in args.game.read_text(encoding="utf-8").splitlines() if line.startswith(">"))
    print(f"machine: {machine()}")
    print(f"game: {args.game.name} ({turns} event lines), lexicon: {args.lexicon}")
    base = [sys.executable, "-m", "literaki_cli", "analyze", str(args.game), "--lexicon", str(args.lexicon),
            "--endgame-time", "0"]  # the static review (the target); the endgame search has its own benchmark
    _, _, code = run_process(base)  # warm the numba cache (not counted)
    if code != 0:
        sys.exit(f"literaki analyze failed with exit code {code}")
    commands = {"--json": [*base, "--json"], "the table": base}
    runs: dict[str, list[tuple[float, float, int]]] = {label: [] for label in commands}
    for _ in range(args.runs):  # interleaved: a load from elsewhere weighs on both alike
        for label, command in commands.items():
            runs[label].append(run_process(command))
    for label, measured in runs.items():
        walls = sorted(r[0] for r in measured)
        rss = sorted(r[1] for r in measured)
        median = walls[len(walls) // 2]
        verdict = "meets" if median <= TARGET_SECONDS else "misses"
        print(f"literaki analyze, {label}, whole process, {args.runs} runs: median {median:.2f} s "
              f"(min {walls[0]:.2f}, max {walls[-1]:.2f}); peak RSS median {rss[len(rss) // 2]:.0f} MB; "
              f"{verdict} the {TARGET_SECONDS:.0f} s target")  # fmt: skip
    floor = sorted(run_process([sys.executable, "-m", "literaki_cli", "--version"])[0] for _ in range(args.runs))
    print(f"for comparison, literaki --version (the interpreter and the command line alone): "
          f"median {floor[len(floor) // 2]:.2f} s")  # fmt: skip
    phases = subprocess.run([sys.executable, "-c", _PHASES, str(args.game), str(args.lexicon)], capture_output=True,
                            text=True, check=True)  # fmt: skip
    parts = json.loads(phases.stdout)
    analysed = parts.pop("turns")
    print(f"one run's phases (in process; {analysed} analysable turns):")
    for name, seconds in parts.items():
        print(f"  {name:<12} {seconds * 1000:7.0f} ms")
    if analysed > 1:
        print(f"  per turn after the first: {parts['other turns'] / (analysed - 1) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
