"""How likely a word's tiles are to be drawn from a full bag (Zyzzyva's probability order).

A word's **combinations** are the sets of as many tiles as it has letters, drawn from the full
bag with every tile told apart, that spell it, blanks standing in for missing letters.  In
Literaki's bag (100 tiles: 9 A, 1 Ą, ..., 2 blanks) KOT has C(3,1) C(6,1) C(3,1) = 54 without a
blank, plus one blank for K, O or T: 2 (6*3 + 3*3 + 3*6) = 90, plus two blanks: 1 (3+6+3) = 12,
in all 156, out of C(100,3) = 161,700 three-tile draws.  This is Zyzzyva's count with blanks.

Words of one length are ranked by it, most likely first (probability rank 1); words with as
many combinations share a rank, the next rank counting them all (1, 2, 2, 4), so a rank never
depends on the spelling.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.lexicon import WordSet, encode_many
from literaki_cli.engine.variant import Variant
from literaki_cli.wordstudy import kernels

#: Longest word the binomial table serves (a lexicon's words are at most 64 letters).
MAX_WORD = 64


@dataclass(frozen=True)
class TileBag:
    """The full bag of a variant: tiles per letter code and blanks."""

    counts: np.ndarray  # int64 [64]: tiles per letter code
    blanks: int
    values: np.ndarray  # int64 [256]: a tile's points per letter code (0 for the separator)

    @classmethod
    def of(cls, variant: Variant) -> TileBag:
        counts = np.zeros(64, dtype=np.int64)
        values = np.zeros(256, dtype=np.int64)
        for letter, tile in variant.tiles.items():
            counts[alphabet.CODE_OF[letter]] = tile.count
            values[alphabet.CODE_OF[letter]] = tile.value
        return cls(counts, variant.blanks, values)

    @property
    def size(self) -> int:
        return int(self.counts.sum()) + self.blanks

    @cached_property
    def binomial(self) -> np.ndarray:
        """C(n, k) for n up to the largest tile count (or the blanks) and k up to :data:`MAX_WORD`."""
        top = int(max(int(self.counts.max()), self.blanks))
        table = np.zeros((top + 1, MAX_WORD + 1), dtype=np.int64)
        for n in range(top + 1):
            for k in range(min(n, MAX_WORD) + 1):
                table[n, k] = math.comb(n, k)
        return table

    def combinations(self, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Combinations of each word of a flat code buffer (see :mod:`.kernels`)."""
        return kernels.tile_combinations(codes, starts, ends, self.counts, self.blanks, self.binomial)

    def combinations_of(self, words: list[str]) -> np.ndarray:
        """Combinations of each normalised word."""
        return self.combinations(*encode_many(words))

    def probability(self, word: str) -> float:
        """The chance that a draw of ``len(word)`` tiles from the full bag spells ``word``."""
        return int(self.combinations_of([word])[0]) / math.comb(self.size, len(word))

    def points(self, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
        """Each word's value in tile points (the sum of its letters' tile values)."""
        if starts.shape[0] == 0:
            return np.zeros(0, dtype=np.int64)
        cumulative = np.concatenate(([0], np.cumsum(self.values[codes])))
        return cumulative[ends] - cumulative[starts]


def word_bounds(buffer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end offsets of the words of a flat buffer (each followed by the separator)."""
    ends = np.flatnonzero(buffer == wordgraph.WORD_SEPARATOR).astype(np.int64)
    starts = np.concatenate(([0], ends[:-1] + 1)).astype(np.int64)
    return starts, ends


class ProbabilityRanks:
    """The combinations of every word of a word set, per length, as the table that ranks any
    word.  A length's table is built when first asked for, from one walk of the graph over the
    lengths missing (about a second for every length of SJP, a few milliseconds for short words)."""

    def __init__(self, word_set: WordSet, bag: TileBag) -> None:
        self.word_set = word_set
        self.bag = bag
        #: Per length: the distinct combinations, ascending, and how many words have at most each.
        self._values: dict[int, np.ndarray] = {}
        self._at_most: dict[int, np.ndarray] = {}

    def _build(self, lengths: list[int]) -> None:
        from literaki_cli.wordstudy.automaton import compile_filters

        low, high = min(lengths), max(lengths)
        every = compile_filters([])
        capacity = self.word_set.count * (high + 1) + 1
        out = np.empty(capacity, dtype=np.uint8)
        _, n_bytes = kernels.search(
            self.word_set.arcs, self.word_set.root, every.table, every.accepting, low, high,
            np.zeros(64, dtype=np.int64), 0, False, 0, out,
        )  # fmt: skip
        buffer = out[:n_bytes]
        starts, ends = word_bounds(buffer)
        combos = self.bag.combinations(buffer, starts, ends)
        word_lengths = ends - starts
        for n in range(low, high + 1):
            values, counts = np.unique(combos[word_lengths == n], return_counts=True)
            self._values[n] = values
            self._at_most[n] = np.concatenate(([0], np.cumsum(counts)))

    def ranks(self, combos: np.ndarray, lengths: np.ndarray) -> np.ndarray:
        """Rank of words with these combinations and lengths: 1 + the words of their length with
        more combinations."""
        needed = sorted(set(np.unique(lengths).tolist()) - set(self._values))
        if needed:
            self._build(needed)
        ranks = np.zeros(combos.shape[0], dtype=np.int64)
        for n in np.unique(lengths).tolist():
            values, at_most = self._values[n], self._at_most[n]
            here = lengths == n
            ranks[here] = 1 + at_most[-1] - at_most[np.searchsorted(values, combos[here], side="right")]
        return ranks
