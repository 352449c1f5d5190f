"""Lexicon versions, for tournaments where the list in force matters: the date of an SJP dump,
the words added and removed between two versions (``lexicon-diff``), and which words are new
since an older version (``check-word --since``, ``words --since``).

A version is a lexicon file or a word-list source (an SJP dump ``sjp-YYYYMMDD.zip``, any list
``build-lexicon`` reads).  A source's words are filtered by the same word rules a lexicon is
built with, so a dump and the lexicon built from it hold the same words.  Two lexicon files are
compared by one merge of their words in graph order (compiled); anything else by sets.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.lexicon import Lexicon, WordSet
from literaki_cli.engine.wordrules import WordRules
from literaki_cli.errors import InputError
from literaki_cli.inputs import open_input
from literaki_cli.wordstudy import collation
from literaki_cli.wordstudy.packed import PackedWords
from literaki_cli.wordstudy.packed import diff as packed_diff

_DATE = re.compile(r"(?<!\d)(\d{4})-?(\d{2})-?(\d{2})(?!\d)")


def dump_date(name: str) -> str | None:
    """The date in an SJP dump's name (``sjp-20260201.zip``, ``sjp-odm-20260201.zip``) as
    ``2026-02-01``; None when the name carries no valid date."""
    for match in _DATE.finditer(Path(name).name):
        try:
            return date(int(match[1]), int(match[2]), int(match[3])).isoformat()
        except ValueError:
            continue
    return None


def lexicon_source_date(meta: dict) -> str | None:
    """The date of the dump a lexicon was built from (by its file name), or None."""
    source = meta.get("source", {}) if isinstance(meta, dict) else {}
    for key in ("file", "name"):
        value = source.get(key) if isinstance(source, dict) else None
        if isinstance(value, str) and (found := dump_date(value)):
            return found
    return None


def is_lexicon_file(path: Path) -> bool:
    """Whether ``path`` starts like a literaki lexicon file (else it is read as a word-list
    source).  InputError for what is neither: no such file, a directory, a FIFO or a device
    (refused at once, never read: a FIFO would hang, ``/dev/zero`` would never end)."""
    from literaki_cli.engine.lexfile import MAGIC

    fd = open_input(path, "lexicon or word list")
    try:
        return os.read(fd, len(MAGIC)) == MAGIC
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


@dataclass
class WordList:
    """One version of the word list: a lexicon's word set, or a source's words (packed keys, or
    a set of strings for a source with words too long to pack)."""

    path: Path
    kind: str  # "lexicon" or "source"
    date: str | None
    source_name: str
    word_set: WordSet | None = None
    packed_words: PackedWords | None = None
    words: set[str] | None = None
    rules: WordRules | None = None

    @property
    def label(self) -> str:
        """How a report names this version: its file, and the dump date when known."""
        return f"{self.path.name} ({self.date})" if self.date else self.path.name

    @property
    def count(self) -> int:
        if self.word_set is not None:
            return self.word_set.count
        return self.packed_words.count if self.packed_words is not None else len(self.words or ())

    def buffer(self) -> np.ndarray:
        """Every word as a flat code buffer in graph order (lexicons only)."""
        assert self.word_set is not None
        ws = self.word_set
        return wordgraph.core_words(ws.arcs, ws.root, ws.max_length, ws.count * (ws.max_length + 1) + 1)

    def packed(self) -> PackedWords | None:
        """Every word as packed keys (None when a word is too long for them)."""
        if self.packed_words is None and self.word_set is not None:
            self.packed_words = PackedWords.from_buffer(self.buffer())
        return self.packed_words

    def word_strings(self) -> set[str]:
        """Every word, as a set of strings."""
        if self.words is not None:
            return self.words
        if self.word_set is not None:
            return set(alphabet.decode_buffer(self.buffer()).split("\n")[:-1])
        assert self.packed_words is not None
        return set(self.packed_words.words_at(np.arange(self.packed_words.count)))

    def contains(self, words: list[str]) -> list[bool]:
        """For each normalised word: is it in this version?"""
        if self.word_set is not None:
            return self.word_set.lookup(words).tolist()
        if self.packed_words is not None:
            return self.packed_words.contains(words)
        assert self.words is not None
        return [word in self.words for word in words]

    def as_dict(self) -> dict:
        return {"path": str(self.path), "kind": self.kind, "source": self.source_name, "date": self.date,
                "word_count": self.count}  # fmt: skip


def open_lexicon_version(path: Path, popular: bool = False) -> WordList:
    lex = Lexicon.open(path)
    from literaki_cli.analysis.wordinput import lexicon_word_rules

    return WordList(
        Path(path), "lexicon", lexicon_source_date(lex.meta), str(lex.meta["source"]["name"]),
        word_set=lex.popular if popular else lex.words, rules=lexicon_word_rules(lex.meta),
    )  # fmt: skip


def open_source_version(path: Path, rules: WordRules) -> WordList:
    """A word-list source (an SJP dump...) read and filtered by ``rules``, as ``build-lexicon`` does."""
    from lexicon_build import sources

    source = sources.read_source(Path(path))
    version = WordList(Path(path), "source", dump_date(source.path.name), source.name, rules=rules)
    version.packed_words = PackedWords.from_text("\n".join(source.entries), rules)
    if version.packed_words is None:  # words longer than the keys hold: a set of strings
        version.words = playable_words(source.entries, rules)
    return version


def playable_words(entries: list[str], rules: WordRules) -> set[str]:
    """The distinct entries ``rules`` allow, as ``build-lexicon`` keeps them (``WordRules.is_playable``
    on each), found by one scan of the joined entries (entries never hold a line break)."""
    lines = re.compile(f"^[{re.escape(rules.letters)}]{{{rules.min_length},{rules.max_length}}}$", re.MULTILINE)
    return set(lines.findall("\n".join(entries)))


def open_version(path: Path, rules: WordRules | None = None, popular: bool = False) -> WordList:
    """A lexicon file, or a source filtered by ``rules`` (required then)."""
    path = Path(path)
    if is_lexicon_file(path):
        return open_lexicon_version(path, popular)
    if popular:
        raise InputError(f"{path}: --popular needs lexicon files (a word list has no popular subset)")
    if rules is None:
        raise ValueError("a word-list source needs the word rules to filter it by")
    return open_source_version(path, rules)


def open_versions(old: Path, new: Path, fallback_rules: WordRules, popular: bool = False) -> tuple[WordList, WordList]:
    """OLD and NEW: a source is filtered by the rules of the lexicon on the other side when there
    is one (so both hold comparable words), else by ``fallback_rules`` (the variant's)."""
    lexicons = {p: open_lexicon_version(p, popular) for p in (Path(old), Path(new)) if is_lexicon_file(p)}
    rules = next((v.rules for v in reversed(lexicons.values())), None) or fallback_rules
    return tuple(lexicons.get(Path(p)) or open_version(p, rules, popular) for p in (old, new))  # type: ignore[return-value]


@dataclass
class LexiconDiff:
    """The words added (in NEW, not in OLD) and removed (in OLD, not in NEW), in Polish order."""

    old: WordList
    new: WordList
    added: list[str]
    removed: list[str]

    def changes(self, only: str | None = None) -> list[tuple[str, str]]:
        """(word, "added" or "removed") in Polish order, of one kind when ``only`` says so."""
        items = []
        if only in (None, "added"):
            items += [(w, "added") for w in self.added]
        if only in (None, "removed"):
            items += [(w, "removed") for w in self.removed]
        if only is None:
            items.sort(key=lambda item: collation.collation_key(item[0]))
        return items

    def summary(self) -> dict:
        return {"old": self.old.as_dict(), "new": self.new.as_dict(), "added_count": len(self.added),
                "removed_count": len(self.removed)}  # fmt: skip


def diff_versions(old: WordList, new: WordList) -> LexiconDiff:
    """The words added and removed from ``old`` to ``new``: two lexicons by one merge of their
    enumerations, a source by its packed keys, sets of strings only for words too long to pack."""
    if old.word_set is not None and new.word_set is not None:
        from literaki_cli.wordstudy import kernels  # only for the merge

        old_buffer, new_buffer = old.buffer(), new.buffer()
        only_old, only_new = kernels.diff_sorted(old_buffer, new_buffer)
        added, removed = _words_at(new_buffer, only_new), _words_at(old_buffer, only_old)
    elif (old_keys := old.packed()) is not None and (new_keys := new.packed()) is not None:
        added, removed = packed_diff(old_keys, new_keys)
    else:
        old_words, new_words = old.word_strings(), new.word_strings()
        added, removed = list(new_words - old_words), list(old_words - new_words)
        return LexiconDiff(old, new, collation.polish_sorted(added), collation.polish_sorted(removed))
    if any(letter in "".join(added + removed) for letter in collation.OUT_OF_CODE_ORDER):
        added, removed = collation.polish_sorted(added), collation.polish_sorted(removed)
    return LexiconDiff(old, new, added, removed)


def _words_at(buffer: np.ndarray, offsets: np.ndarray) -> list[str]:
    """The words of a flat buffer starting at ``offsets``."""
    if offsets.shape[0] == 0:
        return []
    ends = np.flatnonzero(buffer == wordgraph.WORD_SEPARATOR)
    word_ends = ends[np.searchsorted(ends, offsets)]
    pieces = [buffer[s : e + 1] for s, e in zip(offsets.tolist(), word_ends.tolist(), strict=True)]
    return alphabet.decode_buffer(np.concatenate(pieces)).split("\n")[:-1]


class NewSince:
    """Marks words new since an older version: valid now, absent from OLD (``--since OLD``)."""

    def __init__(self, old: WordList) -> None:
        self.old = old

    @classmethod
    def open(cls, path: Path, rules: WordRules) -> NewSince:
        """OLD as a lexicon file or a source (filtered by ``rules``, those of the lexicon in use)."""
        return cls(open_version(Path(path), rules))

    @property
    def note(self) -> str:
        """What ``check-word --since`` adds to the line of a new word."""
        return f"new since {self.old.label}"

    def new_flags(self, words: list[str], valid: list[bool]) -> list[bool]:
        """For each normalised word: valid (in the lexicon in use) and not in OLD."""
        present = self.old.contains([w if ok else "" for w, ok in zip(words, valid, strict=True)])
        return [ok and not was for ok, was in zip(valid, present, strict=True)]
