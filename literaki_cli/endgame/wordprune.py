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
new graph in the same format (:mod:`literaki_cli.engine.wordgraph`).  The move generator reads
it unchanged.  The pruned graph accepts a subset of the lexicon's words (no arc is added) and a
superset of the words above (all their arcs are kept), so every move of the endgame, and every
cross-check, is what the whole lexicon gives: the search's values cannot change, and it walks
a graph of a few thousand words instead of millions.  The idea is MAGPIE's (``word_prune.c``);
this code is our own: it runs in the Rust core (``rust/src/wordprune.rs``).
"""

from __future__ import annotations

import numpy as np

from literaki_cli.engine.movegen import LexiconGraph, core_call


def endgame_graph(graph: LexiconGraph, letters: np.ndarray, racks: np.ndarray, min_word: int,
                  max_word: int) -> tuple[LexiconGraph, int]:  # fmt: skip
    """The graph of the words the endgame on the board ``letters`` (letter codes, 0 empty) with the
    racks ``racks`` (counts by slot, one row a player) can form; returns it and how many word
    placements it was built from."""
    from literaki_cli import _core

    across = np.ascontiguousarray(letters, dtype=np.uint8)
    pool = np.ascontiguousarray(racks.sum(axis=0), dtype=np.int64)
    arcs, gaddag_root, dawg_root, found = core_call(
        _core.endgame_graph, np.ascontiguousarray(graph.arcs, dtype=np.uint32), int(graph.gaddag_root),
        int(graph.dawg_root), across, np.ascontiguousarray(across.T), pool, int(min_word), int(max_word),
    )  # fmt: skip
    return LexiconGraph(arcs, int(gaddag_root), int(dawg_root)), int(found)
