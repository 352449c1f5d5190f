"""``check-word``: is a word allowed, and if not, why; and which words extend it.

Words are checked in batches (one walk of the word graph per batch, in the Rust core), so a
stream of a million words costs a few seconds; a handful of words is checked in plain Python.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from literaki_cli.engine import alphabet, wordgraph
from literaki_cli.engine.lexicon import WordSet
from literaki_cli.engine.wordgraph import WORD_SEPARATOR as SEPARATOR
from literaki_cli.engine.wordrules import WordRules

_quote = json.encoder.encode_basestring  # the C string encoder behind json.dumps(ensure_ascii=False)

#: Words per batch when streaming.
BATCH_SIZE = 65536


@dataclass(frozen=True)
class Verdict:
    """The answer for one input word."""

    word: str
    normalized: str
    valid: bool
    reason: str | None = None
    detail: str | None = None

    def as_dict(self) -> dict:
        return {
            "word": self.word,
            "normalized": self.normalized,
            "valid": self.valid,
            "reason": self.reason,
            "detail": self.detail,
        }

    def json_line(self) -> str:
        """``json.dumps(self.as_dict())`` plus a newline, written out for speed on big streams."""
        head = f'{{"word": {_quote(self.word)}, "normalized": {_quote(self.normalized)}, '
        if self.valid:
            return head + '"valid": true, "reason": null, "detail": null}\n'
        return head + f'"valid": false, "reason": {_quote(self.reason)}, "detail": {_quote(self.detail)}}}\n'


def check_batch(words: list[str], word_set: WordSet, rules: WordRules) -> list[Verdict]:
    """Verdicts for ``words`` (as the user typed them, without surrounding blanks; an empty one
    is invalid, reason ``empty``)."""
    normalized = alphabet.normalize("\n".join(words)).split("\n") if words else []
    if len(normalized) != len(words):  # a word with a line break in it (an argument)
        normalized = [alphabet.normalize(word) for word in words]
    # A line break would split a word in two for the lookup; no such word is in a lexicon.
    found = word_set.lookup([word if "\n" not in word else "" for word in normalized])
    verdicts = []
    for word, norm, ok in zip(words, normalized, found.tolist(), strict=True):
        if ok:
            verdicts.append(Verdict(word, norm, True))
            continue
        reason = rules.rejection(norm) or "not-in-list"
        detail = "empty word" if reason == "empty" else rules.explain(norm, reason)
        verdicts.append(Verdict(word, norm, False, reason, detail))
    return verdicts


def check_stream(word_batches: Iterable[list[str]], word_set: WordSet, rules: WordRules) -> Iterator[list[Verdict]]:
    """Verdicts for lists of words as they arrive (:func:`~literaki_cli.analysis.wordinput.word_batches`),
    one list per input list, a long one cut into lists of at most :data:`BATCH_SIZE`."""
    for words in word_batches:
        for start in range(0, len(words), BATCH_SIZE):
            yield check_batch(words[start : start + BATCH_SIZE], word_set, rules)


@dataclass
class Extensions:
    """The lexicon words that contain a given word (the word itself excluded)."""

    word: str
    front_hooks: list[str] = field(default_factory=list)  # one letter before: (x)word
    back_hooks: list[str] = field(default_factory=list)  # one letter after: word(x)
    containing: list[str] = field(default_factory=list)  # words containing it, hooks included (maybe the first N)
    containing_count: int = -1  # how many words contain it (-1: all are in ``containing``)

    def __post_init__(self) -> None:
        if self.containing_count < 0:
            self.containing_count = len(self.containing)

    def as_dict(self, limit: int | None = None) -> dict:
        return {
            "word": self.word,
            "front_hooks": self.front_hooks,
            "back_hooks": self.back_hooks,
            "containing_count": self.containing_count,
            "containing": self.containing[:limit] if limit else self.containing,
        }


#: Matches (a pattern ending at a position of the lexicon text) one pass may gather; a batch of
#: words that would find more is split.  Bounds the memory of ``--extensions`` whatever the input.
MATCH_BUDGET = 2_000_000
#: The one-byte encoding of the lexicon text: it has every letter of :data:`alphabet.LETTERS`.
_NARROW = "cp1250"
#: Letter code -> its byte in :data:`_NARROW`; the word separator -> newline.
_CODE_TO_NARROW = np.zeros(256, dtype=np.uint8)
_CODE_TO_NARROW[SEPARATOR] = ord("\n")
for _letter, _code in alphabet.CODE_OF.items():
    _CODE_TO_NARROW[_code] = _letter.encode(_NARROW)[0]


def _narrow(text: str) -> str:
    """``text`` (alphabet letters and newlines) as one character per letter: its Windows-1250 bytes."""
    return text.encode(_NARROW).decode("latin-1")


#: Words matched in one pass over the lexicon at most (each pass takes about two seconds).
MAX_EXTENSION_BATCH = 65536


class ExtensionFinder:
    """Finds the lexicon words containing given words: front and back hooks and every longer word.

    A batch of words is matched in ONE pass over the lexicon with an Aho-Corasick automaton.  The
    lexicon is kept as one byte per letter (its Windows-1250 bytes, held as a Latin-1 string for
    the automaton), 40 MB for SJP instead of the 0.5 GB its decoded text costs to build; a batch
    holds at most :data:`MATCH_BUDGET` matches, its size adapting to how many matches its words
    find, so a stream of any length runs in bounded memory.
    """

    def __init__(self, text: str) -> None:
        """``text``: the lexicon's words, one per line, as :func:`_narrow` gives them."""
        self._text = text
        newlines = np.frombuffer(text.encode("latin-1"), dtype=np.uint8) == ord("\n")
        self._line_ends = np.flatnonzero(newlines).astype(np.int32 if len(text) < 2**31 else np.int64)
        self._line_starts = np.concatenate(([0], self._line_ends[:-1] + 1)).astype(self._line_ends.dtype)
        self._line_lengths = (self._line_ends - self._line_starts).astype(np.int16)
        self._batch_size = 4096

    @classmethod
    def of(cls, word_set: WordSet) -> ExtensionFinder:
        """The finder for ``word_set`` (its words enumerated straight into code text)."""
        capacity = word_set.count * (word_set.max_length + 1)
        codes = wordgraph.core_words(word_set.arcs, word_set.root, word_set.max_length, capacity)
        return cls(_CODE_TO_NARROW[codes].tobytes().decode("latin-1"))

    @classmethod
    def of_text(cls, lexicon_text: str) -> ExtensionFinder:
        """The finder for a lexicon given as text, one word per line (as :meth:`WordSet.text` gives it)."""
        return cls(_narrow(lexicon_text))

    def extensions(self, words: list[str], limit: int | None = None) -> Iterator[tuple[str, Extensions]]:
        """``(word, its Extensions)`` for each normalised word of ``words``, in order, a batch at a
        time; ``containing`` holds the first ``limit`` words (all when None or 0)."""
        start = 0
        while start < len(words):
            part = words[start : start + self._batch_size]
            found = self._find(part, limit)
            if found is None:  # more matches than the budget: fewer words per pass
                self._batch_size = max(1, len(part) // 4)
                continue
            yield from ((word, found[word]) for word in part)
            start += len(part)

    def _find(self, words: list[str], limit: int | None) -> dict[str, Extensions] | None:
        """Extensions of ``words`` from one pass, or None when they match more than the budget."""
        import ahocorasick  # only this feature needs it

        result = {word: Extensions(word) for word in words}
        # A word with a character that is no letter is in no lexicon word (and its code string
        # could meet the codes by chance): not searched.
        patterns = [word for word in result if word and all(ch in alphabet.CODE_OF for ch in word)]
        if not patterns:
            return result
        automaton = ahocorasick.Automaton()
        for index, pattern in enumerate(patterns):
            automaton.add_word(_narrow(pattern), index)
        automaton.make_automaton()
        cap = 2 * MATCH_BUDGET + 2 if len(patterns) > 1 else None  # one word: at most the lexicon
        flat = np.fromiter(itertools.islice(itertools.chain.from_iterable(automaton.iter(self._text)), cap), np.int64)
        if cap is not None and len(flat) >= cap:
            return None
        matches = len(flat) // 2
        self._batch_size = int(min(MAX_EXTENSION_BATCH, max(1, MATCH_BUDGET // 2 * len(patterns) // max(matches, 1))))
        if not matches:
            return result
        line_count = len(self._line_ends)
        lines = np.searchsorted(self._line_ends, flat[0::2], side="left")
        # Each (pattern, line) pair once, in lexicon order (a word may contain a pattern twice).
        keys = np.sort(flat[1::2] * line_count + lines)
        keys = keys[np.concatenate(([True], keys[1:] != keys[:-1]))]
        bounds = np.searchsorted(keys // line_count, np.arange(len(patterns) + 1))
        for index, pattern in enumerate(patterns):
            found = keys[bounds[index] : bounds[index + 1]] % line_count
            result[pattern] = self._extensions_of(pattern, found, limit)
        return result

    def _extensions_of(self, pattern: str, lines: np.ndarray, limit: int | None) -> Extensions:
        lengths = self._line_lengths[lines]
        lines = lines[lengths != len(pattern)]  # the word itself: the only line of its length that contains it
        hooks = self._words(lines[self._line_lengths[lines] == len(pattern) + 1])
        return Extensions(
            pattern,
            front_hooks=[word for word in hooks if word.endswith(pattern)],
            back_hooks=[word for word in hooks if word.startswith(pattern)],
            containing=self._words(lines[:limit] if limit else lines),
            containing_count=len(lines),
        )

    def _words(self, lines: np.ndarray) -> list[str]:
        """The lexicon words on ``lines``, decoded in one go."""
        if not len(lines):
            return []
        text = self._text
        pieces = [
            text[a:b] for a, b in zip(self._line_starts[lines].tolist(), self._line_ends[lines].tolist(), strict=True)
        ]
        return "\n".join(pieces).encode("latin-1").decode(_NARROW).split("\n")


def find_extensions(words: list[str], lexicon_text: str) -> dict[str, Extensions]:
    """For each normalised word, the lexicon words containing it (see :class:`ExtensionFinder`);
    ``lexicon_text`` has one word per line, as :meth:`WordSet.text` gives it."""
    return dict(ExtensionFinder.of_text(lexicon_text).extensions(list(dict.fromkeys(words))))
