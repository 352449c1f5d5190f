"""The word graph: a minimised DAWG stored as one flat ``uint32`` array of arcs.

Modelled on wolges' KWG: a node is a *sibling list* of arcs stored contiguously and sorted by
letter.  Each arc is one 32-bit word:

    bits  0..23  index of the target's sibling list (0 = the target has no outgoing arcs)
    bit   24     END: the last arc of its sibling list
    bit   25     ACCEPTS: the letters up to and including this arc spell a word
    bits 26..31  letter code (1..35, see :mod:`literaki_cli.engine.alphabet`; 0 = GADDAG separator)

Index 0 holds a dummy arc so that 0 can mean "no list".  Several word sets (the whole
lexicon, the popular subset) share one array with different roots, and share their common
suffix structure too.

The traversal kernels below are plain Python functions over numpy arrays: they answer a handful
of words at once (``check-word WORD`` loads nothing more), and the Rust core's twins
(:func:`core_lookup`, :func:`core_words`) answer batches.
"""

from __future__ import annotations

import numpy as np

from literaki_cli.errors import LexiconError, said

INDEX_BITS = 24
INDEX_MASK = (1 << INDEX_BITS) - 1
END_BIT = 1 << 24
ACCEPTS_BIT = 1 << 25
LETTER_SHIFT = 26
MAX_LIST_INDEX = INDEX_MASK

#: The GADDAG separator's letter code, and the largest letter code an arc can carry.
SEPARATOR = 0
MAX_LETTER = 35

#: Separator between words in flat code buffers (never a letter code).
WORD_SEPARATOR = 255
#: Placeholder for a character that is not a letter in flat code buffers.
NOT_A_LETTER = 254


def find_arc(arcs: np.ndarray, list_index: int, letter: int) -> int:
    """Position of the arc for ``letter`` in the sibling list at ``list_index``, or -1."""
    if list_index == 0:
        return -1
    p = list_index
    while True:
        arc = arcs[p]
        arc_letter = arc >> LETTER_SHIFT
        if arc_letter == letter:
            return p
        if arc_letter > letter or (arc & END_BIT) != 0:
            return -1
        p += 1


def lookup_words(arcs: np.ndarray, root: int, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """For each word ``codes[starts[i]:ends[i]]``: is it in the graph rooted at ``root``?"""
    n = starts.shape[0]
    found = np.zeros(n, dtype=np.bool_)
    for i in range(n):
        start = starts[i]
        end = ends[i]
        if end <= start:
            continue
        p = root
        ok = False
        for j in range(start, end):
            letter = codes[j]
            if p == 0:
                ok = False
                break
            # Inline sibling-list scan (sorted by letter).
            while True:
                arc = arcs[p]
                arc_letter = arc >> LETTER_SHIFT
                if arc_letter == letter:
                    break
                if arc_letter > letter or (arc & END_BIT) != 0:
                    p = -1
                    break
                p += 1
            if p < 0:
                ok = False
                break
            ok = (arcs[p] & ACCEPTS_BIT) != 0
            p = arcs[p] & INDEX_MASK
        found[i] = ok
    return found


def enumerate_words(arcs: np.ndarray, root: int, max_len: int, capacity: int) -> np.ndarray:
    """Every word of the graph, in letter-code order, as a flat buffer of codes, each word
    followed by :data:`WORD_SEPARATOR`.  ``capacity`` bounds the buffer (letters + separators):
    :class:`LexiconError` when the words do not fit (a header that understates the word count).
    """
    out = np.empty(capacity, dtype=np.uint8)
    n_out = 0
    if root == 0:
        return out[:0]
    stack = np.empty(max_len + 1, dtype=np.int64)  # arc position per depth
    word = np.empty(max_len + 1, dtype=np.uint8)
    depth = 0
    stack[0] = root
    while depth >= 0:
        p = stack[depth]
        arc = arcs[p]
        word[depth] = arc >> LETTER_SHIFT
        if (arc & ACCEPTS_BIT) != 0:
            if n_out + depth + 2 > capacity:  # the file holds more words than its header says
                raise LexiconError(said("corrupt lexicon file: its graph holds more words than its header says"))
            for k in range(depth + 1):
                out[n_out] = word[k]
                n_out += 1
            out[n_out] = 255
            n_out += 1
        target = arc & INDEX_MASK
        if target != 0 and depth < max_len:
            depth += 1
            stack[depth] = target
            continue
        # Advance to the next sibling, popping finished lists.
        while depth >= 0:
            p = stack[depth]
            if (arcs[p] & END_BIT) != 0:
                depth -= 1
            else:
                stack[depth] = p + 1
                break
    return out[:n_out]


def core_lookup(arcs: np.ndarray, root: int, codes: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """:func:`lookup_words` in the Rust core (the same answers; nothing to compile)."""
    from literaki_cli import _core
    from literaki_cli.engine.movegen import core_call

    codes = np.ascontiguousarray(codes, dtype=np.uint8)
    starts, ends = np.ascontiguousarray(starts, dtype=np.int64), np.ascontiguousarray(ends, dtype=np.int64)
    return core_call(_core.lookup_words, arcs, int(root), codes, starts, ends)


def core_words(arcs: np.ndarray, root: int, max_len: int, capacity: int) -> np.ndarray:
    """:func:`enumerate_words` in the Rust core (the same buffer, the same error)."""
    from literaki_cli import _core
    from literaki_cli.engine.movegen import core_call

    out = core_call(_core.enumerate_words, arcs, int(root), int(max_len), int(capacity))
    if out is None:
        raise LexiconError(said("corrupt lexicon file: its graph holds more words than its header says"))
    return out
