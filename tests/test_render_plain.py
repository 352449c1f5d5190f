"""Boards printed without colour (piped, NO_COLOR) keep the square colours as text labels."""

from __future__ import annotations

import io

from rich.console import Console

from literaki_cli.engine.board import Board
from literaki_cli.engine.move import Tile
from literaki_cli.engine.variant import load_variant
from literaki_cli.io.render import board_to_rich

V = load_variant()


def rendered(picture, **console_options) -> str:
    out = io.StringIO()
    Console(file=out, width=200, **console_options).print(picture)
    return out.getvalue()


def test_plain_text_labels_every_colour_square_and_marks_new_tiles():
    board = Board.for_variant(V).with_tiles([Tile(7, 7, "k", False), Tile(7, 8, "o", True)])
    text = rendered(board_to_rich(board, V, {(7, 8)}), color_system=None)
    lines = text.splitlines()
    row1 = lines[1]
    # a1 is red, f1 green; read the square labels straight from the layout data
    assert row1.split()[:2] == ["1", "(r)"] and V.board.layout[0][0] == "R"
    labels = {"R": "(r)", "G": "(g)", "Y": "(y)", "B": "(b)"}
    for r, line in enumerate(V.board.layout):
        cells = [lines[1 + r][4 + 3 * c : 7 + 3 * c] for c in range(V.board.columns)]
        for c, key in enumerate(line):
            if (r, c) in ((7, 7), (7, 8)):
                continue
            if key in labels:
                assert cells[c] == labels[key], (r, c, cells[c])
    assert lines[8][4 + 3 * 7 : 4 + 3 * 9] == " K [o]"  # the old tile plain, the new blank marked
    assert "(r) red" in text and "(b) blue" in text and "\x1b[" not in text


def test_colour_console_shows_colours_not_labels():
    board = Board.for_variant(V)
    text = rendered(board_to_rich(board, V), color_system="truecolor", force_terminal=True)
    assert "\x1b[" in text and "(r)" not in text and "red squares" not in text


def test_piped_score_lines_are_whole_at_any_terminal_width(small_lexicon, capsys, monkeypatch):
    from literaki_cli.cli import main

    monkeypatch.setenv("COLUMNS", "40")
    empty = "/".join(["15"] * 15) + " / 0/0 0"
    code = main(["score", empty, "8E", "ZAŻÓŁCIĆ", "--lexicon", str(small_lexicon)])
    out = capsys.readouterr().out
    assert code == 0, out
    line = next(line for line in out.splitlines() if line.startswith("ZAŻÓŁCIĆ 8E:"))
    assert line.rstrip().endswith("✓") and "(blank)" not in line and len(line) > 40
    assert max(len(line) for line in out.splitlines()) > 40  # nothing folded at the terminal's width
