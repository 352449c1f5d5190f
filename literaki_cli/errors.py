"""Errors the command line turns into one clear line and a stable exit code."""

from __future__ import annotations


class LiterakiError(Exception):
    """An error caused by input or environment, reported without a traceback.

    ``exit_code`` is the process exit status the CLI uses (see README, "Exit codes").
    """

    exit_code = 2

    def __init__(self, message: str, exit_code: int | None = None) -> None:
        super().__init__(message)
        if exit_code is not None:
            self.exit_code = exit_code


class LexiconError(LiterakiError):
    """A lexicon file is missing, truncated, corrupt or of another format version."""


class InputError(LiterakiError):
    """A user-supplied file or value cannot be used (names the file/line/column or value)."""
