"""Endgame search speed (issue 27): nodes per second at two revisions in one run, same answers.

    python benchmarks/bench_endgame_speed.py --base REV [--lexicon FILE] [--positions 10]
                                             [--nodes 300000] [--rounds 3] [--seed 2026] [--playout]

The positions are bench_endgame.py's: seeded greedy self-play on the real lexicon, the moment a
move empties the bag with both racks holding 7 tiles.  Each is solved with a fresh table and a
node budget (``EndgameSolver.solve(nodes=...)``, the principal variation included), in each tree
in fresh processes by turns (base, current, base, ...), one core.  A node budget makes both trees
search the same tree node for node when the search is the same; a search that generates or
orders otherwise reaches other depths within the budget, so the script prints the answers that
differ (exact, value, best move, nodes, depth, line) and fails only when two exact answers do.
It prints, per tree, the median over rounds of the nodes per second over all positions, and the
ratio.  ``--playout``: the nodes at the depth limit valued by greedy playouts to the end of the
game (``EndgameSolver(playout=True)``) instead of the racks' values.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, SJP_ZIP, base_worktree, machine, run_probe  # noqa: E402

#: Runs inside the tree under test (on PYTHONPATH): prints one JSON object.
PROBE = r"""
import json, sys, time
from pathlib import Path
from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.io.positionio import read_position

positions_file, lexicon_path, budget, playout = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
lexicon = Lexicon.open(Path(lexicon_path))
positions = [read_position(line, "bench") for line in Path(positions_file).read_text(encoding="utf-8").splitlines()]
solver = EndgameSolver(lexicon, positions[0].variant, playout=playout)
solver.solve(positions[0].board, tuple(positions[0].racks[:2]), nodes=20_000)  # load the kernels
answers, nodes, seconds = [], 0, 0.0
for position in positions:
    solver.forget()
    started = time.perf_counter()
    result = solver.solve(position.board, tuple(position.racks[:2]), nodes=budget)
    seconds += time.perf_counter() - started
    nodes += result.nodes
    answers.append([result.exact, result.value, result.best.word, result.nodes, result.depth,
                    [m.word for m in result.pv]])
print(json.dumps({"nodes": nodes, "seconds": seconds, "answers": answers}))
"""


def run_tree(tree: Path, positions: Path, lexicon: Path, budget: int, playout: bool) -> dict:
    return run_probe(tree, PROBE, str(positions), str(lexicon), str(budget), "1" if playout else "0")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--lexicon", type=Path, help="a lexicon built from the SJP dump (default: built here)")
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=300_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--playout", action="store_true", help="value the depth limit by greedy playouts")
    args = parser.parse_args()

    from bench_endgame import make_endgames

    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.movegen import MoveGenerator
    from literaki_cli.engine.variant import load_variant

    with tempfile.TemporaryDirectory(prefix="bench-endgame-") as tmp:
        tmp = Path(tmp)
        lexicon = args.lexicon
        if lexicon is None:
            from lexicon_build.build import build_lexicon

            lexicon = tmp / "sjp.lexicon"
            build_lexicon(SJP_ZIP, lexicon, load_variant())
        variant = load_variant()
        endgames = make_endgames(MoveGenerator(Lexicon.open(lexicon), variant), variant, args.positions, args.seed)
        positions = tmp / "positions.cgp"
        positions.write_text("".join(e.cgp + "\n" for e in endgames), encoding="utf-8")
        with base_worktree(args.base, tmp) as base_tree:
            rates = {"base": [], "current": []}
            answers = {}
            for _ in range(args.rounds):
                for name, tree in (("base", base_tree), ("current", ROOT)):
                    out = run_tree(tree, positions, lexicon, args.nodes, args.playout)
                    rates[name].append(out["nodes"] / out["seconds"])
                    answers.setdefault(name, out["answers"])
    print(f"machine: {machine()}")
    leaves = "playout" if args.playout else "static"
    print(f"{len(endgames)} endgames of 7 against 7 tiles, {args.nodes:,} nodes each, {leaves} leaves, {args.rounds} "
          "rounds, one core")  # fmt: skip
    pairs = list(zip(answers["base"], answers["current"], strict=True))
    same = all(a == b for a, b in pairs)
    print(f"answers (exact, value, best move, nodes, depth, line): {'the same' if same else 'not all the same'}")
    base, current = statistics.median(rates["base"]), statistics.median(rates["current"])
    print(f"nodes/s: {args.base} {base:,.0f}, current {current:,.0f}, x{current / base:.2f}")
    wrong = False
    for i, (a, b) in enumerate(pairs):
        if a != b:
            # Within a budget a search that orders or generates otherwise reaches other depths:
            # only two exact answers must agree (value, best move and line).
            both_exact = a[0] and b[0]
            wrong = wrong or (both_exact and (a[1], a[2], a[5]) != (b[1], b[2], b[5]))
            print(f"  position {i}: base {a}, current {b}")
    if wrong:
        sys.exit("two exact answers differ")


if __name__ == "__main__":
    main()
