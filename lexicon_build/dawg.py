"""Compiling sorted string sets into the minimised graph of :mod:`literaki_cli.engine.wordgraph`.

Daciuk's incremental algorithm, compiled with numba: strings arrive sorted; each one shares a
prefix with the previous one, and the states of the previous string below that prefix can no
longer change, so they are *frozen* at once: looked up in a register of the states built so
far (a hash table keyed by the state's arcs) and replaced by an equal one when it exists, or
appended to the arc array as a new sibling list.  Memory stays at the size of the result, never
of a trie.  Several string sets (the words, the popular words, their GADDAGs) go through one
register, so they share every common structure and live in one arc array with several roots.

A GADDAG (Gordon 1994) holds, for each word w and each split 1 <= i <= len(w), the string
reverse(w[:i]) + SEPARATOR + w[i:] (no separator when i = len(w)): a move generator starts at
an anchor square, reads leftwards, crosses the separator and reads rightwards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from literaki_cli.engine import wordgraph
from literaki_cli.errors import InputError

#: Rows of string tables are zero-padded to this many bytes (a multiple of 8, above the longest
#: GADDAG string of a 17-column board).
ROW_WIDTH = 24
_MAX_DEPTH = ROW_WIDTH + 1
_MAX_ARCS_PER_STATE = 64


@njit(cache=True, inline="always")
def _mix(h, key):
    h = (h ^ key) * np.uint64(1099511628211)
    return h ^ (h >> np.uint64(29))


@njit(cache=True)
def _block_hash(arcs, start):
    h = np.uint64(1469598103934665603)
    p = start
    while True:
        arc = arcs[p]
        h = _mix(h, np.uint64(arc & np.uint32(0xFEFFFFFF)))  # the END bit is positional
        if arc & np.uint32(0x1000000):
            return h
        p += 1


@njit(cache=True)
def _rehash(arcs, n_arcs, table_size):
    table = np.zeros(table_size, dtype=np.int64)
    mask = table_size - 1
    p = 1
    while p < n_arcs:
        slot = np.int64(_block_hash(arcs, p) & np.uint64(mask))
        while table[slot] != 0:
            slot = (slot + 1) & mask
        table[slot] = p
        while not arcs[p] & np.uint32(0x1000000):
            p += 1
        p += 1
    return table


@njit(cache=True)
def _freeze(state_arcs, n, arcs, n_arcs, table, n_states):
    """The list index of a state with arcs ``state_arcs[:n]`` (packed, END bit not set):
    an equal registered state, or a new one appended.  Returns (index, arcs, n_arcs, table, n_states)."""
    if n == 0:
        return 0, arcs, n_arcs, table, n_states
    h = np.uint64(1469598103934665603)
    for k in range(n):
        h = _mix(h, np.uint64(state_arcs[k]))
    mask = table.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while True:
        start = table[slot]
        if start == 0:
            break
        same = True
        for k in range(n):
            arc = arcs[start + k]
            last = (arc & np.uint32(0x1000000)) != 0
            if (arc & np.uint32(0xFEFFFFFF)) != state_arcs[k] or last != (k == n - 1):
                same = False
                break
        if same:
            return start, arcs, n_arcs, table, n_states
        slot = (slot + 1) & mask
    if n_arcs + n > arcs.shape[0]:
        grown = np.zeros(max(2 * arcs.shape[0], n_arcs + n + 1024), dtype=np.uint32)
        grown[:n_arcs] = arcs[:n_arcs]
        arcs = grown
    start = n_arcs
    for k in range(n):
        arcs[start + k] = state_arcs[k]
    arcs[start + n - 1] |= np.uint32(0x1000000)
    n_arcs += n
    n_states += 1
    if 2 * n_states > table.shape[0]:
        table = _rehash(arcs, n_arcs, 2 * table.shape[0])
    else:
        table[slot] = start
    return start, arcs, n_arcs, table, n_states


@njit(cache=True)
def _freeze_depth(d, letters, accepts, targets, counts, packed, arcs, n_arcs, table, n_states):
    for a in range(counts[d]):
        value = (letters[d, a] << np.uint32(26)) | np.uint32(targets[d, a])
        if accepts[d, a]:
            value |= np.uint32(0x2000000)
        packed[a] = value
    index, arcs, n_arcs, table, n_states = _freeze(packed, counts[d], arcs, n_arcs, table, n_states)
    counts[d] = 0
    return index, arcs, n_arcs, table, n_states


@njit(cache=True)
def _add_strings(rows, lengths, order, arcs, n_arcs, table, n_states, letters, accepts, targets, counts, prev, finish):
    """Add the strings ``rows[order[k], :lengths[order[k]]]`` (sorted, unique, and after every
    string of earlier calls) to the open set whose unfinished states are ``letters``,
    ``accepts``, ``targets``, ``counts`` and ``prev`` (``prev[-1]`` holds the previous length).
    With ``finish`` the set is closed and its root returned."""
    packed = np.zeros(_MAX_ARCS_PER_STATE, dtype=np.uint32)
    prev_len = np.int64(prev[_MAX_DEPTH])
    for k in range(order.shape[0]):
        row = order[k]
        length = np.int64(lengths[row])
        p = 0
        while p < length and p < prev_len and rows[row, p] == prev[p]:
            p += 1
        # Freeze the states of the previous string below the common prefix, deepest first.
        for d in range(prev_len, p, -1):
            index, arcs, n_arcs, table, n_states = _freeze_depth(
                d, letters, accepts, targets, counts, packed, arcs, n_arcs, table, n_states
            )
            targets[d - 1, counts[d - 1] - 1] = index
        for d in range(p, length):
            a = counts[d]
            letters[d, a] = rows[row, d]
            accepts[d, a] = False
            targets[d, a] = 0
            counts[d] = a + 1
            counts[d + 1] = 0
            prev[d] = rows[row, d]
        accepts[length - 1, counts[length - 1] - 1] = True
        prev_len = length
    prev[_MAX_DEPTH] = prev_len
    root = 0
    if finish:
        for d in range(prev_len, -1, -1):
            index, arcs, n_arcs, table, n_states = _freeze_depth(
                d, letters, accepts, targets, counts, packed, arcs, n_arcs, table, n_states
            )
            if d > 0:
                targets[d - 1, counts[d - 1] - 1] = index
            else:
                root = index
        prev[_MAX_DEPTH] = 0
    return root, arcs, n_arcs, table, n_states


@njit(cache=True)
def _word_rows(codes, n_words):
    """Rows (zero-padded) and lengths of the words in a flat code buffer (255-separated)."""
    rows = np.zeros((n_words, 24), dtype=np.uint8)
    lengths = np.zeros(n_words, dtype=np.uint8)
    w = 0
    j = 0
    for i in range(codes.shape[0]):
        if codes[i] == 255:
            lengths[w] = j
            w += 1
            j = 0
        else:
            rows[w, j] = codes[i]
            j += 1
    return rows, lengths


@njit(cache=True)
def _gaddag_rows(rows, lengths, first_letter):
    """GADDAG strings of every word whose split letter w[i-1] is ``first_letter``.

    Bytes are shifted by one (separator 1, letter code c -> c + 1) so that zero padding sorts
    below everything; :func:`build_graph` shifts them back."""
    total = 0
    for w in range(rows.shape[0]):
        for i in range(lengths[w]):
            if rows[w, i] == first_letter:
                total += 1
    out = np.zeros((total, 24), dtype=np.uint8)
    out_len = np.zeros(total, dtype=np.uint8)
    k = 0
    for w in range(rows.shape[0]):
        length = lengths[w]
        for i in range(1, length + 1):
            if rows[w, i - 1] != first_letter:
                continue
            j = 0
            for t in range(i - 1, -1, -1):
                out[k, j] = rows[w, t] + 1
                j += 1
            if i < length:
                out[k, j] = 1
                j += 1
                for t in range(i, length):
                    out[k, j] = rows[w, t] + 1
                    j += 1
            out_len[k] = j
            k += 1
    return out, out_len


@njit(cache=True)
def _unshift(rows, lengths):
    for r in range(rows.shape[0]):
        for j in range(lengths[r]):
            rows[r, j] -= 1


def _sort_order(rows: np.ndarray) -> np.ndarray:
    """Row order of a zero-padded byte table in lexicographic order (prefixes first)."""
    if rows.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    keys = rows.view(">u8")  # big-endian 8-byte words compare like the bytes they hold
    return np.lexsort(tuple(keys[:, i] for i in range(keys.shape[1] - 1, -1, -1)))


class GraphBuilder:
    """Accumulates string sets into one arc array (see the module docstring)."""

    def __init__(self, capacity: int = 1 << 20) -> None:
        self.arcs = np.zeros(capacity, dtype=np.uint32)
        self.arcs[0] = np.uint32(1 << 24)  # the dummy arc: index 0 means "no list"
        self.n_arcs = 1
        self.table = np.zeros(1 << 16, dtype=np.int64)
        self.n_states = 0
        self._open = None

    def _feed(self, rows: np.ndarray, lengths: np.ndarray, order: np.ndarray, finish: bool) -> int:
        """Feed sorted strings into the open set (starting one if needed); with ``finish``
        close it and return its root."""
        if self._open is None:
            self._open = (
                np.zeros((_MAX_DEPTH, _MAX_ARCS_PER_STATE), dtype=np.uint32),
                np.zeros((_MAX_DEPTH, _MAX_ARCS_PER_STATE), dtype=np.bool_),
                np.zeros((_MAX_DEPTH, _MAX_ARCS_PER_STATE), dtype=np.int64),
                np.zeros(_MAX_DEPTH + 1, dtype=np.int64),
                np.zeros(_MAX_DEPTH + 1, dtype=np.uint8),
            )
            self._empty = True
        self._empty &= order.shape[0] == 0
        root, self.arcs, self.n_arcs, self.table, self.n_states = _add_strings(
            rows, lengths, order, self.arcs, self.n_arcs, self.table, self.n_states, *self._open, finish
        )
        if self.n_arcs - 1 > wordgraph.MAX_LIST_INDEX:
            raise InputError(f"word list too large: {self.n_arcs} arcs exceed the {wordgraph.INDEX_BITS}-bit index")
        if finish:
            self._open = None
            return 0 if self._empty else int(root)
        return -1

    def add_words(self, code_words: list[str]) -> int:
        """Add a sorted, unique list of code strings as a DAWG; returns its root."""
        rows, lengths = word_rows(code_words)
        return self._feed(rows, lengths, np.arange(rows.shape[0]), finish=True)

    def add_gaddag(self, code_words: list[str]) -> int:
        """Add the GADDAG of a list of code strings; returns its root.  The strings are made,
        sorted and fed one split letter at a time (ascending), so memory holds one group."""
        rows, lengths = word_rows(code_words)
        for letter in range(1, wordgraph.MAX_LETTER + 1):
            g_rows, g_len = _gaddag_rows(rows, lengths, letter)
            order = _sort_order(g_rows)
            _unshift(g_rows, g_len)
            self._feed(g_rows, g_len, order, finish=False)
            del g_rows, g_len, order
        empty = np.zeros((0, ROW_WIDTH), dtype=np.uint8)
        return self._feed(empty, np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.int64), finish=True)

    def result(self) -> np.ndarray:
        return self.arcs[: self.n_arcs].copy()


def word_rows(code_words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    if not code_words:
        return np.zeros((0, ROW_WIDTH), dtype=np.uint8), np.zeros(0, dtype=np.uint8)
    buf = np.frombuffer(("\xff".join(code_words) + "\xff").encode("latin-1"), dtype=np.uint8)
    return _word_rows(buf, len(code_words))


def build_word_graph(word_sets: dict[str, list[str]], gaddags: dict[str, list[str]] | None = None):
    """Compile named word sets (each a *sorted, unique* list of code strings) into one arc
    array, with a GADDAG for each entry of ``gaddags``; returns (arcs, root per name)."""
    builder = GraphBuilder()
    roots = {name: builder.add_words(words) for name, words in word_sets.items()}
    for name, words in (gaddags or {}).items():
        roots[name] = builder.add_gaddag(words)
    return builder.result(), roots
