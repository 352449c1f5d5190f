"""Self-play on a Ray cluster against local workers: games/s for --workers 1, --workers 2 and
--ray on a local two-CPU cluster, and what Ray itself costs (joining, starting the actors, one
task's round trip).

    python benchmarks/bench_cluster.py [--lexicon FILE] [--games N] [--runs R] [--players A,B]

The cluster runs inside a network namespace holding only loopback (tests/loopback_ray.py), as
in the tests: nothing leaves 127.0.0.1.  Every mode plays the same seeded games (their tables
are identical; tests/test_ray.py checks that), so the rates compare like with like.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))
from bench_solve import ensure_lexicon  # noqa: E402
from common import machine  # noqa: E402

from literaki_cli.analysis.simulate import RunConfig, run_simulation  # noqa: E402

#: Round trips timed for one actor call's overhead (a call that does nothing).
ROUND_TRIPS = 300


def config(args, lexicon: Path) -> RunConfig:
    return RunConfig(players=args.players.split(","), games=args.games, seed=2026, lexicon=str(lexicon))


def timed_run(args, lexicon: Path, runner) -> dict:
    """One run: games/s over the whole run, the start-up (to the first finished game: workers
    started, lexicon opened, kernels loaded) and games/s after it."""
    finished = []
    started = time.perf_counter()
    run_simulation(config(args, lexicon), runner, None, on_game=lambda _: finished.append(time.perf_counter()))
    whole = time.perf_counter() - started
    after = (len(finished) - 1) / (finished[-1] - finished[0]) if len(finished) > 1 else float("nan")
    return {"rate": len(finished) / whole, "startup": finished[0] - started, "steady": after}


def medians(runs: list[dict]) -> dict:
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


class Echo:
    """An actor that does nothing: its calls time Ray's own cost per task."""

    def ping(self, batch: list[int]) -> list[int]:
        return batch


def inside(args) -> None:
    """Run in the namespace beside the head: the Ray rates and overheads, as one JSON line."""
    import ray

    from literaki_cli.cluster import RayRunner

    started = time.perf_counter()
    ray.init(address="auto", logging_level="ERROR")
    joined = time.perf_counter() - started
    actor = ray.remote(num_cpus=1)(Echo).remote()
    started = time.perf_counter()
    ray.get(actor.ping.remote([0]))
    actor_start = time.perf_counter() - started
    trips = []
    for _ in range(ROUND_TRIPS):
        t = time.perf_counter()
        ray.get(actor.ping.remote(list(range(8))))
        trips.append(time.perf_counter() - t)
    ray.kill(actor)
    ray.shutdown()
    runs = [timed_run(args, args.lexicon, RayRunner("auto")) for _ in range(args.runs)]
    print(json.dumps({"runs": runs, "join": joined, "actor_start": actor_start,
                      "round_trip_ms": 1000 * statistics.median(trips)}))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", default="trudny,trudny")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args)
        return
    from tests.loopback_ray import namespace_unavailable, ray_unavailable, run_in_loopback_cluster

    print(f"machine: {machine()}")
    print(f"{args.games} games of {args.players}, median of {args.runs} runs (workers started afresh each run)")
    with tempfile.TemporaryDirectory() as tmp:
        lexicon = ensure_lexicon(args.lexicon, Path(tmp))
        rates = {}
        for workers in (1, 2):
            rates[f"--workers {workers}"] = medians([timed_run(args, lexicon, workers) for _ in range(args.runs)])
        reason = ray_unavailable() or namespace_unavailable()
        overhead = None
        if reason:
            print(f"--ray skipped: {reason}")
        else:
            body = shlex.join([sys.executable, __file__, "--inside", "--lexicon", str(lexicon), "--games",
                               str(args.games), "--runs", str(args.runs), "--players", args.players])  # fmt: skip
            done = run_in_loopback_cluster(body, timeout=3600)
            if done.returncode != 0:
                raise SystemExit(f"the Ray run failed:\n{done.stderr[-2000:]}")
            overhead = json.loads(done.stdout.strip().splitlines()[-1])
            rates["--ray (2-CPU local cluster)"] = medians(overhead["runs"])
    print(f"{'runner':<30}{'games/s':>10}{'vs --workers 2':>16}{'start-up s':>12}{'games/s after':>15}")
    for name, r in rates.items():
        print(f"{name:<30}{r['rate']:>10.2f}{r['rate'] / rates['--workers 2']['rate']:>15.0%}"
              f"{r['startup']:>12.2f}{r['steady']:>15.2f}")  # fmt: skip
    if overhead:
        print(f"Ray: joining the cluster {overhead['join']:.2f} s, an actor's start {overhead['actor_start']:.2f} s, "
              f"one task's round trip {overhead['round_trip_ms']:.2f} ms (median of {ROUND_TRIPS})")  # fmt: skip


if __name__ == "__main__":
    main()
