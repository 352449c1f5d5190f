"""Reading and writing positions: board text, CGP and JSON, detected on input.

* Board text: one line per row, one character per square (``.`` empty, upper case tile,
  lower case blank).  Row numbers, a column header, spaces and ``|`` are tolerated.
* CGP: ``<board> <racks> <scores> <zero-turns> [opcode operands; ...]`` on one line.
* JSON: ``{"variant", "board": [rows], "racks", "scores", "zero_turns", "opcodes"}``.

Errors name the file, line and column, or the offending value.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.board import EMPTY_CELL, Board
from literaki_cli.engine.coords import COLUMN_LETTERS
from literaki_cli.engine.position import Position, normalize_rack
from literaki_cli.engine.variant import Variant, load_variant
from literaki_cli.errors import InputError, said
from literaki_cli.inputs import dumps_json, shown

FORMATS = ("text", "cgp", "json")
_EMPTY_CELLS = frozenset(".-_·")
#: Scores and counts in a position are whole numbers below this (a game never comes near it;
#: bigger ones are typing errors or attacks, and would overflow the 32-bit tables).
MAX_NUMBER = 10**9
#: A CGP run of empty squares or a row number has at most this many digits.
_MAX_RUN_DIGITS = 3


def detect_format(text: str) -> str:
    """'json', 'cgp' or 'text', from the content."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return "json"
    first = stripped.split("\n", 1)[0].split()
    if first and first[0].count("/") >= 4:
        return "cgp"
    return "text"


def _parse_cell(ch: str, where: str) -> tuple[str, bool] | None:
    """(letter, blank) of one board character, None for an empty square."""
    if ch in _EMPTY_CELLS:
        return None
    lower = ch.lower()
    if alphabet.is_polish_letter(lower):
        return lower, ch == lower
    if ch.isalpha():
        raise InputError(said("{where}: {char!r} is not a letter of the Polish alphabet", where=where, char=ch))
    raise InputError(said("{where}: unexpected character {char!r} (a letter, or '.' for an empty square)",
                          where=where, char=ch))  # fmt: skip


#: What :func:`_parse_cell` makes of the usual characters of a board text (read without naming
#: the square, which only an error needs).
_TEXT_CELLS: dict[str, tuple[str, bool] | None] = dict.fromkeys(_EMPTY_CELLS)
_TEXT_CELLS |= {ch: (ch, True) for ch in alphabet.POLISH_LETTERS}
_TEXT_CELLS |= {ch.upper(): (ch, False) for ch in alphabet.POLISH_LETTERS}
_NOT_READ = object()


def _is_column_header(line: str, columns: int) -> bool:
    return line.replace(" ", "").replace("|", "").lower() == COLUMN_LETTERS[:columns]


def _strip_row_numbers(line: str) -> str:
    """The line without a leading and a trailing row number (blanked, so columns still count)."""
    body = re.sub(r"^\s*[0-9]{1,2}(?=[\s|:.]|$)", lambda m: " " * len(m.group()), line.rstrip())
    return re.sub(r"(?<=[\s|])[0-9]{1,2}\s*$", "", body)


def read_board_text(text: str, variant: Variant, source: str) -> Board:
    """A board from text rows; tolerant of row numbers, a column header, spaces and '|'."""
    rows, columns = variant.board.rows, variant.board.columns
    board = Board.empty(rows, columns)
    row = 0
    for line_no, line in enumerate(text.splitlines(), 1):
        if not line.strip() or _is_column_header(line, columns):
            continue
        if row >= rows:
            raise InputError(said("{source}:{line}: more than {rows} board rows",
                                  source=source, line=line_no, rows=rows))  # fmt: skip
        body = _strip_row_numbers(line)
        col = 0
        for pos, ch in enumerate(body, 1):
            if ch in " \t|":
                continue
            cell = _TEXT_CELLS.get(ch, _NOT_READ)
            if cell is _NOT_READ or col >= columns:
                where = said("{source}:{line}:{column}", source=source, line=line_no, column=pos)
                if col >= columns:
                    raise InputError(said("{where}: row {row} has more than {columns} squares",
                                          where=where, row=row + 1, columns=columns))  # fmt: skip
                cell = _parse_cell(ch, where)
            if cell:
                board.set_cell(row, col, *cell)
            col += 1
        if col != columns:
            raise InputError(said("{source}:{line}: row {row} has {count} squares, the board has {columns}",
                                  source=source, line=line_no, row=row + 1, count=col, columns=columns))  # fmt: skip
        row += 1
    if row != rows:
        raise InputError(said("{source}: {count} board rows, the board has {rows}",
                              source=source, count=row, rows=rows))  # fmt: skip
    return board


def write_board_text(board: Board, coordinates: bool = False) -> str:
    """Board text; with ``coordinates`` a column header and row numbers (still readable back)."""
    rows = board.to_rows()
    if not coordinates:
        return "\n".join(rows) + "\n"
    header = "    " + " ".join(COLUMN_LETTERS[: board.columns])
    lines = [header] + [f"{r + 1:>2}  " + " ".join(row) for r, row in enumerate(rows)]
    return "\n".join(lines) + "\n"


def _read_cgp_board(field: str, variant: Variant, source: str) -> Board:
    rows, columns = variant.board.rows, variant.board.columns
    board = _plain_cgp_board(field, rows, columns)
    if board is not None:
        return board
    parts = field.split("/")
    if len(parts) != rows:
        raise InputError(said("{source}: CGP board has {count} rows, the board has {rows}",
                              source=source, count=len(parts), rows=rows))  # fmt: skip
    letters = [[0] * columns for _ in range(rows)]  # lists, made into the board's arrays at the end
    blanks = [[False] * columns for _ in range(rows)]
    for r, part in enumerate(parts):
        col = 0
        for m in _CGP_TOKEN.finditer(part):
            token = m.group()
            known = _CGP_CELLS.get(token)  # the common tokens, read without building an error's text
            if known is not None and col + known[0] <= columns:
                if known[1]:
                    letters[r][col], blanks[r][col] = known[1], known[2]
                col += known[0]
                continue
            where = said("{source}: CGP row {row}, character {column}", source=source, row=r + 1, column=m.start() + 1)
            if token[0] in "0123456789":
                col += _cgp_run(token, where)
                continue
            if col >= columns:
                raise InputError(said("{where}: the row {part!r} has more than {columns} squares",
                                      where=where, part=part, columns=columns))  # fmt: skip
            cell = _parse_cell(token, where)
            if cell is None:
                raise InputError(said("{where}: unexpected {token!r} (CGP writes empty squares as numbers)",
                                      where=where, token=token))  # fmt: skip
            letters[r][col] = alphabet.CODE_OF[cell[0]]
            blanks[r][col] = cell[1]
            col += 1
        if col != columns:
            raise InputError(said("{source}: CGP row {row} {part!r} covers {count} squares, the board has {columns}",
                                  source=source, row=r + 1, part=part, count=col, columns=columns))  # fmt: skip
    return Board(np.array(letters, dtype=np.uint8), np.array(blanks, dtype=np.bool_))


_CGP_TOKEN = re.compile(r"[0-9]+|.")
#: A CGP token that is certainly fine: (squares it covers, letter code or 0, blank).
_CGP_CELLS: dict[str, tuple[int, int, bool]] = {str(n): (n, 0, False) for n in range(1, 27)}
_CGP_CELLS |= {ch.upper(): (1, alphabet.CODE_OF[ch], False) for ch in alphabet.POLISH_LETTERS}
_CGP_CELLS |= {ch: (1, alphabet.CODE_OF[ch], True) for ch in alphabet.POLISH_LETTERS}


#: A character a plainly written CGP board holds: a digit, a row's end, a tile or a blank.
_NOT_PLAIN_CGP = re.compile(f"[^0-9/{alphabet.POLISH_LETTERS}{alphabet.POLISH_LETTERS.upper()}]")
_CGP_DIGITS = re.compile(r"([0-9]+)")  # split: the runs kept between the tiles
#: Each square of an expanded CGP board by its character's code point: 0 empty ('.'), else the
#: letter code of a tile (+ 64: a blank).
_CGP_SQUARE_CODES = np.zeros(max(map(ord, alphabet.POLISH_LETTERS + alphabet.POLISH_LETTERS.upper())) + 1, np.uint8)
for _ch in alphabet.POLISH_LETTERS:
    _CGP_SQUARE_CODES[ord(_ch.upper())] = alphabet.CODE_OF[_ch]
    _CGP_SQUARE_CODES[ord(_ch)] = alphabet.CODE_OF[_ch] | 64


#: A run of empty squares as that many dots, for the common runs (1 to 26 squares).
_EMPTY_RUNS = {token: "." * squares for token, (squares, code, _) in _CGP_CELLS.items() if not code}


def _plain_cgp_board(field: str, rows: int, columns: int) -> Board | None:
    """The board of a CGP board field written plainly (runs of 1 to 26 empty squares, tiles
    and blanks, each row as wide as the board): what :func:`_read_cgp_board` reads from it,
    read a whole board at a time.  None for anything else (read square by square, mistakes
    named)."""
    if _NOT_PLAIN_CGP.search(field):
        return None
    parts = _CGP_DIGITS.split(field)  # tiles and row ends, then a run of empty squares, then ...
    runs = [_EMPTY_RUNS.get(run) for run in parts[1::2]]
    if None in runs:  # a run of 0, leading zeros, more than 26
        return None
    parts[1::2] = runs
    squares = "".join(parts).split("/")
    if len(squares) != rows or any(len(row) != columns for row in squares):
        return None
    code_points = np.frombuffer("".join(squares).encode("utf-32-le"), dtype=np.uint32)
    codes = _CGP_SQUARE_CODES[code_points].reshape(rows, columns)
    return Board(codes & 63, codes >= 64)


def _cgp_run(token: str, where: str) -> int:
    """The length of a run of empty squares (ASCII digits, a few of them)."""
    if len(token) > _MAX_RUN_DIGITS or token == "0" * len(token):
        raise InputError(said("{where}: {token!r} is not a run of empty squares (1..{most})",
                              where=where, token=token, most=10**_MAX_RUN_DIGITS - 1))  # fmt: skip
    return int(token)


def _whole_number(text: str, what: str, signed: bool = False) -> int:
    """A whole number written in ASCII digits, below :data:`MAX_NUMBER` (InputError naming ``what``)."""
    if not re.fullmatch(r"-?[0-9]{1,10}" if signed else r"[0-9]{1,10}", text) or abs(int(text)) >= MAX_NUMBER:
        if signed:
            raise InputError(said("{what} {value!r} is not a whole number below {high:,}",
                                  what=what, value=text[:40], high=MAX_NUMBER))  # fmt: skip
        raise InputError(said("{what} {value!r} is not a non-negative whole number below {high:,}",
                              what=what, value=text[:40], high=MAX_NUMBER))  # fmt: skip
    return int(text)


def _write_cgp_board(board: Board) -> str:
    parts = []
    for row in board.to_rows():
        parts.append(re.sub(r"\.+", lambda m: str(len(m.group())), row))
    return "/".join(parts)


def _parse_opcodes(text: str) -> dict[str, str]:
    opcodes = {}
    for chunk in text.split(";"):
        chunk = chunk.strip()
        if not chunk:
            continue
        name, _, operand = chunk.partition(" ")
        opcodes[name] = operand.strip()
    return opcodes


def read_cgp(text: str, variant: Variant | None, source: str) -> Position:
    """A position from one CGP line.  The variant comes from ``variant``, else the ``var`` /
    ``bdn`` opcode, else the board width."""
    line = text.strip()
    if "\n" in line:
        raise InputError(said("{source}: CGP must be one line", source=source))
    fields = line.split(None, 4)
    if not fields:
        raise InputError(said("{source}: empty CGP", source=source))
    board_field = fields[0]
    rest = fields[1:]
    racks_field = rest[0] if len(rest) > 0 else ""
    scores_field = rest[1] if len(rest) > 1 else ""
    zero_field = rest[2] if len(rest) > 2 else "0"
    opcodes = _parse_opcodes(rest[3]) if len(rest) > 3 else {}
    if variant is None:
        variant = _variant_for_cgp(board_field, opcodes, source)
    board = _read_cgp_board(board_field, variant, source)
    rack_what = said("{source}: CGP rack", source=source)
    racks = [normalize_rack(r, rack_what) for r in racks_field.split("/")] if racks_field else []
    racks = racks if any(racks) else []
    score_texts = scores_field.split("/") if scores_field else []
    score_what = said("{source}: CGP score", source=source)
    scores = [_whole_number(s, score_what, signed=True) for s in score_texts]
    zero_turns = _whole_number(zero_field, said("{source}: CGP zero-turn count", source=source))
    return Position(variant, board, racks, scores, zero_turns, opcodes)


def _variant_for_cgp(board_field: str, opcodes: dict[str, str], source: str) -> Variant:
    from literaki_cli.engine.variant import builtin_variants

    for key in ("var", "bdn"):
        name = opcodes.get(key, "").lower()
        if name in builtin_variants():
            return load_variant(name)
    if opcodes.get("var"):  # a variant named and not known is never read as another (bdn: other tools' board names)
        raise InputError(said("{source}: unknown variant {name} in the CGP's var opcode; choose one of: {choices} "
                              "(or give its rules file with --rules)", source=source, name=shown(opcodes["var"], 40),
                              choices=", ".join(builtin_variants())))  # fmt: skip
    first_row = board_field.split("/")[0]
    where = said("{source}: CGP row {row}", source=source, row=1)
    width = sum(_cgp_run(t, where) if t[0] in "0123456789" else 1
                for t in re.findall(r"[0-9]+|.", first_row))  # fmt: skip
    return _variant_with_width(width)


def _variant_with_width(width: int) -> Variant:
    """The built-in variant whose board is ``width`` columns wide (literaki when none is)."""
    from literaki_cli.engine.variant import builtin_variants

    default = load_variant()
    if width != default.board.columns:
        for name in builtin_variants():
            candidate = load_variant(name)
            if candidate.board.columns == width:
                return candidate
    return default


def _variant_for_text(text: str) -> Variant:
    """The variant of a board text, from the number of squares in its first row."""
    for line in text.splitlines():
        compact = line.replace(" ", "").replace("|", "").lower()
        if not compact or compact == COLUMN_LETTERS[: len(compact)]:
            continue
        return _variant_with_width(len(re.sub(r"[\s|]", "", _strip_row_numbers(line))))
    return load_variant()


def write_cgp(position: Position) -> str:
    racks = "/".join(r.upper() for r in position.racks) if position.racks else "/"
    scores = "/".join(str(s) for s in position.scores) if position.scores else "0/0"
    opcodes = dict(position.opcodes)
    opcodes.setdefault("var", position.variant.name)
    ops = " ".join(f"{k} {v};" for k, v in opcodes.items())
    return f"{_write_cgp_board(position.board)} {racks} {scores} {position.zero_turns} {ops}".rstrip()


def read_json(text: str, variant: Variant | None, source: str) -> Position:
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise InputError(said("{source}:{line}:{column}: not valid JSON: {error}",
                              source=source, line=exc.lineno, column=exc.colno, error=exc.msg)) from None  # fmt: skip
    except RecursionError:
        raise InputError(said("{source}: JSON nested too deeply for a position", source=source)) from None
    except ValueError as exc:  # an integer of thousands of digits; NaN / Infinity
        raise InputError(said("{source}: not a valid JSON position: {error}",
                              source=source, error=str(exc)[:120])) from None  # fmt: skip
    if not isinstance(data, dict) or not isinstance(data.get("board"), list):
        raise InputError(said("{source}: JSON position needs an object with a 'board' list of row strings",
                              source=source))  # fmt: skip
    if variant is None:
        name = data.get("variant", "literaki")
        if not isinstance(name, str):
            room = 200 - len(f"{source}: JSON 'variant' must be a variant name, not ")  # 200 characters at most
            raise InputError(said("{source}: JSON 'variant' must be a variant name, not {value}",
                                  source=source, value=repr(name)[: max(room, 0)]))  # fmt: skip
        variant = load_variant(name)
    rows = data["board"]
    if not all(isinstance(r, str) for r in rows):
        raise InputError(said("{source}: JSON 'board' must be a list of strings", source=source))
    board = read_board_text("\n".join(rows), variant, said("{source} (JSON board)", source=source))
    racks = data.get("racks", [])
    scores = data.get("scores", [])
    if not isinstance(racks, list) or not all(isinstance(r, str) for r in racks):
        raise InputError(said("{source}: JSON 'racks' must be a list of strings", source=source))
    if not isinstance(scores, list) or not all(_is_int(s) and abs(s) < MAX_NUMBER for s in scores):
        raise InputError(said("{source}: JSON 'scores' must be a list of integers below {high:,}",
                              source=source, high=MAX_NUMBER))  # fmt: skip
    zero_turns = data.get("zero_turns", 0)
    if not _is_int(zero_turns) or not 0 <= zero_turns < MAX_NUMBER:
        raise InputError(said("{source}: JSON 'zero_turns' must be a non-negative integer below {high:,}",
                              source=source, high=MAX_NUMBER))  # fmt: skip
    opcodes = data.get("opcodes", {})
    if not isinstance(opcodes, dict):
        raise InputError(said("{source}: JSON 'opcodes' must be an object", source=source))
    rack_what = said("{source}: JSON rack", source=source)
    racks = [normalize_rack(r, rack_what) for r in racks]
    return Position(variant, board, racks if any(racks) else [], scores, zero_turns,
                    {str(k): str(v) for k, v in opcodes.items()})  # fmt: skip


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number a position can hold")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def position_to_json(position: Position) -> dict:
    return {
        "variant": position.variant.name,
        "board": position.board.to_rows(),
        "racks": [r.upper() for r in position.racks],
        "scores": list(position.scores),
        "zero_turns": position.zero_turns,
        "opcodes": dict(position.opcodes),
    }


def read_position(text: str, source: str, variant: Variant | None = None, fmt: str | None = None) -> Position:
    """Parse a position in ``fmt`` (or the detected format)."""
    text = unicodedata.normalize("NFC", text.lstrip("\ufeff"))
    fmt = fmt or detect_format(text)
    if fmt == "json":
        return read_json(text, variant, source)
    if fmt == "cgp":
        return read_cgp(text, variant, source)
    if fmt == "text":
        variant = variant or _variant_for_text(text)
        return Position(variant, read_board_text(text, variant, source))
    raise InputError(said("unknown position format {value!r}; choose one of: {choices}",
                          value=fmt, choices=", ".join(FORMATS)))  # fmt: skip


#: A position file is small; reading stops here so a device or a huge file cannot exhaust memory.
MAX_POSITION_BYTES = 1 << 20


def _decode(data: bytes, source: str) -> str:
    """The text of a position file or stdin, decoded like every text input (UTF-8 with or
    without a BOM, or Windows-1250 / ISO-8859-2); InputError naming the line otherwise."""
    from literaki_cli.engine.textdecode import decode_text

    return decode_text(data, source)


def _existing_path(arg: str) -> Path | None:
    """``arg`` as a path that exists (a file, a pipe such as /dev/fd/N, a directory), else None."""
    if "\0" in arg:
        return None
    try:
        path = Path(arg)
        return path if path.exists() else None
    except OSError as exc:  # a name too long, a loop of links, ...
        if re.fullmatch(r"[\w/?]+", arg.split(" ", 1)[0]) and detect_format(arg) == "cgp":
            return None  # a long CGP string given directly
        raise InputError(said("{source}: cannot open: {error}", source=arg[:80] + ("..." if len(arg) > 80 else ""),
                              error=exc.strerror)) from None  # fmt: skip


def load_position_bytes(arg: str, limit: int = MAX_POSITION_BYTES) -> tuple[bytes, str] | None:
    """(the bytes, their name in messages) of a position source: a file path (a pipe such as
    ``<(cat board.txt)`` or a FIFO too, read within a few seconds: :func:`~literaki_cli.inputs.read_input_bytes`)
    or '-' (stdin), at most ``limit`` bytes; None for a CGP string given directly; InputError
    for anything else (``no position on standard input`` for an empty one)."""
    from literaki_cli.inputs import read_input_bytes, read_stdin_bytes

    if arg == "-":
        data = read_stdin_bytes("position", limit)
        if not data.strip():
            raise InputError(said("no position on standard input"))
        return data, "<stdin>"
    path = _existing_path(arg)
    if path is not None:
        return read_input_bytes(arg, "position file", limit, pipes=True), arg
    if re.fullmatch(r"[\w/?]+", arg.split(" ", 1)[0]) and detect_format(arg) == "cgp":
        return None
    raise InputError(said("{source}: no such position file (give a board text, CGP or JSON file, a game record, '-', "
                          "or a CGP string)", source=arg[:80] + ("..." if len(arg) > 80 else "")))  # fmt: skip


def load_position(arg: str, variant: Variant | None = None, fmt: str | None = None) -> Position:
    """A position from a file path (a pipe such as ``<(cat board.txt)`` too), '-' (stdin), or a
    CGP string given directly."""
    loaded = load_position_bytes(arg)
    if loaded is None:
        return read_position(arg, said("CGP argument"), variant, fmt or "cgp")
    data, source = loaded
    return read_position(_decode(data, source), source, variant, fmt)


def write_position(position: Position, fmt: str) -> str:
    if fmt == "json":
        return dumps_json(position_to_json(position), ensure_ascii=False, indent=2) + "\n"
    if fmt == "cgp":
        return write_cgp(position) + "\n"
    if fmt == "text":
        return write_board_text(position.board)
    raise InputError(said("unknown position format {value!r}; choose one of: {choices}",
                          value=fmt, choices=", ".join(FORMATS)))  # fmt: skip


__all__ = ["EMPTY_CELL", "FORMATS", "detect_format", "load_position", "read_position", "write_position"]
