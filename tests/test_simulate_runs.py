"""simulate runs that never lose work: --resume from the run's own record, interrupts (any number
of Ctrl-C), the output folder's lock and checks, strict report JSON, the games table's columns,
and the report printed whole whatever the width."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import polars as pl
import pytest

from literaki_cli.analysis import simulate
from literaki_cli.analysis.simulate import RunConfig, open_run, run_simulation
from literaki_cli.cli import main
from literaki_cli.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


def cli_args(game_lexicon, *more: str) -> list[str]:
    lexicon, levels = game_lexicon
    return ["simulate", "--players", "slaby,mistrz", "--workers", "1", "--lexicon", str(lexicon.path),
            "--levels", str(levels), *more]  # fmt: skip


def tables(folder: Path) -> dict[str, pl.DataFrame]:
    return {name: pl.read_parquet(folder / f"{name}.parquet") for name in ("turns", "games", "players")}


def stop_after(count: int, monkeypatch) -> None:
    """Make the run raise KeyboardInterrupt (a Ctrl-C) when game ``count`` would start."""
    play_one = simulate.play_one

    def interrupted(game_id: int):
        if game_id == count:
            raise KeyboardInterrupt
        return play_one(game_id)

    monkeypatch.setattr(simulate, "play_one", interrupted)


def test_the_interrupt_hint_resumes_a_seeded_gcg_run_with_its_own_settings(game_lexicon, tmp_path, capsys, monkeypatch):
    out = tmp_path / "rs"
    stop_after(3, monkeypatch)
    assert main(cli_args(game_lexicon, "--games", "6", "--seed", "7", "--gcg", "--out", str(out))) == 130
    err = capsys.readouterr().err
    hint = re.search(r"continue with (--resume \S+)", err)
    assert hint and "3 of 6 games kept" in err
    record = (out / "run.json").read_text(encoding="utf-8")
    assert len(list((out / "gcg").glob("*.gcg"))) == 3
    monkeypatch.undo()
    # exactly the hint, no other option: every setting (seed 7, 6 games, GCG) comes from run.json
    assert main(["simulate", *hint.group(1).split(), "--workers", "1"]) == 0
    assert (out / "run.json").read_text(encoding="utf-8") == record  # the record keeps its settings
    assert tables(out)["games"].height == 6
    assert sorted(p.name for p in (out / "gcg").glob("*.gcg")) == [f"game-{g:06d}.gcg" for g in range(6)]
    whole = tmp_path / "whole"
    assert main(cli_args(game_lexicon, "--games", "6", "--seed", "7", "--out", str(whole))) == 0
    for name, frame in tables(whole).items():
        assert tables(out)[name].equals(frame), name  # resumed = played in one go


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--seed", "1"], "the run there has seed = 7, not 1"),
        (["--games", "9"], "the run there has games = 4, not 9"),
        (["--players", "mistrz,slaby"], "the run there has players"),
        (["--gcg"], "the run there has gcg = False, not True"),
        (["--game", "grid5"], "the run there has game = 'literaki', not 'grid5'"),
        (["--force"], "--force replaces a run; --resume continues one"),
    ],
)
@pytest.mark.slow
def test_resume_refuses_an_option_that_contradicts_the_record(game_lexicon, tmp_path, capsys, option, message):
    out = tmp_path / "run"
    assert main(cli_args(game_lexicon, "--games", "4", "--seed", "7", "--out", str(out))) == 0
    record = (out / "run.json").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["simulate", "--resume", str(out), *option]) == 2
    assert message in capsys.readouterr().err
    assert (out / "run.json").read_text(encoding="utf-8") == record
    # the same options stated as recorded are accepted (a complete run plays nothing more)
    assert main(cli_args(game_lexicon, "--resume", str(out), "--games", "4", "--seed", "7")) == 0
    assert tables(out)["games"].height == 4


def test_library_resume_plays_only_the_missing_games(game_lexicon, tmp_path, monkeypatch):
    lexicon, levels = game_lexicon
    config = RunConfig(["slaby", "mistrz"], 5, 3, lexicon=str(lexicon.path), levels=str(levels))
    stop_after(2, monkeypatch)
    part = run_simulation(config, 1, tmp_path / "run")
    assert part.interrupted and [o.game_id for o in part.outputs] == [0, 1]
    monkeypatch.undo()
    played = []
    rest = run_simulation(config, 1, tmp_path / "run", resume=True, on_game=lambda o: played.append(o.game_id))
    assert played == [2, 3, 4] and not rest.interrupted and len(rest.outputs) == 5


def run_in_background(game_lexicon, out: Path, workers: int) -> subprocess.Popen:
    lexicon, levels = game_lexicon
    args = [sys.executable, "-m", "literaki_cli", "simulate", "--players", "slaby,mistrz", "--games", "100000",
            "--workers", str(workers), "--seed", "5", "--lexicon", str(lexicon.path), "--levels", str(levels),
            "--out", str(out)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)  # fmt: skip


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.slow
def test_two_ctrl_c_keep_every_finished_game(game_lexicon, tmp_path, workers):
    out = tmp_path / "run"
    proc = run_in_background(game_lexicon, out, workers)
    try:
        deadline = time.monotonic() + 120
        while not (out / "run.json").is_file():  # the folder is claimed before the first game
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(4.0)  # games are being played
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
        time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    kept = re.search(r"interrupted: (\d+) of 100000 games kept; continue with --resume", err)
    assert kept, err
    assert "Traceback" not in err
    saved = tables(out)
    assert int(kept.group(1)) == saved["games"].height > 0
    ids = saved["games"]["gameID"].to_list()
    assert ids == sorted(set(ids))  # each finished game once, in order
    if workers == 1:  # one worker finishes games in order; two may still be playing an earlier batch
        assert ids == list(range(len(ids)))
    assert set(saved["turns"]["gameID"].unique()) == set(saved["games"]["gameID"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["games"] == saved["games"].height
    assert not (out / simulate.LOCK_FILE).exists()
    assert not list(out.glob(".*.tmp"))


def test_a_locked_folder_is_refused(game_lexicon, tmp_path, capsys, monkeypatch):
    lexicon, levels = game_lexicon
    out = tmp_path / "run"
    config = RunConfig(["slaby", "mistrz"], 2, 1, lexicon=str(lexicon.path), levels=str(levels))
    with open_run(out, config):
        assert (out / simulate.LOCK_FILE).read_text(encoding="ascii").strip() == str(os.getpid())
        monkeypatch.setattr(simulate, "play_one", lambda game_id: pytest.fail("a game was played"))
        assert main(cli_args(game_lexicon, "--games", "2", "--resume", str(out))) == 2
        assert f"another simulate (pid {os.getpid()}) is writing there" in capsys.readouterr().err
        with pytest.raises(InputError, match="another simulate"):
            run_simulation(config, 1, tmp_path / "run", resume=True)
    assert not (out / simulate.LOCK_FILE).exists()  # released with the run


def test_a_stale_lock_file_does_not_block(game_lexicon, tmp_path):
    lexicon, levels = game_lexicon
    out = tmp_path / "run"
    out.mkdir()
    (out / simulate.LOCK_FILE).write_text("999999\n", encoding="ascii")  # left by a killed run: unlocked
    config = RunConfig(["slaby", "mistrz"], 2, 1, lexicon=str(lexicon.path), levels=str(levels))
    assert len(run_simulation(config, 1, out).outputs) == 2


def test_a_non_empty_out_is_refused_and_force_replaces_only_the_runs_files(game_lexicon, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(cli_args(game_lexicon, "--games", "4", "--gcg", "--out", str(out))) == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = (out / "games.csv").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(cli_args(game_lexicon, "--games", "2", "--out", str(out))) == 2
    assert "not empty (games.csv, games.parquet, gcg, ...); continue its run with --resume" in capsys.readouterr().err
    assert (out / "games.csv").read_text(encoding="utf-8") == before
    assert main(cli_args(game_lexicon, "--games", "2", "--seed", "9", "--out", str(out), "--force")) == 0
    assert not (out / "gcg").exists()  # the old GCG files no longer match the tables: gone
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"  # not a run's file: kept
    assert tables(out)["games"].height == 2 and json.loads((out / "run.json").read_text())["seed"] == 9
    other = tmp_path / "other"
    other.mkdir()
    (other / "data.txt").write_text("x", encoding="utf-8")
    capsys.readouterr()
    assert main(cli_args(game_lexicon, "--games", "2", "--out", str(other))) == 2
    assert "not empty (data.txt)" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["under_a_file", "is_a_file"])
def test_an_unwritable_out_is_refused_before_the_first_game(game_lexicon, tmp_path, capsys, monkeypatch, where):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    out = blocker / "run" if where == "under_a_file" else blocker
    monkeypatch.setattr(simulate, "play_one", lambda game_id: pytest.fail("a game was played"))
    assert main(cli_args(game_lexicon, "--games", "2", "--out", str(out))) == 2
    assert f"{out}: cannot write there" in capsys.readouterr().err


def test_resume_of_a_folder_without_a_run(game_lexicon, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["simulate", "--resume", str(tmp_path / "empty")]) == 2
    assert "nothing to resume (no run.json)" in capsys.readouterr().err
    assert main(["simulate", "--resume", str(tmp_path / "missing")]) == 2
    assert "no such run folder" in capsys.readouterr().err
    (tmp_path / "empty" / "run.json").write_text('{"players": ["a"], "games": "many", "seed": 1}', "utf-8")
    assert main(["simulate", "--resume", str(tmp_path / "empty")]) == 2
    assert "key 'games' has a bad value 'many'" in capsys.readouterr().err


def _no_nan(name: str):
    raise ValueError(f"not JSON: {name}")


def test_a_one_game_report_is_strict_json(game_lexicon, tmp_path, capsys):
    out = tmp_path / "one"
    assert main(cli_args(game_lexicon, "--games", "1", "--out", str(out))) == 0
    capsys.readouterr()
    assert main(["report", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out, parse_constant=_no_nan)
    saved = json.loads((out / "report.json").read_text(encoding="utf-8"), parse_constant=_no_nan)
    assert printed == saved and saved["games"] == 1
    assert all(p["mean_score_ci95"] == [None, None] for p in saved["players"])
    assert saved["game_length_turns"]["ci95"] == [None, None]
    assert "n/a" in (out / "report.md").read_text(encoding="utf-8")


def test_games_table_columns_are_the_documented_order(game_lexicon, tmp_path):
    doc = (ROOT / "docs" / "selfplay.md").read_text(encoding="utf-8")
    documented = re.search(r"`games\.parquet/\.csv`\s*\(`([^`]+)` plus\s*`([^`]+)`\)", doc)
    assert documented, "docs/selfplay.md no longer documents games.csv"
    names = {"<p1>": "slaby", "<p2>": "mistrz"}
    expected = [re.sub("<p[12]>", lambda m: names[m.group(0)], c.strip())
                for part in documented.groups() for c in part.split(",")]  # fmt: skip
    lexicon, levels = game_lexicon
    out = tmp_path / "run"
    run_simulation(RunConfig(["slaby", "mistrz"], 2, 1, lexicon=str(lexicon.path), levels=str(levels)), 1, out)
    assert (out / "games.csv").read_text(encoding="utf-8").splitlines()[0].split(",") == expected
    assert tables(out)["games"].columns == expected


@pytest.fixture(scope="module")
def finished_run(game_lexicon, tmp_path_factory):
    lexicon, levels = game_lexicon
    out = tmp_path_factory.mktemp("report") / "run"
    run_simulation(RunConfig(["slaby", "mistrz"], 6, 3, lexicon=str(lexicon.path), levels=str(levels)), 1, out)
    from literaki_cli.analysis.report import write_report

    report, _ = write_report(out)
    # every interval, formatted here independently of the printing code
    numbers = []
    for p in report["players"]:
        lo, hi = p["win_rate_ci95"]
        numbers += [f"{100 * lo:.1f}", f"{100 * hi:.1f}"]
        lo, hi = p["mean_score_ci95"]
        numbers += [f"{lo:.1f}", f"{hi:.1f}"]
    return out, report, numbers


def test_piped_report_is_full_width_plain_text(finished_run):
    out, report, numbers = finished_run
    env = {**os.environ, "COLUMNS": "60", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "literaki_cli", "report", str(out)], capture_output=True, text=True,
                         env=env, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "…" not in run.stdout and "\x1b[" not in run.stdout
    for p in report["players"]:
        lo, hi = p["win_rate_ci95"]
        assert f"({100 * lo:.1f}–{100 * hi:.1f})" in run.stdout
        lo, hi = p["mean_score_ci95"]
        assert f"({lo:.1f}–{hi:.1f})" in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) > 60  # not cut to the terminal's width


@pytest.mark.parametrize("width", [30, 50, 70, 90, 120])
def test_terminal_report_wraps_without_cutting_numbers(finished_run, width):
    from rich.console import Console

    from literaki_cli.commands.simulate import _print_report

    _, report, numbers = finished_run
    buffer = StringIO()
    console = Console(file=buffer, width=width, force_terminal=True, color_system=None, highlight=False)
    _print_report(report, console)
    text = buffer.getvalue()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    words = set(re.findall(r"[\d.]+", text))
    for number in numbers:
        assert number in words, (number, text)
