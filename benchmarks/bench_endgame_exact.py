"""Endgame search (issue 27): time to the exact answer at two revisions in one run, same answers.

    python benchmarks/bench_endgame_exact.py --base REV [--low 2] [--high 60] [--threads 2]

The positions are the golden battery's (tests/data/golden/endgames.json: 3-7 tiles a side from
seeded self-play on the generated lexicon of tests/data/make_golden.py, so no real data is
needed) that the code which recorded them solved exactly in ``--low`` to ``--high`` seconds.
Each is solved exactly with a fresh table (``EndgameSolver.solve``, no limit, the principal
variation included), in each tree in its own process, one position at a time by turns (base,
current on one thread, current on ``--threads``), after a throwaway solve that loads the
kernels.  Printed: each position's times, the median of the per-position ratios base/current,
and a check that every tree gives the same value, best move and line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, base_worktree, machine, run_probe  # noqa: E402

BATTERY = ROOT / "tests" / "data" / "golden" / "endgames.json"

#: Runs inside the tree under test (on PYTHONPATH): solves one CGP line, prints one JSON object.
PROBE = r"""
import inspect, json, sys, time
from pathlib import Path
from literaki_cli.endgame.solver import EndgameSolver
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.io.positionio import read_position

cgp, lexicon_path, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
position = read_position(cgp, "bench")
options = {"threads": threads} if "threads" in inspect.signature(EndgameSolver).parameters else {}
solver = EndgameSolver(Lexicon.open(Path(lexicon_path)), position.variant, **options)
racks = tuple(position.racks[:2])
solver.solve(position.board, racks, position.zero_turns, nodes=2_000)  # load the kernels
solver.forget()
started = time.perf_counter()
result = solver.solve(position.board, racks, position.zero_turns)
seconds = time.perf_counter() - started
print(json.dumps({"seconds": seconds, "nodes": result.nodes, "exact": result.exact,
                  "answer": [result.value, result.best.word, [m.word for m in result.pv]]}))
"""


def solve_in(tree: Path, cgp: str, lexicon: Path, threads: int) -> dict:
    return run_probe(tree, PROBE, cgp, str(lexicon), str(threads))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--low", type=float, default=2.0, help="fewest seconds the recording code took")
    parser.add_argument("--high", type=float, default=60.0, help="most seconds the recording code took")
    parser.add_argument("--threads", type=int, default=2, help="threads of the third column (1: none)")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT / "tests" / "data"))
    import make_golden

    battery = [r for r in json.loads(BATTERY.read_text(encoding="utf-8"))
               if args.low <= r.get("old_seconds", 0.0) <= args.high]  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="bench-exact-") as tmp:
        tmp = Path(tmp)
        lexicon = make_golden.build(tmp / "lexicon")
        with base_worktree(args.base, tmp) as base_tree:
            runs = [("base", base_tree, 1), ("current", ROOT, 1)]
            if args.threads > 1:
                runs.append((f"current, {args.threads} threads", ROOT, args.threads))
            for _name, tree, threads in runs:  # each tree compiles its kernels (numba's cache) first
                solve_in(tree, battery[0]["position"], lexicon, threads)
            print(f"machine: {machine()}")
            print(f"{len(battery)} golden endgames the recording code solved in {args.low:g}-{args.high:g} s")
            print(f"{'id':8} {'tiles':6} " + " ".join(f"{name:>22}" for name, _, _ in runs))
            times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
            same = True
            for record in battery:
                outs = {name: solve_in(tree, record["position"], lexicon, threads) for name, tree, threads in runs}
                answers = {json.dumps(o["answer"], ensure_ascii=False) for o in outs.values()}
                same = same and len(answers) == 1 and all(o["exact"] for o in outs.values())
                for name, out in outs.items():
                    times[name].append(out["seconds"])
                cells = " ".join(f"{o['seconds']:8.2f} s {o['nodes']:>11,}" for o in outs.values())
                print(f"{record['id']:8} {str(record['tiles']):6} {cells}", flush=True)
    base = times["base"]
    for name in times:
        if name == "base":
            continue
        ratios = [b / t for b, t in zip(base, times[name], strict=True)]
        spread = f"x{min(ratios):.2f} to x{max(ratios):.2f}"
        total = f"{sum(base):.1f} s -> {sum(times[name]):.1f} s"
        print(f"time to exact, base/{name}: median x{statistics.median(ratios):.2f} ({spread}); total {total}")
    print(f"answers (value, best move, line), all exact: {'the same' if same else 'DIFFERENT'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
