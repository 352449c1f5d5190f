"""Exact endgames (bag empty): the core's search and the solver that drives it."""
