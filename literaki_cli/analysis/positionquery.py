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

from literaki_cli.errors import InputError, message_of, said

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

    from literaki_cli.analysis.solve import Filters, SolveResult
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.move import Exchange, Pass, Placement
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.scoring import MoveScore
    from literaki_cli.engine.variant import Variant
    from literaki_cli.games.replay import GamePosition


def open_position(
    source: str, variant: str | None = None, rules: Path | None = None, fmt: str | None = None, lenient: bool = False
) -> tuple[Position, list[str]]:
    """The position at ``source`` (a file, '-' or a CGP string) and the warnings its checks give.

    A variant is forced only when ``variant`` or ``rules`` is given; otherwise the position's
    own (CGP/JSON) or the one its width implies.  An impossible position raises InputError;
    with ``lenient`` the tile-count problems are warnings instead.  A game record is refused:
    :func:`open_game_position` takes one.
    """
    opened = open_game_position(source, variant, rules, fmt, lenient)
    return opened.position, opened.warnings


#: ``need_turn`` for a batch line (its key, not an option, is asked for).
BATCH_TURN = "batch"
#: How ``--turn`` and a batch line's ``"turn"`` are explained in messages (:func:`parse_turn`'s message
#: spells it out in these words).
TURN_HELP = "a turn number (1 for the first) or last"


@dataclass
class OpenedPosition:
    """A position as a command opened it: the warnings of its checks and, when it came from
    a game record, where in the game it stands (:class:`~literaki_cli.games.replay.GamePosition`)."""

    position: Position
    warnings: list[str]
    game: GamePosition | None = None
    record: str | None = None  # the game record's text (UTF-8), when it came from one


def parse_turn(value: object, name: str = "--turn") -> int | str | None:
    """A turn as a user gives it: a whole number from 1, or ``last`` (None stays None)."""
    from literaki_cli.inputs import LAST

    if value is None or value == LAST or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return value
    if isinstance(value, str) and value.strip().isdigit() and int(value) >= 1:
        return int(value)
    from literaki_cli.inputs import shown

    shown_value = shown(value) if isinstance(value, str) else repr(value)
    raise InputError(said("{name} {value}: give a turn number (1 for the first) or last", name=name, value=shown_value))


def refuse_finished(game: GamePosition | None) -> None:
    """InputError when the position comes from a record whose game is over (there is no move
    left to find or score in it)."""
    if game is not None and game.over:
        raise InputError(said("{source}: the game is over after turn {turns}: give --turn 1 to {turns} for a position "
                              "in it", source=game.position_source, turns=game.turns))  # fmt: skip


def looks_like_game_record(text: str) -> bool:
    """A GCG file starts with a pragma (``#character-encoding``, ``#player1``) or an event
    (``>nick:``); no board text, CGP or JSON position starts so."""
    stripped = text.lstrip("\ufeff \t\r\n")
    return stripped[:1] in ("#", ">")


def open_game_position(source: str, variant: str | None = None, rules: Path | None = None, fmt: str | None = None,
                       lenient: bool = False, turn: int | str | None = None,
                       default_turn: int | str | None = None, need_turn: str = "") -> OpenedPosition:  # fmt: skip
    """The position at ``source`` as :func:`open_position` reads it, or, from a game record
    (GCG: detected, or ``fmt`` "gcg"), the position just before turn ``turn`` (else
    ``default_turn``; with neither, InputError saying to add ``--turn``, ``need_turn`` naming the
    command).  ``turn`` with a position that is no game record is an InputError."""
    from literaki_cli.engine.position import validate
    from literaki_cli.engine.variant import load_variant
    from literaki_cli.io.gcg import MAX_GCG_BYTES, decode_gcg
    from literaki_cli.io.positionio import MAX_POSITION_BYTES, load_position_bytes, read_position

    chosen = load_variant(variant or "literaki", rules) if (variant or rules) else None
    loaded = load_position_bytes(source, MAX_GCG_BYTES)
    game = record = None
    if loaded is None:  # a CGP string
        position = read_position(source, said("CGP argument"), chosen, fmt or "cgp")
    else:
        data, name = loaded
        if fmt == "gcg" or (fmt is None and looks_like_game_record(data[:4096].decode("utf-8", "replace"))):
            game = read_game_position(data, name, chosen, turn if turn is not None else default_turn, need_turn)
            position = game.position
            record = decode_gcg(data, name)[0]
        elif len(data) > MAX_POSITION_BYTES:
            raise InputError(said("{source}: more than {most:,} bytes: not a position", source=name,
                                  most=MAX_POSITION_BYTES))  # fmt: skip
        else:
            from literaki_cli.engine.textdecode import decode_text

            position = read_position(decode_text(data, name), name, chosen, fmt)
    if game is None and turn is not None:
        raise InputError(said("--turn {turn}: only for a game record (GCG); {source} is a position", turn=turn,
                              source=source))  # fmt: skip
    return OpenedPosition(position, validate(position, lenient=lenient, source=source), game, record)


def read_game_position(data: bytes | str, source: str, variant: Variant | None, turn: int | str | None,
                       need_turn: str = "") -> GamePosition:  # fmt: skip
    """The position before turn ``turn`` of the GCG record ``data`` (bytes as a file holds
    them, or text); InputError when no turn is given (``need_turn``: the command, for the
    message, or :data:`BATCH_TURN`) or the record does not have it."""
    from literaki_cli.games.replay import game_position
    from literaki_cli.io.gcg import decode_gcg, parse_gcg

    text = decode_gcg(data, source)[0] if isinstance(data, bytes) else data
    record = parse_gcg(text, source, variant)
    if turn is None:
        turns = sum(1 for event in record.turns if event.is_turn)
        if need_turn == BATCH_TURN:
            ask, last = '"turn": N', '"turn": "last"'
        else:
            ask, last = " ".join(filter(None, (need_turn, "--turn N"))), "--turn last"
        raise InputError(said("{source} is a game record: give {ask} for the position before turn N (1 to {turns}), "
                              "or {last} for the position after the last turn", source=source, ask=ask, turns=turns,
                              last=last))  # fmt: skip
    return game_position(record, turn)


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
        raise InputError(said("{name} {rack!r}: {problem} (--lenient accepts it for a hypothetical position)",
                              name=name, rack=rack, problem=problems[0]))  # fmt: skip
    return the_rack, [said("{name} {rack!r}: {problem}", name=name, rack=rack, problem=p) for p in problems]


def solving_rack(position: Position, rack: str | None, how: str = "give --rack LETTERS") -> str:
    """The rack to solve for: as :func:`mover_rack`, but it must be known and fit the variant's
    rack (``how`` says how to give one)."""
    the_rack = mover_rack(position, rack)
    if not the_rack:
        raise InputError(said("no rack: {how} (or a position with racks, such as CGP)", how=how))
    if len(the_rack) > position.variant.rack_size:
        raise InputError(said("rack {rack!r} holds {count} tiles, at most {most}", rack=the_rack.upper(),
                              count=len(the_rack), most=position.variant.rack_size))  # fmt: skip
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
        raise InputError(said("--endgame solves two-player games; the position has {players} players",
                              players=position.players))  # fmt: skip
    bag = tiles_in_bag(position, rack)
    if bag:
        raise InputError(said("--endgame needs an empty bag, and {bag} tiles are still in it (the unseen tiles are "
                              "more than the opponent's rack)", bag=bag))  # fmt: skip
    stated = position.racks[1] if len(position.racks) > 1 and position.racks[1] else None
    opponent = stated or "".join(unseen_tiles(position.variant, position.board, [rack]))
    if not opponent:
        raise InputError(said("the game is over: the opponent has no tiles left (they went out)"))
    if position.zero_turns >= PASSES_TO_END:
        raise InputError(said("the game is over: {count} zero-scoring turns in a row (passes), {most} end it",
                              count=position.zero_turns, most=PASSES_TO_END))  # fmt: skip
    return (rack, opponent), position.zero_turns


def peg_start(position: Position, rack: str):
    """The pre-endgame the player to move faces (:class:`~literaki_cli.endgame.peg.PegPosition`):
    their rack, the unseen tiles, the bag, the spread and the passes.  InputError unless the
    game is for two, 1 or 2 tiles are in the bag, no exchange is allowed with so few (the search
    knows placements and passes) and the game is not over."""
    from literaki_cli.endgame.peg import MAX_BAG, PegPosition
    from literaki_cli.endgame.solver import PASSES_TO_END, PLAYERS
    from literaki_cli.games.bag import unseen_tiles

    if position.players != PLAYERS:
        raise InputError(said("--peg solves two-player games; the position has {players} players",
                              players=position.players))  # fmt: skip
    bag = tiles_in_bag(position, rack)
    if bag == 0:
        raise InputError(said("--peg needs 1 or 2 tiles in the bag, and the bag is empty: use --endgame"))
    if bag > MAX_BAG:
        raise InputError(said("--peg needs 1 or 2 tiles in the bag, and {bag} are in it: use --sim", bag=bag))
    if position.variant.exchange_min_bag <= bag:
        raise InputError(said("--peg: these rules allow an exchange with {bag} tiles in the bag (min_bag {least}); "
                              "the pre-endgame searches placements and passes only", bag=bag,
                              least=position.variant.exchange_min_bag))  # fmt: skip
    if position.zero_turns >= PASSES_TO_END:
        raise InputError(said("the game is over: {count} zero-scoring turns in a row (passes), {most} end it",
                              count=position.zero_turns, most=PASSES_TO_END))  # fmt: skip
    stated = position.racks[1] if len(position.racks) > 1 and position.racks[1] else None
    unseen = "".join(sorted(unseen_tiles(position.variant, position.board, [rack])))
    spread = position.scores[0] - position.scores[1] if len(position.scores) >= 2 else 0
    return PegPosition(position.board, rack, unseen, bag, spread, position.zero_turns, stated)


@dataclass(frozen=True)
class UnseenTiles:
    """The tiles the player to move cannot see: the full set minus the board and their own
    rack (the bag and the opponents' racks together), and how many of them are in the bag."""

    counts: dict[str, int]  # letter (upper case, '?' for a blank) -> count, in alphabet order
    bag: int
    by_colour: list[tuple[str, dict[str, int]]]  # (colour, its letters), the cheapest colour first, blanks last

    @property
    def count(self) -> int:
        return sum(self.counts.values())

    def as_dict(self) -> dict:
        """The ``unseen`` and ``bag`` keys of ``solve --json`` and ``show --json``."""
        return {"unseen": dict(self.counts), "bag": self.bag}

    def text(self) -> str:
        """``unseen 23 (bag 16): yellow A2 E I O; green ...; blank ?``."""
        groups = [f"{colour} {' '.join(t + (str(n) if n > 1 else '') for t, n in tiles.items())}"
                  for colour, tiles in self.by_colour]  # fmt: skip
        return f"unseen {self.count} (bag {self.bag}): " + ("; ".join(groups) or "none")


def unseen_tiles_of(position: Position, rack: str | None) -> UnseenTiles:
    """What the player to move with ``rack`` (None: unknown) cannot see on ``position``; the
    bag counts a full rack for every player whose rack is not known."""
    from literaki_cli.engine.position import BLANK, board_tiles
    from literaki_cli.games.bag import unseen_tiles

    variant = position.variant
    tiles = unseen_tiles(variant, position.board, [rack or ""])
    counts: dict[str, int] = {}
    for tile in tiles:
        counts[tile.upper()] = counts.get(tile.upper(), 0) + 1
    colours: dict[str, dict[str, int]] = {}
    for tile, n in counts.items():
        colour = "blank" if tile == BLANK else variant.tiles[tile.lower()].colour
        colours.setdefault(colour, {})[tile] = n
    order = sorted(colours, key=lambda c: (c == "blank", variant.colours.get(c, 0), c))
    held = [len(rack) if rack else variant.rack_size]
    held += [len(r) if r else variant.rack_size for r in position.racks[1:]]
    held += [variant.rack_size] * (position.players - len(held))
    bag = max(0, variant.tile_count - sum(board_tiles(position.board).values()) - sum(held))
    return UnseenTiles(counts, bag, [(c, colours[c]) for c in order])


def seen_record(opened: OpenedPosition, rack: str) -> dict:
    """What ``solve --json`` (and its batch lines) adds to its answer: the tiles the player to
    move with ``rack`` cannot see, the bag, and where in a game record the position stands."""
    record = unseen_tiles_of(opened.position, rack).as_dict()
    if opened.game is not None:
        record["game"] = opened.game.as_dict()
    return record


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
    (not checked with ``lenient``: a hypothetical position).  A letter written over a board
    tile of another letter is no move on this board: InputError saying what to write instead."""
    from collections import Counter

    from literaki_cli.engine.move import TileConflict, rack_needs, take_from_rack
    from literaki_cli.engine.position import board_tiles, over_supply
    from literaki_cli.engine.scoring import evaluate_placement

    try:
        result = evaluate_placement(position.board, position.variant, move, rack, lookup)
    except TileConflict as exc:
        hint = conflict_hint(position.board, move, exc)
        raise InputError(said("{error}{hint}", error=message_of(exc), hint=hint)) from None
    if not lenient:
        others = board_tiles(position.board) + Counter("".join(position.racks[1:]))
        needs = Counter(rack_needs(result.tiles))
        for problem in over_supply(position.variant, others + needs, "with the board and other racks"):
            hint = " (a lower-case letter is a blank)" if "blanks" in problem else ""
            result.problems.append(f"the move needs more tiles than the set holds: {problem}{hint}")
    leave = take_from_rack(rack_needs(result.tiles), rack)[0] if rack is not None else None
    return PlacementScore(move, result, position.board.with_tiles(result.tiles), leave)


#: The letters of the Polish alphabet written with a mark (ą, ć, ...) and the plain letter each
#: is mistaken for when typed without it.
_PLAIN_LETTER = {"ą": "a", "ć": "c", "ę": "e", "ł": "l", "ń": "n", "ó": "o", "ś": "s", "ź": "z", "ż": "z"}


def conflict_hint(board: Board, move: Placement, conflict) -> str:
    """What :func:`score_placement` adds to the error of a letter written over a board tile of
    another letter (a :class:`~literaki_cli.engine.move.TileConflict`): that the two are
    different letters when they differ only by a mark (O and Ó), how to write the board's
    tile, and, when the move writes new tiles in lower case, that those are blanks in
    ``score`` and the move that lays tiles instead (``H7 Z.LW``)."""
    from literaki_cli.engine.variant import ACROSS

    tile, letter = conflict.tile.upper(), conflict.letter.upper()
    plain = [_PLAIN_LETTER.get(ch, ch) for ch in (conflict.tile, conflict.letter)]
    accent = conflict.tile != conflict.letter and plain[0] == plain[1]
    if accent:
        hint = said(" ({letter} and {tile} are different letters; write {tile} or '.' for a tile already on the board)",
                    letter=letter, tile=tile)  # fmt: skip
    else:
        hint = said(" (write {tile} or '.' for a tile already on the board)", tile=tile)
    dr, dc = (0, 1) if move.direction == ACROSS else (1, 0)
    written, blanks = [], False
    for i, token in enumerate(move.tokens):
        r, c = move.row + dr * i, move.col + dc * i
        if token.letter is None or (r < board.rows and c < board.columns and board.occupied(r, c)):
            written.append(".")
        else:
            blanks |= not token.upper
            written.append(token.letter.upper())
    if blanks:
        hint = said("{hint}; lower-case letters are blanks: write {coord} {word} for tiles", hint=hint,
                    coord=move.coord, word="".join(written))  # fmt: skip
    return hint


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
