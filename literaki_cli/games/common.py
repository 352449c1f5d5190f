"""What every game of this package shares, whatever its board: the seats at the table, the
nicknames of computer players, and who won.  One place, so the board games and the grid game
cannot drift apart on these rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from literaki_cli.errors import InputError, said


def check_player_count(game_name: str, count: int, min_players: int, max_players: int) -> None:
    """Refuse a table the rules do not allow (InputError naming the count and the range)."""
    if not min_players <= count <= max_players:
        raise InputError(said("{game} is played by {least} to {most} players, not {count}", game=game_name,
                              least=min_players, most=max_players, count=count))  # fmt: skip


def seat_nicknames(specs: list[str]) -> list[str]:
    """One nickname per seat: the level name, numbered when the level sits more than once
    (``trudny,trudny,latwy`` -> ``trudny1, trudny2, latwy``), so every table row names one seat."""
    return [spec if specs.count(spec) == 1 else f"{spec}{specs[: i + 1].count(spec)}" for i, spec in enumerate(specs)]


@dataclass
class TableGame:
    """What every game of the package has besides its board: the seed and number that fix its
    random course, the starting seat, the scores, the record of turns and how it ended.

    A subclass declares ``players`` (its own positional fields come first; these are keyword-only)
    and calls :meth:`_open_table` first thing in ``__post_init__``.
    """

    seed: int | str = field(default=0, kw_only=True)
    game_id: int = field(default=0, kw_only=True)
    first: int = field(default=0, kw_only=True)
    scores: list[int] = field(init=False)
    turns: list = field(init=False)
    over: bool = field(init=False)
    ended_by: str = field(init=False)

    def _open_table(self, game_name: str, min_players: int, max_players: int) -> int:
        """Check the player count against the rules, zero the scores; returns the count."""
        count = len(self.players)  # type: ignore[attr-defined]
        check_player_count(game_name, count, min_players, max_players)
        self.scores = [0] * count
        self.turns = []
        self.over = False
        self.ended_by = ""
        return count

    def winners(self) -> list[int]:
        """The seats with the highest score (more than one: a draw)."""
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]
