"""``simulate --ray``: the same tables on a Ray cluster as in one local process, a cluster run
interrupted by Ctrl-C and resumed, and the one-line errors without Ray or without a cluster.

The cluster is a local Ray head with two worker slots, started by each test inside a network
namespace that holds only loopback (tests/loopback_ray.py): nothing leaves 127.0.0.1.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from literaki_cli.cli import main
from tests.loopback_ray import (
    HEAD_PORT,
    RAY_CLIENT_PORT,
    namespace_unavailable,
    ray_unavailable,
    run_in_loopback_cluster,
)

pytestmark = pytest.mark.slow  # a Ray cluster in a network namespace

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("turns", "games", "players")

needs_cluster = pytest.mark.skipif(
    bool(ray_unavailable() or namespace_unavailable()),
    reason=f"no loopback-only Ray cluster here: {ray_unavailable() or namespace_unavailable()}",
)


def run_args(game_lexicon, games: int, out: Path, *more: str) -> list[str]:
    lexicon, levels = game_lexicon
    return ["simulate", "--players", "slaby,mistrz", "--games", str(games), "--seed", "11",
            "--lexicon", str(lexicon.path), "--levels", str(levels), "--out", str(out), *more]  # fmt: skip


def shell(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in [sys.executable, "-m", "literaki_cli", *args])


def assert_same_tables(folder: Path, reference: Path) -> None:
    for name in TABLES:
        got, want = (pl.read_parquet(f / f"{name}.parquet") for f in (folder, reference))
        assert got.columns == want.columns, name
        assert got.height == want.height, name
        assert got.equals(want), f"{name}.parquet differs from the --workers 1 run"
        assert (folder / f"{name}.csv").read_bytes() == (reference / f"{name}.csv").read_bytes(), name


@pytest.fixture(scope="module")
def reference(game_lexicon, tmp_path_factory):
    """The 40 games of the tests' run played by one local worker: what every runner must give."""
    out = tmp_path_factory.mktemp("ray-reference") / "run"
    assert main(run_args(game_lexicon, 40, out, "--workers", "1")) == 0
    return out


#: The games of the run stopped by Ctrl-C: enough that the key lands while games are still to
#: play (40 take under a second, and the progress bar shows a few of them late).
STOPPED_GAMES = 200


@pytest.fixture(scope="module")
def stopped_reference(game_lexicon, tmp_path_factory):
    """The games of the run stopped and resumed, played by one local worker."""
    out = tmp_path_factory.mktemp("ray-stopped-reference") / "run"
    assert main(run_args(game_lexicon, STOPPED_GAMES, out, "--workers", "1")) == 0
    return out


@needs_cluster
def test_a_cluster_run_gives_the_tables_of_one_local_worker(game_lexicon, reference, tmp_path):
    auto, head, client = (tmp_path / name for name in ("auto", "head", "client"))
    body = " && ".join([
        shell(run_args(game_lexicon, 40, auto, "--ray", "auto")),
        shell(run_args(game_lexicon, 40, head, "--ray", f"127.0.0.1:{HEAD_PORT}", "--workers", "1")),
        shell(run_args(game_lexicon, 40, client, "--ray", f"ray://127.0.0.1:{RAY_CLIENT_PORT}")),
    ])  # fmt: skip
    done = run_in_loopback_cluster(body)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert done.leftovers == []
    for folder in (auto, head, client):
        assert_same_tables(folder, reference)
        assert "40 games in" in done.stderr


DRIVER = """
import re, sys, pexpect
args = sys.argv[1:]
child = pexpect.spawn(args[0], args[1:], encoding="utf-8", timeout=300, dimensions=(24, 160))
while True:  # the progress bar: wait until a few games are in, then press Ctrl-C
    child.expect(r"(\\d+)/GAMES \\[")
    if int(child.match.group(1)) >= 4:
        break
child.sendintr()
child.expect(pexpect.EOF)
child.close()
print(child.before)
sys.exit(child.exitstatus if child.exitstatus is not None else 200)
""".replace("GAMES", str(STOPPED_GAMES))


@needs_cluster
def test_a_cluster_run_stopped_by_ctrl_c_keeps_its_games_and_resumes(game_lexicon, stopped_reference, tmp_path):
    out = tmp_path / "run"
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    interrupted = shlex.join([sys.executable, str(driver), sys.executable, "-m", "literaki_cli",
                              *run_args(game_lexicon, STOPPED_GAMES, out, "--ray", "auto")])  # fmt: skip
    resumed = shell(["simulate", "--resume", str(out), "--ray", f"127.0.0.1:{HEAD_PORT}"])
    body = f"{interrupted}; echo interrupted-exit=$?; {resumed}"
    done = run_in_loopback_cluster(body)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "interrupted-exit=130" in done.stdout, done.stdout[-3000:]
    assert "interrupted: " in done.stdout
    assert f" of {STOPPED_GAMES} games kept; continue with --resume" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert done.leftovers == []
    assert_same_tables(out, stopped_reference)


def test_without_ray_the_option_names_the_extra_to_install(game_lexicon, tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # as if Ray were not installed
    out = tmp_path / "run"
    assert main(run_args(game_lexicon, 2, out, "--ray", "auto")) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("literaki: error: --ray needs Ray, which is not installed: pip install 'ray[client]>=2.9' "
                   "(in literaki's checkout: pip install '.[cluster]')")
    assert not out.exists()  # refused before the run folder is made


@pytest.mark.parametrize(
    ("address", "message"),
    [("nowhere", "give auto, HOST:PORT"), ("127.0.0.1:1", "no Ray cluster answers there"),
     ("ray://127.0.0.1:1", "no Ray cluster answers there")],
)  # fmt: skip
def test_a_bad_or_silent_address_is_one_line(game_lexicon, tmp_path, capsys, address, message):
    pytest.importorskip("ray", reason="Ray is not installed (the cluster extra)")
    out = tmp_path / "run"
    assert main(run_args(game_lexicon, 2, out, "--ray", address)) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not out.exists()


@needs_cluster
def test_leave_training_generations_on_the_cluster_learn_what_local_workers_learn(flowing_lexicon, tmp_path):
    from literaki_cli.equity.leaves import load_leaves
    from tests.test_leave_generations import LEVELS, same_values

    levels = tmp_path / "levels.toml"
    levels.write_text(LEVELS, encoding="utf-8")

    def args(out: Path, *more: str) -> list[str]:
        return ["leaves", "train", "--generations", "2", "--games", "10", "--players", "uczen,slaby", "--seed", "3",
                "--lexicon", str(flowing_lexicon.path), "--levels", str(levels), "--min-count", "1",
                "--out", str(out), *more]  # fmt: skip

    local, cluster = tmp_path / "local.leaves", tmp_path / "cluster.leaves"
    assert main(args(local, "--workers", "1")) == 0
    done = run_in_loopback_cluster(shell(args(cluster, "--ray", "auto")))
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.leftovers == []
    assert same_values(load_leaves(cluster), load_leaves(local))
    for generation in (1, 2):  # generation 2 played with generation 1's values, learned alike to the bit
        cluster_run, local_run = (tmp_path / f"{name}.leaves.runs/gen{generation}" for name in ("cluster", "local"))
        assert_same_tables(cluster_run, local_run)


@needs_cluster
def test_auto_without_a_cluster_says_how_to_start_one(game_lexicon, tmp_path):
    from tests.loopback_ray import UNSHARE

    out = tmp_path / "run"
    script = "ip link set lo up; " + shell(run_args(game_lexicon, 2, out, "--ray", "auto"))
    done = subprocess.run([*UNSHARE, "bash", "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == ("literaki: error: --ray auto: no Ray cluster runs on this machine; "
                                   "start one (ray start --head) or give its head's address")  # fmt: skip
    assert not out.exists()


KILLER = """
import os, signal, subprocess, sys, time, pexpect
args = sys.argv[1:]
child = pexpect.spawn(args[0], args[1:], encoding="utf-8", timeout=300, dimensions=(24, 160))
child.expect(r"[1-9]\\d*/100000 \\[")  # games are being played on the actors
def actors():
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in ps.splitlines() if "SimulationActor" in line]
assert actors(), "no actor process seen"
os.kill(child.pid, signal.SIGKILL)
deadline = time.monotonic() + 60
while actors() and time.monotonic() < deadline:
    time.sleep(0.5)
print("actors left:", len(actors()))
"""


@needs_cluster
def test_a_killed_driver_leaves_no_actor_playing(game_lexicon, tmp_path):
    killer = tmp_path / "killer.py"
    killer.write_text(KILLER, encoding="utf-8")
    command = shlex.join([sys.executable, str(killer), sys.executable, "-m", "literaki_cli",
                          *run_args(game_lexicon, 100000, tmp_path / "run", "--ray", "auto")])  # fmt: skip
    done = run_in_loopback_cluster(command)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "actors left: 0" in done.stdout  # Ray ends a dead driver's actors: the cluster is free again
    assert (tmp_path / "run" / "run.json").is_file()  # and the folder can be resumed


BAD_LEXICON = """
import sys
from pathlib import Path
from literaki_cli.analysis.simulate import RunConfig, run_simulation
from literaki_cli.cluster import RayRunner
from literaki_cli.errors import LiterakiError
bad = Path(sys.argv[1])
bad.write_bytes(b"not a lexicon at all")
try:
    run_simulation(RunConfig(["slaby", "mistrz"], 4, 1, lexicon=str(bad), levels=sys.argv[2]), RayRunner("auto"), None)
except LiterakiError as exc:
    print("ERROR:", exc)
"""


@needs_cluster
def test_a_failure_on_an_actor_is_one_line_naming_the_users_file(game_lexicon, tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(BAD_LEXICON, encoding="utf-8")
    bad = tmp_path / "bad.lexicon"
    done = run_in_loopback_cluster(shlex.join([sys.executable, str(script), str(bad), str(game_lexicon[1])]))
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"ERROR: on the Ray cluster: {bad}: not a literaki lexicon file" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr  # the actor's traceback is not forwarded


def test_shipped_files_land_once_per_content_in_the_machines_cache(tmp_path, monkeypatch):
    from literaki_cli.analysis.simulate import RunConfig
    from literaki_cli.cluster.raysim import materialize, shipment

    lexicon, leaves = tmp_path / "a.lexicon", tmp_path / "mine.leaves"
    lexicon.write_bytes(b"lexicon bytes")
    leaves.write_bytes(b"leave bytes")
    monkeypatch.setenv("LITERAKI_LEAVES", str(leaves))  # the driver's default leave file goes along
    files = shipment(RunConfig(["a", "b"], 1, 1, lexicon=str(lexicon)))
    assert files == {"lexicon": ("a.lexicon", b"lexicon bytes"), "leaves": ("mine.leaves", b"leave bytes")}
    cache = tmp_path / "cache"
    first = materialize(files, cache)
    assert Path(first["lexicon"]).read_bytes() == b"lexicon bytes" and Path(first["lexicon"]).name == "a.lexicon"
    assert materialize(files, cache) == first  # the same contents: the same file, written once
    lexicon.write_bytes(b"another lexicon")
    assert (
        materialize(shipment(RunConfig(["a", "b"], 1, 1, lexicon=str(lexicon))), cache)["lexicon"] != first["lexicon"]
    )
    assert not list(cache.rglob(".*.tmp"))


@pytest.mark.parametrize("command", [["simulate"], ["leaves", "train"]])
def test_the_help_names_the_extra_whole(command, capsys):
    """Rich would read '[cluster]' as markup and drop it from the help."""
    done = subprocess.run([sys.executable, "-m", "literaki_cli", *command, "--help"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "300"})  # fmt: skip
    assert "pip install '.[cluster]'" in done.stdout


@needs_cluster
def test_many_games_reviewed_on_the_cluster_give_the_local_report(game_lexicon, tmp_path, capsys):
    """``analyze FOLDER --ray``: the cluster's actors review the games (their bytes sent from the
    driver) and the report is the one a local run gives, a file that cannot be read included."""
    import json

    lexicon, _ = game_lexicon
    games = tmp_path / "games"
    assert main(["simulate", "--games", "6", "--players", "trudny,normalny", "--seed", "3", "--gcg", "--out",
                 str(tmp_path / "run"), "--lexicon", str(lexicon.path), "--workers", "1"]) == 0  # fmt: skip
    (tmp_path / "run" / "gcg").rename(games)
    (games / "zz-broken.gcg").write_text("#player1 a A\n>a: ABC 8H KOT +6\n", encoding="utf-8")
    args = ["analyze", str(games), "--endgame-time", "0", "--json", "--lexicon", str(lexicon.path)]
    capsys.readouterr()
    assert main(args) == 4
    local = json.loads(capsys.readouterr().out)
    done = run_in_loopback_cluster(shell([*args, "--ray", "auto"]) + " > " + shlex.quote(str(tmp_path / "ray.json"))
                                   + "; test $? -eq 4")  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and done.leftovers == []
    remote = json.loads((tmp_path / "ray.json").read_text(encoding="utf-8"))

    def timeless(report):
        return {**report, "games": [{k: v for k, v in g.items() if k != "seconds"} for g in report["games"]]}

    assert timeless(remote) == timeless(local)
    assert remote["games"][-1]["error"].startswith(f"{games / 'zz-broken.gcg'}:2: ")
