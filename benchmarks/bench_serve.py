"""The analysis board's latency: what a keystroke costs, from the request to the moves (issue 29).

    python benchmarks/bench_serve.py [--lexicon FILE] [--rounds 20]

Starts ``literaki serve`` as a whole process on a free loopback port (the real server: uvicorn,
the page's API), then, over ``--rounds`` rounds, posts what the page posts after an edit (one
``/api/position`` and one ``/api/solve`` request, as the page does) for each mid-game example
position without a blank (``examples/positions/*-middle-*-0blank.cgp``), and times each pair from
the first byte sent to the last byte of the moves read.  With Debian's chromium and Playwright
present it also times the page's load (navigation to the board drawn and ready), median of 5.
Reported: the machine, the p50 / p95 / max per edit, the server's peak RSS.

Targets (issue): from a keystroke to the updated moves list <= 300 ms (p95) on mid-game positions
without blanks; the page loads in under 1 s; the server's memory under 500 MB.
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ROOT, machine  # noqa: E402

DEFAULT_LEXICON = Path("~/.local/share/literaki/sjp.lexicon").expanduser()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url: str, body: dict, headers: dict | None = None) -> dict:
    sent = {"content-type": "application/json"} | (headers or {})
    request = urllib.request.Request(url, json.dumps(body).encode(), sent)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def page_load_seconds(address: str) -> list[float]:
    """Navigation to the board drawn and ready, five times (empty if no browser here)."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    if chromium is None:
        return []
    times = []
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(5):
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(address)
            page.wait_for_selector("body[data-ready=true]")
            times.append(time.perf_counter() - started)
            page.close()
        browser.close()
    return times


def simulate_meanwhile(address: str, cgp: str):
    """Start a long simulation job (followed as the page follows it) once it runs; the returned
    function cancels it and says how far it went."""
    import threading

    job = post(address + "api/jobs", {"kind": "sim", "position": cgp, "iterations": 100_000},
               {"x-literaki-client": "the simulating page"})  # fmt: skip
    url = address + f"api/jobs/{job['id']}"
    view = job
    while view["state"] != "running" or view["done"] == 0:
        time.sleep(0.2)
        view = json.loads(urllib.request.urlopen(url, timeout=60).read())
    before = view["done"]
    done = threading.Event()
    last = {}

    def follow() -> None:
        while not done.wait(0.3):
            last.update(json.loads(urllib.request.urlopen(url, timeout=60).read()))

    follower = threading.Thread(target=follow)
    follower.start()

    def stop() -> str:
        done.set()
        follower.join()
        post(url + "/cancel", {})
        return (f"a simulation job ran meanwhile: {last.get('done', before) - before} iterations during the edits, "
                f"{last.get('state')}")  # fmt: skip

    return stop


def middle_positions(blanks: bool = False) -> list[str]:
    """The example mid-game positions (``examples/positions/*-middle-*``), without blanks unless asked."""
    pattern = "*-middle-*.cgp" if blanks else "*-middle-*-0blank.cgp"
    return [p.read_text(encoding="utf-8").strip() for p in sorted((ROOT / "examples" / "positions").glob(pattern))]


def start_server(lexicon: Path) -> tuple[subprocess.Popen, str]:
    """``literaki serve`` as a whole process on a free loopback port, once it answers: (the
    process, its address)."""
    port = free_port()
    address = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen([sys.executable, "-m", "literaki_cli", "serve", "--no-open", "--port", str(port),
                               "--lexicon", str(lexicon)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)  # fmt: skip
    server.stdout.readline()
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(address + "api/setup", timeout=5).read()
            return server, address
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                sys.exit(f"the server did not answer: {server.stderr.read()}")
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--with-sim", action="store_true", help="time the edits while a simulation job runs")
    args = parser.parse_args()
    if not args.lexicon.is_file():
        sys.exit(f"no lexicon at {args.lexicon} (build one: literaki build-lexicon; or give --lexicon)")
    positions = middle_positions()
    server, address = start_server(args.lexicon)
    try:
        for cgp in positions:  # warm: the lexicon opened, the kernels loaded (not counted)
            post(address + "api/solve", {"position": cgp})
        simulating = simulate_meanwhile(address, positions[0]) if args.with_sim else None
        edits = []
        for _ in range(args.rounds):
            for cgp in positions:
                started = time.perf_counter()
                post(address + "api/position", {"position": cgp})
                answer = post(address + "api/solve", {"position": cgp, "top": 20})
                edits.append(time.perf_counter() - started)
                assert answer["moves"], cgp
        sim_line = simulating() if simulating else ""
        loads = page_load_seconds(address)
        rss = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    edits.sort()
    p95 = edits[min(len(edits) - 1, int(0.95 * len(edits)))]
    print(f"machine: {machine()}")
    print(f"{len(positions)} mid-game positions without a blank, {args.rounds} rounds: {len(edits)} edits "
          f"(a position and a solve request each)")  # fmt: skip
    if sim_line:
        print(sim_line)
    print(f"an edit to its moves: p50 {statistics.median(edits) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {edits[-1] * 1000:.0f} ms (target p95 <= 300 ms)")  # fmt: skip
    if loads:
        print(f"the page's load: median {statistics.median(loads) * 1000:.0f} ms of {len(loads)} (target < 1 s)")
    else:
        print("the page's load: not measured (no chromium or Playwright here)")
    print(f"the server's peak RSS: {rss:.0f} MB (target < 500 MB)")


if __name__ == "__main__":
    main()
