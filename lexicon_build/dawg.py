"""Compiling sorted string sets into the minimised graph of :mod:`literaki_cli.engine.wordgraph`.

Daciuk's incremental algorithm, in the Rust core (``rust/src/dawg.rs``): strings arrive sorted;
each one shares a prefix with the previous one, and the states of the previous string below that
prefix can no longer change, so they are *frozen* at once: looked up in a register of the states
built so far and replaced by an equal one when it exists, or appended to the arc array as a new
sibling list.  Memory stays at the size of the result, never of a trie.  Several string sets
(the words, the popular words, their GADDAGs) go through one register, so they share every
common structure and live in one arc array with several roots.

A GADDAG (Gordon 1994) holds, for each word w and each split 1 <= i <= len(w), the string
reverse(w[:i]) + SEPARATOR + w[i:] (no separator when i = len(w)): a move generator starts at
an anchor square, reads leftwards, crosses the separator and reads rightwards.  The core makes
them one split letter at a time, sorts them (on every core) and feeds them in order.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.errors import InputError

#: The longest string a set may hold: a word of a DAWG, a GADDAG string (a word and the separator).
ROW_WIDTH = 24


def word_buffer(code_words: list[str] | np.ndarray) -> np.ndarray:
    """Code strings as the core reads them: their codes, each word followed by 255 (a buffer of
    :func:`sorted_code_buffer` as it is)."""
    if isinstance(code_words, np.ndarray):
        return code_words
    if not code_words:
        return np.zeros(0, dtype=np.uint8)
    return np.frombuffer(("\xff".join(code_words) + "\xff").encode("latin-1"), dtype=np.uint8)


def sorted_code_buffer(words: Iterable[str]) -> np.ndarray:
    """Normalised words (distinct, of the alphabet's letters) as the sorted word buffer the graph
    is built from: what ``word_buffer(sorted(map(alphabet.to_code_string, words)))`` gives, sorted in
    the core."""
    from literaki_cli import _core

    try:
        return _core.sorted_code_words("\n".join(words), alphabet.CODEPOINT_TO_CODE)
    except _core.CoreError as exc:
        raise InputError(str(exc)) from None


def buffer_lengths(buffer: np.ndarray) -> np.ndarray:
    """The length of each word of a word buffer."""
    ends = np.flatnonzero(buffer == 255)
    return np.diff(ends, prepend=-1) - 1


class GraphBuilder:
    """Accumulates string sets into one arc array (see the module docstring)."""

    def __init__(self) -> None:
        from literaki_cli import _core

        self._core = _core
        self._builder = _core.GraphBuilder()

    def _call(self, method, *args):
        try:
            return method(*args)
        except self._core.CoreError as exc:
            raise InputError(str(exc)) from None

    def add_words(self, code_words: list[str] | np.ndarray) -> int:
        """Add a sorted, unique list of code strings as a DAWG; returns its root."""
        return int(self._call(self._builder.add_words, word_buffer(code_words)))

    def add_gaddag(self, code_words: list[str] | np.ndarray) -> int:
        """Add the GADDAG of a sorted, unique list of code strings; returns its root.  Fed one split
        letter's group a call (the next group sorted meanwhile on another thread), so that Ctrl-C
        is heard between groups."""
        self._call(self._builder.start_gaddag, word_buffer(code_words))
        while self._call(self._builder.feed_gaddag_group):
            pass
        return int(self._call(self._builder.finish_gaddag))

    def result(self) -> np.ndarray:
        return self._builder.result()


def build_word_graph(word_sets: dict[str, list[str]], gaddags: dict[str, list[str]] | None = None):
    """Compile named word sets (each a *sorted, unique* list of code strings) into one arc
    array, with a GADDAG for each entry of ``gaddags``; returns (arcs, root per name)."""
    builder = GraphBuilder()
    roots = {name: builder.add_words(words) for name, words in word_sets.items()}
    for name, words in (gaddags or {}).items():
        roots[name] = builder.add_gaddag(words)
    return builder.result(), roots
