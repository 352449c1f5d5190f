"""Exact endgames (bag empty): the compiled search and the solver that drives it."""
