"""Hostile input to the `leaves` commands and to every command reading a leave file: whatever a
leave file, a turns table, a run's run.json, an output path or a number holds, the answer is a
result (exit 0, JSON a strict parser reads) or one line on stderr and exit 2; never a traceback
(exit 3), a hang, gigabytes allocated, a file literaki cannot read, or a `.partial` left behind."""

from __future__ import annotations

import errno
import io
import json
import math
import os
import zipfile
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.datafiles import board_run_settings
from literaki_cli.equity.leaves import ENV_VAR, MAX_LEAVE_VALUE, N_FEATURES, load_leaves
from literaki_cli.errors import InputError
from tests.conftest import run_cli, time_limit
from tests.test_equity import DESIGNED_TURNS, LEARNED, good_arrays, hand_table, random_turns, write_run
from tests.test_leaves_cli import EMPTY, one_line_error

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _no_constant(name: str):
    raise AssertionError(f"{name} in the output: not strict JSON")


def strict_json(text: str):
    """``text`` parsed as strict JSON: NaN and Infinity fail the test."""
    return json.loads(text, parse_constant=_no_constant)


def json_lines(text: str) -> list:
    return [strict_json(line) for line in text.splitlines() if line.strip()]


def nothing_written(out: Path) -> None:
    assert not out.exists(), out
    assert not any(p.name.endswith(".partial") for p in out.parent.iterdir()), list(out.parent.iterdir())


def show(capsys, path: Path | str, *leaves: str):
    return run_cli(capsys, "leaves", "show", *(leaves or ("ab", "?", "aa?")), "--leaves", str(path), "--json")


def good_or_refused(code: int, out: str, err: str, path: Path) -> None:
    """A leave file either works (strict JSON, finite values) or is refused in one line naming it."""
    if code == 0:
        for record in json_lines(out):
            assert math.isfinite(record["value"]) and math.isfinite(record["model"])
    else:
        one_line_error(code, out, err, path.name)


# --------------------------------------------------------------------------- leave files made by hand


def npz(path: Path, **changes) -> Path:
    """A leave file whose arrays are a good one's with ``changes`` (arrays, or raw .npy bytes)."""
    members = good_arrays() | changes
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, member in members.items():
            if isinstance(member, bytes):
                archive.writestr(f"{name}.npy", member)
            else:
                buffer = io.BytesIO()
                np.save(buffer, member, allow_pickle=False)
                archive.writestr(f"{name}.npy", buffer.getvalue())
    return path


def npy_header(shape: tuple, descr: str = "<f4", version: int = 1, body: bytes = b"\0" * 64) -> bytes:
    """A .npy member whose header declares ``shape`` over ``body``."""
    buffer = io.BytesIO()
    header = {"shape": shape, "fortran_order": False, "descr": descr}
    (np.lib.format.write_array_header_1_0 if version == 1 else np.lib.format.write_array_header_2_0)(buffer, header)
    return buffer.getvalue() + body


def nested_meta(depth: int) -> np.ndarray:
    return np.array('{"format": "literaki-leaves", "version": 1, "x": ' + "[" * depth + "]" * depth + "}")


def with_coef(value: float, index: int = 5) -> np.ndarray:
    coef = good_arrays()["coef"].copy()
    coef[index] = value
    return coef


def with_value(value: float, dtype=np.float64) -> np.ndarray:
    values = good_arrays()["values"].astype(dtype)
    values[1] = value
    return values


def huge_member(path: Path) -> Path:
    """A zip bomb: the keys are 32 MiB of zeros (compressed to a few KB)."""
    buffer = io.BytesIO()
    np.save(buffer, np.zeros(4 << 20, dtype=np.int64))
    return npz(path, keys=buffer.getvalue())


def declared_huge(path: Path) -> Path:
    """A member whose zip directory declares 4 GB once decompressed (the bytes are a good file's)."""
    npz(path)
    data = bytearray(path.read_bytes())
    entry = data.find(b"PK\x01\x02")  # the central directory's entries
    while entry >= 0:
        name_length = int.from_bytes(data[entry + 28 : entry + 30], "little")
        if data[entry + 46 : entry + 46 + name_length] == b"values.npy":
            data[entry + 24 : entry + 28] = (0xFFFFFFF0).to_bytes(4, "little")  # its uncompressed size
        entry = data.find(b"PK\x01\x02", entry + 4)
    path.write_bytes(bytes(data))
    return path


def one_array(path: Path) -> None:
    with open(path, "wb") as f:
        np.save(f, np.arange(3))


#: Leave files literaki must refuse, each in one line: name -> a writer of the file.
BAD_LEAVE_FILES = {
    "meta nested 5,000 deep": lambda p: npz(p, meta=nested_meta(5_000)),
    "meta nested 100,000 deep": lambda p: npz(p, meta=nested_meta(100_000)),
    "meta with NaN": lambda p: npz(p, meta=np.array('{"format": "literaki-leaves", "version": 1, "x": NaN}')),
    "meta with 1e400": lambda p: npz(p, meta=np.array('{"format": "literaki-leaves", "version": 1, "x": 1e400}')),
    "meta a number array": lambda p: npz(p, meta=np.arange(3)),
    "version true": lambda p: npz(p, meta=np.array('{"format": "literaki-leaves", "version": true}')),
    "values header of 10^12 (npy 1.0)": lambda p: npz(p, values=npy_header((10**12,))),
    "values header of 10^12 (npy 2.0)": lambda p: npz(p, values=npy_header((10**12,), version=2)),
    "keys header of 10^6 x 10^6": lambda p: npz(p, keys=npy_header((10**6, 10**6), "<i8")),
    "values header negative": lambda p: npz(p, values=npy_header((-5,))),
    "values header garbage": lambda p: npz(p, values=b"\x93NUMPY\x01\x00\x10\x00{'shape': (((((((" + b" " * 8),
    "values of objects": lambda p: npz(p, values=npy_header((1,), "|O", body=b"\0" * 8)),
    "values short of their header": lambda p: npz(p, values=npy_header((1000,), body=b"\0" * 40)),
    "coef 1e308": lambda p: npz(p, coef=with_coef(1e308)),
    "coef -1e308 everywhere": lambda p: npz(p, coef=np.full(N_FEATURES, -1e308)),
    "coef NaN": lambda p: npz(p, coef=with_coef(np.nan)),
    "coef 5,000": lambda p: npz(p, coef=with_coef(5000.0)),
    "value 1e308 (float64)": lambda p: npz(p, values=with_value(1e308)),
    "value 1e38 (float32)": lambda p: npz(p, values=with_value(1e38, np.float32)),
    "value -inf": lambda p: npz(p, values=with_value(-np.inf)),
    "value 10**18 (int64)": lambda p: npz(p, values=np.full(len(LEARNED), 10**18, dtype=np.int64)),
    "colour_of NaN": lambda p: npz(p, colour_of=np.full(33, np.nan)),
    "colour_of -7": lambda p: npz(p, colour_of=np.full(33, -7, dtype=np.int64)),
    "vowel 7": lambda p: npz(p, vowel=np.full(33, 7, dtype=np.int64)),
    "keys of letters past the tile set": lambda p: npz(p, keys=np.arange(40, 40 + len(LEARNED), dtype=np.int64)),
    "keys of descending digits": lambda p: npz(p, keys=np.arange(len(LEARNED), dtype=np.int64) + 64 * 9 + 1),
    "a huge member (zip bomb)": huge_member,
    "a member declaring 4 GB": declared_huge,
    "stored with bzip2": lambda p: _bzip2(p),
    "empty file": lambda p: p.write_bytes(b""),
    "text file": lambda p: p.write_text("not leaves\n"),
    "one array": one_array,
    "zip of nothing": lambda p: zipfile.ZipFile(p, "w").close(),
}


def _bzip2(path: Path) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_BZIP2) as archive:
        for name, array in good_arrays().items():
            buffer = io.BytesIO()
            np.save(buffer, array)
            archive.writestr(f"{name}.npy", buffer.getvalue())


@pytest.mark.parametrize("case", list(BAD_LEAVE_FILES))
def test_leaves_show_refuses_a_bad_leave_file_in_one_line(capsys, tmp_path, case):
    path = tmp_path / "bad.leaves"
    BAD_LEAVE_FILES[case](path)
    one_line_error(*show(capsys, path), "bad.leaves")
    with pytest.raises(InputError, match="bad.leaves"):
        load_leaves(path)


def test_the_good_file_of_these_tests_loads(capsys, tmp_path):
    path = npz(tmp_path / "good.leaves")
    code, out, err = show(capsys, path)
    assert code == 0, err
    assert [r["value"] for r in json_lines(out)][:2] == [6.25, 12.5]
    extreme = npz(tmp_path / "extreme.leaves", values=with_value(MAX_LEAVE_VALUE), coef=with_coef(-MAX_LEAVE_VALUE))
    code, out, err = show(capsys, extreme, *LEARNED, "ą")
    assert code == 0, err
    assert max(r["value"] for r in json_lines(out)) == MAX_LEAVE_VALUE  # the bound itself is a value


@pytest.mark.parametrize("cut", [0, 1, 22, 100, 500, -200, -22, -1])
def test_a_truncated_leave_file_is_one_line(capsys, tmp_path, cut):
    good = npz(tmp_path / "good.leaves")
    data = good.read_bytes()
    path = tmp_path / "cut.leaves"
    path.write_bytes(data[:cut])
    one_line_error(*show(capsys, path), "cut.leaves")


def test_pipes_devices_folders_and_huge_files_are_refused_without_reading_them(capsys, tmp_path):
    fifo = tmp_path / "fifo.leaves"
    os.mkfifo(fifo)
    (tmp_path / "zero.leaves").symlink_to("/dev/zero")
    sparse = tmp_path / "sparse.leaves"
    with open(sparse, "wb") as f:
        f.truncate(200 << 20)  # 200 MB of nothing: more than a leave file may have
    (tmp_path / "dangling.leaves").symlink_to(tmp_path / "gone")
    cases = [(fifo, "pipe"), ("/dev/zero", "device"), (tmp_path / "zero.leaves", "device"),
             (tmp_path, "directory"), (sparse, "too large"), (tmp_path / "dangling.leaves", "no such"),
             (tmp_path / "missing.leaves", "no such")]  # fmt: skip
    with time_limit(120):
        for path, why in cases:
            one_line_error(*show(capsys, path), str(path), why)


@FUZZ
@given(data=st.data())
def test_any_damage_to_a_leave_file_is_a_result_or_one_line(capsys, tmp_path_factory, data):
    folder = tmp_path_factory.mktemp("damaged")
    good = npz(folder / "good.leaves")
    raw = bytearray(good.read_bytes())
    for _ in range(data.draw(st.integers(1, 6), label="flips")):
        raw[data.draw(st.integers(0, len(raw) - 1), label="at")] = data.draw(st.integers(0, 255), label="byte")
    cut = data.draw(st.integers(0, len(raw)), label="length")
    path = folder / "damaged.leaves"
    path.write_bytes(bytes(raw[:cut]))
    good_or_refused(*show(capsys, path), path)


@FUZZ
@given(blob=st.binary(max_size=600))
def test_any_bytes_as_a_leave_file_are_one_line(capsys, tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("bytes") / "blob.leaves"
    path.write_bytes(blob)
    one_line_error(*show(capsys, path), "blob.leaves")


FLOATS = st.one_of(st.floats(), st.sampled_from([1e308, -1e308, 1e38, 3.5e38, 1000.0, 1000.0001, -1000.0, 5e-324]))


@FUZZ
@given(value=FLOATS, coefficient=FLOATS, index=st.integers(0, N_FEATURES - 1))
def test_any_number_in_a_leave_file_is_a_finite_answer_or_one_line(capsys, tmp_path_factory, value, coefficient,
                                                                     index):  # fmt: skip
    path = npz(tmp_path_factory.mktemp("numbers") / "n.leaves", values=with_value(value),
               coef=with_coef(coefficient, index))  # fmt: skip
    code, out, err = show(capsys, path, "ab", "ba", "?", "aa?", "ąęż", "??")
    good_or_refused(code, out, err, path)
    fits = all(math.isfinite(x) and abs(x) <= MAX_LEAVE_VALUE for x in (value, coefficient))
    assert (code == 0) == fits, (value, coefficient, err)


@FUZZ
@given(leaves=st.lists(st.text(max_size=9), min_size=1, max_size=4))
def test_any_leave_text_is_an_answer_or_one_line(capsys, tmp_path_factory, leaves):
    path = npz(tmp_path_factory.mktemp("text") / "t.leaves")
    code, out, err = run_cli(capsys, "leaves", "show", "--leaves", str(path), "--json", "--", *leaves)
    if code == 0:
        assert len(json_lines(out)) == len(leaves)
    else:
        one_line_error(code, out, err, "leave")


def test_saving_a_table_literaki_could_not_read_writes_nothing(tmp_path):
    for bad in (1e308, np.inf, np.nan, 2 * MAX_LEAVE_VALUE):
        out = tmp_path / "bad.leaves"
        with pytest.raises(InputError, match="bad.leaves: not written"):
            hand_table({"ab": bad}).save(out)
        nothing_written(out)
    with pytest.raises(InputError, match="not written: the metadata"):
        hand_table(meta={"x": float("nan")}).save(tmp_path / "nan.leaves")
    nothing_written(tmp_path / "nan.leaves")


# --------------------------------------------------------------------------- other commands reading leave files

USING_LEAVES = """
[uczen]
vocabulary = "all"
quantile = [0, 0]
exchange_below = 0
leaves = "default"
"""

ENV_CASES = ["meta nested 5,000 deep", "meta nested 100,000 deep", "values header of 10^12 (npy 1.0)", "coef 1e308",
             "a huge member (zip bomb)", "value 1e308 (float64)"]  # fmt: skip


@pytest.mark.parametrize("case", [*ENV_CASES, "fifo", "directory"])
def test_solve_and_simulate_refuse_a_bad_leave_file_from_the_environment(capsys, flowing_lexicon, tmp_path,
                                                                         monkeypatch, case):  # fmt: skip
    path = tmp_path / "env.leaves"
    if case == "fifo":
        os.mkfifo(path)
    elif case == "directory":
        path.mkdir()
    else:
        BAD_LEAVE_FILES[case](path)
    monkeypatch.setenv(ENV_VAR, str(path))
    lexicon = str(flowing_lexicon.path)
    with time_limit(120):
        one_line_error(*run_cli(capsys, "solve", "--lexicon", lexicon, EMPTY, "--rack", "KOTAEE", "--json"),
                       "env.leaves")  # fmt: skip
        one_line_error(*run_cli(capsys, "leaves", "show", "ab", "--json"), "env.leaves")
        levels = tmp_path / "levels.toml"
        levels.write_text(USING_LEAVES, encoding="utf-8")
        out = tmp_path / "sim"
        one_line_error(*run_cli(capsys, "simulate", "--players", "uczen,uczen", "--games", "1", "--workers", "1",
                                "--lexicon", lexicon, "--levels", str(levels), "--out", str(out)),
                       "env.leaves")  # fmt: skip
    assert not out.exists() or not any(p.name.endswith((".parquet", ".csv")) for p in out.iterdir())


def test_solve_json_with_extreme_but_valid_values_is_strict_json(capsys, flowing_lexicon, tmp_path):
    path = npz(tmp_path / "edge.leaves", coef=np.full(N_FEATURES, -MAX_LEAVE_VALUE))
    code, out, err = run_cli(capsys, "solve", "--lexicon", str(flowing_lexicon.path), EMPTY, "--rack", "KOTAE?",
                             "--leaves", str(path), "--json", "--all")  # fmt: skip
    assert code == 0, err
    data = strict_json(out)
    assert data["moves"] and all(math.isfinite(m["equity"]) for m in data["moves"])


# --------------------------------------------------------------------------- leaves train: numbers


@pytest.fixture
def run(tmp_path) -> Path:
    return write_run(tmp_path / "run", random_turns(3, games=8))


def train(capsys, run_dir: Path, out: Path, *more: str):
    return run_cli(capsys, "leaves", "train", str(run_dir), "--out", str(out), "--json", *more)


def trained_and_readable(capsys, code: int, stdout: str, err: str, out: Path) -> None:
    assert code == 0, err
    record = strict_json(stdout)
    assert record["out"] == str(out)
    code, shown, err = show(capsys, out)
    assert code == 0, err
    assert len(json_lines(shown)) == 3


@pytest.mark.parametrize(
    ("option", "value", "needle"),
    [("--prior", "inf", "--prior"), ("--prior", "nan", "prior"), ("--prior", "-inf", "prior"),
     ("--prior", "1e400", "--prior"), ("--prior", "-1", "prior"), ("--prior", "1e300", "--prior"),
     ("--min-count", "0", "min-count"), ("--min-count", str(10**30), "--min-count"),
     ("--min-count", "1.5", "min-count"), ("--min-count", "-3", "min-count"), ("--prior", "ten", "prior")],
)  # fmt: skip
def test_leaves_train_refuses_numbers_out_of_range_before_any_work(capsys, tmp_path, option, value, needle):
    out = tmp_path / "x.leaves"
    code, stdout, err = run_cli(capsys, "leaves", "train", str(tmp_path / "no-such-run"), "--out", str(out),
                                option, value)  # fmt: skip
    assert code == 2 and stdout == "" and "Traceback" not in err and needle in err, err
    assert "no-such-run" not in err  # the numbers are checked before the runs are looked at
    nothing_written(out)


@FUZZ
@given(prior=st.one_of(st.floats(), st.sampled_from([0.0, 1e15, 1e16, 5e-324, 1e12])))
def test_any_prior_writes_a_readable_file_or_nothing(capsys, tmp_path_factory, prior):
    folder = tmp_path_factory.mktemp("prior")
    run_dir = write_run(folder / "run", DESIGNED_TURNS)
    out = folder / "p.leaves"
    code, stdout, err = train(capsys, run_dir, out, "--prior", repr(prior), "--min-count", "1")
    if code == 0:
        trained_and_readable(capsys, code, stdout, err, out)
        assert strict_json(stdout)["training"]["prior_strength"] == prior
    else:
        assert code == 2 and "Traceback" not in err and "prior" in err, err
        nothing_written(out)
    assert (code == 0) == (math.isfinite(prior) and 0 <= prior <= 1e15)


@FUZZ
@given(min_count=st.one_of(st.integers(), st.floats().map(repr), st.sampled_from([1, 3, 10**12, 10**12 + 1])))
def test_any_min_count_writes_a_readable_file_or_nothing(capsys, tmp_path_factory, min_count):
    folder = tmp_path_factory.mktemp("mincount")
    run_dir = write_run(folder / "run", DESIGNED_TURNS)
    out = folder / "m.leaves"
    code, stdout, err = train(capsys, run_dir, out, "--min-count", str(min_count))
    if code == 0:
        trained_and_readable(capsys, code, stdout, err, out)
    else:
        assert code == 2 and "Traceback" not in err and "min-count" in err, err
        nothing_written(out)
    if isinstance(min_count, int):
        assert (code == 0) == (1 <= min_count <= 10**12)
    else:  # a decimal number: at best a whole one written with ".0"
        number = float(min_count)
        if not (math.isfinite(number) and number == int(number) and 1 <= number <= 10**12):
            assert code == 2


@settings(FUZZ, max_examples=15)
@given(note=st.text(max_size=40))
def test_any_note_is_kept_in_a_readable_file(capsys, tmp_path_factory, note):
    folder = tmp_path_factory.mktemp("note")
    run_dir = write_run(folder / "run", DESIGNED_TURNS)
    out = folder / "n.leaves"
    trained_and_readable(capsys, *train(capsys, run_dir, out, "--note", note), out)
    assert load_leaves(out).meta["note"] == note


def test_a_lone_surrogate_note_is_refused(capsys, run, tmp_path):
    out = tmp_path / "s.leaves"
    one_line_error(*train(capsys, run, out, "--note", "gen \udcff"), "--note")
    nothing_written(out)


def test_training_on_few_turns_writes_null_not_nan(capsys, tmp_path):
    """Too few frequent leaves to estimate the between-leave variance: null in the file and the
    output (NaN is not JSON), and the file is read back."""
    out = tmp_path / "few.leaves"
    code, stdout, err = train(capsys, write_run(tmp_path / "run", DESIGNED_TURNS), out, "--min-count", "1")
    trained_and_readable(capsys, code, stdout, err, out)
    assert strict_json(stdout)["training"]["between_variance"] is None
    assert load_leaves(out).meta["training"]["between_variance"] is None


def test_training_values_no_leave_file_may_hold_writes_nothing(capsys, tmp_path):
    """Scores of tens of thousands of points (within the table's bounds) learn leaves worth more
    than MAX_LEAVE_VALUE: refused, not written as a file literaki would refuse to read."""
    rows = [r | {"score": r["score"] * 1500} for r in DESIGNED_TURNS]
    out = tmp_path / "wild.leaves"
    one_line_error(*train(capsys, write_run(tmp_path / "run", rows), out, "--min-count", "1", "--prior", "0"),
                   "learned", "points")  # fmt: skip
    nothing_written(out)


# --------------------------------------------------------------------------- leaves train --generations: numbers


@pytest.fixture
def no_playing(monkeypatch):
    """train_generations replaced: reaching it means every check passed (nothing is played)."""
    from literaki_cli.analysis import leave_generations
    from literaki_cli.errors import InputError

    def stub(plan, runner, on_run=None):
        raise InputError("reached the games")

    monkeypatch.setattr(leave_generations, "train_generations", stub)


EDGES = ["1", "1000", "1001", str(10**9), str(2**63), "0x10", "", "1_000"]
GENERATION_NUMBERS = st.one_of(st.integers(), st.integers(-3, 30), st.floats().map(repr), st.sampled_from(EDGES))


@FUZZ
@given(generations=GENERATION_NUMBERS, games=GENERATION_NUMBERS, seed=GENERATION_NUMBERS,
       workers=st.one_of(st.none(), GENERATION_NUMBERS))  # fmt: skip
def test_generation_numbers_are_checked_before_anything_is_played(capsys, tmp_path_factory, no_playing,
                                                                  generations, games, seed, workers):  # fmt: skip
    folder = tmp_path_factory.mktemp("generations")
    out = folder / "g.leaves"
    args = ["leaves", "train", "--generations", str(generations), "--games", str(games), "--seed", str(seed),
            "--lexicon", str(folder / "none.lexicon"), "--out", str(out)]  # fmt: skip
    if workers is not None:
        args += ["--workers", str(workers)]
    code, stdout, err = run_cli(capsys, *args)
    assert code == 2 and stdout == "" and "Traceback" not in err, (code, err)
    reached = "reached the games" in err
    valid = (
        isinstance(generations, int) and 1 <= generations <= 1000 and isinstance(games, int) and 1 <= games <= 10**9
        and isinstance(seed, int) and abs(seed) < 2**62 and (workers is None or isinstance(workers, int)
                                                               and 1 <= workers <= 10_000)
    )  # fmt: skip
    if valid:
        assert reached, err
    if not reached:
        assert not (folder / "g.leaves.runs").exists()
        nothing_written(out)


# --------------------------------------------------------------------------- leaves train: output paths


def output_cases(tmp_path: Path) -> list[tuple[Path, str]]:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    return [(tmp_path / "folder", "is a directory"), (tmp_path / "missing" / "x.leaves", "does not exist"),
            (tmp_path / "file" / "x.leaves", "not a folder"), (tmp_path / "fifo", "not a regular file"),
            (tmp_path / ("n" * 300 + ".leaves"), "too long")]  # fmt: skip


def test_leaves_train_checks_the_output_before_training(capsys, tmp_path):
    empty_run = tmp_path / "empty-run"  # training would fail on it: the output is checked first
    empty_run.mkdir()
    for out, why in output_cases(tmp_path):
        code, stdout, err = run_cli(capsys, "leaves", "train", str(empty_run), "--out", str(out))
        one_line_error(code, stdout, err, why)
        assert "turns" not in err
    for name in os.listdir(tmp_path):
        assert not name.endswith(".partial"), name
    assert (tmp_path / "folder").is_dir() and not any((tmp_path / "folder").iterdir())


def test_leaves_train_generations_checks_the_output_before_playing(capsys, tmp_path, no_playing):
    for out, why in output_cases(tmp_path):
        one_line_error(*run_cli(capsys, "leaves", "train", "--generations", "1", "--games", "2", "--lexicon",
                                str(tmp_path / "none.lexicon"), "--out", str(out)), why)  # fmt: skip
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith((".runs", ".partial"))]


def test_a_write_that_fails_leaves_nothing_behind(capsys, run, tmp_path, monkeypatch):
    out = tmp_path / "full.leaves"
    out.write_bytes(b"the earlier file")
    real = Path.write_bytes

    def disk_full(self, data):
        real(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", disk_full)
    one_line_error(*train(capsys, run, out), "full.leaves", "No space left")
    monkeypatch.undo()
    assert out.read_bytes() == b"the earlier file"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".partial")]


def test_a_failed_training_leaves_an_existing_file_as_it_was(capsys, tmp_path):
    out = tmp_path / "kept.leaves"
    hand_table().save(out)
    before = out.read_bytes()
    bad = write_run(tmp_path / "bad", DESIGNED_TURNS)
    pl.read_parquet(bad / "turns.parquet").with_columns(pl.col("score").cast(pl.Utf8)).write_parquet(
        bad / "turns.parquet"
    )
    one_line_error(*train(capsys, bad, out), "score")
    assert out.read_bytes() == before


# --------------------------------------------------------------------------- leaves train: turns tables


def turns_run(tmp_path: Path, fmt: str, change) -> Path:
    """A run whose turns table is DESIGNED_TURNS changed by ``change`` (a frame -> frame, or for
    CSV a text -> text)."""
    folder = write_run(tmp_path / "run", DESIGNED_TURNS, fmt)
    table = folder / f"turns.{fmt}"
    if fmt == "csv":
        table.write_text(change(table.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        change(pl.read_parquet(table)).write_parquet(table)
    return folder


def csv_cell(column: str, value: str, row: int = 0):
    def change(text: str) -> str:
        lines = text.splitlines()
        header = lines[0].split(",")
        cells = lines[1 + row].split(",")
        cells[header.index(column)] = value
        lines[1 + row] = ",".join(cells)
        return "\n".join(lines) + "\n"

    return change


def csv_late_cell(column: str, value: str):
    """A bad cell after the rows the CSV reader infers the column's type from."""

    def change(text: str) -> str:
        lines = text.splitlines()
        body = lines[1:] * 20
        header = lines[0].split(",")
        cells = body[-1].split(",")
        cells[header.index(column)] = value
        body[-1] = ",".join(cells)
        return "\n".join([lines[0], *body]) + "\n"

    return change


TABLE_CASES = {
    "score text (parquet)": ("parquet", lambda f: f.with_columns(pl.col("score").cast(pl.Utf8)), "score"),
    "gameID text (parquet)": ("parquet", lambda f: f.with_columns(pl.lit("g1").alias("gameID")), "gameID"),
    "turn 1e400 (csv)": ("csv", csv_cell("turn", "1e400"), "turn"),
    "turn inf (parquet)": ("parquet", lambda f: f.with_columns(pl.lit(float("inf")).alias("turn")), "turn"),
    "score 10^30 (csv)": ("csv", csv_cell("score", str(10**30)), "score"),
    "score 10^30 (parquet Int128)": (
        "parquet",
        lambda f: f.with_columns(pl.lit(10**30, dtype=pl.Int128).alias("score")),
        "score",
    ),  # fmt: skip
    "score 10^19 (parquet UInt64)": (
        "parquet",
        lambda f: f.with_columns(pl.lit(10**19, dtype=pl.UInt64).alias("score")),
        "score",
    ),  # fmt: skip
    "score text (csv)": ("csv", csv_cell("score", "many"), "score"),
    "score text late (csv)": ("csv", csv_late_cell("score", "many"), "score"),
    "score 1.5 (csv)": ("csv", csv_cell("score", "1.5"), "score"),
    "score empty (csv)": ("csv", csv_cell("score", ""), "score"),
    "score null (parquet)": (
        "parquet",
        lambda f: f.with_columns(pl.lit(None, dtype=pl.Int64).alias("score")),
        "score",
    ),  # fmt: skip
    "bag 10^15 (parquet)": (
        "parquet",
        lambda f: f.with_columns(pl.lit(10**15).alias("tilesremaining")),
        "tilesremaining",
    ),  # fmt: skip
    "bag negative (csv)": ("csv", csv_cell("tilesremaining", "-4"), "tilesremaining"),
    "turn negative (csv)": ("csv", csv_cell("turn", "-1"), "turn"),
    "kind a list (parquet)": ("parquet", lambda f: f.with_columns(pl.lit([1, 2]).alias("kind")), "kind"),
    "kind a number (csv)": (
        "csv",
        lambda t: t.replace(",place,", ",7,").replace(",pass,", ",8,").replace(",exchange,", ",9,"),
        "kind",
    ),  # fmt: skip
    "leave a number (parquet)": ("parquet", lambda f: f.with_columns(pl.lit(3).alias("leave")), "leave"),
    "playerID a float (parquet)": ("parquet", lambda f: f.with_columns(pl.lit(0.5).alias("playerID")), "playerID"),
    "gameID true (parquet)": ("parquet", lambda f: f.with_columns(pl.lit(True).alias("gameID")), "gameID"),
    "no score column": ("parquet", lambda f: f.drop("score"), "score"),
}


@pytest.mark.parametrize("case", list(TABLE_CASES))
def test_leaves_train_refuses_a_bad_turns_table_naming_file_and_column(capsys, tmp_path, case):
    fmt, change, column = TABLE_CASES[case]
    folder = turns_run(tmp_path, fmt, change)
    out = tmp_path / "t.leaves"
    one_line_error(*train(capsys, folder, out), f"turns.{fmt}", column)
    nothing_written(out)


def test_a_turns_table_that_is_no_table_is_one_line(capsys, tmp_path):
    out = tmp_path / "t.leaves"
    for name, content in [("turns.parquet", b"PAR1 not really"), ("turns.parquet", b""), ("turns.csv", b"\xff\xfe\0"),
                          ("turns.csv", b"")]:  # fmt: skip
        folder = write_run(tmp_path / f"r{len(content)}{name}", DESIGNED_TURNS)
        (folder / "turns.parquet").unlink()
        (folder / name).write_bytes(content)
        one_line_error(*train(capsys, folder, out), str(folder))
    folder = write_run(tmp_path / "fifo", DESIGNED_TURNS)
    (folder / "turns.parquet").unlink()
    os.mkfifo(folder / "turns.parquet")
    with time_limit(120):
        one_line_error(*train(capsys, folder, out), "no turns table")
    nothing_written(out)


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_a_good_table_in_either_format_still_trains(capsys, tmp_path, fmt):
    out = tmp_path / "ok.leaves"
    trained_and_readable(capsys, *train(capsys, write_run(tmp_path / "run", DESIGNED_TURNS, fmt), out), out)


# --------------------------------------------------------------------------- run.json

RUN_JSON_CASES = {
    "nested 5,000 deep": ("[" * 5000 + "]" * 5000, "nested"),
    "nested 100,000 deep": ('{"variant": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
    "variant a list": ('{"variant": ["literaki"]}', "'variant'"),
    "variant a number": ('{"variant": 5}', "'variant'"),
    "variant empty": ('{"variant": ""}', "'variant'"),
    "rules a number": ('{"rules": 3}', "'rules'"),
    "rules a dict": ('{"rules": {"a": 1}}', "'rules'"),
    "game a list": ('{"game": ["literaki"]}', "'game'"),
    "players numbers": ('{"players": [1, 2]}', "'players'"),
    "games true": ('{"games": true}', "'games'"),
    "seed a float": ('{"seed": 1.5}', "'seed'"),
    "not JSON": ("{variant: literaki", "not valid JSON"),
    "NaN": ('{"variant": NaN}', "NaN"),
    "1e400": ('{"seed": 1e400}', "out of range"),
    "a huge integer": ('{"seed": ' + "9" * 5000 + "}", "digits"),
    "a list": ("[1, 2]", "JSON object"),
    "empty": ("", "not valid JSON"),
    "not UTF-8": (b'{"variant": "\xff"}', "UTF-8"),
}


@pytest.mark.parametrize("case", list(RUN_JSON_CASES))
def test_a_bad_run_json_is_one_line_naming_it_and_the_key(capsys, tmp_path, case):
    content, needle = RUN_JSON_CASES[case]
    folder = write_run(tmp_path / "run", DESIGNED_TURNS)
    record = folder / "run.json"
    record.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = tmp_path / "r.leaves"
    one_line_error(*train(capsys, folder, out), "run.json", needle)
    nothing_written(out)
    with pytest.raises(InputError, match="run.json"):
        board_run_settings(folder, "racks")


def test_run_json_absent_is_literaki_and_unreadable_is_an_error(capsys, tmp_path):
    folder = write_run(tmp_path / "run", DESIGNED_TURNS)
    (folder / "run.json").unlink()
    assert board_run_settings(folder, "racks") == {}
    out = tmp_path / "a.leaves"
    trained_and_readable(capsys, *train(capsys, folder, out), out)
    os.mkfifo(folder / "run.json")
    with time_limit(120):
        one_line_error(*train(capsys, folder, tmp_path / "b.leaves"), "run.json", "pipe")
    (folder / "run.json").unlink()
    (folder / "run.json").mkdir()
    one_line_error(*train(capsys, folder, tmp_path / "b.leaves"), "run.json", "directory")
    nothing_written(tmp_path / "b.leaves")


def test_a_run_folder_that_is_not_one(capsys, tmp_path):
    (tmp_path / "a-file").write_text("x")
    out = tmp_path / "x.leaves"
    for folder in (tmp_path / "a-file", tmp_path / "missing", tmp_path / ("d" * 300)):
        one_line_error(*train(capsys, folder, out), "run folder")
    nothing_written(out)
