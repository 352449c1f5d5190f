"""The engine's speed at two revisions, measured in one run: move generation and self-play.

    python benchmarks/compare_revisions.py --base REV [--rounds N] [--games G] [--lexicon FILE]

Checks REV out into a temporary git worktree and measures it and the working tree by turns
(base, current, base, current, ...), each round in fresh processes, so that both see the same
machine load; prints the median over rounds of: the total generation time over
examples/positions (per number of blanks, every position's median of 5 runs), and games/s of
mistrz vs mistrz and trudny vs trudny on one core.  Both trees read the same lexicon file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine  # noqa: E402

#: Runs inside the tree under test (on PYTHONPATH); works with the layout before and after the
#: split into sub-packages, so that any two revisions can be compared.
PROBE = r"""
import json, statistics, sys, time
from pathlib import Path
import literaki_cli
if (Path(literaki_cli.__file__).parent / "engine").is_dir():  # decide by the tree, not by trying imports:
    from literaki_cli.engine.lexicon import Lexicon  # an editable install elsewhere would answer those
    from literaki_cli.engine.movegen import MoveGenerator, warm_up
    from literaki_cli.io.positionio import load_position
    from literaki_cli.analysis.simulate import RunConfig, run_simulation
else:
    from literaki_cli.lexicon import Lexicon
    from literaki_cli.movegen import MoveGenerator, warm_up
    from literaki_cli.positionio import load_position
    from literaki_cli.simulate import RunConfig, run_simulation
positions, lexicon_path, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
lexicon = Lexicon.open(Path(lexicon_path))
generator = None
by_blanks = {0: 0.0, 1: 0.0, 2: 0.0}
for f in sorted(Path(positions).glob("*.cgp")):
    pos = load_position(str(f))
    if generator is None:
        generator = MoveGenerator(lexicon, pos.variant)
        warm_up(generator)
    generator.generate(pos.board, pos.rack)
    times = []
    for _ in range(5):
        t = time.perf_counter()
        generator.generate(pos.board, pos.rack)
        times.append(time.perf_counter() - t)
    by_blanks[pos.rack.count("?")] += statistics.median(times)
rates = {}
for level in ("mistrz", "trudny"):
    config = RunConfig(players=[level, level], games=1, seed=2026, lexicon=lexicon_path)
    run_simulation(config, 1, None)  # compile / load the kernels
    config = RunConfig(players=[level, level], games=games, seed=2026, lexicon=lexicon_path)
    result = run_simulation(config, 1, None)
    rates[level] = len(result.outputs) / result.seconds
loaded = [getattr(m, "__file__", None) for name, m in sys.modules.items() if name.startswith("literaki_cli")]
print(json.dumps({"files": [f for f in loaded if f], "gen_ms": {k: v * 1e3 for k, v in by_blanks.items()},
                  "games_per_s": rates}))
"""


def measure(tree: Path, lexicon: Path, games: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryDirectory() as work:
        out = subprocess.run(
            [sys.executable, "-c", PROBE, str(ROOT / "examples" / "positions"), str(lexicon), str(games)],
            cwd=work, env=env, capture_output=True, text=True,
        )  # fmt: skip
    if out.returncode != 0:
        sys.exit(f"measuring {tree} failed:\n{out.stderr}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    strays = [f for f in result["files"] if not f.startswith(str(tree) + os.sep)]
    if strays:
        sys.exit(f"measuring {tree} imported modules from elsewhere: {strays}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare against")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100, help="games per self-play measurement")
    parser.add_argument("--lexicon", type=Path, default=Path.home() / ".local/share/literaki/sjp.lexicon")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon}: build one with `literaki build-lexicon` or give --lexicon")
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        base_tree = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base_tree), args.base], cwd=ROOT, check=True,
                       capture_output=True)  # fmt: skip
        try:
            trees = {f"base ({args.base})": base_tree, "current": ROOT}
            for tree in trees.values():  # compile each tree's kernels before timing
                measure(tree, args.lexicon, 2)
            results: dict[str, list[dict]] = {name: [] for name in trees}
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    results[name].append(measure(tree, args.lexicon, args.games))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT, capture_output=True)
    print(f"{args.rounds} rounds, interleaved; medians over rounds")
    header = ["gen 0 blanks", "gen 1 blank", "gen 2 blanks"]
    print(f"{'tree':<24}" + "".join(f"{h:>14}" for h in header) + f"{'mistrz g/s':>12}{'trudny g/s':>12}")
    for name, rows in results.items():
        gen = [statistics.median(r["gen_ms"][str(b)] for r in rows) for b in range(3)]
        rates = [statistics.median(r["games_per_s"][level] for r in rows) for level in ("mistrz", "trudny")]
        print(f"{name:<24}" + "".join(f"{g:>11.1f} ms" for g in gen) + "".join(f"{x:>12.1f}" for x in rates))


if __name__ == "__main__":
    main()
