"""Move-generation benchmark on the fixed positions in examples/positions/ (full SJP lexicon).

    python benchmarks/bench_solve.py [--lexicon FILE] [--runs N]

Reports, per number of blanks on the rack: the median and p90 over positions of each
position's median generation time (after warm-up; moves returned as arrays), and the number
of moves found; the leave values of every move (equity, as `solve` ranks) as a share of the
generation time; the one-off preparation of the core's generator in a fresh process (its copy of
the word graph); and `literaki solve` as a whole process (wall time, peak RSS).
Targets (issue 4): 0.8 / 8 / 60 ms for 0 / 1 / 2 blanks; solve <= 1.0 s and <= 400 MB.
Target (issue 13): the leave values add <= 10 % to generation time.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine, median_p90, require_sjp, run_process  # noqa: E402

from literaki_cli.analysis.positionquery import tiles_in_bag  # noqa: E402
from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.engine.movegen import MoveGenerator, warm_up  # noqa: E402
from literaki_cli.equity.equity import Equity  # noqa: E402
from literaki_cli.equity.leaves import open_leaves  # noqa: E402
from literaki_cli.io.positionio import load_position  # noqa: E402

POSITIONS = ROOT / "examples" / "positions"
LITERAKI = [sys.executable, "-m", "literaki_cli"]


def ensure_lexicon(path: Path | None, tmp: Path) -> Path:
    if path:
        return path
    out = tmp / "sjp.lexicon"
    print("building the lexicon from the SJP dump ...", flush=True)
    subprocess.run(LITERAKI + ["build-lexicon", str(require_sjp()), "-o", str(out), "--json"], check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return out


def prepare_seconds(lexicon: Path) -> float:
    """The core generator's preparation (``warm_up``) in a fresh process."""
    code = (
        "import time; from pathlib import Path; from literaki_cli.engine.lexicon import Lexicon;"
        "from literaki_cli.engine.variant import load_variant;"
        "from literaki_cli.engine.movegen import MoveGenerator, warm_up;"
        f"g = MoveGenerator(Lexicon.open(Path({str(lexicon)!r})), load_variant()); print(warm_up(g))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=7, help="timed runs per position (median kept)")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon_path = ensure_lexicon(args.lexicon, Path(tmp))
        lexicon = Lexicon.open(lexicon_path)
        print(f"generator preparation (fresh process, one-off): {prepare_seconds(lexicon_path):.2f} s")
        files = sorted(POSITIONS.glob("*.cgp"))
        by_blanks: dict[int, list[tuple[float, int, float]]] = {0: [], 1: [], 2: []}
        generator = equity = None
        for f in files:
            pos = load_position(str(f))
            if generator is None:
                generator = MoveGenerator(lexicon, pos.variant)
                warm_up(generator)
                equity = Equity(open_leaves(None), pos.variant)
            rack = pos.rack
            bag = tiles_in_bag(pos, rack)
            equity.leave_values(generator.generate(pos.board, rack).records, rack, bag)
            times, leave_times = [], []
            for _ in range(args.runs):
                t = time.perf_counter()
                moves = generator.generate(pos.board, rack)
                t1 = time.perf_counter()
                equity.leave_values(moves.records, rack, bag)
                times.append(t1 - t)
                leave_times.append(time.perf_counter() - t1)
            by_blanks[rack.count("?")].append((statistics.median(times), len(moves), statistics.median(leave_times)))
        print(f"positions: {len(files)} in {POSITIONS.relative_to(ROOT)}, {args.runs} runs each (median kept)")
        print()
        print(f"{'rack':<10}{'positions':>10}{'median':>12}{'p90':>12}{'target':>10}{'moves (min/median/max)':>26}"
              f"{'leave values':>16}{'of generation':>15}")  # fmt: skip
        targets = {0: "0.8 ms", 1: "8 ms", 2: "60 ms"}
        for blanks, rows in by_blanks.items():
            med, p90 = median_p90([t for t, _, _ in rows])
            counts = sorted(n for _, n, _ in rows)
            label = f"{blanks} blank{'s' if blanks != 1 else ''}"
            spread = f"{counts[0]}/{int(statistics.median(counts))}/{counts[-1]}"
            leave_med = statistics.median(lt for _, _, lt in rows)
            share = sum(lt for _, _, lt in rows) / sum(t for t, _, _ in rows)
            print(
                f"{label:<10}{len(rows):>10}{med * 1e3:>10.2f} ms{p90 * 1e3:>9.2f} ms{targets[blanks]:>10}{spread:>26}"
                f"{leave_med * 1e3:>13.3f} ms{100 * share:>14.1f}%"
            )
        every = [row for rows in by_blanks.values() for row in rows]
        overall = sum(lt for _, _, lt in every) / sum(t for t, _, _ in every)
        print(f"leave values over all {len(every)} positions: {100 * overall:.1f} % of generation time")

        sample = str(POSITIONS / "20-middle-35tiles-1blank.cgp")
        cmd = LITERAKI + ["solve", sample, "--lexicon", str(lexicon_path)]
        run_process(cmd)
        runs = [run_process(cmd) for _ in range(5)]
        wall, _ = median_p90([w for w, _, _ in runs])
        print()
        print(f"literaki solve (whole process, warm cache): {wall:.2f} s median, "
              f"{max(r for _, r, _ in runs):.0f} MB peak RSS (targets 1.0 s, 400 MB)")  # fmt: skip


if __name__ == "__main__":
    main()
