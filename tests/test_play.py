"""`literaki play`: scripted sessions through the library, and a real pseudo-terminal run."""

import io
import os
import sys

import pytest
from rich.console import Console

from literaki_cli.engine.variant import load_variant
from literaki_cli.games.play import PlaySession, Texts
from tests.conftest import Script

V = load_variant()


def session(lexicon, *lines, lang="en", seed=4, width=100):
    """A play session over ``lexicon`` fed ``lines`` as typed, and the text it printed."""
    out = io.StringIO()
    s = PlaySession(V, lexicon, "normalny", lang, Console(file=out, width=width, highlight=False), Script(*lines), seed)
    s.new_game(first=0)
    return s, out


def rack_word(s, length=2):
    """A two-letter move from the human's rack at h8 (every 2-letter string is a word here)."""
    rack = [c for c in s.game.racks[0] if c != "?"]
    return f"8H {''.join(rack[:length])}"


def test_typed_move_preview_confirm_and_computer_reply(flowing_lexicon):
    s, out = session(flowing_lexicon)
    move = rack_word(s)
    s.read_line.lines = ["y"]
    s.handle(move.lower())
    assert len(s.game.turns) == 1 and s.game.turns[0].score > 0
    assert "total" in s.read_line.prompts[-1] and "Confirm?" in s.read_line.prompts[-1]
    s.computer_turn()
    assert len(s.game.turns) == 2 and s.game.current == 0


def test_invalid_move_is_rejected_without_penalty_and_tiles_stay(flowing_lexicon):
    s, out = session(flowing_lexicon)
    letter = next(c for c in s.game.racks[0] if c != "?")
    s.handle(f"a1 {letter}")  # one tile far from the start square
    s.handle("place")
    assert "rejected" in out.getvalue() and s.game.turns == [] and s.game.scores == [0, 0]
    assert len(s.pending) == 1
    s.handle("undo")
    assert s.pending == []


def test_cancel_keeps_the_tiles(flowing_lexicon):
    s, out = session(flowing_lexicon, "n")
    s.handle(rack_word(s).lower())
    assert s.game.turns == [] and len(s.pending) == 2 and "Not confirmed" in out.getvalue()


def test_shuffle_exchange_pass_hint(flowing_lexicon):
    s, out = session(flowing_lexicon)
    before = sorted(s.game.racks[0])
    s.handle("shuffle")
    assert sorted(s.game.racks[0]) == before
    s.handle("hint")
    assert "Hint:" in out.getvalue()
    s.handle(f"exchange {s.game.racks[0][:2]}")
    assert s.game.exchanges_left[0] == 2 and s.game.turns[-1].kind == "exchange"
    s.game.current = 0
    s.handle("pass")
    assert s.game.turns[-1].kind == "pass"
    s.handle("fly away")
    assert "I do not understand" in out.getvalue()
    s.handle("help")
    assert "exchanges left: 2" in out.getvalue()


def test_polish_is_the_default(flowing_lexicon):
    s, out = session(flowing_lexicon, lang="pl")
    s.handle("pomoc")
    s.handle("wymieszaj")
    assert "Polecenia:" in out.getvalue() and "Wymieszano płytki." in out.getvalue()
    assert Texts("pl").command("podpowiedź") == "hint"
    with pytest.raises(Exception, match="unknown language"):
        Texts("de")


def test_full_game_then_save_and_load(flowing_lexicon, tmp_path):
    s, out = session(flowing_lexicon)
    for _ in range(3):  # a few turns each
        s.read_line.lines = ["y"]
        moves = s.hint_generator.generate(s.game.board, s.game.racks[0])
        if len(moves):
            from literaki_cli.analysis.solve import found_move

            best = found_move(moves.records[moves.ranked()[0]], 1, s.game.board, V, s.game.racks[0])
            s.handle(f"{best.coord} {best.word}")
        else:
            s.handle("pass")
        s.computer_turn()
    path = s.save(tmp_path / "g.gcg")
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#character-encoding UTF-8\n#literaki-state ")
    t, _ = session(flowing_lexicon)
    t.load(path)
    assert t.game.board == s.game.board and t.game.scores == s.game.scores
    assert t.game.racks == s.game.racks and t.game.exchanges_left == s.game.exchanges_left
    assert t.game.tile_count() == s.game.tile_count()
    assert [x.play for x in t.game.turns] == [x.play for x in s.game.turns]


def test_game_end_and_alternation(flowing_lexicon):
    s, out = session(flowing_lexicon, "", "y", "", "n")
    s.game.bag.tiles = []
    s.game.racks = [s.game.racks[0][:1], "ab"]
    s.game.pass_turn()
    s.game.pass_turn()
    s.game.pass_turn()
    s.game.pass_turn()
    assert s.game.over
    s.finish_game()
    assert "Game over." in out.getvalue() and "points for the tiles" in out.getvalue()
    first = s.game.first
    s.new_game(first=1 - first)
    assert s.game.first == 1 - first


def test_load_errors(flowing_lexicon, tmp_path):
    s, _ = session(flowing_lexicon)
    bad = tmp_path / "x.gcg"
    bad.write_text("#character-encoding UTF-8\n>a: AB 8H AB +2 2\n", encoding="utf-8")
    with pytest.raises(Exception, match="not a game saved by literaki play"):
        s.load(bad)


def test_real_terminal(flowing_lexicon, tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, LITERAKI_LEXICON=str(flowing_lexicon.path), COLUMNS="100", LINES="50")

    def spawn(*args):
        """`literaki play` in a pseudo-terminal of 100 x 50."""
        return pexpect.spawn(sys.executable, ["-m", "literaki_cli", "play", "--lang", "en", *args], env=env,
                             encoding="utf-8", timeout=60, dimensions=(50, 100), cwd=str(tmp_path))  # fmt: skip

    child = spawn("--seed", "3")
    child.expect("Your tiles: ")
    child.expect("> ")
    child.sendline("help")
    child.expect("Commands:")
    child.expect("> ")
    child.sendline("hint")
    child.expect("Hint: (\\S+) (\\S+) for (\\d+) points")
    coord, word = child.match.group(1), child.match.group(2)
    child.expect("> ")
    child.sendline(f"{coord} {word.replace('(', '').replace(')', '')}")
    child.expect("Confirm\\? \\[Y/n\\]")
    child.sendline("")
    child.expect(["plays", "exchanges", "passes"])  # the computer answers
    child.expect("> ")
    child.sendline("quit")
    child.expect("Save the game as GCG")
    child.sendline("saved.gcg")
    child.expect("Goodbye!")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert (tmp_path / "saved.gcg").read_text(encoding="utf-8").count("\n>") >= 2
    child = spawn("--load", "saved.gcg")
    child.expect("Your tiles: ")
    child.sendline("quit")
    child.expect("Save the game")
    child.sendline("")
    child.expect(pexpect.EOF)


def test_the_hint_is_the_best_equity_with_its_leave(flowing_lexicon):
    """The hint ranks like solve: score + the value of the tiles kept (shipped leave values)."""
    from literaki_cli.engine.move import rack_needs, take_from_rack
    from literaki_cli.engine.movegen import record_tiles
    from literaki_cli.equity.leaves import open_leaves

    s, out = session(flowing_lexicon)
    rack = s.game.racks[0]
    table = open_leaves(None)
    moves = s.hint_generator.generate(s.game.board, rack)
    best = max(
        s.game.judge(record_tiles(r)[0], record_tiles(r)[1]).total
        + table.value(take_from_rack(rack_needs(record_tiles(r)[0]), rack)[0])
        for r in moves.records
    )  # the bag is full: leave values count whole
    s.handle("hint")
    text = out.getvalue()
    assert "Hint:" in text and f"(equity {best:.1f})" in text
