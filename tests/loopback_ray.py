"""A local Ray cluster that can talk over loopback only, for the tests and the benchmark.

Ray binds to the machine's own network address even when told ``--node-ip-address=127.0.0.1``.
So the head, its workers and the driver all run inside a fresh network namespace that holds
only the loopback interface (``unshare --net``; checked before Ray starts), where Ray has no
address but 127.0.0.1 and no packet can leave the machine.  The namespace also has its own
process tree (``--pid --fork --mount-proc``): when the script ends, the kernel ends every
process left in it, so no Ray process outlives a test.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The head's port inside the namespace (nothing else listens there).
HEAD_PORT = 6379
RAY_CLIENT_PORT = 10001
UNSHARE = ["unshare", "--net", "--pid", "--fork", "--mount-proc"]


def namespace_unavailable() -> str | None:
    """Why the tests cannot make a loopback-only namespace here (None when they can)."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        return "needs unshare and ip (util-linux, iproute2)"
    try:
        probe = subprocess.run([*UNSHARE, "ip", "link", "set", "lo", "up"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot run unshare: {exc}"
    if probe.returncode != 0:
        return f"cannot make a network namespace (needs root or user namespaces): {probe.stderr.strip()[:200]}"
    return None


def ray_unavailable() -> str | None:
    try:
        import ray  # noqa: F401
    except ImportError:
        return "Ray is not installed (pip install '.[cluster]', part of the test extra)"
    return None


def cluster_script(body: str, ray_dir: Path, cpus: int = 2) -> str:
    """A bash script: loopback up (and proven the only interface), a Ray head with ``cpus``
    worker slots, ``body``, then the head stopped; exits with ``body``'s status."""
    ray = shlex.quote(str(Path(sys.executable).with_name("ray")))
    log = shlex.quote(str(ray_dir / "start.log"))
    return f"""
set -u
ip link set lo up
links=$(ip -o link show | awk -F': ' '{{print $2}}' | tr '\\n' ' ')
if [ "$links" != "lo " ]; then echo "the namespace has more than loopback: $links" >&2; exit 97; fi
export RAY_USAGE_STATS_ENABLED=0
{ray} start --head --port {HEAD_PORT} --num-cpus {cpus} --include-dashboard=false --disable-usage-stats \\
    --object-store-memory 150000000 --temp-dir {shlex.quote(str(ray_dir))} >{log} 2>&1 \\
    || {{ cat {log} >&2; exit 98; }}
( {body} )
status=$?
if [ $status -ne 0 ]; then  # what Ray's own servers said, for the failure report
    tail -n 20 {shlex.quote(str(ray_dir))}/session_latest/logs/ray_client_server*.err >&2 2>/dev/null
fi
{ray} stop --force >/dev/null 2>&1
exit $status
"""


def run_in_loopback_cluster(body: str, timeout: float = 900, cpus: int = 2) -> subprocess.CompletedProcess:
    """Run the bash ``body`` beside a fresh local Ray head, all inside a loopback-only namespace.
    The head is at 127.0.0.1:HEAD_PORT (also found by ``--ray auto``).  The result's
    ``leftovers`` lists any process of that cluster still running afterwards (there should be none)."""
    # a short folder: Ray's socket paths under it must stay within the 107 bytes a socket name may have
    ray_dir = Path(tempfile.mkdtemp(prefix="lray", dir="/tmp"))
    try:
        result = subprocess.run(
            [*UNSHARE, "bash", "-c", cluster_script(body, ray_dir, cpus)],
            capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        result.leftovers = processes_mentioning(str(ray_dir))
        return result
    finally:
        shutil.rmtree(ray_dir, ignore_errors=True)


def processes_mentioning(text: str) -> list[str]:
    """Command lines of this machine's processes that contain ``text`` (leftover checks)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(cmdline)
    return found
