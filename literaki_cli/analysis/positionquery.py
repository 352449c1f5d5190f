"""The questions ``show``, ``score`` and ``solve`` ask of a position, as a user asks them, and
their answers as JSON-ready records.

The position comes from a file, stdin or a CGP string and is checked (its warnings returned,
not printed); the mover's rack is the one given, else the position's own; a move arrives as
text; the solve filters are checked against the board.  The command layer only prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from literaki_cli.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from literaki_cli.analysis.solve import Filters, SolveResult
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.move import Exchange, Pass, Placement
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.scoring import MoveScore
    from literaki_cli.engine.variant import Variant


def open_position(
    source: str, variant: str | None = None, rules: Path | None = None, fmt: str | None = None, lenient: bool = False
) -> tuple[Position, list[str]]:
    """The position at ``source`` (a file, '-' or a CGP string) and the warnings its checks give.

    A variant is forced only when ``variant`` or ``rules`` is given; otherwise the position's
    own (CGP/JSON) or the one its width implies.  An impossible position raises InputError;
    with ``lenient`` the tile-count problems are warnings instead.
    """
    from literaki_cli.engine.position import validate
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.io.positionio import load_position

    chosen = load_variant(variant or "literaki", rules) if (variant or rules) else None
    position = load_position(source, chosen, fmt)
    return position, validate(position, lenient=lenient, source=source)


def mover_rack(position: Position, rack: str | None) -> str | None:
    """The mover's rack: ``rack`` when given, else the position's own (None when unknown)."""
    from literaki_cli.engine.position import normalize_rack

    return normalize_rack(rack) if rack is not None else (position.rack or None)


def checked_rack(
    position: Position, rack: str | None, lenient: bool = False, name: str = "--rack"
) -> tuple[str | None, list[str]]:
    """The mover's rack (as :func:`mover_rack`) and the warnings about it.

    A ``--rack`` must fit the game: at most the variant's rack size, and no more of a tile (or
    of blanks) than the set holds beside the board and the other racks.  Otherwise InputError,
    or with ``lenient`` warnings (a hypothetical position).  The position's own racks were
    checked when it was opened.  ``name`` is how messages call the rack (a batch line's key).
    """
    from dataclasses import replace

    from literaki_cli.engine.position import tile_count_problems

    the_rack = mover_rack(position, rack)
    if rack is None:
        return the_rack, []
    before = set(tile_count_problems(position))
    trial = replace(position, racks=[the_rack or "", *position.racks[1:]])
    problems = [p for p in tile_count_problems(trial) if p not in before]
    if problems and not lenient:
        raise InputError(f"{name} {rack!r}: {problems[0]} (--lenient accepts it for a hypothetical position)")
    return the_rack, [f"{name} {rack!r}: {p}" for p in problems]


def solving_rack(position: Position, rack: str | None, how: str = "give --rack LETTERS") -> str:
    """The rack to solve for: as :func:`mover_rack`, but it must be known and fit the variant's
    rack (``how`` says how to give one)."""
    the_rack = mover_rack(position, rack)
    if not the_rack:
        raise InputError(f"no rack: {how} (or a position with racks, such as CGP)")
    if len(the_rack) > position.variant.rack_size:
        raise InputError(f"rack {the_rack.upper()!r} holds {len(the_rack)} tiles, at most {position.variant.rack_size}")
    return the_rack


def tiles_in_bag(position: Position, rack: str) -> int:
    """Tiles in the bag as the player to move sees it: the full set minus the board, the rack
    and the opponents' racks (a full rack for each opponent whose rack is not given; two
    players unless the position names more)."""
    from literaki_cli.engine.position import board_tiles

    variant = position.variant
    opponents = [r for r in position.racks[1:] if r]
    players = position.players
    unseen = variant.tile_count - sum(board_tiles(position.board).values()) - len(rack)
    unseen -= sum(len(r) for r in opponents)
    return max(0, unseen - (players - 1 - len(opponents)) * variant.rack_size)


def endgame_start(position: Position, rack: str) -> tuple[tuple[str, str], int]:
    """What an endgame starts from: the racks (the mover's, then the opponent's: as the position
    states it, else every unseen tile) and the passes in a row before it (the position's count
    of zero-scoring turns: with an empty bag only a pass scores nothing).  InputError unless
    the game is for two, the bag is empty and the game is not over."""
    from literaki_cli.endgame.solver import PASSES_TO_END, PLAYERS
    from literaki_cli.games.bag import unseen_tiles

    if position.players != PLAYERS:
        raise InputError(f"--endgame solves two-player games; the position has {position.players} players")
    bag = tiles_in_bag(position, rack)
    if bag:
        raise InputError(f"--endgame needs an empty bag, and {bag} tiles are still in it (the unseen tiles are "
                         "more than the opponent's rack)")  # fmt: skip
    stated = position.racks[1] if len(position.racks) > 1 and position.racks[1] else None
    opponent = stated or "".join(unseen_tiles(position.variant, position.board, [rack]))
    if not opponent:
        raise InputError("the game is over: the opponent has no tiles left (they went out)")
    if position.zero_turns >= PASSES_TO_END:
        raise InputError(f"the game is over: {position.zero_turns} zero-scoring turns in a row (passes), "
                         f"{PASSES_TO_END} end it")  # fmt: skip
    return (rack, opponent), position.zero_turns


def solve_filters(
    variant: Variant,
    min_tiles: int = 0,
    word_contains: str | None = None,
    at: str | None = None,
    only_bingos: bool = False,
) -> Filters:
    """The filters of a solve, checked: ``at`` must name a square of the board (InputError),
    ``word_contains`` is normalised like the words it is matched against."""
    from literaki_cli.analysis.solve import Filters
    from literaki_cli.engine import alphabet

    filters = Filters(min_tiles, alphabet.normalize(word_contains) if word_contains else None, at, only_bingos)
    if at:
        from literaki_cli.engine.coords import parse_square

        parse_square(at, variant.board.rows, variant.board.columns)
    return filters


def solve_record(result: SolveResult, rack: str) -> dict:
    """``solve --json``: the rack, the counts, the generation time, the moves best first (with
    their leave values and equity) and the best exchanges."""
    return {
        "rack": rack.upper(),
        "count": result.count,
        "generated": result.generated,
        "generation_ms": round(result.seconds * 1000, 3),
        "mirrors_folded": result.mirrors_folded,
        "by": result.by,
        "bag": result.bag,
        "moves": [m.as_dict() for m in result.moves],
        "exchange_allowed": result.exchange_allowed,
        "exchanges": [
            {"exchange": e.tiles.upper(), "keep": e.keep.upper(), "score": 0, "leave_value": round(e.equity, 3),
             "equity": round(e.equity, 3)}
            for e in result.exchanges
        ],
    }  # fmt: skip


# --------------------------------------------------------------------------- scoring one move


@dataclass(frozen=True)
class TurnScore:
    """An exchange or a pass: no points; an exchange of tiles the rack lacks is not legal."""

    move: str  # as given
    kind: str  # "exchange" or "pass"
    problems: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict:
        return {"move": self.move, "kind": self.kind, "total": 0, "valid": self.valid, "bingo": 0, "words": [],
                "problems": self.problems}  # fmt: skip


def score_turn(text: str, move: Exchange | Pass, rack: str | None, position: Position | None = None) -> TurnScore:
    """An exchange or a pass: an exchange needs the tiles (from the rack when it is known, else
    from what the set leaves beside the board) and, given the ``position``, a bag holding at
    least the variant's ``exchange_min_bag`` tiles (the set minus the board and known racks)."""
    from collections import Counter
    from dataclasses import replace

    from literaki_cli.engine.move import Exchange, take_from_rack
    from literaki_cli.engine.position import bag_left, board_tiles, over_supply

    problems = []
    if isinstance(move, Exchange) and rack is not None:
        _, missing = take_from_rack(move.tiles, rack)
        if missing:
            problems.append(f"the rack {rack.upper()} lacks {missing.upper()}")
    if isinstance(move, Exchange) and position is not None:
        variant = position.variant
        held = rack if rack is not None else move.tiles
        if rack is None:
            if len(move.tiles) > variant.rack_size:
                problems.append(f"{len(move.tiles)} tiles exchanged, a rack holds at most {variant.rack_size}")
            others = Counter("".join(position.racks[1:])) + board_tiles(position.board)
            problems += over_supply(variant, others + Counter(move.tiles), "exchanged, on the board and other racks")
        bag = bag_left(replace(position, racks=[held, *position.racks[1:]]))
        if bag < variant.exchange_min_bag:
            problems.append(f"the bag holds {max(bag, 0)} tiles; an exchange needs at least {variant.exchange_min_bag}")
    return TurnScore(text, "exchange" if isinstance(move, Exchange) else "pass", problems)


@dataclass(frozen=True)
class PlacementScore:
    """A placement scored word by word, the board after it, and the leave when the rack is known."""

    move: Placement
    result: MoveScore
    board_after: Board
    leave: str | None

    @property
    def valid(self) -> bool:
        return self.result.valid

    @property
    def new_squares(self) -> set[tuple[int, int]]:
        return {(t.row, t.col) for t in self.result.tiles}

    def as_dict(self) -> dict:
        """``score --json`` (README, "Positions, moves and scores")."""
        from literaki_cli.engine.move import placed_tile

        result = self.result
        return {
            "move": self.move.text,
            "kind": "place",
            "coord": self.move.coord,
            "total": result.total,
            "valid": result.valid,
            "bingo": result.bingo,
            "tiles_placed": len(result.tiles),
            "words": [w.as_dict() for w in result.words],
            "placed": [placed_tile(t) for t in result.tiles],  # the convention of solve --json
            "leave": self.leave.upper() if self.leave is not None else None,
            "problems": result.problems,
        }


def score_placement(
    position: Position,
    move: Placement,
    rack: str | None,
    lookup: Callable[[list[str]], np.ndarray],
    lenient: bool = False,
) -> PlacementScore:
    """Score ``move`` on ``position``: legality, every word through ``lookup`` (the lexicon),
    the tiles taken from ``rack`` when it is known.  An illegal move is still scored.

    A lower-case letter is a blank standing for it (GCG), so the move is illegal when it needs
    more blanks, or more of a letter, than the set holds beside the board and the other racks
    (not checked with ``lenient``: a hypothetical position)."""
    from collections import Counter

    from literaki_cli.engine.move import rack_needs, take_from_rack
    from literaki_cli.engine.position import board_tiles, over_supply
    from literaki_cli.engine.scoring import evaluate_placement

    result = evaluate_placement(position.board, position.variant, move, rack, lookup)
    if not lenient:
        others = board_tiles(position.board) + Counter("".join(position.racks[1:]))
        needs = Counter(rack_needs(result.tiles))
        for problem in over_supply(position.variant, others + needs, "with the board and other racks"):
            hint = " (a lower-case letter is a blank)" if "blanks" in problem else ""
            result.problems.append(f"the move needs more tiles than the set holds: {problem}{hint}")
    leave = take_from_rack(rack_needs(result.tiles), rack)[0] if rack is not None else None
    return PlacementScore(move, result, position.board.with_tiles(result.tiles), leave)


def score_move(
    position: Position, text: str, rack: str | None, open_lexicon: Callable[[], object], lenient: bool = False
) -> TurnScore | PlacementScore:
    """``score``'s answer for the move written ``text`` (GCG: a placement, ``-TILES`` an
    exchange, ``-`` a pass): a placement is judged against the lexicon ``open_lexicon()``
    gives (opened only for a placement), the rest by :func:`score_turn`.  ``score`` and
    ``score --batch`` both answer through it."""
    from literaki_cli.engine.move import Placement, parse_move

    parsed = parse_move(text, position.variant)
    if not isinstance(parsed, Placement):
        return score_turn(text, parsed, rack, position)
    return score_placement(position, parsed, rack, open_lexicon().words.lookup, lenient)
