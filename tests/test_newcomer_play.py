"""`literaki play`: moves reported as `solve` writes them (board tiles in parentheses, not '.'),
Enter at the offer to save saves under the name shown (and 'n' declines), and one language on
every line: the plain-text board legend, the command's error line and the reasons of file errors
follow the interface."""

import io
import json
import re

import pytest
from rich.console import Console

from literaki_cli.commands.common import main
from literaki_cli.engine.move import Tile
from literaki_cli.engine.variant import ACROSS, load_variant
from literaki_cli.games.game import PLACE, Action
from literaki_cli.games.play import PlaySession, Texts
from tests.conftest import Script
from tests.test_play import session as play_session

V = load_variant()


def session(lexicon, *lines, lang="pl", seed=4):
    """tests/test_play.py's session, Polish by default and wider (the Polish legend is long)."""
    return play_session(lexicon, *lines, lang=lang, seed=seed, width=120)


def run_cli(monkeypatch, capsys, args, stdin=""):
    """`literaki ARGS` in this process with ``stdin`` typed; (exit code, stdout, stderr)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ----------------------------------------------------------------- 7: moves as solve writes them


@pytest.mark.parametrize(("lang", "expected"), [
    ("pl", r"Normalny kładzie 8H \(K\)O\(t\) za \d+ pkt\."),
    ("en", r"Normalny plays 8H \(K\)O\(t\) for \d+ points\."),
])  # fmt: skip
def test_the_computers_move_shows_board_tiles_in_parentheses(flowing_lexicon, lang, expected):
    s, out = session(flowing_lexicon, lang=lang)
    s.game.board = s.game.board.with_tiles([Tile(7, 7, "k", False), Tile(7, 9, "t", True)])  # K . t (a blank)
    s.game.current = 1
    s.game.racks[1] = "oaeiyzn"
    s.computer.choose = lambda game: Action(PLACE, (Tile(7, 8, "o", False),), ACROSS)
    s.computer_turn()
    assert s.game.turns[-1].play == "8H .O."  # the record keeps GCG's dots
    said = out.getvalue()
    assert re.search(expected, said), said
    assert "8H .O." not in said


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_a_run_of_board_tiles_is_one_pair_of_parentheses_as_in_solve(flowing_lexicon, lang):
    from literaki_cli.analysis.solve import found_move

    s, out = session(flowing_lexicon, lang=lang)
    s.game.board = s.game.board.with_tiles([Tile(7, 7, "k", False), Tile(7, 8, "o", False)])
    before = s.game.board
    s.game.current = 1
    s.game.racks[1] = "taeiyzn"
    s.computer.choose = lambda game: Action(PLACE, (Tile(7, 9, "t", False),), ACROSS)
    s.computer_turn()
    said = out.getvalue()
    assert "8H (KO)T " in said and "..T" not in said, said
    # the same text solve's table gives that move
    moves = s.hint_generator.generate(before, "taeiyzn")
    solved = [found_move(r, 1, before, V, "taeiyzn") for r in moves.records]
    assert "(KO)T" in [m.display for m in solved if m.coord == "8H"]


# ----------------------------------------------------------------- 8: Enter at the offer to save saves


@pytest.mark.parametrize("lang", ["pl", "en"])
def test_enter_at_the_offer_to_save_saves_under_the_name_shown(flowing_lexicon, tmp_path, monkeypatch, lang):
    monkeypatch.chdir(tmp_path)
    s, out = session(flowing_lexicon, "", lang=lang)
    path = s.offer_save()
    shown = re.search(r"\[([^\]]+\.gcg)\]", s.read_line.prompts[-1]).group(1)
    assert path is not None and path.resolve() == (tmp_path / shown).resolve()
    assert (tmp_path / shown).read_text("utf-8").startswith("#character-encoding UTF-8\n#literaki-state ")


@pytest.mark.parametrize(("lang", "answer"), [("pl", "n"), ("pl", "nie"), ("en", "n"), ("en", "no"), ("pl", "NIE")])
def test_no_at_the_offer_to_save_declines_and_the_offer_says_so(flowing_lexicon, tmp_path, monkeypatch, lang,
                                                                  answer):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    s, out = session(flowing_lexicon, answer, lang=lang)
    assert s.offer_save() is None
    assert list(tmp_path.iterdir()) == []
    offer = out.getvalue()  # the offer is a line of its own, the prompt short (see Session.offer_save)
    assert "Enter" in offer and ("„n”" if lang == "pl" else "“n”") in offer, offer
    assert ("pominąć" not in offer) and ("to skip" not in offer), offer
    assert re.fullmatch(r"(plik|file) \[literaki-\d{8}-\d{6}\.gcg\]: ", s.read_line.prompts[-1])


def test_quit_then_enter_in_the_cli_saves_the_game(flowing_lexicon, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(monkeypatch, capsys, ["play", "--lexicon", str(flowing_lexicon.path), "--seed", "2"],
                             "pas\nkoniec\n\n")  # fmt: skip
    assert code == 0, err
    saved = list(tmp_path.glob("*.gcg"))
    assert len(saved) == 1 and f"Zapisano: {saved[0].name}" in out
    assert "\n>" in saved[0].read_text("utf-8")  # the pass is in the record


# ----------------------------------------------------------------- 9: one language throughout


def test_the_piped_board_legend_is_in_the_interface_language(flowing_lexicon, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR"):  # output piped: no colour, the legend shown
        monkeypatch.delenv(name, raising=False)
    args = ["play", "--lexicon", str(flowing_lexicon.path), "--seed", "2"]
    code, out, err = run_cli(monkeypatch, capsys, args, "koniec\nn\n")
    assert code == 0, err
    legend = [line for line in out.splitlines() if "blank" in line]
    assert legend and all(line == legend[0] for line in legend)
    assert "czerwone" in legend[0] and "mała litera = blank" in legend[0], legend[0]
    assert not re.search(r"\b(red|green|yellow|blue|squares|lower case)\b", out), legend[0]
    # the labels on the board are the initials the legend explains
    for label, colour in re.findall(r"\((\w)\) (\w+)", legend[0]):
        assert colour.startswith(label) and f"({label})" in out.split(legend[0])[0]
    code, out, err = run_cli(monkeypatch, capsys, [*args, "--lang", "en"], "quit\nn\n")
    assert code == 0, err
    assert "    (r) red, (g) green, (y) yellow, (b) blue squares; lower case = blank" in out
    # with tiles laid, on a narrow console: the long line whole
    out = io.StringIO()
    s = PlaySession(V, flowing_lexicon, "normalny", "pl", Console(file=out, width=60, color_system=None), Script(), 4)
    s.new_game(first=0)
    s.pending = [Tile(7, 7, s.game.racks[0][0].replace("?", "a"), s.game.racks[0][0] == "?")]
    s.show()
    assert "    [X] nowa płytka; pola: (c) czerwone, (z) zielone, (ż) żółte, (n) niebieskie; mała litera = blank\n" in (
        out.getvalue()
    )


@pytest.mark.parametrize(("lang", "line"), [
    ("pl", "literaki: błąd: nieznany poziom expert; do wyboru: "),
    ("en", "literaki: error: unknown level expert; choose one of: "),
])  # fmt: skip
def test_an_unknown_level_is_one_line_in_one_language(flowing_lexicon, monkeypatch, capsys, lang, line):
    code, out, err = run_cli(monkeypatch, capsys, ["play", "--level", "expert", "--lang", lang,
                                                   "--lexicon", str(flowing_lexicon.path)])  # fmt: skip
    assert code == 2 and out == ""
    assert err.startswith(line) and err.count("\n") == 1, err
    code, _, err = run_cli(monkeypatch, capsys, ["play", "--level", "expert", "--lexicon", str(flowing_lexicon.path)])
    assert code == 2 and err.startswith("literaki: błąd: nieznany poziom expert"), err  # Polish by default


def test_a_damaged_save_errs_in_the_saves_language_prefix_included(flowing_lexicon, tmp_path, monkeypatch, capsys):
    s, _ = session(flowing_lexicon, lang="pl")
    path = s.save(tmp_path / "g.gcg")
    lines = path.read_text("utf-8").splitlines()
    i = next(i for i, x in enumerate(lines) if x.startswith("#literaki-state "))
    lines[i] = "#literaki-state " + json.dumps(json.loads(lines[i][16:]) | {"seed": "x"})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run_cli(monkeypatch, capsys, ["play", "--load", str(path), "--lang", "en", "--lexicon",
                                                 str(flowing_lexicon.path)])  # fmt: skip
    assert code == 2 and err.startswith(f"literaki: błąd: {path}: uszkodzony zapis gry"), err
    assert Texts("en")("cli_error", message="x") == "literaki: error: x"


def test_file_errors_are_in_the_interface_language_too(flowing_lexicon, tmp_path, monkeypatch, capsys):
    missing = tmp_path / "nie-ma.gcg"
    args = ["play", "--load", str(missing), "--lexicon", str(flowing_lexicon.path)]
    code, _, err = run_cli(monkeypatch, capsys, args)
    assert code == 2 and err == f"literaki: błąd: {missing}: nie można odczytać: nie ma takiego pliku ani katalogu\n"
    s, out = session(flowing_lexicon)
    s.handle(f"zapisz {tmp_path / 'brak' / 'x.gcg'}")
    s.handle(f"zapisz {tmp_path}")
    said = out.getvalue()
    assert "x.gcg: nie ma takiego pliku ani katalogu" in said and f"{tmp_path}: to jest katalog" in said, said
    assert not re.search(r"\b(No such|directory|Is a)\b", said), said
    e, out = session(flowing_lexicon, lang="en")
    e.handle(f"save {tmp_path}")
    assert f"Error: cannot write {tmp_path}: " in out.getvalue()  # English: the system's own words
