"""``literaki analyze`` (issue 14): a game played by the best-static-equity player loses nothing;
a deliberately worse move loses exactly (best equity - its equity), both computed here from
``solve`` and the equity module on a board the game itself rebuilt; files without racks,
literki, withdrawn phonies, moves that do not fit, --json, --out and the simulation hook."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest

from literaki_cli.analysis.solve import solve
from literaki_cli.engine.variant import load_variant
from literaki_cli.equity.equity import Equity
from literaki_cli.equity.leaves import open_leaves
from literaki_cli.games.game import EXCHANGE, PLACE, Game
from literaki_cli.games.players import load_levels, make_players
from literaki_cli.games.record import game_to_gcg
from literaki_cli.io.gcg import parse_gcg
from literaki_cli.review.game_review import analyze_game
from tests.conftest import run_cli

V = load_variant()
SEED = 1  # a game of 22 turns: placements (one with both blanks), exchanges, passes and the end

#: The shipped ``mistrz`` without its bonus for laying a tile on a WYM square (literki): the
#: analysis values moves by static equity alone, and so does this player.
LITERKI_LEVELS = """
[mistrz]
vocabulary = "all"
quantile = [0, 0]
exchange_below = -1000
keep = "aeiozrnsw"
keep_max = 3
leaves = "default"
"""


def mistrz_game(lexicon, variant=V, seed=SEED, levels=None) -> Game:
    players = make_players(["mistrz", "mistrz"], lexicon, variant, load_levels(levels))
    return Game(variant, players, lexicon.words, seed=seed, game_id=0)


@pytest.fixture(scope="module")
def played(flowing_lexicon):
    """The seed's game, played to the end by two ``mistrz`` players, and its GCG text."""
    game = mistrz_game(flowing_lexicon).play()
    return game, game_to_gcg(game)


@pytest.fixture(scope="module")
def equity():
    return Equity(open_leaves(None), V)


def event_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(">")]


def review_of(text: str, lexicon, equity, **options):
    return analyze_game(parse_gcg(text, "game.gcg"), lexicon, equity, **options)


def test_the_best_static_equity_player_loses_nothing(played, flowing_lexicon, equity):
    game, text = played
    kinds = {t.kind for t in game.turns}
    assert {PLACE, EXCHANGE, "pass"} <= kinds and len(game.turns) >= 15
    review = review_of(text, flowing_lexicon, equity)
    assert len(review.turns) == len(game.turns)
    bags = []  # the bag before each turn, as the game itself knew it
    replay = mistrz_game(flowing_lexicon)
    while not replay.over:
        bags.append(len(replay.bag))
        replay.step()
    for turn, original in zip(review.turns, game.turns, strict=True):
        assert turn.analysable, turn.notes
        assert turn.equity_loss == 0.0, (turn.turn, turn.played.text, turn.best.text, turn.notes)
        assert turn.played.equity == pytest.approx(original.equity, abs=1e-9)  # what the player saw
        assert turn.best.equity == pytest.approx(original.equity, abs=1e-9)
        assert turn.played.score == original.score and turn.bag == bags[turn.turn - 1]
        assert not turn.notes
    for player in review.players:
        assert player.equity_lost == 0.0 and player.mistakes == [] and player.not_analysable == 0
        assert player.score == game.scores[player.seat]


def position_at(lexicon, turn: int):
    """The game replayed by its own engine up to ``turn`` (0-based): (game, rack, bag, may exchange)."""
    game = mistrz_game(lexicon)
    for _ in range(turn):
        game.step()
    return game, game.racks[game.current], len(game.bag), game.can_exchange()


def best_equity(board, rack, bag, may_exchange, lexicon, equity) -> tuple[float, list]:
    """The best static equity by ``solve``: its best placement, or its best exchange when that
    is worth more and the rules allow one; and every placement, best first."""
    result = solve(board, V, lexicon, rack, top=None, equity=equity, bag=bag, by="equity", exchanges=1)
    best = result.moves[0].equity if result.moves else float("-inf")
    if may_exchange and result.exchanges:
        best = max(best, result.exchanges[0].equity)
    return best, result.moves


def first_rich_turn(played, lexicon, equity) -> int:
    """A turn whose rack had a placement clearly worse than the best."""
    game, _ = played
    for k, turn in enumerate(game.turns):
        if k >= 2 and turn.kind == PLACE:
            board_game, rack, bag, may = position_at(lexicon, k)
            _, moves = best_equity(board_game.board, rack, bag, may, lexicon, equity)
            if len(moves) > 5:
                return k
    raise AssertionError("no turn with a choice")


def with_turn_replaced(text: str, k: int, move: str, score: int) -> str:
    """The GCG up to turn ``k`` (0-based), whose move is replaced; later turns dropped."""
    lines = event_lines(text)
    head = [line for line in text.splitlines() if line.startswith("#")]
    m = re.match(r">(\S+): (\S+) .* [+-]\d+ (-?\d+)$", lines[k])
    nick, rack, total = m.group(1), m.group(2), int(m.group(3))
    previous = next((int(x.split()[-1]) for x in reversed(lines[:k]) if x.startswith(f">{nick}:")), 0)
    assert previous + int(lines[k].split()[-2]) == total
    return "\n".join(head + lines[:k] + [f">{nick}: {rack} {move} +{score} {previous + score}"]) + "\n"


def test_a_worse_placement_loses_best_minus_played(played, flowing_lexicon, equity):
    _, text = played
    k = first_rich_turn(played, flowing_lexicon, equity)
    game, rack, bag, may = position_at(flowing_lexicon, k)
    best, moves = best_equity(game.board, rack, bag, may, flowing_lexicon, equity)
    worse = next(m for m in moves[len(moves) // 2 :] if m.equity < best - 1)
    expected_played = worse.score + equity.leave_value(worse.leave, bag)  # independent of the review
    review = review_of(with_turn_replaced(text, k, f"{worse.coord} {worse.display}", worse.score), flowing_lexicon,
                       equity)  # fmt: skip
    turn = review.turns[k]
    assert turn.bag == bag and turn.rack == rack and turn.played.score == worse.score
    assert turn.played.equity == pytest.approx(expected_played, abs=1e-9)
    assert turn.best.equity == pytest.approx(best, abs=1e-3)  # solve rounds equity to 3 decimals
    assert turn.equity_loss == pytest.approx(best - expected_played, abs=1e-3) and turn.equity_loss > 1
    assert all(t.equity_loss == 0.0 for t in review.turns[:k])
    mover = review.players[turn.seat]
    assert mover.mistakes[0] is turn and mover.equity_lost == pytest.approx(turn.equity_loss)


def test_a_worse_exchange_loses_best_minus_the_kept_tiles(played, flowing_lexicon, equity):
    game_played, text = played
    k = next(k for k, t in enumerate(game_played.turns) if k >= 2 and position_at(flowing_lexicon, k)[3])
    game, rack, bag, may = position_at(flowing_lexicon, k)
    best, _ = best_equity(game.board, rack, bag, may, flowing_lexicon, equity)
    returned, keep = rack[:5], rack[5:]
    expected_played = equity.leave_value(keep, bag)
    if expected_played >= best - 1e-9:  # this exchange happens to be the best: return fewer
        returned, keep = rack[:1], rack[1:]
        expected_played = equity.leave_value(keep, bag)
    review = review_of(with_turn_replaced(text, k, f"-{returned.upper()}", 0), flowing_lexicon, equity)
    turn = review.turns[k]
    assert turn.played.kind == EXCHANGE and turn.played.coord is None and turn.played.leave == keep
    assert turn.equity_loss == pytest.approx(best - expected_played, abs=1e-3)
    record = turn.as_dict()
    assert record["played"]["coord"] is None and record["played"]["word"] == f"-{returned.upper()}"


def test_a_pass_keeps_the_whole_rack(played, flowing_lexicon, equity):
    _, text = played
    k = first_rich_turn(played, flowing_lexicon, equity)
    game, rack, bag, may = position_at(flowing_lexicon, k)
    best, _ = best_equity(game.board, rack, bag, may, flowing_lexicon, equity)
    kept = equity.leave_value(rack, bag)
    review = review_of(with_turn_replaced(text, k, "-", 0), flowing_lexicon, equity)
    turn = review.turns[k]
    assert turn.played.kind == "pass" and turn.played.word == "-" and turn.played.leave == rack
    assert turn.played.equity == pytest.approx(kept) and best > kept
    assert turn.equity_loss == pytest.approx(best - kept, abs=1e-3)


def test_a_file_without_racks_is_reported_not_guessed(played, flowing_lexicon, equity, tmp_path, capsys):
    _, text = played
    bare = re.sub(r"^>(\S+): [A-ZĄĆĘŁŃÓŚŹŻ?]+ (?=[0-9A-Za-z-])", r">\1: ", text, flags=re.M)
    assert bare != text
    path = tmp_path / "bare.gcg"
    path.write_text(bare, encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["turns"]
    for turn in report["turns"]:
        assert turn["rack"] is None and turn["best"] is None and turn["equity_loss"] is None
        assert "not analysable: the file does not record the rack" in turn["note"]
        assert turn["played"]["equity"] is None and turn["played"]["score"] is not None
    assert all(p["turns_analysed"] == 0 and p["mean_equity_lost"] is None for p in report["players"])
    code, out, _ = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path))
    assert code == 0 and "not analysable" in out


def test_only_one_players_racks(played, flowing_lexicon, equity):
    _, text = played
    first = re.match(r"#player1 (\S+)", text.splitlines()[1]).group(1)
    half = re.sub(rf"^>(?!{first}:)(\S+): [A-ZĄĆĘŁŃÓŚŹŻ?]+ (?=[0-9A-Za-z-])", r">\1: ", text, flags=re.M)
    review = review_of(half, flowing_lexicon, equity)
    assert all(t.analysable == (t.nick == first) for t in review.turns)
    assert all(t.equity_loss == 0.0 for t in review.turns if t.analysable)


def test_literki_games_17_by_15(flowing_lexicon, tmp_path, capsys):
    literki = load_variant("literki")
    levels = tmp_path / "levels.toml"
    levels.write_text(LITERKI_LEVELS, encoding="utf-8")
    game = mistrz_game(flowing_lexicon, literki, seed=2, levels=levels).play()
    text = game_to_gcg(game)
    assert "#variant literki" in text
    path = tmp_path / "literki.gcg"
    path.write_text(text, encoding="utf-8")
    lex = str(flowing_lexicon.path)
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", lex, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert len(report["turns"]) == len(game.turns)
    assert all(t["equity_loss"] == 0.0 for t in report["turns"])
    assert report["turns"][0]["bag"] == literki.tile_count - 2 * literki.rack_size
    # Without the #variant line the board is literki's only when asked.
    path.write_text(text.replace("#variant literki\n", ""), encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", lex, "--json", "--variant", "literki")
    assert code == 0, err
    without_lines = [{k: v for k, v in t.items() if k != "line"} for t in json.loads(out)["turns"]]
    assert without_lines == [{k: v for k, v in t.items() if k != "line"} for t in report["turns"]]


@pytest.mark.parametrize(
    ("line", "message"),
    [(">mistrz1: ABC 8H A1 +4 4", "is not a Polish letter"), (">mistrz1 ABC 8H AB +4 4", "expected '>nick:"),
     (">nobody: ABC 8H AB +4 4", "unknown player 'nobody'")],
)  # fmt: skip
def test_malformed_lines_exit_2_naming_file_and_line(played, flowing_lexicon, tmp_path, capsys, line, message):
    _, text = played
    lines = text.splitlines()
    lines.insert(9, line)
    path = tmp_path / "bad.gcg"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path))
    assert code == 2 and out == ""
    assert err.startswith(f"literaki: error: {path}:10: ") and message in err and err.count("\n") == 1


def test_a_missing_file_and_a_bad_variant_exit_2(flowing_lexicon, tmp_path, capsys):
    code, _, err = run_cli(capsys, "analyze", str(tmp_path / "none.gcg"), "--lexicon", str(flowing_lexicon.path))
    assert code == 2 and "none.gcg: cannot read" in err
    path = tmp_path / "g.gcg"
    path.write_text(">a: AB 8H AB +4 4\n", encoding="utf-8")
    lex = str(flowing_lexicon.path)
    code, _, err = run_cli(capsys, "analyze", str(path), "--variant", "scrabble", "--lexicon", lex)
    assert code == 2 and "unknown variant 'scrabble'" in err


def test_json_schema(played, flowing_lexicon, tmp_path, capsys):
    game, text = played
    path = tmp_path / "g.gcg"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--json", "--top", "2")
    assert code == 0
    report = json.loads(out)
    assert set(report) == {"turns", "players", "end", "encoding", "notes"}
    assert report["end"]["convention"] == ("polish" if game.ended_by == "out" else None)  # passes: either way
    assert report["encoding"] == "utf-8"
    kinds = set()
    for number, turn in enumerate(report["turns"], 1):
        assert {"turn", "player", "rack", "played", "best", "equity_loss"} <= set(turn) and turn["turn"] == number
        for move in (turn["played"], turn["best"]):
            assert {"coord", "word", "score", "equity"} <= set(move)
        kind = turn["played"]["kind"]
        kinds.add(kind)
        if kind == "exchange":
            assert turn["played"]["coord"] is None and re.fullmatch(r"-[A-ZĄĆĘŁŃÓŚŹŻ?]+", turn["played"]["word"])
        elif kind == "pass":
            assert turn["played"]["coord"] is None and turn["played"]["word"] == "-"
        else:
            assert re.fullmatch(r"\d{1,2}[A-O]|[A-O]\d{1,2}", turn["played"]["coord"])
        assert turn["best_sim"] is None and turn["rack"] == turn["rack"].upper()
    assert kinds == {"place", "exchange", "pass"}
    assert [p["player"] for p in report["players"]] == ["mistrz1", "mistrz2"]
    for player in report["players"]:
        assert {"player", "score", "equity_lost", "mean_equity_lost", "mistakes", "bingos_missed", "turns_analysed",
                "turns_not_analysable"} <= set(player)  # fmt: skip


def test_out_writes_the_tables_and_the_chart(played, flowing_lexicon, tmp_path, capsys):
    _, text = played
    path = tmp_path / "g.gcg"
    path.write_text(text, encoding="utf-8")
    out_dir = tmp_path / "review" / "deeper"
    code, out, err = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--out",
                             str(out_dir), "--json")  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert sorted(p.name for p in out_dir.iterdir()) == ["analysis.png", "turns.csv", "turns.parquet"]
    assert (out_dir / "analysis.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = pl.read_parquet(out_dir / "turns.parquet")
    csv = pl.read_csv(out_dir / "turns.csv")
    assert table.columns == csv.columns and table.height == csv.height == len(report["turns"])
    for name in (
        "turn",
        "player",
        "rack",
        "played_coord",
        "played_word",
        "played_score",
        "played_equity",
        "best_coord",
        "best_word",
        "best_score",
        "best_equity",
        "equity_loss",
        "score_1",
        "score_2",
    ):
        assert name in table.columns  # fmt: skip
    first = report["turns"][0]
    row = table.row(0, named=True)
    assert (row["turn"], row["player"], row["rack"], row["played_word"], row["best_equity"]) == (
        first["turn"], first["player"], first["rack"], first["played"]["word"], first["best"]["equity"])  # fmt: skip
    code, out, _ = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path), "--out", str(path))
    assert code == 2  # a file where the folder should be


def test_a_withdrawn_phony_is_taken_off_the_board(played, flowing_lexicon, equity):
    game, text = played
    k = next(k for k, t in enumerate(game.turns) if t.kind == PLACE and k >= 3)
    lines = text.splitlines()
    at = lines.index(event_lines(text)[k])
    real = lines[at]
    nick, rack, coord, word, score, total = re.match(r">(\S+): (\S+) (\S+) (\S+) \+(\d+) (-?\d+)$", real).groups()
    before = int(total) - int(score)
    # The same move, first laid, challenged and withdrawn: replayed on the board it left, the
    # real move would not fit.
    lines[at:at] = [real, f">{nick}: {rack} -- -{score} {before}"]
    review = review_of("\n".join(lines) + "\n", flowing_lexicon, equity)
    withdrawn, again = review.turns[k], review.turns[k + 1]
    assert withdrawn.withdrawn and withdrawn.played.score == 0 and withdrawn.total == before
    assert withdrawn.played.equity == pytest.approx(equity.leave_value(rack.lower(), withdrawn.bag))
    assert withdrawn.equity_loss == pytest.approx(withdrawn.best.equity - withdrawn.played.equity, abs=1e-9)
    assert again.analysable and again.equity_loss == 0.0 and again.bag == withdrawn.bag and not again.notes
    assert all(t.analysable for t in review.turns)


def test_a_move_that_does_not_fit_leaves_the_rest_unanalysable(played, flowing_lexicon, equity):
    game, text = played
    k = next(k for k, t in enumerate(game.turns) if t.kind == PLACE)
    lines = event_lines(text)
    coord, word = game.turns[k].play.split()
    clash = ("ĄĄ" if word[0].lower() != "ą" else "ŻŻ") + word[2:]
    nick = lines[k + 1].split(":")[0]
    rack = lines[k + 1].split()[1]
    total = lines[k + 1].split()[-1]
    lines[k + 1] = f"{nick}: {rack} {coord} {clash} +0 {total}"
    review = review_of("\n".join(lines) + "\n", flowing_lexicon, equity)
    assert all(t.analysable for t in review.turns[: k + 1])
    broken = review.turns[k + 1]
    assert not broken.analysable and "holds" in broken.notes[0] and "unknown from here on" in broken.notes[0]
    for turn in review.turns[k + 2 :]:
        assert not turn.analysable and turn.notes[0].startswith(f"not analysable: line {broken.line}'s move")


def test_a_claimed_score_the_rules_do_not_give_is_reported(played, flowing_lexicon, equity):
    game, text = played
    k = next(k for k, t in enumerate(game.turns) if t.kind == PLACE)
    line = event_lines(text)[k]
    score = game.turns[k].score
    wrong = re.sub(rf" \+{score} ", f" +{score + 7} ", line)
    review = review_of(text.replace(line, wrong), flowing_lexicon, equity)
    turn = review.turns[k]
    assert turn.played.score == score and turn.score_claimed == score + 7
    assert f"the file claims +{score + 7}, the rules give +{score}" in turn.notes
    assert turn.equity_loss == 0.0


def test_a_simulation_plugs_in_per_turn(played, flowing_lexicon, equity):
    _, text = played
    seen = []

    def simulate(position, turn):
        seen.append((position, turn))
        return turn.best

    review = review_of(text, flowing_lexicon, equity, simulate=simulate)
    assert len(seen) == len(review.turns)
    for position, turn in seen:
        assert position.rack == turn.rack and position.bag == turn.bag
        assert all(not position.board.occupied(t.row, t.col) for t in turn.played.tiles)  # the board before
        assert position.position().rack == turn.rack
        assert turn.best_sim is turn.best and turn.as_dict()["best_sim"] == turn.as_dict()["best"]


def test_the_table_for_people(played, flowing_lexicon, tmp_path, capsys):
    _, text = played
    path = tmp_path / "g.gcg"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli(capsys, "analyze", str(path), "--lexicon", str(flowing_lexicon.path))
    assert code == 0
    assert "per player" in out and "mistrz1" in out and "equity lost" in out
