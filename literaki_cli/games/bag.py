"""The bag of tiles: a variant's full tile set, drawn in an order fixed by a seeded RNG."""

from __future__ import annotations

import random
from collections import Counter

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import Board
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.variant import Variant


def full_bag(variant: Variant) -> list[str]:
    """Every tile of the variant ('?' for blanks), in alphabetical order."""
    tiles = [letter for letter in alphabet.POLISH_LETTERS if letter in variant.tiles
             for _ in range(variant.tiles[letter].count)]  # fmt: skip
    return tiles + [BLANK] * variant.blanks


def unseen_tiles(variant: Variant, board: Board, racks: list[str] = ()) -> list[str]:
    """The tiles not on the board nor on the given racks (the bag plus unknown racks)."""
    left = Counter(full_bag(variant))
    for _, _, letter, blank in board.tiles():
        left[BLANK if blank else letter] -= 1
    for rack in racks:
        left.subtract(rack)
    return _expand(left)


def _expand(counts: Counter) -> list[str]:
    order = {t: i for i, t in enumerate(alphabet.POLISH_LETTERS + BLANK)}
    return [t for t in sorted(counts, key=order.__getitem__) for _ in range(max(0, counts[t]))]


class Bag:
    """Tiles left to draw; ``draw`` takes them in an order set by the seed."""

    def __init__(self, tiles: list[str], seed: int | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.tiles = list(tiles)
        self.rng.shuffle(self.tiles)

    def __len__(self) -> int:
        return len(self.tiles)

    def draw(self, n: int) -> str:
        taken, self.tiles = self.tiles[:n], self.tiles[n:]
        return "".join(taken)

    def put_back(self, tiles: str) -> None:
        """Return tiles (an exchange) and shuffle them in."""
        self.tiles.extend(tiles)
        self.rng.shuffle(self.tiles)
