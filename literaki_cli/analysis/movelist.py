"""A position's moves as a list to search (the board's move list, ``POST /api/moves``): filtered
by a word pattern, a square, the main word's length, the tiles laid or bingos alone, sorted by
equity, score or leave value, the choices of letter for a blank folded into one row per
placement, and served a page at a time so that no answer is ever unbounded.

A :class:`MoveList` holds every move ``solve`` lists (its :class:`RankedMoves`: the generator's
records, some 150 bytes a move) and makes ``solve --json``'s move objects only for the page
asked; each filter is a plain test of what a move object says, so a script can apply the same to
``solve --json`` itself."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError, said

#: The orders the list can take (a move object's equity, score, leave_value), best first, ties
#: kept in the solver's own order (its rank).
SORTS = ("equity", "score", "leave")
#: The most rows one page may hold.
MAX_LIMIT = 200
DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class MoveQuery:
    """What the list shows: the filters (None: any), the order, folding, and the page."""

    pattern: str | None = None  # letters; ? any one letter, * any run of them; no wildcard: contained anywhere
    square: str | None = None  # a square the move lays a tile on (h8), checked against the board
    length: int | None = None  # the main word's letters
    tiles: int | None = None  # tiles laid
    bingos: bool = False  # only moves laying the whole rack's bingo tiles
    sort: str = "equity"
    fold: bool = True  # one row per placement: a blank's letter choices folded
    group: str | None = None  # only the rows of this folded placement (its key), unfolded
    offset: int = 0
    limit: int = DEFAULT_LIMIT

    def __post_init__(self) -> None:
        if self.sort not in SORTS:
            raise InputError(said("'{key}' must be {choices}, not {value!r}", key="sort",
                                  choices=", ".join(map(repr, SORTS)), value=self.sort[:40]))  # fmt: skip
        if self.pattern:
            _pattern_regex(self.pattern)  # refused here, before any move is listed


def _pattern_regex(pattern: str) -> re.Pattern:
    """A word pattern as a regular expression over the normalised word: with ? or * it matches
    the whole word (? one letter, * any run, even none), without either it is found anywhere."""
    text = alphabet.normalize(pattern.strip())
    if not text or any(not (ch.isalpha() or ch in "?*") for ch in text):
        raise InputError(said("'pattern' must be letters with ? (one letter) and * (any letters), not {value!r}",
                              value=pattern[:40]))  # fmt: skip
    if "?" not in text and "*" not in text:
        return re.compile(re.escape(text))
    body = "".join("." if ch == "?" else ".*" if ch == "*" else re.escape(ch) for ch in text)
    return re.compile(f"^{body}$")


def placement_key(move: dict) -> str:
    """The placement a move makes, whatever letters its blanks stand for: its coordinate and its
    word with each blank as ?.  Moves alike but for their blanks' letters share it."""
    return f"{move['coord']} {_blanks_as_unknown(move['word'])}"


class MoveList:
    """Every move of a position's solve (``ranked``: :meth:`PositionSolver.rank` with no top), to
    page through as :class:`MoveQuery` asks."""

    def __init__(self, ranked) -> None:
        from literaki_cli.engine.movegen import BLANK_FLAG, CELLS, CODE_MASK, SCORE

        self.ranked = ranked
        self.records = ranked.records[ranked.order]  # best first
        self.score = self.records[:, SCORE]
        # the leave value as a move object holds it (rounded to 0.001, as the sort of the objects sees it)
        self.leave = np.array([round(float(v), 3) for v in ranked.leave_values[ranked.order]], dtype=np.float64)
        # a placement: the record but for its score and what its blanks stand for
        same = self.records.copy()
        same[:, SCORE] = 0
        cells = same[:, CELLS:]
        cells[(cells & BLANK_FLAG) != 0] &= ~CODE_MASK
        rows = np.ascontiguousarray(same).view(np.dtype((np.void, same.dtype.itemsize * same.shape[1]))).ravel()
        self.placement = np.unique(rows, return_inverse=True)[1].ravel()
        self._words: list[str] | None = None

    def __len__(self) -> int:
        return int(self.records.shape[0])

    def words(self) -> list[str]:
        """Each move's main word as its object writes it (tiles upper case, blanks lower case)."""
        if self._words is None:
            from literaki_cli.analysis.solve import _CELLS
            from literaki_cli.engine.movegen import CELLS, LENGTH

            self._words = ["".join(_CELLS[cell][0] for cell in rec[CELLS : CELLS + rec[LENGTH]])
                           for rec in self.records.tolist()]  # fmt: skip
        return self._words

    def rows(self, query: MoveQuery) -> tuple[np.ndarray, np.ndarray]:
        """The places (0: the best move) of the rows ``query`` lists, in order, and how many moves
        each row stands for (1 each unless folded)."""
        from literaki_cli.analysis.solve import Filters, filter_mask
        from literaki_cli.engine.movegen import LENGTH, TILES, MoveArrays

        rec = self.records
        keep = np.ones(len(self), dtype=bool)
        if query.square or query.bingos:
            keep &= filter_mask(MoveArrays(rec), Filters(at=query.square, only_bingos=query.bingos),
                                self.ranked.variant)  # fmt: skip
        if query.length is not None:
            keep &= rec[:, LENGTH] == query.length
        if query.tiles is not None:
            keep &= rec[:, TILES] == query.tiles
        if query.pattern or query.group:
            words = self.words()
            pattern = _pattern_regex(query.pattern) if query.pattern else None
            coords = self._coords() if query.group else None
            for p in np.flatnonzero(keep).tolist():
                if pattern is not None and not pattern.search(alphabet.normalize(words[p])):
                    keep[p] = False
                elif query.group is not None and f"{coords[p]} {_blanks_as_unknown(words[p])}" != query.group:
                    keep[p] = False
        places = np.flatnonzero(keep)
        if query.sort != "equity":  # the list's own order is by equity
            values = self.score[places] if query.sort == "score" else self.leave[places]
            places = places[np.argsort(-values, kind="stable")]
        if not query.fold or query.group is not None:
            return places, np.ones(len(places), dtype=np.int64)
        groups = self.placement[places]
        _, first, counts = np.unique(groups, return_index=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        return places[first[order]], counts[order]

    def _coords(self) -> list[str]:
        from literaki_cli.engine.coords import position_name
        from literaki_cli.engine.movegen import COL, DIR, ROW

        return [position_name(r, c, d) for r, c, d in self.records[:, [ROW, COL, DIR]].tolist()]

    def page(self, query: MoveQuery, rows: tuple[np.ndarray, np.ndarray] | None = None) -> dict:
        """``{"total", "offset", "limit", "rows"}``: ``total`` the rows (placements, when folded)
        that pass the filters; each row of the page a move object with its placement's ``group``
        key and ``variants`` (the moves folded into it, the row the best of them).  ``rows``:
        :meth:`rows` of this query, when kept from its last page."""
        places, counts = self.rows(query) if rows is None else rows
        shown = slice(query.offset, query.offset + query.limit)
        found = self.ranked.found(places[shown].tolist())
        page = [{**m.as_dict(), "variants": int(n)} for m, n in zip(found, counts[shown].tolist(), strict=True)]
        for move in page:
            move["group"] = placement_key(move)
        return {"total": int(len(places)), "offset": query.offset, "limit": query.limit, "rows": page}


def _blanks_as_unknown(word: str) -> str:
    return "".join("?" if ch != ch.upper() else ch for ch in word)


def plain_first_page(query: MoveQuery, rack: str) -> bool:
    """Whether ``query`` asks for what ``solve --top N`` lists as it is: no filter, the solver's
    own order (equity), and a rack without a blank (no letters to fold).  Then the page is the
    top of the solver's list, with no need of every move."""
    plain = MoveQuery(sort=query.sort, fold=query.fold, offset=query.offset, limit=query.limit)
    return query == plain and query.sort == "equity" and "?" not in rack


def read_query(body: dict, rows: int, columns: int) -> MoveQuery:
    """A :class:`MoveQuery` from a request's keys (each checked: InputError names the key), for a
    board of ``rows`` x ``columns`` (the square's name)."""
    from literaki_cli.engine.coords import parse_square

    def whole(name: str, low: int, high: int, default):
        value = body.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(said("'{key}' must be a whole number from {low} to {high}, not {value!r}", key=name,
                                  low=low, high=high, value=str(value)[:40]))  # fmt: skip
        return value

    def text(name: str) -> str | None:
        value = body.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise InputError(said("'{key}' must be text, not {value!r}", key=name, value=str(value)[:40]))
        return value

    def flag(name: str, default: bool) -> bool:
        value = body.get(name, default)
        if not isinstance(value, bool):
            raise InputError(said("'{key}' must be true or false, not {value!r}", key=name, value=str(value)[:40]))
        return value

    square = text("square")
    if square:
        parse_square(square, rows, columns)
    return MoveQuery(pattern=text("pattern"), square=square, length=whole("length", 1, 64, None),
                     tiles=whole("tiles", 1, 64, None), bingos=flag("bingos", False), sort=text("sort") or "equity",
                     fold=flag("fold", True), group=text("group"), offset=whole("offset", 0, 10**7, 0),
                     limit=whole("limit", 1, MAX_LIMIT, DEFAULT_LIMIT))  # fmt: skip


#: The keys of ``POST /api/moves`` besides a ``solve --batch`` line's position keys.
QUERY_KEYS = ("pattern", "square", "length", "tiles", "bingos", "sort", "fold", "group", "offset", "limit")

__all__ = ["MAX_LIMIT", "QUERY_KEYS", "SORTS", "MoveList", "MoveQuery", "placement_key", "plain_first_page",
           "read_query"]
