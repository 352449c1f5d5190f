"""The win-probability model: the fit recovers known curves from synthetic self-play tables,
the shipped model is a probability rising with the spread, files round-trip and bad ones are
refused with one line naming the file."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.errors import InputError
from literaki_cli.montecarlo import winmodel
from literaki_cli.montecarlo.winmodel import WinModel, fit_win_model, load_win_model, open_win_model

BAGS = 13
GAMES_PER_BAG = 3000


def true_midpoint(bag):
    return 10.0 + 1.0 * np.asarray(bag)


def true_scale(bag):
    return 8.0 + 3.0 * np.asarray(bag)


def true_probability(spread, bag):
    return 1.0 / (1.0 + np.exp(-(np.asarray(spread) - true_midpoint(bag)) / true_scale(bag)))


def write_run(folder: Path, rows: list[dict], players: list[dict], fmt: str = "parquet", game: str = "literaki"):
    folder.mkdir(parents=True, exist_ok=True)
    turns, table = pl.DataFrame(rows), pl.DataFrame(players)
    if fmt == "parquet":
        turns.write_parquet(folder / "turns.parquet")
        table.write_parquet(folder / "players.parquet")
    else:
        turns.write_csv(folder / "turns.csv")
        table.write_csv(folder / "players.csv")
    (folder / "run.json").write_text(json.dumps({"game": game, "variant": "literaki", "players": ["a", "b"]}))
    return folder


def synthetic_run(folder: Path, seed: int = 7, fmt: str = "parquet") -> Path:
    """Games of two turns: the first (player a, a known bag and spread) is the one the model
    learns from, the second ends the game (left out); a wins with the known probability."""
    rng = np.random.default_rng(seed)
    rows, players = [], []
    game_id = 0
    for bag in range(BAGS):
        spreads = rng.integers(-90, 91, GAMES_PER_BAG)
        wins = rng.random(GAMES_PER_BAG) < true_probability(spreads, bag)
        for spread, won in zip(spreads.tolist(), wins.tolist(), strict=True):
            mine, theirs = 200 + spread, 200
            rows.append(turn_row(game_id, "a", 0, mine, theirs, bag))
            rows.append(turn_row(game_id, "b", 1, theirs + 5, mine, max(bag - 3, 0)))
            players += [player_row(game_id, "a", won, False), player_row(game_id, "b", not won, False)]
            game_id += 1
    return write_run(folder, rows, players, fmt)


def turn_row(game_id: int, player: str, turn: int, total: int, opponent: int, bag: int) -> dict:
    return {"playerID": player, "gameID": game_id, "turn": turn, "score": 10, "totalscore": total,
            "tilesremaining": bag, "oppscore": opponent, "kind": "place"}  # fmt: skip


def player_row(game_id: int, player: str, won: bool, draw: bool) -> dict:
    return {"gameID": game_id, "player": player, "seat": 0 if player == "a" else 1, "won": won, "draw": draw}


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    return synthetic_run(tmp_path_factory.mktemp("winmodel") / "run")


@pytest.fixture(scope="module")
def fitted(synthetic) -> WinModel:
    return fit_win_model([synthetic])


# --------------------------------------------------------------------------- the fit


def test_fit_recovers_known_curves(fitted):
    spreads = np.arange(-60, 61, 5, dtype=float)
    bags = np.arange(BAGS)
    got = fitted.probability(spreads[None, :], bags[:, None])
    want = true_probability(spreads[None, :], bags[:, None])
    assert got.shape == (BAGS, spreads.size)
    assert np.max(np.abs(got - want)) < 0.05
    assert np.mean(np.abs(got - want)) < 0.015
    assert np.allclose(fitted.midpoint(), true_midpoint(bags), atol=4.0)


def test_fit_meta_counts_what_was_used(fitted, synthetic):
    meta = fitted.meta
    assert meta["rows"] == BAGS * GAMES_PER_BAG and meta["games"] == BAGS * GAMES_PER_BAG
    assert meta["left_out"] == {"ended the game": {"turns": BAGS * GAMES_PER_BAG, "games": BAGS * GAMES_PER_BAG}}
    assert meta["runs"] == [str(synthetic.resolve())]
    assert meta["smoothing"] in winmodel.SMOOTHING_GRID
    assert {"method", "date", "log_loss", "variant"} <= meta.keys()


def test_draws_count_half_and_odd_games_are_left_out(tmp_path):
    """Every game a draw: an even chance at any spread.  A three-player game and a game with no
    result (turns written, players not: an interrupted run) are left out and counted."""
    rows, players = [], []
    for game_id, spread in enumerate(range(-60, 61, 2)):
        rows += [turn_row(game_id, "a", 0, 100 + spread, 100, 10), turn_row(game_id, "b", 1, 100, 100 + spread, 0)]
        players += [player_row(game_id, "a", False, True), player_row(game_id, "b", False, True)]
    rows += [turn_row(500, "a", 0, 50, 40, 5), turn_row(500, "b", 1, 60, 50, 0), turn_row(500, "c", 2, 70, 60, 0)]
    players += [player_row(500, p, p == "a", False) for p in "abc"]
    rows += [turn_row(501, "a", 0, 50, 40, 5)]
    model = fit_win_model([write_run(tmp_path / "run", rows, players)], smoothing=10.0)
    assert model.probability(np.array([-60.0, 0.0, 60.0]), 10) == pytest.approx(0.5, abs=1e-6)
    assert model.meta["left_out"]["not two players"] == {"turns": 3, "games": 1}
    assert model.meta["left_out"]["unfinished"] == {"turns": 1, "games": 1}


def test_csv_tables_are_read_too(tmp_path):
    run = synthetic_run(tmp_path / "run", seed=3, fmt="csv")
    model = fit_win_model([run], smoothing=1000.0)
    assert abs(model.probability(0.0, 5) - float(true_probability(0.0, 5))) < 0.05


def test_a_grid_run_is_refused(tmp_path):
    run = write_run(tmp_path / "grid", [turn_row(0, "a", 0, 1, 0, 3)], [player_row(0, "a", True, False)], game="grid5")
    with pytest.raises(InputError, match="grid5"):
        fit_win_model([run])


# --------------------------------------------------------------------------- the shipped model


@pytest.fixture(scope="module")
def shipped() -> WinModel:
    return load_win_model(winmodel.SHIPPED)


def test_shipped_model_is_small_and_says_how_it_was_made(shipped):
    assert winmodel.SHIPPED.stat().st_size < 16_000
    assert {"runs", "rows", "games", "date", "method"} <= shipped.meta.keys()
    assert shipped.meta["games"] >= 10_000
    assert shipped.max_bag >= 80


def test_shipped_model_is_sensible_at_the_extremes(shipped):
    assert shipped.probability(80.0, 0) > 0.97
    assert shipped.probability(-40.0, 0) < 0.01
    assert shipped.probability(20.0, 0) > shipped.probability(20.0, 50)  # a lead counts more late
    assert 0.3 < shipped.probability(0.0, 60) < 0.6
    assert shipped.probability(1e6, 40) == pytest.approx(1.0) and shipped.probability(-1e6, 40) == pytest.approx(0.0)


@settings(max_examples=300, deadline=None)
@given(
    st.floats(-1000, 1000, allow_nan=False),
    st.floats(0, 200, allow_nan=False),
    st.integers(-5, 120),
)
def test_shipped_model_is_a_probability_rising_with_the_spread(shipped, spread, more, bag):
    low, high = shipped.probability(spread, bag), shipped.probability(spread + more, bag)
    assert 0.0 <= low <= high <= 1.0


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.floats(-300, 300), st.integers(0, 100)), min_size=1, max_size=30))
def test_arrays_give_what_single_values_give(shipped, pairs):
    spreads = np.array([s for s, _ in pairs])
    bags = np.array([b for _, b in pairs])
    vector = shipped.probability(spreads, bags)
    assert vector.shape == spreads.shape
    single = [shipped.probability(float(s), int(b)) for s, b in pairs]
    assert np.allclose(vector, single, rtol=0, atol=1e-12)
    assert np.allclose([shipped.probability(np.float64(s), np.int64(b)) for s, b in pairs], single, atol=1e-12)


def test_broadcasting_and_bag_limits(shipped):
    grid = shipped.probability(np.array([-20.0, 0.0, 20.0]), np.array([[0], [7], [200]]))
    assert grid.shape == (3, 3)
    assert np.all(np.diff(grid, axis=1) > 0)
    assert shipped.probability(5.0, 1000) == shipped.probability(5.0, shipped.max_bag)
    assert shipped.probability(5.0, -3) == shipped.probability(5.0, 0)
    assert shipped.probability(5.0, 6.6) == shipped.probability(5.0, 7)


# --------------------------------------------------------------------------- files


def test_save_and_load_round_trip(fitted, tmp_path):
    path = tmp_path / "round.model"
    fitted.save(path)
    back = load_win_model(path)
    for name in ("intercept", "slope", "tail_weight", "tail_intercept", "tail_slope"):
        assert np.allclose(getattr(back, name), getattr(fitted, name), rtol=1e-8, atol=1e-12)
    assert back.meta == json.loads(json.dumps(fitted.meta))
    spreads, bags = np.linspace(-100, 100, 41), np.arange(41) % BAGS
    assert np.allclose(back.probability(spreads, bags), fitted.probability(spreads, bags), atol=1e-7)
    assert path.stat().st_size < 8_000


def test_a_model_without_tail_lists_is_one_curve_per_bag(tmp_path):
    path = tmp_path / "plain.model"
    path.write_text(
        json.dumps({"format": winmodel.FORMAT, "version": 1, "intercept": [0.0, -1.0], "slope": [0.1, 0.05]})
    )
    model = load_win_model(path)
    assert model.probability(20.0, 1) == pytest.approx(0.5)
    assert model.probability(0.0, 0) == pytest.approx(0.5)


GOOD = {"format": winmodel.FORMAT, "version": 1, "intercept": [0.0, -1.0], "slope": [0.1, 0.05]}


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b"\x00\x01\x02 not a model", "UTF-8|JSON"),
        (b"{not json", "not valid JSON"),
        (json.dumps([1, 2]).encode(), "format"),
        (json.dumps(GOOD | {"format": "literaki-leaves"}).encode(), "format"),
        (json.dumps(GOOD | {"version": 99}).encode(), "version 99"),
        (json.dumps(GOOD | {"slope": [0.1]}).encode(), "one per bag size"),
        (json.dumps(GOOD | {"slope": [0.1, -0.2]}).encode(), "negative"),
        (json.dumps(GOOD | {"intercept": [0.0, "x"]}).encode(), "numbers"),
        (json.dumps(GOOD | {"intercept": []}).encode(), "non-empty"),
        (b'{"format": "literaki-win-model", "version": 1, "intercept": [NaN, 0], "slope": [0.1, 0.1]}', "NaN is not"),
        (json.dumps(GOOD | {"tail_weight": [0.0, 1.5]}).encode(), "tail_weight"),
        (json.dumps(GOOD | {"meta": [1]}).encode(), "meta"),
    ],
)
def test_bad_files_are_refused_naming_the_file(tmp_path, content, why):
    path = tmp_path / "bad.model"
    path.write_bytes(content)
    with pytest.raises(InputError, match=why) as raised:
        load_win_model(path)
    message = str(raised.value)
    assert str(path) in message and "\n" not in message


def test_missing_file_and_folder(tmp_path):
    for path in (tmp_path / "nothing.model", tmp_path):
        with pytest.raises(InputError, match="no such file|is a directory, not a win-model file") as raised:
            load_win_model(path)
        assert str(path) in str(raised.value)


def test_open_win_model_path_environment_shipped(fitted, tmp_path, monkeypatch):
    monkeypatch.delenv(winmodel.ENV_VAR, raising=False)
    assert open_win_model().source == str(winmodel.SHIPPED)
    assert open_win_model() is open_win_model()  # read once
    path = tmp_path / "mine.model"
    fitted.save(path)
    monkeypatch.setenv(winmodel.ENV_VAR, str(path))
    assert open_win_model().source == str(path)
    assert open_win_model(winmodel.SHIPPED).source == str(winmodel.SHIPPED)
    monkeypatch.setenv(winmodel.ENV_VAR, str(tmp_path / "gone.model"))
    with pytest.raises(InputError, match=r"gone\.model \(from \$LITERAKI_WIN_MODEL\): no such win-model file"):
        open_win_model()


# --------------------------------------------------------------------------- the refit command


def run_module(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "literaki_cli.montecarlo.winmodel", *args],
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_refit_command_writes_a_model_and_a_summary(synthetic, tmp_path):
    out = tmp_path / "refit.model"
    result = run_module(str(synthetic), "--out", str(out), "--smoothing", "1000")
    assert result.returncode == 0, result.stderr
    assert f"{BAGS * GAMES_PER_BAG:,} turns of {BAGS * GAMES_PER_BAG:,} games used" in result.stdout
    assert "+50" in result.stdout and "midpoint" in result.stdout
    assert load_win_model(out).meta["smoothing"] == 1000.0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["/no/such/run", "--out", "x.model"], "/no/such/run: no such run folder"),
        (["/no/such/run"], "--out"),
        (["--out", "x.model"], "RUN_DIR"),
        (["/no/such/run", "--out", "x.model", "--smoothing", "lots"], "lots"),
    ],
)
def test_refit_command_errors_are_one_line(args, needle, tmp_path):
    result = subprocess.run([sys.executable, "-m", "literaki_cli.montecarlo.winmodel", *args],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120)  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.model").exists()


def test_refit_command_refuses_negative_smoothing(synthetic, tmp_path):
    result = run_module(str(synthetic), "--out", str(tmp_path / "m.model"), "--smoothing", "-1")
    assert result.returncode == 2 and "smoothing -1.0" in result.stderr and result.stderr.count("\n") == 1


def test_midpoint_of_a_flat_curve_is_infinite():
    model = WinModel(np.array([1.0, -1.0]), np.array([0.0, 0.0]))
    assert math.isinf(model.midpoint()[0]) and model.midpoint()[0] < 0
    assert math.isinf(model.midpoint()[1]) and model.midpoint()[1] > 0
