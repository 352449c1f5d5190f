"""The numba kernels of the leave values: the oracle of the Rust core's (``_core.LeaveModel``)
and what the kernels still compiled with numba call (the rollouts, leave training).  The model
(its features and their layout) is defined in :mod:`literaki_cli.equity.leaves`.

Kept apart so that a command that only values leaves never imports numba."""

from __future__ import annotations

import numpy as np
from numba import njit

from literaki_cli.engine import jitcache
from literaki_cli.engine.movegen import BLANK_SLOT
from literaki_cli.equity.leaves import (
    F_BALANCE,
    F_BLANK_PAIR,
    F_COLOUR_PAIRS,
    F_EXTRA,
    F_TILE,
    MAX_COLOURS,
    MAX_LEAVE,
    MAX_TERMS,
    N_SLOTS,
    LeaveArrays,
)


@njit(cache=True)
def leave_key(counts: np.ndarray) -> int:
    """The key of the leave with these tile counts (slot 0 = blanks); -1 when it is longer
    than ``MAX_LEAVE`` (no value is stored for it)."""
    key = 0
    size = 0
    for slot in range(N_SLOTS):
        for _ in range(counts[slot]):
            key = key * 64 + slot + 1
            size += 1
    if size > MAX_LEAVE:
        return -1
    return key


@njit(cache=True)
def leave_terms(counts: np.ndarray, colour_of: np.ndarray, vowel: np.ndarray, terms: np.ndarray) -> int:
    """The model's non-zero features of a leave, the one definition of the model: writes pairs
    (feature, value) to ``terms[0], terms[1], terms[2], ...`` (every value is a whole number) and
    returns how many.  ``terms``: :func:`terms_buffer` (its tail counts the tiles of each colour)."""
    tally = 2 * MAX_TERMS  # terms[tally + k]: tiles of colour k so far
    terms[tally : tally + MAX_COLOURS] = 0
    n = 0
    vowels = 0
    consonants = 0
    for slot in range(N_SLOTS):
        c = counts[slot]
        if c <= 0:
            continue
        terms[2 * n] = F_TILE + slot
        terms[2 * n + 1] = c
        n += 1
        if slot == BLANK_SLOT:
            if c >= 2:
                terms[2 * n] = F_BLANK_PAIR
                terms[2 * n + 1] = 1
                n += 1
            continue
        if c > 1:
            terms[2 * n] = F_EXTRA + slot - 1
            terms[2 * n + 1] = c - 1
            n += 1
        if vowel[slot]:
            vowels += c
        else:
            consonants += c
        if colour_of[slot] >= 0:
            terms[tally + colour_of[slot]] += c
    if vowels + consonants <= MAX_LEAVE:
        terms[2 * n] = F_BALANCE + (MAX_LEAVE + 1) * vowels - vowels * (vowels - 1) // 2 + consonants
        terms[2 * n + 1] = 1
        n += 1
    for k in range(MAX_COLOURS):
        tiles = terms[tally + k]
        if tiles > 1:
            terms[2 * n] = F_COLOUR_PAIRS + k
            terms[2 * n + 1] = tiles * (tiles - 1) // 2
            n += 1
    return n


def terms_buffer() -> np.ndarray:
    """Working space of :func:`leave_terms` (and of every lookup that may need the model)."""
    return np.empty(2 * MAX_TERMS + MAX_COLOURS, dtype=np.int64)


@njit(cache=True)
def leave_features(counts: np.ndarray, colour_of: np.ndarray, vowel: np.ndarray, out: np.ndarray) -> None:
    """The model's features of a leave into ``out`` (length ``N_FEATURES``), for fitting."""
    terms = np.empty(2 * MAX_TERMS + MAX_COLOURS, dtype=np.int64)
    out[:] = 0.0
    for j in range(leave_terms(counts, colour_of, vowel, terms)):
        out[terms[2 * j]] += terms[2 * j + 1]


@njit(cache=True)
def model_value(counts: np.ndarray, arrays: LeaveArrays, terms: np.ndarray) -> float:
    """The parametric model's value of a leave (``terms``: :func:`terms_buffer`)."""
    total = 0.0
    for j in range(leave_terms(counts, arrays.colour_of, arrays.vowel, terms)):
        total += terms[2 * j + 1] * arrays.coef[terms[2 * j]]
    return total


@njit(cache=True)
def value_of_key(key: int, counts: np.ndarray, arrays: LeaveArrays, terms: np.ndarray) -> float:
    """The value of the leave with this key and these counts: the learned one when the file
    has it, the model's otherwise; 0 for the empty leave (and a leave too long to have one)."""
    if key <= 0:
        return 0.0
    keys = arrays.keys
    i = np.searchsorted(keys, key)
    if i < keys.shape[0] and keys[i] == key:
        return arrays.values[i]
    return model_value(counts, arrays, terms)


@njit(cache=True)
def lookup(counts: np.ndarray, arrays: LeaveArrays, terms: np.ndarray) -> float:
    """The value of a leave given by its tile counts (see :func:`value_of_key`)."""
    return value_of_key(leave_key(counts), counts, arrays, terms)


@njit(cache=True)
def rack_places(rack: np.ndarray) -> tuple[np.ndarray, int]:
    """Mixed-radix numbering of the sub-multisets of a rack: the place value of each tile slot
    (a sub-multiset with counts c is number sum(c[slot] * place[slot])), and how many there are.
    The whole rack is the last number, the empty leave 0."""
    place = np.zeros(rack.shape[0], dtype=np.int64)
    total = 1
    for slot in range(N_SLOTS):
        if rack[slot] > 0:
            place[slot] = total
            total *= rack[slot] + 1
    return place, total


@njit(cache=True)
def subset_values(rack, arrays, tile_value, weight, kept_factor):
    """For every sub-multiset of the rack (numbered as :func:`rack_places`): ``weight`` x its
    value - ``kept_factor`` x the points of its tiles.  A rack of 7 has at most 128, so valuing
    them all once is cheaper than one lookup per generated move."""
    place, total = rack_places(rack)
    present = np.nonzero(rack[:N_SLOTS])[0]  # ascending: the key's digit order
    values = np.empty(total, dtype=np.float64)
    sizes = np.empty(total, dtype=np.int64)
    counts = np.zeros(rack.shape[0], dtype=np.int64)
    terms = np.empty(2 * MAX_TERMS + MAX_COLOURS, dtype=np.int64)
    for index in range(total):
        kept = 0
        size = 0
        key = 0
        for slot in present:
            c = (index // place[slot]) % (rack[slot] + 1)
            counts[slot] = c
            kept += c * tile_value[slot]
            size += c
            for _ in range(c):
                key = key * 64 + slot + 1
        value = 0.0
        if weight != 0.0 and size <= MAX_LEAVE:
            value = weight * value_of_key(key, counts, arrays, terms)
        values[index] = value - kept_factor * kept
        sizes[index] = size
    return place, values, sizes


# Cached kernels load without numba's compiler set-up (engine/jitcache.py).
jitcache.install()
