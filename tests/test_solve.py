"""`literaki solve`: output, filters, and checks on the real lexicon."""

import json
import random
from pathlib import Path

import pytest

from lexicon_build.build import build_lexicon
from literaki_cli.analysis.solve import found_move
from literaki_cli.cli import main
from literaki_cli.engine.movegen import MoveGenerator
from literaki_cli.io.positionio import load_position

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "positions"
WORDS = ["kot", "koty", "kota", "tok", "ok", "ko", "to", "ty", "yo", "akt", "kat", "tak", "taktyka"]


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory, variant):
    folder = tmp_path_factory.mktemp("solve")
    (folder / "w.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    return build_lexicon(folder / "w.txt", folder / "w.lexicon", variant).output


EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


def solve(capsys, lexicon, *args):
    code = main(["solve", "--lexicon", str(lexicon), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_schema_and_order(capsys, lexicon):
    code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "KOTY", "--json", "--all")
    data = json.loads(out)
    assert code == 0 and data["rack"] == "KOTY" and data["count"] == len(data["moves"]) > 0
    equities = [m["equity"] for m in data["moves"]]  # ranked by equity = score + leave value
    assert equities == sorted(equities, reverse=True)
    assert all(abs(m["equity"] - m["score"] - m["leave_value"]) < 1e-9 for m in data["moves"])
    code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "KOTY", "--json", "--all", "--by", "score")
    by_score = json.loads(out)
    scores = [m["score"] for m in by_score["moves"]]
    assert scores == sorted(scores, reverse=True) and by_score["by"] == "score"
    same_moves = sorted(m["coord"] + m["word"] for m in by_score["moves"])
    assert same_moves == sorted(m["coord"] + m["word"] for m in data["moves"])
    best = data["moves"][0]
    assert set(best) >= {"coord", "word", "score", "words", "leave", "placed"}
    assert best["placed"][0].keys() == {"row", "col", "letter", "blank"}
    assert any(p["row"] == 7 and p["col"] == 7 for p in best["placed"])
    assert sum(w["score"] for w in best["words"]) == best["score"]


def test_filters(capsys, lexicon):
    def moves(*extra):
        code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "KOTY?", "--json", "--all", *extra)
        assert code == 0
        return json.loads(out)["moves"]

    everything = moves()
    assert all(m["tiles"] >= 3 for m in moves("--min-tiles", "3"))
    assert {m["word"].lower() for m in moves("--word-contains", "OT")} == {"kot", "koty", "kota"}
    at_g8 = moves("--at", "g8")
    assert at_g8 and all(any((p["row"], p["col"]) == (7, 6) for p in m["placed"]) for m in at_g8)
    assert moves("--only-bingos") == []  # five tiles can never make seven
    assert len(moves("--min-tiles", "0")) == len(everything)


def test_only_bingos_lists_every_seven_tile_move_and_nothing_else(capsys, lexicon):
    def moves(*extra):
        code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "TAKTYKA", "--json", "--all", *extra)
        assert code == 0
        return json.loads(out)["moves"]

    everything, bingos = moves(), moves("--only-bingos")
    # TAKTYKA, the only 7-letter word, covers h8 from b8..h8 across or h2..h8 down: 14 moves.
    assert len(bingos) == 14 and all(m["tiles"] == 7 and m["word"] == "TAKTYKA" for m in bingos)
    assert len(everything) > len(bingos) and any(m["tiles"] < 7 for m in everything)
    assert sorted(m["score"] for m in bingos) == sorted(m["score"] for m in everything if m["tiles"] == 7)


def test_top_and_human_output(capsys, lexicon):
    code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "KOTY", "--top", "3")
    assert code == 0 and "rack KOTY" in out and "coord" in out
    code, out, _ = solve(capsys, lexicon, EMPTY, "--rack", "ŹŻ")  # one of each: the set has one Ż
    assert code == 0 and "no legal move for the rack ŹŻ: exchange or pass remain" in out


def test_rack_from_cgp_and_errors(capsys, lexicon, tmp_path):
    code, out, _ = solve(capsys, lexicon, EMPTY + " KOT/ 0/0 0", "--json")
    assert code == 0 and json.loads(out)["rack"] == "KOT"
    code, _, err = solve(capsys, lexicon, EMPTY)
    assert code == 2 and "no rack" in err
    code, _, err = solve(capsys, lexicon, EMPTY, "--rack", "ABCDEFGH")
    assert code == 2 and "at most 7" in err
    code, _, err = solve(capsys, lexicon, EMPTY, "--rack", "KOT", "--at", "z9")
    assert code == 2 and "off the board" in err
    image = tmp_path / "best.svg"
    assert solve(capsys, lexicon, EMPTY, "--rack", "KOT", "--image", str(image))[0] == 0
    assert image.stat().st_size > 1000


def test_example_positions_are_valid():
    files = sorted(EXAMPLES.glob("*.cgp"))
    assert len(files) >= 30
    blanks = [load_position(str(f)).rack.count("?") for f in files]
    assert set(blanks) == {0, 1, 2}


@pytest.mark.sjp
def test_every_word_of_every_generated_move_is_in_the_lexicon(sjp_lexicon):
    rng = random.Random(1)
    generator = None
    for f in sorted(EXAMPLES.glob("*.cgp")):
        pos = load_position(str(f))
        generator = generator or MoveGenerator(sjp_lexicon, pos.variant)
        arrays = generator.generate(pos.board, pos.rack)
        rows = range(len(arrays)) if len(arrays) <= 400 else rng.sample(range(len(arrays)), 400)
        words = []
        for i in rows:
            move = found_move(arrays.records[i], 1, pos.board, pos.variant, pos.rack)  # re-scores; raises on mismatch
            words.extend(w.plain_word for w in move.words)
        assert sjp_lexicon.words.lookup(words).all(), f.name


@pytest.mark.sjp
def test_known_best_moves(sjp_lexicon, capsys, sjp_build):
    # Empty board, ŻÓŁWIA + blank: ŻÓŁWIAk at 8H = Ż 15 (h8 red) + Ó 5 + Ł 9 (j8 blue) + W 1 + I 1
    # + A 3 (m8 yellow) + k 0 = 34, + 50 for seven tiles = 84.
    code = main(["solve", "--lexicon", str(sjp_build.output), EMPTY, "--rack", "ŻÓŁWIA?", "--json", "--top", "1"])
    best = json.loads(capsys.readouterr().out)["moves"][0]
    assert code == 0 and best["score"] == 84 and best["word"].upper() == "ŻÓŁWIAK"
    # K, O, T on an empty board: a three-letter word through h8 lies within f8..j8 (or f8..j8 down);
    # those squares are blue, plain, red, plain, blue, and no letter meets its own colour there
    # (K and T are green, O yellow), so every move scores 2 + 1 + 2 = 5.
    code = main(["solve", "--lexicon", str(sjp_build.output), EMPTY, "--rack", "KOT", "--json", "--top", "1"])
    assert json.loads(capsys.readouterr().out)["moves"][0]["score"] == 5
