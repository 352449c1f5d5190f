"""The lexicon of one endgame: the words its moves could ever form, as a small word graph.

Once the bag is empty every tile still to be played is on one of the two racks, so a word that
any move of the rest of the game forms lies along one row or column and is made of the
letters on that line now plus tiles of the two racks (a blank standing for any letter).  Its
squares run between two squares that are empty now (or the board's edge): a tile there now
would belong to the word.  So the words of the endgame are, line by line,

* the words through the tiles of the line: read from the leftmost tile of the word (the first
  tile of a run of tiles), leftwards over empty squares, then rightwards over the line's
  letters and empty squares, exactly as the move generator reads the GADDAG from an anchor;
* the words of new tiles only, as long as the longest stretch of empty squares with no tile
  beside it, from the pool of both racks.

Every arc of the lexicon's graph that one of those words uses (each of its GADDAG paths, one
per split, and its DAWG path) is kept, the others dropped, and the kept arcs written out as a
new graph in the same format (:mod:`literaki_cli.engine.wordgraph`).  The kernels read it
unchanged.  The pruned graph accepts a subset of the lexicon's words (no arc is added) and a
superset of the words above (all their arcs are kept), so every move of the endgame, and every
cross-check, is what the whole lexicon gives: the search's values cannot change, and it walks
a graph of a few thousand words instead of millions.  The idea is MAGPIE's (``word_prune.c``);
this code is our own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from literaki_cli.engine.movegen import BLANK_SLOT, LexiconGraph
from literaki_cli.engine.movegen_numba import _find
from literaki_cli.engine.wordgraph import ACCEPTS_BIT, END_BIT, INDEX_MASK, LETTER_SHIFT, SEPARATOR

#: The largest letter code of a tile (codes 1..32 are letters; see engine/alphabet).
LAST_LETTER = 32


@njit(cache=True)
def _mark_path(arcs, p, word, first, last, step, marks):
    """Follow ``word[first], word[first + step], ... word[last]`` from the list ``p``, marking
    each arc; returns the list after the last arc (0 when a letter has no arc)."""
    k = first
    while True:
        if p == 0:
            return 0
        a = _find(arcs, p, word[k])
        if a < 0:
            return 0
        marks[a] = True
        p = np.int64(arcs[a] & INDEX_MASK)
        if k == last:
            return p
        k += step


@njit(cache=True)
def _mark_word(arcs, gaddag_root, dawg_root, word, n, marks):
    """Mark every arc of ``word[:n]``: its DAWG path and its GADDAG path of each split."""
    _mark_path(arcs, dawg_root, word, 0, n - 1, 1, marks)
    for split in range(1, n + 1):
        p = _mark_path(arcs, gaddag_root, word, split - 1, 0, -1, marks)
        if split < n and p != 0:
            sep = _find(arcs, p, SEPARATOR)
            if sep >= 0:
                marks[sep] = True
                _mark_path(arcs, np.int64(arcs[sep] & INDEX_MASK), word, split, n - 1, 1, marks)


@njit(cache=True)
def _walk_line(arcs, gaddag_root, dawg_root, line, anchor, lowest, pool, min_word, max_word, marks, word):
    """Every word on ``line`` whose leftmost original tile (or, on a line with no tile, whose
    first square) is ``anchor``, with no square left of ``lowest``: the GADDAG read from the
    anchor leftwards, then across the separator rightwards; empty squares take a tile of
    ``pool`` (a letter, else a blank as that letter).  Marks the arcs of each word found;
    returns how many were found."""
    n = line.shape[0]
    depth = 2 * n + 2
    f_col = np.zeros(depth, dtype=np.int64)
    f_p = np.zeros(depth, dtype=np.int64)  # next arc to try at the frame's square (-1: done)
    f_taken = np.full(depth, -1, dtype=np.int64)  # the pool slot the frame's square took
    f_left = np.zeros(depth, dtype=np.int64)  # the word's first square (right part)
    found = 0
    sp = 1
    f_col[0] = anchor
    f_p[0] = gaddag_root
    f_left[0] = anchor
    while sp > 0:
        t = sp - 1
        if f_taken[t] >= 0:
            pool[f_taken[t]] += 1
            f_taken[t] = -1
        col = f_col[t]
        fixed = np.int64(line[col])
        cand = -1
        p = f_p[t]
        if fixed != 0:
            if p > 0:
                cand = _find(arcs, p, fixed)
            f_p[t] = -1
        else:
            while p > 0:
                arc = arcs[p]
                letter = np.int64(arc >> LETTER_SHIFT)
                if letter != SEPARATOR and letter <= LAST_LETTER and (pool[letter] > 0 or pool[BLANK_SLOT] > 0):
                    cand = p
                    break
                if arc & END_BIT:
                    break
                p += 1
            f_p[t] = -1 if cand < 0 or arcs[cand] & END_BIT else cand + 1
        if cand < 0:
            sp -= 1
            continue
        arc = arcs[cand]
        letter = np.int64(arc >> LETTER_SHIFT)
        word[col] = letter
        if fixed == 0:
            slot = letter if pool[letter] > 0 else BLANK_SLOT
            pool[slot] -= 1
            f_taken[t] = slot
        accepts = (arc & ACCEPTS_BIT) != 0
        nxt = np.int64(arc & INDEX_MASK)
        if col <= anchor:  # the left part, read leftwards from the anchor
            length = anchor - col + 1
            if accepts and length >= min_word and (anchor + 1 == n or line[anchor + 1] == 0):
                _mark_word(arcs, gaddag_root, dawg_root, word[col : anchor + 1], length, marks)
                found += 1
            if nxt != 0 and length < max_word:
                if anchor + 1 < n:
                    sep = _find(arcs, nxt, SEPARATOR)
                    if sep >= 0 and (arcs[sep] & INDEX_MASK) != 0:
                        f_col[sp] = anchor + 1
                        f_p[sp] = np.int64(arcs[sep] & INDEX_MASK)
                        f_left[sp] = col
                        f_taken[sp] = -1
                        sp += 1
                if col - 1 >= lowest:
                    f_col[sp] = col - 1
                    f_p[sp] = nxt
                    f_left[sp] = col - 1
                    f_taken[sp] = -1
                    sp += 1
        else:  # the right part
            left = f_left[t]
            length = col - left + 1
            if accepts and length >= min_word and (col + 1 == n or line[col + 1] == 0):
                _mark_word(arcs, gaddag_root, dawg_root, word[left : col + 1], length, marks)
                found += 1
            if nxt != 0 and col + 1 < n and length < max_word:
                f_col[sp] = col + 1
                f_p[sp] = nxt
                f_left[sp] = left
                f_taken[sp] = -1
                sp += 1
    return found


@njit(cache=True)
def _longest_free_span(lines):
    """The most squares a word of new tiles only can cover on any of ``lines``: a stretch of
    empty squares less the square at each end that has a tile beside it."""
    best = 0
    for r in range(lines.shape[0]):
        n = lines.shape[1]
        c = 0
        while c < n:
            if lines[r, c] != 0:
                c += 1
                continue
            start = c
            while c < n and lines[r, c] == 0:
                c += 1
            span = c - start - (1 if start > 0 else 0) - (1 if c < n else 0)
            best = max(best, span)
    return best


@njit(cache=True)
def mark_endgame_words(arcs, gaddag_root, dawg_root, across, down, pool, min_word, max_word):
    """The arcs of every word an endgame's moves could form (see the module's docstring), for
    the board's across view ``across``, its transposed view ``down`` and the tiles of both racks
    ``pool`` (counts by slot, slot 0 blanks); returns (marks, words found)."""
    marks = np.zeros(arcs.shape[0], dtype=np.bool_)
    found = 0
    tiles = 0
    for slot in range(pool.shape[0]):
        tiles += pool[slot]
    for lines in (across, down):
        rows, n = lines.shape
        word = np.zeros(n, dtype=np.int64)
        for r in range(rows):
            line = lines[r]
            last_tile = -2  # the last tile left of the run looked at
            for c in range(n):
                if line[c] != 0 and (c == 0 or line[c - 1] == 0):
                    found += _walk_line(arcs, gaddag_root, dawg_root, line, c, last_tile + 2, pool, min_word, max_word,
                                        marks, word)  # fmt: skip
                if line[c] != 0:
                    last_tile = c
    free = min(max(_longest_free_span(across), _longest_free_span(down)), tiles, max_word)
    if free >= min_word:
        empty = np.zeros(free, dtype=np.int8)
        word = np.zeros(free, dtype=np.int64)
        found += _walk_line(arcs, gaddag_root, dawg_root, empty, 0, 0, pool, min_word, max_word, marks, word)
    return marks, found


@njit(cache=True)
def compact_graph(arcs, marks, roots):
    """The marked arcs as a graph of their own: each sibling list reached from ``roots`` (list
    indexes) through marked arcs, keeping its marked arcs in order; returns (arcs, roots)."""
    # Only the lists reached are looked at: the maps are left uninitialised but for "seen"
    # (the whole lexicon has millions of arcs, an endgame's graph a few thousand).
    seen = np.zeros(arcs.shape[0], dtype=np.bool_)
    remap = np.empty(arcs.shape[0], dtype=np.int32)  # an old list's index in the new array
    queue = np.empty(arcs.shape[0], dtype=np.int32)
    head, tail = 0, 0
    size = 1  # index 0: the dummy arc
    for i in range(roots.shape[0]):
        root = roots[i]
        if root != 0 and not seen[root]:
            seen[root] = True
            queue[tail] = root
            tail += 1
    # Lay out the lists breadth first: each takes as many slots as it keeps arcs.
    while head < tail:
        start = queue[head]
        head += 1
        kept = 0
        p = start
        while True:
            if marks[p]:
                kept += 1
                target = np.int64(arcs[p] & INDEX_MASK)
                if target != 0 and not seen[target]:
                    seen[target] = True
                    queue[tail] = target
                    tail += 1
            if arcs[p] & END_BIT:
                break
            p += 1
        remap[start] = size if kept else 0
        size += kept
    out = np.zeros(size, dtype=np.uint32)
    for i in range(tail):
        start = queue[i]
        q = remap[start]
        if q == 0:
            continue
        p = start
        last = -1
        while True:
            if marks[p]:
                arc = arcs[p]
                target = np.int64(arc & INDEX_MASK)
                new_target = remap[target] if target != 0 else 0
                out[q] = (arc & ~np.uint32(INDEX_MASK | END_BIT)) | np.uint32(new_target)
                last = q
                q += 1
            if arcs[p] & END_BIT:
                break
            p += 1
        out[last] |= np.uint32(END_BIT)
    new_roots = np.zeros(roots.shape[0], dtype=np.int64)
    for i in range(roots.shape[0]):
        new_roots[i] = remap[roots[i]] if roots[i] != 0 else 0
    return out, new_roots


def endgame_graph(graph: LexiconGraph, across: np.ndarray, down: np.ndarray, racks: np.ndarray, min_word: int,
                  max_word: int) -> tuple[LexiconGraph, int]:  # fmt: skip
    """The graph of the words the endgame on the board ``across`` (its transposed view ``down``)
    with the racks ``racks`` (counts by slot, one row a player) can form; returns it and how
    many word placements it was built from."""
    pool = racks.sum(axis=0).astype(np.int64)
    marks, found = mark_endgame_words(graph.arcs, graph.gaddag_root, graph.dawg_root, across, down, pool,
                                      min_word, max_word)  # fmt: skip
    arcs, roots = compact_graph(graph.arcs, marks, np.array([graph.gaddag_root, graph.dawg_root], dtype=np.int64))
    return LexiconGraph(arcs, int(roots[0]), int(roots[1])), int(found)
