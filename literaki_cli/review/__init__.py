"""Played games reviewed: one game turn by turn (:mod:`.game_review`), its bag-empty turns by
the exact endgame search (:mod:`.endgame_review`), and many games at once.  The replay of a
record they walk is :mod:`literaki_cli.games.replay`.  Imports run one way: this package uses
``analysis`` (the best move of a position), ``endgame``, ``equity``, ``games``, ``io`` and
``engine``; nothing below imports it."""
