"""``check-word``: is a word allowed, and if not, why; and which words extend it.

Words are checked in batches (one compiled walk of the word graph per batch), so a stream of
a million words costs a few seconds; a handful of words is checked without the compiler.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import WordSet
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
    """Verdicts for ``words`` (as the user typed them, without surrounding blanks)."""
    normalized = alphabet.normalize("\n".join(words)).split("\n") if words else []
    found = word_set.lookup(normalized)
    verdicts = []
    for word, norm, ok in zip(words, normalized, found.tolist(), strict=True):
        if ok:
            verdicts.append(Verdict(word, norm, True))
            continue
        reason = rules.rejection(norm) or "not-in-list"
        verdicts.append(Verdict(word, norm, False, reason, rules.explain(norm, reason)))
    return verdicts


def batches(lines: Iterable[str], size: int = BATCH_SIZE) -> Iterator[list[str]]:
    """Non-blank stripped lines in lists of at most ``size``."""
    batch: list[str] = []
    for line in lines:
        word = line.strip()
        if word:
            batch.append(word)
            if len(batch) >= size:
                yield batch
                batch = []
    if batch:
        yield batch


def check_stream(lines: Iterable[str], word_set: WordSet, rules: WordRules) -> Iterator[list[Verdict]]:
    """Verdicts for a stream of lines, one list per batch, as the lines arrive."""
    for batch in batches(lines):
        yield check_batch(batch, word_set, rules)


@dataclass
class Extensions:
    """The lexicon words that contain a given word (the word itself excluded)."""

    word: str
    front_hooks: list[str] = field(default_factory=list)  # one letter before: (x)word
    back_hooks: list[str] = field(default_factory=list)  # one letter after: word(x)
    containing: list[str] = field(default_factory=list)  # every word containing it, hooks included

    def as_dict(self, limit: int | None = None) -> dict:
        return {
            "word": self.word,
            "front_hooks": self.front_hooks,
            "back_hooks": self.back_hooks,
            "containing_count": len(self.containing),
            "containing": self.containing[:limit] if limit else self.containing,
        }


def find_extensions(words: list[str], lexicon_text: str) -> dict[str, Extensions]:
    """For each normalised word, the lexicon words containing it: front and back hooks and
    every longer word.  All words are matched in ONE pass over the lexicon text (one word per
    line, as :meth:`WordSet.text` gives it) with an Aho-Corasick automaton."""
    import ahocorasick  # only this feature needs it

    result = {w: Extensions(w) for w in words}
    patterns = [w for w in result if w]
    if not patterns:
        return result
    automaton = ahocorasick.Automaton()
    for index, pattern in enumerate(patterns):
        automaton.add_word(pattern, index)
    automaton.make_automaton()

    match_ends: list[int] = []
    match_ids: list[int] = []
    for end, index in automaton.iter(lexicon_text):
        match_ends.append(end)
        match_ids.append(index)
    if not match_ends:
        return result
    line_ends = np.flatnonzero(np.frombuffer(lexicon_text.encode("utf-32-le"), dtype=np.uint32) == 10)
    line_of = np.searchsorted(line_ends, np.asarray(match_ends), side="left")
    # Each (pattern, line) pair once, in lexicon order (a word may contain a pattern twice).
    pairs = np.unique(np.stack([np.asarray(match_ids), line_of], axis=1), axis=0)
    line_starts = np.concatenate(([0], line_ends[:-1] + 1))
    for index, line in pairs.tolist():
        pattern = patterns[index]
        found = lexicon_text[line_starts[line] : line_ends[line]]
        if found == pattern:
            continue
        ext = result[pattern]
        ext.containing.append(found)
        if len(found) == len(pattern) + 1:
            if found.endswith(pattern):
                ext.front_hooks.append(found)
            if found.startswith(pattern):
                ext.back_hooks.append(found)
    return result
