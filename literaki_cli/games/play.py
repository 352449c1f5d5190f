"""``literaki play``: a game against the computer in the terminal, on the same engine.

A clean line-based prompt (rich for the board and colours, readline for editing and history):
it works in any terminal, over ssh, in tmux and under scripts, and it is tested end to end in
a pseudo-terminal.  Every message the player sees comes from ``locales/<lang>.toml`` (Polish by
default); the engine's own (English) messages, made by ``said``, in the words of
``locales/messages.<lang>.toml`` (as the board page says them).

Lower case in a typed word: in GCG notation a lower-case letter is a blank standing for that
letter (as in ``score``); as play's convenience, a word typed all in lower case takes rack tiles
first and blanks only for the letters the rack lacks.
"""

from __future__ import annotations

import errno
import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from literaki_cli.engine import alphabet
from literaki_cli.engine.coords import parse_square, square_name
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Placement, Tile, parse_move, rack_needs, resolve, take_from_rack
from literaki_cli.engine.position import BLANK, normalize_rack
from literaki_cli.engine.scoring import check_words, score_tiles
from literaki_cli.engine.variant import ACROSS, Variant
from literaki_cli.errors import InputError, LiterakiError, message_of
from literaki_cli.games.bag import full_bag
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Game, Turn
from literaki_cli.games.players import Level, load_levels, make_players
from literaki_cli.inputs import dumps_json
from literaki_cli.locales import MISFIT, locale_file, said_in

LANGUAGES = ("pl", "en")
DEFAULT_LANGUAGE = "pl"
DEFAULT_LEVEL = "normalny"
STATE_PRAGMA = "#literaki-state "
_PLAIN_LETTERS = str.maketrans("ąćęłńóśźż", "acelnoszz")


class PlayError(InputError):
    """A message for the player, already in the interface language ``lang`` (exit 2 outside a
    game, as :meth:`line`: the command's error line, its prefix in that language too)."""

    def __init__(self, message: str, lang: str = DEFAULT_LANGUAGE) -> None:
        super().__init__(message)
        self.lang = lang

    def line(self) -> str:
        """``literaki: error: MESSAGE`` with the prefix in the message's language."""
        return Texts(self.lang)("cli_error", message=str(self))


class Texts:
    """The interface text of one language; commands are understood in every language."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise InputError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
        self.lang = lang
        data = locale_file(lang)
        self.commands: dict[str, list[str]] = data["commands"]
        self.text: dict[str, str] = data["text"]
        self.legend: dict[str, str] = data.get("legend", {})  # the plain-text board's legend
        self.os_errors: dict[str, str] = data.get("os_errors", {})
        # this language's words first, so a word meaning two things means what this UI says
        self._all_commands = [self.commands] + [locale_file(other)["commands"] for other in LANGUAGES if other != lang]

    def __call__(self, key: str, **fields) -> str:
        return self.text[key].format(**fields)

    def error(self, key: str, **fields) -> PlayError:
        return PlayError(self(key, **fields), self.lang)

    def command(self, word: str) -> str | None:
        """The command a word names ('undo', 'pass', ...), in this language or another."""
        for commands in self._all_commands:
            for name, words in commands.items():
                if name not in ("yes", "no") and word in words:
                    return name
        return None

    def _answers(self, kind: str) -> set[str]:
        return {word for commands in self._all_commands for word in commands[kind]}

    def is_yes(self, answer: str) -> bool:
        return answer.strip().lower() in self._answers("yes")

    def is_no(self, answer: str) -> bool:
        return answer.strip().lower() in self._answers("no")

    def os_reason(self, exc: OSError) -> str:
        """Why a file could not be read or written, in this language: the locale's
        ``[os_errors]`` text for the error's errno name, else the system's own (English) text."""
        return self.os_errors.get(errno.errorcode.get(exc.errno or 0, "")) or exc.strerror or type(exc).__name__

    def translate(self, message: str) -> str:
        """An engine message in this language: one :func:`~literaki_cli.errors.said` made, in the
        words of ``locales/messages.<lang>.toml``; the command line's English otherwise (or when
        the interface is English)."""
        if self.lang == "en":
            return str(message)
        try:
            return str(said_in(message, self.lang))
        except MISFIT:  # a text that does not fit its fields (a bug): the English still says it
            return str(message)


# ----------------------------------------------------------------- levels and settings


def _plain(name: str) -> str:
    """A level name as typed, without case or Polish diacritics (Łatwy = łatwy = latwy)."""
    return name.strip().casefold().translate(_PLAIN_LETTERS)


def play_levels(levels: dict[str, Level]) -> list[str]:
    """The levels offered in play (key ``in_play``): those that play the popular words, like the
    online game's computers, and the strong ones that know every word (mistrz, arcymistrz)."""
    return [name for name, level in levels.items() if level.in_play]


def play_level(name: str, texts: Texts, levels: dict[str, Level] | None = None) -> Level:
    """The level a typed name means (either spelling, any case); refuses levels play does not offer."""
    levels = levels if levels is not None else load_levels()
    offered = play_levels(levels)
    found = next((key for key, lv in levels.items() if _plain(name) in (_plain(key), _plain(lv.title))), None)
    if found is None:
        raise texts.error("unknown_level", level=name, levels=", ".join(levels[k].title.lower() for k in offered))
    if found not in offered:
        raise texts.error("level_not_in_play", level=name, levels=", ".join(levels[k].title.lower() for k in offered))
    return levels[found]


@dataclass
class SavedGame:
    """A game saved by :meth:`PlaySession.save`: its file, lines and checked state."""

    path: Path
    lines: list[str]
    state: dict

    @property
    def lang(self) -> str | None:
        return self.state.get("lang")


def read_save(path: Path, texts: Texts) -> SavedGame:
    """The save in ``path`` with the settings its state line records checked (the racks and
    exchanges are checked against the variant when the game is rebuilt)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise texts.error("cannot_read", path=path, reason=texts.os_reason(exc)) from None
    except UnicodeDecodeError:
        raise texts.error("cannot_read", path=path, reason=texts("not_utf8")) from None
    except ValueError:  # a NUL in the name
        raise texts.error("bad_file_name", path=str(path).replace("\0", "\\0")) from None
    state_lines = [line for line in lines if line.startswith(STATE_PRAGMA)]
    if not state_lines:
        raise texts.error("not_a_save", path=path, pragma=STATE_PRAGMA.strip())
    try:
        state = json.loads(state_lines[0][len(STATE_PRAGMA) :])
    except (ValueError, RecursionError):
        raise texts.error("damaged_state", path=path) from None
    if not isinstance(state, dict):
        raise texts.error("damaged_state", path=path)
    saved = SavedGame(path, lines, state)
    if "lang" in state and state["lang"] not in LANGUAGES:
        raise texts.error("damaged_field", path=path, field="lang", value=json.dumps(state["lang"]))
    texts = Texts(saved.lang or texts.lang)
    for name in ("variant", "level"):
        _field(saved, texts, name, lambda v: isinstance(v, str) and v != "")
    for name in ("seed", "game_id", "passes_in_row"):
        _field(saved, texts, name, lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0)
    for name in ("current", "first"):
        _field(saved, texts, name, lambda v: v in (0, 1) and not isinstance(v, bool))
    _field(saved, texts, "racks", lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(r, str) for r in v))
    _field(
        saved, texts, "exchanges_left",
        lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and x >= 0 for x in v),
    )  # fmt: skip
    return saved


def _field(saved: SavedGame, texts: Texts, name: str, valid: Callable[[object], bool]) -> None:
    if name not in saved.state:
        raise texts.error("missing_field", path=saved.path, field=name)
    if not valid(saved.state[name]):
        raise texts.error("damaged_field", path=saved.path, field=name, value=json.dumps(saved.state[name]))


@dataclass
class PlaySettings:
    """What a session plays: level, language and variant, with notes on flags a save overrode."""

    level: str = DEFAULT_LEVEL
    lang: str = DEFAULT_LANGUAGE
    variant: str | None = None  # None: the default variant (or --rules)
    notes: list[str] = field(default_factory=list)


def choose_settings(level: str | None, lang: str | None, variant: str | None,
                    saved: SavedGame | None = None) -> PlaySettings:  # fmt: skip
    """The session's settings: the save's when resuming (a contradicting flag gets a note and is
    ignored, so a game goes on as it was started), else the flags, else the defaults."""
    if lang is not None:
        Texts(lang)  # a bad --lang fails before anything else
    if saved is None:
        return PlaySettings(level or DEFAULT_LEVEL, lang or DEFAULT_LANGUAGE, variant)
    chosen = PlaySettings(saved.state["level"], saved.lang or lang or DEFAULT_LANGUAGE, saved.state["variant"])
    texts = Texts(chosen.lang)
    for option, given, kept in (("--level", level, chosen.level), ("--lang", lang, chosen.lang),
                                ("--variant", variant, chosen.variant)):  # fmt: skip
        if given is not None and _plain(given) != _plain(kept):
            chosen.notes.append(texts("save_overrides", option=option, given=given, saved=kept, path=saved.path))
    return chosen


# ----------------------------------------------------------------- the session


@dataclass
class HumanSeat:
    """The human's place at the table (the session makes its moves)."""

    name: str
    level = None

    def choose(self, game: Game):  # pragma: no cover - the session plays for the human
        raise LiterakiError("the human's moves come from the prompt")


_TILE_ON_SQUARE = re.compile(r"^([a-zA-Z][0-9]{1,2})\s+(\??)(\S)$")
_GCG_MOVE = re.compile(r"^([0-9]{1,2}[a-zA-Z]|[a-zA-Z][0-9]{1,2})\s+\S+$")


class PlaySession:
    def __init__(self, variant: Variant, lexicon: Lexicon, level: str = DEFAULT_LEVEL, lang: str = DEFAULT_LANGUAGE,
                 console=None, read_line: Callable[[str], str] = input, seed: int | None = None,
                 lookahead_factory: Callable | None = None) -> None:  # fmt: skip
        """``lookahead_factory``: what a level that simulates or solves pre-endgames looks ahead
        with (:func:`literaki_cli.analysis.lookahead.level_lookahead`; the command gives it)."""
        from rich.console import Console

        from literaki_cli.engine.movegen import MoveGenerator
        from literaki_cli.equity.equity import Equity
        from literaki_cli.equity.leaves import open_leaves

        self.variant = variant
        self.lexicon = lexicon
        self.texts = Texts(lang)
        self.console = console or Console(highlight=False)
        self.read_line = read_line
        self.seed = seed if seed is not None else random.randrange(1 << 30)
        levels = load_levels()
        self.level = play_level(level, self.texts, levels)
        self.computer = make_players([self.level.name], lexicon, variant, levels, table=2,
                                     lookahead_factory=lookahead_factory)[0]  # fmt: skip
        self.computer.name = self.level.title
        self.human = HumanSeat(self.texts("you"))
        self.hint_generator = MoveGenerator(lexicon, variant)
        self.hint_equity = Equity(open_leaves(None), variant)  # the hint is the best equity, as solve ranks
        self.pending: list[Tile] = []
        self.game: Game | None = None
        self.games_played = 0

    def say(self, key: str, **fields) -> None:
        """One message, never cut or re-wrapped by rich (the terminal wraps long lines)."""
        self.console.print(self.texts(key, **fields), markup=False, soft_wrap=True)

    # ----------------------------------------------------------------- games

    def new_game(self, first: int) -> None:
        self.game = Game(self.variant, [self.human, self.computer], self.lexicon.words, seed=self.seed,
                         game_id=self.games_played, first=first)  # fmt: skip
        self.pending = []

    def run(self, loaded: bool = False) -> None:
        """Play games until the player stops: the human starts the first, then they alternate.
        Ctrl-C during a game offers to save it, then ends the program (KeyboardInterrupt)."""
        t = self.texts
        self.say("welcome", level=self.level.title)
        if not loaded:
            self.new_game(first=0)
        while True:
            try:
                finished = self.play_game()
            except KeyboardInterrupt:
                self.console.print()
                self.offer_save(interrupted=True)
                raise
            if not finished:
                self.offer_save()
                break
            self.finish_game()
            self.offer_save()
            self.games_played += 1
            if not t.is_yes(self._ask(t("again"))):
                break
            self.new_game(first=1 - self.game.first)
        self.say("goodbye")

    def play_game(self) -> bool:
        """Turns until the game ends (True) or the player quits (False)."""
        game = self.game
        while not game.over:
            if game.current == 1:
                self.computer_turn()
                continue
            self.show()
            try:
                line = self.read_line(self.texts("prompt"))
            except EOFError:
                return False
            if self.handle(line.strip()) == "quit":
                return False
        return True

    def computer_turn(self) -> None:
        level = self.computer.level
        if (level.searches or level.simulates) and self.console.is_terminal:  # a spinner while it looks ahead
            with self.console.status(self.texts("thinking", nick=self.computer.name)):
                turn = self.game.step()
        else:
            turn = self.game.step()
        nick = self.computer.name
        if turn.kind == PLACE:
            self.say("played", nick=nick, play=self.move_text(turn.play), score=turn.score)
            if turn.forced_exchange:
                self.say("forced_exchange", nick=turn.forced_exchange)
        elif turn.kind == EXCHANGE:
            self.say("computer_exchanged", nick=nick, count=len(turn.exchanged))
        else:
            self.say("computer_passed", nick=nick)

    def move_text(self, play: str) -> str:
        """A placement just made, as ``solve`` writes it in its table: the position and the main
        word with the tiles that were already on the board in parentheses (``8H (KO)T``, not
        GCG's ``8H ..T``)."""
        from literaki_cli.analysis.solve import display_word

        move = parse_move(play, self.variant)
        dr, dc = (0, 1) if move.direction == ACROSS else (1, 0)
        board = self.game.board
        letters = [(board.cell(move.row + dr * i, move.col + dc * i), token.through)
                   for i, token in enumerate(move.tokens)]  # fmt: skip
        return f"{move.coord} {display_word(letters)}"

    # ----------------------------------------------------------------- the human's commands

    def handle(self, line: str) -> str | None:
        t = self.texts
        if not line:
            return None
        word, _, rest = line.partition(" ")
        command = t.command(word.lower())
        try:
            if command == "quit":
                return "quit"
            if command == "help":
                self.say("help", exchanges=self.game.exchanges_left[0])
            elif command == "undo":
                self.pending = []
                self.say("undone")
            elif command == "shuffle":
                rack = list(self.game.racks[0])
                random.shuffle(rack)
                self.game.racks[0] = "".join(rack)
                self.say("shuffled")
            elif command == "exchange":
                self.exchange(rest)
            elif command == "pass":
                self.pending = []
                self.game.pass_turn()
                self.say("passed")
            elif command == "hint":
                self.hint()
            elif command == "save":
                self.save(Path(rest.strip()) if rest.strip() else None)
            elif command == "place":
                if not self.pending:
                    self.say("nothing_placed")
                else:
                    self.try_place(self.pending, None)
            elif _TILE_ON_SQUARE.match(line):
                self.lay_tile(line)
            elif _GCG_MOVE.match(line):
                self.typed_move(line)
            else:
                self.say("not_understood", text=line)
        except PlayError as exc:
            self.say("error", message=str(exc))
        except LiterakiError as exc:
            self.say("error", message=t.translate(message_of(exc)))
        return None

    def free_rack(self) -> str:
        """The rack without the tiles laid but not yet confirmed."""
        return take_from_rack(rack_needs(self.pending), self.game.racks[0])[0]

    def lay_tile(self, line: str) -> None:
        """``h8 K`` (column first): one more tile on a square; case does not matter, a blank is
        used when the rack lacks the letter or when written ``h8 ?K``."""
        t = self.texts
        m = _TILE_ON_SQUARE.match(line)
        row, col = parse_square(m.group(1), self.variant.board.rows, self.variant.board.columns)
        letter = alphabet.normalize(m.group(3))
        if not alphabet.is_polish_letter(letter):
            raise t.error("not_a_letter", letter=m.group(3))
        if self.game.board.occupied(row, col) or any((x.row, x.col) == (row, col) for x in self.pending):
            raise t.error("square_taken", square=m.group(1).lower())
        free = self.free_rack()
        blank = bool(m.group(2)) or letter not in free
        if (BLANK if blank else letter) not in free:
            raise t.error("not_on_rack", tiles=letter.upper(), rack=free.upper() or "-")
        self.pending.append(Tile(row, col, letter, blank))

    def typed_move(self, line: str) -> None:
        """A whole move in GCG notation (``8H ŻÓŁW``, ``H8 ŻÓŁW``; ``9F K`` is a one-letter word
        across).  It never discards tiles laid one at a time: with tiles laid it is refused."""
        t = self.texts
        if self.pending:
            raise t.error("tiles_laid", tiles=self._pending_text())
        move = parse_move(line, self.variant)
        if not isinstance(move, Placement):  # pragma: no cover - the pattern admits placements only
            raise t.error("not_understood", text=line)
        tiles = resolve(move, self.game.board)
        word = line.split(None, 1)[1]
        rack = self.game.racks[0]
        if word == word.lower():  # typed casually: the rack's tiles first, blanks for the letters it lacks
            tiles = self._casual_tiles(tiles, rack)
        else:  # the notation: upper case = a tile, lower case = a blank
            _, missing = take_from_rack(rack_needs(tiles), rack)
            if missing:
                raise t.error("not_on_rack", tiles=missing.upper(), rack=rack.upper())
        self.try_place(tiles, move.direction)

    def _casual_tiles(self, tiles: list[Tile], rack: str) -> list[Tile]:
        """Rack tiles first, a blank for each letter the rack lacks (KOK with one K: one blank);
        refused when that needs more blanks than the rack holds."""
        left = list(rack)
        fixed = []
        for tile in tiles:
            blank = tile.letter not in left
            if not blank:
                left.remove(tile.letter)
            fixed.append(Tile(tile.row, tile.col, tile.letter, blank))
        needed = sum(x.blank for x in fixed)
        have = rack.count(BLANK)
        if needed > have:
            lacking = "".join(x.letter for x in fixed if x.blank)
            raise self.texts.error("too_few_blanks", letters=lacking.upper(), needed=needed, blanks=have)
        return fixed

    def _pending_text(self) -> str:
        return " ".join(f"{square_name(x.row, x.col)} {'?' if x.blank else ''}{x.letter.upper()}" for x in self.pending)

    def try_place(self, tiles: list[Tile], direction: int | None) -> None:
        t = self.texts
        game = self.game
        rows = {x.row for x in tiles}
        direction = direction if direction is not None else (0 if len(rows) == 1 else 1)
        move = score_tiles(game.board, self.variant, tiles, direction)
        check_words(move, self.lexicon.words.lookup)
        if move.problems:
            self.pending = list(tiles)
            self.say("invalid", problems="; ".join(t.translate(p) for p in move.problems))
            return
        self.pending = list(tiles)
        self.show()
        words = ", ".join(f"{w.word} {w.score}" for w in move.words) + (f", +{move.bingo}" if move.bingo else "")
        if t.is_yes(self._ask(t("preview", words=words, total=move.total))):
            game.place(tiles, direction)
            self.pending = []
            turn = game.turns[-1]
            if turn.forced_exchange:
                self.say("forced_exchange", nick=turn.forced_exchange)
        else:
            self.say("cancelled")

    def exchange(self, tiles: str) -> None:
        t = self.texts
        game = self.game
        chosen = normalize_rack(tiles.replace(" ", ""), t("exchange_where"))
        if not game.can_exchange(0):
            minimum = self.variant.exchange_min_bag
            if len(game.bag) < minimum:
                reason = t("bag_too_small", bag=len(game.bag), min=minimum)
            else:
                reason = t("no_exchanges_left")
            self.say("cannot_exchange", reason=reason)
            return
        if not chosen:
            raise t.error("exchange_what")
        _, missing = take_from_rack(chosen, game.racks[0])
        if missing:
            raise t.error("not_on_rack", tiles=missing.upper(), rack=game.racks[0].upper())
        self.pending = []
        game.exchange(chosen)
        self.say("exchanged", tiles=chosen.upper(), left=game.exchanges_left[0])

    def hint(self) -> None:
        from literaki_cli.analysis.solve import best_by_equity, found_move

        game = self.game
        rack = game.racks[0]
        moves = self.hint_generator.generate(game.board, rack)
        if not len(moves):
            self.say("no_hint")
            return
        leave_values = self.hint_equity.leave_values(moves.records, rack, len(game.bag))
        best_index = best_by_equity(moves, leave_values)
        best = found_move(moves.records[best_index], 1, game.board, self.variant, rack, leave_values[best_index])
        self.say("hint", coord=best.coord, word=best.display, score=best.score, equity=f"{best.equity:.1f}",
                 leave=best.leave.upper() or "-")  # fmt: skip

    # ----------------------------------------------------------------- display

    def show(self) -> None:
        from literaki_cli.io.render import board_to_rich

        game = self.game
        board = game.board.with_tiles(self.pending)
        laid = {(x.row, x.col) for x in self.pending}
        # soft_wrap, as in say(): the plain-text legend, a long line, is never cut at the width
        self.console.print(board_to_rich(board, self.variant, laid, self.texts.legend), soft_wrap=True)
        self.say("status", you=game.scores[0], computer=self.computer.name, them=game.scores[1],
                 bag=len(game.bag), exchanges=game.exchanges_left[0])  # fmt: skip
        rack = " ".join(f"{ch.upper()}{self.variant.value_of(ch) if ch != BLANK else 0}" for ch in self.free_rack())
        self.say("rack", rack=rack)

    def _ask(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            return "n"

    # ----------------------------------------------------------------- the end, saving, loading

    def finish_game(self) -> None:
        game = self.game
        self.say("game_over")
        for adj in game.adjustments:
            self.say("adjustment", nick=adj.nick, points=adj.points, rack=adj.rack.upper() or "-")
        you, them = game.scores
        if you == them:
            self.say("draw", you=you, them=them)
        elif you > them:
            self.say("you_win", you=you, them=them)
        else:
            self.say("computer_wins", nick=self.computer.name, you=you, them=them)

    def offer_save(self, interrupted: bool = False) -> Path | None:
        """Ask for a file name until the game is saved or the player declines ('n', 'nie');
        Enter (or 'y', 'tak') saves under the name the prompt shows in brackets.  After Ctrl-C,
        a second Ctrl-C or EOF at the prompt ends the program (KeyboardInterrupt)."""
        t = self.texts
        default = f"literaki-{datetime.now():%Y%m%d-%H%M%S}.gcg"
        self.say("save_offer", default=default)  # a line of its own: a long prompt is cut on a narrow or dumb terminal
        while True:
            try:
                answer = self.read_line(t("save_prompt", default=default)).strip()
            except EOFError:
                if interrupted:
                    raise KeyboardInterrupt from None
                return None
            if t.is_no(answer):
                return None
            try:
                return self.save(Path(default if t.is_yes(answer) else answer))
            except PlayError as exc:
                self.say("error", message=str(exc))

    def save(self, path: Path | None = None) -> Path:
        from literaki_cli.games.record import game_to_gcg

        game = self.game
        path = path or Path(f"literaki-{datetime.now():%Y%m%d-%H%M%S}.gcg")
        state = {"variant": self.variant.name, "level": self.level.name, "lang": self.texts.lang, "seed": self.seed,
                 "racks": game.racks, "exchanges_left": game.exchanges_left, "current": game.current,
                 "first": game.first, "game_id": game.game_id, "passes_in_row": game.passes_in_row}  # fmt: skip
        text = game_to_gcg(game, self.lexicon.meta["source"]["file"].removesuffix(".zip"))
        text = text.replace("\n", f"\n{STATE_PRAGMA}{dumps_json(state, ensure_ascii=False)}\n", 1)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise self.texts.error("cannot_write", path=path, reason=self.texts.os_reason(exc)) from None
        except ValueError:  # a NUL in the name
            raise self.texts.error("bad_file_name", path=str(path).replace("\0", "\\0")) from None
        self.say("saved", path=path)
        return path

    def load(self, path: Path | SavedGame) -> None:
        """Resume a game saved by :meth:`save` (level and language are the session's: see
        :func:`choose_settings`)."""
        saved = path if isinstance(path, SavedGame) else read_save(path, self.texts)
        t = self.texts
        state, path = saved.state, saved.path
        if state["variant"] != self.variant.name:
            raise t.error("wrong_variant", path=path, saved=state["variant"], variant=self.variant.name)
        self.seed = state["seed"]
        self.new_game(first=state["first"])
        game = self.game
        game.game_id = state["game_id"]
        # the human's nick in any language: saves from before the language was recorded
        nicks = {Texts(lang)("you"): 0 for lang in LANGUAGES} | {self.computer.name: 1}
        for number, line in enumerate(saved.lines, 1):
            if line.startswith(">"):
                self._replay(line, nicks, f"{path}:{number}")
        racks = []
        for rack in state["racks"]:
            try:
                racks.append(normalize_rack(rack))
            except InputError:
                raise t.error("damaged_field", path=path, field="racks", value=json.dumps(state["racks"])) from None
        if any(len(r) > self.variant.rack_size for r in racks):
            raise t.error("damaged_field", path=path, field="racks", value=json.dumps(state["racks"]))
        if any(x > self.variant.exchange_max_per_player for x in state["exchanges_left"]):
            raise t.error("damaged_field", path=path, field="exchanges_left", value=json.dumps(state["exchanges_left"]))
        left = Counter(full_bag(self.variant))
        left.subtract(BLANK if blank else letter for _, _, letter, blank in game.board.tiles())
        left.subtract("".join(racks))
        if any(count < 0 for count in left.values()):
            raise t.error("damaged_field", path=path, field="racks", value=json.dumps(state["racks"]))
        game.racks = racks
        game.exchanges_left = list(state["exchanges_left"])
        game.current = state["current"]
        game.passes_in_row = state["passes_in_row"]
        from literaki_cli.games.bag import Bag, unseen_tiles

        game.bag = Bag(
            unseen_tiles(self.variant, game.board, game.racks), random.Random(f"{self.seed}-{len(game.turns)}")
        )
        self.games_played = game.game_id

    def _replay(self, line: str, nicks: dict[str, int], where: str) -> None:
        """Apply one GCG event to the board and the scores (racks come from the state line)."""
        t = self.texts
        game = self.game
        m = re.match(r">(\S+): (\S*) (.*) ([+-]\d+) (-?\d+)$", line)
        if not m:
            raise t.error("bad_event", where=where, line=line)
        nick, rack, what, score, total = m.groups()
        player = nicks.get(nick)
        if player is None:
            raise t.error("unknown_player", where=where, nick=nick, expected=", ".join(nicks))
        if what.startswith("("):  # end-of-game adjustments of a finished game
            game.scores[player] = int(total)
            game.over = True
            return
        if what == "-":
            kind, play, exchanged = PASS, "-", ""
        elif what.startswith("-"):
            kind, play, exchanged = EXCHANGE, what, what[1:].lower()
        else:
            kind, play, exchanged = PLACE, what, ""
            try:
                move = parse_move(what, self.variant)
                if not isinstance(move, Placement):
                    raise InputError(what)
                game.board = game.board.with_tiles(resolve(move, game.board))
            except InputError as exc:
                raise t.error("bad_event_move", where=where, message=t.translate(message_of(exc))) from None
        game.scores[player] = int(total)
        game.turns.append(Turn(game.game_id, len(game.turns), player, nick, rack.lower(), kind, play, int(score),
                               int(total), 0, "", float(score), 0, 0, exchanged=exchanged))  # fmt: skip
