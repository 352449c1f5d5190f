"""The 5x5 letter-grid game itself: rounds, replaced letters, "Przesortuj", the early end.

Rules from ``games/grid5.toml``: 30 rounds; in each round every player lays a word (its
letters are replaced by new random ones in the same cells) or passes; a player may reshuffle
the grid ("Przesortuj") at most 3 times per game; if every player passes in two consecutive
rounds the game ends early.  Project interpretations (documented in README): a reshuffle is
made at the start of the player's turn, who then plays on the new grid; computer words are
always checked, so a computer never lays an invalid word.

Computer players reuse the levels of ``levels.toml``: the vocabulary, the rank quantile
(Beta(alpha, beta)) over the words found ranked by score, and ``exchange_below`` as the score
under which the best word is poor enough to reshuffle first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from literaki_cli.errors import LiterakiError
from literaki_cli.games.common import TableGame, seat_nicknames
from literaki_cli.games.grid5 import GridRules, GridWord, draw_grid, find_words
from literaki_cli.games.players import Level, level_named

WORD, PASS, RESHUFFLE = "word", "pass", "reshuffle"


@dataclass
class GridTurn:
    turn: int
    round: int
    player: int
    nick: str
    kind: str
    word: str = ""
    path: tuple = ()
    score: int = 0
    total: int = 0
    opp_score: int = 0  # the best other score after the turn


@dataclass
class GridGame(TableGame):
    """One grid game; ``turns`` holds :class:`GridTurn` records."""

    rules: GridRules
    players: list
    grid: list[str] = field(init=False)
    reshuffles_left: list[int] = field(init=False)
    round: int = field(init=False)

    def __post_init__(self) -> None:
        n = self._open_table(self.rules.name, self.rules.min_players, self.rules.max_players)
        self.rng = random.Random(f"literaki-grid-{self.seed}-{self.game_id}")
        self.grid = draw_grid(self.rng, self.rules.letter_frequencies, self.rules.size**2)
        self.reshuffles_left = [self.rules.reshuffles_per_player] * n
        self.round = 0

    def _record(self, player: int, kind: str, word: GridWord | None = None) -> None:
        score = word.score if word else 0
        self.scores[player] += score
        others = max(s for i, s in enumerate(self.scores) if i != player)
        self.turns.append(GridTurn(len(self.turns), self.round, player, self.players[player].name, kind,
                                   word.word if word else "", word.path if word else (), score,
                                   self.scores[player], others))  # fmt: skip

    def reshuffle(self, player: int) -> None:
        if self.reshuffles_left[player] <= 0:
            raise LiterakiError(f"{self.players[player].name} has no reshuffle left")
        self.rng.shuffle(self.grid)
        self.reshuffles_left[player] -= 1
        self._record(player, RESHUFFLE)

    def lay(self, player: int, word: GridWord) -> None:
        """Lay ``word``: its cells get new random letters, in path order."""
        n = self.rules.size
        for (r, c), letter in zip(word.path, draw_grid(self.rng, self.rules.letter_frequencies, len(word.path)),
                                  strict=True):  # fmt: skip
            self.grid[r * n + c] = letter
        self._record(player, WORD, word)

    def pass_turn(self, player: int) -> None:
        self._record(player, PASS)

    def play(self) -> GridGame:
        n = len(self.players)
        passive_rounds = 0
        while self.round < self.rules.rounds:
            everyone_passed = True
            for i in range(n):
                p = (self.first + i) % n
                laid = self.players[p].play_turn(self, p)
                everyone_passed &= not laid
            passive_rounds = passive_rounds + 1 if everyone_passed else 0
            self.round += 1
            if passive_rounds >= 2:
                self.over, self.ended_by = True, "passes"
                return self
        self.over, self.ended_by = True, "rounds"
        return self


class GridComputer:
    def __init__(self, name: str, level: Level, word_set, rules: GridRules) -> None:
        self.name = name
        self.level = level
        self.word_set = word_set
        self.rules = rules

    def play_turn(self, game: GridGame, player: int) -> bool:
        """Reshuffle if the grid is poor, then lay a word or pass; True when a word was laid."""
        words = find_words(game.grid, self.word_set, self.rules)
        if (not words or words[0].score < self.level.exchange_below) and game.reshuffles_left[player] > 0:
            game.reshuffle(player)
            words = find_words(game.grid, self.word_set, self.rules)
        if not words:
            game.pass_turn(player)
            return False
        game.lay(player, words[self.level.pick_rank(len(words), game.rng)])
        return True


def make_grid_players(specs: list[str], lexicon, rules: GridRules, levels: dict[str, Level]) -> list[GridComputer]:
    """Grid players for the level names in ``specs``, nicknamed as at the board (trudny1, trudny2)."""
    players = []
    for spec, nick in zip(specs, seat_nicknames(specs), strict=True):
        level = level_named(spec, levels)
        words = lexicon.popular if level.vocabulary == "popular" else lexicon.words
        players.append(GridComputer(nick, level, words, rules))
    return players
