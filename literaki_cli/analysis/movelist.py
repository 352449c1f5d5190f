"""A position's moves as a list to search (the board's move list, ``POST /api/moves``): filtered
by a word pattern, a square, the main word's length, the tiles laid or bingos alone, sorted by
equity, score or leave value, the choices of letter for a blank folded into one row per
placement, and served a page at a time so that no answer is ever unbounded.

The moves are ``solve --json``'s move objects (``FoundMove.as_dict``) for every move
(``solve --top N`` with N past the count); each filter is a plain test of one object, so a script
can apply the same to ``solve --json`` itself."""

from __future__ import annotations

import re
from dataclasses import dataclass

from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError

#: The orders the list can take: each a key of a move object, best first, ties kept in the
#: solver's own order (its rank).
SORTS = {"equity": "equity", "score": "score", "leave": "leave_value"}
#: The most rows one page may hold.
MAX_LIMIT = 200
DEFAULT_LIMIT = 50


@dataclass(frozen=True)
class MoveQuery:
    """What the list shows: the filters (None: any), the order, folding, and the page."""

    pattern: str | None = None  # letters; ? any one letter, * any run of them; no wildcard: contained anywhere
    square: tuple[int, int] | None = None  # (row, col) of a square the move lays a tile on
    length: int | None = None  # the main word's letters
    tiles: int | None = None  # tiles laid
    bingos: bool = False  # only moves laying the whole rack's bingo tiles
    sort: str = "equity"
    fold: bool = True  # one row per placement: a blank's letter choices folded
    group: str | None = None  # only the rows of this folded placement (its key), unfolded
    offset: int = 0
    limit: int = DEFAULT_LIMIT

    def matcher(self):
        """The test a move object must pass."""
        pattern = _pattern_regex(self.pattern) if self.pattern else None

        def keep(move: dict) -> bool:
            word = alphabet.normalize(move["word"])
            if pattern is not None and not pattern.search(word):
                return False
            if self.length is not None and len(word) != self.length:
                return False
            if self.tiles is not None and move["tiles"] != self.tiles:
                return False
            if self.bingos and not move["bingo"]:
                return False
            if self.square is not None and all((p["row"], p["col"]) != self.square for p in move["placed"]):
                return False
            return self.group is None or placement_key(move) == self.group

        return keep


def _pattern_regex(pattern: str) -> re.Pattern:
    """A word pattern as a regular expression over the normalised word: with ? or * it matches
    the whole word (? one letter, * any run, even none), without either it is found anywhere."""
    text = alphabet.normalize(pattern.strip())
    if not text or any(not (ch.isalpha() or ch in "?*") for ch in text):
        raise InputError(f"'pattern' must be letters with ? (one letter) and * (any letters), not {pattern[:40]!r}")
    if "?" not in text and "*" not in text:
        return re.compile(re.escape(text))
    body = "".join("." if ch == "?" else ".*" if ch == "*" else re.escape(ch) for ch in text)
    return re.compile(f"^{body}$")


def placement_key(move: dict) -> str:
    """The placement a move makes, whatever letters its blanks stand for: its coordinate and its
    word with each blank as ?.  Moves alike but for their blanks' letters share it."""
    return f"{move['coord']} " + "".join("?" if ch != ch.upper() else ch for ch in move["word"])


def query_moves(moves: list[dict], query: MoveQuery, rows: list[dict] | None = None) -> dict:
    """The page of ``moves`` that ``query`` asks for: ``{"total", "offset", "limit", "rows"}``,
    ``total`` the rows (placements, when folded) that pass the filters; each row a move object
    with its placement's ``group`` key and, folded, ``variants`` (the moves folded into it, the
    row the best of them).  ``rows``: :func:`list_rows` of this query, when kept from its last
    page."""
    rows = list_rows(moves, query) if rows is None else rows
    return {"total": len(rows), "offset": query.offset, "limit": query.limit,
            "rows": rows[query.offset : query.offset + query.limit]}  # fmt: skip


def list_rows(moves: list[dict], query: MoveQuery) -> list[dict]:
    """Every row of the list ``query`` asks for (its page aside), in order."""
    if query.sort not in SORTS:
        raise InputError(f"'sort' must be {', '.join(map(repr, SORTS))}, not {query.sort[:40]!r}")
    key = SORTS[query.sort]
    keep = query.matcher()
    chosen = [m for m in moves if keep(m)]
    chosen.sort(key=lambda m: -m[key])  # stable: equal values stay in the solver's order
    rows: list[dict] = []
    if query.fold and query.group is None:
        index: dict[str, dict] = {}
        for move in chosen:
            group = placement_key(move)
            row = index.get(group)
            if row is None:
                index[group] = row = {**move, "group": group, "variants": 0}
                rows.append(row)
            row["variants"] += 1
    else:
        rows = [{**move, "group": placement_key(move), "variants": 1} for move in chosen]
    return rows


def read_query(body: dict, rows: int, columns: int) -> MoveQuery:
    """A :class:`MoveQuery` from a request's keys (each checked: InputError names the key), for a
    board of ``rows`` x ``columns`` (the square's name)."""
    from literaki_cli.engine.coords import parse_square

    def whole(name: str, low: int, high: int, default):
        value = body.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(f"'{name}' must be a whole number from {low} to {high}, not {str(value)[:40]!r}")
        return value

    def text(name: str) -> str | None:
        value = body.get(name)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            raise InputError(f"'{name}' must be text, not {str(value)[:40]!r}")
        return value

    def flag(name: str, default: bool) -> bool:
        value = body.get(name, default)
        if not isinstance(value, bool):
            raise InputError(f"'{name}' must be true or false, not {str(value)[:40]!r}")
        return value

    square = text("square")
    where = parse_square(square, rows, columns) if square else None
    query = MoveQuery(pattern=text("pattern"), square=where, length=whole("length", 1, 64, None),
                      tiles=whole("tiles", 1, 64, None), bingos=flag("bingos", False), sort=text("sort") or "equity",
                      fold=flag("fold", True), group=text("group"), offset=whole("offset", 0, 10**7, 0),
                      limit=whole("limit", 1, MAX_LIMIT, DEFAULT_LIMIT))  # fmt: skip
    if query.pattern:
        _pattern_regex(query.pattern)
    return query


#: The keys of ``POST /api/moves`` besides a ``solve --batch`` line's position keys.
QUERY_KEYS = ("pattern", "square", "length", "tiles", "bingos", "sort", "fold", "group", "offset", "limit")

__all__ = ["MAX_LIMIT", "QUERY_KEYS", "SORTS", "MoveQuery", "list_rows", "placement_key", "query_moves", "read_query"]
