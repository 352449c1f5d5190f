"""`literaki play` (issue 12): saves restore their settings and never lose the game, every message
is in the interface language, levels in either spelling, and typed moves never discard laid tiles."""

import io
import json
import re
import time
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

from literaki_cli.commands.common import main
from literaki_cli.engine.variant import load_variant
from literaki_cli.games.play import PlayError, PlaySession, Texts, play_level, play_levels
from literaki_cli.games.players import load_levels
from tests.conftest import ROOT, Script

V = load_variant()
ENGLISH = re.compile(r"\b(the|is|not|cannot|move|board|rack|word|tiles?|letter|square|character|without)\b", re.I)


def session(lexicon, *lines, lang="pl", level="normalny", seed=4):
    out = io.StringIO()
    s = PlaySession(V, lexicon, level, lang, Console(file=out, width=120, highlight=False), Script(*lines), seed)
    s.new_game(first=0)
    return s, out


def play_a_few_turns(s, turns=3):
    """The human plays the hint's move (or passes), the computer answers."""
    from literaki_cli.analysis.solve import found_move

    for _ in range(turns):
        moves = s.hint_generator.generate(s.game.board, s.game.racks[0])
        if len(moves):
            best = found_move(moves.records[moves.ranked()[0]], 1, s.game.board, V, s.game.racks[0])
            s.read_line.lines = ["t"]
            s.handle(f"{best.coord} {best.word}")
        else:
            s.handle("pas")
        assert s.game.current == 1
        s.computer_turn()


def run_cli(monkeypatch, capsys, args, stdin=""):
    """`literaki ARGS` in this process with ``stdin`` typed; (exit code, stdout, stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ----------------------------------------------------------------- item 2: a save restores its settings


@pytest.fixture
def saved_trudny_en(flowing_lexicon, tmp_path):
    s, _ = session(flowing_lexicon, lang="en", level="trudny")
    play_a_few_turns(s)
    return s, s.save(tmp_path / "g.gcg")


def test_load_restores_level_and_language_and_goes_on(flowing_lexicon, saved_trudny_en, monkeypatch, capsys,
                                                      tmp_path):  # fmt: skip
    s, path = saved_trudny_en
    monkeypatch.chdir(tmp_path)
    state = json.loads(next(x for x in path.read_text("utf-8").splitlines() if x.startswith("#literaki-state "))[16:])
    assert (state["level"], state["lang"], state["variant"]) == ("trudny", "en", "literaki")
    # no flags: the save's level and language; save again after a move and load that too
    code, out, err = run_cli(monkeypatch, capsys, ["play", "--load", str(path), "--lexicon", str(flowing_lexicon.path)],
                             "help\npass\nsave again.gcg\nquit\n\n")  # fmt: skip
    assert code == 0, err
    assert "(Trudny)" in out and "Commands:" in out and "You pass." in out and "Saved: again.gcg" in out
    code, out, err = run_cli(monkeypatch, capsys, ["play", "--load", "again.gcg", "--lexicon",
                                                   str(flowing_lexicon.path)], "quit\n\n")  # fmt: skip
    assert code == 0, err
    assert "(Trudny)" in out and "Your tiles:" in out


def test_flags_that_contradict_the_save_get_a_note_and_the_save_wins(flowing_lexicon, saved_trudny_en, monkeypatch,
                                                                     capsys, tmp_path):  # fmt: skip
    _, path = saved_trudny_en
    monkeypatch.chdir(tmp_path)  # the empty answer to the offer to save saves the game here
    args = ["play", "--load", str(path), "--level", "łatwy", "--lang", "pl", "--lexicon", str(flowing_lexicon.path)]
    code, out, err = run_cli(monkeypatch, capsys, args, "pass\nquit\n\n")
    assert code == 0, err
    assert "Note: the game in" in out and "has --level trudny; ignoring --level łatwy" in out
    assert "has --lang en; ignoring --lang pl" in out
    assert "(Trudny)" in out and "You pass." in out


def test_a_save_without_the_language_still_loads_in_either_language(flowing_lexicon, saved_trudny_en, tmp_path):
    _, path = saved_trudny_en
    text = re.sub(r'"lang": "en", ', "", path.read_text("utf-8"))
    assert '"lang"' not in text
    old = tmp_path / "old.gcg"
    old.write_text(text, encoding="utf-8")
    t, _ = session(flowing_lexicon, lang="pl", level="trudny")
    t.load(old)  # the human is "You" in the file, "Ty" in this interface
    assert len(t.game.turns) >= 6


@pytest.mark.parametrize(("change", "field"), [
    ({"current": 5}, "current"),
    ({"exchanges_left": []}, "exchanges_left"),
    ({"racks": ["abc"]}, "racks"),
    ({"racks": ["abc", "12"]}, "racks"),
    ({"racks": ["aaaaaaaaa", "b"]}, "racks"),
    ({"racks": ["ńńńńńń", "ńńńńń"]}, "racks"),
    ({"exchanges_left": [3, 9]}, "exchanges_left"),
    ({"seed": "x"}, "seed"),
    ({"seed": None}, "seed"),
    ({"lang": "de"}, "lang"),
    ({"level": 7}, "level"),
])  # fmt: skip
def test_a_damaged_save_is_a_clear_error_naming_file_and_field(flowing_lexicon, saved_trudny_en, tmp_path, change,
                                                                field, monkeypatch, capsys):  # fmt: skip
    _, path = saved_trudny_en
    lines = path.read_text("utf-8").splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("#literaki-state "))
    state = json.loads(lines[i][16:]) | change
    lines[i] = "#literaki-state " + json.dumps(state)
    bad = tmp_path / "bad.gcg"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(monkeypatch, capsys, ["play", "--load", str(bad), "--lang", "en", "--lexicon",
                                                   str(flowing_lexicon.path)])  # fmt: skip
    assert code == 2 and "Traceback" not in err
    assert str(bad) in err and f"“{field}”" in err and "damaged save" in err


def test_a_missing_field_and_a_broken_state_line(flowing_lexicon, saved_trudny_en, tmp_path, monkeypatch, capsys):
    _, path = saved_trudny_en
    text = path.read_text("utf-8")
    bad = tmp_path / "bad.gcg"
    bad.write_text(re.sub(r'"current": \d+, ', "", text), encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["play", "--load", str(bad), "--lexicon", str(flowing_lexicon.path)])
    assert code == 2 and "no field “current”" in err and str(bad) in err
    bad.write_text(text.replace("#literaki-state {", "#literaki-state [{"), encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["play", "--load", str(bad), "--lexicon", str(flowing_lexicon.path)])
    assert code == 2 and "nie jest obiektem JSON" in err  # the save's language is not known: the default


# ----------------------------------------------------------------- item 8: translations, commands, levels


def test_polish_errors_are_polish(flowing_lexicon):
    s, out = session(flowing_lexicon, "n", "n")
    s.game.racks[0] = "abcdeft"
    inputs = {
        "wymień ?": "nie masz na stojaku ?",
        "wymień 1": "nie jest polską literą",
        "wymień": "Podaj płytki do wymiany",
        "8Z AB": "kolumna z jest poza planszą",
        "20A AB": "wiersz 20 jest poza planszą",
        "8H AB(": "„(” bez „)”",
        "8H A1": "nie jest polską literą, kropką ani nawiasem",
        "8H ABCDEFTABCDEFTAB": "wypada poza planszę",
        "8H óżźść": "brakuje liter ÓŻŹŚĆ: słowo potrzebuje 5 blanków, a masz 0",
        "8H ABcd": "nie masz na stojaku ??",
        "h8 1": "1 nie jest polską literą",
        "h8 Ż": "nie masz na stojaku Ż",
        "8H ABCD": "słowa ABCD nie ma w słowniku",
    }
    for line, expected in inputs.items():
        s.pending = []
        before = len(out.getvalue())
        s.handle(line)
        said = out.getvalue()[before:]
        assert expected in said, (line, said)
        assert not ENGLISH.search(said.replace("(stojak:", "")), (line, said)
    for laid, expected in (("h8 A", "pierwszy ruch musi położyć co najmniej 2 litery"),
                           ("a1 A", "pierwszy ruch musi przykryć pole startowe h8")):  # fmt: skip
        s.pending = []
        s.handle(laid)
        s.handle("połóż")
        said = out.getvalue().rsplit("Ruch odrzucony", 1)[1]
        assert expected in said and "ruch nie tworzy słowa z co najmniej dwóch liter" in said
        assert not ENGLISH.search(said), said
    assert s.game.turns == []


def test_the_engine_templates_match_the_engine_messages():
    """Each Polish template turns a real engine message into Polish (its English text gone)."""
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.move import Tile, parse_move, resolve
    from literaki_cli.engine.scoring import score_tiles
    from literaki_cli.errors import message_of

    t = Texts("pl")
    board = Board.for_variant(V).with_tiles([Tile(7, 7, "k", False), Tile(7, 8, "o", False)])
    messages = []
    for move in ("8H (K(O))", "8H K)", "8H ()", "8H KOT", "8H .O", "9H .O", "15O AB"):
        try:
            resolve(parse_move(move, V), board)
        except Exception as exc:  # noqa: BLE001 - collecting the engine's messages (as said: play hears them so)
            messages.append(message_of(exc))
    messages += score_tiles(board, V, [Tile(0, 0, "a", False), Tile(1, 1, "b", False)], 0).problems
    messages += score_tiles(board, V, [Tile(7, 7, "a", False), Tile(7, 7, "b", False)], 0).problems
    assert len(messages) >= 10
    for part in messages:  # (each one message: a list of problems comes one by one)
        translated = t.translate(part)
        assert translated != part and not ENGLISH.search(translated.split(":", 1)[-1]), (part, translated)


def test_winner_lines_are_polish(flowing_lexicon):
    s, out = session(flowing_lexicon)
    s.game.scores = [433, 239]
    s.finish_game()
    s.game.scores = [100, 239]
    s.finish_game()
    text = out.getvalue()
    assert "Wygrywasz 433 do 239." in text and "Wygrywa komputer (Normalny) 239 do 100." in text
    assert "Wygrywa Ty" not in text


def test_every_interface_understands_both_languages_commands(flowing_lexicon):
    s, out = session(flowing_lexicon, "tak", lang="en")
    s.handle("wymieszaj")
    s.handle("pomoc")
    assert "Rack shuffled." in out.getvalue() and "Commands:" in out.getvalue()
    s.handle(f"8H {s.game.racks[0][:2].replace('?', 'a')}")  # confirmed with the Polish "tak"
    assert len(s.game.turns) in (0, 1)
    p, out = session(flowing_lexicon, lang="pl")
    p.handle("shuffle")
    p.handle("hint")
    assert "Wymieszano płytki." in out.getvalue() and "Podpowiedź:" in out.getvalue()
    for lang in ("pl", "en"):
        texts = Texts(lang)
        for other in ("pl", "en"):
            for name, words in tomllib.loads(Path(f"literaki_cli/locales/{other}.toml").read_text("utf-8"))[
                "commands"
            ].items():
                for word in words:
                    if name in ("yes", "no"):
                        assert (texts.is_yes if name == "yes" else texts.is_no)(word)
                    elif word not in ("ok",):
                        assert texts.command(word) == name, (lang, word)


def _popular_levels():
    data = tomllib.loads(Path("literaki_cli/games/levels.toml").read_text("utf-8"))
    return {name: spec for name, spec in data.items() if spec["vocabulary"] == "popular"}


def test_levels_in_either_spelling_and_the_offered_ones(monkeypatch, capsys, tmp_path):
    """play offers the online game's three levels and, as hard sparring partners, mistrz and
    arcymistrz (key in_play); a level with in_play = false is refused, naming those offered."""
    pl = Texts("pl")
    assert play_level("łatwy", pl).name == "latwy" and play_level("ŁATWY", pl).name == "latwy"
    assert play_level("Latwy", pl).name == "latwy" and play_level("trudny", pl).name == "trudny"
    assert play_level("Mistrz", pl).name == "mistrz" and play_level("ARCYMISTRZ", pl).name == "arcymistrz"
    with pytest.raises(PlayError, match="unknown level 'x'|unknown level x"):
        play_level("x", Texts("en"))
    popular = _popular_levels()
    assert "mistrz" not in popular and len(popular) == 3
    assert play_levels(load_levels()) == [*popular, "mistrz", "arcymistrz"]
    levels_file = tmp_path / "levels.toml"
    levels_file.write_text('[trudny]\nvocabulary = "popular"\nquantile = [0, 0]\nexchange_below = 0\n'
                           '[sparing]\nvocabulary = "all"\nquantile = [0, 0]\nexchange_below = 0\n'
                           '[ukryty]\nvocabulary = "popular"\nquantile = [0, 0]\nexchange_below = 0\nin_play = false\n',
                           encoding="utf-8")  # fmt: skip
    levels = load_levels(levels_file)
    assert play_levels(levels) == ["trudny"]
    with pytest.raises(PlayError, match="tylko dla simulate.*do wyboru: trudny"):
        play_level("ukryty", pl, levels)
    with pytest.raises(PlayError, match="simulate only.*offers: trudny"):
        play_level("sparing", Texts("en"), levels)
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_cli(monkeypatch, capsys, ["play", "--help"])
    level_help = " ".join(out.split())
    for name in [*popular, "mistrz", "arcymistrz"]:
        assert name in level_help


# ----------------------------------------------------------------- item 9: play --help


def test_play_help_lists_the_in_game_commands_and_an_example(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run_cli(monkeypatch, capsys, ["play", "--help"])
    assert code == 0
    for name, words in tomllib.loads(Path("literaki_cli/locales/en.toml").read_text("utf-8"))["commands"].items():
        if name not in ("yes", "no", "quit", "help"):
            assert words[0] in out, name
    assert "koniec" in out and "quit" in out and "Examples:" in out and "literaki play --level" in out


# ----------------------------------------------------------------- item 10: 9F K never discards laid tiles


def test_a_typed_move_never_discards_laid_tiles(flowing_lexicon):
    s, out = session(flowing_lexicon, "t")
    s.game.racks[0] = "kotaeiz"
    s.handle("h8 K")
    s.handle("9F K")  # a one-letter word across: refused while a tile is laid
    assert [(x.row, x.col, x.letter) for x in s.pending] == [(7, 7, "k")]
    assert "najpierw zatwierdź" in out.getvalue() and "h8 K" in out.getvalue()
    s.handle("8H KOT")
    assert [(x.row, x.col, x.letter) for x in s.pending] == [(7, 7, "k")] and s.game.turns == []
    s.handle("i8 O")  # column first: one more tile
    s.handle("połóż")
    assert len(s.game.turns) == 1 and s.game.turns[0].play.upper() == "8H KO"


def test_a_one_letter_row_first_entry_is_a_move_across(flowing_lexicon):
    s, out = session(flowing_lexicon)
    s.game.racks[0] = "kotaeiz"
    s.handle("8H K")
    assert "pierwszy ruch musi położyć co najmniej 2 litery" in out.getvalue()
    assert [(x.row, x.col, x.letter, x.blank) for x in s.pending] == [(7, 7, "k", False)]


# ----------------------------------------------------------------- item 4: lower case in play


def test_lower_case_rule(flowing_lexicon):
    s, out = session(flowing_lexicon, "n", "n", "n")
    s.game.racks[0] = "kotaei?"
    s.handle("8H kok")  # all lower case: rack K, O, then a blank for the second K
    assert [x.blank for x in s.pending] == [False, False, True]
    s.handle("cofnij")
    s.handle("8H KoT")  # mixed case: the notation; the o is a blank
    assert [x.blank for x in s.pending] == [False, True, False]
    s.handle("cofnij")
    s.handle("8H żyźń")  # four letters missing, one blank
    assert "brakuje liter ŻYŹŃ: słowo potrzebuje 4 blanków, a masz 1" in out.getvalue() and s.pending == []
    s.handle("8H KOk")  # the notation: tiles K and O, a blank for the last k
    assert [x.blank for x in s.pending] == [False, False, True]


# ----------------------------------------------------------------- runs and saves never lose work


def test_end_of_game_save_asks_again_after_a_bad_name(flowing_lexicon, tmp_path):
    s, out = session(flowing_lexicon, str(tmp_path / "no" / "such" / "dir.gcg"), str(tmp_path), "a\0b",
                     str(tmp_path / "ok.gcg"), lang="en")  # fmt: skip
    path = s.offer_save()
    assert path == tmp_path / "ok.gcg" and path.read_text("utf-8").startswith("#character-encoding")
    assert len(s.read_line.prompts) == 4 and out.getvalue().count("Error: ") == 3
    assert "NUL" in out.getvalue()


def test_a_nul_in_a_save_name_is_a_message_and_the_game_goes_on(flowing_lexicon, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s, out = session(flowing_lexicon)
    s.handle("zapisz a\0b.gcg")
    assert "Błąd: zła nazwa pliku a\\0b.gcg: zawiera znak NUL" in out.getvalue()
    s.handle("zapisz dobra.gcg")
    assert (tmp_path / "dobra.gcg").exists()


def test_ctrl_c_in_a_game_offers_to_save_then_ends(flowing_lexicon, tmp_path):
    s, out = session(flowing_lexicon, "pomoc", KeyboardInterrupt, str(tmp_path / "przerwana.gcg"))
    with pytest.raises(KeyboardInterrupt):
        s.run(loaded=True)
    assert (tmp_path / "przerwana.gcg").exists() and "Zapisać grę" in out.getvalue()
    assert s.read_line.prompts[-1].startswith("plik [literaki-")
    for answer in (KeyboardInterrupt, EOFError):  # a second Ctrl-C or EOF at that prompt ends it too
        s, out = session(flowing_lexicon, KeyboardInterrupt, answer)
        with pytest.raises(KeyboardInterrupt):
            s.run(loaded=True)
        assert "Zapisać grę" in out.getvalue() and s.read_line.prompts[-1].startswith("plik [")


@pytest.mark.slow
def test_ctrl_c_in_a_real_terminal(flowing_lexicon, tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys

    env = dict(os.environ, LITERAKI_LEXICON=str(flowing_lexicon.path), COLUMNS="100", LINES="50")

    def spawn():
        return pexpect.spawn(sys.executable, ["-m", "literaki_cli", "play", "--lang", "en", "--seed", "3"], env=env,
                             encoding="utf-8", timeout=60, dimensions=(50, 100), cwd=str(tmp_path))  # fmt: skip

    child = spawn()
    child.expect("> ")
    time.sleep(0.3)
    child.sendintr()
    child.expect("Save the game as GCG")
    child.sendline("stopped.gcg")
    child.expect("Saved: stopped.gcg")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and (tmp_path / "stopped.gcg").exists()
    child = spawn()
    child.expect("> ")
    child.sendintr()
    child.expect("gcg\\]: ")  # the whole prompt, and a moment for readline to wait for a key: a signal
    time.sleep(0.3)  # sent while it is still writing the prompt can be lost (Python's readline loop)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130 and "Traceback" not in child.before


def test_the_play_page_mentions_every_play_option():
    import typer

    from literaki_cli.commands.common import app

    command = typer.main.get_command(app).commands["play"]
    options = {opt for param in command.params for opt in param.opts if opt.startswith("--")} - {"--help", "--lexicon"}
    section = (ROOT / "docs" / "play.md").read_text("utf-8")
    assert options >= {"--level", "--lang", "--load", "--seed", "--variant", "--rules"}
    for option in options:
        assert option in section, option
