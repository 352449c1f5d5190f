"""`solve --batch` throughput and memory (issue 17), with the default lexicon (or --lexicon).

    python benchmarks/bench_batch.py [--positions 1200] [--seed 2026] [--runs 3] [--workers 1 2]
                                     [--memory-lines 100000] [--lexicon FILE]

Positions: seeded greedy self-play (each side plays its best-scoring move), every turn's board
with the mover's real rack as one CGP line, so the blanks come mixed as games deal them.
Reports:
* the in-process cost per position: move generation alone (the kernels), and the whole answer
  of one line (parse, checks, generation, leave values, the 20 moves re-scored, JSON);
* `literaki solve --batch FILE` as a whole process (start-up and JSON output included; top 20,
  no --all): wall time, positions/s and the cost per position against the generation alone,
  for each --workers;
* memory over --memory-lines input lines (the positions repeated, fed through a pipe faster
  than they are solved): the resident size sampled as the run goes, which must stay flat.
Target (issue 17): >= 300 positions/s on one core over >= 1,000 positions; flat memory.
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
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import machine, run_process  # noqa: E402
from make_positions import greedy_turns  # noqa: E402

from literaki_cli.analysis.batch import PositionReader, SolveLines  # noqa: E402
from literaki_cli.analysis.solve import PositionSolver, SolveRequest  # noqa: E402
from literaki_cli.engine.lexicon import Lexicon  # noqa: E402
from literaki_cli.engine.movegen import MoveGenerator, warm_up  # noqa: E402
from literaki_cli.engine.position import Position  # noqa: E402
from literaki_cli.engine.variant import load_variant  # noqa: E402
from literaki_cli.io.positionio import write_position  # noqa: E402

LITERAKI = [sys.executable, "-m", "literaki_cli"]


def self_play_positions(generator: MoveGenerator, count: int, seed: int) -> list[str]:
    """At least ``count`` CGP lines: every turn of seeded greedy games, with the mover's rack."""
    variant = generator.variant
    rng = random.Random(seed)
    lines: list[str] = []
    while len(lines) < count:
        for board, racks, scores, mover, idle in greedy_turns(generator, variant, rng):
            if len(lines) >= count:
                break
            position = Position(variant, board, [racks[mover], racks[1 - mover]], [scores[mover], scores[1 - mover]],
                                idle, {"gid": f"batch-{len(lines) + 1}"})  # fmt: skip
            lines.append(write_position(position, "cgp").strip())
    return lines


def blanks_mix(lines: list[str]) -> str:
    counts = [0, 0, 0]
    for line in lines:
        counts[min(2, line.split()[1].split("/")[0].count("?"))] += 1
    return " / ".join(f"{n} with {b} blank{'s' if b != 1 else ''}" for b, n in enumerate(counts))


def in_process(lines: list[str], lexicon: Lexicon) -> tuple[float, float]:
    """Mean ms per position: generation alone, and the whole answer of a line."""
    solver = PositionSolver(lexicon)
    answer = SolveLines(solver, SolveRequest(), PositionReader())
    answer(1, lines[0].encode())  # the kernels and the leave file, once
    generator = solver.generator(load_variant())
    reader = PositionReader()
    generation = 0.0
    for line in lines:
        position, _ = reader.read(line, "cgp")
        started = time.perf_counter()
        generator.generate(position.board, position.rack)
        generation += time.perf_counter() - started
    started = time.perf_counter()
    for number, line in enumerate(lines, 1):
        answer(number, line.encode())
    whole = time.perf_counter() - started
    return generation / len(lines) * 1000, whole / len(lines) * 1000


def rss_samples(args: list[str], feed: Path, every: float = 1.0) -> tuple[list[tuple[int, float]], float, int]:
    """Run ``args`` with ``feed`` piped to its stdin; (lines answered, RSS MB of the whole
    process tree) sampled every ``every`` s, the wall time and the exit code."""
    started = time.perf_counter()
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def feed_input() -> None:
        with open(feed, "rb") as source:
            try:
                while chunk := source.read(1 << 16):
                    proc.stdin.write(chunk)
                proc.stdin.close()
            except BrokenPipeError:
                pass

    answered = [0]

    def count_output() -> None:
        for _ in proc.stdout:
            answered[0] += 1

    threads = [threading.Thread(target=feed_input, daemon=True), threading.Thread(target=count_output, daemon=True)]
    for thread in threads:
        thread.start()
    samples = []
    while proc.poll() is None:
        samples.append((answered[0], tree_rss_mb(proc.pid)))
        time.sleep(every)
    for thread in threads:
        thread.join(timeout=10)
    return samples, time.perf_counter() - started, proc.returncode


def tree_rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the batch workers), in MB."""
    total = 0
    for p in [pid, *children(pid)]:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--positions", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=3, help="0 skips the whole-process runs")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--memory-lines", type=int, default=100_000, help="0 skips the memory run")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    lexicon = Lexicon.open(args.lexicon)
    generator = MoveGenerator(lexicon, load_variant())
    warm_up(generator)
    lines = self_play_positions(generator, args.positions, args.seed)
    print(f"positions: {len(lines):,} from seeded self-play (seed {args.seed}): {blanks_mix(lines)}")
    generation_ms, answer_ms = in_process(lines, lexicon)
    print(f"in process, per position: generation {generation_ms:.2f} ms; the whole answer of a line "
          f"{answer_ms:.2f} ms (parse, checks, generation, leaves, 20 moves re-scored, JSON)")  # fmt: skip
    lexicon_args = ["--lexicon", str(args.lexicon)] if args.lexicon else []
    with tempfile.TemporaryDirectory() as tmp:
        batch = Path(tmp) / "positions.cgp"
        batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for workers in args.workers if args.runs else []:
            walls, rss = [], 0.0
            for _ in range(args.runs):
                wall, peak, code = run_process([*LITERAKI, "solve", "--batch", str(batch), "--workers", str(workers),
                                                *lexicon_args])  # fmt: skip
                if code != 0:
                    sys.exit(f"solve --batch exited {code}")
                walls.append(wall)
                rss = max(rss, peak)
            wall = statistics.median(walls)
            print(f"solve --batch, {workers} worker{'s' if workers > 1 else ''}: {wall:.2f} s for {len(lines):,} "
                  f"positions (median of {args.runs}) = {len(lines) / wall:.0f} positions/s, "
                  f"{wall / len(lines) * 1000:.2f} ms a position ({wall / len(lines) * 1000 / generation_ms:.1f} x "
                  f"the generation alone); peak RSS {rss:.0f} MB (parent)")  # fmt: skip
        if args.memory_lines:
            feed = Path(tmp) / "many.cgp"
            with feed.open("w", encoding="utf-8") as out:
                for k in range(args.memory_lines):
                    out.write(lines[k % len(lines)] + "\n")
            samples, wall, code = rss_samples([*LITERAKI, "solve", "--batch", "-", *lexicon_args], feed)
            if code != 0:
                sys.exit(f"solve --batch exited {code}")
            marks = [samples[min(len(samples) - 1, int(f * (len(samples) - 1)))] for f in (0.1, 0.25, 0.5, 0.75, 1)]
            shown = ", ".join(f"{rss:.0f} MB after {done:,} lines" for done, rss in marks)
            print(
                f"memory over {args.memory_lines:,} lines through a pipe (1 worker, {wall:.0f} s, "
                f"{args.memory_lines / wall:.0f} positions/s): {shown}; max {max(r for _, r in samples):.0f} MB"
            )
    print(json.dumps({"positions": len(lines), "generation_ms": round(generation_ms, 3),
                      "answer_ms": round(answer_ms, 3)}))  # fmt: skip


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
