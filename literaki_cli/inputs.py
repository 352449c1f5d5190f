"""The one way literaki reads what a user hands it: input files, JSON, TOML and numbers.

Every reader here turns hostile input into one :class:`InputError` line naming the file (and
the line or value where there is one), never a traceback, a hang or a machine out of memory:

* :func:`read_input_bytes` opens a regular file only, without blocking (a FIFO with no writer
  would hang a plain ``open``, ``/dev/zero`` never ends), and caps the size read; for what a
  user naturally pipes (a position, a game record: ``<(cat game.gcg)``, a FIFO) it reads a pipe
  too, within :data:`PIPE_SECONDS` and the same cap, and :func:`read_stdin_bytes` reads ``-``;
* :func:`loads_json` is strict JSON: no ``NaN`` or ``Infinity``, no number that overflows to
  infinity (``1e400``), no integer of hundreds of digits, no nesting deeper than a data file
  ever needs;
* :func:`loads_toml` is TOML with the same bounds on nesting;
* :func:`whole_number` and :func:`finite_number` check a value read from any of them;
* :func:`dumps_json` is the strict writer: every JSON literaki prints parses with a strict
  parser, or the bug is caught here instead of shipped as ``NaN``.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

from literaki_cli.errors import InputError, LiterakiError, Said, message_of, said

#: ``--turn`` (and a batch line's ``turn``) for the position after the last event of a game record.
LAST = "last"

#: Bytes a data file (levels, rules, a win model, a run's settings, a game record) may have.
MAX_DATA_BYTES = 16 << 20
#: Nesting of arrays and objects a data file may have (the deepest literaki writes is 4).
MAX_NESTING = 64
#: Digits an integer of a data file may have (a seed of 2**64 has 20).
MAX_INT_DIGITS = 40
#: Seconds a pipe given as a file name (``<(cat game.gcg)``, a FIFO) has to deliver its whole
#: input and close: a FIFO nobody writes to, or one never closed, is an error then, not a hang.
PIPE_SECONDS = 5.0

#: What an input is called in messages when its caller names no role.
FILE = said("file")

_BRACKETS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_TOML_BRACKETS = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]',
                            re.DOTALL)  # fmt: skip


def shown(value: object, limit: int = 40, quote: bool = True) -> str:
    """``value`` as an error message quotes it, on one line and shortened when long: its repr
    (``quote=False``: a string as it is, its control characters escaped)."""
    text = repr(value) if quote or not isinstance(value, str) else value
    cut = text if len(text) <= limit else text[: limit - 12]
    cut = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in cut)
    cut = cut.encode("utf-8", "backslashreplace").decode("utf-8")  # lone surrogates
    length = len(value) if isinstance(value, str) else len(text)
    return cut if len(text) <= limit else f"{cut}...({length:,} characters)"


def alternatives(choices: list[str] | tuple[str, ...]) -> str:
    """``choices`` as a message offers them: ``a``, ``a or b``, ``a, b or c`` (said, so the page
    says "or" in its own words)."""
    if len(choices) < 2:
        return "".join(choices)
    return said("{some} or {last}", some=", ".join(choices[:-1]), last=choices[-1])


# --------------------------------------------------------------------------- files


def open_input(path: Path | str, what: str = FILE, error: type[LiterakiError] = InputError,
               pipes: bool = False) -> int:  # fmt: skip
    """A read-only descriptor of the regular file ``path``; InputError for anything else.

    Opened without blocking, so a FIFO (with or without a writer) or a device is refused at
    once instead of hanging or streaming for ever.  ``what`` names the file's role in errors,
    ``error`` their class (InputError, or LexiconError for a lexicon).  With ``pipes`` a pipe
    is taken too, its descriptor left non-blocking (read it with :func:`read_input_bytes`).
    """
    name = os.fspath(path)
    if "\0" in name:
        raise error(said("{source}: a file name cannot hold a NUL byte", source=shown(name)))
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise error(said("{source}: no such file", source=name)) from None
    except IsADirectoryError:
        raise error(said("{source}: is a directory, not a {what}", source=name, what=what)) from None
    except OSError as exc:
        raise error(said("{source}: cannot open: {error}", source=name, error=exc.strerror or str(exc))) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(said("{source}: is a directory, not a {what}", source=name, what=what))
        if pipes and stat.S_ISFIFO(mode):
            return fd
        if not stat.S_ISREG(mode):
            give = said("a regular file, a pipe or '-'") if pipes else said("a regular file")
            raise error(said("{source}: {kind}, not a {what} (give {give})", source=name, kind=_kind_of(mode),
                             what=what, give=give))  # fmt: skip
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _kind_of(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return said("a pipe")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return said("a device")
    return said("not a regular file")


def read_input_bytes(path: Path | str, what: str = FILE, limit: int = MAX_DATA_BYTES, pipes: bool = False) -> bytes:
    """The bytes of the regular file ``path``, refused when over ``limit`` bytes.

    With ``pipes``, a pipe too (``<(cat game.gcg)``, a FIFO): read until its writer closes
    it, within :data:`PIPE_SECONDS` (a FIFO nobody writes to, or one never closed, is an
    InputError ``NAME: cannot read: ...`` then) and ``limit`` bytes.
    """
    fd = open_input(path, what, pipes=pipes)
    info = os.fstat(fd)
    if stat.S_ISFIFO(info.st_mode):
        try:
            return _read_pipe(fd, os.fspath(path), what, limit)
        finally:
            os.close(fd)
    if info.st_size > limit:  # refused unread (a file may still grow: the read is capped too)
        os.close(fd)
        raise _too_large(os.fspath(path), limit, what)
    try:
        with os.fdopen(fd, "rb", closefd=True) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        raise _cannot_read(os.fspath(path), exc) from None
    if len(data) > limit:
        raise _too_large(os.fspath(path), limit, what)
    return data


def _read_pipe(fd: int, name: str, what: str, limit: int) -> bytes:
    """What the non-blocking pipe ``fd`` holds until its writer closes it: at most ``limit``
    bytes, within :data:`PIPE_SECONDS` (waiting only in ``poll``, never in ``open`` or ``read``)."""
    import select
    import time

    seconds = PIPE_SECONDS
    deadline = time.monotonic() + seconds
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN)

        def ready(timeout: float) -> bool:
            return bool(poller.poll(max(0, math.ceil(timeout * 1000))))
    else:  # pragma: no cover - no poll() (Windows has no FIFOs to read either)

        def ready(timeout: float) -> bool:
            return bool(select.select([fd], [], [], max(0.0, timeout))[0])

    chunks: list[bytes] = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not ready(left):
            if not size:
                raise InputError(said("{source}: cannot read: nothing came through the pipe within {seconds:g} seconds "
                                      "(does anything write to it?)", source=name, seconds=seconds))  # fmt: skip
            raise InputError(said("{source}: cannot read: the pipe was not closed within {seconds:g} seconds "
                                  "({count:,} bytes came; its writer must close it)", source=name, seconds=seconds,
                                  count=size))  # fmt: skip
        try:
            data = os.read(fd, min(1 << 16, limit + 1 - size))
        except BlockingIOError:  # woken, and nothing there after all
            continue
        except OSError as exc:
            raise _cannot_read(name, exc) from None
        if not data:  # the writer closed it
            return b"".join(chunks)
        chunks.append(data)
        size += len(data)
        if size > limit:
            raise _too_large(name, limit, what)


def read_stdin_bytes(what: str = FILE, limit: int = MAX_DATA_BYTES) -> bytes:
    """The bytes of standard input (``-``), refused when over ``limit`` bytes.  No deadline:
    it may be a terminal, a user typing or pasting."""
    import sys

    stdin = sys.stdin
    if stdin is None:
        raise InputError(said("'-' given, but there is no standard input"))
    binary = getattr(stdin, "buffer", None)  # a test may replace stdin by a text stream
    try:
        data = binary.read(limit + 1) if binary is not None else stdin.read(limit + 1).encode("utf-8")
    except OSError as exc:
        raise _cannot_read("<stdin>", exc) from None
    if len(data) > limit:
        raise _too_large("<stdin>", limit, what)
    return data


def read_input_text(path: Path | str, what: str = FILE, limit: int = MAX_DATA_BYTES) -> str:
    """The UTF-8 text of the regular file ``path`` (see :func:`read_input_bytes`)."""
    data = read_input_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(said("{source}: line {line}: not UTF-8 text (byte {byte})", source=os.fspath(path), line=line,
                              byte=exc.start)) from None  # fmt: skip


def _size(limit: int) -> Said:
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return said("{size:,} MiB", size=limit >> 20)
    return said("{size:,} bytes", size=limit)


def _cannot_read(source: str, exc: OSError) -> InputError:
    return InputError(said("{source}: cannot read: {error}", source=source, error=exc.strerror or str(exc)))


def _too_large(source: str, limit: int, what: str) -> InputError:
    return InputError(said("{source}: more than {size}: too large for a {what}", source=source, size=_size(limit),
                           what=what))  # fmt: skip


# --------------------------------------------------------------------------- JSON


def _reject_constant(name: str) -> float:
    raise ValueError(said("{value} is not a number in strict JSON", value=name))


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(said("the number {value} is out of range", value=shown(text, quote=False)))
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(said("the integer {value} has more than {most} digits", value=shown(text, quote=False),
                              most=MAX_INT_DIGITS))  # fmt: skip
    return int(text)


def _nesting(text: str, pattern: re.Pattern[str]) -> int:
    """The deepest nesting of brackets in ``text``, strings (and comments) skipped."""
    depth = deepest = 0
    for match in pattern.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
    return deepest


def _check_nesting(text: str, pattern: re.Pattern[str], max_nesting: int) -> None:
    # Counting first keeps the scan off every ordinary file: it can only be too deep with
    # more opening brackets than the limit.
    if text.count("[") + text.count("{") > max_nesting and _nesting(text, pattern) > max_nesting:
        raise InputError(said("nested more than {most} levels deep", most=max_nesting))


def loads_json(text: str | bytes, source: str | None, max_nesting: int = MAX_NESTING) -> Any:
    """``text`` parsed as strict JSON; InputError naming ``source`` (and the line and column).
    With ``source`` None the message names no source (its caller says where the text came from)."""
    try:
        return _strict_json(text, max_nesting)
    except InputError as exc:
        if source is None:
            raise
        raise InputError(said("{source}: {error}", source=source, error=message_of(exc))) from None


def _strict_json(text: str | bytes, max_nesting: int) -> Any:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(said("not UTF-8 text (byte {byte})", byte=exc.start)) from None
    _check_nesting(text, _BRACKETS, max_nesting)
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise InputError(said("line {line} column {column}: not valid JSON ({error})", line=exc.lineno,
                              column=exc.colno, error=exc.msg)) from None  # fmt: skip
    except ValueError as exc:
        raise InputError(said("not valid JSON: {error}", error=message_of(exc))) from None
    except RecursionError:
        raise InputError(said("nested too deeply")) from None
    # An escaped high or low surrogate without its pair decodes to a lone surrogate: not text,
    # and no output can write it.
    if _SURROGATE_ESCAPE.search(text) and (bad := _lone_surrogate(value)) is not None:
        escaped = shown(bad.encode("utf-8", "backslashreplace").decode("utf-8"), quote=False)
        raise InputError(said("the string {value} holds a lone surrogate: not text", value=escaped))
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _lone_surrogate(value: Any) -> str | None:
    """The first string in ``value`` (walked without recursion) that is not valid Unicode text."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, dict):
            pending.extend(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return None


def read_json_file(path: Path | str, what: str, limit: int = MAX_DATA_BYTES) -> Any:
    """The strict JSON of the regular file ``path`` (a ``what``)."""
    return loads_json(read_input_bytes(path, what, limit), os.fspath(path))


def dumps_json(value: Any, **options: Any) -> str:
    """``value`` as strict JSON (``json.dumps`` with ``allow_nan=False``): a NaN or an infinity
    is a bug to fix where it was made, never output a strict parser refuses."""
    return json.dumps(value, **{**options, "allow_nan": False})


# --------------------------------------------------------------------------- TOML


def loads_toml(text: str, source: str, max_nesting: int = MAX_NESTING) -> dict[str, Any]:
    """``text`` parsed as TOML; InputError naming ``source`` for invalid or too deeply nested text."""
    try:
        return _toml(text, max_nesting)
    except InputError as exc:
        raise InputError(said("{source}: {error}", source=source, error=message_of(exc))) from None


def _toml(text: str, max_nesting: int) -> dict[str, Any]:
    import tomllib

    _check_nesting(text, _TOML_BRACKETS, max_nesting)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(said("not valid TOML: {error}", error=str(exc))) from None
    except ValueError as exc:  # an integer past Python's digit limit (4,300)
        if "digits" in str(exc):
            raise InputError(said("not valid TOML: an integer of thousands of digits")) from None
        raise InputError(said("not valid TOML: {error}", error=shown(str(exc), 120, quote=False))) from None
    except RecursionError:
        raise InputError(said("nested too deeply")) from None


# --------------------------------------------------------------------------- numbers


def whole_number(value: object, what: str, low: int, high: int) -> int:
    """A whole number in [low, high] (a boolean is not one); InputError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(said("{what}: {value} is not a whole number", what=what, value=shown(value)))
    if not low <= value <= high:
        raise InputError(said("{what}: {value} is not between {low:,} and {high:,}", what=what, value=shown(value),
                              low=low, high=high))  # fmt: skip
    return value


def finite_number(value: object, what: str, low: float, high: float) -> float:
    """A finite number in [low, high] (an int or a float; a boolean is not a number)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(said("{what}: {value} is not a number", what=what, value=shown(value)))
    if isinstance(value, int) and not low <= value <= high:  # before float(): 10**400 overflows it
        raise InputError(said("{what}: {value} is not between {low:g} and {high:g}", what=what, value=shown(value),
                              low=low, high=high))  # fmt: skip
    if not math.isfinite(value) or not low <= value <= high:
        raise InputError(said("{what}: {value} is not between {low:g} and {high:g}", what=what, value=shown(value),
                              low=low, high=high))  # fmt: skip
    return float(value)


def parse_whole_number(text: str, what: str, low: int, high: int) -> int:
    """The whole number written as ``text`` (digits, an optional sign), in [low, high]."""
    digits = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", digits):
        raise InputError(said("{what}: {value} is not a whole number", what=what, value=shown(text)))
    if len(digits.lstrip("+-").lstrip("0")) > max(len(str(abs(low))), len(str(abs(high)))):
        raise InputError(said("{what}: {value} is not between {low:,} and {high:,}", what=what,
                              value=shown(text.strip(), quote=False), low=low, high=high))  # fmt: skip
    return whole_number(int(digits), what, low, high)
