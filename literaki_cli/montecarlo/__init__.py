"""Look-ahead: Monte Carlo simulation of candidate moves and the win-probability model it uses.

Imports go one way: this package uses ``engine`` and ``equity``; ``analysis`` and ``commands``
use it."""
