"""Hostile input through the shared readers (literaki_cli/inputs.py) and every surface that
takes a user's file: each case is one line on stderr naming the file or value and exit 2,
never a traceback, an exit 3, a hang or a machine out of memory; every JSON printed parses
with a strict parser.  A surface added later is covered by adding its command line to
:data:`FILE_SURFACES` (and its numbers by the option check in commands/common.py)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.cli import main
from literaki_cli.errors import InputError
from literaki_cli.inputs import (
    MAX_INT_DIGITS,
    MAX_NESTING,
    dumps_json,
    finite_number,
    loads_json,
    loads_toml,
    open_input,
    parse_whole_number,
    read_input_bytes,
    whole_number,
)
from tests.conftest import time_limit

ROOT = Path(__file__).resolve().parent.parent
BOARD = str(ROOT / "examples" / "board.txt")
GRID = "KOTŁAZERWĄIMIONPASEKRUCHY"


def strict_json(text: str):
    """``text`` parsed by a strict parser (no NaN, Infinity or -Infinity)."""

    def refuse(name):
        raise ValueError(f"{name} in the output: not strict JSON")

    return json.loads(text, parse_constant=refuse)


# --------------------------------------------------------------------------- the JSON reader

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_strict_reader_reads_back_what_strict_json_writes(value):
    text = dumps_json(value, ensure_ascii=False)
    assert loads_json(text, "x") == value
    assert loads_json(text.encode("utf-8"), "x") == value


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(max_size=200), st.text(alphabet='[]{}"\\,:0123456789eE.-+ntrufalsNIy\\ud800', max_size=300)))
def test_any_text_is_read_or_refused_with_the_source_named(text):
    try:
        value = loads_json(text, "the-source")
    except InputError as exc:
        assert str(exc).startswith("the-source: ") and "\n" not in str(exc)
    else:
        dumps_json(value, ensure_ascii=False).encode("utf-8")  # readable values are writable as strict JSON


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[NaN]", "NaN is not a number"),
        ('{"id": Infinity}', "Infinity is not a number"),
        ("-Infinity", "-Infinity is not a number"),
        ("[1e400]", "out of range"),
        ("[-1e400]", "out of range"),
        ("1" * (MAX_INT_DIGITS + 1), f"more than {MAX_INT_DIGITS} digits"),
        ("-" + "9" * 5000, f"more than {MAX_INT_DIGITS} digits"),
        ("[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1), f"nested more than {MAX_NESTING} levels"),
        ("[" * 100_000, f"nested more than {MAX_NESTING} levels"),
        ('{"a":' * 5000 + "1" + "}" * 5000, f"nested more than {MAX_NESTING} levels"),
        ('["\\ud800"]', "lone surrogate"),
        ('{"\\udc00": 1}', "lone surrogate"),
        ('"\\ud83d"', "lone surrogate"),
        ("[1,]", "line 1 column 4: not valid JSON"),
        (b"\xff[]", "not UTF-8 text"),
    ],
)
def test_strict_reader_refuses(text, message):
    with pytest.raises(InputError, match=message.replace("[", r"\[")):
        loads_json(text, "f.json")


def test_strict_reader_takes_what_is_legitimate():
    assert loads_json("[" * MAX_NESTING + "]" * MAX_NESTING, "x") is not None
    assert loads_json('["' + "[" * 10_000 + '"]', "x") == ["[" * 10_000]  # brackets in a string are text
    assert loads_json('"\\ud83d\\ude00 \\\\ud800"', "x") == "\U0001f600 \\ud800"  # a pair; an escaped backslash
    assert loads_json("9" * MAX_INT_DIGITS, "x") == int("9" * MAX_INT_DIGITS)
    assert loads_json("[1e308, -0.0, 5e-324]", "x") == [1e308, -0.0, 5e-324]


def test_strict_writer_refuses_what_a_strict_parser_would():
    for bad in (math.nan, math.inf, -math.inf, [1, {"a": math.nan}]):
        with pytest.raises(ValueError):
            dumps_json(bad)
    assert strict_json(dumps_json({"a": [1.5, None]}, allow_nan=True)) == {"a": [1.5, None]}


# --------------------------------------------------------------------------- TOML and numbers


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x = " + "[" * 5000 + "]" * 5000, "nested more than"),
        ("x = " + "{a = " * 200 + "1" + "}" * 200, "nested more than"),
        ("endgame_nodes = " + "9" * 5000, "an integer of thousands of digits"),
        ("x = [[[", "not valid TOML"),
    ],
)
def test_toml_reader_refuses(text, message):
    with pytest.raises(InputError, match=f"^f.toml: .*{message}"):
        loads_toml(text, "f.toml")


def test_toml_brackets_in_strings_and_comments_are_not_nesting():
    text = 'a = "' + "[" * 100 + "\"\nb = '" + "{" * 100 + "'\n# " + "[" * 100 + '\nc = """\n' + "[" * 100 + '\n"""\n'
    assert loads_toml(text, "f.toml")["a"] == "[" * 100


ANY_VALUE = st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=5), st.none(),
                      st.lists(st.integers(), max_size=2))  # fmt: skip


@given(ANY_VALUE, st.integers(-(10**6), 10**6), st.integers(0, 10**6))
def test_whole_number_is_in_range_or_refused(value, low, span):
    try:
        number = whole_number(value, "key 'k'", low, low + span)
    except InputError as exc:
        assert str(exc).startswith("key 'k': ")
    else:
        assert type(number) is int and low <= number <= low + span


@given(ANY_VALUE | st.integers(min_value=10**300, max_value=10**400), st.floats(-1e6, 1e6), st.floats(0, 1e6))
def test_finite_number_is_in_range_or_refused(value, low, span):
    try:
        number = finite_number(value, "key 'k'", low, low + span)
    except InputError as exc:
        assert str(exc).startswith("key 'k': ") and len(str(exc)) < 200
    else:
        assert math.isfinite(number) and low <= number <= low + span


@given(st.text(max_size=30) | st.integers().map(str) | st.integers(20, 5000).map(lambda n: "-9"[n % 2 :] + "9" * n))
def test_parse_whole_number_is_in_range_or_refused(text):
    try:
        number = parse_whole_number(text, "score", -100_000, 100_000)
    except InputError as exc:
        assert str(exc).startswith("score: ") and len(str(exc)) < 200
    else:
        assert -100_000 <= number <= 100_000


# --------------------------------------------------------------------------- input files


def make_input(kind: str, folder: Path, content: bytes = b"x") -> Path:
    """A path of one hostile ``kind``: fifo (no writer), directory, device, missing."""
    if kind == "fifo":
        path = folder / "input.fifo"
        os.mkfifo(path)
        return path
    if kind == "directory":
        path = folder / "input.dir"
        path.mkdir()
        return path
    if kind == "device":
        return Path("/dev/zero")
    if kind == "missing":
        return folder / "absent.file"
    path = folder / f"input.{kind}"
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("kind", "message"),
    [("fifo", "a pipe, not a rules file"), ("directory", "is a directory"), ("device", "a device, not a rules file"),
     ("missing", "no such file")],
)  # fmt: skip
def test_open_input_refuses_at_once(tmp_path, kind, message):
    path = make_input(kind, tmp_path)
    with time_limit(10), pytest.raises(InputError, match=f"^{path}: {message}"):
        read_input_bytes(path, "rules file")


def test_a_fifo_with_a_writer_is_refused_too(tmp_path):
    path = make_input("fifo", tmp_path)
    writer = os.open(path, os.O_RDWR | os.O_NONBLOCK)  # holds the writing end open
    try:
        os.write(writer, b"[mistrz]\n")
        with time_limit(10), pytest.raises(InputError, match="a pipe"):
            read_input_bytes(path, "levels file")
    finally:
        os.close(writer)


def test_input_size_is_capped_and_a_nul_in_the_name_refused(tmp_path):
    big = tmp_path / "big.toml"
    with big.open("wb") as f:
        f.truncate(1 << 40)  # a sparse terabyte: refused by its size, unread
    with time_limit(10), pytest.raises(InputError, match="more than 1 MiB: too large for a levels file"):
        read_input_bytes(big, "levels file", limit=1 << 20)
    assert read_input_bytes(make_input("ok", tmp_path, b"abc"), "file", limit=3) == b"abc"
    with pytest.raises(InputError, match="cannot hold a NUL byte"):
        open_input("a\0b")


# --------------------------------------------------------------------------- every surface


@pytest.fixture(scope="module")
def lexicon(small_lexicon) -> str:
    return str(small_lexicon)


def run_cli(capsys, argv: list[str], seconds: int = 60) -> tuple[int, str, str]:
    with time_limit(seconds):
        code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


#: Each surface: (name, argv maker (file, lexicon, folder) -> argv, environment variable or
#: None, the contents tried beside the fifo/directory/device/missing kinds).
DEEP_JSON = b"[" * 100_000
DEEP_TOML = b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n"
HUGE_TOML = b"[mistrz]\nendgame_nodes = " + b"9" * 5000 + b"\n"
FILE_SURFACES = [
    ("simulate --levels", lambda f, lex, d: ["simulate", "--levels", f, "--games", "1", "--out", f"{d}/o"], None,
     {"deep": DEEP_TOML, "huge": HUGE_TOML, "binary": b"\xff\xfe\0"}),
    ("simulate --rules", lambda f, lex, d: ["simulate", "--rules", f, "--games", "1", "--out", f"{d}/o"], None,
     {"deep": DEEP_TOML, "binary": b"\xff\xfe\0"}),
    ("simulate --game grid5 --rules", lambda f, lex, d: ["simulate", "--game", "grid5", "--rules", f, "--out",
                                                         f"{d}/o"], None, {"deep": DEEP_TOML}),
    ("simulate --leaves", lambda f, lex, d: ["simulate", "--leaves", f, "--games", "1", "--out", f"{d}/o"], None, {}),
    ("solve --leaves", lambda f, lex, d: ["solve", BOARD, "--rack", "kot", "--leaves", f, "-l", lex], None, {}),
    ("$LITERAKI_LEAVES", lambda f, lex, d: ["solve", BOARD, "--rack", "kot", "-l", lex], "LITERAKI_LEAVES", {}),
    ("solve --sim --win-model", lambda f, lex, d: ["solve", BOARD, "--rack", "kot", "--sim", "--win-model", f, "-l",
                                                   lex], None,
     {"deep": DEEP_JSON, "huge": b'{"format": "literaki-win-model", "version": 1, "intercept": [' + b"1" * 400 + b"]}",
      "nan": b'{"format": "literaki-win-model", "version": 1, "intercept": [NaN]}'}),
    ("$LITERAKI_WIN_MODEL", lambda f, lex, d: ["solve", BOARD, "--rack", "kot", "--sim", "-l", lex],
     "LITERAKI_WIN_MODEL", {"deep": DEEP_JSON}),
    ("score --rules", lambda f, lex, d: ["score", BOARD, "--rules", f, "H8", "KOT", "-l", lex], None,
     {"deep": DEEP_TOML}),
    ("lexicon-diff OLD", lambda f, lex, d: ["lexicon-diff", f, lex], None, {}),
    ("lexicon-diff NEW", lambda f, lex, d: ["lexicon-diff", lex, f], None, {}),
    ("check-word --since", lambda f, lex, d: ["check-word", "--since", f, "kot", "-l", lex], None, {}),
    ("build-lexicon", lambda f, lex, d: ["build-lexicon", f, "-o", f"{d}/out.lexicon"], None, {}),
    ("anagram --rules", lambda f, lex, d: ["anagram", GRID, "--rules", f, "-l", lex], None, {"deep": DEEP_TOML}),
    ("leaves train --levels", lambda f, lex, d: ["leaves", "train", "--generations", "1", "--levels", f, "--out",
                                                 f"{d}/out.leaves"], None, {"deep": DEEP_TOML}),
    ("leaves train --leaves", lambda f, lex, d: ["leaves", "train", "--generations", "1", "--leaves", f, "--out",
                                                 f"{d}/out.leaves"], None, {}),
    ("leaves show --leaves", lambda f, lex, d: ["leaves", "show", "--leaves", f, "ko"], None, {}),
    ("analyze", lambda f, lex, d: ["analyze", f, "-l", lex], None, {}),
    ("--lexicon", lambda f, lex, d: ["check-word", "kot", "-l", f], None, {}),
]  # fmt: skip
CASES = [(name, kind, None) for name, *_ in FILE_SURFACES for kind in ("fifo", "directory", "device", "missing")]
CASES += [(name, kind, content) for name, _, _, contents in FILE_SURFACES for kind, content in contents.items()]


@pytest.mark.parametrize(("surface", "kind", "content"), CASES, ids=[f"{s}-{k}" for s, k, _ in CASES])
def test_every_file_surface_refuses_hostile_files_in_one_line(tmp_path, capsys, monkeypatch, lexicon, surface, kind,
                                                               content):  # fmt: skip
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "no-data"))  # no default lexicon: cheap checks come first
    for name in ("LITERAKI_LEXICON", "LITERAKI_LEAVES", "LITERAKI_WIN_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("literaki_cli.inputs.PIPE_SECONDS", 0.2)  # a game record's FIFO is read this long (issue 14)
    argv_of, env_var, _ = next(s[1:] for s in FILE_SURFACES if s[0] == surface)
    path = make_input(kind, tmp_path, content or b"")
    if env_var:
        monkeypatch.setenv(env_var, str(path))
    code, out, err = run_cli(capsys, argv_of(str(path), lexicon, str(tmp_path)))
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 2, err
    assert len(lines) == 1 and lines[0].startswith("literaki: error: "), err
    assert path.name in lines[0], err
    assert "Traceback" not in err and "internal error" not in err
    assert not {p.name for p in tmp_path.iterdir()} & {"o", "out.lexicon", "out.leaves", "out.leaves.runs"}


def test_a_zip_bomb_of_a_word_list_is_refused_unpacked(tmp_path, capsys):
    import gzip

    from lexicon_build.sources import MAX_SOURCE_BYTES

    bomb = tmp_path / "bomb.txt.gz"
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        chunk = b"a\n" * (1 << 20)
        for _ in range(MAX_SOURCE_BYTES // len(chunk) + 1):
            f.write(chunk)
    assert bomb.stat().st_size < 2 << 20
    code, _, err = run_cli(capsys, ["lexicon-diff", str(bomb), str(bomb)])
    assert code == 2 and f"bomb.txt.gz: unpacks to more than {MAX_SOURCE_BYTES >> 20} MiB" in err


# --------------------------------------------------------------------------- numeric options


#: (``words`` reads its own numbers: a limit past any count means no limit, tests/test_words_limits_fuzz.py.)
NUMBER_OPTIONS = [
    ["check-word", "kot", "--limit"], ["solve", BOARD, "--rack", "kot", "--top"],
    ["solve", BOARD, "--rack", "kot", "--sim", "--seed"], ["simulate", "--games"], ["simulate", "--seed"],
    ["leaves", "train", "x", "--min-count"], ["anagram", GRID, "--top"],
]  # fmt: skip
FLOAT_OPTIONS = [["leaves", "train", "x", "--prior"], ["build-lexicon", "x", "--popular-zipf"],
                 ["solve", BOARD, "--rack", "kot", "--endgame", "--time"]]  # fmt: skip


@pytest.mark.parametrize("argv", NUMBER_OPTIONS, ids=lambda a: " ".join(a[:1] + a[-1:]))
@pytest.mark.parametrize("value", ["9" * 30, "-" + "9" * 30, "9" * 5000, "9223372036854775808"])
def test_whole_number_options_out_of_64_bits_are_usage_errors(capsys, lexicon, argv, value):
    code, _, err = run_cli(capsys, [*argv, value, *(["-l", lexicon] if argv[0] != "build-lexicon" else [])])
    assert code == 2 and "is out of range (a 64-bit whole number)" in err and len(err) < 1000, err


@pytest.mark.parametrize("argv", FLOAT_OPTIONS, ids=lambda a: " ".join(a[:1] + a[-1:]))
@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "1e400", "NaN"])
def test_number_options_must_be_finite(capsys, lexicon, argv, value):
    code, _, err = run_cli(capsys, [*argv, value, *(["-l", lexicon] if argv[0] != "build-lexicon" else [])])
    assert code == 2 and ("is not a finite number" in err or "is out of range (a finite number)" in err), err


# --------------------------------------------------------------------------- batch ids


@pytest.mark.parametrize("workers", ["1", "2"])
def test_batch_ids_that_are_not_strict_json_text_are_line_errors(tmp_path, lexicon, workers):
    cgp = (ROOT / "examples" / "game.cgp").read_text(encoding="utf-8").strip()
    position = json.dumps(cgp)
    bad_ids = ["NaN", "Infinity", "-Infinity", "1e400", '"\\ud800"', '"a\\udfff"', "[" * 5000 + "]" * 5000,
               "9" * 5000]  # fmt: skip
    lines = [f'{{"id": {ident}, "position": {position}, "top": 1}}' for ident in bad_ids]
    lines.append(f'{{"id": "last", "position": {position}, "top": 1}}')
    lines.append(f'{{"id": 1, "position": {"[" * 100_000}}}')
    batch = tmp_path / "lines.jsonl"
    batch.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for command in ("solve", "score"):
        done = subprocess.run([sys.executable, "-m", "literaki_cli", command, "--batch", str(batch), "--lexicon",
                               lexicon, "--workers", workers], capture_output=True, timeout=300)  # fmt: skip
        answers = [strict_json(line) for line in done.stdout.decode("utf-8").splitlines()]
        assert done.returncode == 4, done.stderr
        assert len(answers) == len(lines)  # every line answered, in order
        assert [a["line"] for a in answers] == list(range(1, len(lines) + 1))
        for answer in answers[: len(bad_ids)] + answers[-1:]:
            assert answer["id"] is None and "internal error" not in answer["error"]
        assert answers[len(bad_ids)]["id"] == "last"
        if command == "solve":
            assert "error" not in answers[len(bad_ids)]


# --------------------------------------------------------------------------- cluster addresses


@pytest.mark.parametrize(
    ("address", "message"),
    [("a" * 64 + ":6379", "is not a host name"), ("ray://" + "ż" * 70 + ":1", "is not a host name"),
     ("h\udcff:10001", "is not a host name"), ("a..b:1", "is not a host name"), ("x" * 300 + ":1", "is not a host"),
     ("localhost:99999", "port 99999 is not between 1 and 65535"), ("localhost:0", "port 0 is not between"),
     ("nohost", "give auto, HOST:PORT")],
)  # fmt: skip
def test_ray_addresses_are_checked_before_any_connection(capsys, address, message):
    code, _, err = run_cli(capsys, ["simulate", "--games", "1", "--ray", address], seconds=20)
    assert code == 2 and message in err and len(err.splitlines()) == 1, err


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_ray_address_is_taken_or_refused_in_one_line(address):
    from literaki_cli.cluster.raysim import check_address

    try:
        assert check_address(address) == address
    except InputError as exc:
        assert str(exc).startswith("--ray ") and "\n" not in str(exc)


@pytest.mark.parametrize(
    ("record", "message"),
    [(b"[" * 100_000, "nested more than"), (b'{"games": NaN}', "NaN is not a number"),
     (b'{"players": ["a"], "games": 1, "seed": ' + b"9" * 5000 + b"}", "more than 40 digits"),
     (b'{"players": "ab", "games": 1, "seed": 1}', "key 'players' has a bad value 'ab'")],
)  # fmt: skip
def test_a_hostile_run_record_is_one_line_on_resume(tmp_path, capsys, record, message):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_bytes(record)
    code, _, err = run_cli(capsys, ["simulate", "--resume", str(run)])
    assert code == 2 and message in err and len(err.splitlines()) == 1, err
