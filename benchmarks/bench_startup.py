"""Whole-process start-up of single commands (issue 17), optionally against another revision.

    python benchmarks/bench_startup.py [--runs 11] [--base REV] [--lexicon FILE]

Times, as whole processes with a warm numba cache: `literaki solve POSITION` (top 20, a
mid-game position with one blank, the table and --json), `literaki check-word kot`,
`literaki score`, `literaki --version`, and `python -c pass` for the interpreter alone.  With
--base REV the revision is checked out into a temporary git worktree (its kernels compiled
once there) and both trees are timed by turns, so that both see the same machine load; the
median of --runs is shown.  The CPU time (user + sys) is shown too: on a busy machine it moves
less than the wall time.  Targets (issue 17): solve <= 0.5 s, check-word <= 0.15 s (wall).

Python writes no bytecode cache where PYTHONDONTWRITEBYTECODE is set (as on this project's
sandbox), and then compiles each of literaki's modules on every run; the figures say which.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, build_core, machine  # noqa: E402

POSITION = "examples/positions/20-middle-35tiles-1blank.cgp"


def commands(lexicon: list[str]) -> dict[str, list[str]]:
    return {
        "solve POSITION": ["solve", POSITION, *lexicon],
        "solve POSITION --json": ["solve", POSITION, "--json", *lexicon],
        "check-word kot": ["check-word", "kot", *lexicon],
        "score game.cgp K5 KOTY": ["score", "examples/game.cgp", "K5", "KOTY", *lexicon],
        "--version": ["--version"],
    }


def timed(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, int]:
    """(wall s, CPU s of the child, exit code) of one run, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    code = subprocess.run(args, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, code


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--base", help="a git revision to compare with (checked out into a temporary worktree)")
    parser.add_argument("--lexicon", type=Path, default=None)
    args = parser.parse_args()
    lexicon = ["--lexicon", str(args.lexicon)] if args.lexicon else []
    print(f"machine: {machine()}")
    print("bytecode cache: " + ("off (PYTHONDONTWRITEBYTECODE): literaki's modules are compiled on each run"
                                if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"))  # fmt: skip
    trees = {"now": ROOT}
    with tempfile.TemporaryDirectory() as tmp:
        if args.base:
            base = Path(tmp) / "base"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.base], check=True,
                           capture_output=True)  # fmt: skip
            trees = {args.base: base, "now": ROOT}
        try:
            envs = {name: dict(os.environ, PYTHONPATH=str(tree)) for name, tree in trees.items()}
            for name, tree in trees.items():  # a release build of each tree's Rust core, where it has one
                print(f"{name}: {build_core(tree)}", flush=True)
            for name, tree in trees.items():  # compile (or load) the kernels once, outside the timing
                subprocess.run([sys.executable, "-m", "literaki_cli", *commands(lexicon)["solve POSITION"]],
                               env=envs[name], cwd=tree, capture_output=True, check=True)  # fmt: skip
            rows = {"python -c pass": [sys.executable, "-c", "pass"]}
            rows |= {label: [sys.executable, "-m", "literaki_cli", *cmd] for label, cmd in commands(lexicon).items()}
            results: dict[tuple[str, str], list[tuple[float, float]]] = {}
            for _ in range(args.runs):
                for label, argv in rows.items():
                    for name, tree in trees.items():
                        wall, cpu, code = timed(argv, envs[name], tree)
                        if code not in (0, 1):
                            sys.exit(f"{label} at {name} exited {code}")
                        results.setdefault((label, name), []).append((wall, cpu))
        finally:
            if args.base:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                               capture_output=True)  # fmt: skip
    summary = {}
    print(f"median of {args.runs} runs, wall s (CPU s):")
    for label in rows:
        cells = []
        for name in trees:
            walls = [w for w, _ in results[(label, name)]]
            cpus = [c for _, c in results[(label, name)]]
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            summary[f"{label} [{name}]"] = round(wall, 3)
            cells.append(f"{name}: {wall:.3f} ({cpu:.3f})")
        print(f"  {label:<26} " + "   ".join(cells))
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
