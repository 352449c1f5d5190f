"""The simulation's rollouts: one candidate played into one future, then ``plies`` turns in which
each side plays its best move by static equity (or its best exchange).  They run in the Rust
core (``rust/src/rollout.rs``, called through ``_core.Simulation`` by
:class:`literaki_cli.montecarlo.simulation.Simulator`); this module names the numbers that pass
between the two.

The rules are the simulation's, step for step: a move's tiles leave the rack (the first of
each letter), the rack is refilled from the front of the bag, an exchange puts its tiles at the
back, a tile on a forced-exchange square swaps the next player's rack while the bag allows, the
game ends when a rack empties with the bag empty (the other's tiles count twice) or after two
passes each.  The opponent's first reply is shared by the candidates of one future: the
position's anchors with their best moves are found once, and each candidate's reply searches
only the lines it changed.  Only the win model's lookup stays in Python.
"""

#: What a candidate (or a ply) does.
PLACE_KIND, EXCHANGE_KIND, PASS_KIND = 0, 1, 2
#: Passes in a row that end a two-player game (two each).
PASSES_TO_END = 4
#: The slots of a rollout's answer: the spread change, whether the game ended, who moved last,
#: the bag left, the plies played, then each ply's score and bingo (0/1).
SPREAD, OVER, LAST, BAG_LEFT, PLAYED, PLY_SCORES = 0, 1, 2, 3, 4, 5
#: Room for the tiles a rack or the bag may hold at once.
RACK_ROOM = 64
