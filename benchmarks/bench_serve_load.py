"""The board's server under load (issues 29 and 42): players editing while others ask for every
move of racks with two blanks and a simulation runs.

    python benchmarks/bench_serve_load.py [--lexicon FILE] [--editors 20] [--edits 1000] [--heavy 10]

Starts ``literaki serve`` as a whole process on a free loopback port and a long simulation job (as
a page's *Simulate* does: it runs in its job process).  Once it runs, ``--editors`` threads make
``--edits`` edits in all, each what the page asks after an edit: ``/api/position`` and the first
page of ``/api/moves`` (a mid-game example position with 7 tiles drawn at random from its unseen
tiles, no blank: every edit a new position), timed from the first byte sent to the last read;
meanwhile ``--heavy`` threads each page through every move (200 rows a page) of a mid-game
position with two blanks on the rack, one position after another (each new to the server), until
the edits are done.  Reported: the machine, the edits answered and failed, their latency
percentiles (the target: p95 <= 500 ms), the heavy lists made, the simulation's iterations
meanwhile, and the peak RSS of the server and of its job process (the target: <= 600 MB together).
Bounded: each request has a 60 s timeout, the whole run ``--limit`` seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
import urllib.error
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_serve import DEFAULT_LEXICON, middle_positions, peak_rss_mb, post, start_server  # noqa: E402
from common import machine  # noqa: E402


def job_children(pid: int) -> list[int]:
    """The server's child processes (its job processes), as Linux lists each thread's children."""
    return [int(child) for tasks in Path(f"/proc/{pid}/task").glob("*/children") for child in tasks.read_text().split()]


def percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(share * len(sorted_values)))]


def drawn_positions(count: int, seed: int, blanks: int = 0) -> list[str]:
    """``count`` positions: the mid-game example positions (no blank on the rack) in turn, each
    with a rack of ``blanks`` blanks and tiles drawn at random from what its mover cannot see
    (blanks left out) to 7: a new position each."""
    import random

    from literaki_cli.analysis.positionquery import unseen_tiles_of
    from literaki_cli.io.positionio import read_cgp, write_cgp

    rng = random.Random(seed)
    positions = [read_cgp(cgp, None, "bench") for cgp in middle_positions()]
    out = []
    for k in range(count):
        position = positions[k % len(positions)]
        unseen = unseen_tiles_of(position, position.rack or None).counts
        pool = [tile for tile, n in unseen.items() for _ in range(n) if tile != "?"]
        out.append(write_cgp(replace(position, racks=["?" * blanks + "".join(rng.sample(pool, 7 - blanks))])))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--editors", type=int, default=20)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument("--heavy", type=int, default=10)
    parser.add_argument("--limit", type=float, default=1200.0, help="seconds the whole load may take")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon} (build one: literaki build-lexicon; or give --lexicon)")
    edits = drawn_positions(args.edits, 2026)
    heavy_positions = drawn_positions(2000, 7, blanks=2)
    server, address = start_server(args.lexicon)
    try:
        for cgp in middle_positions(blanks=True):  # warm: the lexicon opened, the core's tables made (not counted)
            post(address + "api/moves", {"position": cgp})
        job = post(address + "api/jobs", {"kind": "sim", "position": middle_positions()[0], "iterations": 100_000},
                   {"x-literaki-client": "the simulating page"})  # fmt: skip
        view = job
        while view["state"] != "running" or view["done"] == 0:  # its process started, a round done
            time.sleep(0.2)
            view = post_get(address + f"api/jobs/{job['id']}")
        sim_before = view["done"]
        latencies: list[float] = []
        failures: list[str] = []
        heavy_lists: list[float] = []
        heavy_failures: list[str] = []
        lock = threading.Lock()
        counter = iter(range(args.edits))
        heavy_counter = iter(range(len(heavy_positions)))
        deadline = time.monotonic() + args.limit
        editing = threading.Event()

        def editor(number: int) -> None:
            for k in counter:
                if time.monotonic() > deadline:
                    with lock:
                        failures.append("not sent: the run's time limit")
                    continue
                started = time.perf_counter()
                try:
                    headers = {"x-literaki-client": f"editor {number}"}
                    post(address + "api/position", {"position": edits[k]}, headers)
                    answer = post(address + "api/moves", {"position": edits[k], "limit": 50}, headers)
                    ok, why = "rows" in answer, "no rows in the answer"
                except (OSError, urllib.error.HTTPError, ValueError) as exc:
                    ok, why = False, f"{type(exc).__name__}: {exc}"
                elapsed = time.perf_counter() - started
                with lock:
                    (latencies.append(elapsed) if ok else failures.append(why))

        def heavy(number: int) -> None:
            for k in heavy_counter:
                if editing.is_set() or time.monotonic() > deadline:
                    return
                started = time.perf_counter()
                try:
                    offset, total = 0, 1
                    while offset < total:
                        answer = post(address + "api/moves", {"position": heavy_positions[k], "offset": offset,
                                                              "limit": 200, "fold": False},
                                      {"x-literaki-client": f"heavy {number}"})  # fmt: skip
                        total, offset = answer["total"], offset + 200
                    with lock:
                        heavy_lists.append(time.perf_counter() - started)
                except (OSError, urllib.error.HTTPError, ValueError, KeyError) as exc:
                    with lock:
                        heavy_failures.append(f"{type(exc).__name__}: {exc}")

        loading = threading.Event()

        def simulating_page() -> None:  # follows its job as the page does (else it is cancelled)
            while not loading.wait(0.3):
                post_get(address + f"api/jobs/{job['id']}")

        follower = threading.Thread(target=simulating_page)
        follower.start()
        heavies = [threading.Thread(target=heavy, args=(n,)) for n in range(args.heavy)]
        for t in heavies:
            t.start()
        time.sleep(1.0)  # the heavy lists under way
        started = time.perf_counter()
        threads = [threading.Thread(target=editor, args=(n,)) for n in range(args.editors)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        editing.set()
        for t in heavies:
            t.join()
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
    print(f"{args.editors} editors, {args.edits} edits (/api/position and the first page of /api/moves, a new "
          f"position each) while {args.heavy} clients page through every move of two-blank racks and a "
          "simulation job runs")  # fmt: skip
    first_failure = f" (first: {failures[0]})" if failures else ""
    print(f"edits answered: {len(latencies)}; failed: {len(failures)}{first_failure}")
    if latencies:
        print(f"an edit's answer: p50 {statistics.median(latencies) * 1000:.0f} ms, p90 "
              f"{percentile(latencies, 0.9) * 1000:.0f} ms, p95 {percentile(latencies, 0.95) * 1000:.0f} ms, p99 "
              f"{percentile(latencies, 0.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms (target p95 <= 500 ms)")
    print(f"throughput: {len(latencies) / wall:.1f} edits/s over {wall:.1f} s")
    heavy_median = statistics.median(heavy_lists) if heavy_lists else float("nan")
    print(f"every move of two-blank racks: {len(heavy_lists)} lists paged through (median {heavy_median:.1f} s "
          f"each); failed: {len(heavy_failures)}" + (f" (first: {heavy_failures[0]})" if heavy_failures else ""))
    print(f"the simulation meanwhile: {sim_during} iterations, still {sim_state}")
    print(f"peak RSS: the server {rss:.0f} MB, its job process {job_rss:.0f} MB (the largest of its children), "
          f"{rss + job_rss:.0f} MB together (target <= 600 MB)")


def post_get(url: str) -> dict:
    import json
    import urllib.request

    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.loads(answer.read())


if __name__ == "__main__":
    main()
