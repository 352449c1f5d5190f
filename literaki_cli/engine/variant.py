"""Game variants as data: one TOML file per game (``literaki_cli/variants/*.toml``).

A variant says everything that differs between games of the family: the board (size, square
layout, what each kind of square does), the tiles (letters, counts, colours, values, blanks),
scoring constants (colour multiplier, bingo), rack size, players, exchange rules and word
limits.  Code never asks *which* game it plays; it reads these values, or the flat tables of
:class:`ScoringTables` compiled from them.  A user's own file is loaded with ``--rules FILE``;
a bad file gets an error naming the key and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError, message_of, said
from literaki_cli.inputs import loads_toml, read_input_text

DEFAULT_VARIANT = "literaki"
ACROSS, DOWN = 0, 1
START, END = 0, 1
DIRECTIONS = {"across-start": (ACROSS, START), "across-end": (ACROSS, END), "down-start": (DOWN, START),
              "down-end": (DOWN, END)}  # fmt: skip
#: Size of per-letter tables: letter codes are 1..35 (see alphabet), padded to 64.
CODE_SPACE = 64

# Bounds on the numbers of a rules file (README, "Rules as data").  Scores live in 32-bit
# tables and game totals in 32-bit columns, so each key is capped, and then the largest score
# the rules allow at all (see :func:`score_bound`) must stay within MAX_SCORE over a whole game.
MAX_SCORE = 2**31 - 1
MAX_TILE_VALUE = 1000  # [colours] values
MAX_MULTIPLIER = 100  # letter, word, directional and colour multipliers
MAX_BINGO_BONUS = 100_000
MAX_TILE_COUNT = 1000  # tiles of one letter; blanks
MAX_SIDE = 26  # board rows and columns (columns are letters a..z)
MAX_RACK = 26  # rack size, bingo tiles, first-move tiles
MAX_PLAYERS = 26
MAX_BAG_SETTING = 100_000  # exchange thresholds


@dataclass(frozen=True)
class TileSpec:
    """One letter of the tile set: how many tiles, their colour and value."""

    letter: str
    count: int
    colour: str
    value: int


@dataclass(frozen=True)
class SquareKind:
    """What a square does to a newly placed tile (see the [squares] table of a variant)."""

    key: str
    name: str
    colour: str | None = None
    letter_multiplier: int = 1
    word_multiplier: int = 1
    directional_word_multiplier: int = 1
    directions: frozenset[str] = frozenset()
    effect: str | None = None

    @property
    def is_plain(self) -> bool:
        return (
            self.colour is None
            and self.letter_multiplier == 1
            and self.word_multiplier == 1
            and self.directional_word_multiplier == 1
            and self.effect is None
        )


@dataclass(frozen=True)
class BoardLayout:
    rows: int
    columns: int
    start: tuple[int, int]  # (row, column), 0-based
    layout: tuple[str, ...]
    kinds: dict[str, SquareKind]

    def kind_at(self, row: int, col: int) -> SquareKind:
        return self.kinds[self.layout[row][col]]

    @cached_property
    def transpose_symmetric(self) -> bool:
        """Whether the board is its own mirror image in the main diagonal (the start square on
        it, and every square's kind the same as its mirror's, directions swapped across/down):
        then on an empty board a move down is worth exactly what its mirror move across is."""
        if self.rows != self.columns or self.start[0] != self.start[1]:
            return False
        for r in range(self.rows):
            for c in range(r + 1, self.columns):
                if self.layout[r][c] != self.layout[c][r]:
                    return False
        swap = {"across-start": "down-start", "down-start": "across-start", "across-end": "down-end",
                "down-end": "across-end"}  # fmt: skip
        return all(kind.directions == frozenset(swap[d] for d in kind.directions) for kind in self.kinds.values())


@dataclass(frozen=True)
class ScoringTables:
    """The rules of scoring as flat arrays, indexed by square ``row * columns + col`` and by
    letter code: the single source of truth for ``score`` and the move generator."""

    new_tile_value: np.ndarray  # int32 [squares, CODE_SPACE]: a new (non-blank) tile's value there
    tile_value: np.ndarray  # int32 [CODE_SPACE]: a tile's plain value (tiles placed earlier)
    word_multiplier: np.ndarray  # int32 [squares]: multiplies every word through a new tile there
    end_multiplier: np.ndarray  # int32 [2 directions, 2 ends, squares]: x N when a word starts/ends there
    bingo_tiles: int
    bingo_bonus: int


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    tiles: dict[str, TileSpec]
    blanks: int
    colours: dict[str, int]
    board: BoardLayout
    colour_multiplier: int
    bingo_tiles: int
    bingo_bonus: int
    first_move_min_tiles: int
    rack_size: int
    min_players: int
    max_players: int
    exchange_min_bag: int
    exchange_max_per_player: int
    forced_exchange_min_bag: int
    min_word_length: int
    max_word_length: int
    source: str

    @property
    def tile_letters(self) -> str:
        """The letters that have tiles, in Polish alphabetical order."""
        return "".join(ch for ch in alphabet.POLISH_LETTERS if ch in self.tiles)

    def effect_squares(self, effect: str) -> set[tuple[int, int]]:
        """The squares whose kind carries ``effect`` (e.g. "forced-exchange")."""
        b = self.board
        return {(r, c) for r in range(b.rows) for c in range(b.columns) if b.kind_at(r, c).effect == effect}

    @property
    def tile_count(self) -> int:
        """Tiles in the full bag, blanks included."""
        return sum(t.count for t in self.tiles.values()) + self.blanks

    def value_of(self, letter: str, blank: bool = False) -> int:
        """Plain value of a tile (0 for a blank or a letter without a tile)."""
        if blank:
            return 0
        tile = self.tiles.get(letter)
        return tile.value if tile else 0

    def rack_value(self, rack: str) -> int:
        """What the tiles of ``rack`` count at the end of a game (a blank 0)."""
        return sum(self.value_of(letter) for letter in rack)

    @cached_property
    def tables(self) -> ScoringTables:
        board = self.board
        n = board.rows * board.columns
        tile_value = np.zeros(CODE_SPACE, dtype=np.int32)
        tile_colour: dict[int, str] = {}
        for letter, tile in self.tiles.items():
            code = alphabet.CODE_OF[letter]
            tile_value[code] = tile.value
            tile_colour[code] = tile.colour
        new_tile_value = np.zeros((n, CODE_SPACE), dtype=np.int32)
        word_multiplier = np.ones(n, dtype=np.int32)
        end_multiplier = np.ones((2, 2, n), dtype=np.int32)
        for row in range(board.rows):
            for col in range(board.columns):
                sq = row * board.columns + col
                kind = board.kind_at(row, col)
                word_multiplier[sq] = kind.word_multiplier
                for direction in kind.directions:
                    d, end = DIRECTIONS[direction]
                    end_multiplier[d, end, sq] = kind.directional_word_multiplier
                for code, colour in tile_colour.items():
                    value = int(tile_value[code]) * kind.letter_multiplier
                    if kind.colour is not None and kind.colour == colour:
                        value *= self.colour_multiplier
                    new_tile_value[sq, code] = value
        return ScoringTables(new_tile_value, tile_value, word_multiplier, end_multiplier,
                             self.bingo_tiles, self.bingo_bonus)  # fmt: skip


@cache
def _builtin_names() -> tuple[str, ...]:
    files = resources.files("literaki_cli") / "variants"
    return tuple(sorted(p.name.removesuffix(".toml") for p in files.iterdir() if p.name.endswith(".toml")))


def builtin_variants() -> list[str]:
    """Names of the variants shipped with the package."""
    return list(_builtin_names())


@cache
def _builtin_variant(name: str) -> Variant:
    """A shipped variant, parsed (and its scoring tables built) once per process: a batch of
    positions names the same variant on every line.  Variants are frozen, so sharing is safe."""
    text = (resources.files("literaki_cli") / "variants" / f"{name}.toml").read_text(encoding="utf-8")
    return parse_variant(text, f"{name}.toml")


def load_variant(name: str = DEFAULT_VARIANT, rules_file: Path | None = None) -> Variant:
    """The variant named ``name`` (shipped with the package), or the one in ``rules_file``."""
    if rules_file is not None:
        return parse_variant(read_input_text(rules_file, said("rules file")), str(rules_file))
    if name not in _builtin_names():
        raise InputError(said("unknown variant {name!r}; choose one of: {choices}", name=name,
                              choices=", ".join(builtin_variants())))
    return _builtin_variant(name)


class _Reader:
    """Typed access to a TOML table with errors that name the file, table and key."""

    def __init__(self, table: dict[str, Any], where: str) -> None:
        self.table = table
        self.where = where

    def _fail(self, key: str, problem: str) -> InputError:
        return InputError(said("{where}: key '{key}' {problem}", where=self.where, key=key, problem=problem))

    def get(self, key: str, kind: type, default: Any = ...) -> Any:
        if key not in self.table:
            if default is ...:
                raise InputError(said("{where}: missing key '{key}'", where=self.where, key=key))
            return default
        value = self.table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self._fail(key, said("must be an integer, not {value!r}", value=value))
        if not isinstance(value, kind):
            raise self._fail(key, said("must be a {kind}, not {value!r}", kind=kind.__name__, value=value))
        return value

    def positive(self, key: str, default: Any = ..., minimum: int = 1, maximum: int = MAX_BAG_SETTING) -> int:
        value = self.get(key, int, default)
        if value < minimum:
            raise self._fail(key, said("must be at least {least}, got {value}", least=minimum, value=value))
        if value > maximum:
            raise self._fail(key, said("must be at most {most:,}, got {value:,}", most=maximum, value=value))
        return value

    def sub(self, key: str, required: bool = False) -> _Reader:
        table = self.get(key, dict) if required else self.get(key, dict, {})
        return _Reader(table, f"{self.where.split(' [')[0]} [{key}]")


def parse_square(key: str, spec: dict[str, Any], colours: dict[str, int], where: str) -> SquareKind:
    r = _Reader(spec, f"{where} [squares] '{key}'")
    known = {"name", "colour", "letter_multiplier", "word_multiplier", "directional_word_multiplier",
             "directions", "effect"}  # fmt: skip
    for unknown in set(spec) - known:
        raise InputError(said("{where}: unknown key '{key}' (known: {known})", where=r.where, key=unknown,
                              known=", ".join(sorted(known))))
    colour = r.get("colour", str, None)
    if colour is not None and colour not in colours:
        raise InputError(said("{where}: key 'colour' names unknown colour {colour!r} (known: {known})", where=r.where,
                              colour=colour, known=", ".join(colours)))
    directions = r.get("directions", list, [])
    for d in directions:
        if not isinstance(d, str) or d not in DIRECTIONS:
            raise InputError(said("{where}: key 'directions' has {value!r}; use {choices}", where=r.where, value=d,
                                  choices=", ".join(DIRECTIONS)))
    directional = r.positive("directional_word_multiplier", 1, maximum=MAX_MULTIPLIER)
    if directional != 1 and not directions:
        raise InputError(said("{where}: 'directional_word_multiplier' needs 'directions'", where=r.where))
    return SquareKind(
        key=key,
        name=r.get("name", str, key),
        colour=colour,
        letter_multiplier=r.positive("letter_multiplier", 1, maximum=MAX_MULTIPLIER),
        word_multiplier=r.positive("word_multiplier", 1, maximum=MAX_MULTIPLIER),
        directional_word_multiplier=directional,
        directions=frozenset(directions),
        effect=r.get("effect", str, None),
    )


def _parse_board(data: _Reader, colours: dict[str, int], source: str) -> BoardLayout:
    b = data.sub("board", required=True)
    rows, columns = b.positive("rows", maximum=MAX_SIDE), b.positive("columns", maximum=MAX_SIDE)
    layout = tuple(b.get("layout", list))
    if len(layout) != rows:
        raise InputError(said("{where}: key 'layout' has {count} rows, 'rows' says {rows}", where=b.where,
                              count=len(layout), rows=rows))
    squares_table = data.get("squares", dict)
    kinds = {}
    for key, spec in squares_table.items():
        if len(key) != 1:
            raise InputError(said("{source} [squares]: key {key!r} must be one character", source=source, key=key))
        if not isinstance(spec, dict):
            raise InputError(said("{source} [squares]: key {key!r} must be a table, not {value!r}", source=source,
                                  key=key, value=spec))
        kinds[key] = parse_square(key, spec, colours, source)
    for r, line in enumerate(layout, 1):
        if not isinstance(line, str) or len(line) != columns:
            raise InputError(said("{where}: layout row {row} must be a string of {columns} squares, got {value!r}",
                                  where=b.where, row=r, columns=columns, value=line))
        for c, ch in enumerate(line, 1):
            if ch not in kinds:
                raise InputError(said("{where}: layout row {row} column {column}: square {square!r} is not a key of "
                                      "[squares]", where=b.where, row=r, column=c, square=ch))
    from literaki_cli.engine.coords import parse_square as parse_square_name

    start_name = b.get("start", str)
    try:
        start = parse_square_name(start_name, rows, columns)
    except InputError as exc:
        raise InputError(said("{where}: key 'start': {error}", where=b.where, error=message_of(exc))) from None
    return BoardLayout(rows, columns, start, layout, kinds)


def parse_variant(text: str, source: str) -> Variant:
    """Parse and validate a variant TOML document; ``source`` names it in error messages."""
    data = _Reader(loads_toml(text, source), source)
    name = data.get("name", str)
    words = data.sub("words", required=True)
    min_len, max_len = words.positive("min_length", maximum=MAX_SIDE), words.positive("max_length", maximum=MAX_SIDE)
    if min_len > max_len:
        raise InputError(said("{where}: min_length {least} is above max_length {most}", where=words.where,
                              least=min_len, most=max_len))
    colours_reader = data.sub("colours", required=True)
    colours = {c: colours_reader.positive(c, minimum=0, maximum=MAX_TILE_VALUE) for c in colours_reader.table}
    tiles_table = dict(data.get("tiles", dict))
    blanks = _Reader(tiles_table, f"{source} [tiles]").positive("blanks", 0, minimum=0, maximum=MAX_TILE_COUNT)
    tiles_table.pop("blanks", None)
    tiles = {}
    for letter, spec in tiles_table.items():
        where = said("{source} [tiles] key '{letter}'", source=source, letter=letter)
        if letter not in alphabet.POLISH_LETTERS or len(letter) != 1:
            raise InputError(said("{where}: not a lower-case letter of the Polish alphabet", where=where))
        if not (isinstance(spec, list) and len(spec) == 2 and isinstance(spec[0], int)
                and not isinstance(spec[0], bool) and isinstance(spec[1], str)):  # fmt: skip
            raise InputError(said("{where}: expected [count, colour], got {value!r}", where=where, value=spec))
        count, colour = spec
        if not 1 <= count <= MAX_TILE_COUNT:
            raise InputError(said("{where}: count must be 1..{most}, got {count:,}", where=where, most=MAX_TILE_COUNT,
                                  count=count))
        if colour not in colours:
            raise InputError(said("{where}: unknown colour {colour!r} (known: {known})", where=where, colour=colour,
                                  known=", ".join(colours)))
        tiles[letter] = TileSpec(letter, count, colour, colours[colour])
    board = _parse_board(data, colours, source)
    scoring = data.sub("scoring")
    players = data.sub("players")
    exchange = data.sub("exchange")
    min_players = players.positive("min", 2, maximum=MAX_PLAYERS)
    max_players = players.positive("max", 2, maximum=MAX_PLAYERS)
    if min_players > max_players:
        raise InputError(said("{where}: min {least} is above max {most}", where=players.where, least=min_players,
                              most=max_players))
    variant = Variant(
        name=name,
        title=data.get("title", str, name),
        tiles=tiles,
        blanks=blanks,
        colours=colours,
        board=board,
        colour_multiplier=scoring.positive("colour_multiplier", 1, maximum=MAX_MULTIPLIER),
        bingo_tiles=scoring.positive("bingo_tiles", 7, maximum=MAX_RACK),
        bingo_bonus=scoring.positive("bingo_bonus", 0, minimum=0, maximum=MAX_BINGO_BONUS),
        first_move_min_tiles=data.sub("first_move").positive("min_tiles", 2, maximum=MAX_RACK),
        rack_size=data.sub("rack").positive("size", 7, maximum=MAX_RACK),
        min_players=min_players,
        max_players=max_players,
        exchange_min_bag=exchange.positive("min_bag", 7, minimum=0),
        exchange_max_per_player=exchange.positive("max_per_player", 3, minimum=0),
        forced_exchange_min_bag=data.sub("effects").positive(
            "forced_exchange_min_bag", exchange.positive("min_bag", 7, minimum=0), minimum=0
        ),
        min_word_length=min_len,
        max_word_length=max_len,
        source=source,
    )
    move_bound, game_bound = score_bound(variant)
    if game_bound > MAX_SCORE:
        raise InputError(said(
            "{source}: these rules allow a move worth up to {move:,} and a game total up to {game:,}, "
            "beyond {most:,}: lower the [colours] values, the [tiles] counts, the multipliers of [squares] "
            "and [scoring] colour_multiplier, or [scoring] bingo_bonus",
            source=source, move=move_bound, game=game_bound, most=MAX_SCORE,
        ))
    return variant


def score_bound(variant: Variant) -> tuple[int, int]:
    """(move, game): upper bounds of one move's score and of one player's game total.

    A move's main word has at most L letters (the word-length limit, within the board), each
    worth at most the top tile value times the top letter and colour multipliers; at most
    k = min(rack, L) of them are new, so the word counts at most the product of the k largest
    word multipliers of one row or column, times the top directional multiplier at each end.
    Each of the k new tiles adds at most one cross word (one new tile: one word multiplier).
    A player's moves lay every tile at most once, so a game totals at most tiles x move.
    """
    board = variant.board
    length = min(variant.max_word_length, max(board.rows, board.columns))
    new = min(variant.rack_size, length)
    kinds = [board.kind_at(r, c) for r in range(board.rows) for c in range(board.columns)]
    letter_top = max((k.letter_multiplier for k in kinds), default=1)
    colour_top = variant.colour_multiplier if any(k.colour for k in kinds) else 1
    tile_top = max((t.value for t in variant.tiles.values()), default=0) * letter_top * colour_top
    ends = max((k.directional_word_multiplier for k in kinds), default=1) ** 2
    lines = [[board.kind_at(r, c).word_multiplier for c in range(board.columns)] for r in range(board.rows)]
    lines += [[board.kind_at(r, c).word_multiplier for r in range(board.rows)] for c in range(board.columns)]
    line_product = max(int(np.prod(sorted(line, reverse=True)[:new], dtype=object)) for line in lines)
    main = length * tile_top * line_product * ends
    cross = length * tile_top * max(k.word_multiplier for k in kinds) * ends
    move = main + new * cross + variant.bingo_bonus
    return move, move * max(variant.tile_count, 1)
