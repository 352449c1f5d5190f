"""A game record replayed: the board, the scores, the tiles each player holds and the racks the
record knows, just before every turn; what ``analyze`` reviews and ``solve``/``show``/``score
GAME.gcg --turn N`` start from.

Turns are numbered from 1 over the turns (placements, exchanges, passes), as ``analyze``
prints them; a withdrawn placement (``--``) keeps its number, and the line that withdraws it
takes it off the board again.  A placement that does not fit the board (a square holds another
letter, a tile falls off) leaves the board unknown from there on: every later turn says so.

The racks: the mover's is the one its line writes.  Another player's rack just before a turn is
the one written on that player's next turn (nobody else's turn changes it, unless a move lands
on a forced-exchange square: then it is unknown), or, once that player has no turn left, the
leftover tiles the end-of-game lines count.  Our saves (``#literaki-state``) hold the racks of
the game as it stands.

The end of the game, two conventions (:func:`end_convention`): the Polish one (the player who
goes out gains the opponents' leftover value once, and each opponent loses their own: Literaki's
rules, kurnik's files) and the English one of Quackle and Woogles (the player who goes out gains
twice the opponent's leftover value, and the opponent loses nothing).  The replay keeps every
total as the file claims it, whichever convention it used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from literaki_cli.engine.board import Board
from literaki_cli.engine.move import EXCHANGE, PASS, PLACE
from literaki_cli.errors import InputError, message_of, said
from literaki_cli.inputs import LAST
from literaki_cli.io.gcg import END_ADJUSTMENT, WITHDRAWN, GcgGame, GcgTurn

if TYPE_CHECKING:
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.scoring import MoveScore
    from literaki_cli.engine.variant import Variant

#: :func:`end_convention`'s answers.
POLISH, ENGLISH = "polish", "english"


@dataclass(frozen=True)
class TurnStart:
    """The game just before one turn (``event``): seats are 0-based, tuples by seat."""

    number: int
    event: GcgTurn
    board: Board
    totals: tuple[int, ...]  # every player's score, as the file claims it
    held: tuple[int, ...]  # how many tiles each player holds
    exchanges: tuple[int, ...]  # exchanges each player has made
    bag: int
    zero_turns: int  # zero-scoring turns in a row just before
    passes: int  # passes in a row just before (a placement or an exchange ends the run)
    lost: str | None  # why the board is unknown (a placement before did not fit), else None

    @property
    def seat(self) -> int:
        return self.event.player


@dataclass(frozen=True)
class ReplayStep:
    """One event of the record, replayed.  ``start``: a turn's, the game just before it (None
    for any other event); ``move``: a placement scored on that board (None when it did not fit,
    ``problem`` says why, or when the board was unknown already); ``undone``: a withdrawal's,
    the number of the turn whose placement it took off the board (None when that placement
    never reached it); ``forced_exchange``: the seat whose rack the move's forced-exchange
    square exchanged."""

    event: GcgTurn
    start: TurnStart | None = None
    move: MoveScore | None = None
    problem: str = ""
    undone: int | None = None
    forced_exchange: int | None = None


@dataclass
class _Table:
    board: Board
    on_board: int
    held: list[int]
    totals: list[int]
    exchanges: list[int]
    zero_turns: int = 0
    passes: int = 0
    lost: str | None = None

    def bag(self, variant: Variant) -> int:
        return max(0, variant.tile_count - self.on_board - sum(self.held))

    def snapshot(self) -> tuple:
        return self.board, self.on_board, list(self.held), self.zero_turns, self.passes


class Replay:
    """Every event of ``game`` replayed in order (see the module docstring), as an iterable of
    :class:`ReplayStep`; once iterated, ``table`` is the game after the last event.  ``lookup``:
    the word list's lookup, to mark the words a placement forms that the list lacks (in the
    move's ``problems``); None checks no word."""

    def __init__(self, game: GcgGame, lookup: Callable | None = None) -> None:
        self.game = game
        self.lookup = lookup
        variant = game.variant
        n = len(game.players)
        self.table = _Table(Board.for_variant(variant), 0, [0] * n, [0] * n, [0] * n)
        for seat in range(n):  # the deal
            self.table.held[seat] = min(variant.rack_size, self.table.bag(variant))

    def __iter__(self) -> Iterator[ReplayStep]:
        game, table, variant = self.game, self.table, self.game.variant
        n = len(game.players)
        before_placement: dict[int, tuple[tuple, int]] = {}  # seat: (the table before its last placement, turn)
        forced_squares = variant.effect_squares("forced-exchange")
        number = 0
        for event in game.turns:
            seat = event.player
            if event.kind == WITHDRAWN:
                table.totals[seat] = event.total
                undone = None
                if seat in before_placement:  # else the placement never reached the board
                    snapshot, undone = before_placement.pop(seat)
                    table.board, table.on_board, table.held, zero_turns, passes = snapshot
                    table.zero_turns = zero_turns + 1  # the turn scored nothing after all
                    table.passes = passes + 1  # and was a pass
                yield ReplayStep(event, undone=undone)
                continue
            if not event.is_turn:
                table.totals[seat] = event.total
                yield ReplayStep(event)
                continue
            number += 1
            if table.lost is None and event.rack is not None:
                table.held[seat] = len(event.rack)
            start = TurnStart(number, event, table.board, tuple(table.totals), tuple(table.held),
                              tuple(table.exchanges), table.bag(variant), table.zero_turns, table.passes,
                              table.lost)  # fmt: skip
            move, problem = None, ""
            if table.lost is None and event.kind == PLACE:
                move, problem = _placement(event, table.board, variant, self.lookup)
                if move is None:
                    table.lost = said("line {line}'s move {coord} {word} does not fit the board ({error})",
                                      line=event.line, coord=event.coord, word=event.word, error=problem)  # fmt: skip
            victim = None
            if move is not None and forced_squares and start.bag >= variant.forced_exchange_min_bag:
                if any((t.row, t.col) in forced_squares for t in move.tiles):
                    victim = (seat + 1) % n
            yield ReplayStep(event, start, move, problem, forced_exchange=victim)
            if event.kind == PLACE and move is not None:
                before_placement[seat] = (table.snapshot(), number)
                _lay(table, move, seat, variant)
            else:
                before_placement.pop(seat, None)
            if event.kind == EXCHANGE:
                table.exchanges[seat] += 1
            table.passes = table.passes + 1 if event.kind == PASS else 0
            table.totals[seat] = event.total
            score = move.total if move is not None else event.score if event.kind == PLACE else 0
            table.zero_turns = 0 if score else table.zero_turns + 1


def _lay(table: _Table, move: MoveScore, seat: int, variant: Variant) -> None:
    laid = len(move.tiles)
    table.board = table.board.with_tiles(move.tiles)
    table.on_board += laid
    table.held[seat] = max(0, table.held[seat] - laid)
    table.held[seat] += min(laid, table.bag(variant))


def _placement(event: GcgTurn, board: Board, variant: Variant, lookup) -> tuple[MoveScore | None, str]:
    """The placement scored on ``board`` (rule and word problems in its ``problems``), or None
    and why, when it does not fit the board."""
    from literaki_cli.engine.scoring import evaluate_placement

    try:
        return evaluate_placement(board, variant, event.placement, None, lookup), ""
    except InputError as exc:
        return None, message_of(exc)


# --------------------------------------------------------------------------- a position


@dataclass
class GamePosition:
    """The position just before turn ``number`` of a record (or after its last event), as the
    engine's :class:`Position` (the mover first; racks the record does not know are empty)."""

    position: Position
    number: int  # the turn; the number after the last turn for the position at the end
    turns: int  # how many turns the record holds
    seat: int  # the player to move (0-based)
    nick: str
    event: GcgTurn | None  # the turn's line (None at the end)
    over: bool  # the game ended before this position (out, or passes)
    notes: list[str] = field(default_factory=list)
    position_source: str = ""  # the record's name, for messages

    @property
    def played(self) -> str | None:
        """The move the record has the player make here: ``8H ŻÓŁW +24``, ``-ABC``, ``-``."""
        return move_text(self.event) if self.event is not None else None

    def as_dict(self) -> dict:
        return {"turn": self.number, "turns": self.turns, "player": self.nick, "seat": self.seat + 1,
                "line": self.event.line if self.event else None, "played": self.played, "over": self.over,
                "notes": list(self.notes)}  # fmt: skip


def move_text(event: GcgTurn) -> str:
    """A turn's move as GCG writes it, without the nick and rack: ``8H ŻÓŁW +24``, ``-ABC``
    (``-7`` when only the number is written), ``-`` (a pass)."""
    if event.kind == PLACE:
        return f"{event.coord} {event.word} {event.score:+d}"
    if event.kind == EXCHANGE:
        return f"-{event.tiles.upper()}" if event.tiles is not None else f"-{event.exchanged}"
    return "-"


def game_position(game: GcgGame, turn: int | str = LAST) -> GamePosition:
    """The position just before turn ``turn`` (1-based, as ``analyze`` numbers them) or, for
    :data:`LAST`, after the record's last event.  InputError naming the record for a turn it
    does not have, or a board the replay lost before that turn."""
    replayed = Replay(game)
    steps = list(replayed)
    starts = [s.start for s in steps if s.start is not None]
    total = len(starts)
    if turn == LAST:
        number = total + 1
    elif isinstance(turn, int) and 1 <= turn <= total + 1:
        number = turn
    else:
        raise InputError(said("{source}: no turn {turn}: the game has {turns} turns (give --turn 1 to {turns}, or "
                              "last for the position after the last one)", source=game.source, turn=turn,
                              turns=total))  # fmt: skip
    if number <= total:
        start = starts[number - 1]
        if start.lost is not None:
            raise InputError(said("{source}: turn {turn}: the board is unknown: {why}", source=game.source,
                                  turn=number, why=start.lost))  # fmt: skip
        racks = _racks_before(game, steps, number)
        return _at(game, start.board, list(start.totals), racks, start.seat, number, total, start.event,
                   start.zero_turns, False)  # fmt: skip
    return _at_end(game, steps, replayed.table, total)


def _at(game: GcgGame, board: Board, totals: list[int], racks: list[str | None], seat: int, number: int, total: int,
        event: GcgTurn | None, zero_turns: int, over: bool) -> GamePosition:  # fmt: skip
    from literaki_cli.engine.position import Position

    n = len(game.players)
    order = [(seat + k) % n for k in range(n)]
    position = Position(game.variant, board, [racks[s] or "" for s in order], [totals[s] for s in order],
                        zero_turns)  # fmt: skip
    if game.lexicon:
        position.opcodes["lex"] = game.lexicon
    return GamePosition(position, number, total, seat, game.nick(seat), event, over, position_source=game.source)


def _racks_before(game: GcgGame, steps: list[ReplayStep], number: int) -> list[str | None]:
    """Every player's rack just before turn ``number``, where the record knows it."""
    n = len(game.players)
    at = next(i for i, s in enumerate(steps) if s.start is not None and s.start.number == number)
    mover = steps[at].event.player
    racks: list[str | None] = [None] * n
    racks[mover] = steps[at].event.rack
    for seat in range(n):
        if seat != mover:
            racks[seat] = _rack_later(game, steps, at, seat)
    return racks


def _rack_later(game: GcgGame, steps: list[ReplayStep], at: int, seat: int) -> str | None:
    """``seat``'s rack at step ``at`` (another player's turn), read from later in the record:
    the rack of its next turn, else its leftover tiles at the end; None when unknown (a forced
    exchange changed it in between, or the record does not say)."""
    for step in steps[at:]:
        if step.start is not None and step.event.player == seat and step is not steps[at]:
            return step.event.rack
        if step.forced_exchange == seat:
            return None
    return _leftover(game, steps, seat)


def _leftover(game: GcgGame, steps: list[ReplayStep], seat: int) -> str | None:
    """``seat``'s tiles at the end, as the end-of-game lines count them: its own line
    ``RACK (RACK) -N``, or, in a game of two, the ``(TILES) +N`` of the player who went out."""
    for step in steps:
        event = step.event
        if event.kind != END_ADJUSTMENT or event.tiles is None:
            continue
        if event.player == seat and event.score <= 0:
            return event.tiles
        if event.player != seat and event.score >= 0 and len(game.players) == 2:
            return event.tiles
    if game.state and isinstance(game.state.get("racks"), list) and len(game.state["racks"]) == len(game.players):
        rack = game.state["racks"][seat]
        return rack if isinstance(rack, str) else None
    return None


def _at_end(game: GcgGame, steps: list[ReplayStep], table: _Table, total: int) -> GamePosition:
    """The position after the record's last event: the board, the final totals, the player
    whose turn would come next (our saves say it), the racks the end lines or a save know."""
    from literaki_cli.engine.position import normalize_rack

    if table.lost is not None:
        raise InputError(said("{source}: the position after the last turn: the board is unknown: {why}",
                              source=game.source, why=table.lost))  # fmt: skip
    n = len(game.players)
    starts = [s.start for s in steps if s.start is not None]
    seat = (starts[-1].seat + 1) % n if starts else 0
    current = (game.state or {}).get("current")
    if isinstance(current, int) and not isinstance(current, bool) and 0 <= current < n:
        seat = current
    racks: list[str | None] = [None] * n
    for s in range(n):
        rack = _leftover(game, steps, s)
        try:
            racks[s] = normalize_rack(rack) if rack is not None else None
        except InputError:  # a damaged save's rack: unknown
            racks[s] = None
    ended_by_lines = any(s.event.kind == END_ADJUSTMENT for s in steps)
    out = table.bag(game.variant) == 0 and any(h == 0 for h in table.held)
    over = ended_by_lines or out or table.passes >= 2 * n
    result = _at(game, table.board, list(table.totals), racks, seat, total + 1, total, None, table.zero_turns, over)
    if over:
        result.notes.append(said("the game is over"))
    return result


# --------------------------------------------------------------------------- the end of the game


@dataclass(frozen=True)
class EndOfGame:
    """How a record ends its game: which convention its end-of-game lines follow (POLISH,
    ENGLISH, or None when they do not tell: an end by passes counts alike in both), and the
    totals the variant's own rules would give (``rules_totals``: None when the lines do not
    say every leftover).  The record's own totals stay the game's result."""

    convention: str | None
    out: int | None  # the seat that went out
    leftover: int  # the value of the tiles left on the other racks (a blank 0)
    gained: int  # what the record gives the player who went out for them
    totals: tuple[int, ...]  # the record's final totals
    rules_totals: tuple[int, ...] | None
    note: str

    def as_dict(self) -> dict:
        return {"convention": self.convention, "out": self.out + 1 if self.out is not None else None,
                "leftover": self.leftover, "gained": self.gained, "totals": list(self.totals),
                "rules_totals": list(self.rules_totals) if self.rules_totals is not None else None,
                "note": self.note}  # fmt: skip


def end_of_game(game: GcgGame, totals: list[int]) -> EndOfGame | None:
    """The end of ``game`` as its end-of-game lines write it (None when it has none), its
    final ``totals`` as the record claims them: a line ``>out: (TILES) +N`` gains the others'
    leftover value once (POLISH: Literaki's rules, kurnik's files; each opponent then loses
    its own in a line ``>opp: TILES (TILES) -N``) or twice (ENGLISH: Quackle, Woogles; the
    opponent loses nothing)."""
    variant = game.variant
    lines = [e for e in game.turns if e.kind == END_ADJUSTMENT and e.tiles is not None]
    if not lines:
        return None
    n = len(game.players)
    given = [0] * n
    for event in lines:
        given[event.player] += event.score
    before = [t - g for t, g in zip(totals, given, strict=True)]
    gains = [e for e in lines if e.rack is None and e.score >= 0]
    own = {e.player: e.tiles for e in lines if e.rack is not None and e.score <= 0}
    if not gains:  # the game ended by passes: each loses their own tiles, in either convention
        rules = [b - variant.rack_value(own[s]) if s in own else None for s, b in enumerate(before)]
        known = tuple(rules) if all(r is not None for r in rules) else None  # type: ignore[arg-type]
        return EndOfGame(None, None, 0, 0, tuple(totals), known, "the game ended by passes: each player lost the "
                         "value of their own tiles")  # fmt: skip
    out_line = gains[0]
    out = out_line.player
    leftover = variant.rack_value(out_line.tiles)
    gained = out_line.score
    others = [s for s in range(n) if s != out]
    lost = sum(-given[s] for s in others)
    who = game.nick(out)
    if gained == leftover and (lost == leftover or not leftover):
        convention = POLISH
        note = (f"the record ends the game as the rules of {variant.name} do: {who} went out and gained the value "
                f"of the tiles left, {leftover}, which the other rack lost")  # fmt: skip
    elif gained == 2 * leftover and lost == 0:
        convention = ENGLISH
        note = (f"the record ends the game the English way (Quackle, Woogles): {who} went out and gained twice the "
                f"value of the tiles left (+{gained}), and the other rack lost nothing")  # fmt: skip
    else:
        convention = None
        note = (f"the end-of-game lines follow no known convention: {who} went out with {leftover} points left on "
                f"the other racks, and the record gives {gained:+d} to {who} and {-lost:+d} to the others")  # fmt: skip
    rules_totals = None
    if n == 2:
        rules = list(before)
        rules[out] += leftover
        rules[others[0]] -= leftover
        rules_totals = tuple(rules)
    if convention != POLISH and rules_totals is not None:
        winner = _winner(totals)
        by_rules = _winner(list(rules_totals))
        same = ("the same result" if winner == by_rules else "a DIFFERENT result")
        note += (f"; by the rules of {variant.name} it would end {' / '.join(map(str, rules_totals))}, not "
                 f"{' / '.join(map(str, totals))} ({same}); the record's totals are kept")  # fmt: skip
    return EndOfGame(convention, out, leftover, gained, tuple(totals), rules_totals, note)


def _winner(totals: list[int]) -> int | None:
    """The seat with the highest total (None for a draw)."""
    best = max(totals)
    leaders = [s for s, t in enumerate(totals) if t == best]
    return leaders[0] if len(leaders) == 1 else None


__all__ = [
    "LAST",
    "POLISH",
    "ENGLISH",
    "EndOfGame",
    "GamePosition",
    "Replay",
    "ReplayStep",
    "TurnStart",
    "end_of_game",
    "game_position",
    "move_text",
]
