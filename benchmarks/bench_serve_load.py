"""The board's server under load (issue 29): many clients editing while a simulation runs.

    python benchmarks/bench_serve_load.py [--lexicon FILE] [--clients 20] [--requests 2000]

Starts ``literaki serve`` as a whole process on a free loopback port, starts a long simulation
job (as a page's *Simulate* does: it runs in its job process), and once it runs, ``--clients``
threads post ``--requests`` ``/api/solve`` requests in all (the example mid-game positions,
blanks included, in turn), each timed from the first byte sent to the last byte read.  Then the
simulation is cancelled.  Reported: the machine, the requests answered and lost or failed, the
latency percentiles, the throughput, the iterations the simulation made meanwhile (it must go
on), the server's and the job process's peak RSS.  Bounded: each request has a 60 s timeout,
the whole run ``--limit`` seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import urllib.error
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import DEFAULT_LEXICON, middle_positions, peak_rss_mb, post, start_server  # noqa: E402
from common import machine  # noqa: E402


def job_children(pid: int) -> list[int]:
    """The server's child processes (its job processes), as Linux lists each thread's children."""
    return [int(child) for tasks in Path(f"/proc/{pid}/task").glob("*/children") for child in tasks.read_text().split()]


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--limit", type=float, default=1200.0, help="seconds the whole load may take")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon} (build one: literaki build-lexicon; or give --lexicon)")
    positions = middle_positions(blanks=True)
    server, address = start_server(args.lexicon)
    try:
        for cgp in positions:  # warm: the lexicon opened, the kernels loaded (not counted)
            post(address + "api/solve", {"position": cgp})
        job = post(address + "api/jobs", {"kind": "sim", "position": positions[0], "iterations": 100_000},
                   {"x-literaki-client": "the simulating page"})  # fmt: skip
        view = job
        while view["state"] != "running" or view["done"] == 0:  # its process started, a round done
            time.sleep(0.2)
            view = post_get(address + f"api/jobs/{job['id']}")
        sim_before = view["done"]
        latencies: list[float] = []
        failures: list[str] = []
        lock = threading.Lock()
        counter = iter(range(args.requests))
        deadline = time.monotonic() + args.limit

        def client(number: int) -> None:
            for k in counter:
                if time.monotonic() > deadline:
                    with lock:
                        failures.append("not sent: the run's time limit")
                    continue
                cgp = positions[k % len(positions)]
                started = time.perf_counter()
                try:
                    answer = post(address + "api/solve", {"position": cgp, "top": 20},
                                  {"x-literaki-client": f"client {number}"})  # fmt: skip
                    ok = bool(answer.get("moves"))
                    why = "no moves in the answer"
                except (OSError, urllib.error.HTTPError, ValueError) as exc:
                    ok, why = False, f"{type(exc).__name__}: {exc}"
                elapsed = time.perf_counter() - started
                with lock:
                    (latencies.append(elapsed) if ok else failures.append(why))

        loading = threading.Event()

        def simulating_page() -> None:  # follows its job as the page does (else it is cancelled)
            while not loading.wait(0.3):
                post_get(address + f"api/jobs/{job['id']}")

        follower = threading.Thread(target=simulating_page)
        follower.start()
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        loading.set()
        follower.join()
        view = post_get(address + f"api/jobs/{job['id']}")
        sim_during = view["done"] - sim_before
        sim_state = view["state"]
        job_rss = max((peak_rss_mb(pid) for pid in job_children(server.pid)), default=float("nan"))
        post(address + f"api/jobs/{job['id']}/cancel", {})
        rss = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies.sort()
    print(f"machine: {machine()}")
    print(f"{args.clients} clients, {args.requests} /api/solve requests of {len(positions)} mid-game positions "
          f"(blanks included) while a simulation job runs")  # fmt: skip
    print(f"answered: {len(latencies)}; lost or failed: {len(failures)}"
          + (f" (first: {failures[0]})" if failures else ""))  # fmt: skip
    if latencies:
        print(f"latency: p50 {statistics.median(latencies) * 1000:.0f} ms, p90 {percentile(latencies, 0.9) * 1000:.0f} "
              f"ms, p95 {percentile(latencies, 0.95) * 1000:.0f} ms, p99 {percentile(latencies, 0.99) * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000:.0f} ms")  # fmt: skip
    print(f"throughput: {len(latencies) / wall:.1f} requests/s over {wall:.1f} s")
    print(f"the simulation meanwhile: {sim_during} iterations, still {sim_state}")
    print(f"peak RSS: the server {rss:.0f} MB, its job process {job_rss:.0f} MB (the largest of its children)")


def post_get(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


if __name__ == "__main__":
    main()
