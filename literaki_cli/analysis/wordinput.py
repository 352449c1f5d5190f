"""The words ``check-word`` is given (arguments, stdin, a file) and the word rules it checks
them by: those the lexicon was built with, so a lexicon built for other rules is judged by its
own limits.  Kept light (no numba, no polars): checking one word must start fast."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from literaki_cli.engine.wordrules import WordRules
from literaki_cli.errors import InputError


def word_lines(words: list[str], file: Path | None, stdin: TextIO | None = None) -> Iterator[str]:
    """Every input line: the arguments, then stdin where '-' stands, then the file.

    Refuses no input at all at once (InputError); the lines themselves are read lazily, so a
    stream of any size goes through in batches.  ``stdin`` defaults to ``sys.stdin``.
    """
    if not words and file is None:
        raise InputError("give words to check, --file FILE, or '-' to read from stdin")
    return _lines(words, file, sys.stdin if stdin is None else stdin)


def _lines(words: list[str], file: Path | None, stdin: TextIO | None) -> Iterator[str]:
    for word in words:
        if word == "-":
            if stdin is None:
                raise InputError("'-' given but there is no standard input")
            yield from stdin
        else:
            yield word
    if file is not None:
        try:
            handle = open(file, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"{file}: cannot read: {exc.strerror}") from None
        with handle:
            line_no = 0
            try:
                for line in handle:
                    line_no += 1
                    yield line
            except UnicodeDecodeError:
                raise InputError(f"{file}:{line_no + 1}: not UTF-8 text") from None


def lexicon_word_rules(meta: dict) -> WordRules:
    """The word rules recorded in a lexicon's metadata (older files: its alphabet and lengths)."""
    rules_meta = meta.get("rules", {})
    return WordRules(
        rules_meta.get("letters", meta["alphabet"]),
        int(rules_meta.get("min_length", meta["min_length"])),
        int(rules_meta.get("max_length", meta["max_length"])),
    )
