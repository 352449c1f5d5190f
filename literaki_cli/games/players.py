"""Computer players: the game's three levels (Łatwy, Normalny, Trudny) and ``mistrz``.

The levels differ only in numbers (``levels.toml``, overridable with ``--levels FILE``): which
words they know, how far down the ranked list of moves they reach, when they exchange, and
whether they value the tiles they keep (``leaves``).  A level with leave values ranks its
moves by equity (score + leave value, :mod:`literaki_cli.equity`) and counts the best exchange
among its candidates; a level with ``leaves = "none"`` ranks by score alone.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import (
    BLANK_FLAG,
    BOARD_FLAG,
    CELLS,
    CODE_MASK,
    LENGTH,
    SCORE,
    TILES,
    MoveGenerator,
    covers_any,
    record_tiles,
)
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.tomlfile import finite_number, read_toml, whole_number
from literaki_cli.errors import InputError
from literaki_cli.games.common import seat_nicknames
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Action, Game

if TYPE_CHECKING:
    from literaki_cli.endgame.solver import EndgameSolver
    from literaki_cli.equity.equity import Equity

#: A level's ``leaves`` key: no leave values, or the default file (``--leaves``,
#: ``$LITERAKI_LEAVES`` or the shipped one); anything else is a path to a leave file.
NO_LEAVES = "none"
DEFAULT_LEAVES = "default"


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
    leaves: str = DEFAULT_LEAVES  # "none", "default" or a leave file's path
    unload_last_rounds: bool = False  # in the last rounds play the move laying the most tile value
    endgame_seconds: float = 0.0  # > 0: once the bag is empty, the exact endgame search with this time per move
    endgame_nodes: int = 0  # > 0: the same with this many nodes per move (the same move on every machine)
    sim_iterations: int = 0  # > 0: while more than 2 tiles are in the bag, simulate the best candidates
    sim_candidates: int = 6  # how many (the best by static equity)
    sim_plies: int = 2  # turns played after each candidate
    peg_nodes: int = 0  # > 0: with 1-2 tiles in the bag, the pre-endgame with this many nodes per endgame
    peg_candidates: int = 8  # the best moves it judges (and the pass)
    peg_replies: int = 4  # replies it considers where tiles stay in the bag
    peg_splits: int = 8  # splits of the unseen tiles it judges at most (sampled with 2 in the bag)
    in_play: bool = False  # offered by `literaki play` (by default the levels of the popular words)

    @property
    def solves_endgames(self) -> bool:
        return self.endgame_seconds > 0 or self.endgame_nodes > 0

    @property
    def simulates(self) -> bool:
        return self.sim_iterations > 0

    @property
    def solves_pre_endgames(self) -> bool:
        return self.peg_nodes > 0

    @property
    def searches(self) -> bool:
        """Whether the level needs an endgame solver (for the endgame or the pre-endgame)."""
        return self.solves_endgames or self.solves_pre_endgames

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
ENDGAME_SECONDS_BOUND = 3600.0
ENDGAME_NODES_BOUND = 10**10
SIM_ITERATIONS_BOUND = 10**6
COUNT_BOUND = 1000
SIM_PLIES_BOUND = 10  # montecarlo.settings.MAX_PLIES (games sits below montecarlo)
LEVEL_KEYS = (
    "title",
    "vocabulary",
    "quantile",
    "exchange_below",
    "keep",
    "keep_max",
    "forced_exchange_bonus",
    "leaves",
    "unload_last_rounds",
    "endgame_seconds",
    "endgame_nodes",
    "sim_iterations",
    "sim_candidates",
    "sim_plies",
    "peg_nodes",
    "peg_candidates",
    "peg_replies",
    "peg_splits",
    "in_play",
)


def load_levels(path: Path | None = None, default_leaves: Path | str | None = None) -> dict[str, Level]:
    """The levels of ``levels.toml`` (or of the user's file), every key and number checked:
    InputError naming the file, the level and the key otherwise.  ``default_leaves`` (``--leaves``)
    replaces the default leave file of the levels whose ``leaves`` is "default"."""
    data, where = read_toml(path, "games/levels.toml")
    base = Path(path).parent if path is not None else Path(__file__).parent
    levels = {name: _level(name, spec, f"{where} [{name}]", base) for name, spec in data.items()}
    if default_leaves is not None:
        chosen = str(Path(default_leaves).expanduser().resolve())
        levels = {name: replace(level, leaves=chosen) if level.leaves == DEFAULT_LEAVES else level
                  for name, level in levels.items()}  # fmt: skip
    if not levels:
        raise InputError(f"{where}: no level defined (a [name] table per level)")
    return levels


def _level(name: str, spec: object, where: str, base: Path) -> Level:
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
    leaves = _text(spec, "leaves", where, DEFAULT_LEAVES)
    if leaves not in (NO_LEAVES, DEFAULT_LEAVES):
        if not leaves.strip() or "\0" in leaves:
            raise InputError(f'{where}: key \'leaves\' must be "none", "default" or a leave file\'s path')
        leaves = str((base / Path(leaves).expanduser()).resolve())
    looks_ahead = [key for key in ("sim_iterations", "peg_nodes") if spec.get(key)]
    if looks_ahead and vocabulary != "all":
        raise InputError(f"{where}: key {looks_ahead[0]!r} needs vocabulary = \"all\" (the simulation and the "
                         "pre-endgame search the whole lexicon)")  # fmt: skip
    return Level(
        name, _text(spec, "title", where, name), vocabulary, alpha, beta,
        whole_number(spec.get("exchange_below"), f"{where}: key 'exchange_below'", -SCORE_BOUND, SCORE_BOUND), keep,
        whole_number(spec.get("keep_max", 0), f"{where}: key 'keep_max'", 0, KEEP_MAX_BOUND),
        finite_number(spec.get("forced_exchange_bonus", 0.0), f"{where}: key 'forced_exchange_bonus'", -SCORE_BOUND,
                SCORE_BOUND), leaves, _flag(spec, "unload_last_rounds", where),
        finite_number(spec.get("endgame_seconds", 0.0), f"{where}: key 'endgame_seconds'", 0, ENDGAME_SECONDS_BOUND),
        whole_number(spec.get("endgame_nodes", 0), f"{where}: key 'endgame_nodes'", 0, ENDGAME_NODES_BOUND),
        *(whole_number(spec.get(key, default), f"{where}: key {key!r}", low, high) for key, default, low, high in (
            ("sim_iterations", 0, 0, SIM_ITERATIONS_BOUND), ("sim_candidates", 6, 1, COUNT_BOUND),
            ("sim_plies", 2, 1, SIM_PLIES_BOUND), ("peg_nodes", 0, 0, ENDGAME_NODES_BOUND),
            ("peg_candidates", 8, 1, COUNT_BOUND), ("peg_replies", 4, 1, COUNT_BOUND),
            ("peg_splits", 8, 1, COUNT_BOUND))),
        _flag(spec, "in_play", where, default=vocabulary == "popular"),
    )  # fmt: skip


def _flag(spec: dict, key: str, where: str, default: bool = False) -> bool:
    value = spec.get(key, default)
    if not isinstance(value, bool):
        raise InputError(f"{where}: key {key!r} must be true or false, not {value!r}")
    return value


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
    """A computer player of a given level; its random choices come from the game's RNG.

    With ``equity`` (leave values) it ranks placements by equity and counts the best exchange
    as one more candidate; without, it ranks by score, as the online game's levels do."""

    def __init__(self, name: str, level: Level, generator: MoveGenerator, equity: Equity | None = None,
                 endgame: EndgameSolver | None = None, lookahead=None):  # fmt: skip
        self.name = name
        self.level = level
        self.generator = generator
        self.equity = equity
        self.endgame = endgame  # the exact search once the bag is empty (two-player games)
        self.lookahead = lookahead  # the simulation and the pre-endgame, for the levels that use them
        self._endgame_game: tuple | None = None  # the game whose endgame the search's table holds

    def choose(self, game: Game) -> Action:
        rack = game.racks[game.current]
        if self.endgame is not None and not game.bag and game.n_players == 2:
            return self._endgame_move(game, rack)
        if self.lookahead is not None and game.n_players == 2 and game.bag:
            from literaki_cli.endgame.peg import MAX_BAG

            if len(game.bag) <= MAX_BAG and self.level.solves_pre_endgames and not game.can_exchange():
                return self.lookahead.pre_endgame_move(game, rack, self.level, self.equity)
            if len(game.bag) > MAX_BAG and self.level.simulates and self.equity is not None:
                chosen = self.lookahead.simulated_move(game, rack, self.level, self.equity)
                if chosen is not None:
                    return chosen
        if self._best_alone_decides(game):
            return self._best_alone(game, rack)
        moves = self.generator.generate(game.board, rack)
        n = len(moves)
        can_exchange = game.can_exchange()
        leaves = self.equity.for_rack(rack, len(game.bag)) if self.equity is not None else None
        if n:
            equity = moves.records[:, SCORE].astype(np.float64)
            if leaves is not None:
                equity += leaves.of_moves(moves.records)
            equity = equity + self._effect_bonus(game, moves)
            best = float(equity.max())
        exchange = self._best_exchange(game, rack, leaves) if leaves is not None and can_exchange else None
        if (not n or best < self.level.exchange_below) and can_exchange and (
                ruled := self._ruled_exchange(rack, exchange)):  # fmt: skip
            return ruled
        if not n:
            return Action(PASS)
        if self.level.unload_last_rounds and len(game.bag) < game.n_players * game.variant.rack_size:
            # The last rounds, once the next draws empty the bag: what stays on the rack counts
            # against the player, so even a level that otherwise picks at random down the list
            # lays its costliest tiles while it can (else both players end stuck and pass).
            index = unloading_move(moves.records, equity, game.variant)
            tiles, direction = record_tiles(moves.records[index])
            return Action(PLACE, tuple(tiles), direction, equity=float(equity[index]))
        if exchange is not None:
            equity = np.append(equity, exchange.equity)
        rank = self.level.pick_rank(len(equity), game.rng)
        # argmax is the first best, as rank 0 of a stable sort would be, without sorting.
        index = int(np.argmax(equity)) if rank == 0 else int(np.argsort(-equity, kind="stable")[rank])
        if index == n:
            return Action(EXCHANGE, exchange=exchange.tiles, equity=exchange.equity)
        tiles, direction = record_tiles(moves.records[index])
        return Action(PLACE, tuple(tiles), direction, equity=float(equity[index]))

    def _best_exchange(self, game: Game, rack: str, leaves):
        """The exchange that keeps the best leave (None when there is none to make)."""
        options = self.equity.exchanges(rack, len(game.bag), 1, leaves)
        return options[0] if options else None

    def _ruled_exchange(self, rack: str, exchange) -> Action | None:
        """The exchange the level's rule makes when no move is good enough: the best one, else
        the tiles its ``keep`` letters do not keep; None when that returns no tile."""
        tiles = exchange.tiles if exchange else exchange_choice(rack, self.level)
        return Action(EXCHANGE, exchange=tiles, equity=exchange.equity if exchange else None) if tiles else None

    def _best_alone_decides(self, game: Game) -> bool:
        """Whether this turn's choice is the first best move by equity (or the best exchange when
        it is better): a level that always plays the best, with leave values, and no bonus or
        last-rounds rule that looks at every move.  Then the bounded search finds it alone."""
        level = self.level
        last_rounds = len(game.bag) < game.n_players * game.variant.rack_size
        return (self.equity is not None and level.always_best
                and not (level.forced_exchange_bonus and game.effect_squares("forced-exchange"))
                and not (level.unload_last_rounds and last_rounds))  # fmt: skip

    def _best_alone(self, game: Game, rack: str) -> Action:
        """:meth:`choose` for such a turn, with :meth:`MoveGenerator.best` instead of every move:
        the same move (the first best in generation order), exchange and equity."""
        leaves = self.equity.for_rack(rack, len(game.bag))
        record = self.generator.best(game.board, rack, leaves, ties_in_order=True)
        can_exchange = game.can_exchange()
        exchange = self._best_exchange(game, rack, leaves) if can_exchange else None
        best = None if record is None else float(record[SCORE] + leaves.of_moves(record[None])[0])
        if (best is None or best < self.level.exchange_below) and can_exchange and (
                ruled := self._ruled_exchange(rack, exchange)):  # fmt: skip
            return ruled
        if best is None:
            return Action(PASS)
        if exchange is not None and exchange.equity > best:
            return Action(EXCHANGE, exchange=exchange.tiles, equity=exchange.equity)
        tiles, direction = record_tiles(record)
        return Action(PLACE, tuple(tiles), direction, equity=best)

    def _endgame_move(self, game: Game, rack: str) -> Action:
        """The best move of the endgame search within the level's limits (both racks are known
        once the bag is empty); the equity recorded is its value, the spread change to the end."""
        opponent = game.racks[1 - game.current]
        if self._endgame_game != (game.seed, game.game_id):  # what a game's moves are must not depend on
            self.endgame.forget()  # the games a worker happened to play before it
            self._endgame_game = (game.seed, game.game_id)
        result = self.endgame.solve(game.board, (rack, opponent), game.passes_in_row,
                                    seconds=self.level.endgame_seconds or None, nodes=self.level.endgame_nodes or None,
                                    keep=1, line=False)  # fmt: skip
        if result.interrupted:  # Ctrl-C inside the search: stop the game as anywhere else
            raise KeyboardInterrupt
        if result.best.is_pass:
            return Action(PASS, equity=float(result.value))
        return Action(PLACE, tuple(result.best.tiles), result.best.direction, equity=float(result.value))

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


def tile_values_laid(records: np.ndarray, variant) -> np.ndarray:
    """The value of the rack tiles each move lays (a blank counts 0): what the move saves from
    the end-of-game subtraction."""
    values = variant.tables.tile_value  # by letter code (CODE_MASK + 1 of them)
    cells = records[:, CELLS:].astype(np.int64)
    inside = np.arange(cells.shape[1]) < records[:, LENGTH, None]
    laid = inside & (cells & (BOARD_FLAG | BLANK_FLAG) == 0)
    return (values[cells & CODE_MASK] * laid).sum(axis=1)


def unloading_move(records: np.ndarray, equity: np.ndarray, variant) -> int:
    """The move that lays the most tile value; among equals the best equity (the first of those)."""
    laid = tile_values_laid(records, variant)
    candidates = np.flatnonzero(laid == laid.max())
    return int(candidates[np.argmax(equity[candidates])])


def level_equity(level: Level, variant, default_leaves: Path | str | None = None) -> Equity | None:
    """The equity a level plays by: None for ``leaves = "none"``, else its leave file (or, for
    ``"default"``, ``default_leaves`` / ``$LITERAKI_LEAVES`` / the shipped file)."""
    if level.leaves == NO_LEAVES:
        return None
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import open_leaves

    path = default_leaves if level.leaves == DEFAULT_LEAVES else level.leaves
    return Equity(open_leaves(path), variant)


def make_players(specs: list[str], lexicon, variant, levels: dict[str, Level], leaves: Path | str | None = None,
                 lookahead_factory: Callable | None = None, table: int | None = None):  # fmt: skip
    """Players for the level names in ``specs`` (nicknames made unique: trudny1, trudny2);
    ``leaves``: the leave file of levels whose ``leaves`` is "default"; ``lookahead(lexicon,
    endgame solver)``: what the levels that simulate or solve pre-endgames look ahead with
    (:func:`literaki_cli.analysis.lookahead.level_lookahead`; without it they play as their
    static rule and endgame search say); ``table``: the players at the table when not every
    seat is a computer's (``play``: one computer of two)."""
    generators: dict[str, MoveGenerator] = {}
    solvers: dict[str, EndgameSolver] = {}
    lookaheads: dict[str, object] = {}
    players = []
    for spec, nick in zip(specs, seat_nicknames(specs), strict=True):
        level = level_named(spec, levels)
        popular = level.vocabulary == "popular"
        if level.vocabulary not in generators:
            generators[level.vocabulary] = MoveGenerator(lexicon, variant, popular=popular)
        two = (table or len(specs)) == 2
        if level.searches and two and level.vocabulary not in solvers:
            from literaki_cli.endgame.solver import EndgameSolver

            solvers[level.vocabulary] = EndgameSolver(lexicon, variant, popular=popular)
        lookahead = None
        if (level.simulates or level.solves_pre_endgames) and two and lookahead_factory is not None:
            lookahead = lookaheads.get(level.vocabulary) or lookahead_factory(lexicon, solvers.get(level.vocabulary))
            lookaheads[level.vocabulary] = lookahead
        players.append(ComputerPlayer(nick, level, generators[level.vocabulary], level_equity(level, variant, leaves),
                                      solvers.get(level.vocabulary) if level.solves_endgames else None,
                                      lookahead))  # fmt: skip
    return players
