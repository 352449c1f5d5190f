"""Fuzzing the levels-file and grid-rules parsers: whatever the file holds, the answer is a
loaded set of levels / rules whose numbers are usable (a level's draw ends at once) or an
InputError (exit 2); never another exception, a hang or an exit 3."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from literaki_cli.errors import InputError
from literaki_cli.games.grid5 import load_grid_rules
from literaki_cli.games.players import load_levels
from tests.conftest import time_limit

GRID5_TOML = (Path(__file__).resolve().parent.parent / "literaki_cli" / "games" / "grid5.toml").read_text("utf-8")


def toml_value(value) -> str:
    """``value`` written as TOML (the generator's own small writer: nan, inf and huge integers too)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "[" + ", ".join(toml_value(v) for v in value) + "]"


NUMBERS = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.integers(min_value=-3, max_value=12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 0.0, 1e-300, 5e-324, 1e6, 1e300, -0.0, 3000000000]),
)
SCALARS = st.one_of(NUMBERS, st.booleans(), st.text(max_size=6), st.sampled_from(["all", "popular", "aeio"]))
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.lists(NUMBERS, min_size=2, max_size=2))
LEVEL_KEYS = ["title", "vocabulary", "quantile", "exchange_below", "keep", "keep_max", "forced_exchange_bonus"]
PLAUSIBLE = {
    "vocabulary": st.sampled_from(["all", "popular"]),
    "quantile": st.lists(NUMBERS, min_size=2, max_size=2),
    "exchange_below": st.one_of(st.integers(-20, 20), NUMBERS),
    "keep_max": st.one_of(st.integers(-2, 9), NUMBERS),
    "forced_exchange_bonus": NUMBERS,
    "keep": st.text(alphabet="aeiozżĄQ?", max_size=5),
    "title": st.text(max_size=5),
}
KEYS = st.one_of(st.sampled_from(LEVEL_KEYS), st.from_regex(r"[a-z_]{1,8}", fullmatch=True))


@st.composite
def levels_files(draw) -> str:
    """A levels file: a few [tables] of keys mostly from the real ones, values of any kind;
    sometimes one mangled by a cut or a stray character."""
    lines = []
    for name in draw(st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True), max_size=3, unique=True)):
        lines.append(f"[{name}]")
        keys = draw(st.lists(KEYS, max_size=8, unique=True))
        if draw(st.booleans()):  # often a complete level, so the numbers themselves are reached
            keys = list(dict.fromkeys(["vocabulary", "quantile", "exchange_below", *keys]))
        for key in keys:
            # mostly a value of the key's own type (so the checks of the numbers are reached), else anything
            value = draw(PLAUSIBLE[key] if key in PLAUSIBLE and draw(st.integers(0, 3)) else VALUES)
            lines.append(f"{key} = {toml_value(value)}")
    text = "\n".join(lines) + "\n"
    if draw(st.integers(0, 5)) == 0:
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.sampled_from(["", "=", "[", '"', "\x00", "ż", "\n[x]\n"])) + text[cut:]
    return text


def check_levels_file(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    with time_limit(10):
        try:
            levels = load_levels(path)
        except InputError as exc:
            assert str(exc).startswith(str(path)) and "\n" not in str(exc)
            return
        rng = random.Random(0)
        for level in levels.values():
            assert math.isfinite(level.alpha) and math.isfinite(level.beta) and level.alpha >= 0 <= level.beta
            for count in (1, 2, 50):
                assert 0 <= level.pick_rank(count, rng) < count


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=levels_files())
def test_levels_file_fuzz(tmp_path, text):
    check_levels_file(tmp_path / "levels.toml", text)


@pytest.mark.parametrize(
    "text",
    [
        '[x]\nvocabulary = "all"\nquantile = [nan, 1]\nexchange_below = 0\n',  # the hang of issue 12
        '[x]\nvocabulary = "all"\nquantile = [-1, 1]\nexchange_below = 0\n',
        '[x]\nvocabulary = "all"\nquantile = [1e300, 1e300]\nexchange_below = 0\n',
        '[x]\nvocabulary = "all"\nquantile = [5e-324, 1]\nexchange_below = 0\n',
    ],
)
def test_levels_file_known_bad_numbers(tmp_path, text):
    with pytest.raises(InputError, match="key 'quantile'"):
        load_levels(_write(tmp_path / "levels.toml", text))


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- grid rules files

GRID_NUMBER_KEYS = [("grid", "size"), ("grid", "min_word_length"), ("grid", "letter_points"),
                    ("game", "rounds"), ("game", "reshuffles_per_player"), ("game", "min_players"),
                    ("game", "max_players")]  # fmt: skip


def with_value(section: str, key: str, value: str, text: str = GRID5_TOML) -> str:
    """``text`` (grid5.toml) with ``key`` of ``[section]`` set to ``value`` (TOML text)."""
    lines, current = [], ""
    for line in text.splitlines():
        if line.startswith("["):
            current = line.strip("[]")
        if current == section and line.split("=")[0].strip() == key:
            line = f"{key} = {value}"
        lines.append(line)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("section", "key", "value", "message"),
    [
        ("grid", "size", "0", "key 'size': 0 is not between 2 and"),
        ("grid", "size", "-3", "key 'size': -3 is not between"),
        ("grid", "size", "1000000", "key 'size': 1000000 is not between"),
        ("grid", "size", "5.0", "key 'size': 5.0 is not a whole number"),
        ("grid", "size", "true", "key 'size': True is not a whole number"),
        ("grid", "class_values", "[1, 2, 3, 4, 3000000000]", "key 'class_values': 3000000000 is not between"),
        ("grid", "class_values", "[1, 2, 3, 4, -1]", "key 'class_values': -1 is not between"),
        ("grid", "class_values", "[1, 2, 3, 4, nan]", "key 'class_values': nan is not a whole number"),
        ("grid", "class_values", "[1, 2]", "key 'class_values': needs one whole number per class"),
        ("grid", "letter_points", "99999999999", "key 'letter_points': 99999999999 is not between"),
        ("grid", "min_word_length", "0", "key 'min_word_length': 0 is not between"),
        ("grid", "classes", "5", "key 'classes' must be a list"),
        ("game", "rounds", "0", "key 'rounds': 0 is not between"),
        ("game", "max_players", "1", "key 'max_players': 1 is not between 2"),
        ("game", "reshuffles_per_player", "-1", "key 'reshuffles_per_player': -1 is not between"),
    ],
)
def test_every_number_of_a_grid_rules_file_is_checked(tmp_path, section, key, value, message):
    path = _write(tmp_path / "g.toml", with_value(section, key, value))
    with pytest.raises(InputError, match=rf"g.toml \[{section}\]: {message}"):
        load_grid_rules(path)
    assert load_grid_rules(_write(path, GRID5_TOML)) == load_grid_rules()  # the untouched file loads


def test_grid_rules_missing_tables_and_keys(tmp_path):
    path = tmp_path / "g.toml"
    nameless = GRID5_TOML.replace('name = "grid5"\n', "")
    for text, message in ((GRID5_TOML.replace("[game]", "[gamex]"), r"missing table \[game\]"),
                          (GRID5_TOML.replace("size = 5\n", ""), r"\[grid\]: missing key 'size'"),
                          ("name = 5\n" + nameless, "key 'name' must be a string")):  # fmt: skip
        with pytest.raises(InputError, match=message):
            load_grid_rules(_write(path, text))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(changes=st.lists(st.tuples(st.sampled_from(GRID_NUMBER_KEYS + [("grid", "class_values")]), VALUES),
                        min_size=1, max_size=3))  # fmt: skip
def test_grid_rules_fuzz(tmp_path, changes):
    text = GRID5_TOML
    for (section, key), value in changes:
        text = with_value(section, key, toml_value(value), text)
    path = _write(tmp_path / "g.toml", text)
    with time_limit(10):
        try:
            rules = load_grid_rules(path)
        except InputError as exc:
            assert str(exc).startswith(str(path)) and "\n" not in str(exc)
            return
    assert 2 <= rules.size <= 8 and all(0 <= v <= 1000 for v in rules.class_values)
    assert 1 <= rules.min_players <= rules.max_players


@pytest.mark.parametrize(
    ("key", "value"), [("size", "0"), ("size", "-4"), ("class_values", "[1, 2, 3, 4, 3000000000]")]
)
def test_anagram_and_simulate_refuse_a_bad_grid_rules_file_with_exit_2(tmp_path, capsys, key, value):
    from literaki_cli.cli import main

    path = _write(tmp_path / "g.toml", with_value("grid", key, value))
    assert main(["anagram", "KOTŁAZERWĄIMIONPASEKRUCHY", "--rules", str(path)]) == 2
    assert f"g.toml [grid]: key '{key}'" in capsys.readouterr().err
    assert main(["simulate", "--game", "grid5", "--rules", str(path), "--out", str(tmp_path / "o")]) == 2
    assert f"g.toml [grid]: key '{key}'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
