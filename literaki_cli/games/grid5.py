"""The 5x5 letter-grid game: rules as data (``variants/grid5.toml``), grids, and the search
for every word that can be traced on a grid.

A word is traced through cells that touch (8 neighbours), never using a cell twice, and the
line never crosses itself: the two diagonals of one 2x2 block cross at its centre, so each
such crossing point can be passed at most once.  A word scores one point per letter plus,
for each crossing point it passes, the premium there: the highest class value among the four
letters around it.

The search runs in the Rust core (`rust/src/grid.rs`) over the lexicon's DAWG: a depth-first walk
from every cell that follows only arcs of the graph, so a path stops as soon as no word starts
with it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import BLANK_FLAG, CODE_MASK, core_call, rack_counts
from literaki_cli.engine.tomlfile import read_toml, whole_number
from literaki_cli.errors import InputError


@dataclass(frozen=True)
class GridRules:
    size: int
    min_word_length: int
    letter_points: int
    class_of: dict[str, int]  # letter -> class number (1-based)
    class_values: tuple[int, ...]
    rounds: int
    reshuffles_per_player: int
    min_players: int
    max_players: int
    frequencies_from: str  # the variant whose tile counts weigh the letters drawn
    letter_frequencies: dict[str, int]  # letter -> weight of the draw, read once from that variant
    name: str = "grid5"

    def letter_value(self, letter: str) -> int:
        """The premium class value of a letter."""
        return self.class_values[self.class_of[letter] - 1]

    def with_class_values(self, values: tuple[int, ...]) -> GridRules:
        if len(values) != len(self.class_values):
            raise InputError(f"class values: need {len(self.class_values)} numbers, got {len(values)}")
        return GridRules(**{**self.__dict__, "class_values": tuple(values)})


# Bounds of a grid rules file's numbers: the search keeps paths of at most 16 cells and works
# in int64, so these keep every grid searchable and every score far from overflow.
GRID_SIZE_RANGE = (2, 8)
POINTS_RANGE = (0, 1000)
ROUNDS_RANGE = (1, 10_000)
PLAYERS_RANGE = (1, 16)


def check_class_values(values: object, where: str, classes: int) -> tuple[int, ...]:
    """Class values as whole numbers in ``POINTS_RANGE``, one per class; InputError naming ``where``."""
    if not isinstance(values, list | tuple) or len(values) != classes:
        raise InputError(f"{where}: needs one whole number per class ({classes})")
    return tuple(whole_number(v, where, *POINTS_RANGE) for v in values)


def _table(data: dict, key: str, where: str) -> dict:
    table = data.get(key)
    if not isinstance(table, dict):
        raise InputError(f"{where}: missing table [{key}]")
    return table


def load_grid_rules(rules_file: Path | None = None) -> GridRules:
    """The grid game's rules (``grid5.toml`` or the user's file), every key and number checked:
    InputError naming the file, the table and the key otherwise."""
    data, where = read_toml(rules_file, "games/grid5.toml")
    grid, game, draw = (_table(data, key, where) for key in ("grid", "game", "draw"))

    def number(table: dict, section: str, key: str, low: int, high: int) -> int:
        if key not in table:
            raise InputError(f"{where} [{section}]: missing key {key!r}")
        return whole_number(table[key], f"{where} [{section}]: key {key!r}", low, high)

    classes = grid.get("classes")
    if not isinstance(classes, list) or not classes or not all(isinstance(c, str) for c in classes):
        raise InputError(f"{where} [grid]: key 'classes' must be a list of strings of letters")
    class_of = {}
    for k, letters in enumerate(classes, 1):
        for ch in letters:
            if ch not in alphabet.POLISH_LETTERS:
                raise InputError(f"{where} [grid]: key 'classes': {ch!r} is not a Polish letter")
            class_of[ch] = k
    missing = [ch for ch in alphabet.POLISH_LETTERS if ch not in class_of]
    if missing:
        raise InputError(f"{where} [grid]: key 'classes' leaves out {', '.join(missing)}")
    if "class_values" not in grid:
        raise InputError(f"{where} [grid]: missing key 'class_values'")
    values = check_class_values(grid["class_values"], f"{where} [grid]: key 'class_values'", len(classes))
    size = number(grid, "grid", "size", *GRID_SIZE_RANGE)
    min_players = number(game, "game", "min_players", *PLAYERS_RANGE)
    max_players = number(game, "game", "max_players", min_players, PLAYERS_RANGE[1])
    frequencies_from = draw.get("frequencies_from")
    if not isinstance(frequencies_from, str):
        raise InputError(f"{where} [draw]: key 'frequencies_from' must name a variant")
    name = data.get("name", "grid5")
    if not isinstance(name, str):
        raise InputError(f"{where}: key 'name' must be a string")
    return GridRules(
        size=size, min_word_length=number(grid, "grid", "min_word_length", 1, 16),
        letter_points=number(grid, "grid", "letter_points", *POINTS_RANGE), class_of=class_of, class_values=values,
        rounds=number(game, "game", "rounds", *ROUNDS_RANGE),
        reshuffles_per_player=number(game, "game", "reshuffles_per_player", 0, ROUNDS_RANGE[1]),
        min_players=min_players, max_players=max_players, frequencies_from=frequencies_from,
        letter_frequencies=_letter_frequencies(frequencies_from, where), name=name,
    )  # fmt: skip


def parse_grid(text: str, size: int = 5, source: str = "grid") -> list[str]:
    """The letters of a grid, row by row: 25 letters in one string, in lines, spaced or not."""
    letters = [ch for ch in alphabet.normalize(text) if not ch.isspace() and ch not in ",;|"]
    for i, ch in enumerate(letters, 1):
        if not alphabet.is_polish_letter(ch):
            raise InputError(f"{source}: letter {i} {ch!r} is not a letter of the Polish alphabet")
    if len(letters) != size * size:
        raise InputError(f"{source}: {len(letters)} letters, a {size}x{size} grid needs {size * size}")
    return letters


def _letter_frequencies(variant_name: str, where: str) -> dict[str, int]:
    """The tile count of every letter of the variant ``[draw] frequencies_from`` names (blanks excluded)."""
    from literaki_cli.engine.variant import load_variant

    try:
        variant = load_variant(variant_name)
    except InputError as exc:
        raise InputError(f"{where} [draw]: key 'frequencies_from': {exc}") from None
    return {t.letter: t.count for t in variant.tiles.values()}


def draw_grid(rng: random.Random, frequencies: dict[str, int], cells: int = 25) -> list[str]:
    """``cells`` random letters weighted by ``frequencies`` (``GridRules.letter_frequencies``),
    with replacement: a whole grid, or the letters that replace a laid word."""
    return rng.choices(list(frequencies), weights=list(frequencies.values()), k=cells)


def premiums(letters: list[str], rules: GridRules) -> np.ndarray:
    """Premium at each crossing point, as a (size-1) x (size-1) grid."""
    n = rules.size
    values = [rules.letter_value(ch) for ch in letters]
    out = np.zeros((n - 1, n - 1), dtype=np.int64)
    for r in range(n - 1):
        for c in range(n - 1):
            out[r, c] = max(
                values[r * n + c], values[r * n + c + 1], values[(r + 1) * n + c], values[(r + 1) * n + c + 1]
            )
    return out


@dataclass(frozen=True)
class GridWord:
    word: str
    score: int
    path: tuple[tuple[int, int], ...]

    def as_dict(self) -> dict:
        return {"word": self.word, "score": self.score, "path": [list(cell) for cell in self.path]}


def find_words(letters: list[str], word_set, rules: GridRules) -> list[GridWord]:
    """Every word of ``word_set`` traceable on the grid, with its best path; best first."""
    from literaki_cli import _core

    size = rules.size
    codes = np.array([alphabet.CODE_OF[ch] for ch in letters], dtype=np.int64)
    premium = np.ascontiguousarray(premiums(letters, rules).ravel())
    cells, lengths, scores = core_call(_core.grid_words, word_set.arcs, int(word_set.root), codes, size, premium,
                                       rules.letter_points, rules.min_word_length)  # fmt: skip
    cells = cells.reshape(-1, _core.GRID_MAX_PATH)
    best: dict[str, GridWord] = {}
    for i in range(lengths.shape[0]):
        path_cells = cells[i, : lengths[i]]
        word = "".join(letters[c] for c in path_cells)
        path = tuple((int(c) // size, int(c) % size) for c in path_cells)
        score = int(scores[i])
        old = best.get(word)
        if old is None or score > old.score or (score == old.score and path < old.path):
            best[word] = GridWord(word, score, path)
    return sorted(best.values(), key=lambda w: (-w.score, -len(w.word), alphabet.collation_key(w.word)))


def path_crossings(path: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """The crossing points (block top-left corners) a path passes, in order."""
    out = []
    for (r1, c1), (r2, c2) in zip(path, path[1:], strict=False):
        if r1 != r2 and c1 != c2:
            out.append((min(r1, r2), min(c1, c2)))
    return out


def path_is_legal(path: tuple[tuple[int, int], ...], size: int = 5) -> bool:
    """Adjacent steps, no cell twice, no crossing point passed twice (the line never crosses)."""
    if len(set(path)) != len(path) or any(not (0 <= r < size and 0 <= c < size) for r, c in path):
        return False
    if any(max(abs(r1 - r2), abs(c1 - c2)) != 1 for (r1, c1), (r2, c2) in zip(path, path[1:], strict=False)):
        return False
    crossings = path_crossings(path)
    return len(set(crossings)) == len(crossings)


def path_score(path, letters: list[str], rules: GridRules) -> int:
    prem = premiums(letters, rules)
    return rules.letter_points * len(path) + sum(int(prem[r, c]) for r, c in path_crossings(path))


def rack_anagrams(letters: str, word_set, max_length: int | None = None) -> dict[int, list[str]]:
    """Every word that can be made from ``letters`` ('?' = blank), grouped by length, longest
    first; in each word a letter supplied by a blank is lower case, the rest upper case.  A word
    makeable without blanks is listed once, in its blank-free spelling.  Words are as long as
    ``max_length``, by default the word set's own longest (the lexicon's variant limit)."""
    from literaki_cli import _core

    counts = rack_counts(letters)
    limit = max_length if max_length is not None else getattr(word_set, "max_length", len(letters))
    max_len = min(limit, len(letters))
    out = core_call(_core.rack_words, word_set.arcs, int(word_set.root), counts, max_len)
    best: dict[str, str] = {}
    for chunk in out.split(b"\xff")[:-1]:
        plain = "".join(alphabet.LETTER_OF[b & CODE_MASK] for b in chunk)
        shown = "".join(
            alphabet.LETTER_OF[b & CODE_MASK] if b & BLANK_FLAG else alphabet.LETTER_OF[b].upper() for b in chunk
        )
        blanks = sum(1 for b in chunk if b & BLANK_FLAG)
        old = best.get(plain)
        if old is None or blanks < sum(ch.islower() for ch in old):
            best[plain] = shown
    groups: dict[int, list[str]] = {}
    for plain in sorted(best, key=alphabet.collation_key):
        groups.setdefault(len(plain), []).append(best[plain])
    return dict(sorted(groups.items(), reverse=True))
