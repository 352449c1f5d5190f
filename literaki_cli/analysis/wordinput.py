"""The words ``check-word`` is given (arguments, stdin, a file) and the word rules it checks
them by: those the lexicon was built with, so a lexicon built for other rules is judged by its
own limits.  Kept light (no polars): checking one word must start fast.

Files and stdin are read as bytes and decoded by :func:`~literaki_cli.engine.textdecode.decode_text`,
like every text input (UTF-8 with or without a BOM, Windows-1250, ISO-8859-2), a chunk of whole
lines at a time so that a stream of any size goes through in bounded memory.  A chunk is what is
available now: a producer writing one line at a time gets each answer at once, a file or a fast
pipe is read in large chunks.
"""

from __future__ import annotations

import io
import os
import select
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from literaki_cli.engine.textdecode import decode_text
from literaki_cli.engine.wordrules import WordRules
from literaki_cli.errors import InputError, Said, message_of, said

#: Bytes asked for by one read.
READ_SIZE = 1 << 16
#: Bytes of input gathered into one chunk while more is available at once (a batch's worth).
CHUNK_SIZE = 1 << 20
#: Bytes a line may have: longer is binary data, not a word list (and would be held whole).
MAX_LINE = 1 << 20


def word_batches(words: list[str], file: Path | None, stdin: TextIO | None = None,
                 require_word: bool = False) -> Iterator[list[str]]:  # fmt: skip
    """Every input word, in lists as they become available: the arguments, then stdin where '-'
    stands, then the file.

    Words are stripped; a blank line of a file or of stdin is skipped, but an argument is a word
    even when empty (``check-word "$UNSET"`` must not pass).  Refuses no input at all and an
    argument that is not text at once (InputError); the rest is read lazily.  With
    ``require_word``, input that held no word at all (an empty stdin or file, and no other
    word) is an InputError once it is read: ``no word given: standard input was empty``.
    ``stdin`` defaults to ``sys.stdin``.
    """
    if not words and file is None:
        raise InputError(said("give words to check, --file FILE, or '-' to read from stdin"))
    for number, word in enumerate(words, start=1):
        _check_argument(number, word)
    return _batches(words, file, sys.stdin if stdin is None else stdin, require_word)


def word_lines(words: list[str], file: Path | None, stdin: TextIO | None = None) -> Iterator[str]:
    """Every input word, one at a time (see :func:`word_batches`)."""
    batches = word_batches(words, file, stdin)
    return (word for batch in batches for word in batch)


def _check_argument(number: int, word: str) -> None:
    """Refuse an argument that is not valid UTF-8 (Python hands its bytes over as lone surrogates)."""
    try:
        word.encode("utf-8")
    except UnicodeEncodeError:
        raw = word.encode("utf-8", "surrogateescape") if _escaped_bytes_only(word) else None
        shown = repr(raw)[2:-1] if raw is not None else word.encode("utf-8", "backslashreplace").decode("ascii")
        raise InputError(said("word argument {number} ({value}): not UTF-8 text", number=number, value=shown)) from None


def _escaped_bytes_only(word: str) -> bool:
    return all(not "\ud800" <= ch <= "\udfff" or "\udc80" <= ch <= "\udcff" for ch in word)


def _batches(words: list[str], file: Path | None, stdin: TextIO | None, require_word: bool) -> Iterator[list[str]]:
    pending: list[str] = []
    given = any(word != "-" for word in words)  # an argument is a word, even an empty one
    for word in words:
        if word != "-":
            pending.append(word.strip())
            continue
        if pending:
            yield pending
            pending = []
        if stdin is None:
            raise InputError(said("'-' given but there is no standard input"))
        for batch in _stream_batches(stdin, "stdin"):
            given |= bool(batch)
            yield batch
    if pending:
        yield pending
    if file is not None:
        try:
            handle = open(file, "rb", buffering=0)
        except OSError as exc:
            raise InputError(said("{source}: cannot read: {error}", source=str(file), error=exc.strerror)) from None
        with handle:
            for batch in _stream_batches(handle, str(file)):
                given |= bool(batch)
                yield batch
    if require_word and not given:
        if file is None:
            raise InputError(said("no word given: standard input was empty"))
        if "-" not in words:
            raise InputError(said("no word given: {source} was empty", source=str(file)))
        raise InputError(said("no word given: standard input and {source} were empty", source=str(file)))


def _stream_batches(stream: TextIO | BinaryIO, source: str) -> Iterator[list[str]]:
    """The words of a stream, a chunk of whole lines at a time."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        fd = None
    if fd is None:  # an in-memory stream (tests, embedding): already text or bytes
        data = stream.read()
        text = data if isinstance(data, str) else decode_text(data, source)
        yield _words(text)
        return
    try:
        for first_line, chunk in _available_chunks(fd, source):
            yield _words(_decode(chunk, source, first_line))
    except OSError as exc:
        raise InputError(said("{source}: cannot read: {error}", source=source, error=exc.strerror)) from None


def _words(text: str) -> list[str]:
    """The non-blank lines of ``text``, stripped (a BOM of a file appended to another too)."""
    words = []
    for line in text.split("\n"):
        word = line.strip()
        if word.startswith("\ufeff"):
            word = word[1:].strip()
        if word:
            words.append(word)
    return words


def _decode(chunk: bytes, source: str, first_line: int) -> str:
    """``chunk`` decoded; an error names the line of the whole stream, not of the chunk."""
    try:
        return decode_text(chunk, source)
    except InputError as exc:  # its line counted from the stream's start, not the chunk's
        message = message_of(exc)
        if not (isinstance(message, Said) and message.fields.get("source") == source and "line" in message.fields):
            raise
        raise InputError(message.with_fields(line=int(message.fields["line"]) + first_line - 1)) from None


def _available_chunks(fd: int, source: str) -> Iterator[tuple[int, bytes]]:
    """Whole lines of ``fd`` (the last one may lack its newline), as soon as they arrive, each
    chunk with the number of its first line.

    Each chunk holds what was there to read without waiting (up to :data:`CHUNK_SIZE`), so a
    line written by a slow producer is handed on at once while a file comes in large chunks.
    A line longer than :data:`MAX_LINE` is refused.
    """
    ready = _readiness_check(fd)
    rest = b""
    line = 1
    at_end = False
    while not at_end:
        data = os.read(fd, READ_SIZE)  # waits for the first bytes only
        if not data:
            break
        parts, size = [rest, data], len(rest) + len(data)
        while size < CHUNK_SIZE and ready():
            more = os.read(fd, READ_SIZE)
            if not more:
                at_end = True
                break
            parts.append(more)
            size += len(more)
        data = b"".join(parts)
        cut = data.rfind(b"\n") + 1
        if cut:
            yield line, data[:cut]
            line += data.count(b"\n", 0, cut)
        rest = data[cut:]
        if len(rest) > MAX_LINE:
            raise InputError(said("{source}: line {line}: longer than {most:,} bytes; give one word per line",
                                  source=source, line=line, most=MAX_LINE))  # fmt: skip
    if rest:
        yield line, rest


def _readiness_check(fd: int) -> Callable[[], bool]:
    """Whether more of ``fd`` can be read without waiting (always, where select cannot tell)."""
    try:
        select.select([fd], [], [], 0)
    except (OSError, ValueError):  # e.g. a pipe on Windows
        return lambda: True
    return lambda: bool(select.select([fd], [], [], 0)[0])


def lexicon_word_rules(meta: dict) -> WordRules:
    """The word rules recorded in a lexicon's metadata (older files: its alphabet and lengths)."""
    rules_meta = meta.get("rules", {})
    return WordRules(
        rules_meta.get("letters", meta["alphabet"]),
        int(rules_meta.get("min_length", meta["min_length"])),
        int(rules_meta.get("max_length", meta["max_length"])),
    )
