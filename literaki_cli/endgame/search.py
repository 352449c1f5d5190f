"""The endgame search: negamax with alpha-beta over every placement and the pass, a
transposition table, and the move generator for the moves of each node; it runs in the Rust
core (``rust/src/endgame.rs``), and this module makes its inputs.

Once the bag is empty both racks are known, so the rest of the game is a two-player game of
perfect information.  A node is (board, both racks, the player to move, the passes in a row);
its value is the spread change from there to the end of the game for the player to move, with
the end rules: going out gains the opponent's leftover values and the opponent loses them (so
the spread moves by twice their value); once ``passes_to_end`` passes come in a row, each
player loses their own leftovers.

The search is exact when no node was cut at the depth limit: every node counts the *horizon*
(nodes valued by the depth-limit heuristic, or by a table entry that was) and stores its value
as *solved* (valid at every depth) when no horizon was met below it.  The driver deepens until
a search meets no horizon at all (:mod:`literaki_cli.endgame.solver`).

A node's moves are those of the last node of the same side on the line that still stand as they
were, and those that reach a tile laid since, generated along the lines those tiles changed; a
node near the depth limit first tries the best of the moves that stand and generates the others
only when that move does not cut it.  :class:`_core.EndgameSearch` holds one endgame's position
(changed and restored in place), its counters and limits; :class:`_core.EndgameTable` the
transposition table, shared by the search threads (Lazy SMP) without locks.
"""

from __future__ import annotations

import numpy as np

from literaki_cli import _core

#: Larger than any spread: the search window's open ends.
INFINITY = int(_core.ENDGAME_INFINITY)
#: Limit checks between two looks at the clock (and at Ctrl-C): a node budget may be overrun by
#: no more than this.
CLOCK_EVERY = int(_core.ENDGAME_CLOCK_EVERY)
#: The most plies a search may go down (a game from an empty bag is far shorter: see the solver).
MAX_PLY = int(_core.ENDGAME_MAX_PLY)
#: Rack slots (slot 0: blanks), and the counts of one slot the keys cover (the core's).
RACK_SLOTS, MAX_COUNT = int(_core.RACK_SLOTS), int(_core.ENDGAME_MAX_COUNT)


def endgame_rules(squares: int, slot_value: np.ndarray, passes_to_end: int, playout: bool,
                  seed: int) -> _core.EndgameRules:  # fmt: skip
    """The end rules of a board of ``squares`` squares (``slot_value``: a rack slot's value at the
    end; ``passes_to_end``: passes in a row that end the game) with Zobrist keys drawn from
    ``seed`` (odd 64-bit numbers: any fixed seed, the keys only need to differ)."""
    rng = np.random.default_rng(seed)

    def keys(*shape):
        return rng.integers(0, 2**63, size=shape, dtype=np.int64).astype(np.uint64) * np.uint64(2) + np.uint64(1)

    return _core.EndgameRules(keys(squares, 128), keys(2, RACK_SLOTS, MAX_COUNT), keys(2), keys(passes_to_end),
                              np.ascontiguousarray(slot_value, dtype=np.int64), playout)  # fmt: skip
