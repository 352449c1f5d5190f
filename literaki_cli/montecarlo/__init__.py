"""Look-ahead: Monte Carlo simulation of candidate moves and the win-probability model it uses.

Imports go one way: this package uses ``engine``, ``equity``, ``games`` and ``analysis`` (solve
ranks the candidates; a review's turns are simulated); only ``commands`` uses it."""
