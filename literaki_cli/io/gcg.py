"""Game records in GCG, as Quackle, Macondo, Woogles and kurnik write them: the reader of ours
and of theirs (the writer of our games is :mod:`literaki_cli.games.record`).

The reader (:func:`read_gcg`, :func:`parse_gcg`) turns every event line into a :class:`GcgTurn`
and checks its syntax, and nothing else: whether a move fits the board, scores what it claims
or forms words is the replay's question (:mod:`literaki_cli.review.game_review`).  A line it cannot
read is an :class:`InputError` naming ``file:line`` and the line (shortened when long).

Hostile files are refused with one such line, never a traceback or a hang: a device or a
directory, a pipe nobody writes to or never closed (a pipe is read for a few seconds at most), a
file or pipe of more than :data:`MAX_GCG_BYTES`, an encoding Python lacks, control
characters, a score or total beyond :data:`MAX_POINTS` points either way (however many digits),
a negative score on a move that cannot lose points, a nick, rack or word longer than
:data:`MAX_FIELD`, more than :data:`MAX_EVENTS` events, :data:`MAX_PRAGMAS` pragma lines or the
variant's players.  A note of a million lines is read in linear time.

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

import codecs
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from literaki_cli.engine.move import EXCHANGE, PASS, PLACE
from literaki_cli.errors import InputError, message_of, said
from literaki_cli.inputs import shown

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


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class GcgPlayer:
    nick: str  # as the event lines name the player
    name: str

    @property
    def label(self) -> str:
        """How reports name the player: the nick, or the name when the nick is only the seat's
        number (kurnik/PlayOK exports: ``#player1 1 kasia``, ``>1: ...``)."""
        return self.name if self.nick.isdigit() and self.name else self.nick


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
    encoding: str = "utf-8"  # what the file was read in (read_gcg)

    def nick(self, player: int) -> str:
        """The player's :attr:`GcgPlayer.label`."""
        return self.players[player].label


#: The most points a GCG line may claim as a score or a total, either way.  A real game's
#: totals stay below a thousand and a move scores a few hundred at most; past this bound a
#: number is no game's (and 5,000 digits would break Python's int(), 400 the --out tables).
MAX_POINTS = 100_000
#: The largest GCG file read (a whole game record is a few kilobytes, notes and all).
MAX_GCG_BYTES = 16 << 20
#: The most events (lines starting '>') a file may hold: a real game has a few dozen turns, a
#: long one with passes and withdrawn phonies a few hundred (and each costs the review a search).
MAX_EVENTS = 2_000
#: The most pragma lines (``#...``, notes included) a file may hold: a few dozen and a note per
#: event at most, in any real record (each is read one by one, not as a block like a note's lines).
MAX_PRAGMAS = 10_000
#: The longest nick, rack, position or word a line may write (a word of 17 squares, each a
#: board tile in parentheses and decomposed into letter and accent, is under 100 characters).
MAX_FIELD = 200

_SCORE = re.compile(r"[+-]?[0-9]+")
_TOTAL = re.compile(r"-?[0-9]+")
_POSITION = re.compile(r"[0-9]{1,2}[a-zA-Z]|[a-zA-Z][0-9]{1,2}")
_LOOSE_POSITION = re.compile(r"[0-9]+[a-zA-Z]+|[a-zA-Z]+[0-9]+")  # written as a square, but no square
_COUNT = re.compile(r"-[0-9]+")
_SPECIAL = {"(challenge)": CHALLENGE_BONUS, "(time)": TIME_PENALTY}
#: A line of a pragma or an event (line breaks made \n first; splitlines() would also break at
#: \v, \f, U+0085, U+2028 and more, which no editor counts).
_STRUCTURE = re.compile(r"\n[^\S\n]*[#>][^\n]*")
_PLAYER_PRAGMA = re.compile(r"#player([1-9])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")
#: Python codecs that are no character encoding of a text file (the first refuses everything).
_NOT_FILE_ENCODINGS = {"undefined", "idna", "punycode", "unicode-escape", "raw-unicode-escape"}
#: Events that cannot lose points (a negative score on them is no GCG).
_NEVER_NEGATIVE = {PLACE: said("a placement"), PASS: said("a pass"), EXCHANGE: said("an exchange"),
                   CHALLENGE_BONUS: said("a challenge bonus")}  # fmt: skip


#: How messages name standard input (``-``) as a game record's file.
STDIN_NAME = "<stdin>"


def read_gcg(path: Path | str, variant: str | None = None, rules: Path | None = None) -> GcgGame:
    """The game recorded in the GCG file ``path`` (see :func:`parse_gcg`, :func:`decode_gcg`):
    a regular file, a pipe (``<(cat game.gcg)``, a FIFO: within a few seconds) or ``-``
    (standard input), of at most :data:`MAX_GCG_BYTES` (a device or a directory is refused)."""
    name = STDIN_NAME if os.fspath(path) == "-" else os.fspath(path)
    text, encoding = decode_gcg(read_gcg_bytes(path), name)
    game = parse_gcg(text, name, variant, rules)
    game.encoding = encoding
    return game


def read_gcg_bytes(path: Path | str) -> bytes:
    """The bytes of the GCG file ``path``: a regular file or a pipe (read as
    :func:`literaki_cli.inputs.read_input_bytes` reads them, as a position is read), or ``-``
    (standard input), of at most :data:`MAX_GCG_BYTES`; InputError ``NAME: cannot read: why``
    otherwise, ``no game record on standard input`` for an empty one."""
    from literaki_cli.inputs import read_input_bytes, read_stdin_bytes

    name = os.fspath(path)
    if name == "-":
        data = read_stdin_bytes("game record", MAX_GCG_BYTES)
        if not data.strip():
            raise InputError(said("no game record on standard input"))
        return data
    if "\0" in name:
        printable = name.replace("\0", "\\0")
        raise InputError(said("{source}: not a file name", source=printable))
    try:
        return read_input_bytes(name, "game record", MAX_GCG_BYTES, pipes=True)
    except InputError as exc:  # "NAME: why" -> "NAME: cannot read: why"
        why = str(exc).removeprefix(f"{name}: ")
        if why.startswith("cannot "):
            raise
        raise InputError(said("{source}: cannot read: {error}", source=name, error=why)) from None


def decode_gcg(data: bytes, source: str) -> tuple[str, str]:
    """(the text of a GCG file, the encoding it was read in): the encoding its first line
    names, else as every other text input is read (:mod:`literaki_cli.engine.textdecode`:
    UTF-8, else Windows-1250 or ISO-8859-2, as Polish tournament files often are without
    saying so)."""
    from literaki_cli.engine.textdecode import decode_text_with_encoding

    end = data.find(b"\n")
    first = data[: end if end >= 0 else len(data)].strip().lstrip(b"\xef\xbb\xbf")
    if not first.lower().startswith(b"#character-encoding"):
        decoded = decode_text_with_encoding(data, source)
        return decoded.text.lstrip("\ufeff"), decoded.encoding
    name = first[len(b"#character-encoding") :].strip().decode("utf-8", "backslashreplace")
    encoding = name or "utf-8"
    try:
        codec = codecs.lookup(encoding)
    except (LookupError, ValueError):  # ValueError: a NUL in the name
        codec = None
    if codec is None or not getattr(codec, "_is_text_encoding", True) or codec.name in _NOT_FILE_ENCODINGS:
        raise InputError(said("{source}:1: unknown character encoding {encoding} (name one such as UTF-8, ISO-8859-2 "
                              "or windows-1250)", source=source, encoding=shown(encoding, 40)))  # fmt: skip
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(said("{source}:{line}: not {encoding} text (as the first line says)", source=source,
                              line=line, encoding=encoding)) from None  # fmt: skip
    except UnicodeError:
        raise InputError(said("{source}: not {encoding} text", source=source, encoding=encoding)) from None
    return text.lstrip("\ufeff"), codec.name


def parse_gcg(text: str, source: str = "<gcg>", variant: str | Variant | None = None,
              rules: Path | None = None) -> GcgGame:  # fmt: skip
    """The players, events and pragmas of a GCG text.  The board size (for the coordinates)
    comes from ``rules``, else ``variant`` (a name, or the variant itself), else the file's
    ``#variant`` / ``#literaki-state``, else literaki.  InputError ``source:line: 'text': why``
    for a line that is not GCG; every score and total is within :data:`MAX_POINTS`, at most
    :data:`MAX_EVENTS` events."""
    from literaki_cli.engine.variant import DEFAULT_VARIANT, load_variant

    control = _CONTROL.search(text)
    if control:
        line = text.count("\n", 0, control.start()) + 1
        raise InputError(said("{source}:{line}: control character U+{code:04X}: a GCG file is text", source=source,
                              line=line, code=ord(control.group())))  # fmt: skip
    pragmas: dict[str, list[str]] = {}
    declared: dict[int, tuple[GcgPlayer, int]] = {}  # seat: (the player, the line naming them)
    state = None
    hint = None
    hint_line = 0
    events: list[tuple[int, str]] = []  # (line number, text): read once the variant is known
    notes: list[tuple[int, str, str]] = []  # (the event before the note, its first line, the lines after it)
    stray: tuple[int, str] | None = None  # the first line that is no GCG
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    scan = "\n" + text  # every line after a \n: the pattern starts with a literal, found fast
    number, end, noting = 0, 0, False  # the line of the last pragma or event, where it ends
    pragma_lines = 0
    # Only the lines of pragmas and events are looked at one by one: the lines between two of
    # them (a note running on, or blank lines) are one slice, so that a note of a million lines
    # costs a scan of its text and one join.
    for match in _STRUCTURE.finditer(scan):
        gap = scan[end : match.start()]
        if noting:  # the note's lines after its first
            notes[-1] = (*notes[-1][:2], gap)
        elif stray is None and gap and not gap.isspace():
            stray = _first_line(gap, number)
        number += gap.count("\n") + 1
        end = match.end()
        stripped = match.group().strip()
        noting = False
        if stripped[0] == ">":
            if len(events) >= MAX_EVENTS:
                raise InputError(said("{source}:{line}: more than {most:,} events: not the record of one game",
                                      source=source, line=number, most=MAX_EVENTS))  # fmt: skip
            events.append((number, stripped))
            continue
        pragma_lines += 1
        if pragma_lines > MAX_PRAGMAS:
            raise InputError(said("{source}:{line}: more than {most:,} pragma lines ('#...'): not the record of one "
                                  "game", source=source, line=number, most=MAX_PRAGMAS))  # fmt: skip
        name, _, value = stripped.partition(" ")
        value = value.strip()
        pragmas.setdefault(name, []).append(value)
        if name.startswith("#note"):  # (#notes too, as it always was)
            noting = True  # a note before the first event annotates nothing: -1
            notes.append((len(events) - 1, stripped[len("#note") :].strip(), ""))
            continue
        seat = _PLAYER_PRAGMA.fullmatch(name)
        if seat:
            nick, _, full = value.partition(" ")
            if not nick:
                raise _line_error(source, number, stripped, said("a #player line names a nick (and a name)"))
            if len(nick) > MAX_FIELD:
                raise _line_error(source, number, stripped, _long_nick(nick))
            declared[int(seat.group(1)) - 1] = (GcgPlayer(nick, full.strip() or nick), number)
        elif name == STATE_PRAGMA:
            try:
                state = json.loads(value)
            except (ValueError, RecursionError):
                raise InputError(said("{source}:{line}: {pragma}: damaged (not JSON)", source=source, line=number,
                                      pragma=STATE_PRAGMA)) from None  # fmt: skip
            if not isinstance(state, dict):
                raise InputError(said("{source}:{line}: {pragma}: damaged (not a JSON object)", source=source,
                                      line=number, pragma=STATE_PRAGMA))  # fmt: skip
            if isinstance(state.get("variant"), str) and not hint:
                hint, hint_line = state["variant"], number
        elif name == VARIANT_PRAGMA and value:
            hint, hint_line = value, number
    gap = scan[end:]
    if noting:
        notes[-1] = (*notes[-1][:2], gap)
    elif stray is None and gap and not gap.isspace():
        stray = _first_line(gap, number)
    if variant is not None and not isinstance(variant, str):
        chosen = variant
    else:
        chosen = load_variant(variant or _known_variant(hint, source, hint_line) or DEFAULT_VARIANT, rules)
    players = _players(declared, source, chosen)
    reader = _LineReader(source, chosen, players, fixed=bool(players))
    turns: list[GcgTurn] = []
    previous: GcgTurn | None = None  # the last turn or withdrawal (what a withdrawal takes back)
    for number, stripped in events:
        if stray is not None and stray[0] < number:
            break
        event = reader.event(number, stripped)
        if event.kind == WITHDRAWN and (previous is None or previous.player != event.player or previous.kind != PLACE):
            raise reader.fail(number, stripped, said("a withdrawal ('--') must follow a placement of {nick}",
                                                     nick=event.nick))  # fmt: skip
        if event.is_turn or event.kind == WITHDRAWN:
            previous = event
        turns.append(event)
    if stray is not None:
        number, stripped = stray
        raise InputError(said("{source}:{line}: {text}: not a GCG line (a '#pragma' or a '>nick:' event)",
                              source=source, line=number, text=_shown(stripped)))  # fmt: skip
    for index, head, body in notes:  # a note's lines joined by spaces, once
        if index >= 0:
            written = " ".join(filter(None, (head, _note_lines(body))))  # the player's own words, as written
            turns[index].notes.append(written)
    if not turns:
        raise InputError(said("{source}: no moves (no '>nick: ...' line): not a GCG game record", source=source))
    lexicon = pragmas.get("#lexicon", [None])[0] or None
    return GcgGame(source, chosen, reader.players, turns, lexicon, hint, pragmas, state)


def _note_lines(body: str, chunk: int = 1 << 20) -> str:
    """The lines of a note after its first, stripped, blank ones left out, joined by spaces:
    a megabyte of them at a time (a list of every line of a 16 MiB note would be 400 MB)."""
    parts, start = [], 0
    while start < len(body):
        cut = body.find("\n", start + chunk)
        cut = len(body) if cut < 0 else cut
        part = " ".join(filter(None, map(str.strip, body[start:cut].split("\n"))))
        if part:
            parts.append(part)
        start = cut
    return " ".join(parts)


def _first_line(gap: str, number: int) -> tuple[int, str]:
    """(line number, text) of the first line in ``gap`` that is not blank: ``gap`` follows line
    ``number`` (it starts with that line's \\n)."""
    start = len(gap) - len(gap.lstrip())
    return number + gap.count("\n", 0, start), gap[start:].partition("\n")[0].strip()


def _known_variant(hint: str | None, source: str, line: int) -> str | None:
    """The variant a file names, when one of ours; InputError naming the line else."""
    from literaki_cli.engine.variant import builtin_variants

    if hint is None or hint in builtin_variants():
        return hint
    raise InputError(said("{source}:{line}: unknown variant {name}; choose one of: {names} (or give --variant)",
                          source=source, line=line, name=shown(hint, 40), names=", ".join(builtin_variants())))


def _players(declared: dict[int, tuple[GcgPlayer, int]], source: str, variant: Variant) -> list[GcgPlayer]:
    """The players the #player lines declare, in seat order; InputError naming a line for a
    seat left out, more players than the variant's, two players of one nick."""
    if not declared:
        return []
    seats = sorted(declared)
    if seats != list(range(len(seats))):
        missing = next(i for i in range(len(seats) + 1) if i not in declared)
        after = min(seat for seat in seats if seat > missing)
        raise InputError(said("{source}:{line}: #player{seat} without #player{missing}: #player{missing} is missing "
                              "(players are numbered from 1)", source=source, line=declared[after][1], seat=after + 1,
                              missing=missing + 1))  # fmt: skip
    if len(seats) > variant.max_players:
        raise InputError(said("{source}:{line}: {count} players: {variant} is a game of {least} to {most}",
                              source=source, line=declared[seats[variant.max_players]][1], count=len(seats),
                              variant=variant.name, least=variant.min_players, most=variant.max_players))  # fmt: skip
    seen: dict[str, int] = {}
    for seat in seats:
        player, line = declared[seat]
        if player.nick in seen:
            raise InputError(said("{source}:{line}: two players are called {nick} (#player{first} and #player{second})",
                                  source=source, line=line, nick=shown(player.nick, 40), first=seen[player.nick] + 1,
                                  second=seat + 1))  # fmt: skip
        seen[player.nick] = seat
    return [declared[seat][0] for seat in seats]


def _shown(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _line_error(source: str, number: int, line: str, why: str) -> InputError:
    """InputError ``source:number: 'line': why`` (the line shortened when long)."""
    return InputError(said("{source}:{line}: {text}: {why}", source=source, line=number, text=_shown(line), why=why))


def _long_nick(nick: str) -> str:
    return said("a nick of {count:,} characters (at most {most})", count=len(nick), most=MAX_FIELD)


class _LineReader:
    """Reads event lines; the players are those declared, else the nicks in order of appearance."""

    def __init__(self, source: str, variant: Variant, players: list[GcgPlayer], fixed: bool) -> None:
        self.source = source
        self.variant = variant
        self.players = list(players)
        self.fixed = fixed

    def fail(self, number: int, line: str, why: str) -> InputError:
        return _line_error(self.source, number, line, why)

    def seat(self, number: int, line: str, nick: str) -> int:
        for i, player in enumerate(self.players):
            if player.nick == nick:
                return i
        if self.fixed:
            known = ", ".join(p.nick for p in self.players)
            raise self.fail(number, line, said("unknown player {nick} (the #player lines name {known})",
                                               nick=shown(nick), known=known))  # fmt: skip
        if len(self.players) >= self.variant.max_players:
            variant = self.variant
            raise self.fail(number, line, said("a player more ({nick}): {variant} is a game of {least} to {most}",
                                               nick=shown(nick), variant=variant.name, least=variant.min_players,
                                               most=variant.max_players))  # fmt: skip
        self.players.append(GcgPlayer(nick, nick))
        return len(self.players) - 1

    def number(self, number: int, line: str, token: str, what: str, low: int, high: int) -> int:
        """The whole number ``token`` (digits, a sign), a ``what`` within [low, high]: every number
        an event line holds is read here, its length checked before int() (which refuses 4,300
        digits) so that a number of any length is one error line."""
        digits = token.lstrip("+-").lstrip("0") or "0"  # leading zeros count towards int()'s limit too
        if len(digits) <= len(str(max(abs(low), abs(high)))):
            value = -int(digits) if token.startswith("-") else int(digits)
            if low <= value <= high:
                return value
        raise self.fail(number, line, said("the {what} {value} is out of range ({low:,} to {high:,})", what=what,
                                           value=shown(token, 24), low=low, high=high))  # fmt: skip

    def event(self, number: int, line: str) -> GcgTurn:
        from literaki_cli.engine.position import normalize_rack

        head, colon, after = line[1:].partition(":")
        if not colon or not head or head[0].isspace():
            raise self.fail(number, line, said("expected '>nick: RACK MOVE +SCORE TOTAL'"))
        nick, rest = head.rstrip(), after.split()
        if len(nick) > MAX_FIELD:
            raise self.fail(number, line, _long_nick(nick))
        if len(rest) < 3:
            raise self.fail(number, line, said("expected a move, a score and a total after the nick"))
        if not _TOTAL.fullmatch(rest[-1]) or not _SCORE.fullmatch(rest[-2]):
            raise self.fail(number, line, said("expected '+SCORE TOTAL' at the end, not {value}",
                                               value=shown(" ".join(rest[-2:]))))  # fmt: skip
        score = self.number(number, line, rest[-2], said("score"), -MAX_POINTS, MAX_POINTS)
        total = self.number(number, line, rest[-1], said("total"), -MAX_POINTS, MAX_POINTS)
        middle = rest[:-2]
        for token in middle:
            if len(token) > MAX_FIELD and not _COUNT.fullmatch(token):  # a number is bounded by its value
                raise self.fail(number, line, said("{value} is {count:,} characters long, longer than any rack, "
                                                   "position or word", value=_shown(token, 40),
                                                   count=len(token)))  # fmt: skip
        player = self.seat(number, line, nick)
        base = {"line": number, "text": line, "player": player, "nick": nick, "score": score, "total": total}

        def rack_of(token: str) -> str:
            try:
                return normalize_rack(token, said("rack"))
            except InputError as exc:
                raise self.fail(number, line, message_of(exc)) from None

        rack = None
        if len(middle) >= 2 and not _LOOSE_POSITION.fullmatch(middle[0]) and middle[0][0] not in "-(":
            rack = rack_of(middle[0]) or None
            middle = middle[1:]
        turn = self._turn(number, line, middle, base, rack, rack_of)
        if turn.kind in _NEVER_NEGATIVE and score < 0:
            raise self.fail(number, line, said("{kind} cannot score {score} (only --, (time) and the player's own "
                                               "leftover tiles lose points)", kind=_NEVER_NEGATIVE[turn.kind],
                                               score=score))  # fmt: skip
        return turn

    def _turn(self, number: int, line: str, middle: list[str], base: dict, rack: str | None, rack_of) -> GcgTurn:
        """The event of the tokens after the rack (``middle``)."""
        from literaki_cli.engine.move import Placement, parse_move

        head = middle[0]
        if len(middle) == 2 and _LOOSE_POSITION.fullmatch(head):
            if not _POSITION.fullmatch(head):
                rows, columns = self.variant.board.rows, self.variant.board.columns
                raise self.fail(number, line, said("{value!r} is no square of the {columns}x{rows} board (8H across, "
                                                   "H8 down)", value=head, columns=columns, rows=rows))  # fmt: skip
            try:
                move = parse_move(f"{head} {middle[1]}", self.variant)
            except InputError as exc:
                raise self.fail(number, line, self._hint(message_of(exc), head)) from None
            assert isinstance(move, Placement)
            return GcgTurn(**base, rack=rack, kind=PLACE, coord=head.upper(), word=middle[1], placement=move)
        if len(middle) != 1:
            raise self.fail(number, line, said("expected RACK POSITION WORD, RACK -TILES, RACK -, RACK --, (TILES) or "
                                               "RACK (TILES)"))  # fmt: skip
        if head == "-":
            return GcgTurn(**base, rack=rack, kind=PASS)
        if head == "--":
            return GcgTurn(**base, rack=rack, kind=WITHDRAWN)
        if _COUNT.fullmatch(head):
            count = self.number(number, line, head[1:], said("number of tiles exchanged"), 1, self.variant.rack_size)
            return GcgTurn(**base, rack=rack, kind=EXCHANGE, exchanged=count)
        if head.startswith("-"):
            tiles = rack_of(head[1:])
            return GcgTurn(**base, rack=rack, kind=EXCHANGE, tiles=tiles, exchanged=len(tiles))
        if head in _SPECIAL:
            return GcgTurn(**base, rack=rack, kind=_SPECIAL[head])
        if head.startswith("(") and head.endswith(")"):
            return GcgTurn(**base, rack=rack, kind=END_ADJUSTMENT, tiles=rack_of(head[1:-1]))
        raise self.fail(number, line, said("{value!r} is no move: expected POSITION WORD, -TILES, -, --, or (TILES)",
                                           value=head))  # fmt: skip

    def _hint(self, message: str, position: str) -> str:
        if "off the board" in message and self.variant.board.columns < 17 and re.search(r"[pqPQ]", position):
            return said("{error}; a 17x15 literki game? give --variant literki", error=message)
        return message


__all__ = [
    "read_gcg",
    "decode_gcg",
    "read_gcg_bytes",
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
