"""Game records in GCG (UTF-8), as Quackle, Macondo and Woogles read them: the writer of our
games (``play`` saves, ``simulate --gcg``) and a reader of ours and of theirs.

The reader (:func:`read_gcg`, :func:`parse_gcg`) turns every event line into a :class:`GcgTurn`
and checks its syntax, and nothing else: whether a move fits the board, scores what it claims
or forms words is the replay's question (:mod:`literaki_cli.analysis.review`).  A line it cannot
read is an :class:`InputError` naming ``file:line`` and the line.

Events (RACK = the mover's rack before the event, absent or empty when the file does not know
it; a trailing ``+SCORE TOTAL`` on every line)::

    >nick: RACK 8H WORD +24 24      a placement ('.' or '(A)' for tiles already on the board,
                                    a lower-case letter for a blank)
    >nick: RACK -ABC +0 24          an exchange ('-7': seven tiles, which ones not recorded)
    >nick: RACK - +0 24             a pass
    >nick: RACK -- -24 0            the player's placement just before, withdrawn (a challenged phony)
    >nick: RACK (challenge) +5 29   a challenge bonus;  (time) -10: a time penalty
    >nick: (ABC) +12 412            end of game: the opponents' leftover tiles, gained
    >nick: ABC (ABC) -12 388        end of game: the player's own leftover tiles, lost

Pragmas read: ``#player1 nick Full Name`` (and 2, 3, 4), ``#lexicon``, ``#character-encoding``
(UTF-8 by default), ``#variant NAME`` and our ``#literaki-state {json}``, whose variant it honours;
``#note`` lines are kept with the event before them; other pragmas are kept as read.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from literaki_cli.errors import InputError
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Game

if TYPE_CHECKING:
    from literaki_cli.engine.move import Placement
    from literaki_cli.engine.variant import Variant

#: Event kinds beside the turns (place, exchange, pass) of :mod:`literaki_cli.games.game`.
WITHDRAWN = "withdrawn"
END_ADJUSTMENT = "end-adjustment"
CHALLENGE_BONUS = "challenge-bonus"
TIME_PENALTY = "time-penalty"
TURN_KINDS = (PLACE, EXCHANGE, PASS)
#: The pragma our own saves carry (play.py writes it; the variant is read from it).
STATE_PRAGMA = "#literaki-state"
VARIANT_PRAGMA = "#variant"


def game_to_gcg(game: Game, lexicon_name: str = "SJP", title: str = "") -> str:
    lines = ["#character-encoding UTF-8"]
    for i, player in enumerate(game.players, 1):
        lines.append(f"#player{i} {player.name} {getattr(player, 'level', None) and player.level.title or player.name}")
    lines.append(f"#lexicon {lexicon_name}")
    if game.variant.name != "literaki":  # a reader needs the board before the first move
        lines.append(f"{VARIANT_PRAGMA} {game.variant.name}")
    lines.append(f"#title {title or f'{game.variant.name} game {game.game_id}'}")
    lines.append(f"#id literaki {game.seed}-{game.game_id}")
    for t in game.turns:
        rack = t.rack.upper()
        if t.kind == PASS:
            lines.append(f">{t.nick}: {rack} - +0 {t.total}")
        elif t.kind == EXCHANGE:
            lines.append(f">{t.nick}: {rack} -{t.exchanged.upper()} +0 {t.total}")
        else:
            lines.append(f">{t.nick}: {rack} {t.play} +{t.score} {t.total}")
    cumulative = {p: t.total for t in game.turns for p in [t.player]}
    for adj in game.adjustments:
        cumulative[adj.player] = cumulative.get(adj.player, 0) + adj.points
        if adj.points >= 0 and game.ended_by == "out":
            lines.append(f">{adj.nick}: ({adj.rack.upper()}) +{adj.points} {cumulative[adj.player]}")
        else:
            lines.append(f">{adj.nick}: {adj.rack.upper()} ({adj.rack.upper()}) {adj.points} {cumulative[adj.player]}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class GcgPlayer:
    nick: str
    name: str


@dataclass(frozen=True)
class GcgTurn:
    """One event line.  ``rack``: lower case with '?' blanks, None when the file does not say.
    A placement has ``coord``, ``word`` (as written) and ``placement`` (parsed, on the game's
    board size); an exchange ``tiles`` (None when only their number, ``exchanged``, is written);
    an end adjustment ``tiles``, the leftover rack it counts."""

    line: int
    text: str
    player: int  # 0-based seat
    nick: str
    rack: str | None
    kind: str
    score: int  # as claimed
    total: int  # as claimed: the player's score after the event
    coord: str | None = None
    word: str | None = None
    placement: Placement | None = None
    tiles: str | None = None
    exchanged: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def is_turn(self) -> bool:
        """A player's turn (place, exchange, pass), not a correction or an adjustment of the score."""
        return self.kind in TURN_KINDS


@dataclass
class GcgGame:
    source: str
    variant: Variant
    players: list[GcgPlayer]
    turns: list[GcgTurn]
    lexicon: str | None = None
    variant_hint: str | None = None  # what the file says (#variant, #literaki-state), if anything
    pragmas: dict[str, list[str]] = field(default_factory=dict)
    state: dict | None = None  # our saves' #literaki-state

    def nick(self, player: int) -> str:
        return self.players[player].nick


_EVENT = re.compile(r">([^:\s][^:]*?)\s*:(.*)$")
_SCORE = re.compile(r"[+-]?[0-9]+")
_TOTAL = re.compile(r"-?[0-9]+")
_POSITION = re.compile(r"[0-9]{1,2}[a-zA-Z]|[a-zA-Z][0-9]{1,2}")
_COUNT = re.compile(r"-[0-9]{1,2}")
_SPECIAL = {"(challenge)": CHALLENGE_BONUS, "(time)": TIME_PENALTY}


def read_gcg(path: Path | str, variant: str | None = None, rules: Path | None = None) -> GcgGame:
    """The game recorded in the GCG file ``path`` (see :func:`parse_gcg`)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or type(exc).__name__}") from None
    except ValueError:  # a NUL in the name
        shown = str(path).replace("\0", "\\0")
        raise InputError(f"{shown}: not a file name") from None
    return parse_gcg(_decode(data, str(path)), str(path), variant, rules)


def _decode(data: bytes, source: str) -> str:
    """The text of a GCG file: the encoding its first line names, else UTF-8 (a Polish game
    in another encoding without that line cannot be read right: say so)."""
    first = data.split(b"\n", 1)[0].strip().lstrip(b"\xef\xbb\xbf")
    encoding = "utf-8"
    if first.lower().startswith(b"#character-encoding"):
        named = first[len(b"#character-encoding") :].strip().decode("ascii", "replace")
        encoding = named or "utf-8"
    try:
        text = data.decode(encoding)
    except LookupError:
        raise InputError(f"{source}:1: unknown character encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        hint = (
            ""
            if first.lower().startswith(b"#character-encoding")
            else (" (name the file's encoding in a first line such as '#character-encoding ISO-8859-2')")
        )
        raise InputError(f"{source}:{line}: not {encoding} text{hint}") from None
    return text.lstrip("\ufeff")


def parse_gcg(text: str, source: str = "<gcg>", variant: str | None = None, rules: Path | None = None) -> GcgGame:
    """The players, events and pragmas of a GCG text.  The board size (for the coordinates)
    comes from ``rules``, else ``variant``, else the file's ``#variant`` / ``#literaki-state``,
    else literaki.  InputError ``source:line: 'text': why`` for a line that is not GCG."""
    from literaki_cli.engine.variant import DEFAULT_VARIANT, load_variant

    lines = text.splitlines()
    pragmas: dict[str, list[str]] = {}
    declared: dict[int, GcgPlayer] = {}
    state = None
    hint = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped.startswith("#"):
            continue
        name, _, value = stripped.partition(" ")
        value = value.strip()
        pragmas.setdefault(name, []).append(value)
        seat = re.fullmatch(r"#player([1-9])", name)
        if seat:
            nick, _, full = value.partition(" ")
            if not nick:
                raise InputError(f"{source}:{number}: {stripped!r}: a #player line names a nick (and a name)")
            declared[int(seat.group(1)) - 1] = GcgPlayer(nick, full.strip() or nick)
        elif name == STATE_PRAGMA:
            try:
                state = json.loads(value)
            except (ValueError, RecursionError):
                raise InputError(f"{source}:{number}: {STATE_PRAGMA}: damaged (not JSON)") from None
            if not isinstance(state, dict):
                raise InputError(f"{source}:{number}: {STATE_PRAGMA}: damaged (not a JSON object)")
            if isinstance(state.get("variant"), str):
                hint = hint or state["variant"]
        elif name == VARIANT_PRAGMA:
            hint = value or hint
    chosen = load_variant(variant or hint or DEFAULT_VARIANT, rules)
    players = _players(declared, source)
    reader = _LineReader(source, chosen, players, fixed=bool(players))
    turns: list[GcgTurn] = []
    in_note = False  # a note may run on over lines of its own
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#note"):
            in_note = True
            if turns:
                turns[-1].notes.append(stripped[len("#note") :].strip())
            continue
        if not stripped.startswith(">"):
            if stripped.startswith("#"):
                in_note = False
            elif in_note:
                if turns and stripped:
                    turns[-1].notes[-1] = f"{turns[-1].notes[-1]} {stripped}".strip()
            elif stripped:
                raise InputError(f"{source}:{number}: {_shown(stripped)}: not a GCG line (a '#pragma' or a '>nick:' "
                                 "event)")  # fmt: skip
            continue
        in_note = False
        turns.append(reader.event(number, stripped))
        _check_withdrawal(turns, source)
    if not turns:
        raise InputError(f"{source}: no moves (no '>nick: ...' line): not a GCG game record")
    lexicon = pragmas.get("#lexicon", [None])[0] or None
    return GcgGame(source, chosen, reader.players, turns, lexicon, hint, pragmas, state)


def _players(declared: dict[int, GcgPlayer], source: str) -> list[GcgPlayer]:
    if not declared:
        return []
    seats = sorted(declared)
    if seats != list(range(len(seats))):
        missing = next(i for i in range(len(seats) + 1) if i not in declared)
        raise InputError(f"{source}: #player{missing + 1} is missing (players are numbered from 1)")
    nicks = [declared[i].nick for i in seats]
    for nick in nicks:
        if nicks.count(nick) > 1:
            raise InputError(f"{source}: two players are called {nick!r}")
    return [declared[i] for i in seats]


def _shown(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _check_withdrawal(turns: list[GcgTurn], source: str) -> None:
    """A withdrawal (``--``) takes back the placement of its player just before it."""
    last = turns[-1]
    if last.kind != WITHDRAWN:
        return
    before = [t for t in turns[:-1] if t.is_turn or t.kind == WITHDRAWN]
    if not before or before[-1].player != last.player or before[-1].kind != PLACE:
        raise InputError(f"{source}:{last.line}: {_shown(last.text)}: a withdrawal ('--') must follow a placement "
                         f"of {last.nick}")  # fmt: skip


class _LineReader:
    """Reads event lines; the players are those declared, else the nicks in order of appearance."""

    def __init__(self, source: str, variant: Variant, players: list[GcgPlayer], fixed: bool) -> None:
        self.source = source
        self.variant = variant
        self.players = list(players)
        self.fixed = fixed

    def fail(self, number: int, line: str, why: str) -> InputError:
        return InputError(f"{self.source}:{number}: {_shown(line)}: {why}")

    def seat(self, number: int, line: str, nick: str) -> int:
        for i, player in enumerate(self.players):
            if player.nick == nick:
                return i
        if self.fixed:
            known = ", ".join(p.nick for p in self.players)
            raise self.fail(number, line, f"unknown player {nick!r} (the #player lines name {known})")
        self.players.append(GcgPlayer(nick, nick))
        return len(self.players) - 1

    def event(self, number: int, line: str) -> GcgTurn:
        from literaki_cli.engine.move import Placement, parse_move
        from literaki_cli.engine.position import normalize_rack

        m = _EVENT.fullmatch(line)
        if not m:
            raise self.fail(number, line, "expected '>nick: RACK MOVE +SCORE TOTAL'")
        nick, rest = m.group(1).strip(), m.group(2).split()
        if len(rest) < 3:
            raise self.fail(number, line, "expected a move, a score and a total after the nick")
        if not _TOTAL.fullmatch(rest[-1]) or not _SCORE.fullmatch(rest[-2]):
            raise self.fail(number, line, f"expected '+SCORE TOTAL' at the end, not {' '.join(rest[-2:])!r}")
        score, total, middle = int(rest[-2]), int(rest[-1]), rest[:-2]
        player = self.seat(number, line, nick)
        base = {"line": number, "text": line, "player": player, "nick": nick, "score": score, "total": total}
        if not middle:
            raise self.fail(number, line, "no move between the nick and the score")

        def rack_of(token: str) -> str:
            try:
                return normalize_rack(token, "rack")
            except InputError as exc:
                raise self.fail(number, line, str(exc)) from None

        rack = None
        if len(middle) >= 2 and not _POSITION.fullmatch(middle[0]) and middle[0][0] not in "-(":
            rack = rack_of(middle[0]) or None
            middle = middle[1:]
        head = middle[0]
        if len(middle) == 2 and _POSITION.fullmatch(head):
            try:
                move = parse_move(f"{head} {middle[1]}", self.variant)
            except InputError as exc:
                raise self.fail(number, line, self._hint(str(exc), head)) from None
            assert isinstance(move, Placement)
            return GcgTurn(**base, rack=rack, kind=PLACE, coord=head.upper(), word=middle[1], placement=move)
        if len(middle) != 1:
            raise self.fail(number, line, "expected RACK POSITION WORD, RACK -TILES, RACK -, RACK --, (TILES) or "
                                          "RACK (TILES)")  # fmt: skip
        if head == "-":
            return GcgTurn(**base, rack=rack, kind=PASS)
        if head == "--":
            return GcgTurn(**base, rack=rack, kind=WITHDRAWN)
        if _COUNT.fullmatch(head):
            return GcgTurn(**base, rack=rack, kind=EXCHANGE, exchanged=int(head[1:]))
        if head.startswith("-"):
            tiles = rack_of(head[1:])
            return GcgTurn(**base, rack=rack, kind=EXCHANGE, tiles=tiles, exchanged=len(tiles))
        if head in _SPECIAL:
            return GcgTurn(**base, rack=rack, kind=_SPECIAL[head])
        if head.startswith("(") and head.endswith(")"):
            return GcgTurn(**base, rack=rack, kind=END_ADJUSTMENT, tiles=rack_of(head[1:-1]))
        raise self.fail(number, line, f"{head!r} is no move: expected POSITION WORD, -TILES, -, --, or (TILES)")

    def _hint(self, message: str, position: str) -> str:
        if "off the board" in message and self.variant.board.columns < 17 and re.search(r"[pqPQ]", position):
            return f"{message}; a 17x15 literki game? give --variant literki"
        return message


__all__ = [
    "game_to_gcg",
    "read_gcg",
    "parse_gcg",
    "GcgGame",
    "GcgPlayer",
    "GcgTurn",
    "WITHDRAWN",
    "END_ADJUSTMENT",
    "CHALLENGE_BONUS",
    "TIME_PENALTY",
    "TURN_KINDS",
]
