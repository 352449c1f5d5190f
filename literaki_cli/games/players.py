"""Computer players: the game's three levels (Łatwy, Normalny, Trudny) and ``mistrz``.

The levels differ only in numbers (``levels.toml``, overridable with ``--levels FILE``): which
words they know, how far down the ranked list of legal moves they reach, when they exchange.
``mistrz`` knows the whole lexicon and plays the best equity: score plus ``leave_value`` of
the tiles kept (zero until learned leave values are plugged in).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import SCORE, TILES, MoveGenerator, covers_any, record_tiles
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.tomlfile import finite_number, read_toml, whole_number
from literaki_cli.errors import InputError
from literaki_cli.games.common import seat_nicknames
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Action, Game

LeaveValue = Callable[[str], float]


@dataclass(frozen=True)
class Level:
    name: str
    title: str
    vocabulary: str  # "popular" or "all"
    alpha: float
    beta: float
    exchange_below: int
    keep: str
    keep_max: int
    forced_exchange_bonus: float = 0.0  # equity added to a move that forces the next player to exchange

    @property
    def always_best(self) -> bool:
        return self.alpha <= 0 or self.beta <= 0

    def pick_rank(self, count: int, rng: random.Random) -> int:
        """The rank (0 = best) of the choice among ``count`` ranked candidates (moves, grid words):
        a Beta(alpha, beta) quantile of the list drawn from ``rng``, or 0 for a level that always
        plays the best (which draws nothing, so the game's random sequence is untouched)."""
        if self.always_best:
            return 0
        q = rng.betavariate(self.alpha, self.beta)
        return min(count - 1, math.floor(q * count))


def level_named(name: str, levels: dict[str, Level]) -> Level:
    """The level called ``name``; InputError listing the known ones otherwise."""
    if name not in levels:
        raise InputError(f"unknown player level {name!r}; choose one of: {', '.join(levels)}")
    return levels[name]


# Bounds of a levels file's numbers: wide enough for any sensible level, narrow enough that a
# typo cannot hang the Beta draw (NaN), overflow a score comparison or ask for a 10^9-tile rack.
QUANTILE_MAX = 1e6
QUANTILE_MIN_POSITIVE = 1e-6
SCORE_BOUND = 100_000
KEEP_MAX_BOUND = 100
LEVEL_KEYS = ("title", "vocabulary", "quantile", "exchange_below", "keep", "keep_max", "forced_exchange_bonus")


def load_levels(path: Path | None = None) -> dict[str, Level]:
    """The levels of ``levels.toml`` (or of the user's file), every key and number checked:
    InputError naming the file, the level and the key otherwise."""
    data, where = read_toml(path, "games/levels.toml")
    levels = {name: _level(name, spec, f"{where} [{name}]") for name, spec in data.items()}
    if not levels:
        raise InputError(f"{where}: no level defined (a [name] table per level)")
    return levels


def _level(name: str, spec: object, where: str) -> Level:
    if not isinstance(spec, dict):
        raise InputError(f"{where}: a level is a table ([{name}] with its keys), not {type(spec).__name__}")
    unknown = [key for key in spec if key not in LEVEL_KEYS]
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}; the keys are {', '.join(LEVEL_KEYS)}")
    for key in ("vocabulary", "quantile", "exchange_below"):
        if key not in spec:
            raise InputError(f"{where}: missing key {key!r}")
    vocabulary = _text(spec, "vocabulary", where, "")
    if vocabulary not in ("popular", "all"):
        raise InputError(f"{where}: key 'vocabulary' must be 'popular' or 'all', not {vocabulary!r}")
    quantile = spec["quantile"]
    if not isinstance(quantile, list) or len(quantile) != 2:
        raise InputError(f"{where}: key 'quantile' must be [alpha, beta], two numbers")
    alpha, beta = (finite_number(q, f"{where}: key 'quantile'", 0, QUANTILE_MAX) for q in quantile)
    for q in (alpha, beta):
        if 0 < q < QUANTILE_MIN_POSITIVE:
            raise InputError(f"{where}: key 'quantile': {q!r} is neither 0 nor at least {QUANTILE_MIN_POSITIVE}")
    keep = _text(spec, "keep", where, "")
    if not all(alphabet.is_polish_letter(ch) for ch in keep):
        raise InputError(f"{where}: key 'keep' must be lower-case Polish letters, not {keep!r}")
    return Level(
        name, _text(spec, "title", where, name), vocabulary, alpha, beta,
        whole_number(spec.get("exchange_below"), f"{where}: key 'exchange_below'", -SCORE_BOUND, SCORE_BOUND), keep,
        whole_number(spec.get("keep_max", 0), f"{where}: key 'keep_max'", 0, KEEP_MAX_BOUND),
        finite_number(spec.get("forced_exchange_bonus", 0.0), f"{where}: key 'forced_exchange_bonus'", -SCORE_BOUND,
                SCORE_BOUND),
    )  # fmt: skip


def _text(spec: dict, key: str, where: str, default: str) -> str:
    value = spec.get(key, default)
    if not isinstance(value, str):
        raise InputError(f"{where}: key {key!r} must be a string, not {value!r}")
    return value


def exchange_choice(rack: str, level: Level) -> str:
    """The tiles to return: all but the blanks and up to ``keep_max`` distinct keeper letters."""
    kept: list[str] = []
    for ch in level.keep:
        if ch in rack and len(kept) < level.keep_max:
            kept.append(ch)
    returned = list(rack)
    for ch in kept + [BLANK] * rack.count(BLANK):
        returned.remove(ch)
    return "".join(returned)


class ComputerPlayer:
    """A computer player of a given level; its random choices come from the game's RNG."""

    def __init__(self, name: str, level: Level, generator: MoveGenerator, leave_value: LeaveValue | None = None):
        self.name = name
        self.level = level
        self.generator = generator
        self.leave_value = leave_value

    def choose(self, game: Game) -> Action:
        rack = game.racks[game.current]
        moves = self.generator.generate(game.board, rack)
        n = len(moves)
        if n:
            scores = moves.records[:, SCORE].astype(np.float64)
            equity = scores + self._leave_values(moves, rack) if self.leave_value else scores
            equity = equity + self._effect_bonus(game, moves)
            best = float(equity.max())
        if (not n or best < self.level.exchange_below) and game.can_exchange():
            tiles = exchange_choice(rack, self.level)
            if tiles:
                return Action(EXCHANGE, exchange=tiles)
        if not n:
            return Action(PASS)
        rank = self.level.pick_rank(n, game.rng)
        # argmax is the first best, as rank 0 of a stable sort would be, without sorting.
        index = int(np.argmax(equity)) if rank == 0 else int(np.argsort(-equity, kind="stable")[rank])
        tiles, direction = record_tiles(moves.records[index])
        return Action(PLACE, tuple(tiles), direction, equity=float(equity[index]))

    def _effect_bonus(self, game: Game, moves) -> np.ndarray | float:
        """``forced_exchange_bonus`` for moves that lay a tile on a WYM square while the bag is
        full enough for it to fire (after the mover refills)."""
        if not self.level.forced_exchange_bonus:
            return 0.0
        squares = game.effect_squares("forced-exchange")
        if not squares:
            return 0.0
        records = moves.records
        fires = covers_any(records, squares, (game.variant.board.rows, game.variant.board.columns))
        fires &= len(game.bag) - records[:, TILES] >= game.variant.forced_exchange_min_bag
        return fires * self.level.forced_exchange_bonus

    def _leave_values(self, moves, rack: str) -> np.ndarray:
        from literaki_cli.engine.move import rack_needs, take_from_rack

        values = np.empty(len(moves), dtype=np.float64)
        for i, rec in enumerate(moves.records):
            tiles, _ = record_tiles(rec)
            values[i] = self.leave_value(take_from_rack(rack_needs(tiles), rack)[0])
        return values


def make_players(specs: list[str], lexicon, variant, levels: dict[str, Level], leave_value=None):
    """Players for the level names in ``specs`` (nicknames made unique: trudny1, trudny2)."""
    generators: dict[str, MoveGenerator] = {}
    players = []
    for spec, nick in zip(specs, seat_nicknames(specs), strict=True):
        level = level_named(spec, levels)
        if level.vocabulary not in generators:
            generators[level.vocabulary] = MoveGenerator(lexicon, variant, popular=level.vocabulary == "popular")
        players.append(ComputerPlayer(nick, level, generators[level.vocabulary],
                                      leave_value if level.vocabulary == "all" else None))  # fmt: skip
    return players
