"""What a newcomer types first, and what used to puzzle them (issues 10, 11, 12 and 14):

* 10: ``score examples/board.txt H7 zolw``: the O over the board's Ó is refused, and the one
  error line says why (O and Ó are different letters, lower case is a blank in ``score``);
  a lower-case move that fits the board is scored as blanks (exit 1 when the set lacks them);
* 11: ``solve -`` (``show -``, ``score -``) with an empty standard input: "no position on
  standard input", exit 2; ``solve --batch`` with no input answers nothing, exit 0;
* 12: ``check-word -`` with an empty standard input (and no other word): "no word given",
  exit 2; with other words, those are checked;
* 14: a game record from a pipe (``analyze <(cat game.gcg)``, a FIFO, ``-``) is read as a
  position from a pipe is, bounded in size and time: a FIFO nobody writes to, or one never
  closed, is one error line within the deadline, never a hang.

Every test is in-process (``tests.conftest.run_cli``) except the one through bash's ``<( )``.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from literaki_cli import inputs
from literaki_cli.io import gcg
from tests.conftest import run_cli, time_limit

ROOT = Path(__file__).resolve().parent.parent
BOARD = str(ROOT / "examples" / "board.txt")  # ÓSMY across from h8
PLAYERS = "#player1 a Ala\n#player2 b Ola\n"
GAME = PLAYERS + ">a: KOTAEIS 8H KOT +6 6\n>b: AEIOUYZ - +0 0\n"  # KOT: a word of the flowing lexicon
#: The deadline of a pipe in these tests (the real one, inputs.PIPE_SECONDS, is a few seconds).
SHORT = 0.5


def one_error_line(err: str) -> str:
    """The single stderr line (asserting there is one, and no traceback)."""
    assert err.count("\n") == 1 and err.startswith("literaki: error: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    return err


def with_stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# --------------------------------------------------------------------------- 10: lower case in score


def test_score_lower_case_over_a_board_tile_of_another_letter_says_why(capsys, small_lexicon):
    code, out, err = run_cli(capsys, "score", BOARD, "H7", "zolw", "--lexicon", str(small_lexicon))
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "move 'H7 zolw': h8 holds Ó, the move writes O" in line
    assert "O and Ó are different letters" in line
    assert "lower-case letters are blanks: write H7 Z.LW for tiles" in line


def test_score_upper_case_conflict_names_the_accent_but_no_blanks(capsys, small_lexicon):
    code, _, err = run_cli(capsys, "score", BOARD, "H7", "ZOLW", "--lexicon", str(small_lexicon))
    line = one_error_line(err)
    assert code == 2 and "h8 holds Ó, the move writes O (O and Ó are different letters" in line
    assert "blank" not in line


def test_score_lower_case_that_fits_the_board_is_scored_as_blanks(capsys, small_lexicon):
    """żółw through the Ó lays three blanks, one more than the set holds: scored, exit 1."""
    code, out, _ = run_cli(capsys, "score", BOARD, "H7", "żółw", "--json", "--lexicon", str(small_lexicon))
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["total"] == 5  # only the board's Ó counts
    assert [t["blank"] for t in report["placed"]] == [True, True, True]
    assert any("3 blanks" in p and "a lower-case letter is a blank" in p for p in report["problems"])


# --------------------------------------------------------------------------- 11: an empty stdin as the position


@pytest.mark.parametrize(
    "args",
    [["solve", "-", "--rack", "KOT"], ["show", "-"], ["score", "-", "8H", "KOT"], ["solve", "-", "--turn", "1"]],
    ids=["solve", "show", "score", "solve-turn"],
)
@pytest.mark.parametrize("data", [b"", b"\n \n\t\n"], ids=["empty", "blank"])
def test_an_empty_stdin_is_no_position(capsys, monkeypatch, small_lexicon, args, data):
    with_stdin(monkeypatch, data)
    lexicon = [] if args[0] == "show" else ["--lexicon", str(small_lexicon)]
    code, out, err = run_cli(capsys, args[0], *lexicon, *args[1:])
    assert (code, out, err) == (2, "", "literaki: error: no position on standard input\n")


@pytest.mark.parametrize("command", ["solve", "score"])
def test_an_empty_stdin_batch_answers_nothing(capsys, monkeypatch, small_lexicon, command):
    with_stdin(monkeypatch, b"")
    assert run_cli(capsys, command, "--batch", "--lexicon", str(small_lexicon)) == (0, "", "")


# --------------------------------------------------------------------------- 12: check-word with no word


@pytest.mark.parametrize("quiet", [[], ["--quiet"], ["--json"]], ids=["plain", "quiet", "json"])
def test_check_word_with_an_empty_stdin_and_no_other_word_is_an_error(capsys, monkeypatch, env_lexicon, quiet):
    with_stdin(monkeypatch, b"\n  \n")  # blank lines are no words
    code, out, err = run_cli(capsys, "check-word", "-", *quiet)
    assert (code, out, err) == (2, "", "literaki: error: no word given: standard input was empty\n")


def test_check_word_with_an_empty_file_and_stdin(capsys, monkeypatch, env_lexicon, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    code, _, err = run_cli(capsys, "check-word", "--file", str(empty))
    assert (code, err) == (2, f"literaki: error: no word given: {empty} was empty\n")
    with_stdin(monkeypatch, b"")
    code, _, err = run_cli(capsys, "check-word", "-", "--file", str(empty))
    assert (code, err) == (2, f"literaki: error: no word given: standard input and {empty} were empty\n")


def test_check_word_checks_the_other_words_when_stdin_is_empty(capsys, monkeypatch, env_lexicon, tmp_path):
    with_stdin(monkeypatch, b"")
    assert run_cli(capsys, "check-word", "kot", "-") == (0, "kot\tvalid\n", "")
    listed = tmp_path / "words.txt"
    listed.write_text("żółw\n", encoding="utf-8")
    with_stdin(monkeypatch, b"")
    assert run_cli(capsys, "check-word", "-", "--file", str(listed), "--quiet") == (0, "", "")
    with_stdin(monkeypatch, b"")
    assert run_cli(capsys, "check-word", "", "-")[0] == 1  # an empty argument is a word, and an invalid one


def test_check_word_help_says_no_word_is_an_error(capsys):
    code, out, _ = run_cli(capsys, "check-word", "--help")
    assert code == 0 and "no word given" in " ".join(out.split())


# --------------------------------------------------------------------------- 14: game records from a pipe


def feed(path: Path, data: bytes) -> threading.Thread:
    """A writer of ``data`` into the FIFO ``path``: it opens the FIFO once a reader has (a
    non-blocking open, retried: never blocked for ever), writes, closes."""

    def write() -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                    return
                time.sleep(0.01)
        try:
            os.set_blocking(fd, True)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        except BrokenPipeError:  # the reader stopped (a cap)
            pass
        finally:
            os.close(fd)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def fifo(tmp_path) -> Path:
    path = tmp_path / "game.fifo"
    os.mkfifo(path)
    return path


@pytest.fixture(scope="module")
def lex(flowing_lexicon) -> str:
    return str(flowing_lexicon.path)


def analyze(capsys, lex: str, game: str) -> tuple[int, str, str]:
    return run_cli(capsys, "analyze", game, "--json", "--endgame-time", "0", "--lexicon", lex)


def test_analyze_reads_a_game_from_a_fifo_with_a_writer(capsys, lex, fifo, tmp_path):
    regular = tmp_path / "game.gcg"
    regular.write_text(GAME, encoding="utf-8")
    expected = analyze(capsys, lex, str(regular))
    assert expected[0] == 0
    writer = feed(fifo, GAME.encode())
    with time_limit(30):
        code, out, err = analyze(capsys, lex, str(fifo))
    writer.join(10)
    assert (code, err) == (0, "")
    assert json.loads(out) == json.loads(expected[1])


def test_analyze_reads_a_game_from_stdin(capsys, monkeypatch, lex):
    with_stdin(monkeypatch, GAME.encode())
    code, out, err = analyze(capsys, lex, "-")
    assert (code, err) == (0, "") and [t["turn"] for t in json.loads(out)["turns"]] == [1, 2]
    with_stdin(monkeypatch, b"")
    code, _, err = analyze(capsys, lex, "-")
    assert (code, err) == (2, "literaki: error: no game record on standard input\n")


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "{}", "--endgame-time", "0", "--lexicon"],
        ["show", "{}"],
        ["solve", "{}", "--turn", "1", "--lexicon"],
    ],
    ids=["analyze", "show", "solve"],
)
def test_a_fifo_nobody_writes_to_fails_within_the_deadline(capsys, monkeypatch, lex, fifo, args):
    """(A position from a FIFO with no writer used to hang in its blocking open.)"""
    monkeypatch.setattr(inputs, "PIPE_SECONDS", SHORT)
    args = [str(fifo) if a == "{}" else a for a in args] + ([lex] if args[-1] == "--lexicon" else [])
    started = time.monotonic()
    with time_limit(10):
        code, out, err = run_cli(capsys, *args)
    assert time.monotonic() - started < 4
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert line.startswith(f"literaki: error: {fifo}: cannot read: nothing came through the pipe"), line


def test_a_fifo_never_closed_fails_within_the_deadline(capsys, monkeypatch, lex, fifo):
    monkeypatch.setattr(inputs, "PIPE_SECONDS", SHORT)
    end = os.open(fifo, os.O_RDWR)  # a writer that writes the game and never closes the pipe
    try:
        os.write(end, GAME.encode())
        with time_limit(10):
            code, _, err = analyze(capsys, lex, str(fifo))
    finally:
        os.close(end)
    line = one_error_line(err)
    assert code == 2 and f"{fifo}: cannot read: the pipe was not closed within {SHORT:g} seconds" in line


def test_a_pipe_is_capped_in_size(capsys, monkeypatch, lex, fifo):
    monkeypatch.setattr(gcg, "MAX_GCG_BYTES", 1000)
    writer = feed(fifo, GAME.encode() + b"#note " + b"x" * 100_000 + b"\n")
    with time_limit(10):
        code, _, err = analyze(capsys, lex, str(fifo))
    writer.join(10)
    assert code == 2 and "more than 1,000 bytes: too large for a game record" in one_error_line(err)


@pytest.mark.parametrize(
    ("args", "check"),
    [
        (["show", "{}", "--turn", "2", "--json"], lambda r: r["game"]["turn"] == 2),
        (["solve", "{}", "--turn", "2", "--json", "-n", "1"], lambda r: r["rack"] == "AEIOUYZ"),
        (["score", "{}", "--turn", "2", "--json", "--", "-"], lambda r: r["kind"] == "pass"),
    ],
    ids=["show", "solve", "score"],
)
def test_positions_of_a_game_record_from_a_fifo(capsys, lex, fifo, args, check):
    writer = feed(fifo, GAME.encode())
    lexicon = [] if args[0] == "show" else ["--lexicon", lex]
    with time_limit(30):
        code, out, err = run_cli(capsys, args[0], *lexicon, *[str(fifo) if a == "{}" else a for a in args[1:]])
    writer.join(10)
    assert code == 0, err
    assert check(json.loads(out))


def test_process_substitution_through_bash(lex, tmp_path):
    game = tmp_path / "game.gcg"
    game.write_text(GAME, encoding="utf-8")
    env = {**os.environ, "LITERAKI_LEXICON": lex, "XDG_DATA_HOME": str(tmp_path / "data"), "GAME": str(game),
           "PY": sys.executable}  # fmt: skip
    script = ('"$PY" -m literaki_cli analyze <(cat "$GAME") --json --endgame-time 0 && '
              '"$PY" -m literaki_cli show <(cat "$GAME") --turn 2 --to cgp')  # fmt: skip
    done = subprocess.run(["bash", "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    review, cgp = done.stdout.split("\n", 1)
    assert [t["turn"] for t in json.loads(review)["turns"]] == [1, 2]
    assert cgp.startswith("15/15/15/15/15/15/15/7KOT5/") and done.stderr == ""
