"""Which move is best: equity = score + the value of the tiles kept (the leave).

``leaves`` holds the learned leave values (the file format, the compiled lookup over move
arrays, the parametric model behind rare leaves); ``equity`` turns them into move equities with
the bag-end rule and ranks exchanges; ``train`` learns them from self-play tables.  Imports go
one way: this package uses :mod:`literaki_cli.engine`, the games and commands use it.
"""
