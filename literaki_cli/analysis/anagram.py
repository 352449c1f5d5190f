"""The questions ``anagram`` answers, as a user asks them: every word on a 5x5 letter grid (the
grid from an argument, a file or stdin; the rules with the class values given), or every word
of a rack; each answer with its JSON record.  The search itself is :mod:`literaki_cli.games.grid5`.

Each query is checked whole before the lexicon is opened, so bad input fails fast.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import numpy as np

from literaki_cli.errors import InputError
from literaki_cli.games import grid5

#: A grid is 25 letters; a file or stream larger than this is not a grid.
MAX_GRID_BYTES = 1 << 20


def grid_text(args: list[str], stdin: TextIO | None = None) -> tuple[str, str]:
    """(text, source name) of a grid given as ``['-']`` (stdin), one file, or letters in words.
    Files and stdin are decoded like every text input (UTF-8 with or without BOM, Windows-1250,
    ISO-8859-2; see :mod:`literaki_cli.engine.textdecode`)."""
    from literaki_cli.engine.textdecode import decode_text

    if args == ["-"]:
        if stdin is not None:
            return stdin.read(), "<stdin>"
        return decode_text(_bounded(sys.stdin.buffer.read(MAX_GRID_BYTES + 1), "<stdin>"), "<stdin>"), "<stdin>"
    if len(args) == 1 and Path(args[0]).is_file():
        try:
            with open(args[0], "rb") as handle:
                data = handle.read(MAX_GRID_BYTES + 1)
        except OSError as exc:
            raise InputError(f"{args[0]}: cannot read: {exc.strerror or exc}") from None
        return decode_text(_bounded(data, args[0]), args[0]), args[0]
    return " ".join(args), "grid"


def _bounded(data: bytes, source: str) -> bytes:
    if len(data) > MAX_GRID_BYTES:
        raise InputError(f"{source}: larger than {MAX_GRID_BYTES // 1024} KiB: not a letter grid")
    return data


def parse_class_values(text: str) -> tuple[int, ...]:
    """``--class-values 1,2,3,4,5``: the premium of each letter class, whole numbers."""
    try:
        return tuple(int(v) for v in text.split(","))
    except ValueError:
        raise InputError(f"--class-values {text!r}: whole numbers separated by commas") from None


@dataclass(frozen=True)
class GridAnswer:
    """The words traced on a grid (best first) and the premium at every crossing point."""

    cells: list[str]
    rules: grid5.GridRules
    premiums: np.ndarray
    words: list[grid5.GridWord]  # the words shown: the best ``top``
    count: int  # every word found that is long enough

    @property
    def rows(self) -> list[str]:
        """The grid, one upper-case string per row."""
        n = self.rules.size
        return ["".join(self.cells[r * n : (r + 1) * n]).upper() for r in range(n)]

    def as_dict(self) -> dict:
        """``anagram --json`` for a grid: {"grid", "premiums", "count", "words": [{word, score, path}]}.

        Words are upper case, like ``anagram --letters --json`` (upper = a tile, lower = a blank;
        a grid has no blanks)."""
        return {"grid": self.rows, "premiums": self.premiums.tolist(), "count": self.count,
                "words": [{**w.as_dict(), "word": w.word.upper()} for w in self.words]}  # fmt: skip


@dataclass(frozen=True)
class GridQuery:
    """A grid and the rules to search it by, both checked."""

    cells: list[str]
    rules: grid5.GridRules

    def answer(self, word_set, min_len: int = 2, top: int | None = None) -> GridAnswer:
        """The words of ``word_set`` on the grid with at least ``min_len`` letters; the best ``top`` shown."""
        found = [w for w in grid5.find_words(self.cells, word_set, self.rules) if len(w.word) >= min_len]
        shown = found if top is None else found[:top]
        return GridAnswer(self.cells, self.rules, grid5.premiums(self.cells, self.rules), shown, len(found))


def grid_query(
    args: list[str], rules_file: Path | None = None, class_values: str | None = None, stdin: TextIO | None = None
) -> GridQuery:
    """The grid of ``args`` (see :func:`grid_text`) under the rules of ``rules_file`` (default
    ``grid5.toml``), with ``class_values`` ("1,2,3,4,5") replacing the rules' own when given."""
    text, source = grid_text(args, stdin)
    rules = grid5.load_grid_rules(rules_file)  # validates every number of the file
    if class_values:
        values = parse_class_values(class_values)
        if len(values) == len(rules.class_values):  # else with_class_values says how many are needed
            values = grid5.check_class_values(list(values), f"--class-values {class_values!r}", len(values))
        rules = rules.with_class_values(values)
    return GridQuery(grid5.parse_grid(text, rules.size, source), rules)


#: No lexicon word is longer (a board side is at most 26 squares); more letters change nothing.
MAX_RACK_LETTERS = 100


def rack_letters(letters: str) -> str:
    """``--letters``: the rack as lower-case letters and '?' blanks; never empty (InputError)."""
    from literaki_cli.engine.position import normalize_rack

    rack = normalize_rack(letters, "--letters")
    if not rack:
        raise InputError("--letters is empty")
    if len(rack) > MAX_RACK_LETTERS:
        raise InputError(f"--letters: {len(rack)} letters, at most {MAX_RACK_LETTERS}")
    return rack


@dataclass(frozen=True)
class RackAnswer:
    """Every word of a rack, grouped by length, longest first (blank letters in lower case)."""

    rack: str
    groups: dict[int, list[str]]

    @property
    def count(self) -> int:
        return sum(map(len, self.groups.values()))

    def as_dict(self) -> dict:
        """``anagram --letters --json``: {"letters", "count", "groups": [{"length", "words"}]}."""
        return {"letters": self.rack.upper(), "count": self.count,
                "groups": [{"length": n, "words": w} for n, w in self.groups.items()]}  # fmt: skip


def rack_answer(rack: str, word_set, min_len: int = 2) -> RackAnswer:
    """The words of ``word_set`` that ``rack`` makes, of at least ``min_len`` letters (as long
    as the lexicon's longest word)."""
    groups = grid5.rack_anagrams(rack, word_set)
    return RackAnswer(rack, {n: words for n, words in groups.items() if n >= min_len})
