"""``analyze GAME...`` over many games (issue 28): each game reviewed as alone, a summary per
player whose totals are the sums of the single-game reviews, tables and a report with --out,
workers, files that cannot be read, Ctrl-C.

The oracle for the summary: every game reviewed on its own through the library
(:func:`~literaki_cli.review.game_review.analyze_game`), summed here."""

from __future__ import annotations

import json
from collections import defaultdict

import polars as pl
import pytest

from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.io.gcg import read_gcg
from literaki_cli.review.game_review import analyze_game
from tests.conftest import run_cli

GAMES = 200


@pytest.fixture(scope="module")
def season(flowing_lexicon, tmp_path_factory):
    """``simulate --gcg`` games: their folder."""
    from literaki_cli.cli import main

    out = tmp_path_factory.mktemp("season") / "run"
    code = main(["simulate", "--games", str(GAMES), "--players", "trudny,normalny", "--seed", "5", "--out", str(out),
                 "--gcg", "--lexicon", str(flowing_lexicon.path), "--workers", "2"])  # fmt: skip
    assert code == 0
    return out / "gcg"


def many(capsys, lexicon, *args):
    code, out, err = run_cli(capsys, "analyze", *map(str, args), "--lexicon", str(lexicon.path), "--endgame-time", "0",
                             "--json")  # fmt: skip
    return code, (json.loads(out) if out else None), err


def without_seconds(report: dict) -> dict:
    return {**report, "games": [{k: v for k, v in g.items() if k != "seconds"} for g in report["games"]]}


@pytest.mark.slow
def test_the_summary_is_the_sum_of_the_single_reviews(flowing_lexicon, season, capsys):
    code, report, err = many(capsys, flowing_lexicon, season, "--workers", "2")
    assert code == 0, err
    files = sorted(season.glob("*.gcg"))
    assert [g["file"] for g in report["games"]] == [str(f) for f in files] and len(files) == GAMES
    sums: dict[str, dict] = defaultdict(lambda: defaultdict(float))
    losses: dict[str, list[float]] = defaultdict(list)
    for path, game in zip(files, report["games"], strict=True):
        record = read_gcg(path)
        equity = Equity(open_leaves(None), record.variant)
        alone = analyze_game(record, flowing_lexicon, equity).as_dict()
        assert game["review"] == json.loads(json.dumps(alone)), path.name  # the same review as alone
        for player in alone["players"]:
            s = sums[player["player"]]
            s["games"] += 1
            for key in ("turns", "turns_analysed", "equity_lost", "bingos", "bingos_missed"):
                s[key] += player[key] or 0
        for turn in alone["turns"]:
            if turn["analysable"]:
                losses[turn["player"]].append(turn["equity_loss"] or 0.0)
            sums[turn["player"]]["withdrawn"] += turn["withdrawn"]
    assert {p["player"] for p in report["players"]} == set(sums)
    small, large = report["grades"]
    for player in report["players"]:
        s, lost = sums[player["player"]], losses[player["player"]]
        assert player["games"] == s["games"] and player["turns"] == s["turns"]
        assert player["turns_analysed"] == s["turns_analysed"] == len(lost)
        assert player["equity_lost"] == pytest.approx(s["equity_lost"], abs=1e-2)
        assert player["mean_equity_lost"] == pytest.approx(sum(lost) / len(lost), abs=1e-3)
        assert player["mean_equity_lost_low"] < player["mean_equity_lost"] < player["mean_equity_lost_high"]
        assert (player["bingos"], player["bingos_missed"], player["phonies_withdrawn"]) == (
            s["bingos"], s["bingos_missed"], s["withdrawn"])  # fmt: skip
        assert player["mistakes"] == {"small": sum(0 < x < small for x in lost),
                                      "medium": sum(small <= x < large for x in lost),
                                      "large": sum(x >= large for x in lost)}  # fmt: skip
        assert player["worst_turn"]["equity_loss"] == pytest.approx(max(lost), abs=1e-3)


def test_one_worker_or_two_give_the_same_report(flowing_lexicon, season, capsys):
    files = sorted(season.glob("*.gcg"))[:12]
    code, one, _ = many(capsys, flowing_lexicon, *files, "--workers", "1")
    code2, two, _ = many(capsys, flowing_lexicon, *files, "--workers", "2")
    assert code == code2 == 0
    assert without_seconds(one) == without_seconds(two)


def test_a_file_that_cannot_be_read_is_reported_and_the_others_reviewed(flowing_lexicon, season, tmp_path, capsys):
    broken = tmp_path / "broken.gcg"
    broken.write_text("#player1 a A\n>a: ABC 8H KOT +6\n", encoding="utf-8")
    missing = tmp_path / "missing.gcg"
    first, second = sorted(season.glob("*.gcg"))[:2]
    code, report, err = many(capsys, flowing_lexicon, first, broken, missing, second)
    assert code == 4, err
    assert err.count("\n") == 1 and "2 of 4 games could not be reviewed" in err and "Traceback" not in err
    errors = [g["error"] for g in report["games"]]
    assert errors[0] is None and errors[3] is None
    assert errors[1].startswith(f"{broken}:2: ") and "expected '+SCORE TOTAL'" in errors[1]
    assert str(missing) in errors[2]
    assert [g["review"] is not None for g in report["games"]] == [True, False, False, True]


def test_out_writes_the_tables_the_report_and_the_chart(flowing_lexicon, season, tmp_path, capsys):
    files = sorted(season.glob("*.gcg"))[:6]
    out = tmp_path / "rep"
    code, report, err = many(capsys, flowing_lexicon, *files, "--out", out)
    assert code == 0, err
    for name in ("games", "turns", "players"):
        table = pl.read_parquet(out / f"{name}.parquet")
        assert table.equals(pl.read_csv(out / f"{name}.csv", schema=table.schema)), name
    turns = pl.read_parquet(out / "turns.parquet")
    assert turns.height == sum(len(g["review"]["turns"]) for g in report["games"])
    assert set(turns["file"].unique()) == {str(f) for f in files}
    players = pl.read_parquet(out / "players.parquet")
    assert players["player"].to_list() == [p["player"] for p in report["players"]]
    assert players["mistakes_large"].to_list() == [p["mistakes"]["large"] for p in report["players"]]
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "# 6 games reviewed" in text and all(p["player"] in text for p in report["players"])
    assert (out / "equity_lost.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_keeps_the_games_finished(flowing_lexicon, season, capsys, monkeypatch):
    from literaki_cli.review import many as many_module

    files = sorted(season.glob("*.gcg"))[:5]
    real = many_module.GameReviewer.__call__

    def stop_at_the_third(self, index, file):
        if index == 2:
            raise KeyboardInterrupt
        return real(self, index, file)

    monkeypatch.setattr(many_module.GameReviewer, "__call__", stop_at_the_third)
    code, report, err = many(capsys, flowing_lexicon, *files, "--workers", "1")
    assert code == 130 and "interrupted: 2 of 5 games reviewed" in err
    assert [g["file"] for g in report["games"]] == [str(f) for f in files[:2]]


@pytest.mark.parametrize(
    "args, words",
    [
        (["--grades", "15,5"], ["--grades 15,5: two thresholds"]),
        (["--grades", "abc"], ["--grades 'abc': two numbers"]),
        (["--grades", "nan,5"], ["--grades nan,5"]),
    ],
)
def test_bad_grades_are_one_line_errors(flowing_lexicon, season, capsys, args, words):
    files = sorted(season.glob("*.gcg"))[:2]
    code, report, err = many(capsys, flowing_lexicon, *files, *args)
    assert code == 2 and report is None and err.count("\n") == 1
    assert all(word in err for word in words), err


def test_an_empty_folder_or_a_pattern_matching_nothing(flowing_lexicon, tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = many(capsys, flowing_lexicon, empty)
    assert code == 2 and "a folder with no game record" in err
    code, _, err = many(capsys, flowing_lexicon, tmp_path / "*.gcg")
    assert code == 2 and "no file matches the pattern" in err
