"""`solve --batch` and `score --batch` (issue 17): the same records as the single-shot `--json`
commands, the order kept with workers, a bad line answered by its error object, streaming,
empty input, input that ends early, a reader that goes away, Ctrl-C, the exit codes."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions"
GAME = (ROOT / "examples" / "game.cgp").read_text(encoding="utf-8").strip()
BOARD_TEXT = (ROOT / "examples" / "board.txt").read_text(encoding="utf-8")
EMPTY = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"


@pytest.fixture(scope="module")
def lexicon(flowing_lexicon) -> str:
    return str(flowing_lexicon.path)


def cgp_lines() -> list[str]:
    return [f.read_text(encoding="utf-8").strip() for f in sorted(EXAMPLES.glob("*.cgp"))]


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def timeless(record: dict) -> dict:
    """A record without what differs from run to run (the generation time) and the batch keys."""
    return {k: v for k, v in record.items() if k not in ("generation_ms", "line", "id")}


def literaki(*args, stdin=None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "literaki_cli", *args], input=stdin, capture_output=True,
                          timeout=600, **kwargs)  # fmt: skip


# --------------------------------------------------------------------------- solve --batch


def test_batch_equals_single_solve_position_by_position(tmp_path, capsys, lexicon):
    lines = cgp_lines()
    batch = tmp_path / "positions.cgp"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "solve", "--batch", str(batch), "--lexicon", lexicon)
    assert code == 0 and err == ""
    answers = records(out)
    assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))
    assert all(a["id"] is None for a in answers)
    for path, answer in zip(sorted(EXAMPLES.glob("*.cgp")), answers, strict=True):
        code, out, _ = run_cli(capsys, "solve", str(path), "--json", "--lexicon", lexicon)
        assert code == 0
        assert timeless(answer) == timeless(json.loads(out)), path.name


def test_json_lines_carry_id_rack_top_all_by(tmp_path, capsys, lexicon):
    requests = [
        {"id": "a", "position": GAME, "top": 3, "by": "score"},
        {"id": 2, "position": BOARD_TEXT, "rack": "KOTAŁW?", "all": True},
        {"id": {"game": 7}, "position": {"variant": "literaki", "board": ["." * 15] * 15}, "rack": "KOT"},
    ]
    batch = tmp_path / "requests.jsonl"
    batch.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests), encoding="utf-8")
    code, out, _ = run_cli(capsys, "solve", "--batch", str(batch), "--lexicon", lexicon)
    assert code == 0
    answers = records(out)
    assert [a["id"] for a in answers] == ["a", 2, {"game": 7}]
    singles = [
        ("solve", "examples/game.cgp", "--top", "3", "--by", "score"),
        ("solve", "examples/board.txt", "--rack", "KOTAŁW?", "--all"),
        ("solve", EMPTY, "--rack", "KOT"),
    ]
    for answer, single in zip(answers, singles, strict=True):
        code, out, _ = run_cli(capsys, *[str(ROOT / a) if a.startswith("examples") else a for a in single],
                               "--json", "--lexicon", lexicon)  # fmt: skip
        assert code == 0 and timeless(answer) == timeless(json.loads(out))
    assert len(answers[0]["moves"]) == 3 and answers[0]["by"] == "score"


def test_command_line_options_are_the_defaults_of_every_line(tmp_path, capsys, lexicon):
    batch = tmp_path / "b.jsonl"
    batch.write_text(GAME + "\n" + json.dumps({"position": GAME, "top": 4}) + "\n", encoding="utf-8")
    code, out, _ = run_cli(capsys, "solve", "--batch", str(batch), "-n", "2", "--by", "score", "--lexicon", lexicon)
    first, second = records(out)
    assert code == 0 and len(first["moves"]) == 2 and len(second["moves"]) == 4
    assert first["by"] == second["by"] == "score"


def test_a_malformed_line_in_the_middle_is_answered_by_its_error_and_the_rest_are_solved(tmp_path, capsys, lexicon):
    lines = cgp_lines()[:4]
    bad = [
        "this is not a position",
        '{"id": "j", "position": "15/15", "rack": "KOT"',  # cut short
        '{"id": "k", "positon": "' + GAME + '"}',  # a typo in a key
        json.dumps({"id": "t", "position": GAME, "top": 0}),
        json.dumps({"id": "r", "position": EMPTY}),  # no rack anywhere
        json.dumps({"id": "q", "position": GAME, "rack": "???"}),  # more blanks than the set has
    ]
    batch = tmp_path / "mixed.txt"
    batch.write_text("\n".join(lines[:2] + bad + [""] + lines[2:]) + "\n", encoding="utf-8")
    code, out, err = run_cli(capsys, "solve", "--batch", str(batch), "--lexicon", lexicon)
    answers = records(out)
    assert code == 4
    assert [a["line"] for a in answers] == [1, 2, 3, 4, 5, 6, 7, 8, 10, 11]  # the blank line 9 is skipped
    errors = answers[2:8]
    assert all(set(a) == {"line", "id", "error"} for a in errors)
    assert [a["id"] for a in errors] == [None, None, "k", "t", "r", "q"]
    assert "CGP" in errors[0]["error"] and "JSON" in errors[1]["error"] and "positon" in errors[2]["error"]
    assert "'top'" in errors[3]["error"] and "no rack" in errors[4]["error"] and "blank" in errors[5]["error"]
    assert all("moves" in a for a in answers[:2] + answers[8:])
    assert "6 of 10 lines failed" in err and "line 3" in err


def test_order_kept_with_two_workers(tmp_path, lexicon):
    lines = cgp_lines()
    lines.insert(5, "bad line")
    batch = tmp_path / "positions.cgp"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = literaki("solve", "--batch", str(batch), "--lexicon", lexicon, "-n", "5")
    two = literaki("solve", "--batch", str(batch), "--lexicon", lexicon, "-n", "5", "--workers", "2")
    assert one.returncode == two.returncode == 4
    first, second = records(one.stdout.decode()), records(two.stdout.decode())
    assert [a["line"] for a in second] == list(range(1, len(lines) + 1))
    assert [timeless(a) for a in first] == [timeless(a) for a in second]


def test_empty_input(capsys, lexicon, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("", encoding="utf-8")
    assert run_cli(capsys, "solve", "--batch", str(empty), "--lexicon", lexicon) == (0, "", "")
    blank = tmp_path / "blank.txt"
    blank.write_text("\n  \n\n", encoding="utf-8")
    assert run_cli(capsys, "solve", "--batch", str(blank), "--lexicon", lexicon) == (0, "", "")
    result = literaki("solve", "--batch", "--lexicon", lexicon, stdin=b"")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")


def test_stdin_closed_early_answers_what_came(lexicon):
    # The writer stops in the middle of a line: each whole line and the last part are answered.
    lines = cgp_lines()[:4]
    text = ("\n".join(lines[:3]) + "\n" + lines[3][:20]).encode()
    result = literaki("solve", "--batch", "-", "--lexicon", lexicon, "-n", "1", stdin=text)
    answers = records(result.stdout.decode())
    assert [a["line"] for a in answers] == [1, 2, 3, 4]
    assert all("moves" in a for a in answers[:3]) and "error" in answers[3]
    assert result.returncode == 4


@pytest.mark.parametrize("workers", ["1", "2"])
def test_reader_gone_stops_quietly_with_141(tmp_path, lexicon, workers):
    batch = tmp_path / "many.cgp"
    batch.write_text((GAME + "\n") * 2000, encoding="utf-8")
    command = [sys.executable, "-m", "literaki_cli", "solve", "--batch", str(batch), "--lexicon", lexicon, "--workers",
               workers]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)
    assert json.loads(first)["line"] == 1
    assert proc.returncode == 141 and err == b""


@pytest.mark.parametrize("workers", ["1", "2"])
def test_each_answer_is_written_as_its_line_arrives(lexicon, workers):
    """A coprocess writes a line and waits for its answer before writing the next."""
    proc = subprocess.Popen([sys.executable, "-m", "literaki_cli", "solve", "--batch", "--lexicon", lexicon, "-n",
                             "1", "--workers", workers], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    try:
        for number, line in enumerate(cgp_lines()[:3], 1):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, f"no answer to line {number} while the input stays open"
            assert json.loads(proc.stdout.readline())["line"] == number
    finally:
        proc.stdin.close()
        proc.wait(timeout=120)
    assert proc.returncode == 0


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_the_answers_so_far_and_exits_130(lexicon, workers):
    proc = subprocess.Popen([sys.executable, "-m", "literaki_cli", "solve", "--batch", "--lexicon", lexicon,
                             "--workers", workers], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    proc.stdin.write(GAME.encode() + b"\n")
    proc.stdin.flush()
    first = proc.stdout.readline()
    time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole process group
    out, err = proc.communicate(timeout=120)
    assert json.loads(first)["line"] == 1 and out == b""
    assert proc.returncode == 130 and b"interrupted" in err and b"Traceback" not in err


def test_long_and_undecodable_lines_are_errors_of_their_own(tmp_path, capsys, lexicon):
    from literaki_cli.analysis.batch import MAX_LINE_BYTES

    batch = tmp_path / "odd.txt"
    batch.write_bytes(b"x" * (MAX_LINE_BYTES + 10) + b"\n" + "ż".encode("cp1250") + b"\n" + GAME.encode() + b"\n")
    code, out, _ = run_cli(capsys, "solve", "--batch", str(batch), "--lexicon", lexicon)
    long, undecodable, solved = records(out)
    assert code == 4 and "longer than" in long["error"] and "UTF-8" in undecodable["error"]
    assert solved["line"] == 3 and "moves" in solved


def test_batch_refusals(capsys, lexicon, tmp_path):
    code, _, err = run_cli(capsys, "solve", "--batch", "--rack", "KOT", "--lexicon", lexicon)
    assert code == 2 and "--batch does not take --rack" in err
    code, _, err = run_cli(capsys, "solve", "--batch", "--sim", "--lexicon", lexicon)
    assert code == 2 and "--sim" in err
    code, _, err = run_cli(capsys, "solve", "examples/game.cgp", "--workers", "2", "--lexicon", lexicon)
    assert code == 2 and "--workers: only with --sim or --batch" in err
    code, _, err = run_cli(capsys, "solve", "--batch", str(tmp_path / "missing.txt"), "--lexicon", lexicon)
    assert code == 2 and "missing.txt" in err
    code, _, err = run_cli(capsys, "solve", "--lexicon", lexicon)
    assert code == 2 and "POSITION" in err


# --------------------------------------------------------------------------- score --batch

MOVES = [
    ("K5 KOTY", None),  # legal
    ("8H ÓSMYK", None),  # not a word here: scored, not legal
    ("-KA?", None),  # an exchange
    ("-", None),  # a pass
    ("K5 KOTY", "ABCDEFG"),  # the rack lacks the tiles
]


def test_score_batch_agrees_with_single_score(tmp_path, capsys, lexicon):
    batch = tmp_path / "moves.jsonl"
    batch.write_text("".join(json.dumps({"id": n, "position": GAME, "move": move, "rack": rack}, ensure_ascii=False)
                             + "\n" for n, (move, rack) in enumerate(MOVES)), encoding="utf-8")  # fmt: skip
    code, out, err = run_cli(capsys, "score", "--batch", str(batch), "--lexicon", lexicon)
    answers = records(out)
    assert code == 1 and err == ""  # every line answered, some moves not legal
    assert [a["id"] for a in answers] == list(range(len(MOVES)))
    for answer, (move, rack) in zip(answers, MOVES, strict=True):
        args = ["score", str(ROOT / "examples" / "game.cgp"), "--json", "--lexicon", lexicon]
        args += ["--rack", rack] if rack else []
        single_code, out, _ = run_cli(capsys, *args, "--", *move.split())
        assert timeless(answer) == json.loads(out)
        assert (single_code == 0) == answer["valid"]


def test_score_batch_bad_lines_and_workers(tmp_path, lexicon):
    lines = [json.dumps({"id": "ok", "position": GAME, "move": "K5 KOTY"}), "K5 KOTY",
             json.dumps({"id": "nomove", "position": GAME}),
             json.dumps({"id": "off", "position": GAME, "move": "Z99 A"}),
             json.dumps({"id": "again", "position": GAME, "move": "K5 KOTY"})]  # fmt: skip
    batch = tmp_path / "moves.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one = literaki("score", "--batch", str(batch), "--lexicon", lexicon)
    two = literaki("score", "--batch", str(batch), "--lexicon", lexicon, "--workers", "2")
    assert one.returncode == two.returncode == 4 and one.stdout == two.stdout
    answers = records(one.stdout.decode())
    assert [a.get("error") is None for a in answers] == [True, False, False, False, True]
    assert [a["id"] for a in answers] == ["ok", None, "nomove", "off", "again"]
