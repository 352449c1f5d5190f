"""Equity (issue 13): leave files, the compiled leave lookup over move arrays, the bag-end rule,
exchanges, ``solve``'s ranking, training from self-play tables and the levels' leaves.

Every expected value comes from an oracle that shares no code with what it checks: leaves are
racks minus a move's tiles in ``collections.Counter`` arithmetic, leave values come from tables
built here by hand (learned values and model coefficients chosen below) and a plain-Python
feature function written from the documented feature layout, tile colours and values from the
variant file read by ``tests/rules_oracle.py``, and training means from plain Python over rows
designed here.  The helpers (``hand_table``, ``oracle_value``, ``write_run`` ...) are also used
by ``tests/test_leaves_cli.py``.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import zipfile
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from literaki_cli.analysis.positionquery import open_position
from literaki_cli.analysis.solve import solve
from literaki_cli.engine.board import Board
from literaki_cli.engine.movegen import SCORE, MoveGenerator, record_tiles
from literaki_cli.engine.variant import load_variant
from literaki_cli.equity import leaves as lv
from literaki_cli.equity.equity import Equity, EquityRules
from literaki_cli.equity.leaves import (
    ENV_VAR,
    F_BALANCE,
    F_BLANK_PAIR,
    F_COLOUR_PAIRS,
    F_EXTRA,
    F_TILE,
    FORMAT,
    FORMAT_VERSION,
    MAX_COLOURS,
    N_FEATURES,
    N_SLOTS,
    LeaveTable,
    kept_subsets,
    leave_counts,
    load_leaves,
    move_leave_values,
    open_leaves,
    tile_classes,
)
from literaki_cli.equity.train import RIDGE, train
from literaki_cli.errors import InputError
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Game
from literaki_cli.games.players import ComputerPlayer, Level, level_equity, load_levels
from tests.rules_oracle import rules_of

V = load_variant()
RULES = rules_of("literaki")  # the variant file read by the oracle, not by literaki_cli
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "positions"

# --------------------------------------------------------------------------- the oracle

POLISH = "aąbcćdeęfghijklłmnńoóprsśtuwyzźż"  # the 32 letters, codes 1..32 in this order
VOWELS = set("aąeęioóuy")
BLANK = "?"
#: (vowels, consonants) pairs with a sum of at most 6, in the documented order (vowels, then consonants).
BALANCE_PAIRS = [(v, c) for v in range(7) for c in range(7) if v + c <= 6]
#: Colour index of the model: colours ordered by their value (yellow 1, green 2, blue 3, red 5).
COLOUR_INDEX = {colour: i for i, colour in enumerate(sorted(RULES.colour_value, key=RULES.colour_value.get))}
TILE_VALUE = {letter: RULES.colour_value[colour] for letter, colour in RULES.tile_colour.items()}
TILE_LETTERS = "".join(ch for ch in POLISH if ch in RULES.tile_colour)


def slot(ch: str) -> int:
    return 0 if ch == BLANK else POLISH.index(ch) + 1


def canon(leave: str) -> str:
    """One spelling of a multiset of tiles: lower case, sorted."""
    return "".join(sorted(leave.lower()))


def oracle_key(leave: str) -> int:
    """The documented key: tiles sorted by code (blank first), each a base-64 digit code + 1."""
    key = 0
    for s in sorted(slot(ch) for ch in leave.lower()):
        key = key * 64 + s + 1
    return key


def oracle_features(leave: str) -> dict[int, float]:
    """The model's features of a leave, written from the layout in leaves.py's docstring."""
    counts = Counter(leave.lower())
    features: dict[int, float] = defaultdict(float)
    vowels = consonants = 0
    per_colour: Counter = Counter()
    for ch, n in counts.items():
        features[F_TILE + slot(ch)] += n
        if ch == BLANK:
            if n >= 2:
                features[F_BLANK_PAIR] = 1.0
            continue
        if n > 1:
            features[F_EXTRA + slot(ch) - 1] += n - 1
        if ch in VOWELS:
            vowels += n
        else:
            consonants += n
        per_colour[RULES.tile_colour[ch]] += n
    features[F_BALANCE + BALANCE_PAIRS.index((vowels, consonants))] = 1.0
    for colour, n in per_colour.items():
        features[F_COLOUR_PAIRS + COLOUR_INDEX[colour]] = n * (n - 1) / 2
    return features


def oracle_model(leave: str, coef: np.ndarray) -> float:
    return sum(x * float(coef[f]) for f, x in oracle_features(leave).items())


def oracle_value(leave: str, learned: dict[str, float], coef: np.ndarray) -> float:
    """What a leave is worth: 0 when empty, its learned value, else the model's."""
    if not leave:
        return 0.0
    if canon(leave) in learned:
        return learned[canon(leave)]
    return oracle_model(leave, coef)


def oracle_weight(bag: int) -> tuple[float, float]:
    """The documented bag-end rule: full value from 10 tiles in the bag, bag/10 of it below,
    and with an empty bag no value but 2 x the points of every tile kept."""
    if bag <= 0:
        return 0.0, 2.0
    return min(1.0, bag / 10), 0.0


def oracle_leave_equity(leave: str, bag: int, learned: dict[str, float], coef: np.ndarray) -> float:
    weight, kept_factor = oracle_weight(bag)
    kept_points = sum(V.tiles[ch].value for ch in leave if ch != BLANK)  # the variant's TileSpec values
    return weight * oracle_value(leave, learned, coef) - kept_factor * kept_points


def rest_of_rack(rack: str, record: np.ndarray) -> str:
    """The rack minus the tiles a move record lays (a blank laid is a '?' taken from the rack)."""
    tiles, _ = record_tiles(record)
    used = Counter(BLANK if t.blank else t.letter for t in tiles)
    left = Counter(rack) - used
    assert sum(left.values()) == len(rack) - len(tiles), "a move laid a tile the rack does not hold"
    return "".join(sorted(left.elements()))


# --------------------------------------------------------------------------- hand-built tables

#: Learned values chosen by hand (exactly representable as float32: the file stores float32).
LEARNED = {canon(k): v for k, v in {"ab": 6.25, "?": 12.5, "??": 30.0, "?łóż": -3.75, "aa": -2.5, "e": 1.5,
                                    "ekot": 4.0, "k": -0.75}.items()}  # fmt: skip


def hand_coef() -> np.ndarray:
    """A model with a few non-zero coefficients, so values can be worked out on paper."""
    coef = np.zeros(N_FEATURES)
    coef[F_TILE + slot("a")] = 1.5
    coef[F_TILE + slot(BLANK)] = 8.0
    coef[F_EXTRA + slot("a") - 1] = -2.0
    coef[F_BLANK_PAIR] = 5.0
    coef[F_BALANCE + BALANCE_PAIRS.index((1, 1))] = 0.75
    coef[F_BALANCE + BALANCE_PAIRS.index((2, 0))] = -1.25
    coef[F_COLOUR_PAIRS + COLOUR_INDEX["red"]] = -0.5
    coef[F_COLOUR_PAIRS + COLOUR_INDEX["yellow"]] = 0.25
    return coef


def random_coef(seed: int, scale: float = 3.0) -> np.ndarray:
    """Every coefficient non-zero (a mistake in any feature shows up)."""
    rng = np.random.default_rng(seed)
    return rng.normal(0.0, scale, N_FEATURES) + 0.1


def hand_table(learned: dict[str, float] | None = None, coef: np.ndarray | None = None, meta: dict | None = None):
    """A LeaveTable of ``learned`` values (keys computed here) and ``coef``."""
    learned = LEARNED if learned is None else learned
    coef = hand_coef() if coef is None else coef
    pairs = sorted((oracle_key(leave), value) for leave, value in learned.items())
    keys = np.array([k for k, _ in pairs], dtype=np.int64)
    values = np.array([v for _, v in pairs], dtype=np.float64)
    colour_of, vowel = tile_classes(V)
    return LeaveTable(keys, values, np.asarray(coef, dtype=np.float64), colour_of, vowel, meta or {"note": "hand"})


def saved_table(path: Path, learned=None, coef=None) -> tuple[Path, dict[str, float], np.ndarray]:
    learned = LEARNED if learned is None else learned
    coef = hand_coef() if coef is None else coef
    hand_table(learned, coef).save(path)
    return path, learned, coef


# --------------------------------------------------------------------------- 1. the leave file


def test_feature_layout_and_tile_classes_match_the_documented_ones():
    assert (F_TILE, F_EXTRA, F_BLANK_PAIR, F_BALANCE, F_COLOUR_PAIRS, N_FEATURES) == (0, 33, 65, 66, 94, 102)
    assert len(BALANCE_PAIRS) == 28 and N_SLOTS == 33 and MAX_COLOURS == 8
    colour_of, vowel = tile_classes(V)
    assert colour_of[0] == -1 and vowel[0] == 0  # the blank has neither
    for ch in POLISH:
        assert colour_of[slot(ch)] == COLOUR_INDEX[RULES.tile_colour[ch]], ch
        assert vowel[slot(ch)] == (ch in VOWELS), ch


def test_round_trip_learned_model_and_empty(tmp_path):
    path, learned, coef = saved_table(tmp_path / "hand.leaves")
    table = load_leaves(path)
    assert len(table) == len(learned) and table.source == str(path)
    assert table.meta["format"] == FORMAT and table.meta["version"] == FORMAT_VERSION and table.meta["note"] == "hand"
    # Learned values, in any order and case of the letters, blanks included.
    for spelling, expected in [("ab", 6.25), ("BA", 6.25), ("bA", 6.25), ("?", 12.5), ("??", 30.0),
                               ("ŻÓŁ?", -3.75), ("?łóż", -3.75), ("Ó?żŁ", -3.75), ("aa", -2.5), ("E", 1.5),
                               ("TOKE", 4.0), ("k", -0.75)]:  # fmt: skip
        assert table.value(spelling) == expected, spelling
        assert table.learned(spelling), spelling
    # Worked out by hand from hand_coef():
    # AA?: 2 x a 1.5 + blank 8 + one extra A -2 + (2 vowels, 0 consonants) -1.25 + one yellow pair 0.25 = 8.0
    # ŻŹK: no tile values, (0, 3) nothing, Ż and Ź one red pair -0.5 = -0.5
    # AK:  a 1.5 + (1 vowel, 1 consonant) 0.75 = 2.25
    # ??E: 2 x blank 8 + both blanks 5 + (1, 0) nothing = 21.0
    # ĄĘ:  two red vowels: (2, 0) -1.25 + a red pair -0.5 = -1.75
    for spelling, expected in [("aa?", 8.0), ("?AA", 8.0), ("żźk", -0.5), ("KA", 2.25), ("e??", 21.0), ("ĄĘ", -1.75)]:
        assert not table.learned(spelling), spelling
        assert table.value(spelling) == pytest.approx(expected, abs=1e-12), spelling
        assert table.model(spelling) == pytest.approx(expected, abs=1e-12), spelling
    assert table.value("") == 0.0 and table.model("") == 0.0 and not table.learned("")
    # A learned leave keeps a model value of its own (what `leaves show` prints beside it).
    assert table.model("ab") == pytest.approx(oracle_model("ab", coef), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(
    leave=st.lists(st.sampled_from(TILE_LETTERS + BLANK), min_size=1, max_size=6).map("".join),
    learn_it=st.booleans(),
    data=st.data(),
)
def test_value_is_the_oracle_and_ignores_order_and_case(leave, learn_it, data):
    coef = random_coef(1)
    learned = LEARNED | ({canon(leave): 7.5} if learn_it else {})
    table = hand_table(learned, coef)
    assert table.value(leave) == pytest.approx(oracle_value(leave, learned, coef), rel=1e-12, abs=1e-12)
    shuffled = "".join(data.draw(st.permutations(leave)))
    recased = "".join(ch.upper() if data.draw(st.booleans()) else ch for ch in shuffled)
    assert table.value(recased) == table.value(leave)
    assert table.learned(recased) == (canon(leave) in learned)


def test_model_values_every_leave_with_a_random_model(tmp_path):
    coef = random_coef(7)
    path, learned, _ = saved_table(tmp_path / "r.leaves", coef=coef)
    table = load_leaves(path)
    rng = random.Random(3)
    for _ in range(300):
        leave = "".join(rng.choice(TILE_LETTERS + BLANK) for _ in range(rng.randint(1, 6)))
        assert table.value(leave) == pytest.approx(oracle_value(leave, learned, coef), rel=1e-12, abs=1e-12), leave


def test_saved_values_are_float32_and_the_file_is_replaced_atomically(tmp_path):
    path = tmp_path / "t.leaves"
    hand_table({"ab": 0.1}).save(path)
    assert load_leaves(path).value("ab") == float(np.float32(0.1))
    hand_table({"ab": 2.0}).save(path)  # overwritten whole, no .partial left behind
    assert load_leaves(path).value("ab") == 2.0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.leaves"]


# --------------------------------------------------------------------------- 2. bad leave files


def good_arrays() -> dict:
    table = hand_table()
    return {
        "keys": table.keys, "values": table.values.astype(np.float32), "coef": table.coef,
        "colour_of": table.colour_of, "vowel": table.vowel,
        "meta": np.array(json.dumps({"format": FORMAT, "version": FORMAT_VERSION})),
    }  # fmt: skip


def write_npz(path: Path, **changes) -> Path:
    """A leave file whose arrays differ from a good one's by ``changes`` (None: left out)."""
    arrays = good_arrays() | changes
    with open(path, "wb") as f:
        np.savez(f, **{name: a for name, a in arrays.items() if a is not None})
    return path


def unsorted_keys():
    keys = good_arrays()["keys"].copy()
    keys[[0, 1]] = keys[[1, 0]]
    return keys


def nan_values():
    values = good_arrays()["values"].copy()
    values[2] = np.nan
    return values


BAD_FILES = {
    "coef missing": ({"coef": None}, "coef"),
    "meta missing": ({"meta": None}, "meta"),
    "other format": ({"meta": np.array(json.dumps({"format": "scrabble-leaves", "version": 1}))}, "format"),
    "newer version": ({"meta": np.array(json.dumps({"format": FORMAT, "version": 2}))}, "version 2"),
    "meta not JSON": ({"meta": np.array("{format")}, "metadata"),
    "unsorted keys": ({"keys": unsorted_keys()}, "ascending"),
    "duplicate keys": ({"keys": np.sort(np.r_[good_arrays()["keys"][:1], good_arrays()["keys"][:-1]])}, "ascending"),
    "negative key": ({"keys": np.r_[np.int64(-5), good_arrays()["keys"][1:]]}, "ascending"),
    "NaN value": ({"values": nan_values()}, "finite"),
    "infinite coef": ({"coef": np.full(N_FEATURES, np.inf)}, "finite"),
    "short coef": ({"coef": np.zeros(N_FEATURES - 1)}, "coef has shape"),
    "long colour_of": ({"colour_of": np.zeros(N_SLOTS + 1, dtype=np.int64)}, "colour_of has shape"),
    "colour out of range": ({"colour_of": np.full(N_SLOTS, MAX_COLOURS, dtype=np.int64)}, "colour"),
    "values shorter than keys": ({"values": good_arrays()["values"][:-1]}, "one length"),
    "float keys": ({"keys": good_arrays()["keys"].astype(np.float64)}, "one length"),
}

BAD_DTYPES = {
    "text values": {"values": np.array(["x"] * len(LEARNED))},
    "text coef": {"coef": np.array(["x"] * N_FEATURES)},
    "text colour_of": {"colour_of": np.array(["a"] * N_SLOTS)},
    "text vowel": {"vowel": np.array(["a"] * N_SLOTS)},
}


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_a_bad_leave_file_is_an_input_error_naming_it(tmp_path, case):
    changes, why = BAD_FILES[case]
    path = write_npz(tmp_path / "bad.leaves", **changes)
    with pytest.raises(InputError) as caught:
        load_leaves(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and why in message and "\n" not in message


def test_a_missing_array_is_named_plainly(tmp_path):
    with pytest.raises(InputError, match="array 'coef' missing"):
        load_leaves(write_npz(tmp_path / "bad.leaves", coef=None))


@pytest.mark.parametrize(
    "case",
    list(BAD_DTYPES),
)
def test_arrays_of_the_wrong_kind_are_an_input_error(tmp_path, case):
    path = write_npz(tmp_path / "bad.leaves", **BAD_DTYPES[case])
    with pytest.raises(InputError, match="bad.leaves"):
        load_leaves(path)


def test_missing_file_and_files_that_are_no_archive(tmp_path):
    with pytest.raises(InputError, match=re.escape(f"{tmp_path / 'none.leaves'}: no such leave file")):
        load_leaves(tmp_path / "none.leaves")
    with pytest.raises(InputError, match="no such leave file"):
        load_leaves(tmp_path)  # a folder
    for name, content in [("text.leaves", b"hello, not a zip\n"), ("empty.leaves", b"")]:
        (tmp_path / name).write_bytes(content)
        with pytest.raises(InputError, match=re.escape(f"{tmp_path / name}: not a usable leave file")):
            load_leaves(tmp_path / name)
    good = tmp_path / "good.leaves"
    hand_table().save(good)
    (tmp_path / "half.leaves").write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(InputError, match="half.leaves: not a usable leave file"):
        load_leaves(tmp_path / "half.leaves")
    with zipfile.ZipFile(tmp_path / "other.leaves", "w") as z:  # a zip, but no arrays of ours
        z.writestr("readme.txt", "hi")
    with pytest.raises(InputError, match="other.leaves: not a usable leave file .*missing"):
        load_leaves(tmp_path / "other.leaves")


def test_a_single_array_file_is_an_input_error(tmp_path):
    path = tmp_path / "one.leaves"
    with open(path, "wb") as f:
        np.save(f, np.arange(3))
    with pytest.raises(InputError, match="one.leaves"):
        load_leaves(path)


def test_damaged_compressed_data_is_an_input_error(tmp_path):
    rng = random.Random(0)
    learned = {
        canon("".join(rng.choice(TILE_LETTERS) for _ in range(rng.randint(1, 6)))): rng.uniform(-9, 9)
        for _ in range(3000)
    }
    good = tmp_path / "good.leaves"
    hand_table(learned).save(good)
    with zipfile.ZipFile(good) as archive:
        start = archive.getinfo("keys.npy").header_offset + 30 + len("keys.npy")  # the local header's fixed part
        assert archive.getinfo("keys.npy").compress_size > 1000
    data = bytearray(good.read_bytes())
    for i in range(start + 100, start + 140):  # inside the deflate stream of the keys
        data[i] ^= 0xFF
    (tmp_path / "damaged.leaves").write_bytes(bytes(data))
    with pytest.raises(InputError, match="damaged.leaves"):
        load_leaves(tmp_path / "damaged.leaves")


@pytest.mark.parametrize("leave", ["x", "ax", "1", "a1", "a b", "abcdefg", "???????", "AAAAAAA"])
def test_leave_counts_refuses_what_is_not_a_leave(leave):
    with pytest.raises(InputError, match="leave"):
        leave_counts(leave)


def test_leave_counts_of_text():
    counts = leave_counts(" Ż?ża ")
    expected = np.zeros(64, dtype=np.int64)
    expected[[slot("ż"), slot("?"), slot("a")]] = [2, 1, 1]
    assert np.array_equal(counts, expected)
    assert lv.counts_text(counts) == "ażż?"  # letters in Polish order, blanks last


def test_open_leaves_honours_the_environment_variable(tmp_path, monkeypatch):
    path, _, _ = saved_table(tmp_path / "env.leaves", learned={"ab": 99.0})
    monkeypatch.setenv(ENV_VAR, str(path))
    table = open_leaves(None)
    assert table.source == str(path) and table.value("ba") == 99.0
    assert open_leaves(path) is table  # read once per file version
    missing = tmp_path / "gone.leaves"
    monkeypatch.setenv(ENV_VAR, str(missing))
    with pytest.raises(InputError) as caught:
        open_leaves(None)
    assert str(missing) in str(caught.value) and "$LITERAKI_LEAVES" in str(caught.value)
    with pytest.raises(InputError) as caught:  # a path given directly is not blamed on the variable
        open_leaves(tmp_path / "other.leaves")
    assert "other.leaves" in str(caught.value) and "$LITERAKI_LEAVES" not in str(caught.value)
    monkeypatch.delenv(ENV_VAR)
    assert Path(open_leaves(None).source) == lv.SHIPPED


def test_open_leaves_rereads_a_file_that_changed(tmp_path):
    path, _, _ = saved_table(tmp_path / "c.leaves", learned={"ab": 1.0})
    assert open_leaves(path).value("ab") == 1.0
    hand_table({"ab": 2.0}).save(path)
    stamp = path.stat().st_mtime + 5
    os.utime(path, (stamp, stamp))
    assert open_leaves(path).value("ab") == 2.0


def test_the_shipped_file_loads_and_values_every_leave():
    table = load_leaves(lv.SHIPPED)
    assert table.meta["format"] == FORMAT and len(table) > 0
    assert np.all(np.diff(table.keys) > 0)
    rng = random.Random(5)
    for _ in range(50):
        leave = "".join(rng.choice(TILE_LETTERS + BLANK) for _ in range(rng.randint(1, 6)))
        assert math.isfinite(table.value(leave))


# --------------------------------------------------------------------------- 3. leave values of generated moves


@pytest.fixture(scope="module")
def boards():
    text = (EXAMPLES / "10-early-9tiles-0blank.cgp").read_text(encoding="utf-8")
    return {"empty": Board.for_variant(V), "early": open_position(text, None, None, None, False)[0].board}


@pytest.fixture(scope="module")
def generator(flowing_lexicon):
    return MoveGenerator(flowing_lexicon, V)


# Racks with one and two blanks, duplicates, Polish letters; 8 to 22,700 moves each.
BOARD_RACKS = [("empty", "kota?ee"), ("early", "kota?ee"), ("empty", "aab??żk"), ("empty", "ąęółśćń"),
               ("early", "ąęółśćń"), ("early", "ey")]  # fmt: skip


def rack_leaves_table(rack: str, seed: int) -> tuple[LeaveTable, dict[str, float], np.ndarray]:
    """A table learning every other leave the rack can keep (values at random), the model the rest."""
    rng = random.Random(seed)
    kept = sorted({canon("".join(k)) for size in range(1, len(rack)) for k in itertools.combinations(rack, size)})
    learned = {leave: round(rng.uniform(-20, 20), 2) for leave in kept[::2]}
    coef = random_coef(seed)
    return hand_table(learned, coef), learned, coef


@pytest.mark.parametrize(("board_name", "rack"), BOARD_RACKS)
def test_move_leave_values_match_counter_arithmetic(generator, boards, board_name, rack):
    table, learned, coef = rack_leaves_table(rack, seed=len(rack))
    equity = Equity(table, V)
    records = generator.generate(boards[board_name], rack).records
    assert records.shape[0] > 0
    leaves = [rest_of_rack(rack, rec) for rec in records]
    sources = Counter("empty" if not leave else "learned" if canon(leave) in learned else "model" for leave in leaves)
    if len(rack) > 1:
        assert sources["learned"] and sources["model"], sources  # both paths of the lookup ran
    for bag in (86, 10, 9, 5, 1, 0):
        got = equity.leave_values(records, rack, bag)
        expected = np.array([oracle_leave_equity(leave, bag, learned, coef) for leave in leaves])
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9, err_msg=f"bag {bag}")
        equities, leave_part = equity.equities(records, rack, bag)
        np.testing.assert_allclose(equities, records[:, SCORE] + expected, rtol=1e-12, atol=1e-9)
        np.testing.assert_array_equal(leave_part, got)
    # The raw kernel with any weight and any cost of kept tiles.
    got = move_leave_values(records, rack, table, equity.tile_value, 0.3, 1.5)
    expected = [0.3 * oracle_value(leave, learned, coef) - 1.5 * sum(TILE_VALUE.get(ch, 0) for ch in leave)
                for leave in leaves]  # fmt: skip
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-9)


def test_bag_end_rule_by_hand(generator, boards):
    """With only AB learned (6.25) and a zero model: half of it with 5 tiles in the bag, and with
    an empty bag -2 x the kept tiles' points (A yellow 1, B blue 3, blank 0)."""
    table = hand_table({"ab": 6.25}, np.zeros(N_FEATURES))
    equity = Equity(table, V)
    assert equity.leave_value("ab", 50) == 6.25 and equity.leave_value("BA", 10) == 6.25
    assert equity.leave_value("ab", 5) == 3.125 and equity.leave_value("ab", 1) == 0.625
    assert equity.leave_value("ab", 0) == -2 * (1 + 3)
    assert equity.leave_value("ab?", 0) == -8 and equity.leave_value("żź", 0) == -2 * (5 + 5)
    assert equity.leave_value("", 0) == 0 and equity.leave_value("", 40) == 0
    rack = "abkot"
    records = generator.generate(boards["empty"], rack).records
    leaves = [rest_of_rack(rack, rec) for rec in records]
    keeps_ab = [i for i, leave in enumerate(leaves) if canon(leave) == "ab"]
    assert keeps_ab  # KOT, OK, TO ... leave AB
    for bag, expected in ((40, 6.25), (5, 3.125)):
        values = equity.leave_values(records, rack, bag)
        assert all(values[i] == expected for i in keeps_ab)
    zero = equity.leave_values(records, rack, 0)
    for i, leave in enumerate(leaves):
        assert zero[i] == -2 * sum(V.tiles[ch].value for ch in leave)
    custom = Equity(table, V, EquityRules(shrink_below=20, kept_tile_factor=1.0))
    assert custom.leave_value("ab", 5) == 6.25 * 5 / 20 and custom.leave_value("ab", 0) == -4


# --------------------------------------------------------------------------- 4. exchanges


def distinct_kept(rack: str) -> set[tuple[str, ...]]:
    return {tuple(sorted(kept)) for size in range(len(rack)) for kept in itertools.combinations(rack, size)}


@pytest.mark.parametrize("rack", ["kota?ee", "aab??żk", "aaaaaaa", "ż", "ab"])
@pytest.mark.parametrize("bag", [60, 5])
def test_exchanges_list_every_kept_multiset_once_best_first(rack, bag):
    table, learned, coef = rack_leaves_table(rack, seed=11)
    weight, _ = oracle_weight(bag)
    options = Equity(table, V).exchanges(rack, bag, limit=None)
    kept = [tuple(sorted(o.keep)) for o in options]
    assert len(kept) == len(set(kept)) and set(kept) == distinct_kept(rack)
    for o in options:
        assert Counter(o.tiles) + Counter(o.keep) == Counter(rack) and o.tiles  # at least one tile returned
        assert o.equity == pytest.approx(weight * oracle_value(o.keep, learned, coef), rel=1e-12, abs=1e-12)
    equities = [o.equity for o in options]
    assert all(a >= b for a, b in itertools.pairwise(equities))
    best = max(weight * oracle_value("".join(k), learned, coef) for k in distinct_kept(rack))
    assert options[0].equity == pytest.approx(best, rel=1e-12, abs=1e-12)
    for a, b in itertools.pairwise(options):  # ties: the fewer tiles returned first
        if a.equity == b.equity:
            assert len(a.tiles) <= len(b.tiles)
    top = Equity(table, V).exchanges(rack, bag, limit=3)
    assert [(o.tiles, o.keep) for o in top] == [(o.tiles, o.keep) for o in options[:3]]
    (first,) = Equity(table, V).exchanges(rack, bag, limit=1)
    assert first.equity == options[0].equity and len(first.keep) == len(options[0].keep)


def test_exchange_ties_prefer_keeping_more_and_an_empty_rack_has_none():
    table = hand_table({}, np.zeros(N_FEATURES))  # every leave worth 0
    options = Equity(table, V).exchanges("abc", 50, limit=None)
    assert [len(o.keep) for o in options] == sorted((len(o.keep) for o in options), reverse=True)
    assert len(options) == 7 and len(options[0].keep) == 2
    (first,) = Equity(table, V).exchanges("abc", 50, limit=1)
    assert len(first.keep) == 2 and len(first.tiles) == 1
    assert Equity(table, V).exchanges("", 50) == []
    counts, values = kept_subsets("", table)
    assert counts.shape[0] == 0 and values.shape[0] == 0


def test_keeping_a_blank_worth_1000_is_the_best_exchange():
    table = hand_table({"?": 1000.0}, np.zeros(N_FEATURES))
    best = Equity(table, V).exchanges("kot?aee", 50, limit=1)[0]
    assert best.keep == "?" and Counter(best.tiles) == Counter("kotaee") and best.equity == 1000.0


# --------------------------------------------------------------------------- 5. solve (library)


def solve_all(flowing_lexicon, board, rack, bag, by="equity", exchanges=3, table=None):
    table = table or rack_leaves_table(rack, seed=3)[0]
    return solve(board, V, flowing_lexicon, rack, top=None, equity=Equity(table, V), bag=bag, by=by,
                 exchanges=exchanges)  # fmt: skip


@pytest.mark.parametrize(("rack", "bag"), [("kotaee", 86), ("ąęółśćń", 7), ("ąęółśćń", 6), ("ęż?", 3), ("kotaee", 0)])
def test_solve_ranks_by_equity_and_lists_exchanges_while_allowed(flowing_lexicon, boards, rack, bag):
    table, learned, coef = rack_leaves_table(rack, seed=3)
    result = solve_all(flowing_lexicon, boards["empty"], rack, bag, table=table)
    assert result.by == "equity" and result.bag == bag and result.moves and result.count == len(result.moves)
    for m in result.moves:
        leave = "".join(sorted((Counter(rack) - Counter(BLANK if t.blank else t.letter for t in m.tiles)).elements()))
        assert canon(m.leave) == canon(leave)
        assert m.leave_value == pytest.approx(oracle_leave_equity(leave, bag, learned, coef), abs=5e-4)
        assert abs(m.equity - (m.score + m.leave_value)) <= 1e-9
    equities = [m.equity for m in result.moves]
    assert all(a >= b for a, b in itertools.pairwise(equities))
    by_score = solve_all(flowing_lexicon, boards["empty"], rack, bag, by="score", table=table)
    scores = [m.score for m in by_score.moves]
    assert by_score.by == "score" and all(a >= b for a, b in itertools.pairwise(scores))
    key = lambda m: (m.coord, m.word, tuple((t.row, t.col, t.letter, t.blank) for t in m.tiles))  # noqa: E731
    assert sorted(map(key, by_score.moves)) == sorted(map(key, result.moves))
    allowed = bag >= 7
    assert result.exchange_allowed == allowed
    if allowed:
        assert len(result.exchanges) == 3
        weight, _ = oracle_weight(bag)
        ranked = sorted((weight * oracle_value("".join(k), learned, coef) for k in distinct_kept(rack)), reverse=True)
        assert [e.equity for e in result.exchanges] == pytest.approx(ranked[:3], abs=1e-9)
    else:
        assert result.exchanges == []
    none = solve(boards["empty"], V, flowing_lexicon, rack, top=1, equity=Equity(table, V), bag=bag, exchanges=0)
    assert none.exchanges == [] and none.moves[0].equity == result.moves[0].equity


def test_solve_refuses_an_unknown_ranking(flowing_lexicon, boards):
    with pytest.raises(InputError, match="banana"):
        solve_all(flowing_lexicon, boards["empty"], "kot", 50, by="banana")


# --------------------------------------------------------------------------- 6. training


def turn_row(game, player, turn, kind, score, leave, remaining):
    return {"gameID": game, "playerID": player, "turn": turn, "kind": kind, "score": score, "leave": leave,
            "tilesremaining": remaining, "rack": "", "play": "", "totalscore": 0, "tilesplayed": 0,
            "equity": float(score), "oppscore": 0}  # fmt: skip


#: A game designed so the means can be worked out on paper (see EXPECTED_MEANS).
DESIGNED_TURNS = [
    # game 2 first in the file: its two turns have no next turn of their player (left out), and
    # game 1's last turns must not borrow its scores.
    turn_row(2, "p1", 0, "place", 50, "BA", 58),
    turn_row(2, "p2", 1, "place", 7, "Ę", 51),
    # game 1, shuffled below.  p1: 10, 20, pass, exchange, 14, 5, 9; p2: 12, 16, 30, 8, 20.
    turn_row(1, "p1", 0, "place", 10, "BA", 58),  # stage 5, next 20
    turn_row(1, "p2", 1, "place", 12, "AB", 56),  # stage 5, next 16
    turn_row(1, "p1", 2, "place", 20, "", 52),  # stage 5, next 0 (a pass)
    turn_row(1, "p2", 3, "place", 16, "?Ż", 50),  # stage 5, next 30
    turn_row(1, "p1", 4, "pass", 0, "BA?", 50),  # a pass: left out
    turn_row(1, "p2", 5, "place", 30, "Ż?", 47),  # stage 4, next 8
    turn_row(1, "p1", 6, "exchange", 0, "AB", 47),  # stage 4, next 14
    turn_row(1, "p2", 7, "place", 8, "", 40),  # stage 4, next 20
    turn_row(1, "p1", 8, "place", 14, "E", 25),  # stage 2, next 5
    turn_row(1, "p2", 9, "place", 20, "E", 10),  # p2's last turn: left out
    turn_row(1, "p1", 10, "place", 5, "E", 0),  # an empty bag: left out, though p1 plays again
    turn_row(1, "p1", 11, "place", 9, "E", 0),  # an empty bag, and no next turn
]
# Stage 5 next scores 20, 16, 0, 30: mean 16.5; stage 4: 8, 14, 20: mean 14; stage 2: 5.
# AB: 20 - 16.5, 16 - 16.5, 14 - 14 = 3.5, -0.5, 0 -> 1.0;  empty: 0 - 16.5, 20 - 14 -> -5.25;
# ?Ż: 30 - 16.5, 8 - 14 -> 3.75;  E: 5 - 5 -> 0.  Stored: each minus the empty leave's mean.
EXPECTED_MEANS = {"ab": 1.0, "": -5.25, "?ż": 3.75, "e": 0.0}
EXPECTED_VALUES = {"ab": 6.25, "?ż": 9.0, "e": 5.25}
EXPECTED_COUNTS = {"ab": 3, "": 2, "?ż": 2, "e": 1}


def write_run(folder: Path, rows: list[dict], fmt: str = "parquet", seed: int = 0) -> Path:
    """A run folder as `literaki simulate --out` leaves it: run.json and a turns table."""
    import polars as pl

    from literaki_cli.analysis.simulate import load_run_config

    folder.mkdir(parents=True, exist_ok=True)
    rows = list(rows)
    random.Random(seed).shuffle(rows)  # the table's order must not matter
    frame = pl.DataFrame(rows)
    if fmt == "parquet":
        frame.write_parquet(folder / "turns.parquet")
    else:
        frame.write_csv(folder / "turns.csv")
    players = sorted({r["playerID"] for r in rows})
    record = {"players": players, "games": len({r["gameID"] for r in rows}), "seed": 0, "variant": "literaki",
              "rules": None, "levels": None, "lexicon": "/nowhere/x.lexicon", "gcg": False, "game": "literaki",
              "leaves": None}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(record), encoding="utf-8")
    assert load_run_config(folder).players == players  # what simulate would read back
    return folder


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_training_gives_the_designed_means(tmp_path, fmt):
    run = write_run(tmp_path / "run", DESIGNED_TURNS, fmt)
    table, report = train([run], V, min_count=1, prior=0)
    assert report.turns == sum(EXPECTED_COUNTS.values()) == 8 and report.games == 1
    assert report.distinct_leaves == 4 and report.stored_leaves == 3 and len(table) == 3
    assert report.empty_leave_offset == pytest.approx(EXPECTED_MEANS[""], abs=1e-12)
    assert report.mean_next_score == pytest.approx((20 + 16 + 0 + 30 + 8 + 14 + 20 + 5) / 8, abs=1e-12)
    for leave, value in EXPECTED_VALUES.items():
        for spelling in {leave, leave[::-1], leave.upper()}:
            assert table.learned(spelling) and table.value(spelling) == pytest.approx(value, abs=1e-12), spelling
    assert not table.learned("") and table.value("") == 0.0 and not table.learned("ab?")
    assert table.meta["variant"] == "literaki" and table.meta["min_count"] == 1
    table.save(tmp_path / "t.leaves")
    loaded = load_leaves(tmp_path / "t.leaves")
    for leave, value in EXPECTED_VALUES.items():
        assert loaded.value(leave) == value  # exact in float32 too


def test_training_min_count_leaves_rare_leaves_to_the_model(tmp_path):
    run = write_run(tmp_path / "run", DESIGNED_TURNS)
    table, report = train([run], V, min_count=2, prior=0)
    assert report.stored_leaves == 2 and table.learned("ab") and table.learned("ż?") and not table.learned("e")
    assert table.value("e") == table.model("e")
    assert table.value("ab") == pytest.approx(6.25, abs=1e-12)


def test_training_two_runs_keeps_their_games_apart(tmp_path):
    """The same game numbers and players in two runs: a turn's next turn stays in its own run."""
    first = write_run(tmp_path / "a", DESIGNED_TURNS)
    second = write_run(tmp_path / "b", DESIGNED_TURNS, seed=1)
    table, report = train([first, second], V, min_count=1, prior=0)
    assert report.turns == 16 and report.games == 2
    for leave, value in EXPECTED_VALUES.items():
        assert table.value(leave) == pytest.approx(value, abs=1e-12)


def oracle_training(rows: list[dict]) -> tuple[dict[str, float], dict[str, int]]:
    """Per leave: the mean outcome (next-turn score minus its stage's mean) and the count."""
    by_player = defaultdict(list)
    for r in rows:
        by_player[(r["gameID"], r["playerID"])].append(r)
    samples = []
    for turns in by_player.values():
        turns.sort(key=lambda r: r["turn"])
        for r, nxt in itertools.pairwise(turns):
            if r["kind"] in ("place", "exchange") and r["tilesremaining"] > 0 and len(r["leave"]) <= 6:
                samples.append((r["tilesremaining"] // 10, canon(r["leave"]), nxt["score"]))
    stage_scores = defaultdict(list)
    for stage, _, score in samples:
        stage_scores[stage].append(score)
    outcomes = defaultdict(list)
    for stage, leave, score in samples:
        outcomes[leave].append(score - sum(stage_scores[stage]) / len(stage_scores[stage]))
    return {k: sum(v) / len(v) for k, v in outcomes.items()}, {k: len(v) for k, v in outcomes.items()}


def random_turns(seed: int, games: int = 30) -> list[dict]:
    rng = random.Random(seed)
    # AB + ED and AD + EB have the same features: the model cannot fit every mean exactly.
    pool = ["A", "AB", "BA", "?", "E?", "?E", "KOT", "TOK", "", "ŻÓŁ", "AA", "ĄĘ", "ZZ", "AD", "ED", "EB", "DE"]
    rows = []
    for game in range(games):
        remaining = 86
        for turn in range(rng.randint(4, 24)):
            kind = rng.choices(["place", "exchange", "pass"], [8, 1, 1])[0]
            score = rng.randint(0, 60) if kind == "place" else 0
            remaining = max(0, remaining - rng.randint(0, 7))
            rows.append(turn_row(game, f"p{turn % 2}", turn, kind, score, rng.choice(pool), remaining))
    return rows


def test_training_on_random_games_matches_a_plain_python_computation(tmp_path):
    rows = random_turns(5)
    means, counts = oracle_training(rows)
    assert "" in means and len(means) > 5
    table, report = train([write_run(tmp_path / "run", rows)], V, min_count=3, prior=0)
    assert report.turns == sum(counts.values()) and report.distinct_leaves == len(means)
    for leave, mean in means.items():
        if not leave:
            continue
        assert table.learned(leave) == (counts[leave] >= 3), leave
        if counts[leave] >= 3:
            assert table.value(leave) == pytest.approx(mean - means[""], abs=1e-9), leave


def test_a_huge_prior_gives_the_model_a_least_squares_fit(tmp_path):
    rows = random_turns(8, games=60)
    means, counts = oracle_training(rows)
    table, report = train([write_run(tmp_path / "run", rows)], V, min_count=1, prior=1e12)
    assert report.prior_strength == 1e12
    # The model: ridge regression of the means on the features, each leave weighted by its count.
    leaves = sorted(means)
    x = np.zeros((len(leaves), N_FEATURES))
    for i, leave in enumerate(leaves):
        for f, value in oracle_features(leave).items():
            x[i, f] = value
    w = np.array([counts[leave] for leave in leaves], dtype=float)
    y = np.array([means[leave] for leave in leaves])
    beta = np.linalg.solve(x.T @ (w[:, None] * x) + RIDGE * np.eye(N_FEATURES), x.T @ (w * y))
    fitted = dict(zip(leaves, x @ beta, strict=True))
    differs = 0
    for leave in leaves:
        if not leave:
            continue
        assert table.value(leave) == pytest.approx(table.model(leave), abs=1e-6), leave
        assert table.model(leave) == pytest.approx(fitted[leave] - fitted[""], abs=1e-4), leave
        differs += abs(table.value(leave) - (means[leave] - means[""])) > 0.01
    assert differs  # the model does not simply repeat the means: the prior did something
    shrunk, _ = train([write_run(tmp_path / "run2", rows)], V, min_count=1, prior=None)
    assert shrunk.meta["training"]["prior_strength"] >= 1.0


def test_training_refuses_runs_with_nothing_to_learn(tmp_path):
    with pytest.raises(InputError, match="no turns table"):
        train([tmp_path], V)
    only_passes = [turn_row(1, "p1", t, "pass", 0, "AB", 50) for t in range(4)]
    with pytest.raises(InputError, match="nothing to learn"):
        train([write_run(tmp_path / "p", only_passes)], V)
    (tmp_path / "q").mkdir()
    import polars as pl

    pl.DataFrame({"gameID": [1], "turn": [0]}).write_parquet(tmp_path / "q" / "turns.parquet")
    with pytest.raises(InputError, match="no column"):
        train([tmp_path / "q"], V)


# --------------------------------------------------------------------------- 8. levels and players

LEVEL_TEMPLATE = """
[uses]
vocabulary = "all"
quantile = [0, 0]
exchange_below = -1000
{line}
"""


def write_levels(folder: Path, line: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "levels.toml"
    path.write_text(LEVEL_TEMPLATE.format(line=line), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("line", "expected"),
    [("", "default"), ('leaves = "none"', "none"), ('leaves = "default"', "default")],
)
def test_level_leaves_keywords(tmp_path, line, expected):
    assert load_levels(write_levels(tmp_path, line))["uses"].leaves == expected


def test_level_leaves_path_is_relative_to_the_levels_file(tmp_path, monkeypatch):
    levels = write_levels(tmp_path / "conf", 'leaves = "sub/my.leaves"')
    monkeypatch.chdir(tmp_path)  # not the levels file's folder
    level = load_levels(levels)["uses"]
    assert level.leaves == str((tmp_path / "conf" / "sub" / "my.leaves").resolve())
    absolute = (tmp_path / "abs.leaves").resolve()
    assert load_levels(write_levels(tmp_path / "c2", f'leaves = "{absolute}"'))["uses"].leaves == str(absolute)


@pytest.mark.parametrize("value", ["3", "true", '["a"]', '""', '"   "'])
def test_level_leaves_bad_value_names_the_file_and_key(tmp_path, value):
    levels = write_levels(tmp_path, f"leaves = {value}")
    with pytest.raises(InputError) as caught:
        load_levels(levels)
    assert str(levels) in str(caught.value) and "leaves" in str(caught.value) and "[uses]" in str(caught.value)


def test_default_leaves_replace_only_the_default(tmp_path):
    path = tmp_path / "levels.toml"
    path.write_text(
        "\n".join(LEVEL_TEMPLATE.replace("[uses]", f"[{name}]").format(line=line) for name, line in [
            ("plain", 'leaves = "none"'), ("own", 'leaves = "mine.leaves"'), ("dflt", 'leaves = "default"'),
            ("unset", "")]),
        encoding="utf-8",
    )  # fmt: skip
    chosen = tmp_path / "x" / ".." / "chosen.leaves"
    levels = load_levels(path, default_leaves=chosen)
    resolved = str((tmp_path / "chosen.leaves").resolve())
    assert levels["plain"].leaves == "none" and levels["own"].leaves == str((tmp_path / "mine.leaves").resolve())
    assert levels["dflt"].leaves == resolved and levels["unset"].leaves == resolved
    assert load_levels(path)["dflt"].leaves == "default"


def test_level_equity_picks_the_file(tmp_path, monkeypatch):
    own, _, _ = saved_table(tmp_path / "own.leaves", learned={"ab": 1.0})
    other, _, _ = saved_table(tmp_path / "other.leaves", learned={"ab": 2.0})
    env, _, _ = saved_table(tmp_path / "env.leaves", learned={"ab": 3.0})
    monkeypatch.setenv(ENV_VAR, str(env))
    base = Level("x", "X", "all", 0, 0, -1000, "", 0)
    assert level_equity(Level("x", "X", "all", 0, 0, -1000, "", 0, leaves="none"), V, other) is None
    assert level_equity(Level("x", "X", "all", 0, 0, -1000, "", 0, leaves=str(own)), V, other).leaves.value("ab") == 1
    assert level_equity(base, V, other).leaves.value("ab") == 2.0
    assert level_equity(base, V).leaves.value("ab") == 3.0
    with pytest.raises(InputError, match="nowhere.leaves"):
        level_equity(Level("x", "X", "all", 0, 0, -1000, "", 0, leaves=str(tmp_path / "nowhere.leaves")), V)


BEST = Level("best", "Best", "all", 0, 0, -1000, "", 0)


def candidates(game: Game, generator: MoveGenerator, learned, coef) -> dict:
    """Every move's and exchange's equity by the oracle: {("place", tiles, dir) | ("exchange", kept): equity}."""
    rack = game.racks[game.current]
    bag = len(game.bag)
    out = {}
    for rec in generator.generate(game.board, rack).records:
        tiles, direction = record_tiles(rec)
        leave = rest_of_rack(rack, rec)
        out[("place", frozenset(tiles), direction)] = int(rec[SCORE]) + oracle_leave_equity(leave, bag, learned, coef)
    if game.can_exchange():
        weight, _ = oracle_weight(bag)
        for kept in distinct_kept(rack):
            out[("exchange", canon("".join(kept)))] = weight * oracle_value("".join(kept), learned, coef)
    return out


def action_key(action, rack: str):
    if action.kind == PLACE:
        return ("place", frozenset(action.tiles), action.direction)
    assert action.kind == EXCHANGE
    return ("exchange", canon("".join((Counter(rack) - Counter(action.exchange)).elements())))


def test_a_player_with_leaves_plays_the_best_equity(flowing_lexicon):
    learned = {canon(k): v for k, v in LEARNED.items()}
    coef = random_coef(2, scale=4.0)
    equity = Equity(hand_table(learned, coef), V)
    generator = MoveGenerator(flowing_lexicon, V)
    kinds = Counter()
    for game_id in range(3):
        players = [ComputerPlayer(f"p{i}", BEST, generator, equity) for i in range(2)]
        game = Game(V, players, flowing_lexicon.words, seed=21, game_id=game_id)
        for _ in range(10):
            if game.over:
                break
            rack = game.racks[game.current]
            options = candidates(game, generator, learned, coef)
            action = players[game.current].choose(game)
            if not options:  # no placement, no exchange left
                assert action.kind == PASS
                game.step()
                continue
            best = max(options.values())
            key = action_key(action, rack)
            assert options[key] == pytest.approx(best, abs=1e-9), (rack, action, best)
            assert action.equity == pytest.approx(best, abs=1e-9)
            kinds[action.kind] += 1
            game.step()  # chooses again: a level that always plays the best draws nothing
            assert game.turns[-1].kind == action.kind
    assert kinds[PLACE] and kinds[EXCHANGE]  # both won somewhere


def test_a_player_without_leaves_plays_the_top_score(flowing_lexicon):
    generator = MoveGenerator(flowing_lexicon, V)
    players = [ComputerPlayer(f"p{i}", BEST, generator, None) for i in range(2)]
    game = Game(V, players, flowing_lexicon.words, seed=4, game_id=1)
    for _ in range(8):
        if game.over:
            break
        records = generator.generate(game.board, game.racks[game.current]).records
        action = players[game.current].choose(game)
        if not len(records):  # stuck: the level's exchange rule, or a pass
            assert action.kind != PLACE
            game.step()
            continue
        assert action.kind == PLACE
        scores = {(frozenset(record_tiles(r)[0]), record_tiles(r)[1]): int(r[SCORE]) for r in records}
        assert scores[(frozenset(action.tiles), action.direction)] == records[:, SCORE].max()
        game.step()


def test_keeping_a_blank_worth_1000_makes_the_player_exchange(flowing_lexicon):
    equity = Equity(hand_table({"?": 1000.0}, np.zeros(N_FEATURES)), V)
    generator = MoveGenerator(flowing_lexicon, V)
    players = [ComputerPlayer(f"p{i}", BEST, generator, equity) for i in range(2)]
    game = Game(V, players, flowing_lexicon.words, seed=1, game_id=0)
    rack = "kota?ee"
    game.racks[game.current] = rack
    assert game.can_exchange()  # 86 tiles in the bag
    action = players[game.current].choose(game)
    assert action.kind == EXCHANGE and Counter(action.exchange) == Counter("kotaee") and action.equity == 1000.0
    # Without a blank to keep, the best placement wins (every other leave is worth 0).
    game.racks[game.current] = "kotaeei"
    assert players[game.current].choose(game).kind == PLACE
    # With too few tiles in the bag no exchange is possible: it places.
    game.racks[game.current] = rack
    game.bag.tiles = game.bag.tiles[:6]
    assert not game.can_exchange() and players[game.current].choose(game).kind == PLACE
