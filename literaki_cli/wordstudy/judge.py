"""The tournament word judge's logic, apart from its screen: a play (one or more words) is
VALID when every word is in the lexicon, else INVALID, without saying which word failed (as
tournament judging does); every judgement goes to the director's log with its time.

The log is plain text, one line per judgement, tab-separated: local time (ISO 8601 with the
UTC offset), ``VALID`` or ``INVALID``, the words as judged (normalised, space-separated), the
invalid ones (``-`` when none) — for the director, never shown on the screen.  Each line is
flushed as it is written, so a crash loses nothing.
"""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from literaki_cli.analysis import wordcheck
from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import WordSet
from literaki_cli.engine.wordrules import WordRules
from literaki_cli.errors import InputError

#: What separates the words of a play as typed: blanks, commas, semicolons, plus signs, slashes.
WORD_SEPARATORS = re.compile(r"[\s,;+/]+")
#: A play makes at most one word per tile laid plus the main word; more is a typing accident.
MAX_PLAY_WORDS = 16
#: Characters of one typed play at most (15 letters a word, with separators).
MAX_PLAY_CHARS = 400


@dataclass(frozen=True)
class Judgement:
    """One judgement: when, the words as judged, the verdict, and (for the log only) which failed."""

    time: datetime
    words: tuple[str, ...]
    valid: bool
    invalid: tuple[str, ...]

    @property
    def verdict(self) -> str:
        return "VALID" if self.valid else "INVALID"

    def log_line(self) -> str:
        """The line the director's log gets (see the module docstring)."""
        stamp = self.time.isoformat(timespec="seconds")
        return f"{stamp}\t{self.verdict}\t{' '.join(self.words)}\t{' '.join(self.invalid) or '-'}\n"


def play_words(text: str) -> list[str]:
    """The words of a typed play, normalised (case, Unicode), empty pieces dropped."""
    return [alphabet.normalize(word) for word in WORD_SEPARATORS.split(text.strip()) if word]


class WordJudge:
    """Judges plays against one word set by the lexicon's word rules."""

    def __init__(self, word_set: WordSet, rules: WordRules) -> None:
        self.word_set = word_set
        self.rules = rules

    def judge(self, text: str, now: datetime | None = None) -> Judgement | None:
        """The judgement of a typed play, or None when it holds no word.  InputError when it is
        longer than any play (:data:`MAX_PLAY_WORDS` words, :data:`MAX_PLAY_CHARS` characters)."""
        if len(text) > MAX_PLAY_CHARS:
            raise InputError(f"at most {MAX_PLAY_CHARS} characters")
        words = play_words(text)
        if not words:
            return None
        if len(words) > MAX_PLAY_WORDS:
            raise InputError(f"at most {MAX_PLAY_WORDS} words in one play")
        verdicts = wordcheck.check_batch(words, self.word_set, self.rules)
        invalid = tuple(v.normalized for v in verdicts if not v.valid)
        return Judgement(now or datetime.now().astimezone(), tuple(words), not invalid, invalid)


class JudgeLog:
    """The director's log: appended to, one flushed line per judgement."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            if self.path.is_dir():
                raise IsADirectoryError(21, "is a directory")
            # Without blocking: a FIFO that nobody reads is refused (ENXIO) instead of hanging the
            # judge before its screen; one with a reader, a device or a file is written as usual.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o666)
            os.set_blocking(fd, True)
            self._stream: TextIO = os.fdopen(fd, "a", encoding="utf-8")  # held open for the session
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                raise InputError(f"{path}: cannot write the judge log: a pipe that nothing reads") from None
            raise InputError(f"{path}: cannot write the judge log: {exc.strerror or exc}") from None

    def write(self, judgement: Judgement) -> None:
        self._stream.write(judgement.log_line())
        self._stream.flush()
        try:
            os.fsync(self._stream.fileno())
        except OSError:  # a pipe or a device: flushed is all it takes
            pass

    def close(self) -> None:
        self._stream.close()
