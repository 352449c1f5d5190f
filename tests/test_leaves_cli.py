"""Equity on the command line (issue 13): `solve --json` with leave values and exchanges,
`leaves show`, `leaves train`, and `simulate` with leave files.  Expected values come from the
oracles of tests/test_equity.py (hand-built tables, Counter arithmetic, plain-Python training)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from literaki_cli.equity.leaves import ENV_VAR, N_FEATURES, load_leaves
from tests.conftest import run_cli
from tests.test_equity import (
    BLANK,
    DESIGNED_TURNS,
    EXAMPLES,
    EXPECTED_VALUES,
    LEARNED,
    canon,
    distinct_kept,
    hand_coef,
    hand_table,
    oracle_model,
    oracle_training,
    oracle_value,
    oracle_weight,
    random_coef,
    random_turns,
    write_run,
)

EMPTY = "/".join(["15"] * 15)
#: A late position (68 tiles on the board) with four players: 100 - 68 - 7 - 3 x 7 = 4 tiles in the bag.
LATE_FOUR_PLAYERS = (EXAMPLES / "28-late-68tiles-0blank.cgp").read_text(encoding="utf-8").replace("326/246", "0/0/0/0")


def one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    """Exit 2, nothing on stdout, one line on stderr naming what was wrong, no traceback."""
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("literaki: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture
def leaves_file(tmp_path) -> tuple[Path, dict[str, float], np.ndarray]:
    coef = random_coef(4)
    path = tmp_path / "hand.leaves"
    hand_table(LEARNED, coef).save(path)
    return path, dict(LEARNED), coef


def solve_json(capsys, lexicon, *args) -> dict:
    code, out, err = run_cli(capsys, "solve", "--lexicon", str(lexicon.path), "--json", *args)
    assert code == 0, err
    return json.loads(out)


def leave_of(rack: str, placed: list[dict]) -> str:
    """The rack minus the placed tiles (a blank is placed as a lower-case letter with blank = true)."""
    used = Counter(BLANK if p["blank"] else p["letter"].lower() for p in placed)
    left = Counter(rack.lower()) - used
    assert sum(left.values()) == len(rack) - len(placed)
    return "".join(sorted(left.elements()))


# --------------------------------------------------------------------------- solve --json


def check_moves(data: dict, rack: str, bag: int, learned, coef) -> None:
    weight, kept_factor = oracle_weight(bag)
    assert data["bag"] == bag and data["moves"]
    for m in data["moves"]:
        leave = leave_of(rack, m["placed"])
        assert canon(m["leave"]) == canon(leave)
        expected = weight * oracle_value(leave, learned, coef)
        assert kept_factor == 0
        assert m["leave_value"] == pytest.approx(expected, abs=5e-4)
        assert abs(m["equity"] - (m["score"] + m["leave_value"])) <= 1e-9


def test_solve_json_equity_order_and_exchanges(capsys, flowing_lexicon, leaves_file):
    path, learned, coef = leaves_file
    rack = "KOTAEE"
    data = solve_json(capsys, flowing_lexicon, EMPTY, "--rack", rack, "--all", "--leaves", str(path))
    assert data["by"] == "equity" and data["bag"] == 100 - 6 - 7  # the opponent holds a full rack
    check_moves(data, rack, 87, learned, coef)
    equities = [m["equity"] for m in data["moves"]]
    assert all(a >= b for a, b in itertools.pairwise(equities))
    assert any(m["leave_value"] != 0 for m in data["moves"])
    # Exchanges: score 0, equity = the kept tiles' value, the best three.
    assert data["exchange_allowed"] is True and len(data["exchanges"]) == 3
    ranked = sorted((oracle_value("".join(k), learned, coef) for k in distinct_kept(rack.lower())), reverse=True)
    for e, expected in zip(data["exchanges"], ranked, strict=False):
        assert e["score"] == 0 and e["equity"] == e["leave_value"] == pytest.approx(expected, abs=5e-4)
        assert Counter(e["exchange"]) + Counter(e["keep"]) == Counter(rack)
    by_score = solve_json(capsys, flowing_lexicon, EMPTY, "--rack", rack, "--all", "--leaves", str(path),
                          "--by", "score")  # fmt: skip
    scores = [m["score"] for m in by_score["moves"]]
    assert by_score["by"] == "score" and all(a >= b for a, b in itertools.pairwise(scores))

    def moves(d):
        return sorted(json.dumps({k: v for k, v in m.items() if k != "rank"}, sort_keys=True) for m in d["moves"])

    def order(d):
        return [(m["coord"], m["word"]) for m in d["moves"]]

    assert moves(by_score) == moves(data) and order(by_score) != order(data)  # the same moves, in another order
    five = solve_json(capsys, flowing_lexicon, EMPTY, "--rack", rack, "--leaves", str(path), "--exchanges", "5")
    assert [e["equity"] for e in five["exchanges"]] == pytest.approx(ranked[:5], abs=5e-4)
    assert solve_json(capsys, flowing_lexicon, EMPTY, "--rack", rack, "--leaves", str(path),
                      "--exchanges", "0")["exchanges"] == []  # fmt: skip


def test_solve_json_with_a_nearly_empty_bag(capsys, flowing_lexicon, leaves_file):
    path, learned, coef = leaves_file
    data = solve_json(capsys, flowing_lexicon, LATE_FOUR_PLAYERS, "--all", "--leaves", str(path))
    assert data["rack"] == "YRŻPORO" and data["bag"] == 4
    assert data["exchange_allowed"] is False and data["exchanges"] == []
    check_moves(data, "yrżporo", 4, learned, coef)  # 4/10 of each leave's value
    assert all(a >= b for a, b in itertools.pairwise(m["equity"] for m in data["moves"]))
    code, out, _ = run_cli(capsys, "solve", "--lexicon", str(flowing_lexicon.path), LATE_FOUR_PLAYERS,
                           "--leaves", str(path))  # fmt: skip
    assert code == 0 and "no exchange: the bag holds 4 tiles" in out


@pytest.mark.parametrize(
    ("racks_and_scores", "bag"),
    [
        ("KOTAEE/ 0/0", 100 - 6 - 7),  # the opponent's rack unknown: a full one
        ("KOTAEE/ABC 0/0", 100 - 6 - 3),  # the opponent's rack given: its 3 tiles
        ("KOTAEE/ABC/ 0/0/0", 100 - 6 - 3 - 7),  # three players, one rack unknown
        ("KOTAEE/ 0/0/0/0", 100 - 6 - 3 * 7),
    ],
)
def test_solve_counts_the_bag_from_the_position(capsys, flowing_lexicon, leaves_file, racks_and_scores, bag):
    path, learned, coef = leaves_file
    data = solve_json(capsys, flowing_lexicon, f"{EMPTY} {racks_and_scores} 0", "--leaves", str(path))
    check_moves(data, "kotaee", bag, learned, coef)


def test_solve_uses_the_environment_variable(capsys, flowing_lexicon, tmp_path, monkeypatch):
    path = tmp_path / "env.leaves"
    hand_table({"kot": 500.0}, np.zeros(N_FEATURES)).save(path)
    monkeypatch.setenv(ENV_VAR, str(path))
    data = solve_json(capsys, flowing_lexicon, EMPTY, "--rack", "KOTAE", "--top", "1")
    best = data["moves"][0]
    assert canon(best["leave"]) == "kot" and best["leave_value"] == 500.0  # playing AE, keeping KOT


def test_an_exchange_that_beats_every_placement_heads_the_table(capsys, flowing_lexicon, tmp_path):
    path = tmp_path / "blank.leaves"
    hand_table({"?": 1000.0}, np.zeros(N_FEATURES)).save(path)
    # ĄĘŻ make no three-letter word of this lexicon, so no placement keeps the blank alone.
    data = solve_json(capsys, flowing_lexicon, EMPTY, "--rack", "ĄĘŻ?", "--all", "--leaves", str(path))
    best_exchange = data["exchanges"][0]
    assert best_exchange == {"exchange": "ĄĘŻ", "keep": "?", "score": 0, "leave_value": 1000.0, "equity": 1000.0}
    assert max(m["equity"] for m in data["moves"]) < 1000.0
    code, out, _ = run_cli(capsys, "solve", "--lexicon", str(flowing_lexicon.path), EMPTY, "--rack", "ĄĘŻ?",
                           "--leaves", str(path))  # fmt: skip
    rows = [[cell.strip() for cell in line.strip("│ ").split("│")] for line in out.splitlines() if "│" in line]
    assert code == 0 and rows[0][:7] == ["1", "-", "exchange ĄĘŻ", "0", "?", "+1000.0", "1000.0"], out
    assert rows[1][0] == "2" and rows[1][2] != "exchange ĄĘŻ"  # each exchange once, then the placements


def test_solve_errors(capsys, flowing_lexicon, tmp_path):
    lexicon = str(flowing_lexicon.path)
    one_line_error(*run_cli(capsys, "solve", "--lexicon", lexicon, EMPTY, "--rack", "KOT", "--by", "banana"), "banana")
    missing = tmp_path / "missing.leaves"
    one_line_error(*run_cli(capsys, "solve", "--lexicon", lexicon, EMPTY, "--rack", "KOT", "--leaves", str(missing)),
                   str(missing))  # fmt: skip
    (tmp_path / "text.leaves").write_text("not leaves\n", encoding="utf-8")
    one_line_error(*run_cli(capsys, "solve", "--lexicon", lexicon, EMPTY, "--rack", "KOT", "--leaves",
                            str(tmp_path / "text.leaves")), "text.leaves")  # fmt: skip


# --------------------------------------------------------------------------- leaves show


def show(capsys, *args):
    return run_cli(capsys, "leaves", "show", *args)


def test_leaves_show_json_lines(capsys, leaves_file):
    path, learned, coef = leaves_file
    code, out, err = show(capsys, "ŻÓŁ?", "żół?", "ba", "AA?", "?", "", "--leaves", str(path), "--json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["leave"] for r in records] == ["ŁÓŻ?", "ŁÓŻ?", "AB", "AA?", "?", ""]
    assert [r["source"] for r in records] == ["learned", "learned", "learned", "model", "learned", "empty"]
    assert records[0]["value"] == records[1]["value"] == -3.75 and records[2]["value"] == 6.25
    assert records[4]["value"] == 12.5 and records[5]["value"] == 0 and records[5]["model"] == 0
    assert records[3]["value"] == records[3]["model"] == pytest.approx(oracle_model("aa?", coef), abs=1e-3)
    for r, leave in zip(records[:5], ["żół?", "żół?", "ab", "aa?", "?"], strict=True):
        assert r["model"] == pytest.approx(oracle_model(leave, coef), abs=1e-3), leave


def test_leaves_show_by_hand_and_as_a_table(capsys, tmp_path):
    path = tmp_path / "hand.leaves"
    hand_table(LEARNED, hand_coef()).save(path)
    code, out, _ = show(capsys, "ĄĘ", "?aa", "--leaves", str(path), "--json")
    assert code == 0
    # ĄĘ: two red vowels, (2, 0) -1.25 + a red pair -0.5; AA?: 3 + 8 - 2 - 1.25 + 0.25 (see test_equity)
    assert [json.loads(line)["value"] for line in out.splitlines()] == [-1.75, 8.0]
    code, out, _ = show(capsys, "BA", "aa?", "--leaves", str(path))
    assert code == 0 and str(path) in out
    assert "+6.25" in out and "learned" in out and "+8.00" in out and "model" in out


def test_leaves_show_uses_the_environment_variable(capsys, tmp_path, monkeypatch):
    path = tmp_path / "env.leaves"
    hand_table({"ab": 42.0}, np.zeros(N_FEATURES)).save(path)
    monkeypatch.setenv(ENV_VAR, str(path))
    code, out, _ = show(capsys, "ab", "--json")
    assert code == 0 and json.loads(out)["value"] == 42.0
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "gone.leaves"))
    one_line_error(*show(capsys, "ab"), "gone.leaves", "$LITERAKI_LEAVES")


@pytest.mark.parametrize("bad", ["x", "a1", "abcdefg", "a-b"])
def test_leaves_show_refuses_a_bad_leave(capsys, leaves_file, bad):
    path, _, _ = leaves_file
    one_line_error(*show(capsys, "ab", bad, "--leaves", str(path), "--json"), repr(bad))  # nothing printed first


def test_leaves_show_missing_or_bad_file(capsys, tmp_path):
    one_line_error(*show(capsys, "ab", "--leaves", str(tmp_path / "missing.file")), "missing.file")
    (tmp_path / "half.leaves").write_bytes(b"PK\x03\x04 half a zip")
    one_line_error(*show(capsys, "ab", "--leaves", str(tmp_path / "half.leaves")), "half.leaves")


def test_leaves_show_a_single_array_file_is_exit_2(capsys, tmp_path):
    path = tmp_path / "one.leaves"
    with open(path, "wb") as f:
        np.save(f, np.arange(3))
    one_line_error(*show(capsys, "ab", "--leaves", str(path)), "one.leaves")


# --------------------------------------------------------------------------- leaves train


def test_leaves_train_json(capsys, tmp_path):
    run = write_run(tmp_path / "run", DESIGNED_TURNS)
    out = tmp_path / "designed.leaves"
    code, stdout, err = run_cli(capsys, "leaves", "train", str(run), "--out", str(out), "--prior", "0",
                                "--min-count", "1", "--json", "--note", "gen 0")  # fmt: skip
    assert code == 0, err
    record = json.loads(stdout)
    assert record["out"] == str(out)
    training = record["training"]
    assert training["turns"] == 8 and training["games"] == 1 and training["distinct_leaves"] == 4
    assert training["stored_leaves"] == 3 and training["empty_leave_offset"] == -5.25
    assert training["prior_strength"] == 0
    table = load_leaves(out)
    assert table.meta["note"] == "gen 0" and table.meta["variant"] == "literaki" and len(table) == 3
    for leave, value in EXPECTED_VALUES.items():
        assert table.value(leave.upper()) == value and table.learned(leave[::-1])


def test_leaves_train_human_output(capsys, tmp_path):
    run = write_run(tmp_path / "run", random_turns(3))
    out = tmp_path / "r.leaves"
    code, stdout, err = run_cli(capsys, "leaves", "train", str(run), "--out", str(out))
    assert code == 0, err
    assert "turns of" in stdout and f"written {out}" in stdout and out.is_file()


def test_leaves_train_errors(capsys, tmp_path):
    (tmp_path / "empty").mkdir()
    out = tmp_path / "x.leaves"
    one_line_error(*run_cli(capsys, "leaves", "train", str(tmp_path / "empty"), "--out", str(out)),
                   str(tmp_path / "empty"), "no turns table")  # fmt: skip
    assert not out.exists()
    grid = write_run(tmp_path / "grid", DESIGNED_TURNS)
    record = json.loads((grid / "run.json").read_text(encoding="utf-8"))
    (grid / "run.json").write_text(json.dumps(record | {"game": "grid5"}), encoding="utf-8")
    one_line_error(*run_cli(capsys, "leaves", "train", str(grid), "--out", str(out)), "grid5")
    other = write_run(tmp_path / "literki", DESIGNED_TURNS)
    (other / "run.json").write_text(json.dumps(record | {"variant": "literki"}), encoding="utf-8")
    one_line_error(*run_cli(capsys, "leaves", "train", str(write_run(tmp_path / "lit", DESIGNED_TURNS)), str(other),
                            "--out", str(out)), "different rules")  # fmt: skip
    passes = write_run(tmp_path / "passes", [r | {"kind": "pass"} for r in DESIGNED_TURNS])
    one_line_error(*run_cli(capsys, "leaves", "train", str(passes), "--out", str(out)), "nothing to learn")
    code, _, err = run_cli(capsys, "leaves", "train", str(passes), "--out", str(out), "--min-count", "0")
    assert code == 2 and "Traceback" not in err
    assert not out.exists()


# --------------------------------------------------------------------------- simulate with leave files

LEVELS = """
[own]
vocabulary = "all"
quantile = [0, 0]
exchange_below = -1000
leaves = "{own}"

[dflt]
vocabulary = "all"
quantile = [0, 0]
exchange_below = -1000
"""


def simulate(capsys, lexicon, levels: Path, players: str, out: Path, *more: str):
    return run_cli(capsys, "simulate", "--players", players, "--games", "3", "--workers", "1", "--seed", "2",
                   "--lexicon", str(lexicon.path), "--levels", str(levels), "--out", str(out), *more)  # fmt: skip


def test_simulate_refuses_a_missing_leave_file_before_playing(capsys, flowing_lexicon, tmp_path):
    levels = tmp_path / "conf" / "levels.toml"
    levels.parent.mkdir()
    levels.write_text(LEVELS.format(own="sub/missing.leaves"), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = simulate(capsys, flowing_lexicon, levels, "own,dflt", out)
    assert code == 2 and str((tmp_path / "conf" / "sub" / "missing.leaves").resolve()) in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists() or not any(out.iterdir())
    out.mkdir()
    code, _, err = simulate(capsys, flowing_lexicon, levels, "dflt,dflt", out, "--leaves", str(tmp_path / "no.leaves"))
    assert code == 2 and "no.leaves" in err and not any(out.iterdir())


def test_simulate_plays_and_trains_with_a_leave_file(capsys, flowing_lexicon, tmp_path):
    """simulate --leaves: run.json records the file and each turn's equity is its score plus the
    file's value of its leave (checked where the bag held at least 10 tiles: full weight); then
    `leaves train` on that run gives the means of a plain-Python computation over its turns."""
    learned = {canon(k): v for k, v in LEARNED.items()}
    coef = random_coef(6)
    path = tmp_path / "h.leaves"
    hand_table(learned, coef).save(path)
    levels = tmp_path / "levels.toml"
    levels.write_text(LEVELS.format(own=path.name), encoding="utf-8")
    run = tmp_path / "run"
    code, _, err = simulate(capsys, flowing_lexicon, levels, "dflt,own", run, "--leaves", str(path))
    assert code == 0, err
    assert json.loads((run / "run.json").read_text(encoding="utf-8"))["leaves"] == str(path.resolve())
    turns = pl.read_parquet(run / "turns.parquet").to_dicts()
    checked = Counter()
    for t in turns:
        bag_before = t["tilesremaining"] + (t["tilesplayed"] if t["kind"] == "place" else 0)
        if t["kind"] not in ("place", "exchange") or t["tilesremaining"] == 0 or bag_before < 10:
            continue
        expected = t["score"] + oracle_value(t["leave"].lower(), learned, coef)
        assert t["equity"] == pytest.approx(expected, abs=1e-6), t
        checked[t["kind"]] += 1
    assert checked["place"] and checked["exchange"], checked
    out = tmp_path / "trained.leaves"
    code, stdout, err = run_cli(capsys, "leaves", "train", str(run), "--out", str(out), "--prior", "0",
                                "--min-count", "1", "--json")  # fmt: skip
    assert code == 0, err
    means, counts = oracle_training(turns)
    assert json.loads(stdout)["training"]["turns"] == sum(counts.values()) > 0
    table = load_leaves(out)
    # Without an empty leave (this lexicon's words are short: every move keeps tiles) the zero
    # point is the model's; differences between leaves are the differences of their means.
    reference = "" if "" in means else max(means, key=counts.get)
    for leave, mean in means.items():
        if leave:
            assert table.learned(leave), leave
            assert table.value(leave) - table.value(reference) == pytest.approx(mean - means[reference], abs=1e-4)
