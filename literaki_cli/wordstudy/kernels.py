"""Compiled kernels of the word study over the flat arc array of the word graph (see
:mod:`literaki_cli.engine.wordgraph` for the arc layout) and flat buffers of letter codes
(each word followed by :data:`~literaki_cli.engine.wordgraph.WORD_SEPARATOR`).

Compiled with numba on first use and cached on disk (``cache=True``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from literaki_cli.engine import jitcache
from literaki_cli.engine.wordgraph import (
    ACCEPTS_BIT,
    END_BIT,
    INDEX_MASK,
    LETTER_SHIFT,
    WORD_SEPARATOR,
    compiled,
    find_arc,
)

#: The word graph's own sibling-list lookup, compiled (one scan for the engine and word study).
_find_arc = compiled(find_arc)

#: Rack bookkeeping of the arc taken at a depth: nothing, a tile of its letter, a blank.
_NONE, _TILE, _BLANK = 0, 1, 2


@njit(cache=True, nogil=True)
def search(arcs, root, table, accepting, min_len, max_len, rack, blanks, use_rack, limit, out):
    """Every word of the graph at ``root`` that the automaton (``table``, ``accepting``, start
    state 1, dead state 0) accepts, ``min_len..max_len`` letters long, spelled from the tiles
    ``rack`` (count per letter code) and ``blanks`` when ``use_rack``: written to ``out`` in
    graph order (Polish alphabetical order), each followed by the separator.  Stops after
    ``limit`` words (0: no limit).  Returns (words found, bytes written); an ``out`` of length 0
    only counts.

    A branch is entered only while the automaton is alive and the rack can pay for its letter:
    a tile of the letter when one is left, else a blank (taking the tile first never loses a
    word, so each word is reached once)."""
    capacity = out.shape[0]
    count = 0
    n_bytes = 0
    if root == 0 or max_len <= 0:
        return count, n_bytes
    pos = np.empty(max_len, dtype=np.int64)
    state = np.empty(max_len, dtype=np.int64)
    used = np.zeros(max_len, dtype=np.int64)
    word = np.empty(max_len, dtype=np.int64)
    counts = rack.copy()
    free_blanks = blanks
    depth = 0
    pos[0] = root
    state[0] = 1
    while True:
        p = pos[depth]
        arc = arcs[p]
        letter = np.int64(arc >> LETTER_SHIFT)
        nxt = table[state[depth], letter]
        if nxt != 0:
            take = _NONE
            if use_rack:
                if counts[letter] > 0:
                    take = _TILE
                elif free_blanks > 0:
                    take = _BLANK
            if take != _NONE or not use_rack:
                word[depth] = letter
                if (arc & ACCEPTS_BIT) != 0 and depth + 1 >= min_len and accepting[nxt]:
                    if capacity > 0:
                        if n_bytes + depth + 2 <= capacity:
                            for k in range(depth + 1):
                                out[n_bytes + k] = word[k]
                            out[n_bytes + depth + 1] = WORD_SEPARATOR
                        n_bytes += depth + 2
                    count += 1
                    if limit > 0 and count >= limit:
                        return count, n_bytes
                target = np.int64(arc & INDEX_MASK)
                if target != 0 and depth + 1 < max_len:
                    if take == _TILE:
                        counts[letter] -= 1
                    elif take == _BLANK:
                        free_blanks -= 1
                    used[depth] = take
                    depth += 1
                    pos[depth] = target
                    state[depth] = nxt
                    continue
        # The next sibling, popping every list that is finished.
        while True:
            if (arcs[pos[depth]] & END_BIT) == 0:
                pos[depth] += 1
                break
            depth -= 1
            if depth < 0:
                return count, n_bytes
            if used[depth] == _TILE:
                counts[word[depth]] += 1
            elif used[depth] == _BLANK:
                free_blanks += 1
            used[depth] = _NONE


@njit(cache=True, nogil=True)
def _walk(arcs, node, codes, start, end):
    """Follow ``codes[start:end]`` from the sibling list ``node``: (accepted, list after), or (False, -1)."""
    accepted = False
    for j in range(start, end):
        p = _find_arc(arcs, node, codes[j])
        if p < 0:
            return False, -1
        accepted = (arcs[p] & ACCEPTS_BIT) != 0
        node = np.int64(arcs[p] & INDEX_MASK)
    return accepted, node


@njit(cache=True, nogil=True)
def hook_masks(arcs, root, codes, starts, ends):
    """For each word ``codes[starts[i]:ends[i]]``: the letters that make a word in front of it
    and after it, as bit sets (bit = letter code)."""
    n = starts.shape[0]
    front = np.zeros(n, dtype=np.int64)
    back = np.zeros(n, dtype=np.int64)
    if root == 0:
        return front, back
    for i in range(n):
        _, node = _walk(arcs, root, codes, starts[i], ends[i])
        if node > 0:
            p = node
            while True:
                arc = arcs[p]
                if (arc & ACCEPTS_BIT) != 0:
                    back[i] |= np.int64(1) << np.int64(arc >> LETTER_SHIFT)
                if (arc & END_BIT) != 0:
                    break
                p += 1
        q = root
        while True:
            arc = arcs[q]
            target = np.int64(arc & INDEX_MASK)
            if target != 0 and ends[i] > starts[i]:
                accepted, _ = _walk(arcs, target, codes, starts[i], ends[i])
                if accepted:
                    front[i] |= np.int64(1) << np.int64(arc >> LETTER_SHIFT)
            if (arc & END_BIT) != 0:
                break
            q += 1
    return front, back


@njit(cache=True, nogil=True)
def tile_combinations(codes, starts, ends, bag, blanks, binomial):
    """For each word: how many sets of as many tiles as it has letters, drawn from the bag
    (``bag[code]`` tiles per letter, ``blanks`` blanks, every tile told apart), can spell it.

    Sum over the ways blanks stand in for letters: C(blanks, b) * prod C(bag[c], k_c - r_c), with
    r_c letters c played by blanks and b = sum r_c, computed as a product of one polynomial in
    the blanks per distinct letter, cut at degree ``blanks``.  ``binomial[n, k]`` = C(n, k)."""
    n = starts.shape[0]
    result = np.zeros(n, dtype=np.int64)
    counts = np.zeros(64, dtype=np.int64)
    poly = np.zeros(blanks + 1, dtype=np.int64)
    nxt = np.zeros(blanks + 1, dtype=np.int64)
    for i in range(n):
        for j in range(starts[i], ends[i]):
            counts[codes[j]] += 1
        for d in range(blanks + 1):
            poly[d] = 0
        poly[0] = 1
        for j in range(starts[i], ends[i]):
            c = codes[j]
            k = counts[c]
            if k == 0:  # this letter was done at its first occurrence
                continue
            counts[c] = 0
            have = bag[c]
            for d in range(blanks + 1):
                nxt[d] = 0
            for d in range(blanks + 1):
                p = poly[d]
                if p == 0:
                    continue
                for r in range(min(k, blanks - d) + 1):
                    real = k - r
                    if real <= have:
                        nxt[d + r] += p * binomial[have, real]
            for d in range(blanks + 1):
                poly[d] = nxt[d]
        total = np.int64(0)
        for b in range(blanks + 1):
            total += binomial[blanks, b] * poly[b]
        result[i] = total
    return result


@njit(cache=True, nogil=True)
def _appended(buffer, count, value):
    """``buffer`` (holding ``count`` values) with ``value`` after them, doubled first when full."""
    if count == buffer.shape[0]:
        grown = np.empty(2 * count, dtype=np.int64)
        grown[:count] = buffer
        buffer = grown
    buffer[count] = value
    return buffer


@njit(cache=True, nogil=True)
def diff_sorted(a, b):
    """Two flat word buffers, each sorted in graph order (a word before its extensions): the
    start offsets of the words only in ``a`` and of those only in ``b``."""
    only_a = np.empty(1024, dtype=np.int64)
    only_b = np.empty(1024, dtype=np.int64)
    na = 0
    nb = 0
    i = 0
    j = 0
    len_a = a.shape[0]
    len_b = b.shape[0]
    while i < len_a or j < len_b:
        if i >= len_a:
            cmp = 1
        elif j >= len_b:
            cmp = -1
        else:
            k = 0
            while True:
                ca = a[i + k]
                cb = b[j + k]
                if ca == cb:
                    if ca == WORD_SEPARATOR:
                        cmp = 0
                        break
                    k += 1
                    continue
                if ca == WORD_SEPARATOR:
                    cmp = -1
                elif cb == WORD_SEPARATOR:
                    cmp = 1
                elif ca < cb:
                    cmp = -1
                else:
                    cmp = 1
                break
        if cmp <= 0:
            if cmp < 0:
                only_a = _appended(only_a, na, i)
                na += 1
            while a[i] != WORD_SEPARATOR:
                i += 1
            i += 1
        if cmp >= 0:
            if cmp > 0:
                only_b = _appended(only_b, nb, j)
                nb += 1
            while b[j] != WORD_SEPARATOR:
                j += 1
            j += 1
    return only_a[:na], only_b[:nb]


@njit(cache=True, nogil=True)
def _key_order(a_high, a_low, b_high, b_low):
    """-1, 0 or 1 as the key (a_high, a_low) is below, equal to or above (b_high, b_low)."""
    if a_high != b_high:
        return -1 if a_high < b_high else 1
    if a_low != b_low:
        return -1 if a_low < b_low else 1
    return 0


@njit(cache=True, nogil=True)
def diff_keys(a_high, a_low, b_high, b_low):
    """Two sorted arrays of distinct (high, low) keys: the positions of the keys only in ``a``
    and of those only in ``b``."""
    only_a = np.empty(a_high.shape[0], dtype=np.int64)
    only_b = np.empty(b_high.shape[0], dtype=np.int64)
    na = 0
    nb = 0
    i = 0
    j = 0
    while i < a_high.shape[0] or j < b_high.shape[0]:
        if i >= a_high.shape[0]:
            cmp = 1
        elif j >= b_high.shape[0]:
            cmp = -1
        else:
            cmp = _key_order(a_high[i], a_low[i], b_high[j], b_low[j])
        if cmp < 0:
            only_a[na] = i
            na += 1
            i += 1
        elif cmp > 0:
            only_b[nb] = j
            nb += 1
            j += 1
        else:
            i += 1
            j += 1
    return only_a[:na], only_b[:nb]


@njit(cache=True, nogil=True)
def member_keys(high, low, q_high, q_low):
    """For each key (q_high[k], q_low[k]): is it in the sorted arrays (high, low)?"""
    found = np.zeros(q_high.shape[0], dtype=np.bool_)
    for k in range(q_high.shape[0]):
        lo = 0
        hi = high.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if _key_order(high[mid], low[mid], q_high[k], q_low[k]) < 0:
                lo = mid + 1
            else:
                hi = mid
        found[k] = lo < high.shape[0] and high[lo] == q_high[k] and low[lo] == q_low[k]
    return found


@njit(cache=True, nogil=True)
def pack_lines(points, code_of, allowed, separator, min_len, max_len, high, low):
    """The lines of ``points`` (code points, or letter codes with ``code_of`` the identity),
    split at ``separator``, that are ``min_len..max_len`` letters of ``allowed`` codes, each
    packed as two keys: six bits a letter, ten letters a key, padded with zeros.  Returns (lines
    packed, whether a line fitting the rules was longer than 20 letters)."""
    n = 0
    too_long = False
    table_size = code_of.shape[0]
    h = np.uint64(0)
    lo = np.uint64(0)
    length = 0
    ok = True
    total = points.shape[0]
    for i in range(total + 1):
        if i == total or points[i] == separator:
            if ok and length > 0 and min_len <= length <= max_len:
                if length > 20:
                    too_long = True
                else:
                    high[n] = h
                    low[n] = lo
                    n += 1
            h = np.uint64(0)
            lo = np.uint64(0)
            length = 0
            ok = True
            if i == total:
                break
            continue
        if not ok:
            continue
        p = points[i]
        c = code_of[p] if p < table_size else 0
        if c == 0 or not allowed[c]:
            ok = False
            continue
        if length < 10:
            h |= np.uint64(c) << np.uint64(6 * (9 - length))
        elif length < 20:
            lo |= np.uint64(c) << np.uint64(6 * (19 - length))
        length += 1
    return n, too_long


# Cached kernels load without numba's compiler set-up (see literaki_cli/engine/jitcache.py).
jitcache.install()
