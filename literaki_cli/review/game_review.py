"""``analyze``: a played game reviewed turn by turn, as the Woogles / Macondo analyzers do
(../shared/docs/strategy.md, "Game analysis").

The game (a :class:`~literaki_cli.io.gcg.GcgGame`) is replayed on a board; every placement is
scored by the engine (a score the file claims that the rules do not give is reported, not
trusted).  For each turn whose rack the file records, the move played is valued by static
equity (score + the value of the tiles kept, for the bag as it was: :mod:`literaki_cli.equity`)
and so is the best move: the best placement, ranked exactly as ``solve`` ranks them, or the
best exchange when it is worth more and the rules allow one (bag and exchanges left), or a pass
when there is neither.  The equity lost is the difference (0 when the move played is the best).

* A turn without a known rack is reported as not analysable, never guessed; its move is still
  replayed.  So is a rack that lacks the tiles the move lays.
* A placement that does not fit the board (a square holds another letter, a tile falls off)
  leaves the board unknown: every later turn is reported as not analysable, saying why.
* A placement withdrawn after a challenge (``--``) scored 0 and kept the rack: it is valued as
  such, and taken off the board again.

Simulation plugs in per turn: :func:`analyze_game` takes ``simulate``, called on every
analysable turn with its :class:`TurnPosition` (the position before the move, the rack, the bag)
and the turn's review; what it returns is the turn's ``best_sim``.

The exact endgame search plugs in the same way: ``endgame`` (an
:class:`~literaki_cli.review.endgame_review.EndgameReviewer`) is called on every analysable
turn played with the bag empty; when it values the turn (``method`` "endgame"), the best move and
both values are the endgame's (the spread change to the end of the game) and the turn is not
simulated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from literaki_cli.engine.move import rack_needs, take_from_rack
from literaki_cli.errors import joined, said
from literaki_cli.games.game import EXCHANGE, PASS, PLACE
from literaki_cli.games.replay import EndOfGame, Replay, ReplayStep, end_of_game
from literaki_cli.io.gcg import END_ADJUSTMENT, WITHDRAWN, GcgGame, GcgTurn

if TYPE_CHECKING:
    from literaki_cli.analysis.solve import FoundMove
    from literaki_cli.engine.board import Board
    from literaki_cli.engine.lexicon import Lexicon
    from literaki_cli.engine.position import Position
    from literaki_cli.engine.scoring import MoveScore
    from literaki_cli.engine.variant import Variant
    from literaki_cli.equity.equity import Equity
    from literaki_cli.equity.leaves import RackLeaves
    from literaki_cli.review.endgame_review import EndgameReviewer

#: Equity differences below this are rounding, not a worse move.
EQUITY_NOISE = 1e-6
#: How many of each player's biggest mistakes the summary lists by default.
DEFAULT_MISTAKES = 5
#: How a turn's best move and equity lost were found (``TurnReview.method``): static equity,
#: static equity and a simulation beside it (``best_sim``), the exact endgame search, the
#: pre-endgame search (1 or 2 tiles in the bag: ``analyze --peg-time``).
STATIC, SIM, ENDGAME, PEG = "static", "sim", "endgame", "peg"
#: The methods whose values are spread changes to the end of the game (no leave values).
SEARCHED = (ENDGAME, PEG)


@dataclass
class MoveSummary:
    """A move as the review shows it.  ``word``: the main word with tiles upper case and blanks
    lower case (board tiles included, as ``solve`` writes it); ``-ABC`` for an exchange, ``-``
    for a pass.  ``equity`` is None when it cannot be known (no rack)."""

    kind: str
    coord: str | None
    word: str
    score: int
    equity: float | None = None
    leave: str | None = None
    leave_value: float | None = None
    bingo: bool = False
    display: str | None = None  # board tiles in parentheses: ŻÓ(Ł)W
    tiles: frozenset = frozenset()  # a placement's new tiles (which moves are the same move)

    @classmethod
    def of_move(cls, move: FoundMove) -> MoveSummary:
        """A placement as ``solve`` returns it (its equity = score + leave value)."""
        return cls(PLACE, move.coord, move.word, move.score, move.score + move.leave_value, move.leave,
                   move.leave_value, move.bingo, move.display, frozenset(move.tiles))  # fmt: skip

    @classmethod
    def of_exchange(cls, tiles: str, keep: str, equity: float) -> MoveSummary:
        """An exchange of ``tiles`` keeping ``keep`` (its equity: the kept tiles' value)."""
        return cls(EXCHANGE, None, f"-{tiles.upper()}", 0, equity, keep, equity)

    @property
    def text(self) -> str:
        """``8H ŻÓŁW``, ``-ABC`` or ``-``."""
        return f"{self.coord} {self.word}" if self.coord else self.word

    def same_as(self, other: MoveSummary) -> bool:
        if self.kind != other.kind:
            return False
        if self.kind == PLACE:
            return self.tiles == other.tiles
        return sorted(self.word) == sorted(other.word)

    def as_dict(self) -> dict:
        return {
            "coord": self.coord,
            "word": self.word,
            "score": self.score,
            "equity": _rounded(self.equity),
            "kind": self.kind,
            "display": self.display,
            "leave": self.leave.upper() if self.leave is not None else None,
            "leave_value": _rounded(self.leave_value),
            "bingo": self.bingo,
        }


@dataclass
class TurnReview:
    """One turn: the move played, the best move (None: not analysable, ``notes`` say why), the
    equity lost, and what the file claims.  ``turn`` counts the game's turns from 1."""

    turn: int
    seat: int  # 0-based
    nick: str
    line: int
    rack: str | None
    bag: int | None  # tiles in the bag when the move was made
    played: MoveSummary
    best: MoveSummary | None = None
    best_sim: MoveSummary | None = None  # filled by a simulation (analyze --sim): its equity the simulated mean
    equity_loss: float | None = None
    played_sim_equity: float | None = None  # the move played, simulated beside the candidates (analyze --sim)
    sim_equity_loss: float | None = None  # best_sim's simulated equity minus the played move's
    bingo_available: bool | None = None
    score_claimed: int = 0
    total: int = 0  # the mover's score after the turn, as the file says
    scores: list[int] = field(default_factory=list)  # every player's score after the turn
    withdrawn: bool = False
    notes: list[str] = field(default_factory=list)
    pass_equity: float | None = None  # what keeping the whole rack was worth (a withdrawn move's equity)
    method: str | None = None  # STATIC, SIM or ENDGAME; None when not analysable
    exact: bool | None = None  # the values are the game's own (a finished endgame search)
    endgame_nodes: int | None = None  # the endgame search's work on this turn (method ENDGAME)
    endgame_seconds: float | None = None
    win_best: float | None = None  # the pre-endgame's chance (0..1) to win after the best move (method PEG)
    win_played: float | None = None  # ... and after the move played

    @property
    def analysable(self) -> bool:
        return self.best is not None

    @property
    def bingo_missed(self) -> bool | None:
        if self.bingo_available is None:
            return None
        return self.bingo_available and not self.played.bingo

    @property
    def spread(self) -> int:
        """The mover's lead after the turn (its score minus the best other score)."""
        others = [s for i, s in enumerate(self.scores) if i != self.seat]
        return self.total - max(others) if others else self.total

    def as_dict(self) -> dict:
        return {
            "turn": self.turn,
            "player": self.nick,
            "seat": self.seat + 1,
            "rack": self.rack.upper() if self.rack is not None else None,
            "played": self.played.as_dict(),
            "best": self.best.as_dict() if self.best else None,
            "best_sim": self.best_sim.as_dict() if self.best_sim else None,
            "equity_loss": _rounded(self.equity_loss),
            "played_sim_equity": _rounded(self.played_sim_equity),
            "sim_equity_loss": _rounded(self.sim_equity_loss),
            "method": self.method,
            "exact": self.exact,
            "endgame_nodes": self.endgame_nodes,
            "endgame_seconds": _rounded(self.endgame_seconds),
            "win_best": _rounded(self.win_best),
            "win_played": _rounded(self.win_played),
            "kind": self.played.kind,
            "line": self.line,
            "bag": self.bag,
            "bingo_available": self.bingo_available,
            "bingo_missed": self.bingo_missed,
            "score_claimed": self.score_claimed,
            "total": self.total,
            "scores": self.scores,
            "spread": self.spread,
            "withdrawn": self.withdrawn,
            "analysable": self.analysable,
            "note": joined(self.notes) or None,
        }


@dataclass
class PlayerReview:
    seat: int
    nick: str
    name: str
    score: int  # final, as the file says
    turns: int = 0
    analysed: int = 0
    equity_lost: float = 0.0
    bingos: int = 0
    bingos_missed: int = 0
    end_adjustment: int = 0
    mistakes: list[TurnReview] = field(default_factory=list)

    @property
    def not_analysable(self) -> int:
        return self.turns - self.analysed

    @property
    def mean_equity_lost(self) -> float | None:
        return self.equity_lost / self.analysed if self.analysed else None

    def as_dict(self) -> dict:
        return {
            "player": self.nick,
            "seat": self.seat + 1,
            "name": self.name,
            "score": self.score,
            "turns": self.turns,
            "turns_analysed": self.analysed,
            "turns_not_analysable": self.not_analysable,
            "equity_lost": _rounded(self.equity_lost),
            "mean_equity_lost": _rounded(self.mean_equity_lost),
            "bingos": self.bingos,
            "bingos_missed": self.bingos_missed,
            "end_adjustment": self.end_adjustment,
            "mistakes": [
                {"turn": t.turn, "played": t.played.text, "best": t.best.text if t.best else None,
                 "equity_loss": _rounded(t.equity_loss), "method": t.method}
                for t in self.mistakes
            ],
        }  # fmt: skip


@dataclass
class GameReview:
    game: GcgGame
    turns: list[TurnReview]
    players: list[PlayerReview]
    end: EndOfGame | None = None  # how the record ends the game (None: it has no end-of-game lines)
    notes: list[str] = field(default_factory=list)  # about the whole game (the lexicon it names)

    def as_dict(self) -> dict:
        """``analyze --json``."""
        end = self.end.as_dict() if self.end is not None else None
        return {"turns": [t.as_dict() for t in self.turns], "players": [p.as_dict() for p in self.players],
                "end": end, "encoding": self.game.encoding, "notes": list(self.notes)}  # fmt: skip

    def rows(self) -> list[dict]:
        """One flat record per turn (``--out``: the JSON's columns, ``played_coord`` and so on)."""
        rows = []
        for turn in self.turns:
            record = turn.as_dict()
            row = {}
            for key, value in record.items():
                if key in ("played", "best", "best_sim"):
                    for name in MOVE_FIELDS:
                        row[f"{key}_{name}"] = value[name] if value else None
                elif key == "scores":
                    for i in range(len(self.players)):
                        row[f"score_{i + 1}"] = value[i] if i < len(value) else None
                else:
                    row[key] = value
            rows.append(row)
        return rows


#: The fields of a move in the flat table, in order.
MOVE_FIELDS = ("coord", "word", "score", "equity", "kind", "display", "leave", "leave_value", "bingo")


@dataclass(frozen=True)
class TurnPosition:
    """What the mover saw: the board before the move, the rack, the bag, the scores (the mover's
    first), whether an exchange was allowed; enough to simulate the turn's candidates."""

    variant: Variant
    board: Board
    rack: str
    bag: int
    seat: int
    scores: tuple[int, ...]  # before the turn, the mover first, then the others in turn order
    exchange_allowed: bool
    zero_turns: int
    passes: int = 0  # passes in a row just before the turn (the end of the game counts them)

    def position(self) -> Position:
        """The engine's position (the opponents' racks unknown), as ``solve`` reads it from CGP."""
        from literaki_cli.engine.position import Position

        return Position(self.variant, self.board, [self.rack] + [""] * (len(self.scores) - 1), list(self.scores),
                        self.zero_turns)  # fmt: skip


#: ``simulate(position, turn) -> the best move by simulation`` (or None), for ``analyze --sim``.
SimulateTurn = Callable[[TurnPosition, TurnReview], "MoveSummary | None"]
#: ``hook(position, turn)``: a search that may value a turn instead of static equity (True when
#: it did), as the pre-endgame does.
TurnHook = Callable[[TurnPosition, "TurnReview"], bool]
#: ``progress(turns)``: called after each turn is reviewed (a progress bar's ``update``).
Progress = Callable[[int], None]


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(float(value), 3)


# --------------------------------------------------------------------------- the best move


class BestMoves:
    """The best move by static equity for a board and rack: the same generator, leave values
    and ranking as ``solve`` (ties by its order: score, direction, row, column, word), the
    best exchange beside it, and whether any placement lays the whole rack (a bingo)."""

    def __init__(self, variant: Variant, lexicon: Lexicon, equity: Equity) -> None:
        from literaki_cli.engine.movegen import MoveGenerator

        self.variant = variant
        self.equity = equity
        self.generator = MoveGenerator(lexicon, variant)

    def leaves(self, rack: str, bag: int) -> RackLeaves:
        """Every leave of ``rack`` valued for a bag of ``bag`` tiles (once per turn: the move
        played, the best placement and the best exchange share it)."""
        return self.equity.for_rack(rack, bag)

    def best(self, board: Board, rack: str, leaves: RackLeaves, bag: int,
             exchange_allowed: bool) -> tuple[MoveSummary, bool]:  # fmt: skip
        """(the best move, whether a bingo was available)."""
        from literaki_cli.analysis.solve import best_by_equity, found_move
        from literaki_cli.engine.movegen import SCORE, TILES

        arrays = self.generator.generate(board, rack)
        records = arrays.records
        best = None
        if len(arrays):
            values = leaves.of_moves(records)
            index = best_by_equity(arrays, values)
            best = MoveSummary.of_move(found_move(records[index], 1, board, self.variant, rack, values[index]))
            best.equity = float(records[index, SCORE] + values[index])  # unrounded
            best.leave_value = float(values[index])
        if exchange_allowed:
            options = self.equity.exchanges(rack, bag, 1, leaves)
            if options and (best is None or options[0].equity > best.equity):
                best = MoveSummary.of_exchange(options[0].tiles, options[0].keep, options[0].equity)
        if best is None:
            kept = float(leaves.values[-1])
            best = MoveSummary(PASS, None, "-", 0, kept, rack, kept)
        bingo = bool(len(arrays)) and bool((records[:, TILES] == self.variant.bingo_tiles).any())
        return best, bingo


# --------------------------------------------------------------------------- the review


def analyze_game(
    game: GcgGame,
    lexicon: Lexicon,
    equity: Equity,
    mistakes: int = DEFAULT_MISTAKES,
    simulate: SimulateTurn | None = None,
    endgame: EndgameReviewer | None = None,
    progress: Progress | None = None,
    pre_endgame: TurnHook | None = None,
) -> GameReview:
    """Replay (:class:`~literaki_cli.games.replay.Replay`) and review ``game`` (see the module
    docstring); ``mistakes``: how many of each player's biggest losses the summary keeps;
    ``endgame``: the exact search for the turns played with the bag empty (None: static equity
    there too); ``pre_endgame``: the pre-endgame search for the turns played with 1 or 2 tiles
    in the bag (:class:`~literaki_cli.review.peg_review.PegReviewer`)."""
    n = len(game.players)
    best_moves = BestMoves(game.variant, lexicon, equity)
    replayed = Replay(game, lexicon.words.lookup)  # a few words per move: walked in Python, no kernel to load
    reviews: list[TurnReview] = []
    positions: dict[int, TurnPosition | None] = {}  # turn: what the mover saw (a withdrawal revisits it)
    adjustments = [0] * n
    for step in replayed:
        event = step.event
        if event.kind == WITHDRAWN:
            if step.undone is not None:
                review, position = reviews[step.undone - 1], positions[step.undone]
                if review.method == ENDGAME and endgame is not None and position is not None:
                    endgame.withdrawn(position, review)  # the pass's exact value (or the static review back)
                _withdraw(review)
                review.total, review.scores = event.total, list(replayed.table.totals)
            continue
        if step.start is None:
            if event.kind == END_ADJUSTMENT:
                adjustments[event.player] += event.score
            continue
        review, position = _turn(step, game, equity, best_moves, endgame)
        if position is not None and pre_endgame is not None and review.method == STATIC:
            pre_endgame(position, review)
        positions[review.turn] = position
        if position is not None and simulate is not None:
            if review.method in SEARCHED:
                searched = said("not simulated: the endgame search valued this turn") if review.method == ENDGAME \
                    else said("not simulated: the pre-endgame search valued this turn")  # fmt: skip
                review.notes.append(searched)
            else:
                review.best_sim = simulate(position, review)
                if review.best_sim is not None:
                    review.method = SIM
        previous = step.start.totals[event.player]
        if previous + event.score != event.total:
            review.notes.append(said("the total {total} does not follow from {previous} {score:+d}",
                                     total=event.total, previous=previous, score=event.score))  # fmt: skip
        review.total, review.scores = event.total, [*step.start.totals]
        review.scores[event.player] = event.total
        reviews.append(review)
        if progress is not None:
            progress(1)
    totals = replayed.table.totals
    players = _summaries(game, reviews, adjustments, totals, mistakes)
    notes = [note] if (note := lexicon_note(game.lexicon, lexicon)) else []
    return GameReview(game, reviews, players, end_of_game(game, totals), notes)


def lexicon_note(named: str | None, lexicon: Lexicon) -> str | None:
    """What to say when the record names a word list other than the one it is reviewed with
    (names compared without case or extension; one the start of the other is the same list,
    as SJP and sjp-20260201)."""
    source = lexicon.meta.get("source", {}) if isinstance(lexicon.meta, dict) else {}
    ours = str(source.get("file") or source.get("name") or "").rsplit(".", 1)[0]
    if not named or not ours:
        return None
    a, b = named.lower(), ours.lower()
    if a.startswith(b) or b.startswith(a):
        return None
    return said("the record names the word list {named}; it is reviewed with {ours} (a word the lists differ on is "
                "judged by {ours}: the turn's notes say so)", named=named, ours=ours)  # fmt: skip


def _withdraw(review: TurnReview) -> None:
    """A placement taken back after a challenge: no points, every tile kept."""
    review.withdrawn = True
    played = review.played
    review.notes.append(said("withdrawn after a challenge ({move} would score {score}): the turn scored 0 and kept "
                             "the rack", move=played.text, score=played.score))  # fmt: skip
    review.played = MoveSummary(PLACE, played.coord, played.word, 0, None, review.rack, None, False, played.display,
                                played.tiles)  # fmt: skip
    if review.best is not None and review.pass_equity is not None:
        kept = review.pass_equity
        review.played.equity = kept
        review.played.leave_value = None if review.method in SEARCHED else kept
        review.equity_loss = equity_lost(review.best, review.played)


def equity_lost(best: MoveSummary, played: MoveSummary) -> float:
    """best - played, 0 for the best move itself and for rounding; never below 0 (a move the
    best was not chosen from, such as a word the lexicon lacks, is said in the notes)."""
    if best.same_as(played):
        return 0.0
    loss = float(best.equity) - float(played.equity)
    return 0.0 if loss < EQUITY_NOISE else loss


def _turn(step: ReplayStep, game: GcgGame, equity: Equity, best_moves: BestMoves,
          endgame: EndgameReviewer | None = None) -> tuple[TurnReview, TurnPosition | None]:  # fmt: skip
    """The review of one turn (the game just before it: ``step.start``) and, for an analysable
    turn, the position the mover saw.  With the bag empty, ``endgame`` may replace the static
    review."""
    variant = game.variant
    event, start, move = step.event, step.start, step.move
    rack = event.rack
    review = TurnReview(start.number, event.player, game.nick(event.player), event.line, rack, None, _written(event),
                        score_claimed=event.score)  # fmt: skip
    review.notes.extend(said("note: {note}", note=note) for note in event.notes)
    if start.lost is not None:
        review.notes.insert(0, said("not analysable: {why}", why=start.lost))
        return review, None
    bag = start.bag
    review.bag = bag
    why_not = None if rack is not None else said("the file does not record the rack")
    if rack is not None and len(rack) > variant.rack_size:
        why_not = said("the rack {rack} holds {count} tiles, more than {most}", rack=rack.upper(), count=len(rack),
                       most=variant.rack_size)  # fmt: skip
    exchanges = start.exchanges[event.player]
    allowed = bag >= variant.exchange_min_bag and exchanges < variant.exchange_max_per_player
    if event.kind == PLACE:
        if move is None:
            review.notes.insert(0, said("not analysable: {why}; the board is unknown from here on", why=step.problem))
            return review, None
        review.played = _placed(move, event, variant)
        if move.problems:
            review.notes.append(joined(move.problems))
        if move.total != event.score:
            review.notes.append(said("the file claims {claimed:+d}, the rules give {score:+d}", claimed=event.score,
                                     score=move.total))  # fmt: skip
        needed = rack_needs(move.tiles)
    elif event.kind == EXCHANGE:
        needed = event.tiles
        if needed is None and why_not is None:
            why_not = said("the file records only how many tiles were exchanged ({count})", count=event.exchanged)
        if not allowed:
            review.notes.append(said("the rules allow no exchange here ({bag} tiles in the bag, {left} exchanges left)",
                                     bag=bag, left=variant.exchange_max_per_player - exchanges))  # fmt: skip
    else:
        needed = ""
    if why_not is None:
        leave, missing = take_from_rack(needed, rack)
        if missing:
            why_not = said("the rack {rack} lacks {missing} for the move", rack=rack.upper(), missing=missing.upper())
    if why_not is not None:
        review.notes.insert(0, said("not analysable: {why}", why=why_not))
        return review, None
    played = review.played
    leaves = best_moves.leaves(rack, bag)
    played.leave = leave
    played.leave_value = leaves.value_of(leave)
    played.equity = played.score + played.leave_value
    review.pass_equity = float(leaves.values[-1])
    review.best, review.bingo_available = best_moves.best(start.board, rack, leaves, bag, allowed)
    review.equity_loss = equity_lost(review.best, played)
    review.method, review.exact = STATIC, False
    n = len(game.players)
    scores = tuple(start.totals[(event.player + k) % n] for k in range(n))
    position = TurnPosition(variant, start.board, rack, bag, event.player, scores, allowed, start.zero_turns,
                            start.passes)  # fmt: skip
    if endgame is not None and bag == 0 and endgame(position, review):
        return review, position
    if played.equity > review.best.equity + EQUITY_NOISE:
        review.notes.append(_better_than_best(event.kind, move))
    return review, position


def _better_than_best(kind: str, move: MoveScore | None) -> str:
    """Why the move played is worth more than the best (its equity lost is then 0)."""
    if kind == PASS:
        return said("keeping the whole rack is worth more than any placement or exchange; the best is chosen among "
                    "those (a pass only when there is neither)")  # fmt: skip
    if kind == EXCHANGE:
        return said("the rules allowed no exchange here, so the best was chosen among the placements")
    if move is not None and move.problems:
        return said("the move played is not among the legal moves the best was chosen from")
    return said("the move played is worth more than the best found")  # pragma: no cover - the best is the maximum


def _written(event: GcgTurn) -> MoveSummary:
    """The move as the file writes it (before it is replayed)."""
    if event.kind == PLACE:
        return MoveSummary(PLACE, event.coord, event.word or "", event.score)
    if event.kind == EXCHANGE:
        tiles = event.tiles.upper() if event.tiles is not None else str(event.exchanged)
        return MoveSummary(EXCHANGE, None, f"-{tiles}", 0)
    return MoveSummary(PASS, None, "-", 0)


def _placed(move: MoveScore, event: GcgTurn, variant: Variant) -> MoveSummary:
    """A replayed placement: its main word (as ``solve`` writes it) and the engine's score."""
    from literaki_cli.engine.coords import position_name

    direction = event.placement.direction
    main = next((w for w in move.words if w.direction == direction), move.words[0] if move.words else None)
    if main is None:
        return MoveSummary(PLACE, event.coord, event.word or "", move.total, tiles=frozenset(move.tiles))
    display = "".join(ls.letter if ls.blank else ls.letter.upper() if ls.new else
                      f"({ls.letter if ls.blank else ls.letter.upper()})" for ls in main.letters)  # fmt: skip
    return MoveSummary(PLACE, position_name(main.row, main.col, main.direction), main.word, move.total,
                       bingo=len(move.tiles) == variant.bingo_tiles, display=display.replace(")(", ""),
                       tiles=frozenset(move.tiles))  # fmt: skip


def _summaries(game: GcgGame, reviews: list[TurnReview], adjustments: list[int], totals: list[int],
               mistakes: int) -> list[PlayerReview]:  # fmt: skip
    players = [PlayerReview(seat, p.label, p.name, totals[seat], end_adjustment=adjustments[seat])
               for seat, p in enumerate(game.players)]  # fmt: skip
    for review in reviews:
        player = players[review.seat]
        player.turns += 1
        player.bingos += review.played.bingo and not review.withdrawn
        if review.analysable:
            player.analysed += 1
            player.equity_lost += review.equity_loss or 0.0
            player.bingos_missed += bool(review.bingo_missed)
    for player in players:
        lost = [r for r in reviews if r.seat == player.seat and r.analysable and (r.equity_loss or 0) > 0]
        lost.sort(key=lambda r: (-(r.equity_loss or 0), r.turn))
        player.mistakes = lost[:mistakes]
    return players


# --------------------------------------------------------------------------- files (--out)


def _schema(players: int) -> dict:
    import polars as pl

    move = {"coord": pl.Utf8, "word": pl.Utf8, "score": pl.Int64, "equity": pl.Float64, "kind": pl.Utf8,
            "display": pl.Utf8, "leave": pl.Utf8, "leave_value": pl.Float64, "bingo": pl.Boolean}  # fmt: skip
    schema: dict = {"turn": pl.Int64, "player": pl.Utf8, "seat": pl.Int64, "rack": pl.Utf8}
    for prefix in ("played", "best", "best_sim"):
        schema |= {f"{prefix}_{name}": move[name] for name in MOVE_FIELDS}
    schema |= {"equity_loss": pl.Float64, "played_sim_equity": pl.Float64, "sim_equity_loss": pl.Float64,
               "method": pl.Utf8, "exact": pl.Boolean, "endgame_nodes": pl.Int64, "endgame_seconds": pl.Float64,
               "win_best": pl.Float64, "win_played": pl.Float64, "kind": pl.Utf8, "line": pl.Int64, "bag": pl.Int64,
               "bingo_available": pl.Boolean, "bingo_missed": pl.Boolean, "score_claimed": pl.Int64,
               "total": pl.Int64}  # fmt: skip
    schema |= {f"score_{i + 1}": pl.Int64 for i in range(players)}
    schema |= {"spread": pl.Int64, "withdrawn": pl.Boolean, "analysable": pl.Boolean, "note": pl.Utf8}
    return schema


def write_outputs(review: GameReview, out_dir: Path) -> list[Path]:
    """``--out DIR``: turns.parquet and turns.csv (the flat per-turn table) and analysis.png
    (equity lost per turn and the running spread).  InputError when DIR cannot be written."""
    import polars as pl

    from literaki_cli.errors import InputError

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(said("{path}: cannot create the folder: {error}", path=out_dir,
                              error=exc.strerror or type(exc).__name__)) from None  # fmt: skip
    frame = pl.DataFrame(review.rows(), schema=_schema(len(review.players)), orient="row")
    paths = [out_dir / "turns.parquet", out_dir / "turns.csv", out_dir / "analysis.png"]
    try:
        frame.write_parquet(paths[0])
        frame.write_csv(paths[1])
        write_chart(review, paths[2])
    except OSError as exc:
        raise InputError(said("{path}: cannot write: {error}", path=out_dir, error=exc.strerror or exc)) from None
    return paths


def write_chart(review: GameReview, path: Path) -> Path:
    """Bars: the equity each turn lost, coloured by player (a cross: not analysable); line: the
    first player's lead after each turn."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for player in review.players:
        mine = [t for t in review.turns if t.seat == player.seat]
        done = [t for t in mine if t.analysable]
        ax.bar([t.turn for t in done], [t.equity_loss or 0.0 for t in done], color=colours[player.seat % len(colours)],
               label=f"{player.nick}: equity lost")  # fmt: skip
        unknown = [t.turn for t in mine if not t.analysable]
        if unknown:
            ax.scatter(unknown, [0.0] * len(unknown), marker="x", color=colours[player.seat % len(colours)],
                       label=f"{player.nick}: not analysable")  # fmt: skip
    ax.set_xlabel("turn")
    ax.set_ylabel("equity lost")
    spread_ax = ax.twinx()
    first = review.players[0]
    leads = [t.scores[0] - max(t.scores[1:], default=0) for t in review.turns]
    spread_ax.plot(
        [t.turn for t in review.turns],
        leads,
        color="black",
        linewidth=1.5,
        label=f"spread ({first.nick} minus {'the best other' if len(review.players) > 2 else 'opponent'})",
    )
    spread_ax.axhline(0, color="grey", linewidth=0.6)
    spread_ax.set_ylabel("spread (points)")
    handles = ax.get_legend_handles_labels()
    more = spread_ax.get_legend_handles_labels()
    ax.legend(handles[0] + more[0], handles[1] + more[1], loc="upper left", fontsize="small")
    names = " vs ".join(p.nick for p in review.players)
    ax.set_title(f"{names}: equity lost per turn and the running spread")
    return save_chart(fig, path)


def save_chart(fig, path: Path) -> Path:
    """Write a review's chart (PNG, 120 dpi) and free the figure."""
    from matplotlib import pyplot as plt

    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return path


__all__ = [
    "analyze_game",
    "equity_lost",
    "ENDGAME",
    "PEG",
    "SEARCHED",
    "SIM",
    "STATIC",
    "BestMoves",
    "GameReview",
    "MoveSummary",
    "PlayerReview",
    "SimulateTurn",
    "TurnPosition",
    "TurnReview",
    "DEFAULT_MISTAKES",
    "write_outputs",
    "write_chart",
]
