"""``leaves train --generations``: self-play and training in one command.  Each generation plays
with the values the last one learned, learns exactly what `leaves train` learns from its run,
and an interrupted command run again continues to the same values as an uninterrupted one."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from literaki_cli.analysis import simulate
from literaki_cli.cli import main
from literaki_cli.equity.leaves import LeaveTable, load_leaves

#: A leave-aware level (plays by the generation's values) and a greedy one, over the flowing lexicon.
LEVELS = """
[uczen]
vocabulary = "all"
quantile = [0, 0]
exchange_below = 0
leaves = "default"

[slaby]
vocabulary = "all"
quantile = [1.2, 2.5]
exchange_below = 0
leaves = "none"
"""


@pytest.fixture
def setup(flowing_lexicon, tmp_path):
    levels = tmp_path / "levels.toml"
    levels.write_text(LEVELS, encoding="utf-8")
    return flowing_lexicon, levels


def train_args(setup, out, *more: str) -> list[str]:
    lexicon, levels = setup
    return ["leaves", "train", "--generations", "2", "--games", "8", "--players", "uczen,slaby", "--seed", "4",
            "--lexicon", str(lexicon.path), "--levels", str(levels), "--workers", "1", "--min-count", "1",
            "--out", str(out), *more]  # fmt: skip


def same_values(a: LeaveTable, b: LeaveTable) -> bool:
    """The same values to the bit (training adds its floats in one fixed order)."""
    return np.array_equal(a.keys, b.keys) and np.array_equal(a.values, b.values) and np.array_equal(a.coef, b.coef)


def test_each_generation_plays_with_the_last_ones_values_and_learns_its_own_run(setup, tmp_path, capsys):
    out = tmp_path / "g.leaves"
    assert main([*train_args(setup, out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    work = tmp_path / "g.leaves.runs"
    assert [g["generation"] for g in report["generations"]] == [1, 2]
    assert all(g["games_played"] == 8 and g["training"]["games"] == 8 for g in report["generations"])
    gen1 = json.loads((work / "gen1" / "run.json").read_text(encoding="utf-8"))
    gen2 = json.loads((work / "gen2" / "run.json").read_text(encoding="utf-8"))
    assert gen1["leaves"] is None and gen1["seed"] == 4  # the shipped values, then the first generation's
    assert gen2["leaves"] == str((work / "gen1.leaves").resolve()) and gen2["seed"] == 5
    # each generation's file is what `leaves train` learns from that run by hand
    for generation in (1, 2):
        by_hand = tmp_path / f"hand{generation}.leaves"
        assert main(["leaves", "train", str(work / f"gen{generation}"), "--min-count", "1", "--out", str(by_hand)]) == 0
        assert same_values(load_leaves(work / f"gen{generation}.leaves"), load_leaves(by_hand))
    assert same_values(load_leaves(out), load_leaves(work / "gen2.leaves"))
    # run again: nothing left to play
    capsys.readouterr()
    assert main([*train_args(setup, out), "--json"]) == 0
    assert [g["games_played"] for g in json.loads(capsys.readouterr().out)["generations"]] == [0, 0]


def test_an_interrupted_command_run_again_ends_with_the_same_values(setup, tmp_path, capsys, monkeypatch):
    whole = tmp_path / "whole.leaves"
    assert main(train_args(setup, whole)) == 0
    out = tmp_path / "part.leaves"
    play_one, calls = simulate.play_one, []

    def ctrl_c_in_generation_2(game_id: int):
        calls.append(game_id)
        if len(calls) == 8 + 4:  # Ctrl-C as the fourth game of the second generation would start
            raise KeyboardInterrupt
        return play_one(game_id)

    monkeypatch.setattr(simulate, "play_one", ctrl_c_in_generation_2)
    capsys.readouterr()
    assert main(train_args(setup, out)) == 130
    err = capsys.readouterr().err
    assert re.search(r"interrupted: 3 of 8 games of generation 2 kept in \S+gen2; run the same command again", err)
    assert not out.exists()
    monkeypatch.undo()
    assert main(train_args(setup, out)) == 0
    assert same_values(load_leaves(out), load_leaves(whole))


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--games", "5"], "--games is for self-play"), (["--ray", "auto"], "--ray is for self-play"),
     (["RUN", "--generations", "2"], "give run folders or --generations, not both")],
)  # fmt: skip
def test_self_play_options_need_generations(tmp_path, capsys, args, message):
    args = [str(tmp_path) if a == "RUN" else a for a in args]
    assert main(["leaves", "train", *args, "--out", str(tmp_path / "x.leaves")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
