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


def solving_rack(position: Position, rack: str | None) -> str:
    """The rack to solve for: as :func:`mover_rack`, but it must be known and fit the variant's rack."""
    the_rack = mover_rack(position, rack)
    if not the_rack:
        raise InputError("no rack: give --rack LETTERS (or a position with racks, such as CGP)")
    if len(the_rack) > position.variant.rack_size:
        raise InputError(f"rack {the_rack.upper()!r} holds {len(the_rack)} tiles, at most {position.variant.rack_size}")
    return the_rack


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
    """``solve --json``: the rack, the counts, the generation time and the moves best first."""
    return {
        "rack": rack.upper(),
        "count": result.count,
        "generated": result.generated,
        "generation_ms": round(result.seconds * 1000, 3),
        "moves": [m.as_dict() for m in result.moves],
    }


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


def score_turn(text: str, move: Exchange | Pass, rack: str | None) -> TurnScore:
    """An exchange or a pass checked against the rack, when the rack is known."""
    from literaki_cli.engine.move import Exchange, take_from_rack

    problems = []
    if isinstance(move, Exchange) and rack is not None:
        _, missing = take_from_rack(move.tiles, rack)
        if missing:
            problems.append(f"the rack {rack.upper()} lacks {missing.upper()}")
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
            "placed": [{"row": t.row, "col": t.col, "letter": t.letter, "blank": t.blank} for t in result.tiles],
            "leave": self.leave.upper() if self.leave is not None else None,
            "problems": result.problems,
        }


def score_placement(
    position: Position, move: Placement, rack: str | None, lookup: Callable[[list[str]], np.ndarray]
) -> PlacementScore:
    """Score ``move`` on ``position``: legality, every word through ``lookup`` (the lexicon),
    the tiles taken from ``rack`` when it is known.  An illegal move is still scored."""
    from literaki_cli.engine.move import rack_needs, take_from_rack
    from literaki_cli.engine.scoring import evaluate_placement

    result = evaluate_placement(position.board, position.variant, move, rack, lookup)
    leave = take_from_rack(rack_needs(result.tiles), rack)[0] if rack is not None else None
    return PlacementScore(move, result, position.board.with_tiles(result.tiles), leave)
