"""Game variants as data: a TOML file per game (``literaki_cli/variants/*.toml``).

This module reads the parts of a variant that every command needs (its name, its tile set and
the word-length limits that decide which words a lexicon keeps).  A user's own file is loaded
with ``--rules FILE``; a bad file gets an error naming the key and the problem.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from literaki_cli import alphabet
from literaki_cli.errors import InputError

DEFAULT_VARIANT = "literaki"


@dataclass(frozen=True)
class Tile:
    letter: str
    count: int
    colour: str
    value: int


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    tiles: dict[str, Tile]
    blanks: int
    min_word_length: int
    max_word_length: int
    source: str

    @property
    def tile_letters(self) -> str:
        """The letters that have tiles, in Polish alphabetical order."""
        return "".join(ch for ch in alphabet.POLISH_LETTERS if ch in self.tiles)


def builtin_variants() -> list[str]:
    """Names of the variants shipped with the package."""
    files = resources.files("literaki_cli") / "variants"
    return sorted(p.name.removesuffix(".toml") for p in files.iterdir() if p.name.endswith(".toml"))


def load_variant(name: str = DEFAULT_VARIANT, rules_file: Path | None = None) -> Variant:
    """The variant named ``name`` (shipped with the package), or the one in ``rules_file``."""
    if rules_file is not None:
        try:
            text = Path(rules_file).read_text(encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{rules_file}: cannot read rules file: {exc.strerror}") from None
        return parse_variant(text, str(rules_file))
    if name not in builtin_variants():
        raise InputError(f"unknown variant {name!r}; choose one of: {', '.join(builtin_variants())}")
    text = (resources.files("literaki_cli") / "variants" / f"{name}.toml").read_text(encoding="utf-8")
    return parse_variant(text, f"{name}.toml")


def _get(table: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in table:
        raise InputError(f"{where}: missing key '{key}'")
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise InputError(f"{where}: key '{key}' must be an integer, not {value!r}")
    if not isinstance(value, kind):
        raise InputError(f"{where}: key '{key}' must be a {kind.__name__}, not {value!r}")
    return value


def parse_variant(text: str, source: str) -> Variant:
    """Parse and validate a variant TOML document; ``source`` names it in error messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{source}: not valid TOML: {exc}") from None
    name = _get(data, "name", str, source)
    words = _get(data, "words", dict, source)
    min_len = _get(words, "min_length", int, f"{source} [words]")
    max_len = _get(words, "max_length", int, f"{source} [words]")
    if not 1 <= min_len <= max_len:
        raise InputError(f"{source} [words]: need 1 <= min_length <= max_length, got {min_len}..{max_len}")
    colours = _get(data, "colours", dict, source)
    for colour in colours:
        _get(colours, colour, int, f"{source} [colours]")
    tiles_table = dict(_get(data, "tiles", dict, source))
    blanks = tiles_table.pop("blanks", 0)
    if isinstance(blanks, bool) or not isinstance(blanks, int) or blanks < 0:
        raise InputError(f"{source} [tiles]: key 'blanks' must be a non-negative integer, not {blanks!r}")
    tiles = {}
    for letter, spec in tiles_table.items():
        where = f"{source} [tiles] key '{letter}'"
        if letter not in alphabet.POLISH_LETTERS or len(letter) != 1:
            raise InputError(f"{where}: not a lower-case letter of the Polish alphabet")
        if not (isinstance(spec, list) and len(spec) == 2 and isinstance(spec[0], int) and isinstance(spec[1], str)):
            raise InputError(f"{where}: expected [count, colour], got {spec!r}")
        count, colour = spec
        if count < 1:
            raise InputError(f"{where}: count must be at least 1, got {count}")
        if colour not in colours:
            raise InputError(f"{where}: unknown colour {colour!r} (known: {', '.join(colours)})")
        tiles[letter] = Tile(letter, count, colour, colours[colour])
    return Variant(
        name=name,
        title=data.get("title", name),
        tiles=tiles,
        blanks=blanks,
        min_word_length=min_len,
        max_word_length=max_len,
        source=source,
    )
