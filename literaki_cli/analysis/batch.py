"""Batch mode: ``solve --batch`` and ``score --batch`` answer one position (or move) per input
line with one JSON object per output line (JSON Lines), at engine speed: the lexicon, the
leave values and the core's move generator are prepared once for the whole input.

* Order: output line k answers the k-th non-blank input line, whatever the number of workers.
* Streaming: each answer is written and flushed as soon as it and every answer before it are
  ready; a coprocess can write a line and read its answer.
* Bounded memory: at most a window of lines is read ahead of the output (a few per worker), and
  a line longer than :data:`MAX_LINE_BYTES` is an error for that line, not read into memory.
* A bad line gets an error object ``{"line", "id", "error"}`` and the run goes on; the exit
  code tells whether any line failed (:func:`exit_code`).

The records are those of ``solve --json`` and ``score --json``, built by the same functions
(:class:`literaki_cli.analysis.solve.PositionSolver`, :func:`positionquery.score_move`), with the
input's ``line`` number and ``id`` first.  docs/batch.md is the reference for script authors.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from literaki_cli.errors import InputError, LiterakiError, message_of, said
from literaki_cli.inputs import alternatives, dumps_json, loads_json

#: The longest input line taken (a position with its request is well under 10 kB).
MAX_LINE_BYTES = 1 << 20
#: Lines in flight per worker (read, not yet written): enough to keep every worker busy.
WINDOW_PER_WORKER = 24
#: Lines a worker gets at once when more are waiting (fewer hand-offs between processes).
CHUNK = 8

#: What a line's answer says for the exit code, from the mildest.
OK, NEGATIVE, FAILED, INTERNAL = "ok", "negative", "failed", "internal"

#: The keys a JSON input line may hold.
SOLVE_KEYS = ("id", "position", "turn", "rack", "top", "all", "by")
SCORE_KEYS = ("id", "position", "turn", "move", "rack")


@dataclass(frozen=True)
class LineAnswer:
    """One output line (JSON, newline included) and what it says for the exit code."""

    text: str
    status: str = OK
    line: int = 0
    error: str | None = None


@dataclass
class BatchSummary:
    """What the run answered: counts by status, and the first failed line for stderr."""

    answered: int = 0
    counts: dict[str, int] = field(default_factory=lambda: {OK: 0, NEGATIVE: 0, FAILED: 0, INTERNAL: 0})
    first_failure: LineAnswer | None = None

    def add(self, answer: LineAnswer) -> None:
        self.answered += 1
        self.counts[answer.status] += 1
        if answer.status in (FAILED, INTERNAL) and self.first_failure is None:
            self.first_failure = answer

    @property
    def failed(self) -> int:
        return self.counts[FAILED] + self.counts[INTERNAL]


def exit_code(summary: BatchSummary) -> int:
    """3 when a line met a bug, else 4 when any line failed (its error object says why), else
    1 when ``score --batch`` found a move not legal, else 0 (docs/batch.md, "Exit codes")."""
    from literaki_cli.commands.common import EXIT_BATCH_FAILED, EXIT_INTERNAL, EXIT_NEGATIVE, EXIT_OK

    if summary.counts[INTERNAL]:
        return EXIT_INTERNAL
    if summary.counts[FAILED]:
        return EXIT_BATCH_FAILED
    return EXIT_NEGATIVE if summary.counts[NEGATIVE] else EXIT_OK


# --------------------------------------------------------------------------- reading lines


def read_lines(stream) -> Iterator[tuple[int, bytes | None]]:
    """(line number, bytes) for each line of a binary ``stream``, as it arrives; None for a
    line longer than :data:`MAX_LINE_BYTES` (the rest of it is skipped unread into memory)."""
    number = 0
    while True:
        chunk = _read_line(stream, MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        if len(chunk) > MAX_LINE_BYTES and not (len(chunk) == MAX_LINE_BYTES + 1 and chunk.endswith(b"\n")):
            while chunk and not chunk.endswith(b"\n"):
                chunk = _read_line(stream, MAX_LINE_BYTES)
            yield number, None
            continue
        yield number, chunk


def _read_line(stream, limit: int) -> bytes:
    try:
        return stream.readline(limit)
    except OSError as exc:  # a directory on stdin, a device gone: no line can be read
        raise InputError(said("cannot read the input: {error}", error=exc.strerror or str(exc))) from None


def _line_text(number: int, raw: bytes | None) -> str:
    if raw is None:
        raise InputError(said("the line is longer than {most:,} bytes", most=MAX_LINE_BYTES))
    if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        raise InputError(said("not UTF-8 text (byte {byte})", byte=exc.start + 1)) from None


def _json_object(text: str) -> dict[str, Any]:
    """A JSON input line, which must be an object."""
    try:
        obj = loads_json(text, None)  # the error object names the line
    except InputError as exc:
        why = message_of(exc)
        if why.startswith("not valid JSON"):
            raise
        raise InputError(said("not a JSON object: {error}", error=why)) from None
    if not isinstance(obj, dict):
        raise InputError(said("not a JSON object"))
    return obj


def _check_keys(obj: dict[str, Any], keys: tuple[str, ...]) -> None:
    """A key the line may not hold is an error (a typo would otherwise be ignored)."""
    unknown = [k for k in obj if k not in keys]
    if unknown:
        raise InputError(said("unknown key {key!r} (a line may hold {keys})", key=unknown[0], keys=", ".join(keys)))


def _text_field(obj: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = obj.get(key)
    if value is None:
        if required:
            raise InputError(said("no {key!r}", key=key))
        return None
    if not isinstance(value, str):
        raise InputError(said("{key!r} must be a string, not {value}", key=key,
                              value=dumps_json(value, ensure_ascii=False)[:40]))  # fmt: skip
    return value


def _position_text(obj: dict[str, Any]) -> str:
    """The ``position`` of a JSON line: CGP or board text (a string), or a JSON position."""
    value = obj.get("position")
    if isinstance(value, dict):
        return dumps_json(value, ensure_ascii=False)
    text = _text_field(obj, "position", required=True)
    if not text.strip():
        raise InputError(said("{key!r} is empty", key="position"))
    return text


# --------------------------------------------------------------------------- answering lines


@dataclass
class PositionReader:
    """Reads each line's position as ``solve`` and ``score`` read theirs: a forced variant
    (``--variant`` / ``--rules``), a forced format, and the position's checks (warnings with
    ``lenient``)."""

    variant: Any = None  # Variant | None
    fmt: str | None = None
    lenient: bool = False

    def read(self, text: str, fmt: str | None = None, turn: int | str | None = None, finished: bool = False):
        """The position in ``text`` (in ``fmt``, else the forced format, else detected) with
        the warnings of its checks, as an :class:`~literaki_cli.analysis.positionquery.OpenedPosition`;
        a game record (GCG text) gives the position before turn ``turn`` (a line's ``"turn"``:
        required with one, refused without), its end refused unless ``finished`` (``show``
        shows it; there is nothing to solve or score in it)."""
        from literaki_cli.analysis.positionquery import (
            BATCH_TURN,
            OpenedPosition,
            looks_like_game_record,
            read_game_position,
            refuse_finished,
        )
        from literaki_cli.engine.position import validate
        from literaki_cli.io.positionio import read_position

        source = said("position")  # the error object names the line
        fmt = fmt or self.fmt
        game = None
        if fmt == "gcg" or (fmt is None and looks_like_game_record(text)):
            game = read_game_position(text, source, self.variant, turn, need_turn=BATCH_TURN)
            if not finished:
                refuse_finished(game)
            position = game.position
        elif turn is not None:
            raise InputError(said('"turn": only with a game record (GCG text) as the "position"'))
        else:
            position = read_position(text, source, self.variant, fmt)
        return OpenedPosition(position, validate(position, lenient=self.lenient, source=source), game)


#: How an answer is written: as :func:`dumps_json` writes it (strict JSON, the letters as they
#: are), by one encoder made once; a record is a tree, so it is not searched for cycles.
_ANSWER_JSON = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False)


def _record_line(number: int, ident: Any, record: dict[str, Any], warnings: list[str]) -> str:
    out = {"line": number, "id": ident, **record}
    if warnings:
        out["warnings"] = warnings
    return _ANSWER_JSON.encode(out) + "\n"


def _error_answer(number: int, ident: Any, exc: BaseException) -> LineAnswer:
    if isinstance(exc, LiterakiError):
        message, status = message_of(exc), INTERNAL if exc.exit_code == 3 else FAILED
    else:
        message, status = f"internal error: {type(exc).__name__}: {exc} (a bug: please report it)", INTERNAL
    text = dumps_json({"line": number, "id": ident, "error": message}, ensure_ascii=False) + "\n"
    return LineAnswer(text, status, number, message)


def error_answer(number: int, exc: BaseException) -> LineAnswer:
    """The error object of a line whose answer was lost (its worker failed)."""
    return _error_answer(number, None, exc)


class LineAnswerer:
    """Answers one input line: its text (a blank line gets no answer) to :meth:`answer`, and
    anything that fails into the line's error object, so a bad line never stops the run.
    ``asked["id"]`` is the line's ``id`` once its JSON object is read (the error names it too)."""

    def __call__(self, number: int, raw: bytes | None) -> LineAnswer | None:
        asked: dict[str, Any] = {"id": None}
        try:
            text = _line_text(number, raw)
            return self.answer(number, text, asked) if text else None
        except Exception as exc:  # a bad line is answered with its error; the run goes on
            return _error_answer(number, asked["id"], exc)

    def answer(self, number: int, text: str, asked: dict) -> LineAnswer:
        raise NotImplementedError


def _request_object(text: str, keys, asked: dict) -> dict:
    """A JSON line's object, its ``id`` noted in ``asked`` before its keys are checked."""
    obj = _json_object(text)
    asked["id"] = obj.get("id")
    _check_keys(obj, keys)
    return obj


@dataclass
class SolveLines(LineAnswerer):
    """Answers ``solve --batch`` lines: a CGP line (the rack from the CGP) or a JSON object
    ``{"id", "position", "rack", "top", "all", "by"}`` (each key but ``position`` optional; the
    command line's options are the defaults)."""

    solver: Any  # PositionSolver
    request: Any  # SolveRequest: the command line's
    reader: PositionReader

    def answer(self, number: int, text: str, asked: dict) -> LineAnswer:
        from literaki_cli.analysis.positionquery import (
            checked_rack,
            parse_turn,
            seen_record,
            solve_record,
            solving_rack,
        )

        request, rack, fmt = self.request, None, "cgp"  # a plain line is CGP
        if text.startswith("{"):
            obj = _request_object(text, SOLVE_KEYS, asked)
            text = _position_text(obj)
            rack = _text_field(obj, "rack")
            request = _solve_overrides(obj, request)
            fmt = None
            turn = parse_turn(obj.get("turn"), '"turn"')
        else:
            turn = None
        opened = self.reader.read(text, fmt, turn)
        position = opened.position
        given, rack_warnings = checked_rack(position, rack, self.reader.lenient, name=said("rack"))
        the_rack = solving_rack(position, given, how='give "rack" in a JSON line')
        result = self.solver.solve(position, the_rack, request)
        record = solve_record(result, the_rack) | seen_record(opened, the_rack)
        return LineAnswer(_record_line(number, asked["id"], record, opened.warnings + rack_warnings), OK, number)


def _solve_overrides(obj: dict[str, Any], request):
    """The command line's request with a JSON line's ``top``, ``all`` and ``by``."""
    from dataclasses import replace

    from literaki_cli.analysis.solve import RANKINGS

    changes: dict[str, Any] = {}
    top = obj.get("top")
    if top is not None:
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise InputError(said("'{key}' must be a whole number of at least 1, not {value}", key="top",
                                  value=dumps_json(top)[:40]))  # fmt: skip
        changes["top"] = top
    show_all = obj.get("all")
    if show_all is not None:
        if not isinstance(show_all, bool):
            raise InputError(said("'{key}' must be true or false, not {value}", key="all",
                                  value=dumps_json(show_all)[:40]))  # fmt: skip
        changes["show_all"] = show_all
    by = obj.get("by")
    if by is not None:
        if by not in RANKINGS:
            raise InputError(said("'{key}' must be {choices}, not {value}", key="by",
                                  choices=alternatives([repr(r) for r in RANKINGS]),
                                  value=dumps_json(by)[:40]))  # fmt: skip
        changes["by"] = by
    return replace(request, **changes) if changes else request


@dataclass
class ScoreLines(LineAnswerer):
    """Answers ``score --batch`` lines: JSON objects ``{"id", "position", "move", "rack"}``
    (``position`` and ``move`` required); a move not legal is answered (``"valid": false``)
    and counts for exit code 1."""

    open_lexicon: Callable[[], Any]  # the lexicon, opened on the first placement
    reader: PositionReader

    def answer(self, number: int, text: str, asked: dict) -> LineAnswer:
        from literaki_cli.analysis.positionquery import checked_rack, parse_turn, score_move

        if not text.startswith("{"):
            raise InputError(said('a score line is a JSON object {{"id", "position", "move", "rack"}}'))
        obj = _request_object(text, SCORE_KEYS, asked)
        position_text = _position_text(obj)
        move = _text_field(obj, "move", required=True)
        rack = _text_field(obj, "rack")
        opened = self.reader.read(position_text, turn=parse_turn(obj.get("turn"), '"turn"'))
        the_rack, rack_warnings = checked_rack(opened.position, rack, self.reader.lenient, name=said("rack"))
        scored = score_move(opened.position, move, the_rack, self.open_lexicon, self.reader.lenient)
        return LineAnswer(_record_line(number, asked["id"], scored.as_dict(), opened.warnings + rack_warnings),
                          OK if scored.valid else NEGATIVE, number)  # fmt: skip


# --------------------------------------------------------------------------- running a batch


def run_batch(
    lines: Iterable[tuple[int, bytes | None]],
    answer: Callable[[int, bytes | None], LineAnswer | None],
    out,
    workers: int = 1,
    summary: BatchSummary | None = None,
) -> BatchSummary:
    """Answer every line in order, writing and flushing each answer to ``out`` (an
    :class:`~literaki_cli.commands.common.Output`) as it is ready; ``workers`` > 1 answers
    lines in that many forked processes, the order kept.  ``summary`` (counted as the answers
    are written) tells the caller how far a run got that Ctrl-C stopped."""
    summary = BatchSummary() if summary is None else summary
    if workers <= 1:
        for number, raw in lines:
            result = answer(number, raw)
            if result is not None:
                out.write(result.text)
                out.flush()
                summary.add(result)
        return summary
    _pooled(lines, answer, out, workers, summary)
    return summary


#: The line answerer a forked worker calls (set in the parent before the fork).
_WORKER_ANSWER: Callable[[int, bytes | None], LineAnswer | None] | None = None


def _worker_start() -> None:
    # Ctrl-C reaches the whole process group: the parent stops the run, the workers must not
    # print tracebacks of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _answer_chunk(chunk: list[tuple[int, bytes | None]]) -> list[tuple | None]:
    """A worker's answers to consecutive lines, as plain tuples (they pickle quicker)."""
    answers = (_WORKER_ANSWER(number, raw) for number, raw in chunk)
    return [None if a is None else (a.text, a.status, a.line, a.error) for a in answers]


def _pooled(lines, answer, out, workers: int, summary: BatchSummary) -> None:
    """Lines go to a pool of forked workers in chunks; the answers come back in any order and
    are written in input order.  A reader thread reads ahead at most a window of lines (so
    memory stays bounded, and a coprocess that waits for each answer is answered at once).
    A chunk is sent when it is full (:data:`CHUNK` lines), or at once when a worker would
    otherwise wait: lines from a file go in chunks, a coprocess's lines one by one."""
    import multiprocessing
    import queue
    import threading

    global _WORKER_ANSWER
    _WORKER_ANSWER = answer
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_start)  # before any thread
    events: queue.SimpleQueue = queue.SimpleQueue()
    slots = threading.Semaphore(workers * WINDOW_PER_WORKER)
    stop = threading.Event()

    def read_ahead() -> None:
        try:
            for number, raw in lines:
                slots.acquire()
                if stop.is_set():
                    return
                events.put(("line", number, raw))
        except BaseException as exc:  # the main thread raises it
            events.put(("fault", exc))
            return
        events.put(("end",))

    def submit(chunk: list[tuple[int, int, bytes | None]]) -> None:
        first = chunk[0][0]
        numbers = [number for _, number, _ in chunk]
        pool.apply_async(
            _answer_chunk,
            ([(number, raw) for _, number, raw in chunk],),
            callback=lambda results: events.put(("done", first, results)),
            error_callback=lambda exc: events.put(("done", first, [_as_tuple(error_answer(n, exc)) for n in numbers])),
        )

    reader = threading.Thread(target=read_ahead, name="batch-reader", daemon=True)
    reader.start()
    pending: list[tuple[int, int, bytes | None]] = []  # (order, line number, bytes): read, not yet sent
    done: dict[int, tuple | None] = {}
    read = written = in_flight = 0
    ended = False
    try:
        while not ended or written < read:
            event = events.get()
            while True:  # this event and every one already waiting
                if event[0] == "line":
                    pending.append((read, event[1], event[2]))
                    read += 1
                elif event[0] == "done":
                    in_flight -= 1
                    for k, result in enumerate(event[2]):
                        done[event[1] + k] = result
                elif event[0] == "end":
                    ended = True
                else:
                    raise event[1]
                try:
                    event = events.get_nowait()
                except queue.Empty:
                    break
            while written in done:
                result = done.pop(written)
                written += 1
                slots.release()
                if result is not None:
                    answer_line = LineAnswer(*result)
                    out.write(answer_line.text)
                    out.flush()
                    summary.add(answer_line)
            while pending and (len(pending) >= CHUNK or in_flight < workers or ended):
                chunk, pending = pending[:CHUNK], pending[CHUNK:]
                submit(chunk)
                in_flight += 1
    finally:
        stop.set()
        slots.release()  # a reader waiting for a slot sees the stop
        pool.terminate()
        pool.join()


def _as_tuple(answer: LineAnswer) -> tuple:
    return (answer.text, answer.status, answer.line, answer.error)
