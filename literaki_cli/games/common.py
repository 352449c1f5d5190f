"""What every game of this package shares, whatever its board: the seats at the table, the
nicknames of computer players, and who won.  One place, so the board games and the grid game
cannot drift apart on these rules.
"""

from __future__ import annotations

from literaki_cli.errors import InputError


def check_player_count(game_name: str, count: int, min_players: int, max_players: int) -> None:
    """Refuse a table the rules do not allow (InputError naming the count and the range)."""
    if not min_players <= count <= max_players:
        raise InputError(f"{game_name} is played by {min_players} to {max_players} players, not {count}")


def seat_nicknames(specs: list[str]) -> list[str]:
    """One nickname per seat: the level name, numbered when the level sits more than once
    (``trudny,trudny,latwy`` -> ``trudny1, trudny2, latwy``), so every table row names one seat."""
    return [spec if specs.count(spec) == 1 else f"{spec}{specs[: i + 1].count(spec)}" for i, spec in enumerate(specs)]


class Standings:
    """Mixin for a game with ``scores`` (one per seat): who leads."""

    scores: list[int]

    def winners(self) -> list[int]:
        """The seats with the highest score (more than one: a draw)."""
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]
