"""Search effort as counts, not timings: GADDAG states entered and arcs examined per best move.

    python benchmarks/bench_states.py [--lexicon FILE] [--positions 400] [--seed 2026]

The Rust core is built once more with its ``counters`` feature (off in the wheels users install)
into a temporary folder and loaded in place of the installed one; then the best move by equity is
searched on the mid-game positions of ``bench_search.py`` (same seed, same racks) and the mean
counts are printed by number of blanks on the rack.  Counts do not depend on the machine or its
load, so a pruning change is judged by them (issue 40's targets: <= 1,300 states per blank-free
best move, <= 10,000 with one blank; MAGPIE entered 1,144 and 8,839 on the same positions).
Measured (with the bingo index, as a long job's searches have it): 1,160 states without a blank,
6,354 with one; the numba kernels before the core entered 3,307 and 27,949.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_search import mid_game_positions  # noqa: E402
from common import ROOT, core_module, machine  # noqa: E402


def load_as_core(path: Path) -> None:
    spec = importlib.util.spec_from_file_location("literaki_cli._core", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["literaki_cli._core"] = module
    import literaki_cli

    literaki_cli._core = module
    assert module.COUNTERS and module.BUILD == "release"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=Path.home() / ".local/share/literaki/sjp.lexicon")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon}: build one with `literaki build-lexicon` or give --lexicon")
    rows = mid_game_positions(args.lexicon, args.positions, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        load_as_core(core_module(ROOT, Path(tmp), ("counters",)))
        from literaki_cli.engine.lexicon import Lexicon
        from literaki_cli.engine.movegen import MoveGenerator
        from literaki_cli.equity.equity import Equity
        from literaki_cli.equity.leaves import open_leaves
        from literaki_cli.io.positionio import read_cgp

        lexicon = Lexicon.open(args.lexicon)
        by_blanks: dict[int, list[tuple[int, int]]] = {}
        generator = equity = None
        for row in rows:
            position = read_cgp(row["cgp"], None, "bench")
            if generator is None:
                generator = MoveGenerator(lexicon, position.variant)
                equity = Equity(open_leaves(), position.variant)
                generator.core.prepare_bingo_index()  # as a long job's searches have it
            leaves = equity.for_rack(position.rack, row["bag"])
            _, states, arcs = generator.best_counted(position.board, position.rack, leaves)
            by_blanks.setdefault(position.rack.count("?"), []).append((states, arcs))
    print(f"machine: {machine()} (counts do not depend on it)")
    print(f"{len(rows)} mid-game positions (seed {args.seed}), best move by equity, per position:")
    summary = {}
    for blanks, counts in sorted(by_blanks.items()):
        states = statistics.mean(c[0] for c in counts)
        arcs = statistics.mean(c[1] for c in counts)
        summary[blanks] = {"positions": len(counts), "states": states, "arcs": arcs}
        print(f"  {blanks} blank{'s' if blanks != 1 else ' '}: {len(counts):4} positions, states {states:10.1f}, "
              f"arcs {arcs:10.1f}")  # fmt: skip
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
