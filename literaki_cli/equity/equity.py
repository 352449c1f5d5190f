"""Equity = score + leave value, with the rule for the end of the bag, for moves and exchanges.

The bag-end rule (a project choice, the parameters of :class:`EquityRules`):

* while the bag holds at least ``shrink_below`` tiles, a leave counts its full learned value;
* below that it counts ``bag / shrink_below`` of it (fewer tiles will be drawn to it, and the
  game is nearly over: a good leave has fewer turns left to pay off);
* with an empty bag nothing is drawn: the leave is the tiles you will be left with, and each
  costs ``kept_tile_factor`` x its value (Literaki's end: your leftover tiles are deducted from
  your score and, when the opponent goes out, added to theirs).  The exact endgame search
  replaces this rule where it is used.

Exchanges are candidates with score 0: every distinct choice of tiles to keep is valued, the
best few are offered (only while the rules allow an exchange).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from literaki_cli.engine import alphabet
from literaki_cli.engine.movegen import SCORE
from literaki_cli.engine.position import BLANK
from literaki_cli.engine.variant import Variant
from literaki_cli.equity.leaves import MAX_LEAVE, LeaveTable, RackLeaves, rack_leaves


@dataclass(frozen=True)
class EquityRules:
    """How leave values count as the bag empties (see the module docstring)."""

    shrink_below: int = 10
    kept_tile_factor: float = 2.0

    def weights(self, bag: int) -> tuple[float, float]:
        """(weight of the learned leave value, points lost per point of a kept tile) for a
        move made with ``bag`` tiles in the bag."""
        if bag <= 0:
            return 0.0, self.kept_tile_factor
        return min(1.0, bag / self.shrink_below) if self.shrink_below > 0 else 1.0, 0.0


@dataclass(frozen=True)
class Exchange:
    """An exchange candidate: the tiles returned, the tiles kept and the kept tiles' value."""

    tiles: str
    keep: str
    equity: float


class Equity:
    """Equity of moves for one leave table and variant (the tile values of the end rule)."""

    def __init__(self, leaves: LeaveTable, variant: Variant, rules: EquityRules | None = None) -> None:
        self.leaves = leaves
        self.rules = rules or EquityRules()
        self.tile_value = variant.tables.tile_value.astype(np.int64)  # by letter code; the blank slot 0 is 0

    def for_rack(self, rack: str, bag: int) -> RackLeaves:
        """Every leave ``rack`` can keep, valued for a bag of ``bag`` tiles (compiled, once per
        rack: the moves and the exchanges of a turn share it)."""
        weight, kept_factor = self.rules.weights(bag)
        return rack_leaves(rack, self.leaves, self.tile_value, weight, kept_factor)

    def leave_values(self, records: np.ndarray, rack: str, bag: int) -> np.ndarray:
        """The leave value of every move record."""
        return self.for_rack(rack, bag).of_moves(records)

    def equities(self, records: np.ndarray, rack: str, bag: int) -> tuple[np.ndarray, np.ndarray]:
        """(equity, leave value) of every move record."""
        leave = self.leave_values(records, rack, bag)
        return records[:, SCORE].astype(np.float64) + leave, leave

    def leave_value(self, leave: str, bag: int) -> float:
        """The value of keeping ``leave`` with ``bag`` tiles in the bag (a whole rack kept, as by
        a pass, has no learned value: only the end rule's cost, as for the moves)."""
        weight, kept_factor = self.rules.weights(bag)
        leave = alphabet.normalize(leave)
        kept = sum(int(self.tile_value[alphabet.CODE_OF[ch]]) for ch in leave if ch != BLANK)
        learned = weight * self.leaves.value(leave) if weight and len(leave) <= MAX_LEAVE else 0.0
        return learned - kept_factor * kept

    def exchanges(self, rack: str, bag: int, limit: int | None = 5, leaves: RackLeaves | None = None) -> list[Exchange]:
        """The best exchanges (by the kept tiles' value), best first; ties by fewer tiles returned.
        ``leaves``: :meth:`for_rack` of this rack and bag, when already at hand."""
        leaves = leaves if leaves is not None else self.for_rack(rack, bag)
        values = leaves.values[:-1]  # the last keeps the whole rack: no exchange
        if not values.shape[0]:
            return []
        if limit == 1:  # the common case (a computer player's turn): no sort
            best = np.flatnonzero(values == values.max())
            order = best[np.argmax(leaves.sizes[best])][None]
        else:
            order = np.lexsort((-leaves.sizes[:-1], -values))
        out = []
        for i in order if limit is None else order[:limit]:
            keep = leaves.kept_text(int(i))
            returned = list(rack)
            for ch in keep:
                returned.remove(ch)
            out.append(Exchange("".join(returned), keep, float(values[i])))
        return out
