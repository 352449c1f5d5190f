"""Small things a newcomer meets: the one line announcing the engine's first compile (on a
terminal only), the header of analyze's last column, where ``simulate`` without ``--out``
writes, and ``serve`` on a port already in use."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import run_cli, time_limit

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTICE = "literaki: preparing the engine for first use"


# --------------------------------------------------------------------------- the first compile


def run_with_stderr(args: list[str], cache: Path, cwd: Path, terminal: bool) -> tuple[int, str]:
    """Run ``args`` with numba's cache in ``cache`` and stderr on a pseudo-terminal (or a
    pipe): its exit code and what it wrote on stderr (line ends as ``\\n``)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    env.pop("LITERAKI_NUMBA_FULL_LOAD", None)
    with (cwd / "stdout.txt").open("wb") as stdout, time_limit(600):
        if not terminal:
            done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, env=env,
                                  cwd=cwd, timeout=600)  # fmt: skip
            return done.returncode, done.stderr.decode()
        import pty

        main, secondary = pty.openpty()
        try:
            proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=stdout, stderr=secondary, env=env, cwd=cwd)
        finally:
            os.close(secondary)
        chunks = []
        try:
            while True:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # EIO: every writer of the terminal is gone
                    break
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(main)
        code = proc.wait(timeout=600)
    return code, b"".join(chunks).decode().replace("\r\n", "\n")


@pytest.fixture
def compiling_command_args(small_lexicon, tmp_path) -> list[str]:
    """A command that still compiles kernels with numba: ``solve --endgame`` (the endgame search;
    move generation, word lookups and word study run in the Rust core, with nothing to compile)."""
    return [sys.executable, "-m", "literaki_cli", "solve", str(EXAMPLES / "endgame.cgp"), "--endgame", "--lexicon",
            str(small_lexicon), "--json"]  # fmt: skip


def cached_files(cache: Path) -> list[Path]:
    return [p for p in cache.rglob("*") if p.is_file()]


@pytest.mark.slow
def test_a_cold_cache_on_a_terminal_is_announced_once_and_a_warm_one_is_not(compiling_command_args, tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    code, err = run_with_stderr(compiling_command_args, cache, tmp_path, terminal=True)
    assert code == 0, err
    assert cached_files(cache), "nothing was compiled: the test checks nothing"
    assert err.count(NOTICE) == 1, err
    assert err.startswith(NOTICE) and err.count("\n") == 1, err  # one line, and nothing else
    code, err = run_with_stderr(compiling_command_args, cache, tmp_path, terminal=True)
    assert code == 0 and err == "", err


@pytest.mark.slow
def test_no_announcement_when_stderr_is_not_a_terminal(compiling_command_args, tmp_path):
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    code, err = run_with_stderr(compiling_command_args, cache, tmp_path, terminal=False)
    assert code == 0 and err == "", err
    assert cached_files(cache), "nothing was compiled: the test checks nothing"


@pytest.mark.slow
def test_several_kernels_and_forked_workers_announce_once(tmp_path):
    """Kernels compiled one after another, and by forked workers, still make one line."""
    module = tmp_path / "twokernels.py"
    module.write_text(textwrap.dedent("""
        import multiprocessing

        from numba import njit

        from literaki_cli.engine import jitcache

        jitcache.install()


        @njit(cache=True)
        def first(x):
            return x + 1


        @njit(cache=True)
        def second(x):
            return x * 2.5


        @njit(cache=True)
        def third(x):
            return x - 3


        def in_worker(x):
            return third(x)


        if __name__ == "__main__":
            with multiprocessing.get_context("fork").Pool(2) as pool:  # before anything compiled here
                assert pool.map(in_worker, [1, 2]) == [-2, -1]
            assert first(1) == 2 and second(2.0) == 5.0
    """), encoding="utf-8")  # fmt: skip
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    code, err = run_with_stderr([sys.executable, str(module)], cache, tmp_path, terminal=True)
    assert code == 0, err
    assert err.count(NOTICE) == 1 and err.count("\n") == 1, err


# --------------------------------------------------------------------------- analyze's tables


def header_cells(text: str, after: str) -> list[str]:
    """The header cells of the first table printed after the line starting with ``after``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(after))
    header = next(line for line in lines[start:] if line.startswith("┃"))
    return [cell.strip() for cell in header.strip("┃").split("┃")]


@pytest.mark.parametrize("sim", [False, True], ids=["static", "sim"])
def test_the_last_column_of_a_game_review_has_a_header(flowing_lexicon, tmp_path, capsys, sim):
    game = tmp_path / "game.gcg"
    game.write_bytes((EXAMPLES / "simulated-game.gcg").read_bytes())
    options = ["--sim", "2", "--candidates", "2", "--plies", "1", "--workers", "1"] if sim else []
    code, out, err = run_cli(capsys, "analyze", str(game), "--lexicon", str(flowing_lexicon.path), "--endgame-time",
                             "0", *options)  # fmt: skip
    assert code == 0, err
    cells = header_cells(out, str(game))
    assert ("best by simulation" in cells) == sim
    assert all(cells), cells
    assert cells[-1] == "remarks"


def test_the_last_column_of_many_games_has_a_header(flowing_lexicon, tmp_path, capsys):
    for name in ("a.gcg", "b.gcg"):
        (tmp_path / name).write_bytes((EXAMPLES / "simulated-game.gcg").read_bytes())
    code, out, err = run_cli(capsys, "analyze", str(tmp_path / "a.gcg"), str(tmp_path / "b.gcg"), "--lexicon",
                             str(flowing_lexicon.path), "--endgame-time", "0")  # fmt: skip
    assert code == 0, err
    games = header_cells(out, "2 games reviewed")
    assert all(games) and games[-1] == "remarks", games
    players = header_cells(out, "per player")
    assert all(players), players


# --------------------------------------------------------------------------- simulate without --out


def test_simulate_without_out_says_where_it_writes(game_lexicon, tmp_path, capsys, monkeypatch):
    lexicon, levels = game_lexicon
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "simulate", "--games", "1", "--players", "slaby,mistrz", "--workers", "1",
                             "--lexicon", str(lexicon.path), "--levels", str(levels))  # fmt: skip
    assert code == 0, err
    (folder,) = [p for p in tmp_path.iterdir() if p.name.startswith("sim-")]
    assert re.fullmatch(r"sim-\d{8}-\d{6}", folder.name)
    first = err.splitlines()[0]
    assert first == f"literaki: writing the run to {folder.name}/ in the current folder (give --out DIR to choose)"
    assert f"1 games in {folder.name}/" in err


def test_simulate_with_out_does_not_say_it_again(game_lexicon, tmp_path, capsys):
    lexicon, levels = game_lexicon
    code, out, err = run_cli(capsys, "simulate", "--games", "1", "--players", "slaby,mistrz", "--workers", "1",
                             "--lexicon", str(lexicon.path), "--levels", str(levels), "--out",
                             str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    assert "writing the run to" not in err and "--out DIR" not in err


# --------------------------------------------------------------------------- serve on a busy port


def test_serve_on_a_port_in_use_suggests_another(small_lexicon, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--no-open", "--port", str(port), "--lexicon", str(small_lexicon))
    assert code == 2 and out == ""
    assert err == (f"literaki: error: cannot listen on 127.0.0.1:{port}: port {port} is in use: choose another with "
                   "--port N\n")  # fmt: skip
