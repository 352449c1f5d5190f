"""`literaki score` and `literaki show` end to end."""

import json

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.cli import main

WORDS = ["żółw", "żółwie", "kot", "koty", "ok", "za", "aż", "ta"]
EMPTY = "\n".join(["." * 15] * 15) + "\n"


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory, variant):
    folder = tmp_path_factory.mktemp("score")
    source = folder / "words.txt"
    source.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return build_lexicon(source, folder / "w.lexicon", variant).output


@pytest.fixture
def boards(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text(EMPTY, encoding="utf-8")
    rows = ["." * 15] * 15
    rows[7] = ".......ŻÓŁW...."
    played = tmp_path / "played.txt"
    played.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return empty, played


def score(capsys, lexicon, *args):
    code = main(["score", "--lexicon", str(lexicon), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_first_move_json(capsys, lexicon, boards):
    code, out, _ = score(capsys, lexicon, str(boards[0]), "8H", "ŻÓŁW", "--json")
    report = json.loads(out)
    assert code == 0
    assert report["total"] == 30 and report["valid"] is True and report["bingo"] == 0
    assert [(w["word"], w["score"]) for w in report["words"]] == [("ŻÓŁW", 30)]
    assert report["placed"][0] == {"row": 7, "col": 7, "letter": "Ż", "blank": False}  # upper case = a tile
    assert report["words"][0]["letters"][0] == {
        "square": "h8",
        "letter": "Ż",
        "blank": False,
        "new": True,
        "base": 5,
        "value": 15,
        "premium": "red",
    }


def test_through_tiles_and_rack(capsys, lexicon, boards):
    code, out, _ = score(capsys, lexicon, str(boards[1]), "8H ....IE", "--json", "--rack", "EIKOTAZ")
    report = json.loads(out)
    assert code == 0 and report["total"] == 5 + 5 + 3 + 1 + 1 + 3 and report["leave"] == "KOTAZ"
    code, out, _ = score(capsys, lexicon, str(boards[1]), "8H ŻÓŁWIE", "--json", "--rack", "ABC")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and "lacks IE" in report["problems"][0]


def test_invalid_word_is_scored_and_exits_1(capsys, lexicon, boards):
    code, out, _ = score(capsys, lexicon, str(boards[0]), "8H ŻÓWŁ", "--json")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["total"] == 15 + 5 + 1 + 3
    assert report["words"][0]["valid"] is False and "not in the word list" in report["problems"][0]


def test_human_output(capsys, lexicon, boards):
    code, out, _ = score(capsys, lexicon, str(boards[0]), "8H ŻÓŁW")
    assert code == 0
    assert "ŻÓŁW 8H: Ż 5→15 (red) + Ó 5 + Ł 3→9 (blue) + W 1 = 30 = 30" in out
    assert "total 30" in out


def test_cgp_argument_and_rack_from_position(capsys, lexicon):
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 ŻÓŁWABC/ 0/0 0"
    code, out, _ = score(capsys, lexicon, cgp, "8G ŻÓŁW", "--json")
    assert code == 0  # g8..j8 covers h8
    report = json.loads(out)
    assert report["leave"] == "ABC"


def test_images(capsys, lexicon, boards, tmp_path):
    for name in ("move.svg", "move.png"):
        code, _, _ = score(capsys, lexicon, str(boards[0]), "8H ŻÓŁW", "--json", "--image", str(tmp_path / name))
        assert code == 0 and (tmp_path / name).stat().st_size > 1000
    assert (tmp_path / "move.svg").read_text().lstrip().startswith("<?xml")
    assert (tmp_path / "move.png").read_bytes()[:4] == b"\x89PNG"
    code, _, err = score(capsys, lexicon, str(boards[0]), "8H ŻÓŁW", "--image", str(tmp_path / "x.gif"))
    assert code == 2 and "not supported" in err


def test_errors(capsys, lexicon, tmp_path, boards):
    bad = tmp_path / "bad.txt"
    rows = ["." * 15] * 15
    rows[3] = "...Q..........."
    bad.write_text("\n".join(rows), encoding="utf-8")
    code, _, err = score(capsys, lexicon, str(bad), "8H KOT")
    assert code == 2 and f"{bad}:4:4: 'Q' is not a letter" in err and err.count("\n") == 1
    code, _, err = score(capsys, lexicon, str(boards[1]), "8H KOT")
    assert code == 2 and "h8 holds Ż, the move writes K" in err
    code, _, err = score(capsys, lexicon, str(tmp_path / "none.txt"), "8H KOT")
    assert code == 2 and "no such position file" in err


def test_lenient_turns_counts_into_warnings(capsys, lexicon, tmp_path):
    rows = ["." * 15] * 15
    rows[7] = ".......ŻŻ....."[:15].ljust(15, ".")
    pos = tmp_path / "p.txt"
    pos.write_text("\n".join(rows), encoding="utf-8")
    code, _, err = score(capsys, lexicon, str(pos), "9H A", "--json")
    assert code == 2 and "2 x Ż" in err
    code, _, err = score(capsys, lexicon, str(pos), "9H A", "--json", "--lenient")
    assert code == 1 and "warning: 2 x Ż" in err


def test_pass_and_exchange(capsys, lexicon, boards):
    code, out, _ = score(capsys, lexicon, str(boards[0]), "-", "--json")
    assert code == 0 and json.loads(out)["total"] == 0
    code, _, err = score(capsys, lexicon, str(boards[0]), "--rack", "ABC", "--", "-ABX")
    assert code == 2 and "'x' is not a Polish letter" in err
    code, out, _ = score(capsys, lexicon, str(boards[0]), "--rack", "ABC", "--", "-ABD")
    assert code == 1 and "lacks D" in out
    code, out, _ = score(capsys, lexicon, str(boards[0]), "exchange", "AB", "--rack", "ABC")
    assert code == 0 and "exchange: 0 points" in out


def test_show_converts(capsys, boards):
    assert main(["show", str(boards[1]), "--to", "cgp"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("15/15/15/15/15/15/15/7ŻÓŁW4/")
    assert main(["show", out.strip(), "--to", "text"]) == 0
    assert capsys.readouterr().out == boards[1].read_text(encoding="utf-8")


def test_bingo_bonus_comes_from_the_rules(capsys, tmp_path, variant):
    """`solve` and `score` show the bonus the variant sets, not a fixed +50."""
    import re
    from importlib import resources

    source = tmp_path / "w.txt"
    source.write_text("kotkami\n", encoding="utf-8")
    lex = str(build_lexicon(source, tmp_path / "w.lexicon", variant).output)
    standard = (resources.files("literaki_cli") / "variants" / "literaki.toml").read_text(encoding="utf-8")
    assert re.search(r"(?m)^bingo_bonus = 50\b", standard)
    rules = tmp_path / "bonus35.toml"
    rules.write_text(re.sub(r"(?m)^bingo_bonus = 50\b", "bingo_bonus = 35", standard), encoding="utf-8")
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KOTKAMI/ 0/0 0"

    def solved(*extra):
        code = main(["solve", "--lexicon", lex, cgp, "--all", *extra])
        out, _ = capsys.readouterr()
        assert code == 0
        return out

    table = solved("--rules", str(rules))
    assert "+35" in table and "+50" not in table
    assert "+50" in solved()
    moves = {(m["coord"], m["word"]): m["score"] for m in json.loads(solved("--json"))["moves"]}
    custom = {(m["coord"], m["word"]): m["score"] for m in json.loads(solved("--json", "--rules", str(rules)))["moves"]}
    assert moves and custom.keys() == moves.keys()
    assert all(custom[key] == moves[key] - 15 for key in moves)  # every move lays all 7 tiles

    coord, word = next(iter(custom))
    code = main(["score", "--lexicon", lex, "--rules", str(rules), "--json", cgp, coord, word])
    data = json.loads(capsys.readouterr()[0])
    assert code == 0 and data["bingo"] == 35 and data["total"] == sum(w["score"] for w in data["words"]) + 35
    assert main(["score", "--lexicon", lex, "--rules", str(rules), cgp, coord, word]) == 0
    assert "all 7 tiles: +35" in capsys.readouterr()[0]
