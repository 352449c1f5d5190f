"""``literaki words``: the lexicon searched by pattern, regular expression, anagram,
subanagram, letters contained, first and last letters, length, every filter ANDed; the words
found ordered alphabetically (Polish), by length, by probability or by tile points; each with its
length, probability rank, points and hooks.

A query is checked whole (:meth:`WordQuery.compile`) before the lexicon is opened, so bad input
fails fast; then one walk of the word graph (:func:`kernels.search`) finds every word.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.lexicon import WordSet, encode_many
from literaki_cli.errors import InputError
from literaki_cli.wordstudy import automaton, collation, kernels
from literaki_cli.wordstudy.automaton import quoted
from literaki_cli.wordstudy.probability import ProbabilityRanks, TileBag

#: The orders of the answer: alphabetical (Polish), by length, by probability, by tile points.
ORDERS = ("alpha", "length", "probability", "points")
#: The longest word any lexicon holds (lexicon.MAX_WORD_LENGTH); caps repeat counts of patterns.
LONGEST = 64
#: The fewest letters of a subanagram (a word of one letter is no word).
MIN_SUBANAGRAM = 2
#: Seconds ``re`` may take over the words for a regular expression no automaton has (a
#: back-reference, a look-around; a heavy one over every word of SJP takes about 15 s): one that
#: backtracks without end, as ``^(.|.)*\1z$`` does, is refused then instead of running for hours.
POST_FILTER_SECONDS = 60.0


@dataclass(frozen=True)
class WordQuery:
    """What a user asks ``literaki words`` for, as typed; :meth:`compile` checks it."""

    pattern: str | None = None
    regex: str | None = None
    anagram: str | None = None
    subanagram: str | None = None
    contains: str | None = None
    starts: str | None = None
    ends: str | None = None
    length: int | None = None
    min_length: int | None = None
    max_length: int | None = None

    def compile(self, longest: int = LONGEST) -> CompiledQuery:
        """The automaton, length bounds and rack of the query, for words of at most ``longest``
        letters (the lexicon's ``max_length``: the smaller, the smaller the automaton);
        InputError naming a bad value."""
        nodes, post_filter, low, high, rack, blanks, use_rack = self._parts(longest)
        dfa = automaton.compile_filters(nodes, longest)
        # Lengths as the graph walk takes them: any number of letters past the longest word finds
        # the same nothing (and 10**30 is no int64).
        low = min(low, longest + 1)
        return CompiledQuery(dfa, low, high, rack, blanks, use_rack, post_filter)

    def check(self) -> None:
        """InputError naming a bad value, if any: every value read as :meth:`compile` reads it,
        without building the automaton (cheap, so bad input fails before the lexicon is opened)."""
        self._parts(LONGEST)

    def _parts(self, longest: int) -> tuple:
        """(filter nodes, re post filter, fewest and most letters, rack, blanks, whether a rack)."""
        nodes = []
        if self.pattern is not None:
            nodes.append(automaton.parse_pattern(self.pattern))
        if self.contains is not None:
            nodes.append(automaton.contains(self.contains))
        if self.starts is not None:
            nodes.append(automaton.starts_with(self.starts))
        if self.ends is not None:
            nodes.append(automaton.ends_with(self.ends))
        post_filter = None
        if self.regex is not None:
            try:
                nodes.append(automaton.parse_regex(self.regex))
            except automaton.NotRegular:  # a back-reference or a look-around: re itself filters
                post_filter = re.compile(alphabet.normalize_case_keeping(self.regex), re.IGNORECASE)
        low, high = 1, longest
        for name, value in (("--length", self.length), ("--min-length", self.min_length),
                            ("--max-length", self.max_length)):  # fmt: skip
            if value is not None and value < 1:
                raise InputError(f"{name} {value}: give a number of letters, at least 1")
        if self.length is not None:
            low, high = max(low, self.length), min(high, self.length)
        if self.min_length is not None:
            low = max(low, self.min_length)
        if self.max_length is not None:
            high = min(high, self.max_length)
        rack = np.zeros(64, dtype=np.int64)
        blanks = 0
        use_rack = False
        if self.anagram is not None and self.subanagram is not None:
            raise InputError("give --anagram or --subanagram, not both")
        tiles = self.anagram if self.anagram is not None else self.subanagram
        if tiles is not None:
            where = "--anagram" if self.anagram is not None else "--subanagram"
            letters = _rack_letters(tiles, where)
            use_rack = True
            for ch in letters:
                if ch == "?":
                    blanks += 1
                else:
                    rack[alphabet.CODE_OF[ch]] += 1
            if self.anagram is not None:
                low, high = max(low, len(letters)), min(high, len(letters))
            else:
                low, high = max(low, MIN_SUBANAGRAM), min(high, len(letters))
        return nodes, post_filter, low, high, rack, blanks, use_rack

    @property
    def is_empty(self) -> bool:
        """No filter at all: the query lists the whole lexicon."""
        return all(getattr(self, name) is None for name in self.__dataclass_fields__)


def _rack_letters(tiles: str, where: str) -> str:
    """The tiles of ``--anagram``/``--subanagram`` as lower-case letters and '?' blanks."""
    letters = alphabet.normalize(tiles.strip())
    if not letters:
        raise InputError(f"{where} {quoted(tiles)}: no tiles")
    for i, ch in enumerate(letters, 1):
        if ch != "?" and not alphabet.is_polish_letter(ch):
            raise InputError(f"{where} {quoted(tiles)}: character {i} {ch!r} is not a Polish letter or '?'")
    return letters


@dataclass(frozen=True)
class CompiledQuery:
    """A query ready for the graph walk."""

    dfa: automaton.Dfa
    min_length: int
    max_length: int
    rack: np.ndarray
    blanks: int
    use_rack: bool
    post_filter: re.Pattern | None = None

    def _walk(self, word_set: WordSet, limit: int, out: np.ndarray) -> tuple[int, int]:
        return kernels.search(
            word_set.arcs, word_set.root, self.dfa.table, self.dfa.accepting, self.min_length,
            min(self.max_length, word_set.max_length), self.rack, self.blanks, self.use_rack, limit, out,
        )  # fmt: skip

    def buffer(self, word_set: WordSet, limit: int | None = None) -> np.ndarray:
        """The words found, as a flat code buffer in Polish alphabetical order (the first
        ``limit`` of them when given; the post filter, if any, not yet applied)."""
        walk_limit = 0 if (limit is None or self.post_filter is not None) else limit
        walk_limit = min(walk_limit, word_set.count)  # a limit past every word is none (and no int64)
        words = word_set.count if walk_limit == 0 else walk_limit
        capacity = words * (min(self.max_length, word_set.max_length) + 1) + 1
        out = np.empty(capacity, dtype=np.uint8)  # untouched pages cost nothing
        _, n_bytes = self._walk(word_set, walk_limit, out)
        return out[:n_bytes]

    def words(self, word_set: WordSet, limit: int | None = None, letters: str | None = None) -> list[str]:
        """The words found, in Polish alphabetical order (the first ``limit``).  ``letters``: the
        letters the lexicon's words may use (its ``alphabet``), when known; a lexicon with q, v
        or x (which the graph keeps after ż) is sorted after the walk."""
        resort = letters is None or any(letter in letters for letter in collation.OUT_OF_CODE_ORDER)
        text = alphabet.decode_buffer(self.buffer(word_set, None if resort else limit))
        found = text.split("\n")[:-1]
        if resort and any(letter in text for letter in collation.OUT_OF_CODE_ORDER):
            found = collation.polish_sorted(found)
        if self.post_filter is not None:
            found = _filtered(self.post_filter, found, POST_FILTER_SECONDS)
        return found if limit is None else found[:limit]

    def count(self, word_set: WordSet) -> int:
        """How many words the query finds."""
        if self.post_filter is not None:
            return len(self.words(word_set))
        found, _ = self._walk(word_set, 0, np.empty(0, dtype=np.uint8))
        return int(found)


class _OutOfTime(Exception):
    """The post filter's time is up."""


def _filtered(post_filter: re.Pattern, words: list[str], seconds: float | None) -> list[str]:
    """The words ``post_filter`` finds something in; InputError when ``re`` takes longer than
    ``seconds`` over them (it backtracks without end).  ``re`` stops for signals, so a timer
    (SIGALRM, on the main thread where there is one) ends it; elsewhere it runs to the end."""
    if seconds is None or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return [w for w in words if post_filter.search(w)]
    armed = [True]

    def out_of_time(signum, frame):
        if armed[0]:
            raise _OutOfTime

    before = signal.signal(signal.SIGALRM, out_of_time)
    pending, interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        try:
            return [w for w in words if post_filter.search(w)]
        finally:
            armed[0] = False
            left, _ = signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL if before is None else before)
            if pending:  # someone else's timer: put it back, less the time spent here
                signal.setitimer(signal.ITIMER_REAL, max(pending - (seconds - left), 1e-6), interval)
    except _OutOfTime:
        raise InputError(
            f"--regex {quoted(post_filter.pattern)}: still matching after {seconds:g} s (a back-reference or"
            " look-around that backtracks without end); simplify it, or narrow the words with other filters"
        ) from None


def find_words(word_set: WordSet, query: WordQuery, limit: int | None = None, letters: str | None = None) -> list[str]:
    """The words of ``word_set`` the query finds, in Polish alphabetical order (``letters``: see
    :meth:`CompiledQuery.words`)."""
    return query.compile(word_set.max_length).words(word_set, limit, letters)


# --------------------------------------------------------------------------- hooks


@cache
def _letters_of(mask: int) -> tuple[str, ...]:
    return tuple(letter for code, letter in alphabet.LETTER_OF.items() if mask >> code & 1)


def hook_letters(mask: int) -> list[str]:
    """The letters of a bit set (bit = letter code), in Polish alphabetical order."""
    return list(_letters_of(mask))


def hooks_of(word_set: WordSet, words: list[str]) -> list[tuple[list[str], list[str]]]:
    """(front hooks, back hooks) of each normalised word: the single letters that make a word
    of ``word_set`` in front of it and after it."""
    if not words:
        return []
    codes, starts, ends = encode_many(words)
    front, back = kernels.hook_masks(word_set.arcs, word_set.root, codes, starts, ends)
    return [(hook_letters(int(f)), hook_letters(int(b))) for f, b in zip(front.tolist(), back.tolist(), strict=True)]


def containing(word_set: WordSet, word: str) -> list[str]:
    """Every longer word of ``word_set`` containing ``word`` (normalised), in Polish order."""
    if not word or len(word) >= word_set.max_length or any(ch not in alphabet.CODE_OF for ch in word):
        return []
    query = WordQuery(contains=word, min_length=len(word) + 1)
    return query.compile(word_set.max_length).words(word_set)


# --------------------------------------------------------------------------- answers


@dataclass
class WordRecord:
    """One word found, with what ``--json`` tells of it."""

    word: str
    length: int
    probability_rank: int | None = None
    points: int | None = None
    front_hooks: list[str] = field(default_factory=list)
    back_hooks: list[str] = field(default_factory=list)
    new: bool | None = None

    def as_dict(self) -> dict:
        record = {
            "word": self.word,
            "length": self.length,
            "probability_rank": self.probability_rank,
            "points": self.points,
            "hooks": {"front": self.front_hooks, "back": self.back_hooks},
        }
        if self.new is not None:
            record["new"] = self.new
        return record


class WordFacts:
    """Lengths, combinations, probability ranks, points and hooks of words of one word set;
    the probability table (every word of the set, about a second for SJP) built when first needed."""

    def __init__(self, word_set: WordSet, bag: TileBag) -> None:
        self.word_set = word_set
        self.bag = bag
        self._ranks: ProbabilityRanks | None = None

    @property
    def rank_table(self) -> ProbabilityRanks:
        if self._ranks is None:
            self._ranks = ProbabilityRanks(self.word_set, self.bag)
        return self._ranks

    def columns(self, words: list[str], ranks: bool = True, hooks: bool = True) -> dict[str, np.ndarray]:
        """Per word: ``length``, ``combinations``, ``points``, and ``rank``/``front``/``back`` when asked."""
        codes, starts, ends = encode_many(words)
        lengths = ends - starts
        out = {
            "length": lengths,
            "combinations": self.bag.combinations(codes, starts, ends),
            "points": self.bag.points(codes, starts, ends),
        }
        if ranks:
            out["rank"] = self.rank_table.ranks(out["combinations"], lengths)
        if hooks:
            out["front"], out["back"] = kernels.hook_masks(self.word_set.arcs, self.word_set.root, codes, starts, ends)
        return out

    def records(self, words: list[str], new: list[bool] | None = None) -> list[WordRecord]:
        """A :class:`WordRecord` per word (``new``: whether each is new since an older list)."""
        cols = {name: column.tolist() for name, column in self.columns(words).items()}
        flags = new if new is not None else [None] * len(words)
        return [
            WordRecord(word, length, rank, points, hook_letters(front), hook_letters(back), flag)
            for word, length, rank, points, front, back, flag in zip(
                words, cols["length"], cols["rank"], cols["points"], cols["front"], cols["back"], flags, strict=True
            )
        ]

    def lines(self, words: list[str], new: list[bool] | None = None, json_lines: bool = True) -> str:
        """The records of ``words`` as JSON Lines (each line ``json.dumps(record.as_dict())``), or
        as tab-separated details (word, '+' when new, length, rank, points, front and back hooks),
        written straight from the columns: a hundred thousand words in a fraction of a second."""
        cols = {name: column.tolist() for name, column in self.columns(words).items()}
        flags = new if new is not None else [None] * len(words)
        rows = zip(words, cols["length"], cols["rank"], cols["points"], cols["front"], cols["back"], flags, strict=True)
        if not json_lines:
            return "".join(
                f"{word}{'+' if flag else ''}\t{length}\t{rank}\t{points}\t{_hooks_text(front)}\t{_hooks_text(back)}\n"
                for word, length, rank, points, front, back, flag in rows
            )
        return "".join(
            f'{{"word": {_quote(word)}, "length": {length}, "probability_rank": {rank}, "points": {points}, '
            f'"hooks": {{"front": {_hooks_json(front)}, "back": {_hooks_json(back)}}}'
            + ("}\n" if flag is None else f', "new": {"true" if flag else "false"}}}\n')
            for word, length, rank, points, front, back, flag in rows
        )


_quote = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes for a string


@cache
def _hooks_json(mask: int) -> str:
    return json.dumps(list(_letters_of(mask)), ensure_ascii=False)


@cache
def _hooks_text(mask: int) -> str:
    return "".join(_letters_of(mask)) or "-"


def order_words(words: list[str], order: str, facts: WordFacts | None = None, reverse: bool = False) -> list[str]:
    """``words`` (in Polish alphabetical order, as a search gives them) in ``order``:

    - ``alpha``: Polish alphabetical order;
    - ``length``: shortest first, alphabetical within a length;
    - ``probability``: shortest first, most probable first within a length (Zyzzyva's
      probability order: by combinations, which within a length is by probability), ties alphabetical;
    - ``points``: most tile points first, ties alphabetical.

    ``reverse`` turns the order round (ties stay alphabetical)."""
    if order not in ORDERS:
        raise InputError(f"--order {quoted(order)}: choose one of {', '.join(ORDERS)}")
    if order == "alpha":
        return words[::-1] if reverse else list(words)
    position = np.arange(len(words))
    lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
    sign = -1 if reverse else 1
    if order == "length":
        keys = (position, sign * lengths)
    else:
        if facts is None:
            raise ValueError("probability and points orders need the words' facts")
        cols = facts.columns(words, ranks=False, hooks=False)
        if order == "probability":
            keys = (position, -sign * cols["combinations"], sign * lengths)
        else:
            keys = (position, -sign * cols["points"])
    return [words[i] for i in np.lexsort(keys).tolist()]
