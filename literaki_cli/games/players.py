"""Computer players: the game's three levels (Łatwy, Normalny, Trudny) and ``mistrz``.

The levels differ only in numbers (``levels.toml``, overridable with ``--levels FILE``): which
words they know, how far down the ranked list of legal moves they reach, when they exchange.
``mistrz`` knows the whole lexicon and plays the best equity: score plus ``leave_value`` of
the tiles kept (zero until learned leave values are plugged in).
"""

from __future__ import annotations

import math
import random
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from literaki_cli.engine.movegen import SCORE, TILES, MoveGenerator, covers_any, record_tiles
from literaki_cli.engine.position import BLANK
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


def load_levels(path: Path | None = None) -> dict[str, Level]:
    """The levels of ``levels.toml`` (or of the user's file), validated."""
    where = str(path) if path else "levels.toml"
    try:
        text = Path(path).read_text(encoding="utf-8") if path else (
            resources.files("literaki_cli") / "games" / "levels.toml").read_text(encoding="utf-8")  # fmt: skip
        data = tomllib.loads(text)
    except OSError as exc:
        raise InputError(f"{where}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{where}: not valid TOML: {exc}") from None
    levels = {}
    for name, spec in data.items():
        try:
            alpha, beta = (float(x) for x in spec["quantile"])
            level = Level(
                name, str(spec.get("title", name)), str(spec["vocabulary"]), alpha, beta,
                int(spec["exchange_below"]), str(spec.get("keep", "")), int(spec.get("keep_max", 0)),
                float(spec.get("forced_exchange_bonus", 0.0)),
            )  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"{where} [{name}]: missing or bad key ({exc})") from None
        if level.vocabulary not in ("popular", "all"):
            raise InputError(f"{where} [{name}]: key 'vocabulary' must be 'popular' or 'all'")
        levels[name] = level
    return levels


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
