"""Hostile GCG game records (``literaki analyze GAME.gcg``, the issue tracker's reports): an
unknown character encoding, scores of thousands of digits, a note of a million lines, a pipe,
a device or a directory as the game, lines of a megabyte, NUL bytes, invalid UTF-8, negative
scores, odd pragmas, players left out, squares off the board.  Each is one error line naming
the file and the line, exit 2, never a traceback, an internal error (exit 3) or a hang; a file
that is merely unusual is read.  No SJP dump needed: the flowing lexicon of conftest."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.errors import InputError
from literaki_cli.io import gcg
from literaki_cli.io.gcg import (
    MAX_EVENTS,
    MAX_FIELD,
    MAX_GCG_BYTES,
    MAX_POINTS,
    MAX_PRAGMAS,
    WITHDRAWN,
    parse_gcg,
    read_gcg,
)
from tests.conftest import run_cli

PLAYERS = "#player1 a Ala\n#player2 b Ola\n"
FIRST = ">a: KOTAEIS 8H KOT +6 6\n"  # line 3 after PLAYERS; KOT is a word of the flowing lexicon
GAME = PLAYERS + FIRST + ">b: AEIOUYZ - +0 0\n"
HUGE = "9" * 5000  # past Python's int() limit of 4,300 digits
MEGA = 1_000_000


@pytest.fixture(scope="module")
def lex(flowing_lexicon) -> str:
    return str(flowing_lexicon.path)


def analyze(capsys, lex: str, path, *options: str) -> tuple[int, str, str]:
    return run_cli(capsys, "analyze", str(path), "--lexicon", lex, "--json", "--endgame-time", "0", *options)


def assert_refused(result: tuple[int, str, str], path, line: int | None, *words: str) -> str:
    """Exit 2, nothing on stdout, one short stderr line naming ``path:line`` (``path`` alone
    for None) and holding every one of ``words``."""
    code, out, err = result
    assert code == 2 and out == "", err[:2000]
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err, err[:2000]
    prefix = f"literaki: error: {path}:{line}: " if line is not None else f"literaki: error: {path}: "
    assert err.startswith(prefix), err[:2000]
    assert len(err) < 1000, err[:2000]  # a huge value is shortened, never echoed whole
    for word in words:
        assert word in err, err
    return err


def refused(text: str, line: int, *words: str, variant: str | None = None) -> str:
    """parse_gcg's one-line InputError for ``text``, naming ``g.gcg:line``."""
    with pytest.raises(InputError) as caught:
        parse_gcg(text, "g.gcg", variant)
    error = str(caught.value)
    assert error.startswith(f"g.gcg:{line}: ") and "\n" not in error and len(error) < 1000, error[:2000]
    for word in words:
        assert word in error, error
    return error


# --------------------------------------------------------------------------- encodings


@pytest.mark.parametrize(
    "name",
    ["undefined", "KLINGON", "idna", "punycode", "unicode_escape", "raw_unicode_escape", "base64", "rot13", "zlib",
     "hex", "utf\0-8", "żółw", "x" * 5000],
    ids=lambda name: name[:12].replace("\0", "NUL"),
)  # fmt: skip
def test_an_unknown_encoding_is_one_line_naming_line_1(tmp_path, capsys, lex, name):
    path = tmp_path / "enc.gcg"
    path.write_bytes(b"#character-encoding " + name.encode() + b"\n" + GAME.encode())
    assert_refused(analyze(capsys, lex, path), path, 1, "unknown character encoding")


def test_a_named_encoding_is_read_and_a_wrong_one_refused(tmp_path, capsys, lex):
    path = tmp_path / "cp1250.gcg"
    text = "#character-encoding windows-1250\n" + PLAYERS + ">a: ŻÓŁWIKA 8H ŻÓŁW +20 20\n"
    path.write_bytes(text.encode("cp1250"))
    code, out, err = analyze(capsys, lex, path)
    assert code == 0, err
    assert json.loads(out)["turns"][0]["rack"] == "ŻÓŁWIKA"
    data = b"#character-encoding utf-16\n" + GAME.encode()
    path.write_bytes(data + b" " * (1 - len(data) % 2))  # an odd number of bytes: no UTF-16
    code, out, err = analyze(capsys, lex, path)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"literaki: error: {path}:") and "not utf-16 text" in err, err
    path.write_bytes(PLAYERS.encode() + b">a: \xff\xfe 8H KOT +6 6\n")  # no encoding named: read as Windows-1250
    assert_refused(analyze(capsys, lex, path), path, 3, "is not a Polish letter")


# --------------------------------------------------------------------------- numbers


def test_a_score_of_5000_digits_is_one_short_line(tmp_path, capsys, lex):
    path = tmp_path / "huge.gcg"
    path.write_text(f">a: ABC 8H KOT +{HUGE} {HUGE}\n", encoding="utf-8")
    err = assert_refused(analyze(capsys, lex, path), path, 1, "the score", "out of range", "5,001 characters")
    assert f"{MAX_POINTS:,}" in err


def test_a_total_of_400_digits_is_refused_before_out_writes_anything(tmp_path, capsys, lex):
    path, out_dir = tmp_path / "total.gcg", tmp_path / "review"
    path.write_text(PLAYERS + f">a: KOTAEIS 8H KOT +6 {'9' * 400}\n", encoding="utf-8")
    assert_refused(analyze(capsys, lex, path, "--out", str(out_dir)), path, 3, "the total", "400 characters")
    assert not out_dir.exists()


def test_the_largest_total_fits_the_out_tables(tmp_path, capsys, lex):
    path, out_dir = tmp_path / "max.gcg", tmp_path / "review"
    path.write_text(PLAYERS + f">a: KOTAEIS 8H KOT +6 {MAX_POINTS}\n>b: AEIOUYZ - +0 -{MAX_POINTS}\n",
                    encoding="utf-8")  # fmt: skip
    code, out, err = analyze(capsys, lex, path, "--out", str(out_dir))
    assert code == 0, err
    assert json.loads(out)["turns"][1]["scores"] == [MAX_POINTS, -MAX_POINTS]
    assert (out_dir / "turns.parquet").stat().st_size > 0


#: Every number an event line holds, as {n}: (the event, after PLAYERS and FIRST, line 4).
NUMBER_EVENTS = [
    ">a: KOTAEIS 9H KOT +{n} 6",  # a placement's score
    ">a: KOTAEIS 9H KOT +6 {n}",  # the total after it
    ">a: KOTAEIS 9H KOT +6 -{n}",  # a negative total
    ">b: AEIOUYZ - +0 {n}",  # a pass
    ">b: AEIOUYZ -AEI +{n} 0",  # an exchange's score
    ">b: AEIOUYZ -AEI +0 {n}",  # and total
    ">b: -3 +0 {n}",  # an exchange of a number of tiles
    ">a: (challenge) +{n} 11",  # a challenge bonus
    ">b: AEIOUYZ (time) -{n} -10",  # a time penalty
    ">a: KOTAEIS -- -{n} 0",  # a withdrawal
    ">a: (AEIOUYZ) +{n} 20",  # the end: the opponents' tiles gained
    ">b: AEIOUYZ (AEIOUYZ) -{n} -20",  # the end: the player's own tiles lost
    ">b: AEIOUYZ (AEIOUYZ) -10 {n}",  # the cumulative total after them
]


@pytest.mark.parametrize("event", NUMBER_EVENTS)
def test_every_number_of_an_event_is_bounded(event):
    def text(n: str) -> str:
        return PLAYERS + FIRST + event.format(n=n) + "\n"

    for n in (HUGE, str(MAX_POINTS + 1), "1" + "0" * 400):
        refused(text(n), 4, "out of range", f"{MAX_POINTS:,}")
    game = parse_gcg(text(str(MAX_POINTS)), "g.gcg")  # the bound itself is a number of a game
    assert MAX_POINTS in {abs(game.turns[-1].score), abs(game.turns[-1].total)}
    game = parse_gcg(text("0" * 5000 + "7"), "g.gcg")  # leading zeros are no digits of the value
    assert 7 in {abs(game.turns[-1].score), abs(game.turns[-1].total)}


@pytest.mark.parametrize("count", [HUGE, "0", "8", "99"])
def test_the_number_of_tiles_exchanged_is_bounded_by_the_rack(count):
    refused(PLAYERS + FIRST + f">b: -{count} +0 0\n", 4, "number of tiles exchanged", "out of range")
    assert parse_gcg(PLAYERS + FIRST + ">b: -7 +0 0\n", "g.gcg").turns[-1].exchanged == 7


def value(digits: str) -> int:
    """The value of a signed digit string however many leading zeros (int() counts them)."""
    sign, digits = ("-", digits[1:]) if digits.startswith("-") else ("", digits.lstrip("+"))
    return int(sign + (digits.lstrip("0") or "0"))


#: A score or a total of any length: a few digits, then one digit repeated up to 6,000 times.
DIGITS = st.builds(lambda head, digit, n: head + digit * n, st.text("0123456789", min_size=1, max_size=8),
                   st.sampled_from("0123456789"), st.integers(0, 6000))  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(DIGITS, DIGITS, st.sampled_from(["+", "-", ""]), st.booleans())
def test_digit_strings_of_any_length_parse_or_are_one_error(score, total, sign, negative_total):
    line = f">a: KOTAEIS 8H KOT {sign}{score} {'-' if negative_total else ''}{total}"
    try:
        game = parse_gcg(PLAYERS + line + "\n", "g.gcg")
    except InputError as exc:
        message = str(exc)
        assert message.startswith("g.gcg:3: ") and "\n" not in message and len(message) < 1000
        assert "out of range" in message or "cannot score" in message
        return
    turn = game.turns[0]
    assert abs(turn.score) <= MAX_POINTS and abs(turn.total) <= MAX_POINTS
    assert turn.score == value(sign + score) and turn.score >= 0 and turn.total == value(line.split()[-1])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(DIGITS, DIGITS)
def test_digit_strings_of_any_length_exit_0_or_2_never_3(tmp_path, capsys, lex, score, total):
    path = tmp_path / "digits.gcg"
    path.write_text(PLAYERS + f">a: KOTAEIS 8H KOT +{score} {total}\n", encoding="utf-8")
    code, out, err = analyze(capsys, lex, path)
    assert code in (0, 2), err[:2000]
    if code == 2:
        assert_refused((code, out, err), path, 3, "out of range")
    else:
        assert json.loads(out)["turns"][0]["total"] == value(total)


@pytest.mark.parametrize(
    "event", [">a: KOTAEIS 9H KOT -6 0", ">b: AEIOUYZ - -1 -1", ">b: AEIOUYZ -AEI -2 -2", ">a: (challenge) -5 1"]
)
def test_a_negative_score_on_a_move_that_cannot_lose_points(event):
    refused(PLAYERS + FIRST + event + "\n", 4, "cannot score")


def test_negative_totals_penalties_and_withdrawals_are_read():
    text = PLAYERS + FIRST + ">b: AEIOUYZ (time) -10 -10\n>a: KOTAEIS -- -6 0\n>b: AEIOUYZ (AEIOUYZ) -14 -24\n"
    game = parse_gcg(text, "g.gcg")
    assert [(t.score, t.total) for t in game.turns] == [(6, 6), (-10, -10), (-6, 0), (-14, -24)]


# --------------------------------------------------------------------------- notes


def test_a_note_of_a_million_lines_is_read_whole(tmp_path, capsys, lex):
    path = tmp_path / "note.gcg"
    path.write_text(GAME + "#note start\n" + "x y\n" * MEGA, encoding="utf-8")  # 4 MB
    game = read_gcg(path)  # quadratic before (100,000 lines: 15 s): now a fraction of a second
    assert game.turns[1].notes == ["start" + " x y" * MEGA]
    code, out, err = analyze(capsys, lex, path)
    assert code == 0, err
    assert json.loads(out)["turns"][1]["note"] == "note: start" + " x y" * MEGA


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path, capsys, lex):
    path = tmp_path / "long-note.gcg"
    body = b"continuation of the note\n"
    with path.open("wb") as f:
        f.write(GAME.encode() + b"#note start\n")
        f.write(body * (MAX_GCG_BYTES // len(body) + 1))
    assert_refused(analyze(capsys, lex, path), path, None, "cannot read", f"more than {MAX_GCG_BYTES >> 20} MiB")


def test_notes_keep_their_meaning():
    text = ("#note before any move: ignored\n  and its continuation\n" + PLAYERS + FIRST
            + "#note one\n\n   two  words \n\t\n#title ends the note\n>b: AEIOUYZ - +0 0\n#note\n  late\n"
            + "#note last\r\n  crlf line \r\n")  # fmt: skip
    game = parse_gcg(text, "g.gcg")
    assert [t.notes for t in game.turns] == [["one two  words"], ["late", "last crlf line"]]
    refused(PLAYERS + FIRST + "#title t\n  not a note\n", 5, "not a GCG line")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(" \t\u00a0ab\u3000", max_size=6), max_size=30), st.integers(1, 12))
def test_a_note_is_joined_the_same_in_chunks(lines, chunk):
    body = "\n" + "\n".join(lines)
    expected = " ".join(line.strip() for line in body.split("\n") if line.strip())
    assert gcg._note_lines(body, chunk) == expected


# --------------------------------------------------------------------------- files that are no files


def test_a_fifo_a_device_a_directory_are_refused_at_once(tmp_path, capsys, monkeypatch, lex):
    # A FIFO is read as a pipe now (issue 14: analyze <(cat game.gcg)), for inputs.PIPE_SECONDS
    # at most: one with no writer, or a writer that never writes, is refused once that is up.
    monkeypatch.setattr("literaki_cli.inputs.PIPE_SECONDS", 0.2)
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    for path in (fifo, "/dev/zero", "/dev/null", tmp_path / "missing.gcg"):
        assert_refused(analyze(capsys, lex, path), path, None, "cannot read")
    # a folder is many games (issue 28): one without any is refused the same way
    assert_refused(analyze(capsys, lex, tmp_path), tmp_path, None, "a folder with no game record (*.gcg) in it")
    writer = os.open(fifo, os.O_RDWR)  # a writer that never writes: still refused, not waited on for ever
    try:
        assert_refused(analyze(capsys, lex, fifo), fifo, None, "nothing came through the pipe")
    finally:
        os.close(writer)


def test_the_library_refuses_them_too(tmp_path, monkeypatch):
    monkeypatch.setattr("literaki_cli.inputs.PIPE_SECONDS", 0.2)  # (issue 14: a FIFO is read this long)
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)
    end = os.open(fifo, os.O_RDWR)  # a writer, and the game waiting in the pipe, never closed: refused
    try:
        os.write(end, GAME.encode())
        for path in (fifo, "/dev/zero", tmp_path):
            with pytest.raises(InputError, match="cannot read"):
                read_gcg(path)
    finally:
        os.close(end)
    with pytest.raises(InputError, match="not a file name"):
        read_gcg("game\0.gcg")


# --------------------------------------------------------------------------- hostile lines


#: (name, the file's text, the line named, words of the message).
HOSTILE = [
    ("a rack of 1 MB", PLAYERS + ">a: " + "A" * MEGA + " 8H KOT +6 6\n", 3, ["1,000,000 characters"]),
    ("a word of 1 MB", PLAYERS + ">a: KOTAEIS 8H " + "K" * MEGA + " +6 6\n", 3, ["1,000,000 characters"]),
    ("a nick of 1 MB", ">" + "a" * MEGA + ": KOTAEIS 8H KOT +6 6\n", 1, ["a nick of 1,000,000 characters"]),
    ("a #player nick of 1 MB", "#player1 " + "a" * MEGA + " A\n" + FIRST, 1, ["a nick of 1,000,000"]),
    ("1 MB of blanks and no colon", PLAYERS + ">a" + " " * MEGA + "x\n", 3, ["expected '>nick:"]),
    ("a stray line of 1 MB", PLAYERS + "x" * MEGA + "\n" + FIRST, 3, ["not a GCG line"]),
    ("a line of 500,000 tokens", PLAYERS + ">a: " + "A " * (MEGA // 2) + "+6 6\n", 3, ["expected RACK POSITION"]),
    ("a NUL byte", PLAYERS + ">a: KOT\0AEIS 8H KOT +6 6\n", 3, ["control character U+0000"]),
    ("a terminal escape", PLAYERS + ">a\x1b]0;x\x07: KOTAEIS 8H KOT +6 6\n", 3, ["control character U+001B"]),
    ("a NUL in #lexicon", "#lexicon SJP\0\n" + GAME, 1, ["control character U+0000"]),
    ("a move before #player1", "#player2 b Ola\n>b: AEIOUYZ - +0 0\n", 1, ["#player1 is missing"]),
    ("a seat left out", "#player1 a A\n#player3 c C\n" + FIRST, 2, ["#player2 is missing"]),
    ("two players of one nick", "#player1 a A\n#player2 a B\n" + FIRST, 2, ["two players are called 'a'"]),
    ("five #player lines", "".join(f"#player{i} p{i} P\n" for i in range(1, 6)) + ">p1: - +0 0\n", 5, ["5 players"]),
    ("five nicks", "".join(f">p{i}: - +0 0\n" for i in range(1, 6)), 5, ["a player more ('p5')"]),
    ("an undeclared nick", PLAYERS + ">c: AEIOUYZ - +0 0\n", 3, ["unknown player 'c'"]),
    ("a move of an undeclared nick before the players", FIRST + PLAYERS.replace(" a ", " z "), 1, ["unknown player"]),
    ("a withdrawal of nothing", PLAYERS + ">a: KOTAEIS -- -6 0\n", 3, ["must follow a placement of a"]),
    ("row 99, column Z", PLAYERS + ">a: KOTAEIS 99Z KOT +6 6\n", 3, ["row 99 is off the board"]),
    ("column Z down", PLAYERS + ">a: KOTAEIS Z9 KOT +6 6\n", 3, ["off the board"]),
    ("row 0", PLAYERS + ">a: KOTAEIS 0H KOT +6 6\n", 3, ["row 0 is off the board"]),
    ("row 16", PLAYERS + ">a: KOTAEIS 16A KOT +6 6\n", 3, ["row 16 is off the board"]),
    ("row 100", PLAYERS + ">a: KOTAEIS 100A KOT +6 6\n", 3, ["'100A' is no square of the 15x15 board"]),
    ("row 100 and no rack", PLAYERS + ">a: 100A KOT +6 6\n", 3, ["'100A' is no square"]),
    ("columns AA", PLAYERS + ">a: KOTAEIS AA8 KOT +6 6\n", 3, ["'AA8' is no square"]),
    ("column P of literki", PLAYERS + ">a: KOTAEIS 8P KOT +6 6\n", 3, ["--variant literki"]),
    ("an unknown #variant", "#variant " + "x" * MEGA + "\n" + GAME, 1, ["unknown variant", "1,000,000 characters"]),
    ("an unknown variant in #literaki-state", '#literaki-state {"variant": "go"}\n' + GAME, 1,
     ["unknown variant 'go'"]),
    ("a #literaki-state of 5000 digits", f"#literaki-state {{\"seed\": {HUGE}}}\n" + GAME, 1, ["damaged"]),
    ("a #literaki-state nested deep", "#literaki-state " + "[" * MEGA + "]" * MEGA + "\n" + GAME, 1, ["damaged"]),
    ("a score in letters", PLAYERS + ">a: KOTAEIS 8H KOT +six 6\n", 3, ["expected '+SCORE TOTAL'"]),
    ("a score of other digits", PLAYERS + ">a: KOTAEIS 8H KOT +٣ 6\n", 3, ["expected '+SCORE TOTAL'"]),
    ("line 3 of an old Mac file", PLAYERS.replace("\n", "\r") + ">a: KOTAEIS 8H KOT +six 6\r", 3, ["+SCORE"]),
    ("too many events", PLAYERS + ">a: - +0 0\n" * (MAX_EVENTS + 1), MAX_EVENTS + 3, [f"{MAX_EVENTS:,} events"]),
    ("too many pragmas", GAME + "#note n\n" * MAX_PRAGMAS, MAX_PRAGMAS + 3, [f"{MAX_PRAGMAS:,} pragma"]),
]  # fmt: skip


@pytest.mark.parametrize(("text", "line", "words"), [case[1:] for case in HOSTILE], ids=[c[0] for c in HOSTILE])
def test_a_hostile_file_is_one_line_naming_file_and_line(tmp_path, capsys, lex, text, line, words):
    path = tmp_path / "hostile.gcg"
    path.write_text(text, encoding="utf-8")
    assert_refused(analyze(capsys, lex, path), path, line, *words)


@pytest.mark.parametrize("lexicon", ["../../etc/passwd", "SJP; rm -rf /", "żółw ∑ 🐢", "x" * 100_000, "   "])
def test_an_odd_lexicon_pragma_is_only_recorded(tmp_path, capsys, lex, lexicon):
    path = tmp_path / "lexicon.gcg"
    path.write_text(f"#lexicon {lexicon}\n" + GAME, encoding="utf-8")
    assert read_gcg(path).lexicon == (lexicon.strip() or None)
    code, _, err = analyze(capsys, lex, path)
    assert code == 0, err


def test_files_without_player_lines_or_with_them_last_are_read(tmp_path, capsys, lex):
    path = tmp_path / "order.gcg"
    for text in (FIRST + ">b: AEIOUYZ - +0 0\n", FIRST + ">b: AEIOUYZ - +0 0\n" + PLAYERS):
        path.write_text(text, encoding="utf-8")
        assert [p.nick for p in read_gcg(path).players] == ["a", "b"]
        code, out, err = analyze(capsys, lex, path)
        assert code == 0 and len(json.loads(out)["turns"]) == 2, err


def test_the_event_limit_is_a_real_games_many_times_over():
    text = PLAYERS + FIRST + ">b: AEIOUYZ - +0 0\n" * (MAX_EVENTS - 1)
    assert len(parse_gcg(text, "g.gcg").turns) == MAX_EVENTS
    pairs = PLAYERS + (FIRST + ">a: KOTAEIS -- -6 0\n") * (MAX_EVENTS // 2)  # each withdrawal checked at once
    assert [t.kind for t in parse_gcg(pairs, "g.gcg").turns].count(WITHDRAWN) == MAX_EVENTS // 2


def test_fields_up_to_the_limit_are_read():
    nick = "n" * MAX_FIELD
    game = parse_gcg(f"#player1 {nick} N\n>{nick}: KOTAEIS 8H KOT +6 6\n", "g.gcg")
    assert game.players[0].nick == nick
    refused(f">{nick}x: KOTAEIS 8H KOT +6 6\n", 1, f"at most {MAX_FIELD}")


# --------------------------------------------------------------------------- random lines


#: Pieces GCG lines are made of, and characters that mean nothing (or too much) to a reader.
PIECES = st.sampled_from([">", "a", "b", ":", " ", "\t", "#", "note", "player1", "player3", "character-encoding",
                          "variant", "literaki-state", "{", "}", "8H", "H8", "99Z", "0H", "KOT", "ż", "(", ")", "?",
                          "-", "--", "+", "6", "9" * 50, "(challenge)", "(time)", "\n", "\r", "\0", "\x1b", "\u2028",
                          "\ufeff", "\x85", "٣", "²"])  # fmt: skip
LINES = st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=25).map("".join)


@settings(max_examples=400, deadline=None)
@given(LINES, st.integers(0, 4))
def test_a_random_line_parses_or_is_one_error_line(line, where):
    lines = GAME.splitlines()
    lines.insert(min(where, len(lines)), line)
    try:
        parse_gcg("\n".join(lines) + "\n", "g.gcg")
    except InputError as exc:
        message = str(exc)
        assert message.startswith("g.gcg:") and "\n" not in message and len(message) < 1000, message


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=60), st.integers(0, 4))
def test_random_bytes_in_a_game_exit_0_or_2_never_3(tmp_path, capsys, lex, junk, where):
    lines = GAME.encode().splitlines()
    lines.insert(min(where, len(lines)), junk)
    path = tmp_path / "junk.gcg"
    path.write_bytes(b"\n".join(lines) + b"\n")
    code, out, err = analyze(capsys, lex, path)
    assert code in (0, 2), err[:2000]
    if code == 2:
        assert err.count("\n") == 1 and err.startswith(f"literaki: error: {path}") and len(err) < 1000, err[:2000]
