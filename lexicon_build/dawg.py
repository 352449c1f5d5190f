"""Compiling sorted word lists into the minimised word graph of :mod:`literaki_cli.wordgraph`.

Two compiled passes over flat arrays (3.2 M words take a few seconds):

1. ``add_trie`` inserts words, sorted and unique, into a first-child / next-sibling trie.
   Sorted input means each word shares its longest common prefix with the previous one, so
   insertion never searches: it appends.
2. ``minimise`` visits nodes children-first (reverse creation order) and gives every node's
   sibling list an equivalence class: two lists are equal when they have the same letters,
   the same "accepts" flags and targets of the same class.  A hash table of representatives
   finds equal lists; ``emit`` then writes one arc block per class.

Several word sets (the lexicon and its popular subset) go into one trie with separate roots,
so the minimisation shares their suffixes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from literaki_cli import wordgraph

_SEP = 255


@njit(cache=True)
def _add_trie(codes, letter, final, first_child, last_child, next_sibling, n_nodes):
    root = n_nodes
    letter[root] = 0
    final[root] = False
    first_child[root] = -1
    last_child[root] = -1
    next_sibling[root] = -1
    n_nodes += 1
    path = np.empty(256, dtype=np.int64)
    prev = np.zeros(256, dtype=np.uint8)
    path[0] = root
    prev_len = 0
    i = 0
    n = codes.shape[0]
    while i < n:
        j = i
        while codes[j] != _SEP:
            j += 1
        length = j - i
        k = 0
        while k < length and k < prev_len and prev[k] == codes[i + k]:
            k += 1
        for d in range(k, length):
            parent = path[d]
            node = n_nodes
            n_nodes += 1
            letter[node] = codes[i + d]
            final[node] = False
            first_child[node] = -1
            last_child[node] = -1
            next_sibling[node] = -1
            if last_child[parent] == -1:
                first_child[parent] = node
            else:
                next_sibling[last_child[parent]] = node
            last_child[parent] = node
            path[d + 1] = node
            prev[d] = codes[i + d]
        prev_len = length
        final[path[length]] = True
        i = j + 1
    return root, n_nodes


@njit(cache=True)
def _lists_equal(a, b, letter, final, first_child, next_sibling, list_id):
    ca = first_child[a]
    cb = first_child[b]
    while ca != -1 and cb != -1:
        if letter[ca] != letter[cb] or final[ca] != final[cb] or list_id[ca] != list_id[cb]:
            return False
        ca = next_sibling[ca]
        cb = next_sibling[cb]
    return ca == -1 and cb == -1


@njit(cache=True)
def _minimise(n_nodes, letter, final, first_child, next_sibling):
    """Class id (1..K) of each node's sibling list, 0 for nodes without children;
    returns (list_id, representative node of each class, K)."""
    list_id = np.zeros(n_nodes, dtype=np.int32)
    table_size = 1
    while table_size < 2 * n_nodes + 16:
        table_size *= 2
    mask = table_size - 1
    table = np.full(table_size, -1, dtype=np.int64)
    reps = np.empty(n_nodes + 1, dtype=np.int64)
    n_classes = 0
    for node in range(n_nodes - 1, -1, -1):
        child = first_child[node]
        if child == -1:
            continue
        h = np.uint64(1469598103934665603)
        while child != -1:
            key = (
                np.uint64(letter[child])
                | (np.uint64(final[child]) << np.uint64(6))
                | (np.uint64(list_id[child]) << np.uint64(7))
            )
            h = (h ^ key) * np.uint64(1099511628211)
            h ^= h >> np.uint64(29)
            child = next_sibling[child]
        slot = np.int64(h & np.uint64(mask))
        while True:
            rep = table[slot]
            if rep == -1:
                n_classes += 1
                table[slot] = node
                reps[n_classes] = node
                list_id[node] = n_classes
                break
            if _lists_equal(rep, node, letter, final, first_child, next_sibling, list_id):
                list_id[node] = list_id[rep]
                break
            slot = (slot + 1) & mask
    return list_id, reps[: n_classes + 1], n_classes


@njit(cache=True)
def _emit(reps, n_classes, letter, final, first_child, next_sibling, list_id):
    # Lay classes out in ascending order of their representative node (trie pre-order), so
    # the roots come first and a walk down a word reads the array mostly forwards.
    order = np.argsort(reps[1:]) + 1
    offset = np.zeros(n_classes + 1, dtype=np.int64)
    total = 1  # arc 0 is the dummy
    for k in order:
        offset[k] = total
        c = first_child[reps[k]]
        while c != -1:
            total += 1
            c = next_sibling[c]
    arcs = np.zeros(total, dtype=np.uint32)
    arcs[0] = np.uint32(1 << 24)
    for k in order:
        p = offset[k]
        c = first_child[reps[k]]
        while c != -1:
            target = offset[list_id[c]] if list_id[c] != 0 else 0
            value = (np.int64(letter[c]) << 26) | target
            if final[c]:
                value |= 1 << 25
            if next_sibling[c] == -1:
                value |= 1 << 24
            arcs[p] = np.uint32(value)
            p += 1
            c = next_sibling[c]
    return arcs, offset, total


def code_buffer(code_words: list[str]) -> np.ndarray:
    """Flat ``uint8`` buffer of code strings, each followed by the separator."""
    if not code_words:
        return np.zeros(0, dtype=np.uint8)
    joined = "\xff".join(code_words) + "\xff"
    return np.frombuffer(joined.encode("latin-1"), dtype=np.uint8)


def build_word_graph(word_sets: dict[str, list[str]]) -> tuple[np.ndarray, dict[str, int]]:
    """Compile named word sets (each a *sorted, unique* list of code strings) into one arc
    array; returns (arcs, root list index per set name)."""
    buffers = {name: code_buffer(words) for name, words in word_sets.items()}
    capacity = sum(b.shape[0] for b in buffers.values()) + len(buffers) + 1
    letter = np.zeros(capacity, dtype=np.uint8)
    final = np.zeros(capacity, dtype=np.bool_)
    first_child = np.empty(capacity, dtype=np.int32)
    last_child = np.empty(capacity, dtype=np.int32)
    next_sibling = np.empty(capacity, dtype=np.int32)
    n_nodes = 0
    root_nodes = {}
    for name, buf in buffers.items():
        root_nodes[name], n_nodes = _add_trie(buf, letter, final, first_child, last_child, next_sibling, n_nodes)
    del last_child
    list_id, reps, n_classes = _minimise(n_nodes, letter, final, first_child, next_sibling)
    arcs, offset, total = _emit(reps, n_classes, letter, final, first_child, next_sibling, list_id)
    if total - 1 > wordgraph.MAX_LIST_INDEX:
        raise OverflowError(f"word graph too large: {total} arcs exceed the {wordgraph.INDEX_BITS}-bit index")
    roots = {name: int(offset[list_id[node]]) if list_id[node] else 0 for name, node in root_nodes.items()}
    return arcs, roots
