"""Helpers shared by the benchmark scripts: the machine description, timing of whole
processes (wall time and peak RSS through wait4), medians."""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SJP_ZIP = Path(os.environ.get("LITERAKI_SJP_ZIP", ROOT.parent / "shared" / "sjp" / "sjp-20260201.zip"))


def machine() -> str:
    """One line naming the CPU, cores, memory and Python: benchmark figures mean little without it."""
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{mem_kb / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        mem = "? GiB"
    return f"{cpu}, {os.cpu_count()} cores, {mem}, Python {platform.python_version()}, {platform.system()}"


# A tiny launcher measures the command: a child forked from this (large) benchmark process
# would report this process's memory as its own peak RSS.
_LAUNCHER = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
print(json.dumps([wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)]))
"""


def run_process(args: list[str], stdin_path: Path | None = None) -> tuple[float, float, int]:
    """Run a command to completion, output discarded; returns (wall s, peak RSS MB, exit code)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _LAUNCHER, *args], stdin=stdin, capture_output=True, text=True, check=True
        )
    finally:
        if stdin_path:
            stdin.close()
    wall, rss, code = json.loads(proc.stdout)
    return wall, rss, code


def median_p90(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]


def require_sjp() -> Path:
    if not SJP_ZIP.is_file():
        sys.exit(f"benchmark needs the SJP dump at {SJP_ZIP} (set LITERAKI_SJP_ZIP)")
    return SJP_ZIP


@contextmanager
def base_worktree(revision: str, folder: Path) -> Iterator[Path]:
    """``revision`` checked out as a detached git worktree in ``folder / "base"`` (the tree a
    benchmark compares the working tree with), removed again at the end."""
    tree = folder / "base"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), revision], cwd=ROOT, check=True,
                   capture_output=True)  # fmt: skip
    if not (tree / "rust" / "Cargo.toml").is_file() and importlib.util.find_spec("numba") is None:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
        sys.exit(f"{revision} predates the Rust core: its kernels need numba in this environment "
                 "(pip install numba; literaki itself no longer uses it)")  # fmt: skip
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)


def core_module(tree: Path, out: Path, features: tuple[str, ...] = ()) -> Path:
    """The Rust core of ``tree`` built by maturin as a release wheel (with the cargo ``features``
    given), its extension module taken out into ``out``; returns that file."""
    import zipfile

    feature_args = ["--features", ",".join(features)] if features else []
    subprocess.run(["maturin", "build", "--release", "--quiet", *feature_args, "--manifest-path",
                    str(tree / "rust" / "Cargo.toml"), "--out", str(out)], cwd=tree, check=True,
                   capture_output=True)  # fmt: skip
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as zf:
        (name,) = [n for n in zf.namelist() if n.startswith("literaki_cli/_core") and n.endswith(".so")]
        target = out / Path(name).name
        target.write_bytes(zf.read(name))
    return target


def build_core(tree: Path) -> str:
    """Build the Rust core of ``tree`` (when it has one) in release mode and put its extension
    module into the tree's package folder, so that ``PYTHONPATH=tree`` measures exactly that
    source and never a stale or debug build.  Returns what the tree's engine is."""
    import shutil
    import tempfile

    if not (tree / "rust" / "Cargo.toml").is_file():
        return "numba kernels (no Rust core)"
    with tempfile.TemporaryDirectory() as out:
        built = core_module(tree, Path(out))
        # a new file renamed over the old one: a process that has the old one loaded keeps it
        partial = tree / "literaki_cli" / (built.name + ".partial")
        shutil.copyfile(built, partial)
        partial.replace(tree / "literaki_cli" / built.name)
    return "Rust core, release build"


def run_probe(tree: Path, code: str, *args: str) -> dict:
    """Run ``code`` (Python that prints one JSON object last) with ``tree`` first on the path,
    from a scratch folder; exit with its last error line when it fails."""
    import tempfile

    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run([sys.executable, "-c", code, *args], cwd=work, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"{tree}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.splitlines()[-1])
