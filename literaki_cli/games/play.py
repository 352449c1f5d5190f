"""``literaki play``: a game against the computer in the terminal, on the same engine.

A clean line-based prompt (rich for the board and colours, readline for editing and history):
it works in any terminal, over ssh, in tmux and under scripts, and it is tested end to end in
a pseudo-terminal.  Interface text lives in ``locales/<lang>.toml`` (Polish by default).
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from pathlib import Path

from literaki_cli.engine import alphabet
from literaki_cli.engine.coords import parse_square
from literaki_cli.engine.lexicon import Lexicon
from literaki_cli.engine.move import Placement, Tile, parse_move, rack_needs, resolve, take_from_rack
from literaki_cli.engine.position import BLANK, normalize_rack
from literaki_cli.engine.scoring import check_words, score_tiles
from literaki_cli.engine.variant import Variant
from literaki_cli.errors import InputError, LiterakiError
from literaki_cli.games.game import EXCHANGE, PASS, PLACE, Game, Turn
from literaki_cli.games.players import load_levels, make_players

LANGUAGES = ("pl", "en")
STATE_PRAGMA = "#literaki-state "


class Texts:
    """The interface text of one language."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise InputError(f"unknown language {lang!r}; choose one of: {', '.join(LANGUAGES)}")
        data = tomllib.loads((resources.files("literaki_cli") / "locales" / f"{lang}.toml").read_text(encoding="utf-8"))
        self.commands: dict[str, list[str]] = data["commands"]
        self.text: dict[str, str] = data["text"]

    def __call__(self, key: str, **fields) -> str:
        return self.text[key].format(**fields)

    def command(self, word: str) -> str | None:
        for name, words in self.commands.items():
            if name != "yes" and word in words:
                return name
        return None

    def is_yes(self, answer: str) -> bool:
        return answer.strip().lower() in self.commands["yes"]


@dataclass
class HumanSeat:
    """The human's place at the table (the session makes its moves)."""

    name: str
    level = None

    def choose(self, game: Game):  # pragma: no cover - the session plays for the human
        raise LiterakiError("the human's moves come from the prompt")


_TILE_ON_SQUARE = re.compile(r"^([a-zA-Z]\d{1,2})\s+(\??)(\S)$")
_GCG_MOVE = re.compile(r"^(\d{1,2}[a-zA-Z]|[a-zA-Z]\d{1,2})\s+\S+$")


class PlaySession:
    def __init__(self, variant: Variant, lexicon: Lexicon, level: str = "normalny", lang: str = "pl",
                 console=None, read_line: Callable[[str], str] = input, seed: int | None = None) -> None:  # fmt: skip
        from rich.console import Console

        from literaki_cli.engine.movegen import MoveGenerator

        self.variant = variant
        self.lexicon = lexicon
        self.texts = Texts(lang)
        self.console = console or Console(highlight=False)
        self.read_line = read_line
        self.seed = seed if seed is not None else random.randrange(1 << 30)
        levels = load_levels()
        if level not in ("latwy", "normalny", "trudny", "mistrz"):
            raise InputError(f"unknown level {level!r}; choose latwy, normalny or trudny")
        self.level = levels[level]
        self.computer = make_players([level], lexicon, variant, levels)[0]
        self.computer.name = self.level.title
        self.human = HumanSeat(self.texts("you"))
        self.hint_generator = MoveGenerator(lexicon, variant)
        self.pending: list[Tile] = []
        self.game: Game | None = None
        self.games_played = 0

    # ----------------------------------------------------------------- games

    def new_game(self, first: int) -> None:
        self.game = Game(self.variant, [self.human, self.computer], self.lexicon.words, seed=self.seed,
                         game_id=self.games_played, first=first)  # fmt: skip
        self.pending = []

    def run(self, loaded: bool = False) -> None:
        """Play games until the player stops: the human starts the first, then they alternate."""
        t = self.texts
        self.console.print(t("welcome", level=self.level.title))
        if not loaded:
            self.new_game(first=0)
        while True:
            if not self.play_game():
                self.offer_save()
                break
            self.finish_game()
            self.offer_save()
            self.games_played += 1
            if not t.is_yes(self._ask(t("again"))):
                break
            self.new_game(first=1 - self.game.first)
        self.console.print(t("goodbye"))

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
        t = self.texts
        turn = self.game.step()
        nick = self.computer.name
        if turn.kind == PLACE:
            self.console.print(t("played", nick=nick, play=turn.play, score=turn.score))
            if turn.forced_exchange:
                self.console.print(t("forced_exchange", nick=turn.forced_exchange))
        elif turn.kind == EXCHANGE:
            self.console.print(t("computer_exchanged", nick=nick, count=len(turn.exchanged)))
        else:
            self.console.print(t("computer_passed", nick=nick))

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
                self.console.print(t("help", exchanges=self.game.exchanges_left[0]), markup=False)
            elif command == "undo":
                self.pending = []
                self.console.print(t("undone"))
            elif command == "shuffle":
                rack = list(self.game.racks[0])
                random.shuffle(rack)
                self.game.racks[0] = "".join(rack)
                self.console.print(t("shuffled"))
            elif command == "exchange":
                self.exchange(rest)
            elif command == "pass":
                self.pending = []
                self.game.pass_turn()
                self.console.print(t("passed"))
            elif command == "hint":
                self.hint()
            elif command == "save":
                self.save(Path(rest.strip()) if rest.strip() else None)
            elif command == "place":
                if not self.pending:
                    self.console.print(t("nothing_placed"))
                else:
                    self.try_place(self.pending, None)
            elif _TILE_ON_SQUARE.match(line):
                self.lay_tile(line)
            elif _GCG_MOVE.match(line):
                self.typed_move(line)
            else:
                self.console.print(t("not_understood", text=line), markup=False)
        except LiterakiError as exc:
            self.console.print(t("error", message=str(exc)), markup=False)
        return None

    def free_rack(self) -> str:
        """The rack without the tiles laid but not yet confirmed."""
        return take_from_rack(rack_needs(self.pending), self.game.racks[0])[0]

    def lay_tile(self, line: str) -> None:
        m = _TILE_ON_SQUARE.match(line)
        row, col = parse_square(m.group(1), self.variant.board.rows, self.variant.board.columns)
        letter = alphabet.normalize(m.group(3))
        if not alphabet.is_polish_letter(letter):
            raise InputError(f"{m.group(3)!r} is not a Polish letter")
        if self.game.board.occupied(row, col) or any((t.row, t.col) == (row, col) for t in self.pending):
            raise InputError(f"{m.group(1)} is taken")
        free = self.free_rack()
        blank = bool(m.group(2)) or letter not in free
        if (BLANK if blank else letter) not in free:
            raise InputError(f"{letter.upper()} is not on your rack {free.upper()}")
        self.pending.append(Tile(row, col, letter, blank))

    def typed_move(self, line: str) -> None:
        move = parse_move(line, self.variant)
        if not isinstance(move, Placement):
            raise InputError(line)
        tiles = resolve(move, self.game.board)
        word = line.split(None, 1)[1]
        if word == word.lower():  # all lower case: use the rack's tiles first, blanks for the rest
            rack = list(self.game.racks[0])
            fixed = []
            for tile in tiles:
                blank = tile.letter not in rack
                if blank and BLANK in rack:
                    rack.remove(BLANK)
                elif not blank:
                    rack.remove(tile.letter)
                fixed.append(Tile(tile.row, tile.col, tile.letter, blank))
            tiles = fixed
        self.pending = []
        self.try_place(tiles, move.direction)

    def try_place(self, tiles: list[Tile], direction: int | None) -> None:
        t = self.texts
        game = self.game
        rows = {x.row for x in tiles}
        direction = direction if direction is not None else (0 if len(rows) == 1 else 1)
        move = score_tiles(game.board, self.variant, tiles, direction)
        _, missing = take_from_rack(rack_needs(tiles), game.racks[0])
        if missing:
            move.problems.append(f"{missing.upper()} not on your rack")
        check_words(move, self.lexicon.words.lookup)
        if move.problems:
            self.pending = list(tiles) if not missing else []
            self.console.print(t("invalid", problems="; ".join(move.problems)), markup=False)
            return
        self.pending = list(tiles)
        self.show()
        words = ", ".join(f"{w.word} {w.score}" for w in move.words) + (f", +{move.bingo}" if move.bingo else "")
        if t.is_yes(self._ask(t("preview", words=words, total=move.total))):
            game.place(tiles, direction)
            self.pending = []
            turn = game.turns[-1]
            if turn.forced_exchange:
                self.console.print(t("forced_exchange", nick=turn.forced_exchange))
        else:
            self.console.print(t("cancelled"))

    def exchange(self, tiles: str) -> None:
        t = self.texts
        game = self.game
        chosen = normalize_rack(tiles.replace(" ", ""), "exchange")
        if not game.can_exchange(0):
            minimum = self.variant.exchange_min_bag
            if len(game.bag) < minimum:
                reason = t("bag_too_small", bag=len(game.bag), min=minimum)
            else:
                reason = t("no_exchanges_left")
            self.console.print(t("cannot_exchange", reason=reason))
            return
        self.pending = []
        game.exchange(chosen)
        self.console.print(t("exchanged", tiles=chosen.upper(), left=game.exchanges_left[0]))

    def hint(self) -> None:
        from literaki_cli.analysis.solve import found_move

        game = self.game
        moves = self.hint_generator.generate(game.board, game.racks[0])
        if not len(moves):
            self.console.print(self.texts("no_hint"))
            return
        best = found_move(moves.records[moves.ranked()[0]], 1, game.board, self.variant, game.racks[0])
        self.console.print(self.texts("hint", coord=best.coord, word=best.display, score=best.score))

    # ----------------------------------------------------------------- display

    def show(self) -> None:
        from literaki_cli.io.render import board_to_rich

        game = self.game
        t = self.texts
        board = game.board.with_tiles(self.pending)
        self.console.print(board_to_rich(board, self.variant, {(x.row, x.col) for x in self.pending}))
        self.console.print(t("status", you=game.scores[0], computer=self.computer.name, them=game.scores[1],
                             bag=len(game.bag), exchanges=game.exchanges_left[0]))  # fmt: skip
        rack = " ".join(f"{ch.upper()}{self.variant.value_of(ch) if ch != BLANK else 0}" for ch in self.free_rack())
        self.console.print(t("rack", rack=rack))

    def _ask(self, prompt: str) -> str:
        try:
            return self.read_line(prompt)
        except EOFError:
            return "n"

    # ----------------------------------------------------------------- the end, saving, loading

    def finish_game(self) -> None:
        t = self.texts
        game = self.game
        self.console.print(t("game_over"))
        for adj in game.adjustments:
            self.console.print(t("adjustment", nick=adj.nick, points=adj.points, rack=adj.rack.upper() or "-"))
        you, them = game.scores
        if you == them:
            self.console.print(t("draw", you=you, them=them))
        else:
            winner = self.human.name if you > them else self.computer.name
            self.console.print(t("winner", nick=winner, you=max(you, them), them=min(you, them)))

    def offer_save(self) -> None:
        default = f"literaki-{datetime.now():%Y%m%d-%H%M%S}.gcg"
        answer = self._ask(self.texts("save_offer", default=default)).strip()
        if answer and answer.lower() not in ("n", "nie", "no"):
            self.save(Path(default if answer.lower() in ("t", "tak", "y", "yes") else answer))

    def save(self, path: Path | None = None) -> Path:
        from literaki_cli.io.gcg import game_to_gcg

        game = self.game
        path = path or Path(f"literaki-{datetime.now():%Y%m%d-%H%M%S}.gcg")
        state = {"variant": self.variant.name, "level": self.level.name, "seed": self.seed,
                 "racks": game.racks, "exchanges_left": game.exchanges_left, "current": game.current,
                 "first": game.first, "game_id": game.game_id, "passes_in_row": game.passes_in_row}  # fmt: skip
        text = game_to_gcg(game, self.lexicon.meta["source"]["file"].removesuffix(".zip"))
        text = text.replace("\n", f"\n{STATE_PRAGMA}{json.dumps(state, ensure_ascii=False)}\n", 1)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{path}: cannot write: {exc.strerror}") from None
        self.console.print(self.texts("saved", path=path))
        return path

    def load(self, path: Path) -> None:
        """Resume a game saved by :meth:`save`."""
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path}: cannot read: {exc}") from None
        state_lines = [line for line in lines if line.startswith(STATE_PRAGMA)]
        if not state_lines:
            raise InputError(f"{path}: not a game saved by literaki play (no {STATE_PRAGMA.strip()} line)")
        try:
            state = json.loads(state_lines[0][len(STATE_PRAGMA) :])
            self.seed = int(state["seed"])
            self.new_game(first=int(state["first"]))
            game = self.game
            game.game_id = int(state["game_id"])
            nicks = {self.human.name: 0, self.computer.name: 1}
            for number, line in enumerate(lines, 1):
                if line.startswith(">"):
                    self._replay(line, nicks, f"{path}:{number}")
            game.racks = [normalize_rack(r, f"{path}: rack") for r in state["racks"]]
            game.exchanges_left = [int(x) for x in state["exchanges_left"]]
            game.current = int(state["current"])
            game.passes_in_row = int(state["passes_in_row"])
        except (KeyError, ValueError, TypeError) as exc:
            raise InputError(f"{path}: damaged save ({exc})") from None
        from literaki_cli.games.bag import Bag, unseen_tiles

        game.bag = Bag(
            unseen_tiles(self.variant, game.board, game.racks), random.Random(f"{self.seed}-{len(game.turns)}")
        )
        self.games_played = game.game_id

    def _replay(self, line: str, nicks: dict[str, int], where: str) -> None:
        """Apply one GCG event to the board and the scores (racks come from the state line)."""
        game = self.game
        m = re.match(r">(\S+): (\S*) (.*) ([+-]\d+) (-?\d+)$", line)
        if not m:
            raise InputError(f"{where}: not a GCG event: {line!r}")
        nick, rack, what, score, total = m.groups()
        player = nicks.get(nick)
        if player is None:
            raise InputError(f"{where}: unknown player {nick!r} (expected {', '.join(nicks)})")
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
            move = parse_move(what, self.variant)
            game.board = game.board.with_tiles(resolve(move, game.board))
        game.scores[player] = int(total)
        game.turns.append(Turn(game.game_id, len(game.turns), player, nick, rack.lower(), kind, play, int(score),
                               int(total), 0, "", float(score), 0, 0, exchanged=exchanged))  # fmt: skip
