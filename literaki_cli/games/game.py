"""A game of Literaki (or any variant) played to the rules: the bag, the racks, placing,
exchanging, passing, and the end of the game with its leftover-tile arithmetic.

Players are objects with ``choose(game) -> Action`` (see :mod:`literaki_cli.games.players`); the game
checks and scores every placement itself through :mod:`literaki_cli.engine.scoring` and checks
every word it forms against the word list it was given, so no player (computer, human or a
program driving the library) can lay a move ``score`` would reject.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

import numpy as np

from literaki_cli.engine.board import Board
from literaki_cli.engine.coords import position_name
from literaki_cli.engine.move import EXCHANGE, PASS, PLACE, Tile, rack_needs, take_from_rack
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.scoring import MoveScore, check_words, score_tiles
from literaki_cli.engine.variant import ACROSS, Variant
from literaki_cli.errors import LiterakiError, joined, said
from literaki_cli.games.bag import Bag, full_bag
from literaki_cli.games.common import TableGame


class IllegalMove(LiterakiError):
    """A placement the rules refuse; the game is left exactly as it was."""


class NotInWordList(IllegalMove):
    """A placement that forms a word the game's word list does not have."""

    def __init__(self, message: str, words: list[str]) -> None:
        super().__init__(message)
        self.words = words


class WordList(Protocol):
    """The words a game accepts (a lexicon's ``WordSet``): one answer per normalised word;
    ``compiled`` asks for the compiled lookup, worth it for the few words of every turn."""

    def lookup(self, words: list[str], compiled: bool | None = None) -> np.ndarray: ...


@dataclass(frozen=True)
class Action:
    kind: str
    tiles: tuple[Tile, ...] = ()  # PLACE
    direction: int = ACROSS  # PLACE: the main word's direction (matters for one tile)
    exchange: str = ""  # EXCHANGE: the tiles returned
    equity: float | None = None  # what the player thought the move was worth


class Player(Protocol):
    name: str

    def choose(self, game: Game) -> Action: ...


@dataclass
class Turn:
    """One event of a game, with the columns of the per-turn table (formats.md) and extras."""

    game_id: int
    turn: int
    player: int
    nick: str
    rack: str  # before the turn
    kind: str
    play: str  # GCG notation: "8H ŻÓ.W", "-ABC", "-"
    score: int
    total: int  # the player's score after the turn
    tiles_played: int
    leave: str
    equity: float
    tiles_remaining: int  # in the bag after the turn
    opp_score: int  # the best opponent score after the turn
    exchanged: str = ""
    blanks_played: int = 0
    colour_points: int = 0  # points that came from premium squares under new letters
    bingo: bool = False
    words: tuple[str, ...] = ()
    main_word_length: int = 0
    forced_exchange: str = ""  # the player whose rack a WYM square exchanged


@dataclass
class EndAdjustment:
    player: int
    nick: str
    rack: str
    points: int  # + for the player who went out, - for leftovers


@dataclass
class Game(TableGame):
    """One game at one table; ``words`` is the word list every placed word must be in (the whole
    lexicon, ``lexicon.words``, even when a computer player knows only the popular words);
    ``turns`` holds :class:`Turn` records."""

    variant: Variant
    players: list[Player]
    words: WordList
    board: Board = field(init=False)
    bag: Bag = field(init=False)
    racks: list[str] = field(init=False)
    exchanges_left: list[int] = field(init=False)
    adjustments: list[EndAdjustment] = field(init=False)
    current: int = field(init=False)
    passes_in_row: int = field(init=False)

    def __post_init__(self) -> None:
        v = self.variant
        n = self._open_table(v.name, v.min_players, v.max_players)
        self.effects: dict[str, set[tuple[int, int]]] = {}
        self.rng = random.Random(f"literaki-game-{self.seed}-{self.game_id}")
        self.board = Board.for_variant(v)
        self.bag = Bag(full_bag(v), self.rng)
        self.racks = [""] * n
        for i in range(n):  # deal in turn order from the starting player
            p = (self.first + i) % n
            self.racks[p] = self.bag.draw(v.rack_size)
        self.exchanges_left = [v.exchange_max_per_player] * n
        self.adjustments = []
        self.current = self.first
        self.passes_in_row = 0

    # ----------------------------------------------------------------- queries

    @property
    def n_players(self) -> int:
        return len(self.players)

    def nick(self, player: int) -> str:
        return self.players[player].name

    def can_exchange(self, player: int | None = None) -> bool:
        player = self.current if player is None else player
        return len(self.bag) >= self.variant.exchange_min_bag and self.exchanges_left[player] > 0

    def tile_count(self) -> Counter:
        """Every tile of the game, wherever it is (bag, racks, board): conservation checks."""
        count = Counter(self.bag.tiles)
        for rack in self.racks:
            count.update(rack)
        count.update(BLANK if blank else letter for _, _, letter, blank in self.board.tiles())
        return count

    # ----------------------------------------------------------------- playing

    def play(self) -> Game:
        """Play to the end."""
        while not self.over:
            self.step()
        return self

    def step(self) -> Turn:
        """One turn of the current player."""
        if self.over:
            raise LiterakiError(said("the game is over"))
        action = self.players[self.current].choose(self)
        if action.kind == PLACE:
            return self.place(list(action.tiles), action.direction, action.equity)
        if action.kind == EXCHANGE:
            return self.exchange(action.exchange, action.equity)
        return self.pass_turn()

    def _record(self, kind: str, play: str, score: int, rack: str, leave: str, equity, **extra) -> Turn:
        p = self.current
        self.scores[p] += score
        turn = Turn(
            game_id=self.game_id,
            turn=len(self.turns),
            player=p,
            nick=self.nick(p),
            rack=rack,
            kind=kind,
            play=play,
            score=score,
            total=self.scores[p],
            tiles_played=extra.pop("tiles_played", 0),
            leave=leave,
            equity=float(score if equity is None else equity),
            tiles_remaining=len(self.bag),
            opp_score=max(s for i, s in enumerate(self.scores) if i != p),
            **extra,
        )
        self.turns.append(turn)
        return turn

    def place(self, tiles: list[Tile], direction: int = ACROSS, equity: float | None = None) -> Turn:
        p = self.current
        rack = self.racks[p]
        leave, missing = take_from_rack(rack_needs(tiles), rack)
        if missing:
            raise LiterakiError(said("{nick} has no {missing} on the rack {rack}", nick=self.nick(p),
                                     missing=missing.upper(), rack=rack.upper()))  # fmt: skip
        move = self.judge(tiles, direction)
        self.board = self.board.with_tiles(tiles)
        self.racks[p] = leave + self.bag.draw(len(tiles))
        self.passes_in_row = 0
        victim = self._forced_exchange(tiles)
        turn = self._record(
            PLACE, gcg_play(move, direction), move.total, rack, leave, equity,
            tiles_played=len(tiles), blanks_played=sum(t.blank for t in tiles),
            colour_points=premium_points(move), bingo=move.bingo > 0,
            words=tuple(w.word for w in move.words), main_word_length=len(move.words[0].letters) if move.words else 0,
            forced_exchange=self.nick(victim) if victim is not None else "",
        )  # fmt: skip
        if not self.racks[p] and not self.bag:
            self._finish_out(p)
        else:
            self._next()
        return turn

    def judge(self, tiles: list[Tile], direction: int = ACROSS) -> MoveScore:
        """The placement scored, if the rules allow it on the board now; else IllegalMove (or
        NotInWordList) naming every problem.  Changes nothing."""
        move = score_tiles(self.board, self.variant, tiles, direction)  # every rule, word lengths included
        if move.problems:
            raise IllegalMove(said("{nick}: illegal move: {problems}", nick=self.nick(self.current),
                                   problems=joined(move.problems)))  # fmt: skip
        check_words(move, partial(self.words.lookup, compiled=True))
        if move.problems:
            raise NotInWordList(said("{nick}: illegal move: {problems}", nick=self.nick(self.current),
                                     problems=joined(move.problems)),
                                [w.word for w in move.words if not w.valid])  # fmt: skip
        return move

    def _forced_exchange(self, tiles: list[Tile]) -> int | None:
        """A new tile on a forced-exchange square (WYM) exchanges the next player's whole rack at
        random, unless the bag holds fewer than the variant's minimum; returns that player."""
        squares = self.effect_squares("forced-exchange")
        if not squares or not any((t.row, t.col) in squares for t in tiles):
            return None
        if len(self.bag) < self.variant.forced_exchange_min_bag:
            return None
        victim = (self.current + 1) % self.n_players
        old = self.racks[victim]
        self.racks[victim] = self.bag.draw(len(old))
        self.bag.put_back(old)
        return victim

    def effect_squares(self, effect: str) -> set[tuple[int, int]]:
        """The squares of the board whose kind carries ``effect`` (e.g. "forced-exchange"),
        computed once per game: players ask on every turn."""
        if effect not in self.effects:
            self.effects[effect] = self.variant.effect_squares(effect)
        return self.effects[effect]

    def exchange(self, tiles: str, equity: float | None = None) -> Turn:
        p = self.current
        if not self.can_exchange():
            raise LiterakiError(said("{nick} may not exchange: {bag} tiles in the bag (at least {least}), {left} "
                                     "exchanges left", nick=self.nick(p), bag=len(self.bag),
                                     least=self.variant.exchange_min_bag, left=self.exchanges_left[p]))  # fmt: skip
        rack = self.racks[p]
        leave, missing = take_from_rack(tiles, rack)
        if missing or not tiles:
            raise LiterakiError(said("{nick} cannot exchange {tiles!r} from {rack}", nick=self.nick(p),
                                     tiles=tiles.upper(), rack=rack.upper()))  # fmt: skip
        drawn = self.bag.draw(len(tiles))
        self.bag.put_back(tiles)
        self.racks[p] = leave + drawn
        self.exchanges_left[p] -= 1
        self.passes_in_row = 0  # an exchange is not a pass
        turn = self._record(EXCHANGE, f"-{tiles.upper()}", 0, rack, leave, equity, exchanged=tiles)
        self._next()
        return turn

    def pass_turn(self) -> Turn:
        rack = self.racks[self.current]
        turn = self._record(PASS, "-", 0, rack, rack, None)
        self.passes_in_row += 1
        if self.passes_in_row >= 2 * self.n_players:
            self._finish_passes()
        else:
            self._next()
        return turn

    def _next(self) -> None:
        self.current = (self.current + 1) % self.n_players

    # ----------------------------------------------------------------- the end

    def _finish_out(self, out: int) -> None:
        gained = 0
        for p in range(self.n_players):
            if p == out:
                continue
            value = self.variant.rack_value(self.racks[p])
            gained += value
            self.scores[p] -= value
            self.adjustments.append(EndAdjustment(p, self.nick(p), self.racks[p], -value))
        self.scores[out] += gained
        self.adjustments.insert(0, EndAdjustment(out, self.nick(out), "".join(r for i, r in enumerate(self.racks)
                                                                          if i != out), gained))  # fmt: skip
        self.over = True
        self.ended_by = "out"

    def _finish_passes(self) -> None:
        for p in range(self.n_players):
            value = self.variant.rack_value(self.racks[p])
            self.scores[p] -= value
            self.adjustments.append(EndAdjustment(p, self.nick(p), self.racks[p], -value))
        self.over = True
        self.ended_by = "passes"


def gcg_play(move: MoveScore, direction: int) -> str:
    """GCG notation of a scored placement: coordinate and main word, '.' for board tiles."""
    main = next((w for w in move.words if w.direction == direction), move.words[0])
    text = "".join("." if not ls.new else (ls.letter if ls.blank else ls.letter.upper()) for ls in main.letters)
    return f"{position_name(main.row, main.col, main.direction)} {text}"


def premium_points(move: MoveScore) -> int:
    """Points the move owes to premiums under its new letters (colour squares in Literaki):
    each new letter's extra value, times its word's multiplier."""
    return sum((ls.value - ls.base) * w.multiplier for w in move.words for ls in w.letters if ls.new)


__all__ = ["Action", "Game", "Turn", "EndAdjustment", "IllegalMove", "NotInWordList", "PLACE", "EXCHANGE", "PASS"]
