"""The word study's kernels over the flat arc array of the word graph (see
:mod:`literaki_cli.engine.wordgraph` for the arc layout) and flat buffers of letter codes
(each word followed by :data:`~literaki_cli.engine.wordgraph.WORD_SEPARATOR`).

They run in the Rust core (``rust/src/study.rs``): nothing to compile on first use, the GIL
released while they run.  Each takes numpy arrays and gives numpy arrays; the functions here
only hand the arrays over in the types the core reads (no copy when they already are).
"""

from __future__ import annotations

import numpy as np

from literaki_cli.engine.movegen import core_call


def _core():
    from literaki_cli import _core

    return _core


def _arcs(arcs: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(arcs, dtype=np.uint32)


def _i64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int64)


def _u8(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.uint8)


def _u64(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.uint64)


def search(arcs, root, table, accepting, min_len, max_len, rack, blanks, use_rack, limit, out) -> tuple[int, int]:
    """Every word of the graph at ``root`` that the automaton (``table``, ``accepting``, start
    state 1, dead state 0) accepts, ``min_len..max_len`` letters long, spelled from the tiles
    ``rack`` (count per letter code) and ``blanks`` when ``use_rack``: written to ``out`` (uint8)
    in graph order (Polish alphabetical order), each followed by the separator.  Stops after
    ``limit`` words (0: no limit).  Returns (words found, bytes written); an ``out`` of length 0
    only counts."""
    return core_call(_core().search, _arcs(arcs), int(root), np.ascontiguousarray(table, dtype=np.int32),
                     np.ascontiguousarray(accepting, dtype=np.bool_), int(min_len), int(max_len), _i64(rack),
                     int(blanks), bool(use_rack), int(limit), out)  # fmt: skip


def hook_masks(arcs, root, codes, starts, ends) -> tuple[np.ndarray, np.ndarray]:
    """For each word ``codes[starts[i]:ends[i]]``: the letters that make a word in front of it
    and after it, as bit sets (bit = letter code)."""
    return core_call(_core().hook_masks, _arcs(arcs), int(root), _u8(codes), _i64(starts), _i64(ends))


def tile_combinations(codes, starts, ends, bag, blanks, binomial) -> np.ndarray:
    """For each word: how many sets of as many tiles as it has letters, drawn from the bag
    (``bag[code]`` tiles per letter, ``blanks`` blanks, every tile told apart), can spell it.
    ``binomial[n, k]`` = C(n, k)."""
    return core_call(_core().tile_combinations, _u8(codes), _i64(starts), _i64(ends), _i64(bag), int(blanks),
                     np.ascontiguousarray(binomial, dtype=np.int64))  # fmt: skip


def diff_sorted(a, b) -> tuple[np.ndarray, np.ndarray]:
    """Two flat word buffers, each sorted in graph order (a word before its extensions): the
    start offsets of the words only in ``a`` and of those only in ``b``."""
    return core_call(_core().diff_sorted, _u8(a), _u8(b))


def diff_keys(a_high, a_low, b_high, b_low) -> tuple[np.ndarray, np.ndarray]:
    """Two sorted arrays of distinct (high, low) keys: the positions of the keys only in ``a``
    and of those only in ``b``."""
    return core_call(_core().diff_keys, _u64(a_high), _u64(a_low), _u64(b_high), _u64(b_low))


def member_keys(high, low, q_high, q_low) -> np.ndarray:
    """For each key (q_high[k], q_low[k]): is it in the sorted arrays (high, low)?"""
    return core_call(_core().member_keys, _u64(high), _u64(low), _u64(q_high), _u64(q_low))


def pack_lines(points, code_of, allowed, separator, min_len, max_len, high, low) -> tuple[int, bool]:
    """The lines of ``points`` (uint8 letter codes, or uint32 code points with ``code_of`` their
    letter codes), split at ``separator``, that are ``min_len..max_len`` letters of ``allowed``
    codes, each packed into ``high`` and ``low`` (uint64) as two keys: six bits a letter, ten
    letters a key, padded with zeros.  Returns (lines packed, whether a line fitting the rules
    was longer than 20 letters)."""
    if points.dtype != np.uint8:
        points = np.ascontiguousarray(points, dtype=np.uint32)
    return core_call(_core().pack_lines, np.ascontiguousarray(points), _u8(code_of),
                     np.ascontiguousarray(allowed, dtype=np.bool_), int(separator), int(min_len), int(max_len),
                     high, low)  # fmt: skip
