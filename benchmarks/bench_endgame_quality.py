"""Endgame first-move quality (issue 27): how often a short solve's first move is an exactly-best move.

    python benchmarks/bench_endgame_quality.py [--lexicon FILE] [--positions 16] [--seed 2026]
                                               [--quick 10] [--long 120] [--json FILE]

Positions: bench_endgame.py's (``make_endgames``: seeded greedy self-play on the real lexicon,
taken the moment a move empties the bag with both racks holding 7 tiles); the same seed gives
the same positions, so the defaults are bench_endgame's battery's first 16.

Per position, on one core (``threads=1``), each call with an emptied transposition table
(``forget``), after a throwaway solve (the page cache):

  (a) the quick solve, ``solve(seconds=--quick, keep=1, line=False)``: its first move m, whether
      it was already exact, its time;
  (b) the long solve, ``solve(seconds=--long, keep=1, line=False)``: the exact value V, or the
      position is unchecked when it is not exact within the cap;
  (c) the value of m: V when the quick solve was exact (the two values must then agree: a
      disagreement is reported and the script exits with status 1) or m is the long solve's
      best move; else ``value_of(m's record, seconds=--long)``, the position unchecked when that
      is not exact within the cap.  m is exactly best iff its value is V.

Printed: each position's row as it finishes, then the positions, the number checked, how many
quick solves were already exact, how often m was exactly best among the checked, the mean loss
V - value of m over the checked, and the total wall time.

Target (issue): 7 against 7, 10 s on one core: the first move chosen is an exactly-best move
(checked against long exact solves) in >= 90 % of the battery.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_endgame import WARM_UP_NODES, battery  # noqa: E402
from common import ROOT, machine  # noqa: E402

sys.path.insert(0, str(ROOT))
from literaki_cli.endgame.solver import TIMED_TABLE_BITS, EndgameMove, EndgameSolver  # noqa: E402
from literaki_cli.engine.movegen import CELLS, LENGTH  # noqa: E402

#: The target share of positions whose quick first move is exactly best.
TARGET = 0.90


def move_text(move: EndgameMove) -> str:
    return "pass" if move.is_pass else f"{move.coord} {move.word}"


def same_move(a: EndgameMove, b: EndgameMove) -> bool:
    """The same placement (or both passes): the records' cells past the main word's length are
    not cleared by the generator, so only the fields and the word's own cells are compared."""
    if a.record is None or b.record is None:
        return False
    used = CELLS + int(a.record[LENGTH])
    return bool((a.record[:used] == b.record[:used]).all())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=None, help="default: the standard lexicon path")
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", type=float, default=10.0, help="seconds of the quick solve")
    parser.add_argument("--long", type=float, default=120.0, help="seconds of the long solve and of value_of")
    parser.add_argument("--json", type=Path, default=None, help="write the per-position rows here")
    parser.add_argument("--playout", action="store_true", help="value the depth limit by greedy playouts")
    args = parser.parse_args()
    if args.positions < 1:
        parser.error(f"--positions {args.positions}: at least 1")
    if not args.quick > 0 or not args.long > 0:
        parser.error("--quick and --long must be above 0")
    if args.seed < 0:
        parser.error(f"--seed {args.seed}: must be 0 or more")
    run_started = time.perf_counter()
    print(machine())
    lexicon, variant, generator, endgames, seconds = battery(args.lexicon, args.positions, args.seed)
    print(f"{len(endgames)} endgames from self-play (seed {args.seed}) in {seconds:.0f} s; "
          f"one core, quick {args.quick:g} s, long {args.long:g} s, keep 1, no line, "
          f"{'playout' if args.playout else 'static'} leaves", flush=True)  # fmt: skip

    solver = EndgameSolver(lexicon, variant, threads=1, playout=args.playout, table_bits=TIMED_TABLE_BITS)
    solver.solve(endgames[0].board, endgames[0].racks, nodes=WARM_UP_NODES)  # the page cache
    print(f"\n{'#':>3} {'game':>9} {'racks':15} {'quick move':22} {'q.ex':>4} {'q.s':>6} "
          f"{'long':>5} {'l.s':>6} {'V':>5} {'m':>5} {'(how)':9} best?")  # fmt: skip
    rows = []
    disagreements = []
    for number, endgame in enumerate(endgames, 1):
        board, racks = endgame.board, endgame.racks
        solver.forget()
        quick = solver.solve(board, racks, seconds=args.quick, keep=1, line=False)
        solver.forget()
        long = solver.solve(board, racks, seconds=args.long, keep=1, line=False)
        m = quick.best
        value_m, how, value_seconds = None, "", 0.0
        if long.exact:
            if quick.exact:
                value_m, how = quick.value, "quick"
                if quick.value != long.value:
                    disagreements.append(endgame.game)
            elif same_move(m, long.best):
                value_m, how = long.value, "long"
            else:
                solver.forget()
                started = time.perf_counter()
                valued = solver.value_of(board, racks, None if m.is_pass else m.record, seconds=args.long)
                value_seconds = time.perf_counter() - started
                if valued.exact:
                    value_m, how = valued.value, "value_of"
                else:
                    how = "cut"
        checked = value_m is not None
        best = checked and value_m == long.value
        row = {
            "game": endgame.game, "racks": list(racks), "scores": list(endgame.scores), "cgp": endgame.cgp,
            "quick_move": m.as_dict(), "quick_exact": quick.exact, "quick_value": quick.value,
            "quick_seconds": round(quick.seconds, 3), "quick_nodes": quick.nodes, "quick_depth": quick.depth,
            "long_move": long.best.as_dict(), "long_exact": long.exact, "long_value": long.value,
            "long_seconds": round(long.seconds, 3), "long_nodes": long.nodes, "long_depth": long.depth,
            "value_of_m": value_m, "valued_by": how or None, "value_of_seconds": round(value_seconds, 3),
            "checked": checked, "best": best if checked else None,
            "loss": long.value - value_m if checked else None,
        }  # fmt: skip
        rows.append(row)
        rack_text = f"{racks[0].upper()}/{racks[1].upper()}"
        value_text = f"{value_m:+5d}" if checked else f"{'?':>5}"
        verdict = ("yes" if best else f"NO (-{long.value - value_m})") if checked else "unchecked"
        if endgame.game in disagreements:
            verdict += f"  ** DISAGREE: quick exact {quick.value:+d} != long exact {long.value:+d} **"
        print(f"{number:3} {endgame.game:9} {rack_text:15} {move_text(m)[:22]:22} {'yes' if quick.exact else 'no':>4} "
              f"{quick.seconds:6.1f} {'exact' if long.exact else 'cut':>5} {long.seconds:6.1f} "
              f"{long.value:+5d} {value_text} {how:9} {verdict}", flush=True)  # fmt: skip

    checked = [r for r in rows if r["checked"]]
    best = [r for r in checked if r["best"]]
    share = len(best) / len(checked) if checked else 0.0
    print(f"\npositions {len(rows)}; checked {len(checked)} (unchecked {len(rows) - len(checked)}: "
          f"long solve not exact {sum(not r['long_exact'] for r in rows)}, value_of not exact "
          f"{sum(r['valued_by'] == 'cut' for r in rows)})")  # fmt: skip
    print(f"quick solve ({args.quick:g} s) already exact: {sum(r['quick_exact'] for r in rows)}/{len(rows)}; "
          f"median {statistics.median(r['quick_seconds'] for r in rows):.1f} s, "
          f"max {max(r['quick_seconds'] for r in rows):.1f} s")  # fmt: skip
    if checked:
        print(f"first move exactly best: {len(best)}/{len(checked)} checked = {100 * share:.1f} % "
              f"(target >= {100 * TARGET:.0f} %: {'met' if share >= TARGET else 'NOT met'})")  # fmt: skip
        print(f"mean loss V - value of m over the checked: {statistics.fmean(r['loss'] for r in checked):.2f} "
              f"(max {max(r['loss'] for r in checked)})")  # fmt: skip
    print(f"total wall time {time.perf_counter() - run_started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"per-position rows: {args.json}")
    if disagreements:
        print(f"BUG: the quick exact value differs from the long exact value in games {disagreements}")
        sys.exit(1)


if __name__ == "__main__":
    main()
