"""Small things a newcomer meets: nothing to compile before the first answer, the header of
analyze's last column, where ``simulate`` without ``--out`` writes, and ``serve`` on a port
already in use."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NOTICE = "literaki: preparing the engine for first use"


# --------------------------------------------------------------------------- nothing to compile


@pytest.mark.parametrize("args", [["solve", "endgame.cgp", "--endgame"], ["solve", "peg.cgp", "--peg", "--time", "1"],
                                  ["solve", "game.cgp", "--sim", "--iterations", "20"]],
                         ids=["endgame", "peg", "sim"])  # fmt: skip
def test_the_heaviest_commands_compile_nothing_and_import_no_compiler(small_lexicon, tmp_path, args):
    """The endgame, the pre-endgame and the simulation (the last commands that compiled kernels
    on first use) answer in a fresh home with nothing to prepare (stderr holds no line but the
    script's own) and never import a compiler (numba, llvmlite)."""
    args = [str(EXAMPLES / a) if a.endswith(".cgp") else a for a in args]
    script = ("import json, sys\nfrom literaki_cli.commands import main\ncode = main(sys.argv[1:])\n"
              "sys.stdout.flush()\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)\n")  # fmt: skip
    env = {**os.environ, "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", script, *args, "--lexicon", str(small_lexicon), "--json"],
                            capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(result.stderr.splitlines()) == 1, result.stderr[-2000:]
    modules = set(json.loads(result.stderr))
    assert "literaki_cli._core" in modules
    assert not {m for m in modules if m.split(".")[0] in ("numba", "llvmlite")}
    assert json.loads(result.stdout)


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
